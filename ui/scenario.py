"""The ranking scenario editor shared by the home page and every ranking page."""

from __future__ import annotations

import streamlit as st

from metrics.ndcg import GAINS
from metrics.registry import RankingCase
from ui import tables
from ui.widgets import bound, show_problems, table_editor

RECOMMENDED_COLUMNS = {
    # Text, so a typo reaches the app as typed and is named in a warning instead of being coerced.
    "rank": st.column_config.TextColumn("Rank", help="Type a new rank (a whole number) to move the item there.", width="small"),
    "item": st.column_config.TextColumn("Item", help="Item id; each item may appear once."),
}
GROUND_TRUTH_COLUMNS = {
    "item": st.column_config.TextColumn("Relevant item", help="Relevant items, recommended or not (like the seed's 999)."),
    "grade": st.column_config.TextColumn("Grade", help="Relevance grade: 0 = not relevant, 1 = relevant, higher = more relevant."),
}


def ranking_scenario(*, show_gain: bool = True, show_denominator: bool = False) -> tuple[RankingCase, list[str]]:
    """Editors for the recommended list and the ground truth, the K slider and the options.

    Returns the case built from the usable rows, and the problems found in the others.
    """
    left, right = st.columns([3, 2])
    with left:
        st.markdown("**Recommended list** (best first)")
        recommended = tables.parse_recommended(
            table_editor("recommended", RECOMMENDED_COLUMNS, reorder=tables.reorder_by_rank))
    with right:
        st.markdown("**Ground truth** (relevant items and their grades)")
        truth = tables.parse_ground_truth(table_editor("ground_truth", GROUND_TRUTH_COLUMNS))
    items = recommended.columns["recommended"]
    max_k = max(20, len(items))
    controls = st.columns(3)
    with controls[0]:
        k = bound(st.slider, "K (cut-off)", "k", min_value=1, max_value=max_k)
    if show_gain:
        with controls[1]:
            bound(st.radio, "Gain for graded NDCG", "gain", options=GAINS, horizontal=True,
                  format_func={"linear": "linear: rel", "exponential": "exponential: 2^rel − 1"}.get)
    if show_denominator:
        with controls[2]:
            bound(st.radio, "AP denominator", "ap_denominator", options=("min", "relevant", "hits"),
                  format_func=DENOMINATOR_LABELS.get)
    problems, notes = recommended.problems + truth.problems, []
    if not items:
        notes.append("The recommended list is empty: every metric is 0 until you add an item.")
    elif k > len(items):
        notes.append(
            f"K = {k} is larger than the list ({len(items)} items): the {k - len(items)} empty slots count as "
            f"misses, so Precision@{k} divides by {k} (as trec_eval and ranx do)."
        )
    show_problems(problems, notes)
    case = RankingCase(items, truth.columns["ground_truth"], k, st.session_state["gain"], st.session_state["ap_denominator"])
    return case, problems + notes


USER_COLUMNS = {
    "user": st.column_config.TextColumn("User"),
    "recommended": st.column_config.TextColumn("Recommended (best first)", help="Comma-separated item ids, e.g. 101, 102, 103."),
    "relevant": st.column_config.TextColumn("Relevant", help="Comma-separated relevant item ids; they need not be recommended."),
}


def users_scenario() -> tables.Parsed:
    """The editor of several users' lists (for MAP and MRR), parsed, with its problems shown."""
    users = tables.parse_users(table_editor("users", USER_COLUMNS))
    show_problems(users.problems)
    return users


DENOMINATOR_LABELS = {
    "min": "min(|Rel|, K): the seed, Recommenders map_at_k, RecBole",
    "relevant": "|Rel|: trec_eval map_cut, ranx",
    "hits": "hits in top K: torchmetrics",
}
