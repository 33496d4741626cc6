"""``python -m metrics evaluate ...`` and ``python -m metrics compare ...``: see :mod:`metrics.cli`."""

import os
import sys

# numpy asks the kernel for transparent huge pages on every array of 4 MiB or more. Where huge
# pages come on request only (this machine's 'madvise' setting), a 10M-row log then spends more
# system time having them assembled than it saves in page faults: 10M-row CSV to means 4.1 -> 3.1 s
# (medians of 5). Read when numpy is first imported, so it is set before anything imports it.
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")

from metrics.cli import main  # noqa: E402

sys.exit(main())
