"""`python -m rulekit ...`: see `rulekit.cli`."""

from rulekit.cli import main

raise SystemExit(main(standalone=True))
