"""Streamlit pieces every page shares: page frame, table editors, bound controls, metric cards."""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd
import streamlit as st

from metrics.registry import BY_KEY, Metric
from metrics.seed_examples import BY_KEY as EXAMPLES
from ui import formulas, tables
from ui.navigation import grouped
from ui.state import init_state


# Less empty space above the title, so the inputs and results of a page fit a 1280x720 projector;
# KaTeX shrinks on a phone so that formulas (broken over lines by ui.formulas) fit 390 px.
PAGE_CSS = """
[data-testid="stMainBlockContainer"] { padding-top: 2rem; padding-bottom: 3rem; }
.katex-display { padding: 0.45em 0.2em; margin: 0.2em 0; }
.katex-display > .katex { font-size: 1.1em; }
@media (max-width: 640px) { .katex-display > .katex { font-size: 1em; } }
"""


SCROLL_TO_TOP = """<script>
for (const delay of [0, 100, 400]) setTimeout(() => {
  for (const el of [document.scrollingElement, ...document.querySelectorAll('[data-testid="stMain"], [data-testid="stAppViewContainer"], section.main')]) {
    if (el && el.scrollTop) el.scrollTop = 0;
  }
}, delay);
</script>"""


def open_at_top(path: str) -> None:
    """Switch to another page and show it from its top (its banner and title in view)."""
    st.session_state["_scroll_to_top"] = True
    st.switch_page(path)


def page(title: str, icon: str, idea: str) -> None:
    """Page config, the shared state, the title and the one-paragraph idea."""
    st.set_page_config(page_title=f"{title} · RecEval Lab", page_icon=icon, layout="wide")
    st.html(f"<style>{PAGE_CSS}</style>")
    if st.session_state.pop("_scroll_to_top", False):
        # st.switch_page keeps the scroll position of the page it leaves: open the new one at its top.
        st.html(SCROLL_TO_TOP, unsafe_allow_javascript=True)
    init_state()
    with st.sidebar:
        st.markdown("### RecEval Lab")
        for group, pages in grouped():
            st.caption(group)
            for entry in pages:
                st.page_link(entry.path, label=entry.label, icon=entry.icon)
    st.title(f"{icon} {title}")
    st.markdown(idea)


ROW_HEIGHT = 35  # pixels, Streamlit's default data-editor row


def table_editor(name: str, column_config: dict, *, normalize: Callable = lambda t: t,
                 num_rows: str = "dynamic", max_rows: int = 15) -> pd.DataFrame:
    """An editor over the scenario table ``name``; returns the table as the user has it now.

    Every edit is committed to the scenario (normalised, e.g. re-sorted by rank) and the editor
    restarts from it, so the table survives page switches and presets replace it cleanly.
    """
    key = f"{name}_editor_{st.session_state.get(f'{name}_version', 0)}"
    if key not in st.session_state:
        st.session_state[f"{name}_base"] = st.session_state[name]
    base = st.session_state[f"{name}_base"]
    # Tall enough to show every row and the empty "add" row (up to max_rows), so a typed row stays in view.
    height = (min(len(base), max_rows) + 2) * ROW_HEIGHT + 3
    edited = st.data_editor(
        base, key=key, column_config=column_config, num_rows=num_rows, hide_index=True,
        width="stretch", height=height, on_change=_commit, args=(name, key, normalize),
    )
    st.session_state[name] = edited
    return edited


def _commit(name: str, key: str, normalize: Callable) -> None:
    edited = tables.apply_edits(st.session_state[f"{name}_base"], st.session_state.get(key))
    st.session_state[name] = normalize(edited)
    st.session_state[f"{name}_version"] = st.session_state.get(f"{name}_version", 0) + 1


def bound(widget: Callable, label: str, state_key: str, **kwargs):
    """A widget whose value lives in ``st.session_state[state_key]``, which outlives the page."""
    widget_key = f"_{state_key}_widget"
    st.session_state[widget_key] = st.session_state[state_key]
    return widget(label, key=widget_key, on_change=_copy, args=(widget_key, state_key), **kwargs)


def _copy(source: str, target: str) -> None:
    st.session_state[target] = st.session_state[source]


def show_problems(problems: list[str]) -> None:
    """One warning listing every row that was left out, and why."""
    if problems:
        st.warning("**Some rows are left out of the numbers below:**\n\n" + "\n".join(f"- {p}" for p in problems), icon="⚠️")


def _format(value: float) -> str:
    return "undefined" if value is None or math.isnan(value) else f"{value:.4f}"


def metric_cards(values: dict[str, float], *, group: str, k: int | None = None, columns: int = 4,
                 help_text: dict[str, str] | None = None) -> None:
    """One card per metric (label from the registry), filled row by row in the order given,
    with the change since the last change of any of them.

    ``values`` maps registry keys (or free labels) to numbers. The delta compares with the
    values shown before the most recent change (an edit, K, an option), and each card's help
    says which value that was, so a what-if edit shows its effect and a step of K reads right.
    """
    labels = {key: _label(key, k) for key in values}
    snapshot_key, previous_key = f"_cards_{group}", f"_cards_{group}_previous"
    if st.session_state.get(snapshot_key, {}).get("values") != values:
        st.session_state[previous_key] = st.session_state.get(snapshot_key, {})
        st.session_state[snapshot_key] = {"values": dict(values), "labels": labels}
    previous = st.session_state.get(previous_key, {})
    before_values, before_labels = previous.get("values", {}), previous.get("labels", {})
    keys = list(values)
    for row_start in range(0, len(keys), columns):
        cells = st.columns(columns)
        for cell, key in zip(cells, keys[row_start:row_start + columns]):
            value, metric, before = values[key], BY_KEY.get(key), before_values.get(key)
            delta = None
            help_lines = [(help_text or {}).get(key) or (metric.meaning if metric else "")]
            if before is not None and not math.isnan(before) and not math.isnan(value) and before != value:
                delta = f"{value - before:+.4f}"
                help_lines.append(f"The change below compares with the value shown before your last change: "
                                  f"{before_labels.get(key, labels[key])} = {before:.4f}.")
            with cell:
                st.metric(
                    labels[key], _format(value), delta=delta, border=True,
                    delta_color="normal" if metric is None or metric.higher_is_better else "inverse",
                    help="\n\n".join(line for line in help_lines if line) or None,
                )


def _label(key: str, k: int | None) -> str:
    metric: Metric | None = BY_KEY.get(key)
    return metric.display_label(k if metric.needs_k else None) if metric else key


def formula(latex: str, substituted: str | None = None) -> None:
    """The general formula, and beside it the same formula with the current numbers."""
    left, right = st.columns(2)
    with left:
        st.caption("Formula")
        st.latex(formulas.general(latex))
    if substituted:
        with right:
            st.caption("With your numbers")
            st.latex(substituted)


def pitfalls(*lines: str) -> None:
    with st.expander("Pitfalls", expanded=False):
        st.markdown("\n".join(f"- {line}" for line in lines))


def loaded_example_banner(topic: str) -> None:
    """Say which seed example is loaded, with the document's printed value next to the exact one."""
    key = st.session_state.get("loaded_example")
    example = EXAMPLES.get(key) if key else None
    if example is None or example.topic != topic:
        return
    rows = [{"value": v.label, "document prints": v.printed or "—", "exact": f"{v.exact:.5f}"} for v in example.values]
    with st.container(border=True):
        st.markdown(f"**Loaded example:** {example.title}  \n_{example.document}_")
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        for value in example.values:
            if value.note:
                st.info(f"**{value.label}:** {value.note}")
        if example.note:
            st.caption(example.note)
