"""The off-policy estimators against closed forms and against every possible log of a tiny world (two users,
three items), enumerated with its probability: IPS's and DR's exact expectations are the true value, SNIPS's
bias is what the enumeration says and vanishes only where it should."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from offpolicy import estimators, simulate


def world(target=None, q_hat=None, q=None):
    toy = simulate.toy_world()
    return simulate.World(q=toy.q if q is None else q, logger=toy.logger,
                          target=toy.target if target is None else target,
                          q_hat=toy.q_hat if q_hat is None else q_hat)


FULL_SUPPORT = np.array([[0.1, 0.3, 0.6], [0.5, 0.3, 0.2]])  # SNIPS defined on every log


def every_log(w: simulate.World, n: int):
    """Every log of n rounds as (probability, Logs with one row per log): a round is (user, item, click)."""
    users, items = w.q.shape
    outcomes = list(itertools.product(range(users), range(items), (0, 1)))
    p_round = np.array([(1 / users) * w.logger[x, a] * (w.q[x, a] if r else 1 - w.q[x, a]) for x, a, r in outcomes])
    combos = np.array(list(itertools.product(range(len(outcomes)), repeat=n)))
    table = np.array(outcomes)[combos]  # logs x rounds x (x, a, r)
    context, action, reward = table[..., 0], table[..., 1], table[..., 2].astype(float)
    probability = p_round[combos].prod(axis=1)
    return probability, simulate.Logs(context, action, reward, w.logger[context, action])


def expectation(w, n, name, tau=10.0):
    probability, logs = every_log(w, n)
    assert probability.sum() == pytest.approx(1.0, abs=1e-12)
    value = simulate.estimate_logs(w, logs, names=(name,), tau=tau)[name].value
    return float(np.dot(probability, value))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_exact_expectation_of_ips_over_every_possible_log_is_the_true_value(n):
    w = world()
    assert expectation(w, n, "ips") == pytest.approx(w.truth, abs=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_doubly_robust_is_unbiased_with_a_wrong_reward_model_and_the_direct_method_is_not(n):
    w = world()
    assert expectation(w, n, "dr") == pytest.approx(w.truth, abs=1e-12)
    dm_value = simulate.true_value(w.q_hat, w.target)  # DM's expectation: the model's value of the target
    assert expectation(w, n, "dm") == pytest.approx(dm_value, abs=1e-12)
    assert abs(dm_value - w.truth) > 0.01


def test_doubly_robust_with_the_true_reward_model_is_unbiased_and_exact_when_nothing_is_random_but_the_action():
    w = world(q_hat=simulate.toy_world().q)
    assert expectation(w, 2, "dr") == pytest.approx(w.truth, abs=1e-12)
    # one user, deterministic clicks: DR's correction is zero on every log, so every log gives the truth
    q = np.array([[0.0, 1.0, 1.0]])
    single = simulate.World(q=q, logger=np.array([[0.5, 0.3, 0.2]]), target=np.array([[0.2, 0.3, 0.5]]), q_hat=q)
    probability, logs = every_log(single, 3)
    possible = probability > 0
    values = simulate.estimate_logs(single, logs, names=("dr",))["dr"].value
    assert np.allclose(values[possible], single.truth, atol=1e-12)
    assert not np.allclose(simulate.estimate_logs(single, logs, names=("ips",))["ips"].value[possible], single.truth)


def test_snips_bias_of_one_round_is_the_logger_value_minus_the_truth():
    # one round: SNIPS = w r / w = r, so its expectation is the logger's own value
    w = world(target=FULL_SUPPORT)
    logger_value = simulate.true_value(w.q, w.logger)
    assert expectation(w, 1, "snips") - w.truth == pytest.approx(logger_value - w.truth, abs=1e-12)
    assert abs(logger_value - w.truth) > 0.05


def _snips_by_loops(w, n):
    """SNIPS's expectation by plain loops over every log, independent of the vectorised code."""
    users, items = w.q.shape
    total = 0.0
    for log in itertools.product(itertools.product(range(users), range(items), (0, 1)), repeat=n):
        probability, top, bottom = 1.0, 0.0, 0.0
        for x, a, r in log:
            probability *= (1 / users) * w.logger[x, a] * (w.q[x, a] if r else 1 - w.q[x, a])
            weight = w.target[x, a] / w.logger[x, a]
            top += weight * r
            bottom += weight
        total += probability * top / bottom
    return total


@pytest.mark.parametrize("n", [2, 3])
def test_snips_bias_equals_its_brute_force_expectation_minus_the_truth_and_shrinks_with_n(n):
    w = world(target=FULL_SUPPORT)
    bias = expectation(w, n, "snips") - w.truth
    assert bias == pytest.approx(_snips_by_loops(w, n) - w.truth, abs=1e-12)
    assert abs(bias) > 1e-4
    assert abs(bias) < abs(expectation(w, n - 1, "snips") - w.truth)


def test_snips_is_unbiased_when_the_target_is_the_logger():
    w = world(target=simulate.toy_world().logger)
    assert expectation(w, 2, "snips") == pytest.approx(w.truth, abs=1e-12)


def test_clipping_only_lowers_the_expectation_and_changes_nothing_above_the_largest_weight():
    w = world()
    largest = float((w.target / w.logger).max())
    assert expectation(w, 2, "clipped_ips", tau=largest) == pytest.approx(w.truth, abs=1e-12)
    assert expectation(w, 2, "clipped_ips", tau=1.0) < w.truth - 0.01
    assert expectation(w, 2, "switch_dr", tau=largest) == pytest.approx(w.truth, abs=1e-12)
    assert expectation(w, 2, "switch_dr", tau=0.0) == pytest.approx(expectation(w, 2, "dm"), abs=1e-12)


@pytest.mark.parametrize("tau", [0.5, 1.5, np.inf])
def test_switch_with_ips_expects_the_truth_where_it_uses_ips_and_the_model_elsewhere(tau):
    w = world()
    large = (w.target / w.logger) > tau
    closed_form = simulate.true_value(np.where(large, w.q_hat, w.q), w.target)
    assert expectation(w, 2, "switch_ips_dm", tau=tau) == pytest.approx(closed_form, abs=1e-12)
    right_model = world(q_hat=simulate.toy_world().q)
    assert expectation(right_model, 2, "switch_ips_dm", tau=tau) == pytest.approx(w.truth, abs=1e-12)


def test_the_normal_interval_is_the_mean_plus_or_minus_z_standard_errors():
    terms = np.array([1.0, 0.0, 3.0, 0.0])
    found = estimators.ips(terms, np.ones(4), confidence=0.95)
    error = terms.std(ddof=1) / 2
    assert found.standard_error == pytest.approx(error)
    assert (found.low, found.high) == pytest.approx((1.0 - 1.959964 * error, 1.0 + 1.959964 * error), rel=1e-6)


def test_the_snips_interval_is_the_delta_method_one():
    reward, weight = np.array([1.0, 0.0, 1.0, 1.0]), np.array([4.0, 1.0, 0.5, 0.5])  # mean weight 1.5
    value = (weight * reward).sum() / weight.sum()
    # delta method by hand: gradient of A/B at the means, applied to the covariance of (w r, w)
    a, b = weight * reward, weight
    cov = np.cov(np.vstack([a, b]), ddof=1) / len(a)
    gradient = np.array([1 / b.mean(), -a.mean() / b.mean() ** 2])
    found = estimators.snips(reward, weight)
    assert found.value == pytest.approx(value)
    assert found.standard_error == pytest.approx(np.sqrt(gradient @ cov @ gradient))


@pytest.mark.parametrize("weights, expected", [([1.0] * 7, 7.0), ([2.0, 0.0, 0.0], 1.0), ([1.0, 3.0], 1.6)])
def test_effective_sample_size_closed_forms(weights, expected):
    assert estimators.effective_sample_size(weights) == pytest.approx(expected)


weights = st.lists(st.floats(0, 1e3, allow_nan=False), min_size=1, max_size=40).filter(lambda w: sum(w) > 1e-6)


@settings(max_examples=60, deadline=None)
@given(weights)
def test_effective_sample_size_lies_between_one_and_n(w):
    ess = estimators.effective_sample_size(w)
    assert 1 - 1e-9 <= ess <= len(w) + 1e-9


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_snips_stays_within_the_rewards_and_clipping_never_raises_ips(data):
    w = data.draw(weights)
    r = data.draw(st.lists(st.floats(0, 1), min_size=len(w), max_size=len(w)))
    value = float(estimators.snips(r, w).value)
    assert min(r) - 1e-9 <= value <= max(r) + 1e-9
    tau = data.draw(st.floats(0.01, 100))
    assert estimators.clipped_ips(r, w, tau).value <= estimators.ips(r, w).value + 1e-9


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_many_logs_at_once_give_each_log_s_own_estimates(seed):
    rng = np.random.default_rng(seed)
    r, w, q1, qt = rng.random((4, 3, 6))
    together = estimators.estimate_all(r, w * 3, q1, qt, tau=1.5)
    for row in range(3):
        alone = estimators.estimate_all(r[row], w[row] * 3, q1[row], qt[row], tau=1.5)
        for name, found in alone.items():
            assert together[name].value[row] == pytest.approx(found.value)
            assert together[name].high[row] == pytest.approx(found.high)


def test_unknown_estimators_and_missing_models_are_refused():
    with pytest.raises(ValueError, match="unknown estimator nope"):
        estimators.estimate_all([1], [1], names=("nope",))
    with pytest.raises(ValueError, match="need a reward model"):
        estimators.estimate_all([1], [1], names=("dr",))
