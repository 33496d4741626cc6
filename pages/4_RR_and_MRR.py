"""RR and MRR: how far down the list the first relevant item sits."""

import streamlit as st

from metrics import registry
from metrics.ranked_metrics import (
    first_hit_rank, per_user_table, reciprocal_rank_at_k, reciprocal_rank_table,
)
from ui import charts, formulas, text
from ui.scenario import ranking_scenario, users_scenario
from ui.widgets import show_table, formula, loaded_example_banner, metric_cards, page, pitfalls


page(
    "RR and MRR", "🥇",
    "**Reciprocal rank** looks only at the **first** relevant item: RR = 1 / its rank, so a first hit at "
    "rank 1 scores 1, at rank 2 scores 0.5, at rank 4 scores 0.25, and no hit at all scores 0. Later hits "
    "do not count. **MRR** is the mean of RR over users: it suits tasks where the user needs one good answer.",
)
loaded_example_banner("rr")

case, problems, results = ranking_scenario(show_gain=False)
rank = first_hit_rank(case.recommended, case.ground_truth)
rr = registry.BY_KEY["rr"].compute(case)
rr_at_k = reciprocal_rank_at_k(case.recommended, case.ground_truth, case.k)
positions = reciprocal_rank_table(case.recommended, case.ground_truth)

rr_at_k_label = f"RR@{case.k} (ranx-style cut-off)"
with results:
    st.markdown("**Result**")
    metric_cards({"rr": rr, rr_at_k_label: rr_at_k}, group="rr", columns=2,
                 help_text={rr_at_k_label: "Like RR, but 0 when the first hit is below rank K (ranx mrr@k). Shown for comparison."})

st.subheader("The formula with your numbers")
formula(registry.BY_KEY["rr"].latex, formulas.reciprocal_rank_latex(rank, rr))
if rank is None:
    st.info("No relevant item anywhere in the recommended list, so RR is 0.")
else:
    st.markdown(f"First hit: item **{text.markdown(positions.loc[positions['first_hit'], 'item'].iloc[0])}** at rank **{rank}**. RR ignores K: "
                f"the K slider changes only the RR@{case.k} card.")
    if rr_at_k != rr:
        st.warning(f"The first hit (rank {rank}) is below K = {case.k}: RR (no cut-off, as in the NumPy tutorial and "
                   f"trec_eval recip_rank) still counts it, but ranx's mrr@{case.k} scores this user 0.", icon="✂️")

st.subheader("Step by step")
if positions.empty:
    st.info("The recommended list is empty, so there is no first hit: RR is 0. Add an item to the list.")
else:
    show_table(positions,
                 column_config={"one_over_rank": st.column_config.NumberColumn("1/rank", format="%.4f"),
                                "first_hit": "first hit"})
    st.plotly_chart(charts.reciprocal_rank_positions(text.plotly_column(positions, "item"), window=max(charts.rank_window(case.k), rank or 0)),
                    key="rr_positions")

st.subheader("MRR: the mean over users")
st.markdown("One user per row; type the lists as comma-separated item ids.")
users = users_scenario()
if not users.columns["user"]:
    st.info("No usable user in the table, so there is no MRR to compute. Add a row with a recommended list.")
else:
    columns = users.columns
    per_user = per_user_table(columns["user"], columns["recommended"], columns["relevant"], case.k)
    mrr = registry.BY_KEY["mrr"].compute(registry.UsersCase(columns["recommended"], columns["relevant"], case.k))
    st.latex(formulas.mean_over_users_latex("MRR", per_user["rr"], mrr))
    metric_cards({"mrr": mrr}, group="mrr", columns=3)
    show_table(per_user[["user", "first_hit_rank", "rr"]],
                 column_config={"rr": st.column_config.NumberColumn("RR", format="%.4f"),
                                "first_hit_rank": "first hit at rank"})
    st.plotly_chart(charts.per_user_bars(text.plotly_column(per_user.rename(columns={"rr": "RR"}), "user"), "RR", mrr, "MRR",
                                         "RR per user"), key="rr_per_user")

pitfalls(
    "**RR has no cut-off** here, as in the NumPy tutorial and trec_eval `recip_rank`: a first hit at rank 15 still scores 1/15. "
    "ranx `mrr@k` (and many evaluation scripts' MRR@K) score 0 when the first hit is below K, so the same run can "
    "give two MRRs. Say which one you report.",
    "**Only the first hit counts.** A list with hits at ranks 1, 2 and 3 has the same RR as one with a hit only "
    "at rank 1; use AP or NDCG when later hits matter.",
    "**Small differences at the top are huge.** Moving the first hit from rank 1 to 2 halves RR, while moving "
    "it from 10 to 20 changes it by 0.05: MRR is dominated by the users with an early hit.",
    "**Users with no relevant item** count 0 here (trec_eval, ranx); some libraries skip them, which raises MRR.",
)
