"""Beyond accuracy: how much of the catalogue a model shows, how popular and how varied its lists are.

Every function takes the recommendation log as :func:`whole_logs.batch.evaluate` does (a DataFrame
with columns ``user``, ``item`` and ``rank`` (1 = best) or ``score`` (higher = better)) and a
cut-off ``k``, and looks only at each user's top K. Everything is computed from item counts and
group sums, so a log of millions of rows needs no users x users or items x items matrix.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from metrics._validation import check_k
from whole_logs.batch import same_kind
from metrics.errors import DataError


def top_k_rows(recommendations: pd.DataFrame, k: int) -> pd.DataFrame:
    """Each user's first ``k`` rows, best first: by ``rank``, or by ``score`` descending.

    Ties (equal ranks or scores) are broken by item id ascending, as :func:`whole_logs.batch.evaluate`
    breaks them, so accuracy and beyond-accuracy metrics see the same lists.

    >>> log = pd.DataFrame({"user": [1, 1, 1, 2], "item": ["c", "b", "a", "a"], "score": [0.5, 0.9, 0.5, 1.0]})
    >>> top_k_rows(log, 2)[["user", "item"]].values.tolist()
    [[1, 'b'], [1, 'a'], [2, 'a']]
    """
    k = check_k(k)
    missing = [c for c in ("user", "item") if c not in recommendations.columns]
    if missing:
        raise ValueError(f"recommendations must have the columns user and item; missing {missing}")
    if "rank" in recommendations.columns:
        order = recommendations.sort_values(["user", "rank", "item"], kind="stable")
    elif "score" in recommendations.columns:
        order = recommendations.sort_values(["user", "score", "item"], ascending=[True, False, True], kind="stable")
    else:
        raise ValueError("recommendations must have a rank or a score column")
    order = order.reset_index(drop=True)
    position = order.groupby("user", sort=False).cumcount()
    return order.loc[position < k, ["user", "item"]].reset_index(drop=True)


def catalog_coverage(recommendations: pd.DataFrame, k: int, catalog: Iterable | int) -> float:
    r"""Share of the catalogue that appears in at least one user's top K.

    .. math:: \mathrm{Coverage@K} = \frac{|\bigcup_u L_u^K|}{|I|}

    ``catalog`` is the list of every item that could be recommended, or its size. Follows Ge,
    Delgado-Battenfeld and Jannach, "Beyond accuracy" (RecSys 2010); RecTools ``CatalogCoverage``
    and Recommenders ``catalog_coverage`` (which takes the training items as the catalogue).

    >>> log = pd.DataFrame({"user": [1, 1, 2, 2], "item": ["a", "b", "a", "c"], "rank": [1, 2, 1, 2]})
    >>> catalog_coverage(log, 1, ["a", "b", "c", "d"])
    0.25
    >>> catalog_coverage(log, 2, 4)
    0.75
    """
    shown = top_k_rows(recommendations, k)["item"].unique()
    size = catalog if isinstance(catalog, (int, np.integer)) else len(set(catalog))
    if size < 1:
        raise ValueError(f"the catalogue must hold at least one item, got {size}")
    return len(shown) / size


def exposure(recommendations: pd.DataFrame, k: int, catalog: Iterable | None = None) -> pd.Series:
    """How many users see each item in their top K; catalogue items never shown count 0."""
    counts = top_k_rows(recommendations, k)["item"].value_counts()
    if catalog is not None:
        counts = counts.reindex(pd.Index(list(dict.fromkeys([*catalog, *counts.index]))), fill_value=0)
    return counts


def gini_index(recommendations: pd.DataFrame, k: int, catalog: Iterable | None = None) -> float:
    r"""Gini index of item exposure in the top K: 0 when every item is shown equally often, toward 1
    when a few items take every slot.

    .. math:: G = \frac{\sum_{i=1}^{n} (2i - n - 1)\, x_{(i)}}{n \sum_i x_{(i)}}

    with :math:`x_{(1)} \le \dots \le x_{(n)}` the exposure counts of the n catalogue items
    (items never shown count 0; without ``catalog`` only the items shown are counted). Follows
    Fleder and Hosanagar's use for recommender concentration, as RecTools and Evidently report it.

    >>> log = pd.DataFrame({"user": [1, 1, 2, 2], "item": ["a", "b", "a", "a2"], "rank": [1, 2, 1, 2]})
    >>> gini_index(log, 2, ["a", "b", "a2", "z"])  # counts 0, 1, 1, 2
    0.375
    """
    counts = np.sort(exposure(recommendations, k, catalog).to_numpy(dtype=float))
    n, total = len(counts), counts.sum()
    if n == 0 or total == 0:
        return 0.0
    weights = 2 * np.arange(1, n + 1) - n - 1
    return float(weights @ counts / (n * total))


def item_popularity(interactions: pd.DataFrame) -> pd.Series:
    """Number of distinct users who interacted with each item in the log (columns user, item)."""
    missing = [c for c in ("user", "item") if c not in interactions.columns]
    if missing:
        raise ValueError(f"interactions must have the columns user and item; missing {missing}")
    return interactions.drop_duplicates(["user", "item"])["item"].value_counts()


def average_recommendation_popularity(recommendations: pd.DataFrame, interactions: pd.DataFrame, k: int) -> float:
    r"""ARP: the mean, over users, of the mean popularity of the items in their top K.

    .. math:: \mathrm{ARP@K} = \frac{1}{|U|}\sum_u \frac{1}{|L_u^K|}\sum_{i \in L_u^K} \phi(i)

    :math:`\phi(i)` is the number of users who interacted with item i in ``interactions`` (0 for
    an item never seen there). Follows Abdollahpouri, Burke and Mobasher, "Managing popularity
    bias in recommender systems with personalized re-ranking" (FLAIRS 2019); RecTools ``ARP``.

    >>> log = pd.DataFrame({"user": [1, 1, 2], "item": ["a", "b", "a"], "rank": [1, 2, 1]})
    >>> seen = pd.DataFrame({"user": [7, 8, 9, 9], "item": ["a", "a", "a", "b"]})
    >>> average_recommendation_popularity(log, seen, 2)  # user 1: (3 + 1) / 2, user 2: 3
    2.5
    """
    top = top_k_rows(recommendations, k)
    if top.empty:
        return 0.0
    popularity = top["item"].map(item_popularity(interactions)).fillna(0).astype(float)
    return float(popularity.groupby(top["user"], sort=False).mean().mean())


def novelty(recommendations: pd.DataFrame, interactions: pd.DataFrame, k: int) -> float:
    r"""Mean self-information of the recommended items: how surprising the top-K slots are.

    .. math:: \mathrm{Novelty@K} = \frac{1}{\sum_u |L_u^K|}\sum_u \sum_{i \in L_u^K} -\log_2 \frac{\phi(i)}{|U_{\log}|}

    :math:`\phi(i)` is the number of users who interacted with i and :math:`|U_{\log}|` the
    number of users in ``interactions``. Items never seen in the log have no defined popularity
    and are left out, as Recommenders' ``novelty`` does. Follows Zhou et al., "Solving the
    apparent diversity-accuracy dilemma" (PNAS 2010).

    >>> log = pd.DataFrame({"user": [1, 1, 2], "item": ["a", "b", "a"], "rank": [1, 2, 1]})
    >>> seen = pd.DataFrame({"user": [7, 8, 9, 10], "item": ["a", "a", "b", "c"]})
    >>> round(novelty(log, seen, 2), 6)  # a: -log2(2/4) = 1 twice, b: -log2(1/4) = 2
    1.333333
    """
    top = top_k_rows(recommendations, k)
    popularity = item_popularity(interactions)
    share = top["item"].map(popularity).dropna().astype(float) / interactions["user"].nunique()
    if share.empty:
        return float("nan")
    return float((-np.log2(share)).mean())


def personalization(recommendations: pd.DataFrame, k: int) -> float:
    r"""1 minus the mean overlap of two users' top-K lists, over every pair of users.

    .. math:: \mathrm{Personalisation@K} = 1 - \binom{|U|}{2}^{-1} \sum_{u < v} \frac{|L_u^K \cap L_v^K|}{K}

    For lists of K items the overlap |L_u ∩ L_v| / K is the cosine similarity of the two binary
    vectors that Recommenders' ``personalization`` uses. The sum over pairs is computed exactly
    without a users x users matrix: an item shown to c users is shared by c(c-1)/2 pairs, so
    :math:`\sum_{u<v} |L_u \cap L_v| = \sum_i c_i(c_i - 1)/2`, in time linear in the log (no
    sampling is needed at any size). A list shorter than K still divides by K.

    >>> log = pd.DataFrame({"user": [1, 1, 2, 2, 3, 3], "item": ["a", "b", "a", "c", "d", "e"],
    ...                     "rank": [1, 2, 1, 2, 1, 2]})
    >>> round(personalization(log, 2), 6)  # pairs share 1, 0, 0 of 2 slots
    0.833333
    """
    k = check_k(k)
    top = top_k_rows(recommendations, k)
    users = top["user"].nunique()
    if users < 2:
        return float("nan")
    counts = top["item"].value_counts().to_numpy(dtype=float)
    shared = (counts * (counts - 1) / 2).sum()
    return float(1 - shared / (users * (users - 1) / 2 * k))


def intra_list_diversity(recommendations: pd.DataFrame, k: int, *, categories: Mapping | None = None,
                         features: Mapping | pd.DataFrame | None = None) -> float:
    r"""Mean, over users with two or more items in the top K, of the mean dissimilarity of the
    pairs of items in their list.

    With ``categories`` ({item: category}) two items are dissimilar (1) when their categories
    differ; with ``features`` ({item: vector} or a DataFrame indexed by item) the dissimilarity is
    1 - cosine similarity. Follows Ziegler et al., "Improving recommendation lists through topic
    diversification" (WWW 2005). Computed from per-user sums: the same-category pairs of a list
    are :math:`\sum_c \binom{n_c}{2}`, and the sum of the cosines of its pairs is
    :math:`(\lVert\sum_i \hat v_i\rVert^2 - n)/2` for unit vectors :math:`\hat v_i`.

    Items without a category or feature vector are left out of their list.

    >>> log = pd.DataFrame({"user": [1, 1, 1, 2, 2], "item": ["a", "b", "c", "a", "b"], "rank": [1, 2, 3, 1, 2]})
    >>> intra_list_diversity(log, 3, categories={"a": "news", "b": "news", "c": "sport"})  # (2/3 + 0) / 2
    0.3333333333333333
    """
    if (categories is None) == (features is None):
        raise ValueError("give exactly one of categories or features")
    top = top_k_rows(recommendations, k)
    if categories is not None:
        categories = categories if isinstance(categories, pd.Series) else pd.Series(categories, dtype=object)
        # One file may read item 7 as a number and the other as the text "7": matched as the batch engine does.
        items, labels = same_kind(top["item"], categories.index.to_series())
        top = top.assign(category=items.map(categories.set_axis(labels))).dropna(subset=["category"])
        n = top.groupby("user", sort=False).size()
        same = top.groupby(["user", "category"], sort=False).size()
        same_pairs = (same * (same - 1) / 2).groupby(level="user", sort=False).sum()
        pairs = n * (n - 1) / 2
        dissimilar = (pairs - same_pairs.reindex(n.index, fill_value=0)) / pairs
    else:
        table = features if isinstance(features, pd.DataFrame) else pd.DataFrame.from_dict(features, orient="index")
        vectors = table.to_numpy(dtype=float)
        norms = np.linalg.norm(vectors, axis=1)
        if np.any(norms == 0):
            raise ValueError(f"feature vector of item {table.index[np.flatnonzero(norms == 0)[0]]!r} is all zeros")
        unit = pd.DataFrame(vectors / norms[:, None], index=table.index)
        top = top[top["item"].isin(unit.index)]
        summed = unit.loc[top["item"]].set_axis(top["user"].to_numpy()).groupby(level=0, sort=False).sum()
        n = top.groupby("user", sort=False).size().reindex(summed.index)
        cosine_sum = ((summed.to_numpy() ** 2).sum(axis=1) - n.to_numpy()) / 2
        pairs = n * (n - 1) / 2
        dissimilar = 1 - pd.Series(cosine_sum, index=summed.index) / pairs
    dissimilar = dissimilar[pairs > 0]
    return float(dissimilar.mean()) if len(dissimilar) else float("nan")


def item_categories(table: pd.DataFrame) -> pd.Series:
    """``{item: category}`` from a table with columns item and category, as :func:`intra_list_diversity` takes it.

    Rows with a blank item or category are left out; an item given two different categories is an
    error that names it and the rows (the table's index, e.g. a file's lines).

    >>> item_categories(pd.DataFrame({"item": ["a", "b", "a"], "category": ["news", "sport", "news"]})).to_dict()
    {'a': 'news', 'b': 'sport'}
    """
    rows = table.dropna(subset=["item", "category"])
    rows = rows[rows["category"].astype(str).str.strip() != ""]
    kinds = rows.groupby("item", sort=False)["category"].nunique()
    if (kinds > 1).any():
        item = kinds.index[kinds > 1][0]
        clash = rows[rows["item"] == item].drop_duplicates("category").head(2)
        (first, second), (where, other) = clash["category"].tolist(), clash.index.tolist()
        unit = rows.index.name or "row"
        raise DataError("two_categories", f"item {item!r} has two categories, {first!r} ({unit} {where}) and "
                        f"{second!r} ({unit} {other}): give each item one category", item=repr(item),
                        first=repr(first), second=repr(second), unit=unit, where=str(where), other=str(other))
    return rows.drop_duplicates("item").set_index("item")["category"]


def side_by_side(recommendations_a: pd.DataFrame, recommendations_b: pd.DataFrame, interactions: pd.DataFrame,
                 k: int, catalog: Iterable | None = None, categories: Mapping | pd.Series | None = None) -> pd.DataFrame:
    """Every beyond-accuracy metric at ``k`` for two models, with B - A, one row per metric's function name.

    ``interactions`` gives item popularity (ARP, novelty); ``catalog`` defaults to every item
    seen in either log or in ``interactions``; with ``categories`` ({item: category}) the table
    adds intra-list diversity.
    """
    if catalog is None:
        catalog = pd.unique(pd.concat([recommendations_a["item"], recommendations_b["item"], interactions["item"]]))
    rows = {}
    for name, recs in (("A", recommendations_a), ("B", recommendations_b)):
        rows[name] = {
            "catalog_coverage": catalog_coverage(recs, k, catalog),
            "gini_index": gini_index(recs, k, catalog),
            "average_popularity": average_recommendation_popularity(recs, interactions, k),
            "novelty": novelty(recs, interactions, k),
            "personalization": personalization(recs, k),
        }
        if categories is not None:
            rows[name]["intra_list_diversity"] = intra_list_diversity(recs, k, categories=categories)
    table = pd.DataFrame(rows)
    table["B - A"] = table["B"] - table["A"]
    return table.rename_axis("metric")
