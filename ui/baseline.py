"""A pinned baseline for the metric cards: deltas since the last edit, or against a pinned scenario.

``metric_cards`` makes one call, :func:`compared_with`, which shows the pin switch above the cards
and returns the values the deltas compare with. Pins live in ``st.session_state["pinned"]``
(one per card group), so a pin survives switching pages.
"""

from __future__ import annotations

import streamlit as st

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
    """Show the pin switch for a card group; return what its deltas compare with.

    ``previous`` is the values shown before the last edit; while a pin is set, the pinned values
    are returned instead.
    """
    widget_key = f"_pin_{group}"
    # The switch shows the stored pin, so it is right after a page switch or a pin made elsewhere.
    st.session_state[widget_key] = pinned(group) is not None
    st.toggle("📌 Pin these numbers: deltas compare with them until you unpin", key=widget_key,
              on_change=_toggled, args=(group, widget_key, dict(values)),
              help="Off: each card's delta is the change since your last edit. On: the change since you pinned.")
    return pinned(group) or previous
