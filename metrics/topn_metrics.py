"""Top-N metrics: how many of the first K recommendations are relevant.

``ground_truth`` is a set of relevant items, or a dict ``{item: grade}`` where a grade > 0 means
relevant (trec_eval's default relevance level). Relevant items that were never recommended
(the seed's item 999) still count in the recall denominator.
"""

from __future__ import annotations

import pandas as pd

from metrics._validation import check_grades, check_k, check_ranking, relevant_items


def _hits_at_k(recommended, ground_truth, k) -> tuple[int, set]:
    k = check_k(k)
    items = check_ranking(recommended)
    relevant = relevant_items(ground_truth)
    return sum(1 for item in items[:k] if item in relevant), relevant


def precision_at_k(recommended, ground_truth, k) -> float:
    r"""Precision@K: the share of the K slots that hold a relevant item.

    .. math:: \mathrm{P@K} = \frac{\lvert \mathrm{top}_K \cap \mathrm{Rel} \rvert}{K}

    The denominator is K even when the list is shorter than K: an empty slot counts as a miss,
    as in trec_eval, ranx and the seed document.

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
    float
        In [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If ``k`` is not a positive integer, ``recommended`` repeats an item, or a grade is negative.

    Examples
    --------
    >>> precision_at_k([101, 102, 103, 104], {101, 104, 999}, k=4)
    0.5
    """
    hits, _ = _hits_at_k(recommended, ground_truth, k)
    return hits / k


def recall_at_k(recommended, ground_truth, k) -> float:
    r"""Recall@K: the share of all relevant items that appear in the top K.

    .. math:: \mathrm{R@K} = \frac{\lvert \mathrm{top}_K \cap \mathrm{Rel} \rvert}{\lvert \mathrm{Rel} \rvert}

    Returns 0.0 when the ground truth is empty, as the seed document does. trec_eval also
    scores 0 a query whose judged items all have grade 0, but leaves a query with no judgments
    at all out of its mean.

    Examples
    --------
    >>> recall_at_k([101, 102, 103, 104], {101, 104, 999}, k=4)
    0.6666666666666666
    """
    hits, relevant = _hits_at_k(recommended, ground_truth, k)
    return hits / len(relevant) if relevant else 0.0


def hit_rate_at_k(recommended, ground_truth, k) -> float:
    r"""HR@K for one user: 1.0 if at least one relevant item is in the top K, else 0.0.

    .. math:: \mathrm{HR@K} = \mathbb{1}\left[\lvert \mathrm{top}_K \cap \mathrm{Rel} \rvert > 0\right]

    Averaged over users this is the hit rate of the second seed document ("number of hits
    over number of tests").

    Examples
    --------
    >>> hit_rate_at_k([1, 2, 3, 4, 5], {2, 6, 7, 8, 9}, k=5)
    1.0
    """
    hits, _ = _hits_at_k(recommended, ground_truth, k)
    return 1.0 if hits else 0.0


def f1_at_k(p: float, r: float) -> float:
    r"""F1@K: the harmonic mean of Precision@K and Recall@K (seed signature ``f1_at_k(p, r)``).

    .. math:: F_1 = \frac{2PR}{P + R}

    Returns 0.0 when both are 0.

    Examples
    --------
    >>> round(f1_at_k(0.3, 0.75), 4)
    0.4286
    """
    for name, value in (("p", p), ("r", r)):
        if not 0 <= value <= 1:
            raise ValueError(f"{name} must be in [0, 1], got {value!r}")
    if p + r == 0:
        return 0.0
    return 2 * p * r / (p + r)


def top_k_table(recommended, ground_truth, k) -> pd.DataFrame:
    """One row per recommended item: rank, item, grade, relevant, in top K, hit.

    Examples
    --------
    >>> top_k_table(["a", "b", "c"], {"b": 2}, k=2)["hit"].tolist()
    [False, True, False]
    """
    k = check_k(k)
    items = check_ranking(recommended)
    grades = check_grades(ground_truth)
    relevant = {item for item, grade in grades.items() if grade > 0}
    table = pd.DataFrame(
        {
            "rank": range(1, len(items) + 1),
            "item": pd.Series(items, dtype=object),
            "grade": [float(grades.get(item, 0.0)) for item in items],
            "relevant": [item in relevant for item in items],
        }
    )
    table["in_top_k"] = table["rank"] <= k
    table["hit"] = table["relevant"] & table["in_top_k"]
    return table


def topn_counts(recommended, ground_truth, k) -> dict:
    """The counts behind P@K, R@K and HR@K, for writing the formulas out with numbers.

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
    dict
        ``hits`` (relevant items in the top K), ``k``, ``n_recommended`` (list length),
        ``n_relevant`` (|Rel|, recommended or not) and ``never_recommended`` (relevant items
        absent from the whole list, sorted by their text, like the seed's 999).

    Raises
    ------
    ValueError
        If ``k`` is not a positive integer, ``recommended`` repeats an item, or a grade is negative.

    Examples
    --------
    >>> counts = topn_counts([101, 102, 103], {101, 103, 999}, k=2)
    >>> counts["hits"], counts["n_relevant"], counts["never_recommended"]
    (1, 3, [999])
    """
    items = check_ranking(recommended)
    hits, relevant = _hits_at_k(items, ground_truth, k)
    listed = set(items)
    return {
        "hits": hits,
        "k": int(k),
        "n_recommended": len(items),
        "n_relevant": len(relevant),
        "never_recommended": sorted((item for item in relevant if item not in listed), key=str),
    }
