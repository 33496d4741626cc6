"""State and controls of the A vs B lab: list A, the editable list B, and the moves between them.

List B is a scenario table (rank, item) like the playground's, so typing a rank moves an item;
the move/swap buttons reorder that table's rows, so nothing typed in it is ever dropped. The
relevant items are a table of the lab's own (item, grade), so a what-if can change them too.
"""

from __future__ import annotations

import streamlit as st

from content import metrics as metric_texts
from metrics import whatif
from metrics.registry import BY_KEY, RankingCase
from ui.input import tables
from content.labs import BY_KEY as PRESETS
from ui.state import ground_truth_table, recommended_table, reset_editor
from content import numbers
from content.i18n import _
from content.pages import ab as words
from content.text import markdown
from ui.widgets import choice

TRUTH = "ab_ground_truth"


def _put_b(items) -> None:
    st.session_state["ab_b"] = recommended_table(items)
    reset_editor("ab_b")


def _put_truth(grades: dict) -> None:
    st.session_state[TRUTH] = ground_truth_table(grades)
    reset_editor(TRUTH)


def take_from_playground() -> None:
    """A, B, the ground truth and K from the shared scenario (the playground's tables)."""
    items = tables.parse_recommended(st.session_state["recommended"]).columns["recommended"]
    st.session_state["ab_a"] = list(items)
    _put_truth(tables.parse_ground_truth(st.session_state["ground_truth"]).columns["ground_truth"])
    st.session_state["ab_k"] = int(st.session_state["k"])
    st.session_state["ab_preset"] = None
    _put_b(items)


def init() -> None:
    """The lab starts from the playground's scenario, once per session."""
    if "ab_a" not in st.session_state:
        take_from_playground()


def load_preset(key: str) -> None:
    preset = PRESETS[key]
    st.session_state["ab_a"] = list(preset.a)
    _put_truth(dict(preset.truth))
    st.session_state["ab_k"] = preset.k
    st.session_state["ab_preset"] = key
    _put_b(preset.b)


def reset_b() -> None:
    _put_b(st.session_state["ab_a"])


def _name(value) -> str:
    """An item cell as the parsed list names it (blank for an empty cell)."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _rows_in_rank_order():
    table = tables.order_by_rank(st.session_state["ab_b"])
    return table, [_name(item) for item in table["item"]]


def _reorder(new_positions: list[int]) -> None:
    table, _ = _rows_in_rank_order()
    moved = table.iloc[new_positions].reset_index(drop=True)
    moved["rank"] = [str(r) for r in range(1, len(moved) + 1)]  # ranks are text, as the editor's Rank column
    st.session_state["ab_b"] = moved
    reset_editor("ab_b")


def _apply(operation) -> None:
    """Apply a move on row positions to the B table; an item no longer in B does nothing."""
    _, names = _rows_in_rank_order()
    item = st.session_state.get("_ab_item")
    if item not in names:
        return
    _reorder(operation(list(range(len(names))), names.index(item), names))


def move_by(step: int) -> None:
    _apply(lambda rows, row, _: whatif.move_by(rows, row, step))


def move_to() -> None:
    _apply(lambda rows, row, _: whatif.move(rows, row, int(st.session_state["_ab_to_rank"])))


def swap() -> None:
    other = st.session_state.get("_ab_swap")
    _apply(lambda rows, row, names: whatif.swap(rows, row, names.index(other)) if other in names else rows)


def case_a(truth: dict) -> RankingCase:
    """List A against ``truth``, the relevant items as the lab's table has them now."""
    return RankingCase(st.session_state["ab_a"], truth, int(st.session_state["ab_k"]))


def move_controls(items: list[str]) -> None:
    """Pick an item of B, then move it up, down, to a typed rank, or swap it with another."""
    if not items:
        return
    rank = {item: r for r, item in enumerate(items, start=1)}
    labels = {item: words.ranked_item(r, item) for item, r in rank.items()}  # worded once, in the reader's language
    # The labels say each item's rank, so after a move choice() sends the moved item's new label.
    choice(st.selectbox, _(words.ITEM_TO_MOVE), items, "_ab_item", format_func=labels.__getitem__)
    up, down = st.columns(2)
    up.button(_(words.UP), on_click=move_by, args=(-1,), width="stretch", key="_ab_up")
    down.button(_(words.DOWN), on_click=move_by, args=(1,), width="stretch", key="_ab_down")
    to_rank, go = st.columns([2, 1], vertical_alignment="bottom")
    st.session_state.setdefault("_ab_to_rank", 1)
    to_rank.number_input(_(words.MOVE_TO_RANK), min_value=1, max_value=len(items), step=1, key="_ab_to_rank")
    go.button(_(words.MOVE), on_click=move_to, width="stretch", key="_ab_move")
    other, go_swap = st.columns([2, 1], vertical_alignment="bottom")
    others = [i for i in items if i != st.session_state["_ab_item"]]
    if others:
        choice(other.selectbox, _(words.SWAP_WITH), others, "_ab_swap", format_func=labels.__getitem__)
        go_swap.button(_(words.SWAP), on_click=swap, width="stretch", key="_ab_do_swap")


def difference_cards(table, k: int, columns: int = 4) -> None:
    """One card per metric: B's value, and the difference from A as the delta."""
    cells = st.columns(columns)
    for index, row in enumerate(table.itertuples()):
        metric = BY_KEY[row.key]
        delta = None if abs(row.difference) < 5e-13 else words.delta(row.difference)
        with cells[index % columns]:
            st.metric(metric_texts.label(row.key, k), numbers.number(row.B, 4), delta=delta,
                      border=True, help=words.card_help(row.A, _(metric.meaning)))


def truth_caption(truth: dict) -> str:
    return words.truth_caption([words.graded_item(markdown(item), grade) for item, grade in truth.items() if grade > 0])
