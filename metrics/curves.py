"""Every K-dependent ranking metric at every K of a range, in one vectorised pass.

The per-K functions of ``topn_metrics``, ``ranked_metrics`` and ``ndcg`` are the definitions;
this module gives the same numbers for K = 1..n from running sums, so a metric-vs-K chart of a
200-item list costs one pass instead of 200 recomputations.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from metrics._validation import check_choice, check_grades, check_k, check_ranking
from metrics.ndcg import discounts, gain_of
from metrics.ranked_metrics import AP_DENOMINATORS


def metrics_over_k(recommended, ground_truth, ks, *, gain: str = "linear", ap_denominator: str = "min") -> pd.DataFrame:
    """Precision, Recall, F1, HR, AP and NDCG (binary and graded) @K for each K in ``ks``.

    Parameters
    ----------
    recommended : sequence of hashable
        Ranked list, best first, no repeated item.
    ground_truth : set or dict
        Relevant items, or ``{item: grade}`` (grade > 0 is relevant).
    ks : iterable of int
        Cut-offs, each a positive integer (they may exceed the list length: empty slots are misses).
    gain : {"linear", "exponential"}, keyword-only
        Gain of the graded NDCG.
    ap_denominator : {"min", "relevant", "hits"}, keyword-only
        The AP@K denominator, as in ``ranked_metrics.average_precision_at_k``.

    Returns
    -------
    pandas.DataFrame
        One row per K: ``k``, ``precision_at_k``, ``recall_at_k``, ``f1_at_k``, ``hit_rate_at_k``,
        ``ap_at_k``, ``ndcg_binary_at_k``, ``ndcg_graded_at_k``.

    Examples
    --------
    >>> table = metrics_over_k([101, 102, 103, 104], {101: 1, 104: 1, 999: 1}, [1, 4])
    >>> table[["k", "precision_at_k", "recall_at_k"]].to_dict("list")
    {'k': [1, 4], 'precision_at_k': [1.0, 0.5], 'recall_at_k': [0.3333333333333333, 0.6666666666666666]}
    """
    ks = np.array([check_k(k, "each k") for k in ks], dtype=int)
    check_choice(ap_denominator, "ap_denominator", AP_DENOMINATORS)
    items = check_ranking(recommended)
    grades = check_grades(ground_truth)
    n_relevant = sum(1 for g in grades.values() if g > 0)
    length = int(max(ks.max(initial=0), 1))
    # Per rank 1..length (slots past the list are empty: no hit, grade 0).
    grade = np.zeros(length)
    listed = [grades.get(item, 0.0) for item in items[:length]]
    grade[: len(listed)] = listed
    hit = grade > 0
    hits = np.cumsum(hit)
    precision_at_hits = np.cumsum(np.where(hit, hits / np.arange(1, length + 1), 0.0))
    disc = discounts(length)

    def dcg(values: np.ndarray) -> np.ndarray:
        return np.cumsum(values * disc)

    ideal = np.zeros(length)
    ordered = sorted(grades.values(), reverse=True)[:length]
    ideal[: len(ordered)] = ordered
    binary_idcg = dcg((ideal > 0).astype(float))
    graded_idcg = dcg(gain_of(ideal, gain))

    at = ks - 1
    h = hits[at].astype(float)
    precision = h / ks
    recall = h / n_relevant if n_relevant else np.zeros(len(ks))
    with np.errstate(divide="ignore", invalid="ignore"):
        f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
        divide_by = {"min": np.minimum(n_relevant, ks), "relevant": np.full(len(ks), n_relevant), "hits": h}[ap_denominator]
        ap = np.where(divide_by > 0, precision_at_hits[at] / divide_by, 0.0)
        ndcg_binary = np.where(binary_idcg[at] > 0, dcg(hit.astype(float))[at] / binary_idcg[at], 0.0)
        ndcg_graded = np.where(graded_idcg[at] > 0, dcg(gain_of(grade, gain))[at] / graded_idcg[at], 0.0)
    return pd.DataFrame({
        "k": ks, "precision_at_k": precision, "recall_at_k": recall, "f1_at_k": f1,
        "hit_rate_at_k": (h > 0).astype(float), "ap_at_k": ap,
        "ndcg_binary_at_k": ndcg_binary, "ndcg_graded_at_k": ndcg_graded,
    })
