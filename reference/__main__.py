"""`python -m cruxgate.reference`: the reference server's command line (the same as `cruxgate`)."""

import sys

from cruxgate.reference.cli import main

sys.exit(main())
