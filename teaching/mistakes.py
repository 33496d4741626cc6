"""Common mistaken conventions, computed on purpose, so practice mode can name the one a learner made.

Each function takes the same input as the correct metric and returns what a hand calculation with
that one mistake gives, or ``None`` where the mistake has no finite value (a rank counted from 0
puts a zero in a denominator when the first hit is at rank 1). The conventions that are only a
different choice (AP divided by |Rel| or by the hits, exponential gain, RR cut at K, the ideal
built from the list only) are already in :mod:`metrics.ranked_metrics` and :mod:`metrics.ndcg`.
"""

from __future__ import annotations

import numpy as np

from metrics._validation import check_grades, check_k, check_ranking, relevant_items
from metrics.ndcg import gain_of, ideal_relevances
from metrics.ranked_metrics import ap_denominator, average_precision_table, first_hit_rank


def _list_relevances(recommended, ground_truth) -> list[float]:
    grades = check_grades(ground_truth)
    return [grades.get(item, 0.0) for item in check_ranking(recommended)]


def _dcg(relevances, k: int, gain: str, discount) -> float:
    rel = np.asarray(relevances, dtype=float)[: check_k(k)]
    ranks = np.arange(1, rel.size + 1)
    return float(np.sum(gain_of(rel, gain) * discount(ranks)))


def _ndcg(recommended, ground_truth, k, gain, discount) -> float:
    ideal = _dcg(ideal_relevances(ground_truth), k, gain, discount)
    return _dcg(_list_relevances(recommended, ground_truth), k, gain, discount) / ideal if ideal > 0 else 0.0


def _discount_off_by_one(ranks):
    return 1.0 / np.log2(ranks + 2)


def dcg_log_base_e(recommended, ground_truth, k, *, gain="linear") -> float:
    r"""DCG@K with the natural log in the discount: :math:`\sum g(\mathrm{rel}_i)/\ln(i+1)`.

    NDCG does not change (the base cancels in DCG / IDCG); DCG grows by 1/ln 2.

    Examples
    --------
    >>> round(dcg_log_base_e([1, 2, 3], {1: 1, 3: 1}, 3), 4)  # 1/ln 2 + 1/ln 4
    2.164
    """
    return _dcg(_list_relevances(recommended, ground_truth), k, gain, lambda r: 1.0 / np.log(r + 1))


def dcg_ranks_off_by_one(recommended, ground_truth, k, *, gain="linear") -> float:
    r"""DCG@K with the discount meant for ranks counted from 0 used on ranks counted from 1: 1/log2(i+2).

    Examples
    --------
    >>> round(dcg_ranks_off_by_one([1, 2], {1: 1}, 2), 4)  # 1/log2(3)
    0.6309
    """
    return _dcg(_list_relevances(recommended, ground_truth), k, gain, _discount_off_by_one)


def ndcg_ranks_off_by_one(recommended, ground_truth, k, *, gain="linear") -> float:
    """NDCG@K with :func:`dcg_ranks_off_by_one` in both DCG and IDCG.

    Examples
    --------
    >>> round(ndcg_ranks_off_by_one([1, 2], {2: 1}, 2), 4)  # (1/log2 4) / (1/log2 3)
    0.7925
    """
    return _ndcg(recommended, ground_truth, k, gain, _discount_off_by_one)


def average_precision_ranks_from_zero(recommended, ground_truth, k, *, denominator="min") -> float | None:
    """AP@K with precision at a hit taken as hits so far / (rank - 1): ranks counted from 0.

    ``None`` when a hit sits at rank 1 (it would divide by 0).

    Examples
    --------
    >>> average_precision_ranks_from_zero([1, 2, 3], {2}, 3)  # 1/1 instead of 1/2
    1.0
    >>> average_precision_ranks_from_zero([1, 2, 3], {1}, 3) is None
    True
    """
    table = average_precision_table(recommended, ground_truth, k)
    hits = table[table["hit"]]
    if (hits["rank"] == 1).any():
        return None
    d = ap_denominator(len(relevant_items(ground_truth)), check_k(k), len(hits), denominator)
    return float((hits["hits_so_far"] / (hits["rank"] - 1)).sum() / d) if d else 0.0


def reciprocal_rank_from_zero(recommended, ground_truth) -> float | None:
    """RR with the first hit's rank counted from 0: 1 / (rank - 1); ``None`` when it is rank 1.

    Examples
    --------
    >>> reciprocal_rank_from_zero([1, 2, 3], {3})
    0.5
    """
    rank = first_hit_rank(recommended, ground_truth)
    if rank is None:
        return 0.0
    return None if rank == 1 else 1.0 / (rank - 1)


def ndcg_ideal_from_top_k(recommended, ground_truth, k, *, gain="linear") -> float:
    """NDCG@K with the ideal built only from the grades in the list's own top K, sorted best first.

    Relevant items below rank K, or never recommended, are left out of IDCG, so the score is too high.

    Examples
    --------
    >>> round(ndcg_ideal_from_top_k([1, 2, 3], {2: 1, 3: 1}, 2), 4)  # ideal of [0, 1]: 1; right: 1 + 1/log2 3
    0.6309
    """
    relevances = _list_relevances(recommended, ground_truth)
    ideal = _dcg(sorted(relevances[: check_k(k)], reverse=True), k, gain, lambda r: 1.0 / np.log2(r + 1))
    return _dcg(relevances, k, gain, lambda r: 1.0 / np.log2(r + 1)) / ideal if ideal > 0 else 0.0
