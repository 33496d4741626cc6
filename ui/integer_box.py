"""A whole number typed in the reader's notation, read by ``content.numbers`` rather than by the browser.

Streamlit's number box is an ``<input type=number>`` read with ``parseInt``: a Turkish reader's "1.000"
(one thousand) became 1, silently. Here the text is read by ``content.numbers.parse``, which refuses what cannot
mean one number ("1.000" is one thousand in Turkish and one in English) and says why; what was typed stays in
the box. The number itself lives in ``st.session_state[key]``, so code that sets it (a loaded example) or reads
it (a callback) keeps working as with a number box.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from streamlit.elements.lib.form_utils import is_in_form

from content import numbers
from content.i18n import _
from content import text


def _typed_key(key: str) -> str:
    return f"_{key}_typed"


def _read(typed: str, low: int, high: int) -> tuple[int | None, str | None]:
    """The whole number typed, or None and why not (in the reader's language)."""
    try:
        number = numbers.parse(typed)
    except numbers.NumberError as refused:
        return None, numbers.parse_error_message(refused)
    if not float(number).is_integer():
        return None, _("{typed} is not a whole number.").format(typed=text.markdown(typed.strip()))
    if not low <= number <= high:
        return None, _("{typed} is outside {low} to {high}.").format(
            typed=text.markdown(typed.strip()), low=numbers.integer(low), high=numbers.integer(high))
    return int(number), None


def _changed(key: str, low: int, high: int, on_change: Callable | None, args: tuple) -> None:
    number, _why = _read(st.session_state[_typed_key(key)], low, high)
    if number is not None and number != st.session_state.get(key):
        st.session_state[key] = st.session_state[_synced_key(key)] = number
        if on_change is not None:
            on_change(*args)


def _synced_key(key: str) -> str:
    """The number the box's text stood for when last drawn: if the state differs, it was set elsewhere."""
    return f"_{key}_synced"


def integer_box(label: str, *, key: str, min_value: int, max_value: int, value: int | None = None,
                on_change: Callable | None = None, args: tuple = (), help: str | None = None) -> int:
    """A text box for a whole number from ``min_value`` to ``max_value``; returns the number in use.

    ``on_change(*args)`` runs after a new number is stored in ``st.session_state[key]`` (not in a form).
    """
    st.session_state.setdefault(key, min_value if value is None else value)
    current = st.session_state[key]
    typed_key = _typed_key(key)
    if typed_key not in st.session_state or st.session_state.get(_synced_key(key)) != current:
        st.session_state[typed_key] = str(current)  # new, or set elsewhere: show it (ungrouped, so it reads back)
    st.session_state[_synced_key(key)] = current
    callback = {} if on_change is None and _in_form() else {
        "on_change": _changed, "args": (key, min_value, max_value, on_change, args)}
    st.text_input(label, key=typed_key, help=help, **callback)
    number, why = _read(st.session_state[typed_key], min_value, max_value)
    if number is None:
        st.warning(_("{label}: {why} Until then, {value} is used.").format(
            label=label, why=why, value=numbers.integer(current)), icon="🔢")
        return current
    st.session_state[key] = st.session_state[_synced_key(key)] = number
    return number


def _in_form() -> bool:
    """Inside ``st.form`` a widget takes no callback (Streamlit refuses one): the form's button submits."""
    return is_in_form(st._main)
