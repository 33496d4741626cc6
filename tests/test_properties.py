"""Property tests over the registry: ranges, NaN rules, and invariances every metric must keep.

Metrics are parametrised straight from ``metrics.registry.METRICS`` (ids are the metric keys),
so a new registry entry is range-checked without touching this file; a new *case type* fails
``test_every_case_type_has_a_strategy`` until a strategy for it is added here.
"""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics import classification_metrics as cls
from metrics import ndcg, ranked_metrics, topn_metrics
from metrics.registry import (
    METRICS,
    LabelCase,
    ProbabilityCase,
    RankingCase,
    RatingCase,
    ScoreCase,
    UsersCase,
    evaluate,
    metrics_for,
)

# Hypothesis's own default of 100 cases a property (200 took the module 36 s of the suite's time): with no example
# database every run draws new cases, so each run of the suite tries another hundred, and a failing one is shrunk
# to its smallest either way.
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    database=None,  # write nothing into the repository
    suppress_health_check=[HealthCheck.too_slow],
)

# --------------------------------------------------------------------------- strategies

items = st.integers(0, 30) | st.text("abcd", min_size=1, max_size=2)
# Float grades include subnormal ones: a tiny positive grade is still relevant.
grades = st.integers(0, 4) | st.floats(0, 5, allow_nan=False, allow_infinity=False)
ks = st.integers(1, 25)
ranked_lists = st.lists(items, unique=True, max_size=15)
ground_truths = st.dictionaries(items, grades, max_size=10)


@st.composite
def ranking_cases(draw):
    recommended = draw(ranked_lists)
    # Ground truth mixes recommended and unrecommended items.
    truth = draw(ground_truths)
    if recommended:
        for item in draw(st.lists(st.sampled_from(recommended), unique=True)):
            truth[item] = draw(grades)
    return RankingCase(
        recommended=recommended,
        ground_truth=truth,
        k=draw(ks),
        gain=draw(st.sampled_from(ndcg.GAINS)),
        ap_denominator=draw(st.sampled_from(ranked_metrics.AP_DENOMINATORS)),
    )


finite = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)


@st.composite
def rating_cases(draw):
    n = draw(st.integers(1, 30))
    return RatingCase(draw(st.lists(finite, min_size=n, max_size=n)),
                      draw(st.lists(finite, min_size=n, max_size=n)))


bits = st.integers(0, 1)


@st.composite
def label_cases(draw):
    n = draw(st.integers(1, 30))
    return LabelCase(draw(st.lists(bits, min_size=n, max_size=n)),
                     draw(st.lists(bits, min_size=n, max_size=n)))


@st.composite
def score_cases(draw):
    n = draw(st.integers(1, 40))
    users = st.sampled_from(["ann", "bob", "cy", 7, 8])
    scores = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]) | finite  # ties are common
    return ScoreCase(
        user_ids=draw(st.lists(users, min_size=n, max_size=n)),
        y_true=draw(st.lists(bits, min_size=n, max_size=n)),
        y_score=draw(st.lists(scores, min_size=n, max_size=n)),
        gauc_weight=draw(st.sampled_from(cls.GAUC_WEIGHTS)),
    )


probabilities = st.sampled_from([0.0, 1.0, 1e-300, 1 - 1e-16]) | st.floats(0, 1)


@st.composite
def probability_cases(draw):
    n = draw(st.integers(1, 30))
    return ProbabilityCase(
        y_true=draw(st.lists(bits, min_size=n, max_size=n)),
        y_prob=draw(st.lists(probabilities, min_size=n, max_size=n)),
        # Includes eps below 2**-54, where 1 - eps rounds to 1.0 (see test_log_loss_with_a_tiny_eps).
        eps=draw(st.none() | st.sampled_from([1e-17, 1e-300]) | st.floats(1e-300, 0.49)),
    )


@st.composite
def users_cases(draw):
    users = draw(st.lists(ranking_cases(), min_size=1, max_size=6))
    return UsersCase(
        all_recommended=[u.recommended for u in users],
        all_ground_truth=[u.binary_truth for u in users],
        k=draw(ks),
        ap_denominator=draw(st.sampled_from(ranked_metrics.AP_DENOMINATORS)),
    )


CASE_STRATEGIES = {
    RankingCase: ranking_cases(),
    UsersCase: users_cases(),
    RatingCase: rating_cases(),
    LabelCase: label_cases(),
    ScoreCase: score_cases(),
    ProbabilityCase: probability_cases(),
}


# --------------------------------------------------------------------------- ranges and NaN


def auc_undefined(case) -> bool:
    """Whether AUC / GAUC is undefined for this case: a class missing (for GAUC, in every user)."""
    if not isinstance(case, ScoreCase):
        return False
    if len(set(case.y_true)) < 2:
        return True
    by_user: dict = {}
    for user, label in zip(case.user_ids, case.y_true):
        by_user.setdefault(user, set()).add(label)
    return all(len(labels) < 2 for labels in by_user.values())


NAN_ALLOWED = {
    "auc": lambda c: len(set(c.y_true)) < 2,
    "gauc": auc_undefined,
    "normalized_entropy": lambda c: len(set(c.y_true)) < 2,
    "calibration": lambda c: 1 not in c.y_true,
}


def test_every_case_type_has_a_strategy():
    assert {m.case for m in METRICS} <= set(CASE_STRATEGIES)
    assert len({m.key for m in METRICS}) == len(METRICS)
    for m in METRICS:
        assert m.lower < m.upper, m.key


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m.key)
@SETTINGS
@given(data=st.data())
def test_value_stays_in_the_registry_range(metric, data):
    case = data.draw(CASE_STRATEGIES[metric.case], label="case")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cls.UndefinedMetricWarning)
        value = metric.compute(case)
    assert isinstance(value, float)
    undefined = NAN_ALLOWED.get(metric.key, lambda c: False)(case)
    if undefined:
        assert math.isnan(value), f"{metric.key} should be nan when a class is missing, got {value}"
    else:
        assert not math.isnan(value), f"{metric.key} is nan although both classes are present"
        assert metric.lower <= value <= metric.upper, f"{metric.key}={value!r} outside [{metric.lower}, {metric.upper}]"


def test_nan_only_where_a_class_is_missing_is_reached():
    """The NaN rule above is exercised both ways (guards against a strategy that never hits it)."""
    single = ScoreCase(["a", "a", "b", "b"], [1, 1, 0, 0], [0.1, 0.2, 0.3, 0.4])
    mixed = ScoreCase(["a", "a", "b", "b"], [1, 0, 0, 0], [0.1, 0.2, 0.3, 0.4])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cls.UndefinedMetricWarning)
        single_values, mixed_values = evaluate(single), evaluate(mixed)
    assert not math.isnan(single_values["auc"]) and math.isnan(single_values["gauc"])
    assert mixed_values["auc"] == 0.0 and mixed_values["gauc"] == 0.0


@pytest.mark.parametrize("case_type", list(CASE_STRATEGIES), ids=lambda t: t.__name__)
@SETTINGS
@given(data=st.data())
def test_evaluate_returns_every_metric_of_the_case_type(case_type, data):
    case = data.draw(CASE_STRATEGIES[case_type], label="case")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cls.UndefinedMetricWarning)
        values = evaluate(case)
    expected_keys = [m.key for m in METRICS if m.case is case_type]
    assert list(values) == expected_keys
    assert [m.key for m in metrics_for(case_type)] == expected_keys
    for metric in metrics_for(case_type):
        value = values[metric.key]
        assert math.isnan(value) or metric.lower <= value <= metric.upper, (metric.key, value)


# --------------------------------------------------------------------------- NDCG of the ideal order


positive_truths = st.dictionaries(items, grades, min_size=1, max_size=12).filter(
    lambda g: any(v > 0 for v in g.values())
)


@SETTINGS
@given(truth=positive_truths, k=ks, extra=st.lists(st.text("xyz", min_size=3, max_size=4), unique=True,
                                                   max_size=5), gain=st.sampled_from(ndcg.GAINS))
def test_ndcg_of_the_ideal_ordering_is_one(truth, k, extra, gain):
    ideal = sorted(truth, key=lambda item: truth[item], reverse=True)
    # Unjudged items after the ideal list change nothing.
    recommended = ideal + [e for e in extra if e not in truth]
    assert ndcg.ndcg_at_k(recommended, truth, k, gain=gain) == pytest.approx(1.0, abs=1e-12)
    # Grade-0 items come last in the ideal order, so it is ideal for the binary truth too.
    relevant = {item for item, grade in truth.items() if grade > 0}
    assert ndcg.ndcg_at_k(recommended, relevant, k, gain=gain) == pytest.approx(1.0, abs=1e-12)


@SETTINGS
@given(truth=positive_truths, gain=st.sampled_from(ndcg.GAINS))
def test_ndcg_score_of_ideal_scores_is_one(truth, gain):
    y_true = list(truth.values())
    if len(y_true) < 2:
        y_true.append(0.0)
    assert ndcg.ndcg_score(y_true, y_true, gain=gain) == pytest.approx(1.0, abs=1e-12)


# --------------------------------------------------------------------------- invariances


users = st.lists(st.tuples(ranked_lists, ground_truths), min_size=1, max_size=12)


@SETTINGS
@given(data=st.data(), all_users=users, k=ks, denominator=st.sampled_from(ranked_metrics.AP_DENOMINATORS))
def test_user_order_does_not_change_map_or_mrr(data, all_users, k, denominator):
    order = data.draw(st.permutations(range(len(all_users))), label="order")
    shuffled = [all_users[i] for i in order]
    recs, truths = zip(*all_users)
    recs2, truths2 = zip(*shuffled)
    assert ranked_metrics.mean_average_precision_at_k(recs2, truths2, k, denominator=denominator) == pytest.approx(
        ranked_metrics.mean_average_precision_at_k(recs, truths, k, denominator=denominator), abs=1e-12)
    assert ranked_metrics.mean_reciprocal_rank(recs2, truths2) == pytest.approx(
        ranked_metrics.mean_reciprocal_rank(recs, truths), abs=1e-12)


@SETTINGS
@given(case=ranking_cases(), k1=ks, k2=ks)
def test_recall_never_decreases_as_k_grows(case, k1, k2):
    small, large = sorted((k1, k2))
    assert topn_metrics.recall_at_k(case.recommended, case.ground_truth, small) <= topn_metrics.recall_at_k(
        case.recommended, case.ground_truth, large)


@SETTINGS
@given(case=ranking_cases())
def test_ap_denominators_are_ordered(case):
    ap = {
        d: ranked_metrics.average_precision_at_k(case.recommended, case.ground_truth, case.k, denominator=d)
        for d in ranked_metrics.AP_DENOMINATORS
    }
    assert ap["hits"] >= ap["min"] >= ap["relevant"], ap
    assert ap["hits"] >= ap["relevant"], ap
    # The three share one numerator (the sum of precision@i over hits), so AP times its
    # denominator -- counted here, not by metrics/ -- is the same for all three.
    relevant = {item for item, grade in case.ground_truth.items() if grade > 0}
    hits = sum(item in relevant for item in case.recommended[: case.k])
    numerators = [ap["hits"] * hits, ap["min"] * min(len(relevant), case.k), ap["relevant"] * len(relevant)]
    assert numerators == pytest.approx([numerators[2]] * 3, abs=1e-9), (ap, hits, len(relevant))


# --------------------------------------------------------------------------- regressions


@pytest.mark.parametrize("eps", [1e-17, 2.0**-54, 1e-100, 1e-300])
def test_log_loss_with_a_tiny_eps_stays_finite(eps):
    """eps <= 2**-54 is accepted, but 1 - eps rounds to 1.0 there, so clipping p (rather than the
    probability of the true label) left p = 1 unclipped: label 1 gave 0 * log(0) = nan, label 0 inf.
    Clipping p = 1 costs -log(1 - eps) ~ 0 for label 1 and -log(eps) for label 0 (what
    scikit-learn <= 1.4, which clipped both columns and used xlogy, returned)."""
    assert cls.log_loss([1], [1.0], eps=eps) == pytest.approx(0.0, abs=1e-9)
    assert cls.log_loss([0], [1.0], eps=eps) == pytest.approx(-math.log(eps), rel=1e-9)
    assert cls.log_loss([1], [0.0], eps=eps) == pytest.approx(-math.log(eps), rel=1e-9)
    assert cls.log_loss([0], [0.0], eps=eps) == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("grade", [1e-17, 5e-324, 2.2e-309])
def test_exponential_gain_of_a_tiny_positive_grade(grade):
    """2^g - 1 computed as exp2(g) - 1 is 0.0 in float64 for 0 < g < ~1e-16, which gave a relevant
    item no gain (and NDCG 0 for the ideal list)."""
    assert ndcg.ndcg_at_k(["a", "b"], {"a": grade, "b": 0}, 1, gain="exponential") == 1.0
    assert ndcg.ndcg_score([grade, 0.0], [1.0, 0.0], gain="exponential") == 1.0
