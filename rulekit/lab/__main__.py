"""`python -m rulekit.lab [jupyter lab options]`: see `rulekit.lab`."""

import sys

from rulekit.lab import main

sys.exit(main())
