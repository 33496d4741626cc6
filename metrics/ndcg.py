"""Discounted cumulative gain and its normalised form, for item lists and for score arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics._validation import as_finite_array, check_choice, check_grades, check_k, check_ranking

GAINS = ("linear", "exponential")
"""``"linear"``: gain = rel (the first seed; trec_eval, scikit-learn, ranx ``ndcg``).
``"exponential"``: gain = 2^rel - 1 (the second seed; ranx ``ndcg_burges``, Burges et al. 2005)."""


def gain_of(relevances, gain: str = "linear") -> np.ndarray:
    """Gain per relevance grade: rel, or 2^rel - 1. Equal for binary grades."""
    check_choice(gain, "gain", GAINS)
    relevances = np.asarray(relevances, dtype=float)
    if gain == "linear":
        return relevances
    # expm1 keeps a tiny positive grade's gain positive; exp2 - 1 keeps integer grades exact.
    return np.where(relevances < 1, np.expm1(relevances * np.log(2)), np.exp2(relevances) - 1.0)


def other_gain(gain: str) -> str:
    """The gain that was not chosen, under which NDCG is shown beside the chosen one."""
    return "exponential" if check_choice(gain, "gain", GAINS) == "linear" else "linear"


def gains_by_grade(grades) -> pd.DataFrame:
    """Each distinct grade once, lowest first, with its linear and its exponential gain.

    >>> gains_by_grade([3, 1, 3, 0]).values.tolist()
    [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [3.0, 3.0, 7.0]]
    """
    grades = sorted(set(grades))
    return pd.DataFrame({"grade": grades, **{gain: gain_of(grades, gain) for gain in GAINS}})


def discounts(n: int) -> np.ndarray:
    """1 / log2(i + 1) for ranks i = 1..n."""
    return 1.0 / np.log2(np.arange(2, n + 2))


def _gains_and_discounts(relevances, k, gain) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The first K relevances (checked), their gains and their discounts."""
    k = check_k(k)
    rel = np.asarray(relevances, dtype=float)[:k]
    if rel.size and (not np.all(np.isfinite(rel)) or rel.min() < 0):
        raise ValueError(f"relevances must be finite numbers >= 0, got {rel.tolist()}")
    return rel, gain_of(rel, gain), discounts(rel.size)


def dcg_table(relevances, k, *, gain="linear", items=None) -> pd.DataFrame:
    """One row per rank i <= K: rank, item, relevance, gain, discount, contribution, running DCG.

    Examples
    --------
    >>> dcg_table([1, 0, 1], 3)["running_dcg"].round(4).tolist()
    [1.0, 1.0, 1.5]
    """
    rel, g, d = _gains_and_discounts(relevances, k, gain)
    table = pd.DataFrame(
        {
            "rank": np.arange(1, rel.size + 1),
            "item": pd.Series(list(items)[:k] if items is not None else [None] * rel.size, dtype=object),
            "relevance": rel,
            "gain": g,
            "discount": d,
            "contribution": g * d,
        }
    )
    table["running_dcg"] = table["contribution"].cumsum()
    return table


def dcg_at_k(relevances, k, *, gain="linear") -> float:
    r"""DCG@K of relevance grades given in ranked order.

    .. math:: \mathrm{DCG@K} = \sum_{i=1}^{K} \frac{g(\mathrm{rel}_i)}{\log_2(i+1)}

    with g(rel) = rel (``gain="linear"``) or 2^rel - 1 (``gain="exponential"``).
    Computed in float64 (the seed uses float32, which changes the 7th digit).

    Examples
    --------
    >>> round(dcg_at_k([3, 2, 3, 0, 1], 5, gain="exponential"), 4)
    12.7796
    """
    _, g, d = _gains_and_discounts(relevances, k, gain)
    return float(np.dot(g, d))


def ideal_relevances(ground_truth) -> list[float]:
    """Every grade of the ground truth, best first: the ideal ranking's relevances."""
    return sorted(check_grades(ground_truth).values(), reverse=True)


def ndcg_tables(recommended, ground_truth, k, *, gain="linear") -> tuple[pd.DataFrame, pd.DataFrame]:
    """The DCG table of the recommended list and the DCG table of the ideal ranking.

    The ideal ranking orders *every* item of the ground truth by grade, including relevant
    items that were never recommended (the seed's item 999).
    """
    k = check_k(k)
    items = check_ranking(recommended)
    grades = check_grades(ground_truth)
    actual = dcg_table([grades.get(i, 0.0) for i in items[:k]], k, gain=gain, items=items)
    ideal_items = sorted(grades, key=grades.get, reverse=True)
    ideal = dcg_table([grades[i] for i in ideal_items], k, gain=gain, items=ideal_items)
    return actual, ideal


def ndcg_at_k(recommended, ground_truth, k, *, gain="linear") -> float:
    r"""NDCG@K of a recommended list against a binary or graded ground truth.

    .. math:: \mathrm{NDCG@K} = \frac{\mathrm{DCG@K}}{\mathrm{IDCG@K}}

    Parameters
    ----------
    recommended : sequence of hashable
        Ranked list, best first, no repeated item.
    ground_truth : set or dict
        A set means grade 1 for each item (binary); a dict gives ``{item: grade}``, grades >= 0.
    k : int
        Cut-off, a positive integer.
    gain : {"linear", "exponential"}, keyword-only
        rel (the first seed) or 2^rel - 1 (the second seed). Identical for binary grades.

    Returns
    -------
    float
        In [0, 1]; higher is better. 0.0 when the ground truth has no item with a grade > 0
        (IDCG = 0), as in the seed (trec_eval leaves a query with no judgments out of its mean).

    Notes
    -----
    IDCG uses every item of the ground truth, recommended or not, as trec_eval and ranx do.
    Libraries that build the ideal only from the recommended items (scikit-learn given the
    top K, torchmetrics) score higher whenever a relevant item was never recommended.

    Examples
    --------
    >>> rec = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
    >>> round(ndcg_at_k(rec, {101, 104, 107}, 10), 5)
    0.82781
    >>> round(ndcg_at_k(rec, {101: 5, 104: 4, 107: 3, 999: 5}, 10), 4)
    0.6747
    """
    k = check_k(k)
    items = check_ranking(recommended)
    grades = check_grades(ground_truth)
    idcg = dcg_at_k(sorted(grades.values(), reverse=True), k, gain=gain)
    if idcg <= 0:
        return 0.0
    return dcg_at_k([grades.get(i, 0.0) for i in items[:k]], k, gain=gain) / idcg


def _as_score_rows(values, name) -> np.ndarray:
    array = np.asarray(values, dtype=float)
    if array.ndim == 1:
        array = array[np.newaxis, :]
    if array.ndim != 2 or array.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 1-D or 2-D array, got shape {array.shape}")
    bad = np.argwhere(~np.isfinite(array))
    if bad.size:
        row, column = bad[0]
        raise ValueError(f"{name} must be finite, got {array[row, column]} at row {row}, column {column}")
    return array


def tie_averaged_dcg(y_true, y_score, k=None, *, gain="linear") -> float:
    """DCG of one ranking by score, where items with tied scores share their gains equally.

    Each tie group gets the mean gain of its members at each of the positions it spans,
    which is the expected DCG over all orders of the tie (McSherry & Najork, 2008), the
    definition scikit-learn uses.
    """
    g = gain_of(y_true, gain)
    n = g.size
    d = discounts(n)
    if k is not None:
        d[k:] = 0.0
    _, group_of, group_size = np.unique(-np.asarray(y_score, dtype=float),
                                             return_inverse=True, return_counts=True)
    group_gain = np.bincount(group_of, weights=g) / group_size
    ends = np.cumsum(group_size)
    discount_sums = np.add.reduceat(d, ends - group_size)
    return float(np.sum(group_gain * discount_sums))


def ndcg_score(y_true, y_score, *, k=None, gain="linear") -> float:
    r"""NDCG of items ranked by predicted score, averaged over rows (scikit-learn's form).

    .. math:: \mathrm{NDCG} = \frac{\mathrm{DCG}(\text{order by } y_{score})}{\mathrm{DCG}(\text{order by } y_{true})}

    Parameters
    ----------
    y_true : array-like, shape (n_items,) or (n_rows, n_items)
        True relevance grades, >= 0.
    y_score : array-like, same shape
        Predicted scores; items are ranked by descending score.
    k : int or None, keyword-only
        Only the first k positions count; None means all.
    gain : {"linear", "exponential"}, keyword-only

    Returns
    -------
    float
        In [0, 1]. A row whose true grades are all 0 scores 0, as in scikit-learn.

    Notes
    -----
    Tied scores are averaged (:func:`tie_averaged_dcg`), as scikit-learn's default. Breaking
    ties by input order instead gives 0.8199 or 0.9367 on the second seed's example,
    depending on which of the tied items comes first.

    Examples
    --------
    >>> round(ndcg_score([[3, 2, 3, 0, 1]], [[3, 2, 1, 0, 3]]), 4)
    0.8783
    """
    if k is not None:
        k = check_k(k)
    check_choice(gain, "gain", GAINS)
    truth = _as_score_rows(y_true, "y_true")
    scores = _as_score_rows(y_score, "y_score")
    if truth.shape != scores.shape:
        raise ValueError(f"y_true has shape {truth.shape} but y_score has shape {scores.shape}")
    if truth.min() < 0:
        raise ValueError(f"y_true must be relevance grades >= 0, got {truth.min():g}")
    values = []
    for true_row, score_row in zip(truth, scores, strict=True):
        ideal = dcg_at_k(np.sort(true_row)[::-1], k or true_row.size, gain=gain)
        dcg = tie_averaged_dcg(true_row, score_row, k, gain=gain)
        values.append(dcg / ideal if ideal > 0 else 0.0)
    return float(np.mean(values))


def _score_pair(y_true, y_score) -> tuple[np.ndarray, np.ndarray]:
    true = as_finite_array(y_true, "y_true")
    score = as_finite_array(y_score, "y_score")
    if true.size != score.size:
        raise ValueError(f"inputs must have the same length: y_true has {true.size} and y_score has {score.size}")
    if true.min() < 0:
        raise ValueError(f"y_true must be relevance grades >= 0, got {true.min():g}")
    return true, score


def tie_groups_table(y_true, y_score, k=None, *, gain="linear", items=None) -> pd.DataFrame:
    """One row per item, best score first: how a tie group shares its positions.

    Items with equal scores form a tie group spanning positions ``first_position`` to
    ``last_position``. Each position of the group gets the group's ``averaged_gain``, so the group
    contributes ``averaged_gain * summed_discount``: the expected DCG over every order of the tie,
    as :func:`tie_averaged_dcg` and scikit-learn compute it. Each item's ``contribution`` is its
    own gain times the group's mean discount (``summed_discount / group_size``); the column sums
    to :func:`tie_averaged_dcg`. Positions after ``k`` get discount 0.

    Parameters
    ----------
    y_true : array-like of float >= 0
        True relevance of each item.
    y_score : array-like of float, same length
        Predicted scores; higher is ranked first.
    k : int or None
        Cut-off; None means every position counts.
    gain : {"linear", "exponential"}, keyword-only
    items : sequence or None, keyword-only
        Item names, same length; None names items by position 0, 1, ...

    Returns
    -------
    pandas.DataFrame
        Columns item, relevance, gain, score, tie_group (1 = highest score), first_position,
        last_position, positions (text), group_size, averaged_gain, summed_discount, contribution.

    Examples
    --------
    >>> t = tie_groups_table([3, 2, 3, 0, 1], [3, 2, 1, 0, 3], items=list("ABCDE"))
    >>> t[["item", "tie_group", "positions", "averaged_gain"]].values.tolist()[:3]
    [['A', 1, '1–2', 2.0], ['E', 1, '1–2', 2.0], ['B', 2, '3', 2.0]]
    >>> bool(np.isclose(t["contribution"].sum(), tie_averaged_dcg([3, 2, 3, 0, 1], [3, 2, 1, 0, 3])))
    True
    """
    if k is not None:
        k = check_k(k)
    true, score = _score_pair(y_true, y_score)
    names = list(range(true.size)) if items is None else list(items)
    if len(names) != true.size:
        raise ValueError(f"inputs must have the same length: items has {len(names)} and y_true has {true.size}")
    g = gain_of(true, gain)
    d = discounts(true.size)
    if k is not None:
        d[k:] = 0.0
    _, group_of, group_size = np.unique(-score, return_inverse=True, return_counts=True)
    ends = np.cumsum(group_size)
    starts = ends - group_size
    summed = np.add.reduceat(d, starts)
    averaged = np.bincount(group_of, weights=g) / group_size
    order = np.lexsort((np.arange(true.size), -score))
    group = group_of[order]
    first, last = starts[group] + 1, ends[group]
    return pd.DataFrame(
        {
            "item": pd.Series([names[i] for i in order], dtype=object),
            "relevance": true[order],
            "gain": g[order],
            "score": score[order],
            "tie_group": group + 1,
            "first_position": first,
            "last_position": last,
            "positions": [f"{a}" if a == b else f"{a}–{b}" for a, b in zip(first, last, strict=True)],
            "group_size": group_size[group],
            "averaged_gain": averaged[group],
            "summed_discount": summed[group],
            "contribution": g[order] * summed[group] / group_size[group],
        }
    )


def tie_broken_orders(y_true, y_score) -> dict[str, list[int]]:
    """Three ways to break tied scores into one ranking; each is a list of item positions.

    ``"best"`` puts the more relevant item of a tie first, ``"worst"`` the less relevant one, and
    ``"input_order"`` keeps the order the items were given (ranx, Recommenders). Any other
    tie-breaking rule (trec_eval's document ids, scikit-learn's ``ignore_ties=True``) scores
    between best and worst. Untied items are ranked by descending score in all three.

    Examples
    --------
    >>> tie_broken_orders([3, 2, 3, 0, 1], [3, 2, 1, 0, 3])
    {'best': [0, 4, 1, 2, 3], 'worst': [4, 0, 1, 2, 3], 'input_order': [0, 4, 1, 2, 3]}
    """
    true, score = _score_pair(y_true, y_score)
    position = np.arange(true.size)
    return {
        "best": np.lexsort((position, -true, -score)).tolist(),
        "worst": np.lexsort((position, true, -score)).tolist(),
        "input_order": np.lexsort((position, -score)).tolist(),
    }


def relevant_not_recommended(recommended, ground_truth) -> list:
    """Items with a grade > 0 that the list never recommends (like the seed's 999), in ground-truth order.

    They lower NDCG (they enter the ideal ranking) without ever entering the DCG.

    Examples
    --------
    >>> relevant_not_recommended([101, 102, 104], {101: 5, 104: 0, 999: 5})
    [999]
    """
    listed = set(check_ranking(recommended))
    return [item for item, grade in check_grades(ground_truth).items() if grade > 0 and item not in listed]


def ndcg_ideal_from_list(recommended, ground_truth, k, *, gain="linear") -> float:
    """NDCG@K when the ideal ranking is built only from the recommended items.

    This is what scikit-learn's ``ndcg_score`` (given the recommended items' grades and scores),
    torchmetrics and Evidently compute: a relevant item that was never recommended is invisible
    to them, so they score at least as high as :func:`ndcg_at_k`.

    Examples
    --------
    >>> rec = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
    >>> round(ndcg_ideal_from_list(rec, {101: 5, 104: 4, 107: 3, 999: 5}, 10), 4)
    0.8558
    """
    listed = set(check_ranking(recommended))
    grades = check_grades(ground_truth)
    return ndcg_at_k(recommended, {i: g for i, g in grades.items() if i in listed}, k, gain=gain)


@dataclass(frozen=True)
class TiedNdcg:
    """NDCG of one scored list over all its positions, with its tied scores averaged and broken three ways."""

    averaged: float  # scikit-learn's ndcg_score, with the chosen gain
    averaged_linear: float  # scikit-learn's own number: it has linear gain only
    in_favour: float  # ties broken most relevant first: the highest any tie-breaking gives
    against: float  # ties broken least relevant first: the lowest
    input_order: float  # ties kept in the order given (ranx, Recommenders)
    averaged_dcg: float  # the averaged NDCG's numerator
    idcg: float  # and its denominator


def ndcg_with_ties(y_true, y_score, *, gain="linear") -> TiedNdcg:
    """NDCG of items ranked by score (every position counts), ties averaged and broken three ways.

    >>> found = ndcg_with_ties([3, 2, 3, 0, 1], [3, 2, 1, 0, 3])
    >>> [round(v, 4) for v in (found.against, found.averaged, found.in_favour)]
    [0.8199, 0.8783, 0.9367]
    """
    truth = dict(enumerate(y_true))
    n = len(truth)
    orders = tie_broken_orders(y_true, y_score)
    ordered = {way: ndcg_at_k(order, truth, n, gain=gain) for way, order in orders.items()}
    return TiedNdcg(averaged=ndcg_score(y_true, y_score, gain=gain),
                    averaged_linear=ndcg_score(y_true, y_score, gain="linear"),
                    in_favour=ordered["best"], against=ordered["worst"], input_order=ordered["input_order"],
                    averaged_dcg=tie_averaged_dcg(y_true, y_score, gain=gain),
                    idcg=dcg_at_k(ideal_relevances(truth), n, gain=gain))


def tied_groups(table: pd.DataFrame) -> list[pd.DataFrame]:
    """The rows of each tie group of more than one item in a :func:`tie_groups_table`, highest score first.

    >>> table = tie_groups_table([3, 2, 3, 0, 1], [3, 2, 1, 0, 3], items=list("ABCDE"))
    >>> [rows["item"].tolist() for rows in tied_groups(table)]
    [['A', 'E']]
    """
    tied = table[table["group_size"] > 1]
    return [rows for _group, rows in tied.groupby("tie_group", sort=True)]
