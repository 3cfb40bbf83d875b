"""`python -m rulekit.export --out site`: see `rulekit.export`."""

from rulekit.export import main

raise SystemExit(main())
