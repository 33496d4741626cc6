"""Propensity-weighted top-K metrics: the power-law fit against scipy, the weighted metrics against loops, and
the strata covering every test row."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

from offpolicy import propensity


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_power_law_fit_is_scipy_s_pareto_fit_and_the_likelihood_s_maximum(seed):
    counts = np.floor(stats.pareto.rvs(0.8, scale=3, size=500, random_state=seed))
    alpha = propensity.fit_power_law(counts)
    shape, _, _ = stats.pareto.fit(counts, floc=0, fscale=counts.min())
    assert alpha == pytest.approx(1 + shape, rel=1e-9)
    x, x_min = counts, counts.min()

    def minus_log_likelihood(a):
        return -(len(x) * np.log((a - 1) / x_min) - a * np.log(x / x_min).sum())

    best = optimize.minimize_scalar(minus_log_likelihood, bounds=(1.0001, 10), method="bounded",
                                    options={"xatol": 1e-10})
    assert alpha == pytest.approx(best.x, abs=1e-6)


def _by_loops(test, recs, p, k, mean_w):
    rows = {name: [] for name in ("recall", "ndcg", "ips_recall", "ips_ndcg", "snips_recall", "snips_ndcg")}
    for user, held in test.groupby("user"):
        ranks = dict(zip(recs[recs.user == user].item, recs[recs.user == user]["rank"], strict=True))
        items = list(held.item)
        w = {i: 1 / p[i] for i in items}
        ideal = sum(1 / np.log2(j + 1) for j in range(1, min(len(items), k) + 1))
        hits = [i for i in items if ranks.get(i, k + 1) <= k]
        dcg = {i: 1 / np.log2(ranks[i] + 1) for i in hits}
        user_w = sum(w.values()) / len(items)
        rows["recall"].append(len(hits) / len(items))
        rows["ndcg"].append(sum(dcg.values()) / ideal)
        rows["ips_recall"].append(sum(w[i] for i in hits) / mean_w / len(items))
        rows["ips_ndcg"].append(sum(w[i] * dcg[i] for i in hits) / mean_w / ideal)
        rows["snips_recall"].append(sum(w[i] for i in hits) / sum(w.values()))
        rows["snips_ndcg"].append(sum(w[i] * dcg[i] for i in hits) / user_w / ideal)
    return {name: np.mean(values) for name, values in rows.items()}


@pytest.mark.parametrize("seed", [0, 1])
def test_weighted_metrics_match_loops(seed):
    rng = np.random.default_rng(seed)
    items = [f"i{j}" for j in range(15)]
    p = pd.Series(rng.uniform(0.05, 1, 15), index=items)
    test = pd.DataFrame([(u, i) for u in range(6) for i in rng.choice(items, rng.integers(1, 5), replace=False)],
                        columns=["user", "item"])
    recs = pd.DataFrame([(u, i, r) for u in range(6) for r, i in enumerate(rng.permutation(items)[:5], start=1)],
                        columns=["user", "item", "rank"])
    found = propensity.weighted_metrics(test, recs, p, 3, 2.5)
    assert found.to_dict() == pytest.approx(_by_loops(test, recs, p, 3, 2.5))


def test_with_an_exponent_of_zero_every_weighted_metric_is_the_naive_one():
    from protocols import movielens

    frame = movielens.installed_ml100k()
    frame = frame[frame["user"] <= 200]
    result = propensity.evaluate(frame, ("pop",), gamma=0.0, n_strata=1)
    row = result.metrics.loc["pop"]
    assert row["ips_recall"] == pytest.approx(row["recall"]) and row["snips_ndcg"] == pytest.approx(row["ndcg"])
    assert result.strata["rows"].sum() == result.counts["test"] - result.counts["cold_item_rows"]


def test_popularity_bias_shows_in_the_strata_and_the_weights():
    from protocols import movielens

    frame = movielens.installed_ml100k()
    frame = frame[frame["user"] <= 300]
    result = propensity.evaluate(frame, ("pop", "itemknn"), n_strata=2)
    assert 1.1 < result.gamma < 1.8
    pop = result.strata[result.strata.model == "pop"].set_index("stratum")
    assert pop.loc[2, "recall"] > 3 * pop.loc[1, "recall"]  # popularity wins where items are popular
    assert result.strata.groupby("model")["rows"].sum().eq(result.counts["test"] - result.counts["cold_item_rows"]).all()
    metrics = result.metrics
    assert (metrics["snips_recall"] < metrics["recall"]).all()  # weighting away from popular items lowers recall
    assert metrics["snips_recall"].between(0, 1).all() and (metrics["snips_ndcg"] >= 0).all()


def test_strata_are_equal_width_bins_of_the_propensity():
    p = np.array([0.01, 0.2, 0.26, 0.5, 0.51, 1.0])
    assert propensity.strata_of(p, 2).tolist() == [1, 1, 1, 1, 2, 2]
    assert propensity.strata_of(p, 4).tolist() == [1, 1, 2, 2, 3, 4]  # edges 0.2575, 0.505, 0.7525
