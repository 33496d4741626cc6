"""How long the library lens takes to score a list ten libraries' ways (medians, one process).

Run from the project root: ``python benchmarks/library_lens.py``. ``compare`` is everything the
lens page computes: each library's values, the app's, and the differences with their causes
(validating the input once and sharing a memo between the table and the search for causes).
The ratio says how the cost grows from the seed's 10 items to a 200-item list.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from metrics import conventions as conv  # noqa: E402

SEED = ([str(i) for i in range(101, 111)], {"101": 5.0, "104": 4.0, "107": 3.0, "999": 5.0}, 10)
LONG = ([str(i) for i in range(200)], {str(i): float(i % 4) for i in range(0, 400, 3)}, 20)


def median_ms(function, repeats: int = 15) -> float:
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1000


def main() -> None:
    seed = median_ms(lambda: conv.compare(*SEED))
    long = median_ms(lambda: conv.compare(*LONG))
    print(f"compare, seed graded (10 items):        {seed:7.1f} ms median")
    print(f"compare, 200 items with 133 judged:     {long:7.1f} ms median")
    print(f"ratio 200 items / 10 items:             {long / seed:7.1f}")


if __name__ == "__main__":
    main()
