"""The protocol lab end to end: each preset on ML-100K, the page's cached rerun, and ML-1M-sized data.

    python benchmarks/protocol_lab.py [--repeats 3] [--skip-1m]

- each preset: split, train the four models (tuned ones on a validation split too), rank the full catalogue
  for every test user, evaluate (and sample negatives for the sampled preset); median of ``--repeats`` fresh runs;
- the page's rerun once a preset is cached (what every reader after the first waits, server-side with AppTest);
- a reader's own protocol (each split; full, sampled and tuned): the time to its first model's row on the page
  (the rows come one model at a time) and to the whole table;
- against what a user would otherwise pick: the same MF model scored with implicit's own
  ``ranking_metrics_at_k`` on the same split (full catalogue, training items left out);
- ML-1M-sized data generated to the same shape (6,040 users x 3,706 items, 1,000,209 interactions, a Zipf
  popularity and a time per interaction): the four models under leave-last-out, time and peak memory.

A slow answer is printed as it is, never an error.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from protocols import evaluation, lab, models, movielens, presets  # noqa: E402


def _median(times: list[float]) -> str:
    return f"median {statistics.median(times):6.2f} s  (runs: {', '.join(f'{t:.2f}' for t in times)})"


def ml1m_shaped(seed: int = 0, users: int = 6_040, items: int = 3_706, rows: int = 1_000_209) -> pd.DataFrame:
    """Interactions shaped like ML-1M: every user at least 20, item popularity Zipf-like, times over 3 years."""
    rng = np.random.default_rng(seed)
    activity = rng.lognormal(0.0, 1.0, users)  # ML-1M's users: a median near 100 ratings, a few over 2,000
    per_user = 20 + rng.multinomial(rows - 20 * users, activity / activity.sum())  # exactly ``rows`` in all
    popularity = 1.0 / np.arange(1, items + 1) ** 0.9
    popularity /= popularity.sum()
    frames = []
    for user, count in enumerate(np.minimum(per_user, items)):
        chosen = rng.choice(items, size=count, replace=False, p=popularity)
        frames.append(pd.DataFrame({"user": user, "item": chosen}))  # a heavy user capped at the catalogue
    frame = pd.concat(frames, ignore_index=True)
    frame["rating"] = rng.integers(1, 6, len(frame))
    frame["timestamp"] = rng.integers(956_703_932, 1_046_454_590, len(frame))
    return frame


def implicit_reference(frame: pd.DataFrame, repeats: int = 5) -> tuple[float, float, float, float]:
    """(ours seconds, implicit seconds, our NDCG@10, implicit's NDCG@10) for MF on a random split: medians of
    ``repeats`` timings of each on the one trained model (a single timing of 0.05 s swings by half)."""
    from implicit.evaluation import ranking_metrics_at_k
    from threadpoolctl import threadpool_limits

    split = lab.splits.random_holdout(frame, 0.2, seed=0)
    enc = evaluation.Encoded.of(split.train, split.test)
    model = models.MatrixFactorisation().fit(evaluation._seen(enc))
    test = enc.test[enc.test["item_code"] >= 0]
    test_matrix = models.interaction_matrix(test["user_code"].to_numpy(), test["item_code"].to_numpy(), *enc.shape)
    ours_times, theirs_times = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        per_user, _ = evaluation.full_catalogue(model, enc, 10)
        ours_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        with threadpool_limits(1, "blas"):
            theirs = ranking_metrics_at_k(model._model, evaluation._seen(enc), test_matrix, K=10,
                                          show_progress=False, num_threads=1)
        theirs_times.append(time.perf_counter() - start)
    return (statistics.median(ours_times), statistics.median(theirs_times), float(per_user["ndcg@10"].mean()),
            float(theirs["ndcg"]))


def page_reruns(repeats: int) -> None:
    import logging

    from streamlit.testing.v1 import AppTest

    logging.getLogger("streamlit").setLevel(logging.ERROR)
    root = Path(__file__).resolve().parents[1]
    for key in presets.PRESETS:
        presets.measured(key)
        at = AppTest.from_file(str(root / "app.py"), default_timeout=120)
        at.switch_page("pages/22_Protocol_lab.py")
        at.session_state["protocol_preset"] = key
        at.run()
        at.button(key=f"protocol_run_{key}").click().run()
        times = []
        for _ in range(max(repeats, 5)):
            start = time.perf_counter()
            at.run()
            times.append(time.perf_counter() - start)
        print(f"  page rerun, {key} cached {_median(times)}")


def own_protocols(frame: pd.DataFrame) -> None:
    for split in lab.splits.SPLITS:
        for candidates, tuned in (("full", False), ("uniform:100", False), ("full", True)):
            start, first = time.perf_counter(), []
            lab.run(frame, lab.Protocol(split=split, candidates=candidates, tuned=tuned), list(presets.MODELS),
                    on_model=lambda _partial: first.append(time.perf_counter() - start) if not first else None)
            print(f"  own protocol {split:<18} {candidates:<12} {'tuned' if tuned else 'untuned':<8} first row "
                  f"{first[0]:5.2f} s, whole table {time.perf_counter() - start:5.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-1m", action="store_true")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    frame = movielens.installed_ml100k()
    for key, preset in presets.PRESETS.items():
        times = []
        for _ in range(args.repeats):
            evaluation._corrector.cache_clear()
            start = time.perf_counter()
            presets.finding(preset, presets.run(preset, frame))
            times.append(time.perf_counter() - start)
        print(f"  preset {key:<22} {_median(times)}")
    page_reruns(args.repeats)
    own_protocols(frame)
    ours, theirs, our_ndcg, their_ndcg = implicit_reference(frame, max(args.repeats, 5))
    print(f"  full-catalogue scoring of MF, ML-100K random split (medians): ours {ours:.3f} s, implicit's ranking_metrics_at_k "
          f"{theirs:.3f} s (ratio {theirs / ours:.2f}x); NDCG@10 ours {our_ndcg:.4f}, implicit {their_ndcg:.4f} "
          "(implicit's NDCG divides by the ideal of min(K, held-out) items too; its ties are broken by score order)")
    if not args.skip_1m:
        big = ml1m_shaped()
        start = time.perf_counter()
        result = lab.run(big, lab.Protocol(split="leave-last-out"), list(presets.MODELS))
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / 1024
        per_model = ", ".join(f"{name} {r.seconds:.1f} s" for name, r in result.models.items())
        print(f"  ML-1M-sized ({len(big):,} interactions): leave-last-out, four models {seconds:.1f} s "
              f"({per_model}); peak memory of this process {peak:.2f} GiB")


if __name__ == "__main__":
    main()
