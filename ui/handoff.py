"""Logs handed from one page to another through the session: the log Your data shows, and the pair Compare
compares. The protocol lab hands its models' recommendations over with these, then switches page.

Each handed log keeps where it came from as keys (``origin``), not words: the receiving page names its source
in the reader's language of each run.
"""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd
import streamlit as st

from content.pages.compare import LAB as LAB_SOURCE
from content.pages.your_data import LAB as YOUR_DATA_LAB_SOURCE
from ui.controllers import your_data as yd
from ui.navigation import TOPIC_PAGES

COMPARE_PAIR = "compare_lab"
"""The session key of the pair Compare receives."""


class Pair(NamedTuple):
    """Two models' recommendations on the same users and the ground truth they are scored against."""

    recommendations_a: pd.DataFrame
    recommendations_b: pd.DataFrame
    ground_truth: pd.DataFrame
    origin: tuple
    """``("lab", model A, model B, split, tuned)``: what Compare names as the pair's source."""


def replace_log(log: yd.Log, files: tuple | None = None) -> None:
    """Make ``log`` the one Your data evaluates (``files``: what identifies the uploads it was read from)."""
    st.session_state["yd_log"] = log
    st.session_state["yd_log_files"] = files
    st.session_state["yd_log_version"] = st.session_state.get("yd_log_version", 0) + 1
    st.session_state["yd_error"] = None
    st.session_state["yd_opened"] = None


def open_in_your_data(log: yd.Log) -> None:
    """Your data shows ``log`` with its source named, not the form of another source above it."""
    replace_log(log)
    st.session_state["yd_source"] = YOUR_DATA_LAB_SOURCE
    st.switch_page(TOPIC_PAGES["your_data"])


def open_in_compare(pair: Pair) -> None:
    """Compare shows ``pair`` with its source named; its other sources stay one click away."""
    st.session_state[COMPARE_PAIR] = pair
    st.session_state["compare_source"] = LAB_SOURCE
    st.switch_page(TOPIC_PAGES["compare"])
