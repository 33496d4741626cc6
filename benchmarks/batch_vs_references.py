"""The batch engine against trec_eval (pytrec_eval) and ranx, end to end from the same DataFrames.

Run from the project root (needs requirements-dev.txt)::

    python benchmarks/batch_vs_references.py            # 100,000 users x 100 recommendations
    python benchmarks/batch_vs_references.py --users 2000 --repeats 1   # a quick look

A synthetic log (:func:`whole_logs.synthetic.synthetic_log`, model quality 0.5) gives every user
100 recommendations (10 million rows) and 20 relevant items graded 1..3. Each contender starts
from the two DataFrames (``user``, ``item``, ``score`` and ``user``, ``item``, ``relevance``,
integer ids, rows grouped by user as a model writes them) and ends with the six means
P@10, R@10, HR@10, AP@10 (divided by |Rel|, as trec_eval ``map_cut`` and ranx ``map``), RR and
NDCG@10 (linear gain):

* this engine: :func:`whole_logs.batch.evaluate` and :func:`whole_logs.batch.summarize`;
* trec_eval: building pytrec_eval's nested dicts (ids must be text), ``RelevanceEvaluator``
  and ``evaluate``, then the means;
* ranx: text-id DataFrames, ``Qrels.from_df`` / ``Run.from_df`` and ``evaluate`` (after a
  warm-up call, so numba's compilation is not counted).

It checks that the three agree on every mean (to 1e-9), prints median wall-clock and CPU times,
ratios and the engine's peak memory, and exits with an error if they disagree. Scores are left unrounded, so
no user has tied scores and the libraries' different tie rules cannot matter (the tests cover
ties). A second engine timing starts from the same rows shuffled, which forces its full sort.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from whole_logs import batch  # noqa: E402
from whole_logs.synthetic import synthetic_log  # noqa: E402

K = 10
OURS = {"precision@10": "P@10", "recall@10": "R@10", "hit_rate@10": "HR@10",
        "average_precision@10": "AP@10", "reciprocal_rank": "RR", "ndcg@10": "NDCG@10"}
TREC = {"P_10": "P@10", "recall_10": "R@10", "success_10": "HR@10", "map_cut_10": "AP@10",
        "recip_rank": "RR", "ndcg_cut_10": "NDCG@10"}
RANX = {"precision@10": "P@10", "recall@10": "R@10", "hit_rate@10": "HR@10", "map@10": "AP@10",
        "mrr": "RR", "ndcg@10": "NDCG@10"}
TOLERANCE = 1e-9


def with_engine(recs: pd.DataFrame, truth: pd.DataFrame) -> dict[str, float]:
    per_user = batch.evaluate(recs, truth, K, denominator="relevant",
                              metrics=["precision", "recall", "hit_rate", "average_precision", "ndcg", "reciprocal_rank"])
    means = batch.summarize(per_user).means
    return {OURS[column]: float(means[column]) for column in OURS}


def _grouped(users: np.ndarray):
    """(start, end) of each user's rows; the rows must be grouped by user."""
    starts = np.flatnonzero(np.r_[True, users[1:] != users[:-1]])
    return zip(starts.tolist(), np.r_[starts[1:], users.size].tolist(), strict=True)


def _nested(users, items, values) -> dict:
    """{user: {item: value}} as pytrec_eval wants it, built one user slice at a time."""
    user_text, item_text = users.astype(str).tolist(), items.astype(str).tolist()
    values = values.tolist()
    return {user_text[a]: dict(zip(item_text[a:b], values[a:b], strict=True)) for a, b in _grouped(users)}


def with_pytrec_eval(recs: pd.DataFrame, truth: pd.DataFrame) -> dict[str, float]:
    import pytrec_eval

    run = _nested(recs["user"].to_numpy(), recs["item"].to_numpy(), recs["score"].to_numpy(dtype=float))
    qrels = _nested(truth["user"].to_numpy(), truth["item"].to_numpy(), truth["relevance"].to_numpy(dtype=np.int64))
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {f"P.{K}", f"recall.{K}", f"success.{K}", f"map_cut.{K}",
                                                       "recip_rank", f"ndcg_cut.{K}"})
    per_query = evaluator.evaluate(run)
    return {label: float(np.mean([scores[name] for scores in per_query.values()])) for name, label in TREC.items()}


def _ranx_frames(recs: pd.DataFrame, truth: pd.DataFrame):
    from ranx import Qrels, Run

    def text(column: pd.Series) -> pd.Series:
        return column.astype(str).astype(object)  # ranx asserts object-dtype ids

    run = pd.DataFrame({"q_id": text(recs["user"]), "doc_id": text(recs["item"]),
                        "score": recs["score"].astype(np.float64)})
    qrels = pd.DataFrame({"q_id": text(truth["user"]), "doc_id": text(truth["item"]),
                          "score": truth["relevance"].astype(np.int64)})
    return Qrels.from_df(qrels), Run.from_df(run)


def with_ranx(recs: pd.DataFrame, truth: pd.DataFrame) -> dict[str, float]:
    from ranx import evaluate

    qrels, run = _ranx_frames(recs, truth)
    means = evaluate(qrels, run, list(RANX))
    return {label: float(means[name]) for name, label in RANX.items()}


def warm_up_ranx() -> None:
    recs, truth = synthetic_log(users=5, list_length=12, relevant=3, seed=1)
    with_ranx(recs, truth)


def timed(call, repeats: int) -> tuple[float, float, dict]:
    """Median wall-clock seconds and median CPU seconds over ``repeats`` calls, and the last result.

    CPU time (this process, all its threads) hardly grows when other processes share the cores,
    so on a busy machine it estimates what the wall clock would show on an idle one (numpy and
    trec_eval use one thread; ranx's numba kernels may use both cores, so its CPU time can
    exceed its wall time).
    """
    wall, cpu, result = [], [], None
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = call()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu), result


def engine_peak_bytes(recs: pd.DataFrame, truth: pd.DataFrame) -> int:
    """Memory the engine allocates at its peak during one call (numpy reports to tracemalloc)."""
    tracemalloc.start()
    try:
        with_engine(recs, truth)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def max_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux


def compare(users: int, list_length: int = 100, relevant: int = 20, *, repeats: int = 5,
            reference_repeats: int = 3, seed: int = 0, verbose: bool = True) -> dict:
    """Time the three contenders on one synthetic log; raise if their means disagree."""
    say = print if verbose else (lambda *a, **k: None)
    recs, truth = synthetic_log(users=users, list_length=list_length, relevant=relevant, quality=0.5, seed=seed,
                                decimals=None)
    say(f"log: {users:,} users x {list_length} recommendations = {len(recs):,} rows; "
        f"{len(truth):,} ground-truth rows; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.2f}")
    with_engine(recs, truth)  # first call pays imports and page faults, like the warm-up below
    engine_s, engine_cpu, ours = timed(lambda: with_engine(recs, truth), repeats)
    rss_after_engine = max_rss_bytes()
    peak = engine_peak_bytes(recs, truth)
    shuffled = recs.sample(frac=1.0, random_state=seed)
    shuffled_s, shuffled_cpu, ours_shuffled = timed(lambda: with_engine(shuffled, truth), repeats)
    trec_s, trec_cpu, trec = timed(lambda: with_pytrec_eval(recs, truth), reference_repeats)
    warm_up_ranx()
    ranx_s, ranx_cpu, ranx_means = timed(lambda: with_ranx(recs, truth), reference_repeats)

    differences = {
        name: max(abs(ours[m] - other[m]) for m in ours)
        for name, other in (("trec_eval", trec), ("ranx", ranx_means), ("engine, shuffled rows", ours_shuffled))
    }
    result = {
        "rows": len(recs), "engine_s": engine_s, "engine_shuffled_s": shuffled_s, "pytrec_eval_s": trec_s,
        "ranx_s": ranx_s, "vs_pytrec_eval": trec_s / engine_s, "vs_ranx": ranx_s / engine_s,
        "cpu_s": {"engine": engine_cpu, "engine_shuffled": shuffled_cpu, "pytrec_eval": trec_cpu, "ranx": ranx_cpu},
        "engine_peak_bytes": peak, "max_rss_after_engine_bytes": rss_after_engine, "means": ours,
        "differences": differences, "load": os.getloadavg(),
    }
    say(f"\n{'':<24}{'median s':>10}{'x engine':>10}{'CPU s':>10}{'x engine':>10}")
    for label, wall, cpu in (("this engine", engine_s, engine_cpu), ("  rows shuffled", shuffled_s, shuffled_cpu),
                             ("pytrec_eval (trec_eval)", trec_s, trec_cpu), ("ranx", ranx_s, ranx_cpu)):
        say(f"{label:<24}{wall:>10.3f}{wall / engine_s:>10.1f}{cpu:>10.3f}{cpu / engine_cpu:>10.1f}")
    say(f"\nengine peak memory during a call: {peak / 2**30:.2f} GiB; "
        f"process peak RSS after the engine runs (inputs included): {rss_after_engine / 2**30:.2f} GiB")
    say("means: " + ", ".join(f"{m} {v:.6f}" for m, v in ours.items()))
    say("largest difference from this engine: " + ", ".join(f"{n} {d:.1e}" for n, d in differences.items()))
    say(f"load average (1, 5, 15 min) at the end: {', '.join(f'{v:.2f}' for v in os.getloadavg())}")
    bad = {name: d for name, d in differences.items() if not d <= TOLERANCE}
    if bad:
        raise AssertionError(f"means disagree with this engine by more than {TOLERANCE}: {bad}")
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--list-length", type=int, default=100)
    parser.add_argument("--relevant", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5, help="timed calls of the engine")
    parser.add_argument("--reference-repeats", type=int, default=3, help="timed calls of each library")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # numba's type-safety warnings from ranx
    compare(args.users, args.list_length, args.relevant, repeats=args.repeats,
            reference_repeats=args.reference_repeats)


if __name__ == "__main__":
    main()
