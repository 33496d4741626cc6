"""A worked solution on screen: its table, then its steps, the step that went wrong marked."""

from __future__ import annotations

import streamlit as st

from metrics.worked import Worked
from ui import text


def show(solution: tuple[Worked, ...], key: str) -> None:
    if not solution:
        return
    if not any(w.marked for w in solution):
        st.caption("Your number matches none of the common mistakes: compare your steps with these.")
    for number, worked in enumerate(solution):
        st.markdown(f"**{text.markdown(worked.title)}**")
        st.dataframe(worked.table, hide_index=True, key=f"{key}_{number}")
        for step, line in worked.steps:
            if step == worked.marked:
                st.markdown(f"👉 :red[**This step went wrong:** {text.markdown(line)}]")
            else:
                st.markdown(f"- {text.markdown(line)}")
