"""What identifies one browser (every tab of it) to the server: the live class's join and the kata's interview."""

from __future__ import annotations

import streamlit as st

from classroom import codes


def xsrf_token(cookie: str) -> str:
    """The token inside Streamlit's XSRF cookie: the server sets the cookie afresh on each page load, masked
    with 4 new random bytes (Tornado's "2|mask|masked token|time"), but the token under the mask stays.

    >>> xsrf_token("2|01020304|4142434445|1700000000") == xsrf_token("2|00000000|4040404044|1700000000")
    True
    """
    parts = cookie.split("|")
    try:
        mask, masked = bytes.fromhex(parts[1]), bytes.fromhex(parts[2])
    except (IndexError, ValueError):
        return cookie
    if parts[0] != "2" or len(mask) != 4:
        return cookie
    return bytes(byte ^ mask[i % 4] for i, byte in enumerate(masked)).hex()


def browser_key() -> str:
    """What identifies one browser across reloads and tabs: Streamlit's XSRF token (this session without it)."""
    cookie = st.context.cookies.get("_streamlit_xsrf")
    if isinstance(cookie, str) and cookie:
        return f"xsrf:{xsrf_token(cookie)}"
    return "session:" + st.session_state.setdefault("live_browser", codes.new_student_id())
