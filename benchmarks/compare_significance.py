"""whole_logs.significance.compare over 100,000 users x 6 metrics with 10,000 resamples.

    python benchmarks/compare_significance.py [--users 100000] [--resamples 10000]

Prints the median of three runs for each test (every run includes the bootstrap interval).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from whole_logs.significance import compare  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    columns = ["precision@10", "recall@10", "hit_rate@10", "average_precision@10", "ndcg@10", "reciprocal_rank"]
    users = pd.RangeIndex(args.users, name="user")
    a = pd.DataFrame(rng.random((args.users, 6)), columns=columns, index=users)
    b = (a + rng.normal(0.005, 0.1, a.shape)).clip(0, 1)
    print(f"{args.users:,} users x {len(columns)} metrics, {args.resamples:,} resamples "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    for test in ("paired_t", "wilcoxon", "permutation"):
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            compare(a, b, test=test, n_resamples=args.resamples)
            times.append(time.perf_counter() - start)
        print(f"  {test:<12} median {statistics.median(times):6.2f} s  (runs: {', '.join(f'{t:.2f}' for t in times)})")


if __name__ == "__main__":
    main()
