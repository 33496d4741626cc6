"""AP and MAP: precision at every hit, averaged; then averaged again over users."""

import streamlit as st

from content import numbers
from content.i18n import _
from content.pages import ap as words
from metrics import registry
from metrics.ranked_metrics import (
    ap_denominator_table, average_precision_table, per_user_table,
)
from ui.figures import charts
from content import text
from ui.markup import formulas
from ui.scenario import DENOMINATOR_LABELS, ranking_scenario, users_scenario
from ui.widgets import chart, show_table, formula, loaded_example_banner, metric_cards, page, pitfalls
from ui.question_editor import question_editor


def _four(*columns: str) -> dict:
    """Styler formats: these columns with 4 decimals, in the reader's notation."""
    return {column: lambda v: numbers.number(v, 4) for column in columns}


page(_(words.TITLE), "📈", _(words.IDEA))
loaded_example_banner("ap")

case, problems, results = ranking_scenario(show_gain=False, show_denominator=True)
table = average_precision_table(case.recommended, case.ground_truth, case.k)
by_denominator = ap_denominator_table(case.recommended, case.ground_truth, case.k).set_index("denominator")
chosen = by_denominator.loc[case.ap_denominator]
ap = registry.BY_KEY["ap_at_k"].compute(case)
hit_rows = table[table["hit"]]

with results:
    st.markdown(_(words.RESULT))
    metric_cards({"ap_at_k": ap}, group="ap", k=case.k, columns=2)
    question_editor(case, "ap", "ap_at_k")

st.subheader(_(words.FORMULA_WITH_NUMBERS))
formula(registry.BY_KEY["ap_at_k"].latex, formulas.average_precision_latex(
    hit_rows["rank"], hit_rows["hits_so_far"], chosen["sum_of_precisions"], int(chosen["divide_by"]), case.k, ap))
st.caption(words.chosen_denominator(case.ap_denominator, int(chosen["divide_by"])))

st.markdown(words.each_denominator(case.k))
metric_cards(
    {name: row["ap"] for name, row in by_denominator.iterrows()},
    group="ap_denominators", columns=3,
    labels={name: words.denominator_card(name, int(row["divide_by"])) for name, row in by_denominator.iterrows()},
    help_text={name: _(DENOMINATOR_LABELS[name]) for name in by_denominator.index},
)
show_table(
    by_denominator.reset_index().assign(
        used_by=lambda t: [_(words.USED_BY[name]) for name in t["denominator"]],
        chosen=lambda t: t["denominator"] == case.ap_denominator,
        denominator=lambda t: t["denominator"].map(words.denominator_name),
    ).style.format(_four("ap", "sum_of_precisions")),
    column_config={"ap": f"AP@{case.k}", "sum_of_precisions": _(words.SUM_OF_PRECISIONS), "divide_by": "D",
                   "denominator": _(words.DENOMINATOR), "used_by": _(words.USED_BY_HEADER),
                   "chosen": _(words.CHOSEN)},
)
if case.ap_denominator == "hits" and not hit_rows.empty:
    st.caption(_(words.HITS_DENOMINATOR))

st.subheader(_(words.STEP_BY_STEP))
if table.empty:
    st.info(_(words.EMPTY_LIST))
else:
    show_table(table.style.format(_four("precision_at_i", "contribution")))
    chart(charts.contributions(table, words.contributions_title(case.k)), key="ap_contributions")

st.subheader(words.map_heading(case.k))
st.markdown(_(words.USERS_HOWTO))
users = users_scenario()
if not users.columns["user"]:
    st.info(_(words.NO_USER))
else:
    columns = users.columns
    per_user = per_user_table(columns["user"], columns["recommended"], columns["relevant"], case.k,
                              denominator=case.ap_denominator)
    map_at_k = registry.BY_KEY["map_at_k"]
    map_value = map_at_k.compute(registry.UsersCase(columns["recommended"], columns["relevant"], case.k,
                                                    case.ap_denominator))
    st.latex(formulas.mean_over_users_latex(map_at_k.display_label(case.k), per_user["ap"], map_value))
    metric_cards({"map_at_k": map_value}, group="map", k=case.k, columns=3)
    show_table(per_user.style.format(_four("ap", "rr")),
               column_config={"ap": f"AP@{case.k}", "rr": "RR", "first_hit_rank": _(words.FIRST_HIT_AT)})
    ap_label = f"AP@{case.k}"
    chart(charts.per_user_bars(text.plotly_column(per_user.rename(columns={"ap": ap_label}), "user"), ap_label, map_value, map_at_k.display_label(case.k),
                                         words.per_user_title(ap_label)), key="ap_per_user")

pitfalls(*(_(line) for line in words.PITFALLS))
