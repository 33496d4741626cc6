"""Precision, Recall, HR and F1 @K: how many of the first K recommendations are relevant."""

import streamlit as st

from metrics import registry
from metrics.topn_metrics import top_k_table, topn_counts
from ui import charts, formulas, text
from ui.scenario import ranking_scenario
from ui.widgets import show_table, formula, loaded_example_banner, metric_cards, page, pitfalls

KEYS = ("precision_at_k", "recall_at_k", "f1_at_k", "hit_rate_at_k")

page(
    "Precision, Recall, HR and F1 @K", "🎣",
    "Look only at the first **K** recommendations and count the **hits** (relevant items). "
    "**Precision@K** divides the hits by K, **Recall@K** by the number of relevant items (even those "
    "never recommended), **F1@K** balances the two, and **HR@K** asks only whether there is any hit at all. "
    "None of them cares *where* in the top K a hit sits: move a hit within the top K and nothing changes.",
)
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
    st.markdown("**Result**")
    metric_cards(values, group="topn", k=case.k, columns=2)
    st.caption(
        f"{counts['hits']} hit(s) in the top {case.k}; {counts['n_relevant']} relevant item(s) in the ground truth; "
        f"{counts['n_recommended']} item(s) recommended."
    )

st.subheader("The formulas with your numbers")
for key in KEYS:
    formula(registry.BY_KEY[key].latex, substituted[key])
if counts["never_recommended"]:
    missing = ", ".join(text.quoted(item) for item in counts["never_recommended"])
    st.info(f"Relevant but never recommended: {missing}. They still count in the Recall@{case.k} denominator, "
            f"so Recall@{case.k} cannot reach 1 however large K gets.")
if not counts["n_relevant"]:
    st.info("The ground truth has no relevant item (grade > 0): Recall@K is 0 by the NumPy tutorial's convention "
            "(trec_eval also scores such a user 0), and so are Precision, F1 and HR.")

if not case.recommended:
    st.info("The recommended list is empty, so there is no top-K window or curve to draw. Add an item to the list.")
else:
    st.subheader("The top-K window")
    table = top_k_table(case.recommended, case.ground_truth, case.k)
    st.plotly_chart(charts.top_k_window(text.plotly_column(table, "item"), case.k), key="topn_window")
    show_table(table)

    st.subheader("Each metric as K grows")
    max_k = max(len(case.recommended), case.k)
    curves = registry.evaluate_over_k(case, range(1, max_k + 1), KEYS)
    st.plotly_chart(charts.metrics_vs_k(curves, case.k), key="topn_curves")
    st.caption("Precision falls as K grows past the last hit; Recall and HR can only rise.")

pitfalls(
    "**Lists shorter than K.** Precision@K here divides by K even when the list has fewer items "
    "(empty slots are misses), as trec_eval, ranx and the NumPy tutorial do. Evidently and torchmetrics "
    "(`adaptive_k=True`) divide by min(K, list length) instead, so a 3-item list with 3 hits scores "
    "1.0 there and 0.3 here at K = 10.",
    "**Recall counts what was never recommended.** A relevant item absent from the list (the NumPy tutorial's 999) "
    "stays in the denominator. A library that only sees the recommended rows (Evidently, scikit-learn "
    "on the list) reports Recall@10 = 1.0 instead of 0.75 for the NumPy tutorial's example.",
    "**F1 over many users.** F1 of the mean P and mean R (Evidently) is not the mean of each user's F1 "
    "(ranx, RecTools, cornac); the two differ whenever users differ.",
    "**Hit rate.** HR@K of one user is 0 or 1; averaged over users it is the share of users with at least one "
    "hit. The offline-evaluation article's text calls 3 hits among 10 recommendations a hit rate of 0.3, which is Precision@10; "
    "its own code scores a user 1 if any item hits.",
    "**Order inside the top K is ignored** by all four metrics: use AP, RR or NDCG when the position of a hit matters.",
)
