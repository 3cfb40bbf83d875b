"""`python -m mtg_rulekit.export --out site`: see `mtg_rulekit.export`."""

from mtg_rulekit.export import main

raise SystemExit(main())
