"""What identifies one browser (every tab of it) to the server: the live class's join and the kata's interview."""

from __future__ import annotations

import streamlit as st

from classroom import codes


def browser_key() -> str:
    """What identifies one browser across reloads and tabs: Streamlit's XSRF cookie (this session without it)."""
    cookie = st.context.cookies.get("_streamlit_xsrf")
    if isinstance(cookie, str) and cookie:
        return f"xsrf:{cookie}"
    return "session:" + st.session_state.setdefault("live_browser", codes.new_student_id())
