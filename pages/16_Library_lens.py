"""Why libraries disagree: the same list scored the way ten libraries score it, and the setting behind each difference."""

import pandas as pd
import streamlit as st

from metrics import conventions as conv
from ui import library_lens as lens
from ui import text
from ui.library_snippets import WHY_NOT_RUN, snippet
from ui.scenario import ranking_scenario
from ui.state import ground_truth_table, recommended_table, reset_editor
from ui.widgets import bound, page, pitfalls, show_table, usable

page(
    "Why libraries disagree", "🔭",
    "trec_eval, scikit-learn, ranx, torchmetrics and six other libraries all have Precision, AP and NDCG, "
    "yet give **different numbers for the same list**. Each difference comes from one setting: the AP "
    "denominator, which items form the ideal DCG, the gain, what the library is given, a cut-off. Below, your "
    "scenario is scored the way each library scores it; every cell that differs from this app names its cause.",
)
formula_area = st.container()
BREAKDOWN_FORMATS = {
    "discount": st.column_config.NumberColumn(format="%.4f"),
    "contribution": st.column_config.NumberColumn(format="%.4f"),
    "precision_at_i": st.column_config.NumberColumn("precision@i", format="%.4f"),
    "one_over_rank": st.column_config.NumberColumn("1/rank", format="%.4f"),
}


def _load(key: str) -> None:
    preset = lens.BY_KEY[key]
    st.session_state["recommended"] = recommended_table(preset.recommended)
    st.session_state["ground_truth"] = ground_truth_table(preset.ground_truth)
    for name in ("recommended", "ground_truth"):
        reset_editor(name)
    st.session_state["k"] = preset.k
    st.session_state["lens_preset"] = key


st.markdown("**Classic disagreements** (each loads a scenario)")
buttons = st.columns(3)
for index, preset in enumerate(lens.PRESETS):
    column = buttons[index % 3]
    column.button(preset.label, key=f"lens_load_{preset.key}", on_click=_load, args=(preset.key,),
                  width="stretch", help=preset.story)

case, problems, results = ranking_scenario(show_gain=False)
loaded = lens.BY_KEY.get(st.session_state.get("lens_preset"))
if loaded and case.recommended == [str(i) for i in loaded.recommended] and case.ground_truth == {
        str(i): float(g) for i, g in loaded.ground_truth.items()} and case.k == loaded.k:
    st.info(f"**{loaded.label}.** {loaded.story}", icon="🔎")

values, ours, diffs = conv.compare(case.recommended, case.ground_truth, case.k)
mask = lens.differing_cells(values, diffs)

# The chosen library and metric live in the session, so the formula at the top is drawn first.
with_differences = list(dict.fromkeys(diffs["library"]))
st.session_state.setdefault("lens_library", with_differences[0] if with_differences else "torchmetrics")
# As bound() below will show it: a stored name that is no library is replaced there, and said.
library, _ = usable(st.session_state["lens_library"], "Library", {"options": list(conv.CONVENTIONS)},
                    st.session_state.get("_lens_library_good"))
convention = conv.CONVENTIONS[library]
metrics_of = [m for m in conv.METRICS if convention.has(m)]
differing = diffs.loc[diffs["library"] == library, "metric"].tolist()
if st.session_state.get("lens_metric_for") != library or st.session_state.get("lens_metric") not in metrics_of:
    st.session_state["lens_metric"] = differing[0] if differing else metrics_of[0]
    st.session_state["lens_metric_for"] = library
metric = st.session_state["lens_metric"]
theirs = conv.breakdown(convention, metric, case.recommended, case.ground_truth, case.k)
app_breakdown = conv.breakdown(conv.APP, metric, case.recommended, case.ground_truth, case.k)
with formula_area:
    # One line each, so the pair fits a phone as well as a projector.
    st.latex(r"\begin{aligned}&" + lens.breakdown_latex(library, metric, case.k, theirs) + r"\\ \text{vs}\ &"
             + lens.breakdown_latex("this app", metric, case.k, app_breakdown) + r"\end{aligned}")
    st.caption(f"{conv.possessive(library)} {conv.METRIC_LABELS[metric]} next to this app's, for the scenario below "
               "(choose the library and metric under *One library up close*).")

with results:
    st.markdown(f"**{lens.disagreement_summary(mask)}** The table below has every library's value; the chart "
                "under it shows how far each is from this app's.")
# The table takes the page's width: in the results column a 1280 px screen showed only three of its five
# metric columns, and the highlighted disagreements needed a sideways scroll.
st.subheader(f"What each library reports (K = {case.k})")
show_table(lens.styled(lens.display_table(ours, values), mask, case.k), hide_index=False,
           height=(len(values) + 2) * 35 + 3)
st.caption("Highlighted: differs from this app by more than 1e-9. *no such metric*: the library has none; "
           "*no value*: it refuses this input or leaves this user out of its mean (see the differences). "
           "This app's defaults: AP divides by min(|Rel|, K), linear gain, the ideal from every relevant item.")
st.plotly_chart(lens.values_chart(ours, values, mask, case.k), key="lens_chart")

if not any(grade > 0 for grade in case.ground_truth.values()):
    st.markdown("**What this user does to a mean.** Averaged with the NumPy tutorial's user (101..110, relevant "
                "{101, 104, 107}), each library's way:")
    seed_user = ([str(i) for i in range(101, 111)], {"101": 1, "104": 1, "107": 1})
    means = conv.mean_over_users([seed_user, (case.recommended, case.ground_truth)], case.k)
    alone = conv.library_values(*seed_user, case.k)
    show_table(pd.DataFrame({"MAP@K, the NumPy tutorial's user alone": alone["average_precision"],
                             "MAP@K with this user": means["average_precision"],
                             "users with no relevant item": [c.describe("empty_users") for c in conv.CONVENTIONS.values()]}),
               hide_index=False, column_config={c: st.column_config.NumberColumn(format="%.4f") for c in (
                   "MAP@K, the NumPy tutorial's user alone", "MAP@K with this user")})

st.subheader("Why they differ")
if diffs.empty:
    st.success("Every library agrees with this app on this scenario. Try a classic disagreement above.", icon="✅")
else:
    lines = []
    for row in diffs.itertuples():
        shown = "no value" if pd.isna(row.library_value) else f"{row.library_value:.4f}"
        label = conv.METRIC_LABELS[row.metric].replace("K", str(case.k))
        lines.append(f"- **{row.library}**, {label}: {shown} instead of {row.app_value:.4f}. "
                     f"{text.markdown(row.explanation)} *(cause: {row.cause})*")
    st.markdown("\n".join(lines))

st.subheader("One library up close")
library = bound(st.selectbox, "Library", "lens_library", options=list(conv.CONVENTIONS),
                format_func=lambda n: f"{n} ({(diffs['library'] == n).sum()} differing)" if n in with_differences else n)
metric = bound(st.radio, "Metric to break down", "lens_metric", options=metrics_of, horizontal=True,
               format_func=lambda m: conv.METRIC_LABELS[m] + (" ≠" if m in differing else ""))

st.markdown(f"**{conv.possessive(library)} conventions next to this app's** · {convention.version}")
rows = [{"setting": conv.FIELD_LABELS[f], library: convention.describe(f), "this app": conv.APP.describe(f),
         "differs": "≠" if convention.describe(f) != conv.APP.describe(f) else ""}
        for f in conv.FIELD_LABELS]
rows.append({"setting": "what its users call", library: "; ".join(
    f"{conv.METRIC_LABELS[m]}: {convention.functions[m]}" for m in metrics_of), "this app": "", "differs": ""})
st.table(pd.DataFrame(rows).set_index("setting"))
if convention.notes:
    st.caption(convention.notes)

st.markdown(f"**{conv.METRIC_LABELS[metric]} step by step: {library} vs this app**")
reasons = diffs.loc[(diffs["library"] == library) & (diffs["metric"] == metric), "explanation"].tolist()
if reasons:
    st.warning(text.markdown(reasons[0]), icon="🔎")
columns = st.columns(2)
for column, (who, b) in zip(columns, ((library, theirs), ("this app", app_breakdown)), strict=True):
    with column:
        st.latex(lens.breakdown_latex(who, metric, case.k, b))
        if b.reason:
            st.info(b.reason)
        elif b.numerator_label:
            st.caption(f"{b.numerator_label} ÷ {b.denominator_label}")
        for title, table in b.tables.items():
            st.caption(title)
            show_table(table, column_order=lens.breakdown_columns(table), column_config=BREAKDOWN_FORMATS)

st.markdown(f"**Check it yourself** with {conv.possessive(library)} own code (this scenario filled in)")
code = snippet(library, case.recommended, case.ground_truth, case.k)
st.code(code.code, language=code.language)
why = WHY_NOT_RUN.get(library)
st.caption("Tested: the test suite runs this code and checks it prints the table's values." if code.tested else
           f"Not run by the tests ({why}): written from the library's documentation and source. The table's "
           f"values for {library} match the values measured in library-conventions.md.")

pitfalls(
    "**Ties** never arise here: a ranked list has no tied scores. When libraries rank by scores, ties are "
    "averaged (scikit-learn, torchmetrics), broken by document id (trec_eval) or kept in input order (ranx); "
    "the NDCG page shows the effect.",
    "**Means over users.** A library that leaves a user with nothing relevant out of its mean (Evidently, "
    "cornac, Recommenders, RecBole, RecTools) reports a higher MAP than one that counts them as 0 (trec_eval "
    "for judged users, ranx, torchmetrics, Spark): adding one such user to the NumPy tutorial's user halves MAP, .6429 → .3214.",
    "**PySpark drops grades.** `RankingMetrics` in Python passes only the list and the labels to the JVM, so "
    "its NDCG is binary (0.6886 on the NumPy tutorial's graded example). The Scala API with relevance sums the ideal DCG in label "
    "order, which can exceed 1.",
)
