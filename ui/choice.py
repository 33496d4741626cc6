"""``choice``: a selectbox or radio whose state only ever holds one of its options, and the note it
shows when a browser or an old state sent something else. Its own module so that the practice switch
(``ui.practice_mode``) and the page frame (``ui.widgets``, which hooks the switch) can both use it."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from content import numbers, text
from content.i18n import _
from ui import language


def choice(widget: Callable, label: str, options, key: str, *, format_func: Callable = str,
           on_change: Callable | None = None, args: tuple = (), index: int | None = 0, **kwargs):
    """A selectbox or radio over ``st.session_state[key]`` that only ever holds one of ``options``.

    A value it cannot show (a client state naming no option, a stored choice it never offered) is
    replaced by the last good choice, or the default, and a note under it says so, instead of an
    exception or a silent jump; a good choice the options no longer hold (an item deleted, a K
    removed) quietly becomes the default, as it is no one's mistake. The callback runs only for a
    real option. When the label of the chosen option changes (it says the item's rank, and the item
    moved), the browser is sent the new label: it would otherwise send the old one back, which names
    no option, on the next press.
    """
    options = list(options)
    format_func = language.in_current_language(format_func)
    good_key, label_key = f"_{key}_good", f"_{key}_label"
    allowed = options + ([None] if index is None else [])
    default = None if index is None or not options else options[min(index, len(options) - 1)]
    note = None
    if key in st.session_state and not _is_option(st.session_state[key], allowed):
        stored, last_good = st.session_state[key], st.session_state.get(good_key)
        if _is_option(stored, [last_good]):  # it was a choice on the last run
            fallback = default
        else:
            fallback = last_good if _is_option(last_good, allowed) else default
            shown = _("no choice") if fallback is None else text.markdown(_label_of(format_func, fallback))
            note = not_a_choice(stored, label, shown)
        st.session_state[key] = fallback
    value = st.session_state.get(key, default)
    shown_label = _label_of(format_func, value)
    if key not in st.session_state or st.session_state.get(label_key, shown_label) != shown_label:
        st.session_state[key] = value  # (re)sends the choice, with its label as it reads now
    st.session_state[label_key] = shown_label
    if on_change is not None:  # inside a form a widget may have no callback at all
        kwargs.update(on_change=_checked_callback, args=(key, tuple(allowed), on_change, tuple(args)))
    picked = widget(label, options, key=key, format_func=format_func, **kwargs)
    st.session_state[good_key] = picked
    if note:
        st.info(note, icon="↕️")
    return picked


def not_a_choice(value, label: str, shown: str) -> str:
    return _("{value} is not one of the choices for {label}, so it stays {shown}.").format(
        value=text.markdown(as_shown(value)), label=label, shown=shown)


def as_shown(value):
    """A value a note quotes: a float in the reader's notation (2,5 in Turkish), anything else as it is."""
    if isinstance(value, float) and not isinstance(value, bool):
        return str(value).replace(".", numbers.decimal_mark())
    return value


def _is_option(value, options: list) -> bool:
    return not isinstance(value, bool) and any(value is option or (not isinstance(option, bool) and value == option)
                                               for option in options)


def _label_of(format_func: Callable, value) -> str:
    try:
        return str(format_func(value)) if value is not None else ""
    except Exception:  # noqa: BLE001 (a label for a value that is no option, only for the note)
        return str(value)


def _checked_callback(key: str, options: tuple, callback: Callable | None, args: tuple) -> None:
    """Run ``callback`` only when the widget now holds one of the options it was drawn with."""
    if callback is not None and _is_option(st.session_state.get(key), list(options)):
        callback(*args)
