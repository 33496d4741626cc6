"""Precision, Recall, HR and F1 @K: how many of the first K recommendations are relevant."""

import streamlit as st

from content.i18n import _
from content.pages import topn as words
from metrics import registry
from metrics.topn_metrics import top_k_table, topn_counts
from ui.figures import charts
from content import text
from ui.markup import formulas
from ui.question_editor import question_editor
from ui.scenario import ranking_scenario
from ui.widgets import chart, show_table, formula, loaded_example_banner, metric_cards, page, pitfalls

KEYS = ("precision_at_k", "recall_at_k", "f1_at_k", "hit_rate_at_k")

page(_(words.TITLE), "🎣", _(words.IDEA))
loaded_example_banner("topn")

case, problems, results = ranking_scenario(show_gain=False)
counts = topn_counts(case.recommended, case.ground_truth, case.k)
values = {key: registry.BY_KEY[key].compute(case) for key in KEYS}
p, r = values["precision_at_k"], values["recall_at_k"]

k, hits = case.k, counts["hits"]
substituted = {
    "precision_at_k": formulas.precision_at_k_latex(hits, k, p),
    "recall_at_k": formulas.recall_at_k_latex(hits, counts["n_relevant"], k, r),
    "f1_at_k": formulas.f1_at_k_latex(p, r, k, values["f1_at_k"]),
    "hit_rate_at_k": formulas.hit_rate_at_k_latex(hits, k, values["hit_rate_at_k"]),
}
with results:
    st.markdown(_(words.RESULT))
    metric_cards(values, group="topn", k=case.k, columns=2)
    st.caption(words.counts(counts["hits"], case.k, counts["n_relevant"], counts["n_recommended"]))
    question_editor(case, "topn", "recall_at_k")

st.subheader(_(words.FORMULAS_WITH_NUMBERS))
for key in KEYS:
    formula(registry.BY_KEY[key].latex, substituted[key])
if counts["never_recommended"]:
    st.info(words.never_recommended([text.quoted(item) for item in counts["never_recommended"]], case.k))
if not counts["n_relevant"]:
    st.info(_(words.NO_RELEVANT))

if not case.recommended:
    st.info(_(words.EMPTY_LIST))
else:
    st.subheader(_(words.WINDOW))
    table = top_k_table(case.recommended, case.ground_truth, case.k)
    chart(charts.top_k_window(text.plotly_column(table, "item"), case.k), key="topn_window")
    show_table(table)

    st.subheader(_(words.AS_K_GROWS))
    max_k = max(len(case.recommended), case.k)
    curves = registry.evaluate_over_k(case, range(1, max_k + 1), KEYS)
    chart(charts.metrics_vs_k(curves, case.k), key="topn_curves")
    st.caption(_(words.AS_K_GROWS_CAPTION))

pitfalls(*(_(line) for line in words.PITFALLS))
