"""``python -m shipwreck``: the ``shipwreck`` command."""

import sys

from shipwreck.cli import main

sys.exit(main())
