"""whole_logs.significance against scipy.stats, ranx and brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from whole_logs.significance import adjust, compare, sign_flip_p_values, users_needed


def per_user_pair(seed: int, n: int, *, shift: float = 0.02, metrics=("ndcg@10", "recall@10", "hit_rate@10")):
    """Two per-user tables of n users with IR-like scores: many zeros and ties, some binary."""
    rng = np.random.default_rng(seed)
    users = pd.Index([f"u{i}" for i in range(n)], name="user")
    a, b = {}, {}
    for metric in metrics:
        if metric.startswith("hit_rate"):
            a[metric] = (rng.random(n) < 0.5).astype(float)
            b[metric] = (rng.random(n) < 0.5 + shift).astype(float)
        else:
            base = np.where(rng.random(n) < 0.3, 0.0, rng.random(n))
            a[metric] = base
            b[metric] = np.clip(base + rng.normal(shift, 0.1, n) * (rng.random(n) < 0.6), 0, 1)
    return pd.DataFrame(a, index=users), pd.DataFrame(b, index=users)


@pytest.mark.parametrize("seed", range(20))
def test_paired_t_and_wilcoxon_equal_scipy(seed):
    a, b = per_user_pair(seed, n=20 + 7 * seed)
    t = compare(a, b, test="paired_t", n_resamples=200, correction="none")
    w = compare(a, b, test="wilcoxon", n_resamples=200, correction="none")
    for metric in a.columns:
        assert t.loc[metric, "p_value"] == pytest.approx(stats.ttest_rel(b[metric], a[metric]).pvalue, rel=1e-12)
        assert w.loc[metric, "p_value"] == pytest.approx(stats.wilcoxon(b[metric] - a[metric]).pvalue, rel=1e-12)


@pytest.mark.parametrize("n", [3, 6, 9, 12])
def test_exact_sign_flip_equals_scipy_permutation_test(n):
    rng = np.random.default_rng(n)
    d = np.round(rng.normal(0.1, 0.3, size=(n, 2)), 2)  # rounding makes ties with the observed mean
    d[:, 1] = np.sign(d[:, 1])  # hit-rate-like differences in {-1, 0, 1}
    ours = sign_flip_p_values(d, n_resamples=2 ** n, rng=np.random.default_rng(0))
    for column in range(2):
        theirs = stats.permutation_test((d[:, column],), lambda x, axis: np.mean(x, axis=axis),
                                        permutation_type="samples", n_resamples=2 ** n, vectorized=True)
        assert ours[column] == pytest.approx(theirs.pvalue, rel=1e-12)


def test_sampled_sign_flip_agrees_with_scipy_within_monte_carlo_error():
    a, b = per_user_pair(3, n=300, shift=0.015)
    ours = compare(a, b, test="permutation", n_resamples=20_000, seed=1, correction="none")["p_value"]
    for metric in a.columns:
        theirs = stats.permutation_test((b[metric].to_numpy() - a[metric].to_numpy(),),
                                        lambda x, axis: np.mean(x, axis=axis), permutation_type="samples",
                                        n_resamples=20_000, vectorized=True, rng=2).pvalue
        # two independent estimates of p, each with standard error <= sqrt(p(1-p)/20000) <= 0.0036
        assert abs(ours[metric] - theirs) < 0.015, (metric, ours[metric], theirs)


def test_paired_t_agrees_with_ranx_compare():
    ranx = pytest.importorskip("ranx")
    rng = np.random.default_rng(7)
    qrels = {f"q{i}": {f"d{j}": int(rng.integers(1, 3)) for j in rng.choice(30, 6, replace=False)} for i in range(40)}

    def run(seed):
        r = np.random.default_rng(seed)
        return {q: {f"d{j}": float(r.random()) for j in range(30)} for q in qrels}

    runs = [ranx.Run(run(1), name="A"), ranx.Run(run(2), name="B")]
    report = ranx.compare(ranx.Qrels(qrels), runs, metrics=["ndcg@10", "precision@5"], stat_test="student", max_p=1.0)
    per_user = {}
    for r in runs:
        ranx.evaluate(ranx.Qrels(qrels), r, ["ndcg@10", "precision@5"], return_mean=False)
        per_user[r.name] = pd.DataFrame({m: pd.Series(r.scores[m]) for m in ("ndcg@10", "precision@5")}).rename_axis("user")
    ours = compare(per_user["A"], per_user["B"], test="paired_t", n_resamples=100, correction="none")
    for metric in ("ndcg@10", "precision@5"):
        assert ours.loc[metric, "p_value"] == pytest.approx(float(report.to_dict()["B"]["comparisons"]["A"][metric]), rel=1e-9)
        wtl = report.to_dict()["B"]["win_tie_loss"]["A"][metric]
        assert (ours.loc[metric, "wins"], ours.loc[metric, "ties"], ours.loc[metric, "losses"]) == (wtl["W"], wtl["T"], wtl["L"])


def test_bootstrap_interval_covers_the_true_difference_about_95_percent_of_the_time():
    """400 simulated datasets of 150 users with a known true mean difference of 0.03.

    The percentile bootstrap is slightly liberal at this size; with 400 datasets the observed
    coverage has a standard error of 1.1 points, so [0.91, 0.98] is a wide but meaningful band.
    """
    covered = 0
    for seed in range(400):
        rng = np.random.default_rng(seed)
        a = rng.random(150)
        d = rng.normal(0.03, 0.2, 150)
        users = pd.RangeIndex(150, name="user")
        row = compare(pd.DataFrame({"m": a}, index=users), pd.DataFrame({"m": a + d}, index=users),
                      n_resamples=1000, seed=seed).loc["m"]
        covered += row["ci_low"] <= 0.03 <= row["ci_high"]
    assert 0.91 <= covered / 400 <= 0.98, covered / 400


def brute_holm(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    adjusted = [0.0] * m
    for position, i in enumerate(order):
        adjusted[i] = min(1.0, max((m - j) * p[order[j]] for j in range(position + 1)))
    return adjusted


@pytest.mark.parametrize("seed", range(30))
def test_holm_and_bonferroni_equal_brute_force(seed):
    rng = np.random.default_rng(seed)
    p = list(rng.random(int(rng.integers(1, 9))) ** 2)
    assert adjust(p, "holm") == pytest.approx(brute_holm(p), abs=1e-15)
    assert adjust(p, "bonferroni") == pytest.approx([min(1.0, x * len(p)) for x in p], abs=1e-15)
    assert adjust(p, "none") == pytest.approx(p)


def test_compare_columns_means_and_counts():
    a, b = per_user_pair(11, n=80)
    table = compare(a, b, n_resamples=500)
    assert list(table.columns) == ["mean_a", "mean_b", "delta", "ci_low", "ci_high", "p_value", "p_adjusted",
                                   "effect_size", "wins", "ties", "losses"]
    d = b - a
    for metric in a.columns:
        row = table.loc[metric]
        assert row["mean_a"] == pytest.approx(a[metric].mean())
        assert row["delta"] == pytest.approx(d[metric].mean())
        assert row["effect_size"] == pytest.approx(d[metric].mean() / d[metric].std(ddof=1))
        assert (row["wins"], row["ties"], row["losses"]) == ((d[metric] > 0).sum(), (d[metric] == 0).sum(), (d[metric] < 0).sum())
        assert row["ci_low"] <= row["delta"] <= row["ci_high"]
    assert list(table["p_adjusted"]) == pytest.approx(list(adjust(table["p_value"].to_numpy(), "holm")))


def test_same_seed_same_table_and_user_order_does_not_matter():
    a, b = per_user_pair(5, n=60)
    first = compare(a, b, test="permutation", n_resamples=700, seed=3)
    again = compare(a.iloc[::-1], b.sample(frac=1, random_state=0), test="permutation", n_resamples=700, seed=3)
    pd.testing.assert_frame_equal(first[["mean_a", "mean_b", "delta", "wins"]], again[["mean_a", "mean_b", "delta", "wins"]])
    pd.testing.assert_frame_equal(first, compare(a, b, test="permutation", n_resamples=700, seed=3))


def test_identical_models_have_p_value_one_and_no_effect():
    a, _ = per_user_pair(1, n=30)
    for test in ("paired_t", "wilcoxon", "permutation"):
        row = compare(a, a.copy(), test=test, n_resamples=300).iloc[0]
        assert (row["p_value"], row["effect_size"], row["delta"], row["ties"]) == (1.0, 0.0, 0.0, 30)


@pytest.mark.parametrize(("change", "message"), [
    (lambda a, b: (a, b.iloc[:-3]), "3 users are only in A"),
    (lambda a, b: (a.iloc[2:], b), "2 users are only in B"),
    (lambda a, b: (a, b.rename(columns={"ndcg@10": "ndcg@5"})), "same metric columns"),
    (lambda a, b: (a, b.assign(**{"ndcg@10": np.nan})), "no value for user"),
    (lambda a, b: (a.iloc[:1], b.iloc[:1]), "at least 2 users"),
    (lambda a, b: (a, pd.concat([b, b.iloc[:1]])), "more than once"),
    (lambda a, b: (a.to_numpy(), b), "must be a pandas DataFrame"),
])
def test_bad_tables_name_the_problem(change, message):
    a, b = per_user_pair(0, n=10)
    with pytest.raises(ValueError, match=message):
        compare(*change(a, b), n_resamples=10)


@pytest.mark.parametrize(("option", "value"), [("test", "t"), ("correction", "fdr"), ("confidence", 1.0),
                                               ("n_resamples", 0)])
def test_bad_options_are_rejected(option, value):
    a, b = per_user_pair(0, n=10)
    with pytest.raises(ValueError, match=option):
        compare(a, b, **{option: value})


def test_users_needed_reaches_the_power_and_one_user_fewer_does_not():
    a, b = per_user_pair(2, n=400)
    spread = (b - a)["ndcg@10"].std(ddof=1)
    for delta in (0.005, 0.01, 0.03):
        n = users_needed(a, b, "ndcg@10", delta=delta)
        # Guenther's approximation for the paired t-test is within a user or two of the exact answer.
        z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
        approx = (z * spread / delta) ** 2 + stats.norm.ppf(0.975) ** 2 / 2
        assert abs(n - approx) <= 2

        def power(users):
            df, nc = users - 1, delta / spread * np.sqrt(users)
            critical = stats.t.ppf(0.975, df)
            return stats.nct.sf(critical, df, nc) + stats.nct.cdf(-critical, df, nc)

        assert power(n) >= 0.8 > power(n - 1)


def test_users_needed_power_by_simulation():
    """At the answer, a simulated paired t-test rejects about 80% of the time."""
    rng = np.random.default_rng(0)
    users = pd.RangeIndex(500, name="user")
    a = pd.DataFrame({"m": np.zeros(500)}, index=users)
    b = pd.DataFrame({"m": rng.normal(0, 0.1, 500)}, index=users)
    n = users_needed(a, b, "m", delta=0.02)
    spread = b["m"].std(ddof=1)
    rejections = np.mean([stats.ttest_1samp(rng.normal(0.02, spread, n), 0).pvalue < 0.05 for _ in range(2000)])
    assert 0.77 <= rejections <= 0.83


@pytest.mark.parametrize(("kwargs", "message"), [({"metric": "x", "delta": 0.1}, "not a column"),
                                                 ({"metric": "ndcg@10", "delta": 0}, "delta"),
                                                 ({"metric": "ndcg@10", "delta": 0.1, "power": 1.5}, "power")])
def test_users_needed_rejects_bad_arguments(kwargs, message):
    a, b = per_user_pair(0, n=10)
    with pytest.raises(ValueError, match=message):
        users_needed(a, b, **kwargs)


def test_exact_enumeration_matches_a_brute_force_loop():
    d = np.array([[0.3], [-0.1], [0.2], [0.0], [0.4]])
    observed = d.mean()
    null = [np.mean([s * x for s, x in zip(signs, d[:, 0])]) for signs in itertools.product((1, -1), repeat=5)]
    expected = min(1.0, 2 * min(np.mean([v <= observed + 1e-12 for v in null]), np.mean([v >= observed - 1e-12 for v in null])))
    assert sign_flip_p_values(d, 32, np.random.default_rng(0))[0] == pytest.approx(expected)


def test_group_contributions_add_up_to_the_mean_difference_in_a_stated_order():
    from whole_logs import batch
    from whole_logs.significance import activity_groups, difference_by_group, popularity_groups
    from whole_logs.synthetic_pair import synthetic_pair

    a_log, b_log, truth = synthetic_pair(0.02, users=1500, seed=4).sample(1500)
    a, b = batch.evaluate(a_log, truth, 10), batch.evaluate(b_log, truth, 10)
    for groups, order in ((activity_groups(truth), ["1", "2", "3-4", "5-9"]),
                          (popularity_groups(truth), ["niche", "middle", "popular"])):
        table = difference_by_group(a, b, "ndcg@10", groups)
        assert list(table.index) == order
        assert table["users"].sum() == len(a)
        assert table["contribution"].sum() == pytest.approx((b - a)["ndcg@10"].mean())
        for label, row in table.iterrows():
            users = groups.index[groups == label]
            assert row["mean_delta"] == pytest.approx((b - a).loc[users, "ndcg@10"].mean())


def test_verdict_follows_the_numbers():
    from whole_logs.significance import verdict

    row = pd.Series({"delta": -0.03, "ci_low": -0.05, "ci_high": -0.01, "p_adjusted": 0.001, "effect_size": -0.6,
                     "wins": 10, "ties": 5, "losses": 40})
    assert verdict("ndcg@10", row).startswith("A is better on ndcg@10 by 0.0300") and "medium effect" in verdict("ndcg@10", row)
    unclear = row.copy()
    unclear[["ci_low", "p_adjusted"]] = [-0.06, 0.2]
    unclear["ci_high"] = 0.01
    assert verdict("ndcg@10", unclear).startswith("No clear difference on ndcg@10: -0.0300")


def test_synthetic_pair_hits_its_true_difference():
    from whole_logs import batch
    from whole_logs.synthetic_pair import synthetic_pair

    pair = synthetic_pair(0.03, users=2000, seed=5)
    a = batch.evaluate(pair.recommendations_a, pair.ground_truth, 10)["ndcg@10"].mean()
    b = batch.evaluate(pair.recommendations_b, pair.ground_truth, 10)["ndcg@10"].mean()
    assert b - a == pytest.approx(pair.true_delta) and abs(pair.true_delta - 0.03) < 1e-4
    with pytest.raises(ValueError, match="true_delta must be between"):
        synthetic_pair(0.9, users=200)
