"""The one-pass metric-vs-K curves equal each metric's own per-K computation."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.curves import metrics_over_k
from metrics.ndcg import GAINS
from metrics.ranked_metrics import AP_DENOMINATORS
from metrics.registry import BY_KEY, RankingCase, evaluate_over_k

CURVE_KEYS = ("precision_at_k", "recall_at_k", "f1_at_k", "hit_rate_at_k", "ap_at_k",
              "ndcg_binary_at_k", "ndcg_graded_at_k")

cases = st.builds(
    lambda items, grades, gain, denominator: RankingCase(items, grades, 1, gain, denominator),
    st.lists(st.integers(0, 40), max_size=30, unique=True),
    st.dictionaries(st.integers(0, 50), st.sampled_from([0, 0.5, 1, 2, 3, 5]), max_size=15),
    st.sampled_from(GAINS), st.sampled_from(AP_DENOMINATORS),
)


@settings(max_examples=150, deadline=None)
@given(case=cases, extra=st.integers(0, 5))
def test_every_curve_point_equals_the_per_k_metric(case, extra):
    ks = range(1, len(case.recommended) + extra + 2)
    table = evaluate_over_k(case, ks)
    assert list(table.columns) == ["k", *CURVE_KEYS]
    for row in table.itertuples(index=False):
        at_k = replace(case, k=row.k)
        for key in CURVE_KEYS:
            assert getattr(row, key) == pytest.approx(BY_KEY[key].compute(at_k), abs=1e-12), (key, row.k)


def test_the_seed_example_curve_at_k_10():
    row = metrics_over_k(range(101, 111), {101: 1, 104: 1, 107: 1}, [10]).iloc[0]
    assert row["precision_at_k"] == pytest.approx(0.3)
    assert row["ndcg_binary_at_k"] == pytest.approx(0.82781, abs=1e-5)


def test_a_key_that_is_not_a_curve_is_refused():
    with pytest.raises(ValueError, match="K-dependent ranking metrics"):
        evaluate_over_k(RankingCase([1], {1: 1}, 1), [1], ["rr"])
