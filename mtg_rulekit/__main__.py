"""`python -m mtg_rulekit ...`: see `mtg_rulekit.cli`."""

from mtg_rulekit.cli import main

raise SystemExit(main(standalone=True))
