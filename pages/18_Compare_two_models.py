"""Compare two models honestly: paired tests, intervals, effect sizes, and where the difference comes from."""

import streamlit as st

from content import compare as words_of
from content import numbers, text
from content.i18n import _
from content.pages import compare as words
from content.your_data import error_message
from ui.controllers import compare_sources as sources
from ui.controllers.compare_sources import first_users
from ui.figures import compare_charts
from ui.integer_box import integer_box
from ui.widgets import MISSING, chart, choice, formula, number_box, page, pitfalls, show_table
from whole_logs import beyond_accuracy, significance
from whole_logs.comparison import compare_logs

page(_(words.TITLE), "📊", _(words.INTRO))
models = sources.chosen()
sources.warn_of_users_without_recommendations(models)
recs_a, recs_b, truth, categories, source, chosen_synthetic = models
synthetic = chosen_synthetic is not None
if synthetic:
    true_delta, seed, users = chosen_synthetic


def comparison(recs_a, recs_b, truth, k: int, test: str, confidence: float, correction: str) -> dict:
    """What the page shows first about two logs: both per-user tables and the test table. Raises
    ValueError for logs that cannot be compared."""
    found = compare_logs(recs_a, recs_b, truth, k, test=test, confidence=confidence, correction=correction)
    return {"a": found.per_user_a, "b": found.per_user_b, "table": found.table}


@st.cache_data(max_entries=32, show_spinner=False)
def synthetic_comparison(true_delta: float, seed: int, users: int, k: int, test: str, confidence: float,
                         correction: str) -> dict:
    """A synthetic pair's comparison depends only on these settings: computed once for everyone, so
    looking closer at another metric or asking how many users are needed costs no new bootstrap."""
    return comparison(*first_users(true_delta, seed, users).sample(users), k, test, confidence, correction)


@st.cache_data(max_entries=32, show_spinner=False)
def synthetic_beyond(true_delta: float, seed: int, users: int, k: int):
    """The beyond-accuracy table of a synthetic pair, at the page's foot: computed after the tests
    are on screen, and once for everyone."""
    pair = first_users(true_delta, seed, users)
    return beyond_accuracy.side_by_side(*pair.sample(users), k, categories=pair.categories)


settings = st.columns(4)
with settings[0]:
    k = integer_box("K", min_value=1, max_value=1000, value=10, key="compare_k")
test = choice(settings[1].selectbox, _(words.TEST), list(words_of.TESTS), "compare_test",
              format_func=words_of.test_name)
correction = choice(settings[2].selectbox, _(words.CORRECTION), ["holm", "bonferroni", "none"],
                    "compare_correction", format_func=words_of.correction_name)
confidence = settings[3].select_slider(_(words.INTERVAL), [0.8, 0.9, 0.95, 0.99], value=0.95,
                                       format_func=numbers.percent, key="compare_confidence")

try:
    with st.spinner(_(words.COMPARING)):
        result = (synthetic_comparison(true_delta, int(seed), users, k, test, confidence, correction)
                  if synthetic else
                  comparison(recs_a, recs_b, truth, k, test, confidence, correction))
except ValueError as error:
    st.error(words.cannot_compare(text.markdown(error_message(error))))
    st.stop()
# On screen every metric goes by the registry's label (AP@10, RR), not the batch engine's column name.
labels = {column: compare_charts.metric_label(column) for column in result["table"].index}
per_user_a, per_user_b = result["a"].rename(columns=labels), result["b"].rename(columns=labels)
table = result["table"].rename(index=labels)

focus = choice(st.selectbox, _(words.FOCUS), list(table.index), "compare_focus",
               index=list(table.index).index(labels[f"ndcg@{k}"]))
row = table.loc[focus]
differences = significance.paired_differences(per_user_a[[focus]], per_user_b[[focus]])[focus]
n, spread = len(differences), differences.std(ddof=1)
formula(words.DIFFERENCE_FORMULA, words.difference_substituted(row, n, spread, confidence))
st.markdown(f"**{words_of.verdict(focus, row, confidence=confidence)}**")

shown = table.copy()
shown.insert(0, "verdict", significance.winners(table).map(words_of.verdict_word))


def four(v) -> str:
    return numbers.number(v, 4)


show_table(shown.style.format({c: four for c in ("mean_a", "mean_b", "delta", "ci_low", "ci_high")}
                              | {"p_value": words_of.p_value, "p_adjusted": words_of.p_value,
                                 "effect_size": lambda v: numbers.number(v, 2, sign=True)}, na_rep=MISSING),
           hide_index=False, column_config={name: _(label) for name, label in words.COLUMNS.items()
                                            if name in shown.columns}
           | {"p_adjusted": words.p_corrected(words_of.correction_name(correction))})
st.caption(words.table_caption(n, words_of.test_name(test), len(table), words_of.correction_name(correction)))

left, right = st.columns(2)
with left:
    chart(compare_charts.forest_plot(table), key="compare_forest")
with right:
    chart(compare_charts.difference_histogram(differences, focus), key="compare_histogram")

st.subheader(_(words.WHERE_FROM))
left, right = st.columns(2)
with left:
    chart(compare_charts.waterfall(
        significance.difference_by_group(per_user_a, per_user_b, focus, significance.activity_groups(truth)),
        words.by_activity(focus)), key="compare_activity")
with right:
    chart(compare_charts.waterfall(
        significance.difference_by_group(per_user_a, per_user_b, focus, significance.popularity_groups(truth)),
        words.by_popularity(focus)), key="compare_popularity")

st.subheader(_(words.HOW_MANY))
observed = max(round(abs(float(row["delta"])), 4), 0.001)
# Keyed by the difference on screen: other data (another metric, files instead of the synthetic pair) starts
# from its own difference, while a changed test or interval keeps what was typed.
target = number_box(words.target_label(focus), f"compare_target_{focus}_{observed:.4f}", observed,
                    low=0.0001, high=1.0)
needed = significance.users_needed(per_user_a, per_user_b, focus, delta=float(target))
st.markdown(words.users_needed(needed, float(target), focus, spread, n))

st.subheader(_(words.BEYOND))
st.caption(words.beyond_caption(source, categories is not None))
try:
    beyond = (synthetic_beyond(true_delta, int(seed), users, k) if synthetic else
              beyond_accuracy.side_by_side(recs_a, recs_b, truth, k, categories=categories))
except ValueError as error:
    st.error(words.cannot_compare(text.markdown(error_message(error))))
    st.stop()
show_table(beyond.rename(index=lambda key: words.beyond_row(key, k)).style
           .format(lambda v: numbers.number(v, 4, sign=True), subset=["B - A"], na_rep=MISSING)
           .format(four, subset=["A", "B"], na_rep=MISSING), hide_index=False, column_config={"B - A": "B − A"})

pitfalls(*[_(line) for line in words.PITFALLS])
