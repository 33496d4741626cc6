"""What the Compare page shows about two models: K, the test, the correction and the interval; the comparison of
every metric; the closer look at one metric (its formula with the numbers, the verdict, the table, the charts);
where its difference comes from; how many users would detect it; and the beyond-accuracy table. Every number comes
from ``whole_logs``; every sentence from content/compare.py and content/pages/compare.py."""

from __future__ import annotations

from typing import NamedTuple

import streamlit as st

from content import compare as words_of
from content import numbers, text
from content.i18n import _
from content.pages import compare as words
from content.your_data import error_message
from ui.controllers.compare_sources import Models, first_users
from ui.figures import compare_charts
from ui.integer_box import integer_box
from ui.widgets import MISSING, chart, choice, formula, number_box, show_table
from whole_logs import beyond_accuracy, significance
from whole_logs.comparison import LogComparison, compare_logs


class Settings(NamedTuple):
    k: int
    test: str
    correction: str
    confidence: float


def settings() -> Settings:
    cells = st.columns(4)
    with cells[0]:
        k = integer_box("K", min_value=1, max_value=1000, value=10, key="compare_k")
    test = choice(cells[1].selectbox, _(words.TEST), list(words_of.TESTS), "compare_test",
                  format_func=words_of.test_name)
    correction = choice(cells[2].selectbox, _(words.CORRECTION), ["holm", "bonferroni", "none"],
                        "compare_correction", format_func=words_of.correction_name)
    confidence = cells[3].select_slider(_(words.INTERVAL), [0.8, 0.9, 0.95, 0.99], value=0.95,
                                        format_func=numbers.percent, key="compare_confidence")
    return Settings(k, test, correction, confidence)


@st.cache_data(max_entries=32, show_spinner=False)
def _synthetic_comparison(true_delta: float, seed: int, users: int, k: int, test: str, confidence: float,
                          correction: str) -> LogComparison:
    """A synthetic pair's comparison depends only on these settings: computed once for everyone, so
    looking closer at another metric or asking how many users are needed costs no new bootstrap."""
    return compare_logs(*first_users(true_delta, seed, users).sample(users), k, test=test, confidence=confidence,
                        correction=correction)


@st.cache_data(max_entries=32, show_spinner=False)
def _synthetic_beyond(true_delta: float, seed: int, users: int, k: int):
    """The beyond-accuracy table of a synthetic pair, at the page's foot: computed after the tests
    are on screen, and once for everyone."""
    pair = first_users(true_delta, seed, users)
    return beyond_accuracy.side_by_side(*pair.sample(users), k, categories=pair.categories)


def _cannot_compare(error: ValueError) -> None:
    """Say why, and stop the page: nothing below can be drawn."""
    st.error(words.cannot_compare(text.markdown(error_message(error))))
    st.stop()


def compared(models: Models, chosen: Settings) -> LogComparison:
    """Both models' per-user metrics and the test of every metric, each metric under the registry's label (AP@10,
    RR), not the batch engine's column name; stops the page when the logs cannot be compared."""
    try:
        with st.spinner(_(words.COMPARING)):
            found = (_synthetic_comparison(*models.synthetic, chosen.k, chosen.test, chosen.confidence,
                                           chosen.correction) if models.synthetic else
                     compare_logs(models.recommendations_a, models.recommendations_b, models.ground_truth, chosen.k,
                                  test=chosen.test, confidence=chosen.confidence, correction=chosen.correction))
    except ValueError as error:
        _cannot_compare(error)
    labels = {column: compare_charts.metric_label(column) for column in found.table.index}
    return LogComparison(found.per_user_a.rename(columns=labels), found.per_user_b.rename(columns=labels),
                         found.table.rename(index=labels))


def focus(found: LogComparison, k: int) -> str:
    """The metric to look at closely, NDCG@K at first."""
    names = list(found.table.index)
    return choice(st.selectbox, _(words.FOCUS), names, "compare_focus",
                  index=names.index(compare_charts.metric_label(f"ndcg@{k}")))


def difference_and_verdict(found: LogComparison, metric: str, confidence: float) -> significance.MetricDifference:
    """The mean difference and Cohen's d with their numbers, and the verdict on ``metric``."""
    row = found.table.loc[metric]
    difference = significance.metric_difference(found.per_user_a, found.per_user_b, metric)
    formula(words.DIFFERENCE_FORMULA, words.difference_substituted(row, difference.users, difference.sd, confidence))
    st.markdown(f"**{words_of.verdict(metric, row, confidence=confidence)}**")
    return difference


def _four(value) -> str:
    return numbers.number(value, 4)


def table(found: LogComparison, chosen: Settings, users: int) -> None:
    """Every metric's means, difference, interval, p-values, effect size and wins, with a verdict each."""
    shown = found.table.copy()
    shown.insert(0, "verdict", significance.winners(found.table).map(words_of.verdict_word))
    correction = words_of.correction_name(chosen.correction)
    show_table(shown.style.format({c: _four for c in ("mean_a", "mean_b", "delta", "ci_low", "ci_high")}
                                  | {"p_value": words_of.p_value, "p_adjusted": words_of.p_value,
                                     "effect_size": lambda v: numbers.number(v, 2, sign=True)}, na_rep=MISSING),
               hide_index=False, column_config={name: _(label) for name, label in words.COLUMNS.items()
                                                if name in shown.columns}
               | {"p_adjusted": words.p_corrected(correction)})
    st.caption(words.table_caption(users, words_of.test_name(chosen.test), len(found.table), correction))


def charts(found: LogComparison, difference: significance.MetricDifference, metric: str) -> None:
    """Every metric's difference with its interval, beside the histogram of the per-user differences on ``metric``."""
    left, right = st.columns(2)
    with left:
        chart(compare_charts.forest_plot(found.table), key="compare_forest")
    with right:
        chart(compare_charts.difference_histogram(difference.per_user, metric), key="compare_histogram")


def where_from(found: LogComparison, models: Models, metric: str) -> None:
    """The difference on ``metric`` split by the users' activity and by the popularity of their relevant items."""
    left, right = st.columns(2)
    for column, groups, title, key in (
            (left, significance.activity_groups, words.by_activity, "compare_activity"),
            (right, significance.popularity_groups, words.by_popularity, "compare_popularity")):
        with column:
            split = significance.difference_by_group(found.per_user_a, found.per_user_b, metric,
                                                     groups(models.ground_truth))
            chart(compare_charts.waterfall(split, title(metric)), key=key)


def users_needed(found: LogComparison, difference: significance.MetricDifference, metric: str) -> None:
    """The smallest difference worth detecting (the observed one at first) and the users a paired t-test needs."""
    observed = significance.observed_target(found.table.loc[metric, "delta"])
    # Keyed by the difference on screen: other data (another metric, files instead of the synthetic pair) starts
    # from its own difference, while a changed test or interval keeps what was typed.
    target = number_box(words.target_label(metric), f"compare_target_{metric}_{observed:.4f}", observed,
                        low=0.0001, high=1.0)
    needed = significance.users_needed(found.per_user_a, found.per_user_b, metric, delta=float(target))
    st.markdown(words.users_needed(needed, float(target), metric, difference.sd, difference.users))


def beyond_accuracy_table(models: Models, k: int) -> None:
    """Coverage, exposure, popularity, novelty, personalisation and (with categories) diversity of both models."""
    st.caption(words.beyond_caption(models.source, models.categories is not None))
    try:
        beyond = (_synthetic_beyond(*models.synthetic, k) if models.synthetic else
                  beyond_accuracy.side_by_side(models.recommendations_a, models.recommendations_b,
                                               models.ground_truth, k, categories=models.categories))
    except ValueError as error:
        _cannot_compare(error)
    show_table(beyond.rename(index=lambda key: words.beyond_row(key, k)).style
               .format(lambda v: numbers.number(v, 4, sign=True), subset=["B - A"], na_rep=MISSING)
               .format(_four, subset=["A", "B"], na_rep=MISSING), hide_index=False, column_config={"B - A": "B − A"})
