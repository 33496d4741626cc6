"""RR and MRR: how far down the list the first relevant item sits."""

import streamlit as st

from content import numbers
from content.i18n import _
from content.pages import rr as words
from metrics import registry
from metrics.ranked_metrics import (
    first_hit_rank, per_user_table, reciprocal_rank_at_k, reciprocal_rank_table,
)
from ui.figures import charts
from content import text
from ui.markup import formulas
from ui.scenario import ranking_scenario, users_scenario
from ui.widgets import chart, show_table, formula, loaded_example_banner, metric_cards, page, pitfalls
from ui.question_editor import question_editor


def _four(*columns: str) -> dict:
    """Styler formats: these columns with 4 decimals, in the reader's notation."""
    return {column: lambda v: numbers.number(v, 4) for column in columns}


page(_(words.TITLE), "🥇", _(words.IDEA))
loaded_example_banner("rr")

case, problems, results = ranking_scenario(show_gain=False)
rank = first_hit_rank(case.recommended, case.ground_truth)
rr = registry.BY_KEY["rr"].compute(case)
rr_at_k = reciprocal_rank_at_k(case.recommended, case.ground_truth, case.k)
positions = reciprocal_rank_table(case.recommended, case.ground_truth)

with results:
    st.markdown(_(words.RESULT))
    metric_cards({"rr": rr, "rr_at_k": rr_at_k}, group="rr", columns=2,
                 labels={"rr_at_k": words.rr_at_k_card(case.k)}, help_text={"rr_at_k": _(words.RR_AT_K_HELP)})
    question_editor(case, "rr", "rr")

st.subheader(_(words.FORMULA_WITH_NUMBERS))
formula(registry.BY_KEY["rr"].latex, formulas.reciprocal_rank_latex(rank, rr))
if rank is None:
    st.info(_(words.NO_HIT))
else:
    st.markdown(words.first_hit(text.markdown(positions.loc[positions["first_hit"], "item"].iloc[0]), rank, case.k))
    if rr_at_k != rr:
        st.warning(words.below_k(rank, case.k), icon="✂️")

st.subheader(_(words.STEP_BY_STEP))
if positions.empty:
    st.info(_(words.EMPTY_LIST))
else:
    show_table(positions.style.format(_four("one_over_rank")),
               column_config={"one_over_rank": "1/rank", "first_hit": _(words.FIRST_HIT)})
    chart(charts.reciprocal_rank_positions(text.plotly_column(positions, "item"), window=max(charts.rank_window(case.k), rank or 0)),
                    key="rr_positions")

st.subheader(_(words.MRR_HEADING))
st.markdown(_(words.USERS_HOWTO))
users = users_scenario()
if not users.columns["user"]:
    st.info(_(words.NO_USER))
else:
    columns = users.columns
    per_user = per_user_table(columns["user"], columns["recommended"], columns["relevant"], case.k)
    mrr = registry.BY_KEY["mrr"].compute(registry.UsersCase(columns["recommended"], columns["relevant"], case.k))
    st.latex(formulas.mean_over_users_latex("MRR", per_user["rr"], mrr))
    metric_cards({"mrr": mrr}, group="mrr", columns=3)
    show_table(per_user[["user", "first_hit_rank", "rr"]].style.format(_four("rr")),
               column_config={"rr": "RR", "first_hit_rank": _(words.FIRST_HIT_AT)})
    chart(charts.per_user_bars(text.plotly_column(per_user.rename(columns={"rr": "RR"}), "user"), "RR", mrr, "MRR",
                                         words.per_user_title("RR")), key="rr_per_user")

pitfalls(*(_(line) for line in words.PITFALLS))
