"""whole_logs.beyond_accuracy against brute-force implementations of each definition."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from whole_logs import beyond_accuracy as ba

CATALOG = [f"i{j}" for j in range(15)]


def random_log(seed: int, *, users: int = 8, by: str = "rank"):
    """A small log: each user gets 1..8 distinct items, with ranks or (tied) scores."""
    rng = np.random.default_rng(seed)
    rows = []
    for u in range(users):
        items = rng.choice(CATALOG, size=int(rng.integers(1, 9)), replace=False)
        for position, item in enumerate(items, start=1):
            value = position if by == "rank" else float(rng.integers(0, 4))
            rows.append({"user": f"u{u}", "item": item, by: value})
    return pd.DataFrame(rows)


def brute_lists(log: pd.DataFrame, k: int) -> dict[str, list]:
    """Each user's top K by a plain Python sort (rank ascending, or score descending; ties by item)."""
    lists = {}
    for user, rows in log.groupby("user", sort=False):
        records = list(rows.itertuples(index=False))
        if "rank" in log.columns:
            records.sort(key=lambda r: (r.rank, r.item))
        else:
            records.sort(key=lambda r: (-r.score, r.item))
        lists[user] = [r.item for r in records[:k]]
    return lists


def interactions(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed + 100)
    return pd.DataFrame({"user": rng.integers(0, 12, 60), "item": rng.choice(CATALOG[:12], 60)})


CASES = [(seed, k, by) for seed in range(12) for k in (1, 3, 10) for by in ("rank", "score")]


@pytest.mark.parametrize(("seed", "k", "by"), CASES)
def test_every_metric_equals_brute_force(seed, k, by):
    log = random_log(seed, by=by)
    lists = brute_lists(log, k)
    seen = interactions(seed)
    assert [list(v) for v in ba.top_k_rows(log, k).groupby("user", sort=False)["item"].agg(list)] == list(lists.values())

    shown = {i for items in lists.values() for i in items}
    assert ba.catalog_coverage(log, k, CATALOG) == pytest.approx(len(shown) / len(CATALOG))

    counts = sorted(sum(items.count(i) for items in lists.values()) for i in CATALOG)
    n = len(counts)
    mean_abs_diff = sum(abs(x - y) for x in counts for y in counts) / (n * n)
    assert ba.gini_index(log, k, CATALOG) == pytest.approx(mean_abs_diff / (2 * np.mean(counts)))

    users_of = {i: set(seen.loc[seen["item"] == i, "user"]) for i in CATALOG}
    arp = np.mean([np.mean([len(users_of[i]) for i in items]) for items in lists.values()])
    assert ba.average_recommendation_popularity(log, seen, k) == pytest.approx(arp)

    n_users = seen["user"].nunique()
    info = [-math.log2(len(users_of[i]) / n_users) for items in lists.values() for i in items if users_of[i]]
    assert ba.novelty(log, seen, k) == pytest.approx(np.mean(info))

    overlaps = [len(set(x) & set(y)) / k for x, y in itertools.combinations(lists.values(), 2)]
    assert ba.personalization(log, k) == pytest.approx(1 - np.mean(overlaps))


@pytest.mark.parametrize("seed", range(10))
def test_intra_list_diversity_equals_brute_force(seed):
    log = random_log(seed)
    rng = np.random.default_rng(seed)
    categories = {i: rng.choice(["news", "sport", "film"]) for i in CATALOG}
    vectors = {i: rng.normal(size=4) for i in CATALOG}
    lists = [items for items in brute_lists(log, 5).values() if len(items) >= 2]

    def cosine(x, y):
        return vectors[x] @ vectors[y] / (np.linalg.norm(vectors[x]) * np.linalg.norm(vectors[y]))

    by_category = np.mean([np.mean([categories[x] != categories[y] for x, y in itertools.combinations(items, 2)])
                           for items in lists])
    by_features = np.mean([np.mean([1 - cosine(x, y) for x, y in itertools.combinations(items, 2)]) for items in lists])
    assert ba.intra_list_diversity(log, 5, categories=categories) == pytest.approx(by_category)
    assert ba.intra_list_diversity(log, 5, features=vectors) == pytest.approx(by_features)
    assert ba.intra_list_diversity(log, 5, features=pd.DataFrame(vectors).T) == pytest.approx(by_features)


def test_extremes():
    same = pd.DataFrame({"user": [1, 1, 2, 2], "item": ["a", "b", "a", "b"], "rank": [1, 2, 1, 2]})
    apart = pd.DataFrame({"user": [1, 1, 2, 2], "item": ["a", "b", "c", "d"], "rank": [1, 2, 1, 2]})
    assert ba.personalization(same, 2) == 0.0
    assert ba.personalization(apart, 2) == 1.0
    assert ba.gini_index(apart, 2) == 0.0  # every shown item shown once
    assert ba.catalog_coverage(apart, 2, 4) == 1.0
    assert math.isnan(ba.personalization(same[same["user"] == 1], 2))


@pytest.mark.parametrize(("call", "message"), [
    (lambda log: ba.catalog_coverage(log.drop(columns="item"), 2, 4), "missing \\['item'\\]"),
    (lambda log: ba.catalog_coverage(log.drop(columns="rank"), 2, 4), "rank or a score"),
    (lambda log: ba.catalog_coverage(log, 0, 4), "k must be a positive integer"),
    (lambda log: ba.catalog_coverage(log, 2, []), "at least one item"),
    (lambda log: ba.intra_list_diversity(log, 2), "exactly one of"),
    (lambda log: ba.intra_list_diversity(log, 2, features={"a": [0, 0], "b": [1, 0]}), "all zeros"),
])
def test_bad_input_names_the_problem(call, message):
    log = pd.DataFrame({"user": [1, 1], "item": ["a", "b"], "rank": [1, 2]})
    with pytest.raises(ValueError, match=message):
        call(log)


def test_personalization_scales_without_a_users_by_users_matrix():
    """200,000 users: the pair sum comes from item counts, so this is a fraction of a second."""
    rng = np.random.default_rng(0)
    users = 200_000
    log = pd.DataFrame({"user": np.repeat(np.arange(users), 10), "item": rng.integers(0, 5000, users * 10),
                        "rank": np.tile(np.arange(1, 11), users)})
    value = ba.personalization(log.drop_duplicates(["user", "item"]), 10)
    assert 0.99 < value < 1.0  # random lists over 5,000 items barely overlap


def test_categories_read_from_a_file_score_a_log_whose_items_are_numbers():
    """A Parquet log holds item 7 as a number, a CSV of categories holds "7" as text: they still match."""
    from whole_logs.readers import read_table

    log = pd.DataFrame({"user": [1, 1, 1, 2, 2], "item": [7, 8, 9, 7, 8], "rank": [1, 2, 3, 1, 2]})
    table = read_table(b"item,category\n7,news\n8,news\n9,sport\n\n", "item_categories", filename="genres.csv")
    categories = ba.item_categories(table)
    assert categories.to_dict() == {"7": "news", "8": "news", "9": "sport"}
    expected = (2 / 3 + 0) / 2  # user 1: two of three pairs differ; user 2: both news
    assert ba.intra_list_diversity(log, 3, categories=categories) == pytest.approx(expected)
    assert ba.intra_list_diversity(log.astype({"item": str}), 3, categories=categories) == pytest.approx(expected)


def test_an_item_with_two_categories_is_named_with_its_lines():
    from whole_logs.readers import read_table

    table = read_table(b"item,category\na,news\nb,film\na,sport\n", "item_categories", filename="genres.csv")
    with pytest.raises(ValueError, match=r"item 'a' has two categories, 'news' \(line 2\) and 'sport' \(line 4\)"):
        ba.item_categories(table)


@pytest.mark.parametrize("seed", range(5))
def test_side_by_side_adds_intra_list_diversity_when_categories_are_given(seed):
    a, b = random_log(seed), random_log(seed + 100)
    rng = np.random.default_rng(seed)
    categories = {i: rng.choice(["news", "sport", "film"]) for i in CATALOG}
    without = ba.side_by_side(a, b, a, 5)
    table = ba.side_by_side(a, b, a, 5, categories=categories)
    assert "intra_list_diversity" not in without.index
    assert table.drop(index="intra_list_diversity").equals(without)
    row = table.loc["intra_list_diversity"]
    assert row["A"] == ba.intra_list_diversity(a, 5, categories=categories)
    assert row["B"] == ba.intra_list_diversity(b, 5, categories=categories)
    assert row["B - A"] == pytest.approx(row["B"] - row["A"])
