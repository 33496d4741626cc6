"""The NDCG page's pieces about the scenario's list: the cards under both gains, the formula with the reader's
numbers, the gain of each grade, the DCG tables of the list and of the ideal ordering, which items form the ideal,
and the pitfalls. Every number comes from ``metrics.ndcg``; every sentence from content/pages/ndcg.py."""

from __future__ import annotations

import streamlit as st

from content import numbers, text
from content.i18n import _
from content.pages import ndcg as words
from metrics import ndcg
from metrics import seed_examples as seeds
from metrics.registry import BY_KEY, RankingCase
from ui import widgets
from ui.figures import charts
from ui.markup import formulas
from ui.widgets import chart, formula, metric_cards, show_table


def formats(general=(), four=()) -> dict:
    """Styler formats in the reader's notation: ``general`` columns as short as they read back, ``four`` with
    4 decimals."""
    return {**{column: numbers.general for column in general},
            **{column: lambda v: numbers.number(v, 4) for column in four}}


def _graded(case: RankingCase) -> float:
    return BY_KEY["ndcg_graded_at_k"].compute(case)


def _tables(case: RankingCase):
    """The DCG tables of the list and of the ideal ordering."""
    return ndcg.ndcg_tables(case.recommended, case.ground_truth, case.k, gain=case.gain)


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


def gain_cards(case: RankingCase) -> None:
    """Binary and graded NDCG@K, and graded under the gain not chosen."""
    other = ndcg.other_gain(case.gain)
    st.markdown(_(words.CARDS_HEADING))
    metric_cards(
        {
            "ndcg_binary_at_k": BY_KEY["ndcg_binary_at_k"].compute(case),
            "ndcg_graded_at_k": _graded(case),
            "ndcg_other_gain": ndcg.ndcg_at_k(case.recommended, case.ground_truth, case.k, gain=other),
        },
        group="ndcg", k=case.k, columns=1, labels={"ndcg_other_gain": words.other_gain_card(other, case.k)},
        help_text={"ndcg_graded_at_k": words.graded_help(case.gain)},
    )
    st.caption(words.cards_caption(case.gain))


def formula_with_numbers(case: RankingCase) -> None:
    actual, ideal = _tables(case)
    formula(BY_KEY["ndcg_graded_at_k"].latex, formulas.ndcg_latex(actual, ideal, case.k, _graded(case)))


def gains_by_grade(case: RankingCase) -> None:
    """Each grade of the ground truth with its linear and exponential gain, if it has any."""
    table = ndcg.gains_by_grade(case.ground_truth.values())
    if table.empty:
        return
    show_table(table.style.format(formats(general=("grade", "linear", "exponential"))),
               column_config={"grade": _(words.GRADE), "linear": words.gain_text("linear"),
                              "exponential": words.gain_text("exponential")},
               width="content")
    st.caption(_(words.EXPONENTIAL_VS_LINEAR))


def dcg_tables(case: RankingCase) -> None:
    """The list's DCG table beside the ideal ordering's, what the ideal holds that the list does not, and the chart."""
    relevant = any(grade > 0 for grade in case.ground_truth.values())
    if not case.recommended and not relevant:
        st.info(_(words.BOTH_EMPTY))
        return
    actual, ideal = _tables(case)
    dcg_formats = formats(general=("relevance", "gain"), four=("discount", "contribution", "running_dcg"))
    left, right = st.columns(2)
    for column, heading, table, empty in ((left, words.YOUR_LIST, actual, words.LIST_EMPTY),
                                          (right, words.IDEAL_ORDERING, ideal, words.TRUTH_EMPTY)):
        with column:
            st.markdown(_(heading))
            if table.empty:
                st.info(_(empty))
            else:
                show_table(table.style.format(dcg_formats), column_config=_dcg_columns())
    missing = ndcg.relevant_not_recommended(case.recommended, case.ground_truth)
    if missing:
        st.info(words.missing_from_list([text.quoted(i) for i in missing]), icon="ℹ️")
    elif relevant:
        st.caption(_(words.ALL_RECOMMENDED))
    else:
        st.info(_(words.NO_GRADE))
    chart(charts.dcg_actual_vs_ideal(text.plotly_column(actual, "item"), text.plotly_column(ideal, "item"),
                                     window=charts.rank_window(case.k)), key="ndcg_dcg_chart")


def which_ideal(case: RankingCase) -> None:
    """NDCG@K with the ideal built from the whole ground truth, and from the list's items only."""
    metric_cards(
        {
            "ideal_from_truth": _graded(case),
            "ideal_from_list": ndcg.ndcg_ideal_from_list(case.recommended, case.ground_truth, case.k, gain=case.gain),
        },
        group="ndcg_ideal", columns=2,
        labels={"ideal_from_truth": words.ideal_from_truth_card(case.k),
                "ideal_from_list": words.ideal_from_list_card(case.k)},
        help_text={"ideal_from_list": words.list_only_help(case.gain)},
    )
    st.caption(_(words.WHICH_IDEAL_CAPTION))


def pitfalls() -> None:
    """The pitfalls, with the NumPy tutorial's examples computed."""
    widgets.pitfalls(*words.pitfalls(ndcg.ndcg_ideal_from_list(seeds.RECOMMENDED, seeds.GT_GRADED, 10),
                                     ndcg.ndcg_at_k(seeds.RECOMMENDED, seeds.GT_GRADED, 10),
                                     ndcg.ndcg_at_k(seeds.RECOMMENDED, seeds.GT_RANKED, 10)))
