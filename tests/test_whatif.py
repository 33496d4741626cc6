"""What-if helpers: moves keep every item, comparisons and sweeps match the per-list metrics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics import registry, whatif
from metrics.baselines import KEYS, perfect_scores, random_expectation
from metrics.registry import RankingCase
from ui.figures import lab_charts

items_lists = st.lists(st.integers(0, 30), min_size=1, max_size=12, unique=True)


@settings(max_examples=60, deadline=None)
@given(items=items_lists, data=st.data())
def test_moves_keep_every_item_and_put_it_where_asked(items, data):
    item = data.draw(st.sampled_from(items))
    rank = data.draw(st.integers(1, len(items)))
    moved = whatif.move(items, item, rank)
    assert sorted(moved) == sorted(items) and moved.index(item) == rank - 1
    other = data.draw(st.sampled_from(items))
    swapped = whatif.swap(items, item, other)
    assert swapped.index(item) == items.index(other) and swapped.index(other) == items.index(item)
    step = data.draw(st.integers(-3, 3))
    stepped = whatif.move_by(items, item, step)
    assert stepped.index(item) == min(max(items.index(item) + step, 0), len(items) - 1)


@pytest.mark.parametrize("operation", [lambda: whatif.move([1, 2], 3, 1), lambda: whatif.swap([1, 2], 1, 9),
                                       lambda: whatif.move_by([1, 2], 7, 1)])
def test_moving_an_absent_item_is_named(operation):
    with pytest.raises(ValueError, match="is not in the list"):
        operation()


@settings(max_examples=40, deadline=None)
@given(a=items_lists, data=st.data())
def test_comparison_is_b_minus_a_of_the_registry_values(a, data):
    b = data.draw(st.permutations(a))
    truth = {i: float(data.draw(st.integers(0, 3))) for i in data.draw(st.lists(st.integers(0, 35), max_size=6))}
    case = RankingCase(a, truth, data.draw(st.integers(1, 14)))
    table = whatif.compare_rankings(case, b).set_index("key")
    before, after = registry.evaluate(case), registry.evaluate(RankingCase(list(b), truth, case.k))
    for key in whatif.RANKING_KEYS:
        assert table.loc[key, "A"] == before[key] and table.loc[key, "B"] == after[key]
        assert table.loc[key, "difference"] == pytest.approx(after[key] - before[key])
    changes = whatif.rank_changes(a, list(b), case.binary_truth)
    assert changes["moved"].sum() == sum(x != y for x, y in zip(a, b, strict=True))
    lab_charts.rank_arrows(changes)  # draws without error for any pair of lists


@settings(max_examples=40, deadline=None)
@given(candidates=items_lists, data=st.data())
def test_random_expectation_lies_between_zero_and_the_perfect_order(candidates, data):
    truth = {i: float(data.draw(st.integers(0, 3))) for i in data.draw(st.lists(st.integers(0, 35), max_size=8))}
    k = data.draw(st.integers(1, 15))
    expected, perfect = random_expectation(candidates, truth, k), perfect_scores(candidates, truth, k)
    for key in KEYS:
        assert -1e-12 <= expected[key] <= perfect[key] + 1e-12 <= 1 + 2e-12, key


def test_rank_sweep_has_the_textbook_shapes():
    sweep = whatif.rank_sweep(8, 3)
    ranks = sweep["rank"].to_numpy()
    np.testing.assert_allclose(sweep["rr"], 1 / ranks)
    np.testing.assert_allclose(sweep["ndcg_binary_at_k"], np.where(ranks <= 3, 1 / np.log2(ranks + 1), 0))
    np.testing.assert_allclose(sweep["hit_rate_at_k"], (ranks <= 3).astype(float))
    np.testing.assert_allclose(sweep["precision_at_k"], (ranks <= 3) / 3)
    np.testing.assert_allclose(sweep["ap_at_k"], np.where(ranks <= 3, 1 / ranks, 0))


def test_missing_relevant_items_cap_recall_and_ndcg_in_the_sweep():
    sweep = whatif.k_sweep(5, 1, n_missing=2)
    assert sweep["recall_at_k"].max() == pytest.approx(1 / 3)
    assert sweep["ndcg_binary_at_k"].iloc[-1] == pytest.approx(1 / (1 + 1 / np.log2(3) + 1 / np.log2(4)))
    assert sweep["rr"].eq(1.0).all()


@pytest.mark.parametrize(("n", "rank", "message"), [(3, 4, "rank must be at most the number of items"),
                                                    (0, 1, "n must be a positive integer")])
def test_bad_sweep_settings_are_named(n, rank, message):
    with pytest.raises(ValueError, match=message):
        whatif.one_item_scenario(n, rank, 1)
