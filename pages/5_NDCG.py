"""NDCG: position-discounted gains of a ranked list, divided by the best possible."""

import streamlit as st

from content.i18n import _
from content.pages import ndcg as words
from ui.controllers import ndcg_list as listed
from ui.controllers import ndcg_ties as ties
from ui.question_editor import question_editor
from ui.scenario import ranking_scenario
from ui.widgets import loaded_example_banner, page

page(_(words.TITLE), "📐", _(words.IDEA))
loaded_example_banner("ndcg")
ties.point_to_the_sklearn_example()
case, _problems, results = ranking_scenario()
with results:
    listed.gain_cards(case)
    question_editor(case, "ndcg", "ndcg_at_k")

st.subheader(_(words.FORMULA_WITH_NUMBERS))
listed.formula_with_numbers(case)
listed.gains_by_grade(case)

st.subheader(words.dcg_heading(case.k))
listed.dcg_tables(case)

st.subheader(_(words.WHICH_IDEAL))
listed.which_ideal(case)

st.header(_(words.TIES_HEADING))
st.markdown(_(words.TIES_TEXT))
ties.scores_with_ties(case.gain)

listed.pitfalls()
