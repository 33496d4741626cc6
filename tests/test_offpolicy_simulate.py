"""Simulated logs: drawn from the logger they claim, the truth computed exactly, IPS and DR unbiased within a
few standard errors over many seeded logs, and the bias-variance table's arithmetic."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from offpolicy import simulate


def test_logged_actions_follow_the_logger_and_propensities_are_the_logger_s():
    w = simulate.toy_world()
    logs = simulate.draw_logs(w, 100_000, 2, seed=3)
    counts = np.zeros(w.q.shape)
    np.add.at(counts, (logs.context.ravel(), logs.action.ravel()), 1)
    expected = 0.5 * w.logger * logs.context.size
    assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected))
    assert np.array_equal(logs.propensity, w.logger[logs.context, logs.action])
    clicks = pd.DataFrame({"x": logs.context.ravel(), "a": logs.action.ravel(), "r": logs.reward.ravel()})
    rates = clicks.groupby(["x", "a"])["r"].mean().unstack().to_numpy()
    assert np.allclose(rates, w.q, atol=0.02)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.floats(0, 0.9))
def test_alias_tables_give_back_each_row_s_distribution_exactly(seed, n, zeros):
    rng = np.random.default_rng(seed)
    policy = rng.dirichlet(np.ones(n), size=5) * (rng.random((5, n)) >= zeros)
    policy[policy.sum(axis=1) == 0, 0] = 1.0
    policy /= policy.sum(axis=1, keepdims=True)
    keep, alias = simulate.alias_tables(policy)
    rebuilt = keep / n
    for row in range(5):
        np.add.at(rebuilt[row], alias[row], (1 - keep[row]) / n)
    assert np.allclose(rebuilt, policy, atol=1e-12)


def test_an_action_of_probability_zero_is_never_logged():
    w = simulate.World(q=np.full((2, 3), 0.5), logger=np.array([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5]]),
                       target=np.full((2, 3), 1 / 3), q_hat=np.full((2, 3), 0.5))
    logs = simulate.draw_logs(w, 50_000, seed=1)
    assert (logs.propensity > 0).all()


def test_the_true_value_is_the_double_sum_by_loops():
    rng = np.random.default_rng(0)
    q, target = rng.random((4, 5)), rng.dirichlet(np.ones(5), size=4)
    by_loops = sum(0.25 * target[x, a] * q[x, a] for x in range(4) for a in range(5))
    assert simulate.true_value(q, target) == pytest.approx(by_loops)
    weights = np.array([0.1, 0.2, 0.3, 0.4])
    assert simulate.true_value(q, target, weights) == pytest.approx(
        sum(weights[x] * target[x, a] * q[x, a] for x in range(4) for a in range(5)))


@pytest.fixture(scope="module")
def estimates():
    w = simulate.toy_world()
    return w, simulate.repeated_estimates(w, 200, 4000, tau=1.5, seed=7)


@pytest.mark.parametrize("name", ["ips", "dr"])
def test_ips_and_dr_are_unbiased_by_simulation_within_four_standard_errors(estimates, name):
    w, found = estimates
    error = found[name].std(ddof=1) / np.sqrt(len(found))
    assert abs(found[name].mean() - w.truth) < 4 * error


def test_clipping_at_a_small_threshold_is_biased_downwards_beyond_the_noise(estimates):
    w, found = estimates
    error = found["clipped_ips"].std(ddof=1) / np.sqrt(len(found))
    assert found["clipped_ips"].mean() < w.truth - 10 * error


def test_bias_variance_and_rmse_add_up():
    table = simulate.accuracy(pd.DataFrame({"a": [0.1, 0.4, 0.7], "ess": [1, 2, 3]}), truth=0.3)
    assert list(table.index) == ["a"]
    assert table.loc["a", "rmse"] ** 2 == pytest.approx(table.loc["a", "bias"] ** 2 + table.loc["a", "variance"])


def test_a_hotter_logger_means_more_effective_rounds_and_the_sweep_keeps_its_truth():
    rng = np.random.default_rng(1)
    scores = rng.random((20, 8))
    q = simulate.click_model(scores)
    w = simulate.World(q=q, logger=simulate.softmax(scores, 1.0), target=simulate.top1(scores), q_hat=q,
                       logger_scores=-scores)  # the logger prefers what the target avoids
    table = simulate.sweep(w, "temperature", [0.5, 5.0], n_rounds=500, n_logs=50)
    ess = table.groupby("temperature")["mean_ess"].first()
    assert ess[5.0] > 2 * ess[0.5]
    by_rounds = simulate.sweep(w, "rounds", [100, 2000], n_logs=100)
    variance = by_rounds[by_rounds.estimator == "ips"].set_index("rounds")["variance"]
    assert variance[2000] < variance[100] / 5


def test_policies_are_distributions_and_the_link_is_monotone():
    scores = np.array([[3.0, 1.0, 2.0, 2.0]])
    for policy in (simulate.softmax(scores, 0.7), simulate.epsilon_greedy(scores, 0.1), simulate.top1(scores),
                   simulate.uniform(scores.shape)):
        assert policy.sum(axis=1) == pytest.approx(1.0)
        assert (policy >= 0).all()
    q = simulate.click_model(scores)
    assert q[0, 0] > q[0, 2] == q[0, 3] > q[0, 1]


def test_a_world_from_movielens_has_candidates_a_truth_and_clicks_of_a_few_per_cent():
    from protocols import movielens

    frame = movielens.installed_ml100k()
    frame = frame[frame["user"] <= 150]
    w = simulate.from_interactions(frame, target_model="ease", truth_model="ease", candidates=30, seed=2)
    assert w.q.shape == w.logger.shape == w.target.shape == w.candidates.shape == (150, 30)
    assert all(len(set(row)) == 30 for row in w.candidates)
    assert 0.02 < w.q.mean() < 0.15
    # the target is the truth model's top-1: the best candidate's click probability, the largest possible
    assert w.truth == pytest.approx(w.q.max(axis=1).mean())
    assert w.with_logger_temperature(100.0).logger.std() < w.logger.std()
    greedy = simulate.from_interactions(frame, logger="epsilon-greedy", epsilon=0.2, candidates=30, seed=2)
    assert np.allclose(np.sort(greedy.logger, axis=1)[:, -1], 0.8 + 0.2 / 30)
    assert np.allclose(simulate.from_interactions(frame, logger="uniform", candidates=30, seed=2).logger, 1 / 30)
    assert np.array_equal(greedy.q, w.q)  # the same seed, the same candidates and truth


def test_a_higher_clipping_threshold_trades_clipped_ips_bias_for_variance():
    w = simulate.toy_world()
    largest = float((w.target / w.logger).max())
    table = simulate.sweep(w, "tau", [0.5, 1.5, largest], n_rounds=300, n_logs=400, seed=3)
    clipped = table[table.estimator == "clipped_ips"].set_index("tau")
    assert clipped.loc[0.5, "bias"] < clipped.loc[1.5, "bias"] < 0
    assert abs(clipped.loc[largest, "bias"]) < 0.01  # nothing clipped: IPS, unbiased
    assert clipped.loc[0.5, "variance"] < clipped.loc[largest, "variance"]
