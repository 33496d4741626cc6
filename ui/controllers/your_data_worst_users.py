"""Your data's worst users: the lowest of a chosen column, one of them opened as the shared scenario every
teaching page explains (its list, grades, K, gain and AP denominator), and every user's values to download."""

from __future__ import annotations

import streamlit as st

from content import numbers, text
from content.i18n import _
from content.pages import your_data as words
from ui.controllers import your_data as yd
from ui.controllers.your_data_results import header
from ui.state import _put, ground_truth_table, recommended_table
from ui.widgets import choice, show_table

TEACHING_PAGES = [("app.py", "🎯"), ("pages/2_Precision_Recall_HR_F1.py", "🎣"), ("pages/3_AP_and_MAP.py", "📈"),
                  ("pages/4_RR_and_MRR.py", "🥇"), ("pages/5_NDCG.py", "🪜")]


def _lowest(evaluation: yd.Evaluation) -> tuple:
    """The users with the lowest value of the chosen column (the main one at first), as a table; returns them and
    the column."""
    columns, per_user = evaluation.settings.columns, evaluation.per_user
    column = choice(st.selectbox, _(words.RANK_BY), columns, "yd_worst_column",
                    index=columns.index(evaluation.settings.main_column), format_func=yd.column_label)
    worst = yd.worst_users(per_user, column)
    shown = worst.rename(columns={c: yd.column_label(c) for c in columns})
    show_table(shown.style.format(lambda v: numbers.number(v, 4),
                                  subset=[yd.column_label(c) for c in columns if c in worst.columns]),
               column_config={"user": header("user")})
    st.caption(words.worst_caption(len(worst), yd.column_label(column), len(per_user)))
    return worst, column


def _open(log: yd.Log, user, column: str, chosen: yd.Settings) -> None:
    """``user``'s list and grades become the shared scenario, at the ranking column's K and with these settings."""
    items, grades = yd.user_case(log, user)
    _put("recommended", recommended_table(items))
    _put("ground_truth", ground_truth_table(grades))
    st.session_state["k"] = yd.opened_k(column, chosen.main_k, len(items))
    st.session_state["gain"], st.session_state["ap_denominator"] = chosen.gain, chosen.denominator
    st.session_state["loaded_example"] = None
    st.session_state["yd_opened"] = user


def worst_users(log: yd.Log, evaluation: yd.Evaluation) -> None:
    worst, column = _lowest(evaluation)
    left, right = st.columns([2, 3])
    with left:
        chosen = choice(st.selectbox, _(words.USER_TO_EXPLAIN), worst["user"].tolist(), "yd_worst_user")
        if st.button(_(words.OPEN_USER), key="yd_open", disabled=chosen is None):
            _open(log, chosen, column, evaluation.settings)
    with right:
        if st.session_state.get("yd_opened") is not None:
            st.success(words.opened(text.markdown(st.session_state["yd_opened"]), st.session_state["k"]), icon="🔎")
            for path, icon in TEACHING_PAGES:
                st.page_link(path, label=_(words.TEACHING_PAGES[path]), icon=icon)


def download(evaluation: yd.Evaluation) -> None:
    per_user = evaluation.per_user
    st.download_button(_(words.DOWNLOAD), lambda: per_user.to_csv().encode("utf-8"),
                       file_name="per_user_metrics.csv", mime="text/csv", on_click="ignore", key="yd_download")
