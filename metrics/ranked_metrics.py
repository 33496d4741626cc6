"""Order-aware metrics: average precision, reciprocal rank and their means over users."""

from __future__ import annotations

import numpy as np
import pandas as pd

from metrics._validation import check_choice, check_k, check_ranking, relevant_items

AP_DENOMINATORS = ("min", "relevant", "hits")
"""How AP@K is normalised: by min(|Rel|, K) (the seed; Recommenders ``map_at_k``, RecBole),
by |Rel| (trec_eval ``map_cut``, ranx), or by the hits in the top K (torchmetrics)."""


def average_precision_table(recommended, ground_truth, k) -> pd.DataFrame:
    """One row per rank in the top K: rank, item, hit, hits so far, precision@i, contribution.

    The contribution is precision@i on a hit and 0 otherwise; AP@K is their sum divided by
    :func:`ap_denominator`.

    Examples
    --------
    >>> average_precision_table([101, 102, 103, 104], {101, 104}, k=4)["contribution"].tolist()
    [1.0, 0.0, 0.0, 0.5]
    """
    k = check_k(k)
    top_k = check_ranking(recommended)[:k]
    relevant = relevant_items(ground_truth)
    hit = np.array([item in relevant for item in top_k], dtype=bool)
    rank = np.arange(1, len(top_k) + 1)
    hits_so_far = np.cumsum(hit)
    precision = hits_so_far / rank if len(top_k) else np.array([], dtype=float)
    return pd.DataFrame(
        {
            "rank": rank,
            "item": pd.Series(top_k, dtype=object),
            "hit": hit,
            "hits_so_far": hits_so_far,
            "precision_at_i": precision,
            "contribution": np.where(hit, precision, 0.0),
        }
    )


def ap_denominator(n_relevant: int, k: int, n_hits: int, denominator: str = "min") -> int:
    """The number AP@K divides by, for one of :data:`AP_DENOMINATORS`."""
    check_choice(denominator, "denominator", AP_DENOMINATORS)
    return {"min": min(n_relevant, k), "relevant": n_relevant, "hits": n_hits}[denominator]


def average_precision_at_k(recommended, ground_truth, k, *, denominator="min") -> float:
    r"""AP@K: the mean of precision@i over the ranks i <= K that hold a relevant item.

    .. math:: \mathrm{AP@K} = \frac{1}{D}\sum_{i=1}^{K} P@i \cdot \mathrm{rel}_i

    Parameters
    ----------
    recommended : sequence of hashable
        Ranked list, best first, no repeated item.
    ground_truth : set or dict
        Relevant items, or ``{item: grade}`` (grade > 0 is relevant).
    k : int
        Cut-off, a positive integer.
    denominator : {"min", "relevant", "hits"}, keyword-only
        D above. ``"min"``: min(|Rel|, K), the seed document's definition, so a perfect
        top K scores 1 even when |Rel| > K. ``"relevant"``: |Rel|, as trec_eval ``map_cut``
        and ranx. ``"hits"``: the hits in the top K, as torchmetrics; never smaller than "min".

    Returns
    -------
    float
        In [0, 1]; higher is better. 0.0 when the ground truth is empty (as in the seed) or
        when there is no hit (also with ``"hits"``, whose denominator is then 0).

    Examples
    --------
    >>> rec = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
    >>> round(average_precision_at_k(rec, {101, 104, 107}, 10), 4)
    0.6429
    >>> round(average_precision_at_k(rec, {103, 105, 108, 999}, 10, denominator="hits"), 4)
    0.3694
    """
    table = average_precision_table(recommended, ground_truth, k)
    n_relevant = len(relevant_items(ground_truth))
    d = ap_denominator(n_relevant, k, int(table["hit"].sum()), denominator)
    return float(table["contribution"].sum() / d) if d else 0.0


def first_hit_rank(recommended, ground_truth) -> int | None:
    """The 1-based rank of the first relevant item in the whole list, or None if there is none.

    Examples
    --------
    >>> first_hit_rank(["a", "b", "c"], {"c"})
    3
    """
    relevant = relevant_items(ground_truth)
    for rank, item in enumerate(check_ranking(recommended), start=1):
        if item in relevant:
            return rank
    return None


def reciprocal_rank(recommended, ground_truth) -> float:
    r"""RR: one over the rank of the first relevant item in the whole list; 0.0 if none.

    .. math:: \mathrm{RR} = \frac{1}{\mathrm{rank}_{\text{first hit}}}

    No cut-off, as in the seed document and trec_eval ``recip_rank``.

    Examples
    --------
    >>> reciprocal_rank([101, 102, 103], {103})
    0.3333333333333333
    """
    rank = first_hit_rank(recommended, ground_truth)
    return 1.0 / rank if rank else 0.0


def _per_user(all_recommended, all_ground_truth) -> list[tuple]:
    users = list(zip(all_recommended, all_ground_truth, strict=False))
    n_rec, n_gt = len(all_recommended), len(all_ground_truth)
    if n_rec != n_gt:
        raise ValueError(
            f"all_recommended has {n_rec} users but all_ground_truth has {n_gt}"
        )
    if not users:
        raise ValueError("all_recommended is empty: there is no user to average over")
    return users


def mean_average_precision_at_k(all_recommended, all_ground_truth, k, *, denominator="min") -> float:
    r"""MAP@K: the mean of :func:`average_precision_at_k` over users.

    .. math:: \mathrm{MAP@K} = \frac{1}{|U|}\sum_{u \in U} \mathrm{AP@K}_u

    Users with an empty ground truth count as 0, as in trec_eval and the seed.

    Examples
    --------
    >>> mean_average_precision_at_k([[1, 2], [3, 4]], [{1}, {4}], k=2)
    0.75
    """
    users = _per_user(all_recommended, all_ground_truth)
    return float(
        np.mean([average_precision_at_k(r, g, k, denominator=denominator) for r, g in users])
    )


def mean_reciprocal_rank(all_recommended, all_ground_truth) -> float:
    r"""MRR: the mean of :func:`reciprocal_rank` over users.

    .. math:: \mathrm{MRR} = \frac{1}{|U|}\sum_{u \in U} \frac{1}{\mathrm{rank}_u}

    Examples
    --------
    >>> mean_reciprocal_rank([[1, 2], [3, 4]], [{1}, {4}])
    0.75
    """
    users = _per_user(all_recommended, all_ground_truth)
    return float(np.mean([reciprocal_rank(r, g) for r, g in users]))
