"""A pinned baseline for the metric cards: deltas since the last edit, or against a pinned scenario.

``metric_cards`` asks :func:`compared_with` for the values the deltas compare with and draws
:func:`switch` under the cards. Pins live in ``st.session_state["pinned"]``
(one per card group), so a pin survives switching pages.
"""

from __future__ import annotations

import streamlit as st

from content.i18n import _

STATE = "pinned"


def pinned(group: str) -> dict | None:
    """The values pinned for this card group, or None."""
    return st.session_state.get(STATE, {}).get(group)


def pin(group: str, values: dict) -> None:
    st.session_state.setdefault(STATE, {})[group] = dict(values)


def unpin(group: str) -> None:
    st.session_state.get(STATE, {}).pop(group, None)


def _toggled(group: str, widget_key: str, values: dict) -> None:
    if st.session_state[widget_key]:
        pin(group, values)
    else:
        unpin(group)


def compared_with(group: str, values: dict, previous: dict) -> dict:
    """What a card group's deltas compare with: ``previous`` (the values shown before the last
    edit), or the pinned values while a pin is set."""
    return pinned(group) or previous


def switch(group: str, values: dict) -> None:
    """The pin switch of a card group, drawn under its cards: above them it pushed the home page's
    last row of cards off a 1280x720 projector."""
    widget_key = f"_pin_{group}"
    # The switch shows the stored pin, so it is right after a page switch or a pin made elsewhere.
    st.session_state[widget_key] = pinned(group) is not None
    st.toggle(_("📌 Pin these numbers"), key=widget_key, on_change=_toggled, args=(group, widget_key, dict(values)),
              help=_("Off: each card's delta is the change since your last edit. On: deltas compare with the "
                     "numbers pinned now, until you unpin."))
