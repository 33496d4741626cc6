"""What-if helpers: move items in a ranking, compare two rankings, sweep one item or K over every rank.

Pure Python and pandas; the labs call these so that their pages hold no arithmetic.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from metrics import registry
from metrics._validation import check_k, check_ranking
from metrics.registry import RankingCase

RANKING_KEYS = tuple(m.key for m in registry.metrics_for(RankingCase))
"""Every single-list ranking metric of the registry, in registry order."""


def move(items, item, new_rank: int) -> list:
    """The list with ``item`` taken out and put back at ``new_rank`` (1-based, clipped to the list).

    Examples
    --------
    >>> move(["a", "b", "c", "d"], "d", 2)
    ['a', 'd', 'b', 'c']
    >>> move(["a", "b", "c"], "a", 99)
    ['b', 'c', 'a']
    """
    items = check_ranking(items)
    if item not in items:
        raise ValueError(f"item {item!r} is not in the list")
    rest = [i for i in items if i != item]
    position = min(max(int(new_rank), 1), len(items)) - 1
    return rest[:position] + [item] + rest[position:]


def move_by(items, item, step: int) -> list:
    """The list with ``item`` moved ``step`` ranks down (negative: up), stopping at either end.

    Examples
    --------
    >>> move_by(["a", "b", "c"], "b", -1), move_by(["a", "b", "c"], "c", 1)
    (['b', 'a', 'c'], ['a', 'b', 'c'])
    """
    items = check_ranking(items)
    if item not in items:
        raise ValueError(f"item {item!r} is not in the list")
    return move(items, item, items.index(item) + 1 + int(step))


def swap(items, first, second) -> list:
    """The list with two items exchanging their ranks.

    Examples
    --------
    >>> swap(["a", "b", "c"], "a", "c")
    ['c', 'b', 'a']
    """
    items = check_ranking(items)
    for item in (first, second):
        if item not in items:
            raise ValueError(f"item {item!r} is not in the list")
    i, j = items.index(first), items.index(second)
    items[i], items[j] = items[j], items[i]
    return items


def compare_rankings(a: RankingCase, b_recommended) -> pd.DataFrame:
    """Every ranking metric for list A (``a``) and list B (same ground truth, K and options).

    Returns
    -------
    pandas.DataFrame
        One row per metric: ``key``, ``A``, ``B``, ``difference`` (B - A).

    Examples
    --------
    >>> t = compare_rankings(RankingCase([1, 2, 3], {3: 1}, 3), [3, 1, 2]).set_index("key")
    >>> t.loc["rr"].tolist()
    [0.3333333333333333, 1.0, 0.6666666666666667]
    """
    before = registry.evaluate(a)
    after = registry.evaluate(replace(a, recommended=list(b_recommended)))
    return pd.DataFrame([{"key": key, "A": before[key], "B": after[key], "difference": after[key] - before[key]}
                         for key in RANKING_KEYS])


def rank_changes(a, b, relevant) -> pd.DataFrame:
    """Each item of A and B with its rank in each (<NA> where absent) and whether it is relevant.

    Examples
    --------
    >>> rank_changes(["x", "y", "z"], ["y", "x", "z"], {"x"})[["item", "rank_a", "rank_b", "moved"]].values.tolist()
    [['x', 1, 2, True], ['y', 2, 1, True], ['z', 3, 3, False]]
    """
    a, b = check_ranking(a, "A"), check_ranking(b, "B")
    rank_a = {item: r for r, item in enumerate(a, start=1)}
    rank_b = {item: r for r, item in enumerate(b, start=1)}
    items = a + [item for item in b if item not in rank_a]
    table = pd.DataFrame({
        "item": pd.Series(items, dtype=object),
        "rank_a": pd.array([rank_a.get(i) for i in items], dtype="Int64"),
        "rank_b": pd.array([rank_b.get(i) for i in items], dtype="Int64"),
        "relevant": [i in relevant for i in items],
    })
    table["moved"] = (table["rank_a"] != table["rank_b"]).fillna(True).astype(bool)
    return table


def next_step(step: int, n: int, by: int = 1) -> int:
    """The step ``by`` places after ``step`` in 1..n, wrapping around at either end.

    Examples
    --------
    >>> next_step(10, 10), next_step(1, 10, -1), next_step(3, 10)
    (1, 10, 4)
    """
    n = check_k(n, "n")
    return (int(step) - 1 + int(by)) % n + 1


RELEVANT_ITEM = "★"


def one_item_scenario(n: int, rank: int, k: int, n_missing: int = 0) -> RankingCase:
    """N items where only ``★`` is relevant, placed at ``rank``; ``n_missing`` more relevant
    items are never recommended (they cap Recall and NDCG).

    Examples
    --------
    >>> one_item_scenario(4, 2, 3).recommended
    ['1', '★', '2', '3']
    """
    n, rank, k = check_k(n, "n"), check_k(rank, "rank"), check_k(k)
    if rank > n:
        raise ValueError(f"rank must be at most the number of items ({n}), got {rank}")
    others = [str(i) for i in range(1, n)]
    truth = {RELEVANT_ITEM: 1.0, **{f"missing {i}": 1.0 for i in range(1, int(n_missing) + 1)}}
    return RankingCase(others[:rank - 1] + [RELEVANT_ITEM] + others[rank - 1:], truth, k)


def rank_sweep(n: int, k: int, n_missing: int = 0) -> pd.DataFrame:
    """Every ranking metric with the one relevant item at each rank 1..N: one row per rank.

    Examples
    --------
    >>> rank_sweep(3, 1)[["rank", "rr", "precision_at_k"]].values.tolist()
    [[1.0, 1.0, 1.0], [2.0, 0.5, 0.0], [3.0, 0.3333333333333333, 0.0]]
    """
    rows = [{"rank": r, **registry.evaluate(one_item_scenario(n, r, k, n_missing))} for r in range(1, n + 1)]
    return pd.DataFrame(rows, columns=["rank", *RANKING_KEYS])


def k_sweep(n: int, rank: int, n_missing: int = 0) -> pd.DataFrame:
    """Every ranking metric at each K = 1..N, with the relevant item at ``rank``: one row per K.

    RR has no cut-off, so it is flat.

    Examples
    --------
    >>> k_sweep(3, 2)[["k", "hit_rate_at_k"]].values.tolist()
    [[1.0, 0.0], [2.0, 1.0], [3.0, 1.0]]
    """
    base = one_item_scenario(n, rank, 1, n_missing)
    rows = [{"k": k, **registry.evaluate(replace(base, k=k))} for k in range(1, n + 1)]
    return pd.DataFrame(rows, columns=["k", *RANKING_KEYS])
