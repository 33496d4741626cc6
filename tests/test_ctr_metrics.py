"""Normalised entropy and calibration: a hand-worked example, brute force, and TorchRec's log2 form."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics import ctr_metrics
from metrics.classification_metrics import UndefinedMetricWarning
from metrics.registry import BY_KEY, ProbabilityCase, evaluate

# The second seed's LogLoss example, worked by hand:
# LogLoss = -(ln 0.8 + ln 0.6 + ln 0.7) / 3 = (0.22314 + 0.51083 + 0.35667) / 3 = 0.36355
# base rate 2/3: H = -(2/3 ln 2/3 + 1/3 ln 1/3) = 0.27031 + 0.36620 = 0.63651
# NE = 0.36355 / 0.63651 = 0.57115; calibration = (0.8 + 0.6 + 0.3) / 2 = 0.85
SEED_LABELS, SEED_PROBS = [1, 1, 0], [0.8, 0.6, 0.3]


def test_hand_worked_seed_example():
    assert ctr_metrics.base_rate_entropy(SEED_LABELS) == pytest.approx(0.63651, abs=5e-6)
    assert ctr_metrics.normalized_entropy(SEED_LABELS, SEED_PROBS) == pytest.approx(0.57115, abs=5e-6)
    assert ctr_metrics.calibration(SEED_LABELS, SEED_PROBS) == pytest.approx(0.85, abs=1e-12)


def brute_force_ne_log2(y_true, y_prob, eta=1e-12):
    """TorchRec's computation, term by term in log2: cross-entropy sum over the base-rate norm."""
    ce = sum(-y * math.log2(min(max(p, eta), 1 - eta)) - (1 - y) * math.log2(1 - min(max(p, eta), 1 - eta))
             for y, p in zip(y_true, y_prob))
    positives = sum(y_true)
    negatives = len(y_true) - positives
    mean = positives / len(y_true)
    norm = -positives * math.log2(mean) - negatives * math.log2(1 - mean)
    return ce / norm


def brute_force_calibration(y_true, y_prob):
    return sum(y_prob) / sum(y_true)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_agrees_with_brute_force_on_random_inputs(data):
    n = data.draw(st.integers(2, 40))
    y_true = data.draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n).filter(lambda y: 0 < sum(y) < n))
    y_prob = data.draw(st.lists(st.floats(1e-6, 1 - 1e-6), min_size=n, max_size=n))
    # With eps = 1e-12 the clipping is TorchRec's; the log base cancels in the ratio.
    assert ctr_metrics.normalized_entropy(y_true, y_prob, eps=1e-12) == pytest.approx(
        brute_force_ne_log2(y_true, y_prob), rel=1e-9)
    assert ctr_metrics.calibration(y_true, y_prob) == pytest.approx(brute_force_calibration(y_true, y_prob), rel=1e-12)


def test_base_rate_predictor_has_ne_exactly_1_and_calibration_1():
    sweep = ctr_metrics.base_rate_sweep([0.01, 0.02, 0.1, 0.3, 0.5], n=1000)
    assert sweep["normalized_entropy"].tolist() == [1.0] * 5
    assert sweep["calibration"].tolist() == pytest.approx([1.0] * 5, abs=1e-12)
    # Its LogLoss is the binary entropy of the click rate, which grows tenfold from 1% to 50%.
    expected = [-(r * math.log(r) + (1 - r) * math.log(1 - r)) for r in (0.01, 0.02, 0.1, 0.3, 0.5)]
    assert sweep["log_loss"].tolist() == pytest.approx(expected, rel=1e-12)
    assert sweep["log_loss"].iloc[-1] / sweep["log_loss"].iloc[0] > 10


def test_ne_below_1_means_better_than_the_base_rate():
    y_true = [1, 0, 0, 0]
    assert ctr_metrics.normalized_entropy(y_true, [0.7, 0.1, 0.1, 0.1]) < 1
    assert ctr_metrics.normalized_entropy(y_true, [0.1, 0.7, 0.1, 0.1]) > 1


def test_calibration_over_and_under_predicts():
    assert ctr_metrics.calibration([1, 0, 0, 0], [0.5, 0.5, 0.5, 0.5]) == 2.0
    assert ctr_metrics.calibration([1, 1, 0, 0], [0.25, 0.25, 0.0, 0.0]) == 0.25


@pytest.mark.parametrize("labels", [[0, 0, 0], [1, 1]], ids=["no click", "all clicks"])
def test_ne_is_undefined_for_one_class(labels):
    with pytest.warns(UndefinedMetricWarning, match="every label is the same"):
        assert math.isnan(ctr_metrics.normalized_entropy(labels, [0.5] * len(labels)))
    assert ctr_metrics.base_rate_entropy(labels) == 0.0


def test_calibration_is_undefined_without_a_click():
    with pytest.warns(UndefinedMetricWarning, match="no click"):
        assert math.isnan(ctr_metrics.calibration([0, 0], [0.2, 0.1]))


@pytest.mark.parametrize(("y_true", "y_prob", "message"), [
    ([1, 0], [0.5], "same length"),
    ([1, 2], [0.5, 0.5], "y_true must contain only 0 and 1, got 2 at position 1"),
    ([1, 0], [0.5, 1.5], "y_prob must be probabilities in \\[0, 1\\], got 1.5 at position 1"),
    ([], [], "y_true is empty"),
], ids=["lengths", "label", "probability", "empty"])
def test_bad_input_is_named(y_true, y_prob, message):
    for function in (ctr_metrics.normalized_entropy, ctr_metrics.calibration, ctr_metrics.ctr_breakdown):
        with pytest.raises(ValueError, match=message):
            function(y_true, y_prob)


def test_base_rate_sweep_rejects_a_one_class_rate():
    with pytest.raises(ValueError, match="click rate 0.0001 gives 100 impressions of one class"):
        ctr_metrics.base_rate_sweep([0.0001], n=100)


def test_breakdown_matches_the_functions():
    parts = ctr_metrics.ctr_breakdown(SEED_LABELS, SEED_PROBS)
    assert parts["normalized_entropy"] == ctr_metrics.normalized_entropy(SEED_LABELS, SEED_PROBS)
    assert parts["log_loss"] / parts["base_rate_entropy"] == parts["normalized_entropy"]
    assert parts["predicted_clicks"] / parts["clicks"] == parts["calibration"]


def test_registry_entries():
    values = evaluate(ProbabilityCase(SEED_LABELS, SEED_PROBS))
    assert values["normalized_entropy"] == pytest.approx(0.571154, abs=1e-6)
    assert values["calibration"] == pytest.approx(0.85)
    assert BY_KEY["normalized_entropy"].label == "Normalised entropy"
    assert not BY_KEY["normalized_entropy"].higher_is_better
    assert np.isinf(BY_KEY["calibration"].upper)


def test_agrees_with_scikit_learn_log_loss_over_scipy_entropy_on_random_data():
    from scipy.stats import entropy
    from sklearn.metrics import log_loss as sklearn_log_loss

    rng = np.random.default_rng(8)
    for _ in range(50):
        n = int(rng.integers(2, 300))
        y_true = rng.integers(0, 2, n)
        if y_true.min() == y_true.max():
            continue
        y_prob = rng.uniform(0.001, 0.999, n)
        rate = y_true.mean()
        expected = sklearn_log_loss(y_true, y_prob, labels=[0, 1]) / entropy([rate, 1 - rate])
        assert ctr_metrics.normalized_entropy(y_true, y_prob) == pytest.approx(expected, rel=1e-10)
        assert ctr_metrics.calibration(y_true, y_prob) == pytest.approx(y_prob.sum() / y_true.sum(), rel=1e-12)
