"""Sampled negatives (Krichene & Rendle 2020): the shortcut ranks agree with sampling item by item."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.sampled import Simulation, compare, full_ranks, hit_rate_and_ndcg, sampled_ranks, sweep


def test_sampled_rank_matches_drawing_negatives_one_by_one():
    # A catalogue of 60 items with explicit scores: the held-out item (index 0) has rank 21.
    n_items, n_negatives, draws = 60, 12, 40_000
    scores = np.concatenate([[0.5], np.linspace(1, 2, 20), np.linspace(0, 0.4, 39)])
    rank = 1 + int((scores[1:] > scores[0]).sum())
    assert rank == 21
    rng = np.random.default_rng(5)
    picked = np.argsort(rng.random((draws, n_items - 1)), axis=1)[:, :n_negatives] + 1
    explicit = 1 + (scores[picked] > scores[0]).sum(axis=1)
    shortcut = sampled_ranks(np.full(draws, rank), n_items, n_negatives, np.random.default_rng(6))
    # Same distribution: compare the share of each sampled rank (hypergeometric, mean 1 + 20*12/59).
    assert shortcut.mean() == pytest.approx(1 + 20 * 12 / 59, abs=0.03)
    assert explicit.mean() == pytest.approx(1 + 20 * 12 / 59, abs=0.03)
    for value in range(1, 9):
        assert np.mean(shortcut == value) == pytest.approx(np.mean(explicit == value), abs=0.012)


def test_all_negatives_give_back_the_full_rank():
    ranks = full_ranks(Simulation(n_items=300, n_users=500))["A"]
    rng = np.random.default_rng(0)
    np.testing.assert_array_equal(sampled_ranks(ranks, 300, 299, rng), ranks)
    np.testing.assert_array_equal(sampled_ranks(ranks, 300, 5000, rng), ranks)


def test_full_ranks_follow_the_model_profiles():
    sim = Simulation(n_items=10_000, n_users=20_000, a_hit_share=0.3, b_spread=0.02)
    ranks = full_ranks(sim)
    assert ranks["A"].min() >= 1 and ranks["A"].max() <= 10_000
    # B: within the top 2% (+ binomial noise); A: 30% nailed near the top, the rest anywhere.
    assert np.quantile(ranks["B"], 0.99) < 0.025 * 10_000
    assert np.mean(ranks["A"] <= 10) == pytest.approx(0.3 + 0.7 * 10 / 10_000, abs=0.012)
    assert np.median(ranks["A"][ranks["A"] > 100]) == pytest.approx(5_000, rel=0.1)


def test_hit_rate_and_ndcg_of_one_relevant_item():
    values = hit_rate_and_ndcg(np.array([1, 2, 10, 11]), 10)
    assert values["hit_rate"] == 0.75
    assert values["ndcg"] == pytest.approx((1 + 1 / np.log2(3) + 1 / np.log2(11)) / 4)


def test_defaults_inflate_both_models_and_flip_their_order():
    table = compare(Simulation(), 100).set_index(["model", "evaluation"])
    for metric in ("hit_rate", "ndcg"):
        for model in ("A", "B"):
            assert table.loc[(model, "sampled"), metric] > table.loc[(model, "full"), metric]
        assert table.loc[("A", "full"), metric] > table.loc[("B", "full"), metric]
        assert table.loc[("A", "sampled"), metric] < table.loc[("B", "sampled"), metric]


def test_sweep_ends_at_the_full_ranking_and_the_flip_has_a_crossing():
    sim = Simulation(n_users=3000)
    table = sweep(sim, [100, 1000, 3000, 9999]).pivot(index="n_negatives", columns="model", values="hit_rate")
    full = compare(sim, 9999).set_index(["model", "evaluation"])["hit_rate"]
    assert table.loc[9999, "A"] == full[("A", "full")]
    assert table.loc[100, "B"] > table.loc[100, "A"] and table.loc[9999, "B"] < table.loc[9999, "A"]
    assert table["B"].is_monotonic_decreasing


def test_same_seed_same_numbers_other_seed_other_numbers():
    assert compare(Simulation(seed=3), 50).equals(compare(Simulation(seed=3), 50))
    assert not compare(Simulation(seed=3), 50).equals(compare(Simulation(seed=4), 50))


@pytest.mark.parametrize(("changes", "message"), [
    ({"n_items": 1}, "n_items must be at least 2"),
    ({"n_users": 0}, "n_users must be a positive integer"),
    ({"a_hit_share": 1.5}, r"a_hit_share must be a share in \[0, 1\]"),
    ({"k": 0}, "k must be a positive integer"),
])
def test_bad_settings_are_named(changes, message):
    with pytest.raises(ValueError, match=message):
        compare(Simulation(**changes), 10)


def test_zero_negatives_is_refused():
    with pytest.raises(ValueError, match="n_negatives must be a positive integer"):
        compare(Simulation(), 0)
