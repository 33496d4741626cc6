"""The ranking scenario editor shared by the home page and every ranking page."""

from __future__ import annotations

from typing import NamedTuple

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from content import numbers
from content.i18n import N_, _, ngettext
from metrics.ndcg import GAINS
from metrics.registry import RankingCase
from ui.input import tables
from content import text
from ui.widgets import bound, show_problems, table_editor, usable

def recommended_columns() -> dict:
    """The recommended list's editor columns, labelled in the reader's language (the names stay)."""
    # Text, so a typo reaches the app as typed and is named in a warning instead of being coerced.
    return {
        "rank": st.column_config.TextColumn(_("Rank"), help=_("Type a new rank (a whole number) to move the item there."),
                                            width="small"),
        "item": st.column_config.TextColumn(_("Item"), help=_("Item id; each item may appear once.")),
    }


def ground_truth_columns() -> dict:
    """The ground truth's editor columns, labelled in the reader's language."""
    return {
        "item": st.column_config.TextColumn(
            _("Item"), help=_("Relevant items, recommended or not (like the NumPy tutorial's 999).")),
        "grade": st.column_config.TextColumn(
            _("Grade"), help=_("Relevance grade: 0 = not relevant, 1 = relevant, higher = more relevant.")),
    }


# Rows an editor shows before it scrolls, its empty "add" row counted: the seed's ten items and the add row,
# and the inputs and headline cards still fit a 1280x720 screen.
COMPACT_ROWS = 11


class RankingScenario(NamedTuple):
    case: RankingCase
    problems: list[str]
    results: DeltaGenerator  # beside the editors: the page puts its headline cards here


def ranking_scenario(*, show_gain: bool = True, show_denominator: bool = False) -> RankingScenario:
    """Compact editors for the recommended list and the ground truth, K and the options, with
    a results column beside them, so a 1280x720 screen shows the inputs and the headline cards at once.

    Returns the case built from the usable rows, the problems found in the others, and the
    results column.
    """
    inputs, results = st.columns([1, 1], gap="medium")
    with inputs:
        left, right = st.columns(2, gap="small")
        with left:
            st.markdown(_("**Recommended** (best first)"))
            recommended = tables.parse_recommended(
                table_editor("recommended", recommended_columns(), reorder=tables.reorder_by_rank,
                             max_rows=COMPACT_ROWS))
        with right:
            st.markdown(_("**Ground truth** (grades)"))
            truth = tables.parse_ground_truth(table_editor("ground_truth", ground_truth_columns(), max_rows=COMPACT_ROWS))
        items = recommended.columns["recommended"]
        problems = recommended.problems + truth.problems
        show_problems(problems)  # right under the editors, where the eye is while typing: above the fold at 720 px
        k_note = k_control(max(20, len(items)))
        if k_note:  # already escaped where it quotes a value
            st.info(k_note, icon="↕️")
        if show_gain:
            bound(st.radio, _("Gain for graded NDCG"), "gain", options=GAINS, horizontal=True, format_func=gain_label)
        if show_denominator:
            bound(st.radio, _("AP denominator"), "ap_denominator", options=("min", "relevant", "hits"),
                  format_func=denominator_label)
        k = st.session_state["k"]
        notes = []
        if not items:
            notes.append(_("The recommended list is empty: every metric is 0 until you add an item."))
        elif k > len(items):
            notes.append(ngettext(
                "K = {k} is larger than the list ({items} items): the {empty} empty slot counts as a miss, "
                "so Precision@{k} divides by {k} (as trec_eval and ranx do).",
                "K = {k} is larger than the list ({items} items): the {empty} empty slots count as misses, "
                "so Precision@{k} divides by {k} (as trec_eval and ranx do).", k - len(items),
            ).format(k=numbers.integer(k), items=numbers.integer(len(items)), empty=numbers.integer(k - len(items))))
        for note in notes:
            st.info(text.markdown(note), icon="ℹ️")
    case = RankingCase(items, truth.columns["ground_truth"], k, st.session_state["gain"], st.session_state["ap_denominator"])
    return RankingScenario(case, problems + notes, results)


def k_control(max_k: int) -> str | None:
    """K as a slider and, beside it, a number box to type it exactly; returns a note if K was lowered.

    The slider is given the stored K only when it differs from what it shows, so a rerun never
    pushes an older K back into a slider the user is still moving with the arrow keys. The
    number box is a new widget for each K (its key carries K): it never holds a stale K that it
    could send back while the slider moves.
    """
    # A stored K the controls cannot show (above a maximum that shrank with the list, or not a whole
    # number, as only a crafted client sends) is replaced, and the note says so.
    k, note = usable(st.session_state["k"], _("K (cut-off)"), {"min_value": 1, "max_value": max_k},
                     st.session_state.get("_k_good"))
    st.session_state["k"] = st.session_state["_k_good"] = k
    k = st.session_state["k"]
    if st.session_state.get("_k_widget") != k:
        st.session_state["_k_widget"] = k
    slider, number = st.columns([3, 1], gap="small", vertical_alignment="bottom")
    with slider:
        st.slider(_("K (cut-off)"), min_value=1, max_value=max_k, key="_k_widget", on_change=_set_k, args=("_k_widget",))
    with number:
        st.number_input(_("K, typed"), min_value=1, max_value=max_k, value=k, step=1, key=f"_k_number_{k}",
                        on_change=_set_k, args=(f"_k_number_{k}", k),
                        help=_("Type K exactly ({low} to {high}).").format(low=numbers.integer(1),
                                                                          high=numbers.integer(max_k)))
    return note


def _set_k(widget_key: str, made_for_k: int | None = None) -> None:
    # A number box made for an older K can still report from a browser that has not caught up
    # with the slider: only the box of the current K speaks for the user.
    if made_for_k is not None and made_for_k != st.session_state["k"]:
        return
    if st.session_state.get(widget_key) is not None:
        st.session_state["k"] = int(st.session_state[widget_key])


PHONE_COLUMNS = 320
"""Pixels an editor's columns may take together to fit a 390 px phone beside the row numbers without
scrolling sideways; on a wider screen the grid shares the rest among them."""


def user_columns() -> dict:
    """The editor columns of several users' lists, labelled in the reader's language; short labels (the
    help says the rest) in widths that fit a phone."""
    return {
        "user": st.column_config.TextColumn(_("User"), width=86),
        "recommended": st.column_config.TextColumn(_("Recommended"), width=146,
                                                   help=_("Comma-separated item ids, best first, e.g. 101, 102, 103.")),
        "relevant": st.column_config.TextColumn(_("Relevant"), width=PHONE_COLUMNS - 86 - 146,
                                                help=_("Comma-separated relevant item ids; they need not be recommended.")),
    }


def users_scenario() -> tables.Parsed:
    """The editor of several users' lists (for MAP and MRR), parsed, with its problems shown."""
    users = tables.parse_users(table_editor("users", user_columns()))
    show_problems(users.problems)
    return users


DENOMINATOR_LABELS = {
    "min": N_("min(|Rel|, K): the NumPy tutorial, Recommenders map_at_k, RecBole"),
    "relevant": N_("|Rel|: trec_eval map_cut, ranx"),
    "hits": N_("hits in top K: torchmetrics"),
}
GAIN_LABELS = {"linear": N_("linear: rel"), "exponential": N_("exponential: 2^rel − 1")}


def denominator_label(option: str) -> str:
    """An AP-denominator option as the radio shows it, in the reader's language."""
    return _(DENOMINATOR_LABELS[option]) if option in DENOMINATOR_LABELS else str(option)


def gain_label(option: str) -> str:
    """A gain option as the radio shows it, in the reader's language."""
    return _(GAIN_LABELS[option]) if option in GAIN_LABELS else str(option)
