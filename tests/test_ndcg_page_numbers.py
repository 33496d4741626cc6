"""The NDCG page's numbers, computed in metrics/ndcg.py: the gains by grade, the other gain, a scored list's NDCG with
its ties averaged and broken, and the tie groups. Checked against scikit-learn and against every order of the ties."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from sklearn.metrics import ndcg_score as sklearn_ndcg

from metrics import ndcg


def brute_ndcg(order, y_true, gain: str) -> float:
    """NDCG over every position of the items in ``order``, written out from its definition."""
    worth = (lambda rel: rel) if gain == "linear" else (lambda rel: 2.0**rel - 1)
    dcg = sum(worth(y_true[item]) / math.log2(rank + 2) for rank, item in enumerate(order))
    idcg = sum(worth(rel) / math.log2(rank + 2) for rank, rel in enumerate(sorted(y_true, reverse=True)))
    return dcg / idcg if idcg > 0 else 0.0


def orders_by_score(y_score) -> list[tuple[int, ...]]:
    """Every order of the items that ranks a higher score first: each way of breaking the ties."""
    return [order for order in itertools.permutations(range(len(y_score)))
            if all(y_score[a] >= y_score[b] for a, b in itertools.pairwise(order))]


def random_scored_lists(seed: int, count: int = 40):
    """Lists of 1 to 6 items with grades 0..3 and scores from few values, so most of them tie."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(1, 7))
        yield rng.integers(0, 4, n).astype(float).tolist(), rng.integers(0, 3, n).astype(float).tolist()


def test_the_other_gain_is_the_one_not_chosen():
    assert ndcg.other_gain("linear") == "exponential"
    assert ndcg.other_gain("exponential") == "linear"
    with pytest.raises(ValueError):
        ndcg.other_gain("log")


def test_gains_by_grade_lists_each_grade_once_with_rel_and_two_to_the_rel_minus_one():
    table = ndcg.gains_by_grade([5, 0, 2.5, 5, 1])
    assert table.columns.tolist() == ["grade", "linear", "exponential"]
    assert table["grade"].tolist() == [0, 1, 2.5, 5]
    assert table["linear"].tolist() == [0, 1, 2.5, 5]
    np.testing.assert_allclose(table["exponential"], [0, 1, 2**2.5 - 1, 31])
    assert ndcg.gains_by_grade([]).empty


@pytest.mark.parametrize("gain", ndcg.GAINS)
@pytest.mark.parametrize("seed", range(3))
def test_ties_averaged_is_the_mean_over_every_order_and_broken_ties_are_its_extremes(seed, gain):
    for y_true, y_score in random_scored_lists(seed):
        found = ndcg.ndcg_with_ties(y_true, y_score, gain=gain)
        every = [brute_ndcg(order, y_true, gain) for order in orders_by_score(y_score)]
        assert found.averaged == pytest.approx(np.mean(every), abs=1e-12), (y_true, y_score)
        assert found.in_favour == pytest.approx(max(every), abs=1e-12), (y_true, y_score)
        assert found.against == pytest.approx(min(every), abs=1e-12), (y_true, y_score)
        stable = sorted(range(len(y_score)), key=lambda item: -y_score[item])
        assert found.input_order == pytest.approx(brute_ndcg(stable, y_true, gain), abs=1e-12)
        assert found.averaged_linear == pytest.approx(ndcg.ndcg_with_ties(y_true, y_score).averaged, abs=1e-12)
        expected = found.averaged_dcg / found.idcg if found.idcg > 0 else 0.0
        assert found.averaged == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_ties_averaged_is_scikit_learns_ndcg_score(seed):
    for y_true, y_score in random_scored_lists(100 + seed):
        if len(y_true) < 2:  # scikit-learn scores lists of two items or more
            continue
        found = ndcg.ndcg_with_ties(y_true, y_score, gain="exponential")
        assert found.averaged_linear == pytest.approx(sklearn_ndcg([y_true], [y_score]), abs=1e-12)
        transformed = [2.0**rel - 1 for rel in y_true]  # scikit-learn's gain is the grade itself
        assert found.averaged == pytest.approx(sklearn_ndcg([transformed], [y_score]), abs=1e-12)


def test_tied_groups_are_the_items_sharing_a_score_highest_first():
    for y_true, y_score in random_scored_lists(7, count=100):
        items = [f"i{i}" for i in range(len(y_true))]
        groups = ndcg.tied_groups(ndcg.tie_groups_table(y_true, y_score, items=items))
        expected = [sorted(f"i{i}" for i, s in enumerate(y_score) if s == score)
                    for score in sorted(set(y_score), reverse=True) if y_score.count(score) > 1]
        assert [sorted(rows["item"]) for rows in groups] == expected, (y_true, y_score)
        for rows in groups:
            assert rows["averaged_gain"].iloc[0] == pytest.approx(rows["gain"].mean())
