"""The Compare page's numbers, computed in whole_logs: two logs compared user by user, one metric's paired
differences with their number and spread, and the difference a power question starts from. Checked against
metrics.ndcg user by user, scipy's paired t-test and Python's statistics module; and the formula with those numbers,
written in content."""

from __future__ import annotations

import statistics

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from content import i18n
from content.pages import compare as words
from metrics.ndcg import ndcg_at_k
from whole_logs import significance
from whole_logs.comparison import compare_logs
from whole_logs.synthetic_pair import synthetic_pair


@pytest.fixture(scope="module")
def logs():
    return synthetic_pair(0.02, users=300, seed=3).sample(120)


def by_hand_ndcg(recommendations: pd.DataFrame, truth: pd.DataFrame, user, k: int) -> float:
    ranked = recommendations[recommendations["user"] == user].sort_values("score", ascending=False)["item"].tolist()
    grades = truth[truth["user"] == user].set_index("item")["relevance"].to_dict()
    return ndcg_at_k(ranked, grades, k)


def test_two_logs_are_scored_per_user_and_tested_in_pairs(logs):
    recs_a, recs_b, truth = logs
    found = compare_logs(recs_a, recs_b, truth, 5)
    users = sorted(truth["user"].unique())
    a = [by_hand_ndcg(recs_a, truth, user, 5) for user in users]
    b = [by_hand_ndcg(recs_b, truth, user, 5) for user in users]
    np.testing.assert_allclose(found.per_user_a.loc[users, "ndcg@5"], a, atol=1e-12)
    np.testing.assert_allclose(found.per_user_b.loc[users, "ndcg@5"], b, atol=1e-12)
    row = found.table.loc["ndcg@5"]
    assert row["mean_a"] == pytest.approx(np.mean(a)) and row["delta"] == pytest.approx(np.mean(b) - np.mean(a))
    assert row["p_value"] == pytest.approx(stats.ttest_rel(b, a).pvalue)
    assert row["ci_low"] <= row["delta"] <= row["ci_high"]


def test_the_comparison_follows_the_test_interval_and_correction(logs):
    recs_a, recs_b, truth = logs
    plain = compare_logs(recs_a, recs_b, truth, 5, correction="none").table
    assert plain["p_adjusted"].tolist() == plain["p_value"].tolist()
    wilcoxon = compare_logs(recs_a, recs_b, truth, 5, test="wilcoxon", correction="none").table
    scored = compare_logs(recs_a, recs_b, truth, 5)
    d = scored.per_user_b["ndcg@5"] - scored.per_user_a["ndcg@5"]
    assert wilcoxon.loc["ndcg@5", "p_value"] == pytest.approx(stats.wilcoxon(d).pvalue)
    narrow = compare_logs(recs_a, recs_b, truth, 5, confidence=0.8).table.loc["ndcg@5"]
    wide = compare_logs(recs_a, recs_b, truth, 5, confidence=0.99).table.loc["ndcg@5"]
    assert wide["ci_low"] < narrow["ci_low"] < narrow["ci_high"] < wide["ci_high"]


def test_logs_that_cannot_be_compared_raise_a_value_error(logs):
    recs_a, recs_b, truth = logs
    one = truth[truth["user"] == truth["user"].iloc[0]]
    with pytest.raises(ValueError):
        compare_logs(recs_a, recs_b, one, 5)


def test_a_metrics_difference_is_b_minus_a_per_user_with_its_number_and_sample_spread():
    users = pd.Index(["u1", "u2", "u3", "u4"], name="user")
    a = pd.DataFrame({"m": [0.2, 0.5, 1.0, 0.0], "other": [1.0, 1.0, 1.0, 1.0]}, index=users)
    # B's rows in the other order (u4 first): the users are matched by name, not by row.
    b = pd.DataFrame({"m": [1.0, 0.25, 0.5, 0.4], "other": [0.0, 0.0, 0.0, 0.0]}, index=users[::-1])
    found = significance.metric_difference(a, b, "m")
    expected = [0.4 - 0.2, 0.5 - 0.5, 0.25 - 1.0, 1.0 - 0.0]
    np.testing.assert_allclose(found.per_user.loc[users], expected)
    assert found.users == 4
    assert found.sd == pytest.approx(statistics.stdev(expected))


@pytest.mark.parametrize(("delta", "start"), [(0.01234, 0.0123), (-0.05, 0.05), (0.00005, 0.001), (0.0, 0.001),
                                              (-0.00096, 0.001), (0.00151, 0.0015), (np.float64(0.2), 0.2)])
def test_the_target_starts_at_the_observed_difference_as_shown_and_at_least_a_thousandth(delta, start):
    assert significance.observed_target(delta) == start


def test_the_formula_has_the_rows_numbers_signed_in_the_readers_notation():
    row = pd.Series({"delta": -0.0023, "ci_low": -0.0166, "ci_high": 0.0118, "effect_size": -0.0101})
    english = words.difference_substituted(row, 1000, 0.22641, 0.95)
    assert r"\bar d &= -0.0023\quad (n = 1{,}000)" in english
    assert r"&= [-0.0166,\ +0.0118]" in english and r"\text{95\% interval}" in english
    assert r"&= -0.0023 / 0.2264 = -0.01\end{aligned}" in english
    with i18n.speaking("tr"):
        turkish = words.difference_substituted(row, 1000, 0.22641, 0.95)
    assert r"\bar d &= -0{,}0023\quad (n = 1.000)" in turkish and r"[-0{,}0166,\ +0{,}0118]" in turkish
