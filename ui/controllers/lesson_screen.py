"""One lesson view on one projector screen: its numbers as cards, its formulas (general, then with numbers), its
chart and its data. The lessons page's steps and answers are drawn from these."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from metrics import registry
from ui.controllers import lessons as engine
from ui.widgets import chart, delta_colour

SMALL = r"\small "


def fit_a_projector() -> None:
    # A projector needs the width more than the menu; the sidebar stays one click away.
    st.set_page_config(initial_sidebar_state="collapsed")
    # Less empty space above the title, so a step's chart and its Play button fit a 1280x720 projector.
    st.html("<style>[data-testid='stMainBlockContainer'] {padding-top: 2rem}</style>")


def cards(values: dict, keys, k=None, deltas: dict | None = None) -> None:
    shown = [key for key in keys if key in values]
    for column, key in zip(st.columns(max(len(shown), 1)), shown, strict=False):
        value, delta = engine.card_text(values[key], (deltas or {}).get(key))
        colour = delta_colour(registry.BY_KEY.get(key), (deltas or {}).get(key), values[key])
        column.metric(engine.label(key, k), value, delta=delta, border=True, delta_color=colour)


def general_formulas(general: dict[str, str], keys) -> None:
    """The general formula of each of ``keys``, each formula once: what a question asks before its answer."""
    for formula in dict.fromkeys(general[key] for key in keys if key in general):
        st.latex(SMALL + engine.stacked(formula))


def formulas(view: engine.View, keys, previous: dict[str, str] | None) -> None:
    """General formula, then the one with numbers: numbers changed since ``previous`` in red. A general formula
    the key before showed (one metric of two models) is not repeated."""
    shown = None
    for key in keys:
        if key not in view.general:
            continue
        if view.general[key] != shown:
            st.latex(SMALL + engine.stacked(view.general[key]))
            shown = view.general[key]
        if key in view.substituted:
            st.latex(SMALL + engine.highlight(view.substituted[key], (previous or {}).get(key)))


def data_table(view: engine.View) -> None:
    """The step's data, so each number the text states can be counted by hand."""
    if view.left_out:
        st.warning(view.left_out, icon="👤")
    if view.data is not None:
        st.dataframe(engine.data_for_reader(view.data), hide_index=True, width="stretch", placeholder="—")
        st.caption(view.data_caption)


def show_view(view: engine.View, keys, previous, chart_key: str, deltas=None,
              before_cards: Callable[[], None] | None = None) -> None:
    """Numbers and formulas on the left, the chart on the right: one projector screen."""
    left, right = st.columns(2)
    with left:
        if before_cards:
            before_cards()
        cards(view.values, keys, view.k, deltas)
        formulas(view, keys, previous)
    with right:
        chart(view.figure, key=chart_key)
        data_table(view)
