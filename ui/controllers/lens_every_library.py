"""The library lens's view of every library at once: how many values differ, the table and the heatmap of each
library's values, what a user with nothing relevant does to each mean, and each difference in words."""

from __future__ import annotations

import streamlit as st

from content import numbers
from content.i18n import _
from content.pages import lens as words
from metrics.conventions import Comparison
from metrics.registry import RankingCase
from ui.controllers import library_lens as lens
from ui.widgets import ROW_HEIGHT, chart, show_table


def values(case: RankingCase, comparison: Comparison, results) -> None:
    """How many values differ (in ``results``, beside the scenario), then every library's values as a table and
    as a heatmap, the differing cells marked."""
    mask = lens.differing_cells(comparison.values, comparison.differences)
    with results:
        st.markdown(words.results_note(lens.disagreement_summary(mask)))
    # The table takes the page's width: in the results column a 1280 px screen showed only three of its five
    # metric columns, and the highlighted disagreements needed a sideways scroll.
    st.subheader(words.table_heading(case.k))
    show_table(lens.styled(lens.display_table(comparison.app, comparison.values), mask, case.k), hide_index=False,
               height=(len(comparison.values) + 2) * ROW_HEIGHT + 3)
    st.caption(_(words.TABLE_NOTE))
    chart(lens.values_chart(comparison.app, comparison.values, mask, case.k), key="lens_chart")


def mean_with_the_tutorial_user(case: RankingCase) -> None:
    """Only for a user with nothing relevant: whether each library counts them in its mean or leaves them out."""
    if not lens.nothing_relevant(case):
        return
    st.markdown(_(words.MEAN_INTRO))
    table = lens.mean_with_the_tutorial_user(case)
    show_table(table.style.format(lambda v: numbers.number(v, 4), subset=list(table.columns[:2])), hide_index=False)


def differences(case: RankingCase, comparison: Comparison) -> None:
    if comparison.differences.empty:
        st.success(_(words.ALL_AGREE), icon="✅")
    else:
        st.markdown(words.differences_in_words(comparison.differences, case.recommended, case.ground_truth, case.k))
