"""The Logged feedback page's views from the engine: the weight histogram counts every round once, and one
explored setting's tables agree with the engine's own arithmetic."""

from __future__ import annotations

import numpy as np
import pytest

from offpolicy import estimators, explore, simulate


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_weight_histogram_counts_every_round_once(seed):
    rng = np.random.default_rng(seed)
    weight = np.where(rng.random(5_000) < 0.7, 0.0, rng.pareto(1.2, 5_000) * 3 + 0.01)
    found = explore.weight_histogram(weight)
    assert found.zeros + found.counts.sum() == weight.size
    assert found.edges[0] <= weight[weight > 0].min() and found.edges[-1] > weight.max()
    assert np.allclose(np.diff(np.log10(found.edges)), 0.25)  # four bins to a decade


def test_a_log_without_a_positive_weight_has_no_bins():
    found = explore.weight_histogram([0.0, 0.0])
    assert found.counts.size == 0 and found.zeros == 2


def test_a_largest_weight_on_a_decade_edge_is_kept():
    found = explore.weight_histogram([1.0, 10.0], bins_per_decade=1)
    assert found.counts.tolist() == [1, 1]


def _world(seed: int = 0) -> simulate.World:
    rng = np.random.default_rng(seed)
    q = rng.uniform(0.05, 0.6, (30, 8))
    scores = rng.normal(size=(30, 8))
    return simulate.World(q=q, logger=simulate.softmax(scores, 1.0), target=simulate.top1(rng.normal(size=(30, 8))),
                          q_hat=np.clip(q + rng.normal(0, 0.1, q.shape), 0, 1), logger_scores=scores)


def test_one_explored_setting_is_the_engine_s_arithmetic():
    world = _world()
    found = explore.explore(world, 0.5, 2_000, 5.0, repeats=40)
    here = world.with_logger_temperature(0.5)
    assert found.truth == pytest.approx(here.truth)
    assert list(found.one_log.index) == list(estimators.ESTIMATORS)
    assert np.allclose(found.one_log["error"], found.one_log["value"] - here.truth)
    assert (found.one_log["low"] <= found.one_log["value"]).all() and (found.one_log["value"] <= found.one_log["high"]).all()
    logs = simulate.draw_logs(here, 2_000, 1, seed=explore.SEED)
    weight = here.target[logs.context, logs.action] / logs.propensity
    assert found.ess == pytest.approx(float(estimators.effective_sample_size(weight[0])))
    assert found.weights.zeros + found.weights.counts.sum() == 2_000
    accuracy = found.accuracy
    assert np.allclose(accuracy["rmse"] ** 2, accuracy["bias"] ** 2 + accuracy["variance"])
    assert np.allclose(accuracy["sd"], np.sqrt(accuracy["variance"]))
    assert found.repeats == 40 and 0 < found.mean_ess <= 2_000
    # The page's substituted IPS formula: the weighted clicks, brute force over the rounds, over n is IPS's value.
    assert found.weighted_clicks == pytest.approx(sum(w * r for w, r in zip(weight[0], logs.reward[0])))
    assert found.weighted_clicks / 2_000 == pytest.approx(found.one_log.loc["ips", "value"], rel=1e-12)


def test_the_same_setting_gives_the_same_numbers():
    world = _world(1)
    first, second = (explore.explore(world, 1.0, 1_000, 10.0, repeats=10) for _ in range(2))
    assert first.one_log.equals(second.one_log) and first.accuracy.equals(second.accuracy)
