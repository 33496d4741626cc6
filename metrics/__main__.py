"""``python -m metrics evaluate ...`` and ``python -m metrics compare ...``: see :mod:`metrics.cli`."""

import sys

from metrics.cli import main

sys.exit(main())
