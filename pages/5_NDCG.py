"""NDCG: position-discounted gains of a ranked list, divided by the best possible."""

import pandas as pd
import streamlit as st

from content import numbers
from content.i18n import _
from content.pages import ndcg as words
from metrics import ndcg
from metrics import seed_examples as seeds
from metrics.registry import BY_KEY
from ui.figures import charts
from content import text
from ui.markup import formulas
from ui.input import tables
from ui.scenario import ranking_scenario
from ui.widgets import chart, show_table, formula, loaded_example_banner, metric_cards, page, pitfalls, show_problems, table_editor
from ui.question_editor import question_editor

def _dcg_columns() -> dict:
    return {
        "rank": st.column_config.NumberColumn("i", help=_(words.RANK_HELP), pinned=True),
        "item": st.column_config.TextColumn(_(words.ITEM)),
        "relevance": st.column_config.NumberColumn("rel", help=_(words.REL_HELP)),
        "gain": st.column_config.NumberColumn(_(words.GAIN)),
        "discount": st.column_config.NumberColumn("1/log2(i+1)", help=_(words.DISCOUNT_HELP)),
        "contribution": st.column_config.NumberColumn(_(words.CONTRIBUTION_SHORT), help=_(words.CONTRIBUTION_HELP)),
        "running_dcg": st.column_config.NumberColumn(_(words.DCG_SO_FAR), help=_(words.DCG_SO_FAR_HELP), pinned=True),
    }


def _score_columns() -> dict:
    return {
        "item": st.column_config.TextColumn(_(words.SCORE_ITEM)),
        "true_relevance": st.column_config.NumberColumn(_(words.TRUE_RELEVANCE), help=_(words.TRUE_RELEVANCE_HELP)),
        "score": st.column_config.NumberColumn(_(words.SCORE), help=_(words.SCORE_HELP)),
    }


def _tie_columns() -> dict:
    return {
        "item": st.column_config.TextColumn(_(words.ITEM)),
        "relevance": st.column_config.NumberColumn(_(words.RELEVANCE)),
        "gain": st.column_config.NumberColumn(_(words.GAIN)),
        "score": st.column_config.NumberColumn(_(words.SCORE_LOWER)),
        "tie_group": st.column_config.NumberColumn(_(words.TIE_GROUP)),
        "positions": st.column_config.TextColumn(_(words.POSITIONS)),
        "group_size": st.column_config.NumberColumn(_(words.GROUP_SIZE)),
        "averaged_gain": st.column_config.NumberColumn(_(words.AVERAGED_GAIN)),
        "summed_discount": st.column_config.NumberColumn(_(words.SUMMED_DISCOUNT)),
        "contribution": st.column_config.NumberColumn(_(words.CONTRIBUTION)),
    }


def _formats(general=(), four=()) -> dict:
    """Styler formats in the reader's notation: ``general`` columns as short as they read back, ``four`` with 4 decimals."""
    return {**{column: numbers.general for column in general},
            **{column: lambda v: numbers.number(v, 4) for column in four}}


page(_(words.TITLE), "📐", _(words.IDEA))
loaded_example_banner("ndcg")
if st.session_state.get("loaded_example") == "ndcg_sklearn":
    st.caption(_(words.SKLEARN_EXAMPLE_BELOW))

case, _problems, results = ranking_scenario()
other_gain = "exponential" if case.gain == "linear" else "linear"
actual, ideal = ndcg.ndcg_tables(case.recommended, case.ground_truth, case.k, gain=case.gain)
graded = BY_KEY["ndcg_graded_at_k"].compute(case)
with results:
    st.markdown(_(words.CARDS_HEADING))
    metric_cards(
        {
            "ndcg_binary_at_k": BY_KEY["ndcg_binary_at_k"].compute(case),
            "ndcg_graded_at_k": graded,
            "ndcg_other_gain": ndcg.ndcg_at_k(case.recommended, case.ground_truth, case.k, gain=other_gain),
        },
        group="ndcg", k=case.k, columns=1, labels={"ndcg_other_gain": words.other_gain_card(other_gain, case.k)},
        help_text={"ndcg_graded_at_k": words.graded_help(case.gain)},
    )
    st.caption(words.cards_caption(case.gain))
    question_editor(case, "ndcg", "ndcg_at_k")

st.subheader(_(words.FORMULA_WITH_NUMBERS))
formula(BY_KEY["ndcg_graded_at_k"].latex, formulas.ndcg_latex(actual, ideal, case.k, graded))

grades = sorted(set(case.ground_truth.values()))
if grades:
    show_table(
        pd.DataFrame({"grade": grades, "linear": ndcg.gain_of(grades, "linear"),
                      "exponential": ndcg.gain_of(grades, "exponential")}
                     ).style.format(_formats(general=("grade", "linear", "exponential"))),
        column_config={"grade": _(words.GRADE), "linear": words.gain_text("linear"),
                       "exponential": words.gain_text("exponential")},
        width="content",
    )
    st.caption(_(words.EXPONENTIAL_VS_LINEAR))

st.subheader(words.dcg_heading(case.k))
missing = ndcg.relevant_not_recommended(case.recommended, case.ground_truth)
dcg_formats = _formats(general=("relevance", "gain"), four=("discount", "contribution", "running_dcg"))
if not case.recommended and not any(g > 0 for g in case.ground_truth.values()):
    st.info(_(words.BOTH_EMPTY))
else:
    left, right = st.columns(2)
    with left:
        st.markdown(_(words.YOUR_LIST))
        if actual.empty:
            st.info(_(words.LIST_EMPTY))
        else:
            show_table(actual.style.format(dcg_formats), column_config=_dcg_columns())
    with right:
        st.markdown(_(words.IDEAL_ORDERING))
        if ideal.empty:
            st.info(_(words.TRUTH_EMPTY))
        else:
            show_table(ideal.style.format(dcg_formats), column_config=_dcg_columns())
    if missing:
        st.info(words.missing_from_list([text.quoted(i) for i in missing]), icon="ℹ️")
    elif any(g > 0 for g in case.ground_truth.values()):
        st.caption(_(words.ALL_RECOMMENDED))
    else:
        st.info(_(words.NO_GRADE))
    chart(charts.dcg_actual_vs_ideal(text.plotly_column(actual, "item"), text.plotly_column(ideal, "item"),
                                                   window=charts.rank_window(case.k)), key="ndcg_dcg_chart")

st.subheader(_(words.WHICH_IDEAL))
from_list_help = {"linear": words.LIST_ONLY_HELP, "exponential": words.LIST_ONLY_HELP_EXPONENTIAL}[case.gain]
metric_cards(
    {
        "ideal_from_truth": graded,
        "ideal_from_list": ndcg.ndcg_ideal_from_list(case.recommended, case.ground_truth, case.k, gain=case.gain),
    },
    group="ndcg_ideal", columns=2,
    labels={"ideal_from_truth": words.ideal_from_truth_card(case.k), "ideal_from_list": words.ideal_from_list_card(case.k)},
    help_text={"ideal_from_list": _(from_list_help)},
)
st.caption(_(words.WHICH_IDEAL_CAPTION))

st.header(_(words.TIES_HEADING))
st.markdown(_(words.TIES_TEXT))
score_rows = tables.parse_numeric_rows(table_editor("ndcg_scores", _score_columns()),
                                       {"item": "text", "true_relevance": "grade", "score": "number"},
                                       _(words.SCORES_TABLE))
show_problems(score_rows.problems)
relevance, score, names = (score_rows.columns[c] for c in ("true_relevance", "score", "item"))
if not relevance:
    st.info(_(words.NO_SCORE_ROWS))
else:
    n = len(relevance)
    truth = dict(enumerate(relevance))
    orders = ndcg.tie_broken_orders(relevance, score)
    averaged = ndcg.ndcg_score(relevance, score, gain=case.gain)
    # scikit-learn's ndcg_score has linear gain only: a card named after it shows its number.
    # Keyed by the English texts (the same in every language), shown translated.
    if case.gain == "linear":
        library_cards = {words.TIES_AVERAGED_SKLEARN: averaged}
    else:
        library_cards = {words.TIES_AVERAGED_EXPONENTIAL: averaged,
                         words.SKLEARN_LINEAR_ONLY: ndcg.ndcg_score(relevance, score, gain="linear")}
    cards = {
        **library_cards,
        words.IN_FAVOUR: ndcg.ndcg_at_k(orders["best"], truth, n, gain=case.gain),
        words.AGAINST: ndcg.ndcg_at_k(orders["worst"], truth, n, gain=case.gain),
        words.INPUT_ORDER: ndcg.ndcg_at_k(orders["input_order"], truth, n, gain=case.gain),
    }
    helps = {words.TIES_AVERAGED_EXPONENTIAL: words.TIES_AVERAGED_EXPONENTIAL_HELP,
             words.SKLEARN_LINEAR_ONLY: words.SKLEARN_LINEAR_ONLY_HELP, words.IN_FAVOUR: words.IN_FAVOUR_HELP,
             words.AGAINST: words.AGAINST_HELP, words.INPUT_ORDER: words.INPUT_ORDER_HELP}
    metric_cards(cards, group="ndcg_scores", columns=4, labels={key: _(key) for key in cards},
                 help_text={key: _(helps[key]) for key in cards if key in helps})
    st.caption(words.positions_caption(n, case.gain))
    ties = ndcg.tie_groups_table(relevance, score, gain=case.gain, items=names)
    dcg = ndcg.tie_averaged_dcg(relevance, score, gain=case.gain)
    idcg = ndcg.dcg_at_k(ndcg.ideal_relevances(truth), n, gain=case.gain)
    st.latex(words.tie_latex(dcg, idcg, averaged))
    tie_columns = _tie_columns()  # the shown columns, in this order (not the first and last position)
    show_table(ties[list(tie_columns)].style.format(_formats(general=("relevance", "gain", "score"),
                                                             four=("averaged_gain", "summed_discount", "contribution"))),
               column_config=tie_columns)
    groups = ties[ties["group_size"] > 1].drop_duplicates("tie_group")
    for _row, group in groups.iterrows():
        members = ties.loc[ties["tie_group"] == group["tie_group"]]
        st.markdown("- " + words.tie_group([text.quoted(i) for i in members["item"]], group["score"],
                                           group["positions"], list(members["gain"]), group["group_size"],
                                           group["averaged_gain"], group["summed_discount"]))
    if groups.empty:
        st.caption(_(words.NO_TIES))
    else:
        st.caption(_(words.TIES_RANGE))

pitfalls(*words.pitfalls(ndcg.ndcg_ideal_from_list(seeds.RECOMMENDED, seeds.GT_GRADED, 10),
                         ndcg.ndcg_at_k(seeds.RECOMMENDED, seeds.GT_GRADED, 10),
                         ndcg.ndcg_at_k(seeds.RECOMMENDED, seeds.GT_RANKED, 10)))
