"""The reader's language for this session: from the link, the session, or the browser; the sidebar picker.

A link's ``lang`` wins, then the session's earlier choice, then the browser's language
(``st.context.locale``: ``tr-*`` Turkish, ``zh-*`` Chinese, anything else English). The choice is
kept in the session and written back into the address bar (``ui.lesson_link.sync``), so every
shared link carries it. Widget keys never depend on it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import contextmanager

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from content import i18n
from content.i18n import _
from content import text

KEY = "lang"
PICKER = "_lang_picker"
_UNKNOWN = "_lang_unknown"


_speaking = threading.local()  # a language set for this thread only (speaking), over the session's


def _session_language() -> str:
    code = getattr(_speaking, "code", None)
    if code is not None:
        return code
    if get_script_run_ctx(suppress_warning=True) is None:
        return i18n.SOURCE
    if KEY not in st.session_state:  # a page translating its title before page() settles the language
        _settle()
    return st.session_state[KEY]


@contextmanager
def speaking(code: str):
    """Translate in ``code`` inside the block, on this thread only (other sessions are not affected)."""
    before = getattr(_speaking, "code", None)
    _speaking.code = code
    try:
        yield
    finally:
        _speaking.code = before


def in_current_language(function: Callable) -> Callable:
    """``function`` that always translates in the language of now: a widget's ``format_func``, which
    Streamlit (or a test) may call again outside this run, must label the options as this run did."""
    code = i18n.current()

    def labelled(*args, **kwargs):
        with speaking(code):
            return function(*args, **kwargs)

    return labelled


i18n.use_resolver(_session_language)


def from_browser(locale: str | None) -> str:
    """The language for a browser locale such as ``tr-TR`` or ``zh-CN``: English unless we have it."""
    prefix = (locale or "").split("-")[0].split("_")[0].lower()
    return prefix if prefix in i18n.languages() else i18n.SOURCE


def choose() -> None:
    """Settle the session's language before the page writes a word (called by ``ui.widgets.page``)."""
    _settle()
    st.session_state[PICKER] = st.session_state[KEY]


def _settle() -> None:
    asked = st.query_params.get(KEY)
    if asked is not None and asked != st.session_state.get(KEY):
        if asked in i18n.languages():
            st.session_state[KEY] = asked
        elif st.session_state.get(KEY) != i18n.PSEUDO:
            st.session_state[KEY] = i18n.SOURCE
            st.session_state[_UNKNOWN] = asked
    elif KEY not in st.session_state:
        st.session_state[KEY] = from_browser(st.context.locale)


def _picked() -> None:
    # The address bar too: the next run reads a link's lang first, and it must be the one just picked.
    st.session_state[KEY] = st.query_params[KEY] = st.session_state[PICKER]


def picker() -> None:
    """The sidebar's language choice, each language named in itself."""
    options = list(i18n.languages())
    if st.session_state[KEY] not in options:  # the tests' pseudo-language
        options.append(st.session_state[KEY])
    st.selectbox("🌐 " + _("Language"), options, key=PICKER, format_func=i18n.language_name, on_change=_picked)
    unknown = st.session_state.pop(_UNKNOWN, None)
    if unknown is not None:
        st.caption(_("The link asked for a language this app does not have ({asked}), so it opens in English.")
                   .format(asked=text.quoted(unknown[:20])))
