"""How fast the labs' engines are: random orderings (metrics.baselines) and sampled negatives (metrics.sampled).

Run from the project root: ``python benchmarks/baselines_and_sampling.py``. Prints the median and
fastest of several repeats, in one process, and the ratio to the issue's target of one second.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from metrics.baselines import random_distribution, random_expectation  # noqa: E402
from metrics.sampled import Simulation, compare, default_negatives, sweep  # noqa: E402


def timed(function, repeats: int) -> list[float]:
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        timings.append(time.perf_counter() - start)
    return timings


def main() -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average (1 min) at start: {load:.2f}")
    cases = []
    for n_candidates, repeats in ((100, 9), (1000, 5)):
        candidates = list(range(n_candidates))
        truth = {i: 1 + i % 3 for i in range(0, n_candidates, 10)}  # 10% relevant, graded
        cases.append((f"random_distribution: 10,000 orderings of {n_candidates}",
                      lambda c=candidates, t=truth: random_distribution(c, t, 10, n=10_000, denominator="hits"),
                      repeats))
        cases.append((f"random_expectation ({n_candidates} candidates, hits denominator)",
                      lambda c=candidates, t=truth: random_expectation(c, t, 10, denominator="hits"), repeats))
    sim = Simulation()
    cases.append(("sampled compare (10,000 items, 2,000 users, n=100)", lambda: compare(sim, 100), 9))
    cases.append((f"sampled sweep ({len(default_negatives(sim.n_items))} values of n)",
                  lambda: sweep(sim, default_negatives(sim.n_items)), 5))
    big = Simulation(n_items=100_000, n_users=100_000)
    cases.append(("sampled compare (100,000 items, 100,000 users)", lambda: compare(big, 100), 3))
    print(f"{'what':<58}{'median ms':>11}{'fastest ms':>12}{'of 1 s':>9}")
    for name, function, repeats in cases:
        timings = timed(function, repeats)
        median = statistics.median(timings)
        print(f"{name:<58}{median * 1000:>11.1f}{min(timings) * 1000:>12.1f}{median:>9.2f}")


if __name__ == "__main__":
    main()
