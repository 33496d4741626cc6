"""A worked solution on screen: its table, then its steps, the step that went wrong marked."""

from __future__ import annotations

import streamlit as st

from content import worked as words
from content.i18n import _
from teaching.worked import Worked
from ui.input import readers_notation
from content import text


def show(solution: tuple[Worked, ...], key: str) -> None:
    if not solution:
        return
    if not any(w.marked for w in solution):
        st.caption(_(words.NO_MISTAKE_MATCHED))
    for number, worked in enumerate(solution):
        st.markdown(f"**{text.markdown(words.shown(worked.title))}**")
        st.dataframe(readers_notation.in_readers_notation(words.table(worked.table)), hide_index=True, key=f"{key}_{number}",
                     column_config=words.column_labels(worked.table))
        for step, line in worked.steps:
            if step == worked.marked:
                st.markdown(f"👉 :red[{_(words.WENT_WRONG).format(step=text.markdown(words.shown(line)))}]")
            else:
                st.markdown(f"- {text.markdown(words.shown(line))}")
