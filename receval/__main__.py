"""``python -m metrics evaluate|compare|protocol ...`` (also ``python -m receval ...``): see :mod:`receval.cli`."""

import os
import sys

# Two allocator settings, read when numpy and pyarrow are first imported, so set before anything
# imports them. Measured from files to means on this 2-core machine (10M rows, medians of 5, each
# setting alternated with the default): a freshly touched page costs a lot of system time here.
# - numpy asks the kernel for transparent huge pages on every array of 4 MiB or more; with huge
#   pages on request only ('madvise'), assembling them costs more than the faults they save
#   (CSV 4.1 -> 3.1 s).
# - pyarrow's default allocator (mimalloc) spent 1-2 s of system time on the CSV parse; jemalloc
#   reuses its pages (CSV 4.0 -> 2.9 s, Parquet 2.4 -> 1.95 s; the system allocator: 3.2 and 2.1 s).
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no linear algebra here: its idle threads only spin
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "jemalloc")

from receval.cli import main  # noqa: E402

try:
    code = main()
    sys.stdout.flush()
except BrokenPipeError:  # the reader went away (| head -1): no traceback, exit 1 as the Python docs advise
    code = 1
try:
    sys.stderr.flush()
except OSError:
    pass
# Every file is written and closed by now; tearing down the interpreter would only free the
# tables one by one (0.16 s after a 10M-row log). A Spark JVM exits when its pipe to us closes.
os._exit(code)
