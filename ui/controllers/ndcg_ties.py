"""The NDCG page's score-based section: a table of true relevances and scores, NDCG with its ties averaged (as
scikit-learn does) and broken three ways, the tie-averaged formula and each tie group explained. Every number comes
from ``metrics.ndcg``; every sentence from content/pages/ndcg.py."""

from __future__ import annotations

import streamlit as st

from content import text
from content.i18n import _
from content.pages import ndcg as words
from metrics import ndcg
from ui.controllers.ndcg_list import formats
from ui.input import tables
from ui.widgets import metric_cards, show_problems, show_table, table_editor


def point_to_the_sklearn_example() -> None:
    """The loaded example of scikit-learn's ndcg_score is in the score-based section, far below the page's top."""
    if st.session_state.get("loaded_example") == "ndcg_sklearn":
        st.caption(_(words.SKLEARN_EXAMPLE_BELOW))


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


def _cards(found: ndcg.TiedNdcg, gain: str) -> dict[str, float]:
    """The cards, keyed by their English texts (the same in every language)."""
    # scikit-learn's ndcg_score has linear gain only: a card named after it shows its number.
    averaged = ({words.TIES_AVERAGED_SKLEARN: found.averaged} if gain == "linear" else
                {words.TIES_AVERAGED_EXPONENTIAL: found.averaged, words.SKLEARN_LINEAR_ONLY: found.averaged_linear})
    return {**averaged, words.IN_FAVOUR: found.in_favour, words.AGAINST: found.against,
            words.INPUT_ORDER: found.input_order}


def _tie_groups(ties) -> None:
    """Each tie group in a sentence, or that there is none."""
    groups = ndcg.tied_groups(ties)
    for members in groups:
        first = members.iloc[0]
        st.markdown("- " + words.tie_group([text.quoted(i) for i in members["item"]], first["score"],
                                           first["positions"], list(members["gain"]), first["group_size"],
                                           first["averaged_gain"], first["summed_discount"]))
    st.caption(_(words.TIES_RANGE if groups else words.NO_TIES))


def scores_with_ties(gain: str) -> None:
    """The scores table, NDCG with its ties averaged and broken, the formula and the tie groups."""
    rows = tables.parse_numeric_rows(table_editor("ndcg_scores", _score_columns()),
                                     {"item": "text", "true_relevance": "grade", "score": "number"},
                                     _(words.SCORES_TABLE))
    show_problems(rows.problems)
    relevance, score, names = (rows.columns[c] for c in ("true_relevance", "score", "item"))
    if not relevance:
        st.info(_(words.NO_SCORE_ROWS))
        return
    found = ndcg.ndcg_with_ties(relevance, score, gain=gain)
    cards = _cards(found, gain)
    metric_cards(cards, group="ndcg_scores", columns=4, labels={key: _(key) for key in cards},
                 help_text={key: _(words.TIE_CARD_HELP[key]) for key in cards if key in words.TIE_CARD_HELP})
    st.caption(words.positions_caption(len(relevance), gain))
    st.latex(words.tie_latex(found.averaged_dcg, found.idcg, found.averaged))
    ties = ndcg.tie_groups_table(relevance, score, gain=gain, items=names)
    tie_columns = _tie_columns()  # the shown columns, in this order (not the first and last position)
    show_table(ties[list(tie_columns)].style.format(formats(general=("relevance", "gain", "score"),
                                                            four=("averaged_gain", "summed_discount", "contribution"))),
               column_config=tie_columns)
    _tie_groups(ties)
