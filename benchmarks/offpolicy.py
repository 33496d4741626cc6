"""Off-policy evaluation's engine timed: many simulated logs and the Open Bandit Dataset end to end.

    python benchmarks/offpolicy.py [--repeats 3] [--logs 1000] [--rounds 10000] [--obp-source PATH] [--page-only]

- building the ML-100K world (three models fitted, 50 candidates per user);
- bias, variance and RMSE of every estimator over ``--logs`` logs of ``--rounds`` rounds each (drawn in
  blocks of logs, no Python loop per round); the target is 10 s for 1,000 x 10,000;
- the Open Bandit Dataset: read obp's archive, 100,000 Bernoulli TS simulations, the estimators (obp's
  README figure 1.198126 printed beside it);
- the Logged feedback page's presets end to end (``offpolicy.presets``: each on the shared ML-100K world, the
  fourth training the protocol lab's three models), and its own-settings view at the default and the largest log;
  the target is 3 s each. ``--page-only`` times these alone.

Medians of ``--repeats`` runs. A slow answer is printed as it is, never an error; without obp's archive that
part says so and is left out.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from offpolicy import explore, obd, presets, simulate  # noqa: E402
from protocols import movielens  # noqa: E402


def _median(times: list[float]) -> str:
    return f"median {statistics.median(times):6.2f} s  (runs: {', '.join(f'{t:.2f}' for t in times)})"


def timed(repeats: int, work):
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return times, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--logs", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--obp-source", default=None)
    parser.add_argument("--page-only", action="store_true", help="time the Logged feedback page's presets alone")
    args = parser.parse_args()

    frame = movielens.installed_ml100k()
    times, world = timed(args.repeats, lambda: simulate.from_interactions(frame))
    print(f"ML-100K world (ease truth, pop logger, itemknn target, 50 candidates): {_median(times)}")
    page_presets(args.repeats, frame, world)
    if args.page_only:
        return
    times, estimates = timed(args.repeats, lambda: simulate.repeated_estimates(world, args.rounds, args.logs))
    target = " (target 10 s)" if (args.logs, args.rounds) == (1000, 10_000) else ""
    print(f"{args.logs:,} logs x {args.rounds:,} rounds, every estimator + ESS: {_median(times)}{target}")
    table = simulate.accuracy(estimates, world.truth)
    print(f"  true value {world.truth:.5f}; mean ESS {estimates['ess'].mean():,.0f} of {args.rounds:,}")
    print(table.to_string(float_format=lambda v: f"{v: .6f}"))

    try:
        source = obd.find_source(args.obp_source)
    except obd.SourceUnavailable as error:
        print(f"Open Bandit Dataset: left out ({error})")
        return
    times, found = timed(args.repeats, lambda: obd.reproduce(source))
    print(f"Open Bandit Dataset, Bernoulli TS from the Random logs (100,000 simulations): {_median(times)}")
    print(f"  relative value {found.relative_value:.6f} (obp's README: {obd.README_VALUE}), Monte Carlo error "
          f"{found.monte_carlo_error:.6f}; BTS logs' mean click {found.bts_mean_click:.4f}, Random's "
          f"{found.random_mean_click:.4f}")
    print(found.estimates.to_string(float_format=lambda v: f"{v: .6f}"))


def page_presets(repeats: int, frame, world) -> None:
    """The Logged feedback page: each preset end to end on the world built once per server, and the own-settings
    view (one log shown, 100 logs for the bias and RMSE)."""
    for key in presets.PRESETS:
        work = (lambda: presets.popularity_recall(frame)) if key == "popularity_recall" else (
            lambda key=key: getattr(presets, key)(world))
        times, _ = timed(repeats, work)
        print(f"Logged feedback preset {key:<18}: {_median(times)} (target 3 s)")
    for rounds in (explore.DEFAULTS["rounds"], max(explore.SIZES)):
        times, _ = timed(repeats, lambda rounds=rounds: explore.explore(world, 1.0, rounds, 100.0))
        print(f"Logged feedback own settings, {rounds:>6,} rounds x {explore.REPEATS} logs: {_median(times)}")


if __name__ == "__main__":
    main()
