"""AP and MAP: precision at every hit, averaged; then averaged again over users."""

import streamlit as st

from metrics import registry
from metrics.ranked_metrics import (
    ap_denominator_table, average_precision_table, per_user_table,
)
from ui import charts, formulas, text
from ui.scenario import DENOMINATOR_LABELS, ranking_scenario, users_scenario
from ui.widgets import show_table, formula, loaded_example_banner, metric_cards, page, pitfalls

DENOMINATOR_NAMES = {"min": "min(|Rel|, K)", "relevant": "|Rel|", "hits": "hits in top K"}

page(
    "AP and MAP", "📈",
    "**Average precision** walks down the top K and, at every hit, notes the precision so far "
    "(hits so far ÷ rank). AP@K adds these up and divides by a denominator D, so a hit at rank 1 "
    "is worth more than one at rank 7. **MAP@K** is the mean of AP@K over users. Libraries disagree on D: "
    "pick one below and compare all three.",
)
loaded_example_banner("ap")

case, problems, results = ranking_scenario(show_gain=False, show_denominator=True)
table = average_precision_table(case.recommended, case.ground_truth, case.k)
by_denominator = ap_denominator_table(case.recommended, case.ground_truth, case.k).set_index("denominator")
chosen = by_denominator.loc[case.ap_denominator]
ap = registry.BY_KEY["ap_at_k"].compute(case)
hit_rows = table[table["hit"]]

with results:
    st.markdown("**Result**")
    metric_cards({"ap_at_k": ap}, group="ap", k=case.k, columns=2)

st.subheader("The formula with your numbers")
formula(registry.BY_KEY["ap_at_k"].latex, formulas.average_precision_latex(
    hit_rows["rank"], hit_rows["hits_so_far"], chosen["sum_of_precisions"], int(chosen["divide_by"]), case.k, ap))
st.caption(f"The registry formula shows the NumPy tutorial's D = min(|Rel|, K); the line with your numbers uses the "
           f"denominator chosen above: D = {DENOMINATOR_NAMES[case.ap_denominator]} = {int(chosen['divide_by'])}.")

st.markdown(f"**The same list under each denominator** (AP@{case.k})")
metric_cards(
    {f"÷ {DENOMINATOR_NAMES[name]} = {int(row['divide_by'])}": row["ap"] for name, row in by_denominator.iterrows()},
    group="ap_denominators", columns=3,
    help_text={f"÷ {DENOMINATOR_NAMES[name]} = {int(row['divide_by'])}": DENOMINATOR_LABELS[name]
               for name, row in by_denominator.iterrows()},
)
show_table(
    by_denominator.reset_index().assign(
        used_by=lambda t: t["denominator"].map(DENOMINATOR_LABELS).str.split(": ", n=1).str[1],
        chosen=lambda t: t["denominator"] == case.ap_denominator,
        denominator=lambda t: t["denominator"].map(DENOMINATOR_NAMES),
    ),
    column_config={"ap": st.column_config.NumberColumn(f"AP@{case.k}", format="%.4f"),
                   "sum_of_precisions": st.column_config.NumberColumn("sum of precision@i at hits", format="%.4f"),
                   "divide_by": "D"},
)
if case.ap_denominator == "hits" and not hit_rows.empty:
    st.caption("Dividing by the hits ignores the relevant items that were missed: a list with one hit at rank 1 "
               "scores 1.0 however many relevant items it missed.")

st.subheader("Step by step")
if table.empty:
    st.info("The recommended list is empty, so there is no rank to walk through: AP@K is 0.")
else:
    show_table(table,
                 column_config={"precision_at_i": st.column_config.NumberColumn("precision@i", format="%.4f"),
                                "contribution": st.column_config.NumberColumn(format="%.4f")})
    st.plotly_chart(charts.contributions(table, f"Precision@i at each hit (green bars add up to the AP@{case.k} numerator)"),
                    key="ap_contributions")

st.subheader(f"MAP@{case.k}: the mean over users")
st.markdown("One user per row; type the lists as comma-separated item ids. K and the denominator above apply.")
users = users_scenario()
if not users.columns["user"]:
    st.info("No usable user in the table, so there is no MAP to compute. Add a row with a recommended list.")
else:
    columns = users.columns
    per_user = per_user_table(columns["user"], columns["recommended"], columns["relevant"], case.k,
                              denominator=case.ap_denominator)
    map_at_k = registry.BY_KEY["map_at_k"]
    map_value = map_at_k.compute(registry.UsersCase(columns["recommended"], columns["relevant"], case.k,
                                                    case.ap_denominator))
    st.latex(formulas.mean_over_users_latex(map_at_k.display_label(case.k), per_user["ap"], map_value))
    metric_cards({"map_at_k": map_value}, group="map", k=case.k, columns=3)
    show_table(per_user,
                 column_config={"ap": st.column_config.NumberColumn(f"AP@{case.k}", format="%.4f"),
                                "rr": st.column_config.NumberColumn("RR", format="%.4f"),
                                "first_hit_rank": "first hit at rank"})
    ap_label = f"AP@{case.k}"
    st.plotly_chart(charts.per_user_bars(text.plotly_column(per_user.rename(columns={"ap": ap_label}), "user"), ap_label, map_value, map_at_k.display_label(case.k),
                                         f"{ap_label} per user"), key="ap_per_user")

pitfalls(
    "**Three denominators, three answers.** min(|Rel|, K) (the NumPy tutorial, Recommenders `map_at_k`, RecBole), |Rel| "
    "(trec_eval `map_cut`, ranx `map@k`, Recommenders `map`) and hits in the top K (torchmetrics). With a relevant "
    "item never recommended (the NumPy tutorial's 999) they give 0.2771, 0.2771 and 0.3694. RecTools can also divide by K. "
    "Users keep reporting this as a bug: Recommenders issues #1702 and #2309.",
    "**No cut-off.** scikit-learn `average_precision_score` and cornac score the whole ranking, not the top K "
    "(0.3680 on the 999 example).",
    "**Which users count in MAP.** Here (and in trec_eval, ranx, torchmetrics) a user with no relevant item counts 0; "
    "Evidently and cornac skip such users, and Recommenders averages only users present in both truth and predictions.",
    "**AP needs the order**; Precision@K does not: moving a hit from rank 7 to rank 2 raises AP but leaves P@K unchanged.",
)
