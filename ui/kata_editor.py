"""The code editor of Write it yourself: Ace, through streamlit-code-editor, whose JavaScript ships in
its wheel (no CDN). Syntax highlighting, line numbers, Tab and auto-indent come from Ace; its keyboard
accessibility mode keeps a keyboard user from being trapped (Enter goes in, Esc then Tab goes on).

The editor sends its text when it loses focus or on Ctrl+Enter; each sending has a fresh id, so the
page saves a text once, exactly as sent. A Reset or another problem mounts a fresh editor (a new key):
the component reads its ``code`` argument only when it mounts, so a rerun never overwrites typing.
"""

from __future__ import annotations

import streamlit as st
from code_editor import code_editor

from content.i18n import _
from content.pages import kata_tools as words
from ui.widgets import FOCUS_COLOUR

OPTIONS = {
    "showLineNumbers": True,
    "enableKeyboardAccessibility": True,  # Tab reaches the editor, Enter enters it, Esc leaves it
    "useSoftTabs": True,  # Tab indents with four spaces, as the statement asks
    "tabSize": 4,
    "wrap": False,
    # Ace's own scrollbars, not the browser's: Chromium makes a native scroll area a Tab stop of its own, so on a
    # phone, where the code is wider than the editor, Esc then Tab stopped on the editor's hidden scrollbar.
    "customScrollbar": True,
    "fontFamily": '"DejaVu Sans Mono", Menlo, Consolas, monospace',
}
# Ace's own themes, chosen here by Streamlit's theme: the component's two themes @import a font from
# Google's servers, and the page must not leave the machine.
THEMES = {"light": "chrome", "dark": "tomorrow_night"}
# No completion pop-up: with it, Enter after "hits += 1" inserted a snippet instead of a new line.
PROPS = {"enableLiveAutocompletion": False, "enableBasicAutocompletion": False, "enableSnippets": False,
         "scrollMargin": [0, 0, 0, 0]}
# The component binds Esc to a command of its own (leaving its snippet editor), which swallowed the Esc
# that lets a keyboard user out of Ace: that command moves to an unused chord.
KEYBINDINGS = {"commands": [{"name": "exitSession", "bindkey": {"win": "Ctrl-Alt-Shift-F12",
                                                                 "mac": "Command-Alt-Shift-F12"}}]}
# Ace marks the part a keyboard user is on (gutter or text, before Enter) with a light-blue inset line of 2.9:1 on
# white, and shows nothing but the caret once they type: the page's focus ring (ui.widgets.PAGE_CSS) instead, inside
# the editor's frame (the component's globalCSS is the only way in). While typing it is drawn over the editor
# (::after): an outline of the editor itself is hidden under its gutter and text, which are positioned above it.
EDITOR_CSS = (f".ace_editor .ace_keyboard-focus:focus {{ box-shadow: none; outline: 2px solid {FOCUS_COLOUR} !important;"
              f" outline-offset: -2px; }}\n"
              f".ace_editor.ace_focus::after {{ content: ''; position: absolute; inset: 0; z-index: 10; pointer-events: none;"
              f" outline: 2px solid {FOCUS_COLOUR}; outline-offset: -2px; }}")
LINES = [16, 32]  # the editor grows with the code between these many lines
_GENERATION = "_kata_editor_generation"
CURRENT_KEY = "_kata_editor_key"
"""session_state entry naming the editor shown on this run (tests type into it by this key)."""


def _key(problem_key: str) -> str:
    return f"kata_editor_{problem_key}_{st.session_state.get(_GENERATION, 0)}"


def _theme() -> str:
    """The server's theme if it sets one, else the browser's (which reports "light" before it has drawn the
    page, so a server-set dark theme is not trusted to it)."""
    chosen = st.get_option("theme.base") or getattr(st.context.theme, "type", None)
    return "dark" if chosen == "dark" else "light"


def remount() -> None:
    """Show a fresh editor on the next run (after Reset, or code loaded from elsewhere)."""
    st.session_state[_GENERATION] = st.session_state.get(_GENERATION, 0) + 1


def code_box(problem_key: str, code: str, limit: int) -> tuple[str | None, bool]:
    """Show the editor holding ``code``: (the text it sent since the last run or None, whether the
    editor holds a text over ``limit`` characters, which is neither saved nor run)."""
    st.markdown(_(words.EDITOR_LABEL))
    key = _key(problem_key)
    st.session_state[CURRENT_KEY] = key
    response = code_editor(code, lang="python", key=key, response_mode="blur", height=LINES, options=OPTIONS,
                           keybindings=KEYBINDINGS, component_props={"globalCSS": EDITOR_CSS},
                           props={**PROPS, "placeholder": _(words.EDITOR_PLACEHOLDER), "theme": THEMES[_theme()]})
    st.caption(_(words.KEYBOARD))
    sent_id = response.get("id") if isinstance(response, dict) else None
    text = response.get("text") if isinstance(response, dict) else None
    sent = None
    if sent_id and isinstance(text, str) and st.session_state.get(f"_seen_{key}") != sent_id:
        st.session_state[f"_seen_{key}"] = sent_id
        st.session_state[f"_too_long_{key}"] = len(text) if len(text) > limit else None
        sent = None if len(text) > limit else text
    too_long = st.session_state.get(f"_too_long_{key}")
    if too_long:
        st.error(words.too_long(too_long, limit), icon="✂️")
    return sent, bool(too_long)
