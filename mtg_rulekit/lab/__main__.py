"""`python -m mtg_rulekit.lab [jupyter lab options]`: see `mtg_rulekit.lab`."""

import sys

from mtg_rulekit.lab import main

sys.exit(main())
