"""Compare two models honestly: paired tests, intervals, effect sizes, and where the difference comes from."""

import streamlit as st

from content import compare as words_of
from content import numbers
from content.i18n import _
from content.pages import compare as words
from content.pages import protocols as lab_words
from content.your_data import error_message
from whole_logs import batch, beyond_accuracy, readers, significance
from whole_logs.synthetic_pair import experiment
from ui.figures import compare_charts
from ui.handoff import COMPARE_PAIR
from content import text
from ui.integer_box import integer_box
from ui.uploads import file_input
from ui.widgets import MISSING, chart, choice, formula, number_box, page, pitfalls, show_table

page(_(words.TITLE), "📊", _(words.INTRO))

TRUE_DELTAS = [-0.02, -0.01, 0.0, 0.005, 0.01, 0.02, 0.03, 0.05]
SAMPLE_SIZES = [50, 100, 200, 500, 1000, 2000, 5000, 20_000]


# cache_resource: a hit hands back the same frames (never modified: sample() copies) instead of unpickling
# up to 850,000 rows on every rerun.
@st.cache_resource(max_entries=16, show_spinner=False)
def first_users(true_delta: float, seed: int, users: int):
    """The experiment's users of the 20,000-user population: the same for every visitor who picks
    these settings, so it is cached for everyone."""
    return experiment(true_delta, users, seed=seed)


MAX_ROWS = 2_000_000


def comparison(recs_a, recs_b, truth, k: int, test: str, confidence: float, correction: str) -> dict:
    """What the page shows first about two logs: both per-user tables and the test table. Raises
    ValueError for logs that cannot be compared."""
    per_user_a, per_user_b = batch.evaluate(recs_a, truth, k), batch.evaluate(recs_b, truth, k)
    return {"a": per_user_a, "b": per_user_b,
            "table": significance.compare(per_user_a, per_user_b, test=test, confidence=confidence,
                                          correction=correction)}


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


def signed(value, digits: int = 4) -> str:
    """A signed number for KaTeX in the reader's notation."""
    return numbers.number(value, digits, sign=True).replace(",", "{,}")


def read_upload(upload, kind: str):
    return readers.read_table(upload.getvalue(), kind, filename=upload.name, max_rows=MAX_ROWS)


handed = st.session_state.get(COMPARE_PAIR)  # a pair the protocol lab handed over, if any
sources = [key for key in words.SOURCES if key != words.LAB or handed is not None]
source = choice(st.radio, _(words.DATA), sources, "compare_source", horizontal=True,
                format_func=lambda key: _(words.SOURCES[key]))
synthetic = source == words.SYNTHETIC
if source == words.LAB:
    recs_a, recs_b, truth, origin = handed
    categories = None
    _lab, model_a, model_b, split, tuned = origin
    st.info(words.lab_caption(lab_words.model_name(model_a), lab_words.model_name(model_b),
                              lab_words.handed_setting(split, tuned), truth["user"].nunique()), icon="🧫")
elif synthetic:
    left, middle, right = st.columns(3)
    true_delta = left.select_slider(_(words.TRUE_DIFFERENCE), TRUE_DELTAS, value=0.01, key="compare_true_delta",
                                    format_func=lambda v: numbers.general(v))
    users = middle.select_slider(_(words.USERS_IN_EXPERIMENT), SAMPLE_SIZES, value=1000, key="compare_users",
                                 format_func=numbers.integer)
    with right:
        seed = integer_box(_(words.SEED), min_value=0, max_value=2**31 - 1, value=0, key="compare_seed")
    with st.spinner(_(words.SIMULATING)):
        pair = first_users(true_delta, int(seed), users)
    recs_a, recs_b, truth = pair.sample(users)
    categories = pair.categories
    st.caption(words.synthetic_caption(pair.true_delta, users))
else:
    st.caption(words.files_caption(MAX_ROWS))
    cells = st.columns(4)
    uploads = {}
    for cell, (name, label) in zip(cells, (("a", words.MODEL_A), ("b", words.MODEL_B), ("truth", words.GROUND_TRUTH))):
        with cell:
            uploads[name] = file_input(_(label), f"compare_upload_{name}")
    with cells[3]:
        category_file = file_input(_(words.CATEGORIES), "compare_upload_categories")
    if all(uploads.values()):
        try:
            st.session_state["compare_files"] = (
                read_upload(uploads["a"], "recommendations"), read_upload(uploads["b"], "recommendations"),
                read_upload(uploads["truth"], "ground_truth"),
                None if category_file is None else beyond_accuracy.item_categories(
                    read_upload(category_file, "item_categories")))
            st.session_state["compare_files_error"] = None
        except ValueError as error:
            st.session_state["compare_files_error"] = error  # said in the language of each rerun
    if st.session_state.get("compare_files_error"):
        st.error(words.file_error(text.markdown(error_message(st.session_state["compare_files_error"])),
                                  "compare_files" in st.session_state))
    if "compare_files" not in st.session_state:
        st.info(_(words.UPLOAD_THREE))
        st.stop()
    recs_a, recs_b, truth, categories = st.session_state["compare_files"]

for model, missing in significance.users_without_recommendations(recs_a, recs_b, truth).items():
    if missing:
        st.warning(words.missing_users(model, missing, truth["user"].nunique()))

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
formula(
    r"\bar d = \frac{1}{n}\sum_{u=1}^{n} (b_u - a_u), \quad d_{\text{Cohen}} = \frac{\bar d}{s_d}",
    r"\begin{aligned}"
    rf"\bar d &= {signed(row['delta'])}\quad (n = {numbers.latex_integer(n)}) \\"
    rf"{text.latex(words.interval_label(confidence))} &= [{signed(row['ci_low'])},\ {signed(row['ci_high'])}] \\"
    rf"d_{{\text{{Cohen}}}} &= {signed(row['delta'])} / {numbers.latex(spread, 4)} = {signed(row['effect_size'], 2)}"
    r"\end{aligned}",
)
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
diversity = (words.DIVERSITY_SYNTHETIC if synthetic else words.LAB_DIVERSITY if source == words.LAB else
             words.DIVERSITY if categories is not None else words.NO_DIVERSITY)
st.caption(words.beyond_caption(_(words.POPULARITY_NOTE), _(diversity)))
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
