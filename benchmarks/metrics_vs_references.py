"""Median time of each metric here against the reference libraries, on the same inputs, in one process.

Run from the project root: ``python benchmarks/metrics_vs_references.py`` (needs requirements-dev.txt).
Prints, per metric, our median, the reference's median, and the ratio ours / reference (below 1
means faster). Each reference call is warmed up first (ranx compiles with numba on its first call).
"""

from __future__ import annotations

import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pytrec_eval  # noqa: E402
from ranx import Qrels, Run, evaluate  # noqa: E402
from sklearn import metrics as skm  # noqa: E402

from metrics import classification_metrics as cls  # noqa: E402
from metrics import ndcg, ranked_metrics, rating_metrics  # noqa: E402

RNG = np.random.default_rng(0)


def median_ms(call, repeats: int = 7) -> float:
    call()
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1000


def ranking_inputs(users: int = 1000, list_length: int = 20, k: int = 10):
    all_recommended, all_truth, qrels, run = [], [], {}, {}
    for u in range(users):
        items = [f"d{i}" for i in RNG.choice(200, list_length, replace=False)]
        truth = {f"d{i}": int(RNG.integers(1, 4)) for i in RNG.choice(200, 8, replace=False)}
        all_recommended.append(items)
        all_truth.append(truth)
        qrels[f"q{u}"] = truth
        run[f"q{u}"] = {item: float(list_length - rank) for rank, item in enumerate(items)}
    return all_recommended, all_truth, qrels, run, k


def main() -> None:
    warnings.simplefilter("ignore")
    n = 100_000
    y = RNG.integers(0, 2, n)
    scores = RNG.integers(0, 1000, n) / 1000
    predictions, actuals = RNG.normal(3, 1, n), RNG.normal(3, 1, n)
    true_rows, score_rows = RNG.integers(0, 4, (1000, 50)), RNG.integers(0, 10, (1000, 50))
    recs, truths, qrels, run, k = ranking_inputs()
    trec = pytrec_eval.RelevanceEvaluator(qrels, {f"map_cut.{k}", f"ndcg_cut.{k}"})
    ranx_qrels, ranx_run = Qrels(qrels), Run(run)

    rows = [
        ("RMSE, 100k ratings", "scikit-learn",
         lambda: rating_metrics.rmse(predictions, actuals), lambda: skm.root_mean_squared_error(actuals, predictions)),
        ("AUC with ties, 100k samples", "scikit-learn",
         lambda: cls.roc_auc(y, scores), lambda: skm.roc_auc_score(y, scores)),
        ("LogLoss, 100k samples", "scikit-learn",
         lambda: cls.log_loss(y, scores), lambda: skm.log_loss(y, scores)),
        ("ndcg_score with ties, 1000 x 50", "scikit-learn",
         lambda: ndcg.ndcg_score(true_rows, score_rows), lambda: skm.ndcg_score(true_rows, score_rows)),
        (f"MAP@{k}, 1000 users", "trec_eval",
         lambda: ranked_metrics.mean_average_precision_at_k(recs, truths, k, denominator="relevant"),
         lambda: trec.evaluate(run)),
        (f"MAP@{k}, 1000 users", "ranx",
         lambda: ranked_metrics.mean_average_precision_at_k(recs, truths, k, denominator="relevant"),
         lambda: evaluate(ranx_qrels, ranx_run, f"map@{k}")),
        (f"NDCG@{k} graded, 1000 users", "ranx",
         lambda: np.mean([ndcg.ndcg_at_k(r, t, k) for r, t in zip(recs, truths)]),
         lambda: evaluate(ranx_qrels, ranx_run, f"ndcg@{k}")),
    ]
    print(f"{'metric':<34}{'reference':<14}{'ours ms':>10}{'ref ms':>10}{'ours/ref':>10}")
    for name, reference, ours, theirs in rows:
        ours_ms, ref_ms = median_ms(ours), median_ms(theirs)
        print(f"{name:<34}{reference:<14}{ours_ms:>10.2f}{ref_ms:>10.2f}{ours_ms / ref_ms:>10.2f}")


if __name__ == "__main__":
    main()
