"""Each preset of the Logged feedback page states a finding on ML-100K: every sentence is checked here against the
numbers it is written from, and each claim it makes (no bias, larger RMSE, a change of winner) is asserted on
those numbers, recomputed from the engine where it can be."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from content import i18n
from content.pages import logged_feedback as words
from offpolicy import estimators, presets, simulate
from protocols import movielens


def shown(value: float, digits: int = 4, sign: bool = False) -> str:
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


@pytest.fixture(scope="module")
def ml100k() -> pd.DataFrame:
    return movielens.installed_ml100k()


@pytest.fixture(scope="module")
def world(ml100k) -> simulate.World:
    return simulate.from_interactions(ml100k)


@pytest.fixture(scope="module")
def rare(world):
    return presets.rare_target(world)


@pytest.fixture(scope="module")
def clipping(world):
    return presets.clipping(world)


@pytest.fixture(scope="module")
def doubly_robust(world):
    return presets.doubly_robust(world)


@pytest.fixture(scope="module")
def popularity(ml100k):
    return presets.popularity_recall(ml100k)


def test_ips_is_unbiased_but_wild_when_the_logger_rarely_shows_the_target_s_pick(world, rare):
    cold, usual = rare["rare"], rare["usual"]
    ips, usual_ips = cold["table"].loc["ips"], usual["table"].loc["ips"]
    # recomputed from the engine: the same seeded logs give the same IPS estimates
    again = simulate.repeated_estimates(world.with_logger_temperature(cold["temperature"]), rare["rounds"], rare["logs"],
                                        seed=presets.SEED, names=("ips",))
    assert again["ips"].mean() - cold["truth"] == pytest.approx(ips["bias"])
    assert ips["standard_error"] == pytest.approx(again["ips"].std(ddof=0) / np.sqrt(rare["logs"]))
    text = words.rare_finding(rare)
    # "a log of 10,000 rounds is worth {ess} ... ({usual_ess} at temperature 1)": the cold logger's ESS is far smaller
    assert f"is worth {round(cold['mean_ess']):,} equally weighted ones ({round(usual['mean_ess']):,} at temperature 1)" in text
    assert cold["mean_ess"] < usual["mean_ess"] / 2
    # "no bias shows": within two standard errors of the mean
    ratio = abs(ips["bias"]) / ips["standard_error"]
    assert ratio < 2
    assert f"by {shown(ips['bias'], sign=True)}, {ratio:.1f} times its standard error ({shown(ips['standard_error'])})" in text
    # "typically {rmse} off, {times} times its error at temperature 1": far larger, and larger than SNIPS's
    assert ips["rmse"] > 3 * usual_ips["rmse"]
    assert f"typically {shown(ips['rmse'])} off (its RMSE), {ips['rmse'] / usual_ips['rmse']:.1f} times" in text
    assert f"({shown(usual_ips['rmse'])}); SNIPS's RMSE is {shown(cold['table'].loc['snips', 'rmse'])}." in text
    assert cold["table"].loc["snips", "rmse"] < ips["rmse"]


def test_clipping_trades_bias_for_variance(world, clipping):
    table = clipping["table"]
    unclipped, smallest, best = table.loc[np.inf], table.iloc[0], table.loc[clipping["best"]]
    here = world.with_logger_temperature(clipping["temperature"])
    logs = simulate.draw_logs(here, clipping["rounds"], clipping["logs"], seed=presets.SEED)
    weight = here.target[logs.context, logs.action] / logs.propensity
    # unclipped is IPS itself, and the largest weight stated is the logs' own
    assert unclipped["bias"] == pytest.approx(estimators.ips(logs.reward, weight).value.mean() - here.truth)
    assert clipping["max_weight"] == pytest.approx(weight.max())
    text = words.clipping_finding(clipping)
    assert f"The largest weight in these logs is {clipping['max_weight']:,.0f}." in text
    # "clipping at τ = 1 cuts the standard deviation ... but the bias grows"
    assert smallest["sd"] < unclipped["sd"] and abs(smallest["bias"]) > abs(unclipped["bias"])
    assert (f"Clipping at τ = 1 cuts the standard deviation to {shown(smallest['sd'])}, but the bias grows to "
            f"{shown(smallest['bias'], sign=True)}.") in text
    # "the smallest RMSE is at τ = best": a finite τ between the ends, better than not clipping
    assert clipping["best"] == table["rmse"].idxmin() and np.isfinite(clipping["best"])
    assert clipping["best"] != table.index[0] and best["rmse"] < unclipped["rmse"]
    assert (f"The smallest RMSE, {shown(best['rmse'])}, is at τ = {int(clipping['best']):,} "
            f"(bias {shown(best['bias'], sign=True)}") in text
    assert f"unclipped it is {shown(unclipped['rmse'])}." in text


def test_doubly_robust_rescues_one_poor_half_not_both(doubly_robust):
    table = doubly_robust["table"]

    def row(model, propensity, estimator):
        return table.loc[(model, propensity, estimator)]

    text = words.dr_finding(doubly_robust)
    for model, propensity in (("right", "right"), ("poor", "right"), ("right", "poor")):
        dr = row(model, propensity, "dr")
        assert abs(dr["bias"]) < 2.5 * dr["standard_error"], (model, propensity)  # "no bias"
        assert shown(dr["bias"], sign=True) in text
    both = row("poor", "poor", "dr")
    assert abs(both["bias"]) > 10 * both["standard_error"]
    assert f"With both poor, DR is off by {shown(both['bias'], sign=True)}" in text
    # the halves DR rescues are really poor: DM with popularity's model, IPS with 1/50
    dm, ips = row("poor", "right", "dm"), row("right", "poor", "ips")
    assert abs(dm["bias"]) > 10 * dm["standard_error"] and abs(ips["bias"]) > 10 * ips["standard_error"]
    assert f"which leaves DM off by {shown(dm['bias'], sign=True)}" in text
    assert f"which leaves IPS off by {shown(ips['bias'], sign=True)}" in text
    # the right reward model is the hidden one: DM has (almost) no bias with it, whatever the propensity
    assert abs(row("right", "poor", "dm")["bias"]) < 0.001


def test_popularity_weighted_recall_changes_the_winner(ml100k, popularity):
    metrics = popularity["metrics"]
    naive, weighted = popularity["naive_winner"], popularity["snips_winner"]
    assert naive == metrics["recall"].idxmax() and weighted == metrics["snips_recall"].idxmax()
    assert naive != weighted, "popularity weighting did not change the winner on ML-100K"
    assert popularity["ips_winner"] == weighted  # IPS agrees with SNIPS
    assert metrics.loc[weighted, "snips_recall"] > metrics.loc[naive, "snips_recall"]
    assert metrics.loc[weighted, "ips_recall"] > metrics.loc[naive, "ips_recall"]
    text = words.popularity_finding(popularity)
    second = metrics["recall"].drop(naive).idxmax()
    assert (f"Naive Recall@10 puts {words.model_name(naive)} first ({shown(metrics.loc[naive, 'recall'])} against "
            f"{words.model_name(second)}'s {shown(metrics.loc[second, 'recall'])}).") in text
    assert (f"{words.model_name(weighted)} leads: SNIPS Recall@10 {shown(metrics.loc[weighted, 'snips_recall'])} against "
            f"{shown(metrics.loc[naive, 'snips_recall'])}, IPS Recall@10 {shown(metrics.loc[weighted, 'ips_recall'])} "
            f"against {shown(metrics.loc[naive, 'ips_recall'])}.") in text
    assert f"(γ = {popularity['gamma']:.2f})" in text
    # the places drawn on the slope chart are the two columns' orders
    assert popularity["places"]["recall"][naive] == 1 and popularity["places"]["snips_recall"][weighted] == 1


def test_the_same_preset_gives_the_same_numbers(world, doubly_robust):
    assert presets.doubly_robust(world)["table"].equals(doubly_robust["table"])


@pytest.mark.parametrize("code", ["tr", "zh"])
def test_every_finding_reads_in_each_language_with_its_numbers(code, rare, clipping, doubly_robust, popularity):
    with i18n.speaking(code):
        texts = [words.rare_finding(rare), words.clipping_finding(clipping), words.dr_finding(doubly_robust),
                 words.popularity_finding(popularity), *(words.settings(key, found) for key, found in (
                     ("rare_target", rare), ("clipping", clipping), ("doubly_robust", doubly_robust),
                     ("popularity_recall", popularity)))]
    for text in texts:
        assert "{" not in text and "Recall" not in text.replace("Recall@10", "") and text.strip()
    decimal = "," if code == "tr" else "."
    both_poor = f"{abs(doubly_robust['table'].loc[('poor', 'poor', 'dr'), 'bias']):.4f}".replace(".", decimal)
    assert both_poor in texts[2]  # in the reader's notation
