"""`python -m reference ...`: the reference server's command line."""

import sys

from reference.cli import main

sys.exit(main())
