"""Order-aware metrics: average precision, reciprocal rank and their means over users."""

from __future__ import annotations

import numpy as np
import pandas as pd

from metrics._validation import check_choice, check_k, check_ranking, relevant_items

AP_DENOMINATORS = ("min", "relevant", "hits")
"""How AP@K is normalised: by min(|Rel|, K) (the seed; Recommenders ``map_at_k``, RecBole),
by |Rel| (trec_eval ``map_cut``, ranx), or by the hits in the top K (torchmetrics)."""


def _top_k_hits(recommended, ground_truth, k) -> tuple[list, np.ndarray, set]:
    """The top K items, whether each is relevant, and the relevant set (inputs checked)."""
    k = check_k(k)
    top_k = check_ranking(recommended)[:k]
    relevant = relevant_items(ground_truth)
    return top_k, np.fromiter((item in relevant for item in top_k), dtype=bool, count=len(top_k)), relevant


def average_precision_table(recommended, ground_truth, k) -> pd.DataFrame:
    """One row per rank in the top K: rank, item, hit, hits so far, precision@i, contribution.

    The contribution is precision@i on a hit and 0 otherwise; AP@K is their sum divided by
    :func:`ap_denominator`.

    Examples
    --------
    >>> average_precision_table([101, 102, 103, 104], {101, 104}, k=4)["contribution"].tolist()
    [1.0, 0.0, 0.0, 0.5]
    """
    top_k, hit, relevant = _top_k_hits(recommended, ground_truth, k)
    rank = np.arange(1, len(top_k) + 1)
    hits_so_far = np.cumsum(hit)
    precision = hits_so_far / rank
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
    _, hit, relevant = _top_k_hits(recommended, ground_truth, k)
    d = ap_denominator(len(relevant), k, int(hit.sum()), denominator)
    if not d:
        return 0.0
    precision_at_hits = np.cumsum(hit)[hit] / (np.flatnonzero(hit) + 1)
    return float(precision_at_hits.sum() / d)


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

    Users with an empty ground truth count as 0, as in the seed and ranx. trec_eval leaves a
    query with no judgments out of its mean instead, which gives a higher MAP.

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


def ap_denominator_table(recommended, ground_truth, k) -> pd.DataFrame:
    """AP@K under each of :data:`AP_DENOMINATORS`: the number divided by and the result.

    Parameters
    ----------
    recommended : sequence of hashable
        Ranked list, best first, no repeated item.
    ground_truth : set or dict
        Relevant items, or ``{item: grade}`` (grade > 0 is relevant).
    k : int
        Cut-off, a positive integer.

    Returns
    -------
    pandas.DataFrame
        One row per denominator: ``denominator``, ``sum_of_precisions`` (the numerator),
        ``divide_by`` (D) and ``ap`` (0.0 when D is 0).

    Raises
    ------
    ValueError
        If ``k`` is not a positive integer, ``recommended`` repeats an item, or a grade is negative.

    Examples
    --------
    >>> rec = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
    >>> table = ap_denominator_table(rec, {103, 105, 108, 999}, 10)
    >>> table["divide_by"].tolist(), table["ap"].round(4).tolist()
    ([4, 4, 3], [0.2771, 0.2771, 0.3694])
    """
    table = average_precision_table(recommended, ground_truth, k)
    n_relevant = len(relevant_items(ground_truth))
    n_hits = int(table["hit"].sum())
    total = float(table["contribution"].sum())
    rows = []
    for name in AP_DENOMINATORS:
        d = ap_denominator(n_relevant, int(k), n_hits, name)
        rows.append({"denominator": name, "sum_of_precisions": total, "divide_by": d,
                     "ap": total / d if d else 0.0})
    return pd.DataFrame(rows)


def per_user_table(users, all_recommended, all_ground_truth, k, *, denominator="min") -> pd.DataFrame:
    """AP@K, RR and the first-hit rank of each user: the rows MAP@K and MRR average.

    Parameters
    ----------
    users : sequence of hashable
        One name per user, in the same order as the two lists below.
    all_recommended : sequence of sequences
        Each user's ranked list, best first, no repeated item within a list.
    all_ground_truth : sequence of sets or dicts
        Each user's relevant items (or ``{item: grade}``, grade > 0 is relevant).
    k : int
        Cut-off for AP@K; RR has none.
    denominator : {"min", "relevant", "hits"}, keyword-only
        The AP@K denominator, see :func:`average_precision_at_k`.

    Returns
    -------
    pandas.DataFrame
        ``user``, ``ap``, ``rr``, ``first_hit_rank`` (nullable integer: <NA> when the user has
        no hit anywhere in the list).

    Raises
    ------
    ValueError
        If the three sequences differ in length, there is no user, or a user's input is invalid.

    Examples
    --------
    >>> per_user_table(["a", "b"], [[1, 2], [3, 4]], [{1}, {9}], k=2)["first_hit_rank"].tolist()
    [1, <NA>]
    """
    pairs = _per_user(all_recommended, all_ground_truth)
    users = list(users)
    if len(users) != len(pairs):
        raise ValueError(f"users has {len(users)} names but all_recommended has {len(pairs)} users")
    return pd.DataFrame({
        "user": pd.Series(users, dtype=object),
        "ap": [average_precision_at_k(r, g, k, denominator=denominator) for r, g in pairs],
        "rr": [reciprocal_rank(r, g) for r, g in pairs],
        "first_hit_rank": pd.array([first_hit_rank(r, g) for r, g in pairs], dtype="Int64"),
    })


def reciprocal_rank_at_k(recommended, ground_truth, k) -> float:
    r"""RR@K: like :func:`reciprocal_rank`, but 0.0 when the first hit is below rank K.

    .. math:: \mathrm{RR@K} = \frac{1}{\mathrm{rank}_{\text{first hit}}}\ \text{if that rank} \le K,\ \text{else } 0

    This is ranx ``mrr@k`` per user; trec_eval ``recip_rank`` and the seed have no cut-off.

    Examples
    --------
    >>> reciprocal_rank_at_k([1, 2, 3, 4], {4}, k=3), reciprocal_rank_at_k([1, 2, 3, 4], {4}, k=4)
    (0.0, 0.25)
    """
    k = check_k(k)
    rank = first_hit_rank(recommended, ground_truth)
    return 1.0 / rank if rank and rank <= k else 0.0


def reciprocal_rank_table(recommended, ground_truth) -> pd.DataFrame:
    """One row per rank: rank, item, relevant, first_hit and 1/rank (what RR would be if the
    first hit were there; RR is the value on the ``first_hit`` row, or 0 without one).

    Examples
    --------
    >>> reciprocal_rank_table(["a", "b", "c"], {"b", "c"})["first_hit"].tolist()
    [False, True, False]
    """
    items = check_ranking(recommended)
    relevant = relevant_items(ground_truth)
    first = first_hit_rank(items, ground_truth)
    rank = np.arange(1, len(items) + 1)
    return pd.DataFrame({
        "rank": rank,
        "item": pd.Series(items, dtype=object),
        "relevant": [item in relevant for item in items],
        "first_hit": rank == (first or 0),
        "one_over_rank": 1.0 / rank if len(items) else np.array([], dtype=float),
    })
