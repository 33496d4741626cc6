"""Where the Compare page's two models come from: a synthetic pair with a known true difference (simulated once for
everyone who picks the same settings), the reader's files, or the pair the protocol lab handed over; and the users
a model recommends nothing to. Every sentence comes from content/pages/compare.py."""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd
import streamlit as st

from content import numbers, text
from content.i18n import _
from content.pages import compare as words
from content.pages import protocols as lab_words
from content.your_data import MAX_ROWS, error_message
from ui.handoff import COMPARE_PAIR
from ui.integer_box import integer_box
from ui.uploads import file_input
from ui.widgets import choice
from whole_logs import beyond_accuracy, readers, significance
from whole_logs.synthetic_pair import TUNED_DELTAS, experiment

SAMPLE_SIZES = [50, 100, 200, 500, 1000, 2000, 5000, 20_000]
FILES = "compare_files"  # the session key of the last files that could be read
FILES_ERROR = "compare_files_error"


class Synthetic(NamedTuple):
    """The settings that name a synthetic pair: what is computed from it is cached by them."""

    true_delta: float
    seed: int
    users: int


class Models(NamedTuple):
    """Two models' recommendations, the ground truth, the items' categories if known, and where they come from."""

    recommendations_a: pd.DataFrame
    recommendations_b: pd.DataFrame
    ground_truth: pd.DataFrame
    categories: pd.Series | None
    source: str
    synthetic: Synthetic | None = None


# cache_resource: a hit hands back the same frames (never modified: sample() copies) instead of unpickling
# up to 850,000 rows on every rerun.
@st.cache_resource(max_entries=16, show_spinner=False)
def first_users(true_delta: float, seed: int, users: int):
    """The experiment's users of the 20,000-user population: the same for every visitor who picks
    these settings, so it is cached for everyone."""
    return experiment(true_delta, users, seed=seed)


def chosen() -> Models:
    """The radio of sources and the chosen source's inputs; the page stops here until the reader's files can be
    read."""
    handed = st.session_state.get(COMPARE_PAIR)  # a pair the protocol lab handed over, if any
    sources = [key for key in words.SOURCES if key != words.LAB or handed is not None]
    source = choice(st.radio, _(words.DATA), sources, "compare_source", horizontal=True,
                    format_func=lambda key: _(words.SOURCES[key]))
    if source == words.LAB:
        return _handed(handed)
    if source == words.SYNTHETIC:
        return _synthetic()
    return _files(source)


def _handed(handed) -> Models:
    recs_a, recs_b, truth, origin = handed
    _lab, model_a, model_b, split, tuned = origin
    st.info(words.lab_caption(lab_words.model_name(model_a), lab_words.model_name(model_b),
                              lab_words.handed_setting(split, tuned), truth["user"].nunique()), icon="🧫")
    return Models(recs_a, recs_b, truth, None, words.LAB)


def _synthetic() -> Models:
    left, middle, right = st.columns(3)
    true_delta = left.select_slider(_(words.TRUE_DIFFERENCE), list(TUNED_DELTAS), value=0.01, key="compare_true_delta",
                                    format_func=lambda v: numbers.general(v))
    users = middle.select_slider(_(words.USERS_IN_EXPERIMENT), SAMPLE_SIZES, value=1000, key="compare_users",
                                 format_func=numbers.integer)
    with right:
        seed = integer_box(_(words.SEED), min_value=0, max_value=2**31 - 1, value=0, key="compare_seed")
    with st.spinner(_(words.SIMULATING)):
        pair = first_users(true_delta, int(seed), users)
    st.caption(words.synthetic_caption(pair.true_delta, users))
    return Models(*pair.sample(users), pair.categories, words.SYNTHETIC, Synthetic(true_delta, int(seed), users))


def _read(upload, kind: str) -> pd.DataFrame:
    return readers.read_table(upload.getvalue(), kind, filename=upload.name, max_rows=MAX_ROWS)


def _files(source: str) -> Models:
    """The four file inputs; the last files that could be read are kept, and a file that cannot is named."""
    st.caption(words.files_caption(MAX_ROWS))
    cells = st.columns(4)
    uploads = {}
    for cell, (name, label) in zip(cells, (("a", words.MODEL_A), ("b", words.MODEL_B), ("truth", words.GROUND_TRUTH))):
        with cell:
            uploads[name] = file_input(_(label), f"compare_upload_{name}")
    with cells[3]:
        category_file = file_input(_(words.CATEGORIES), "compare_upload_categories")
    if all(uploads.values()):
        try:
            st.session_state[FILES] = (
                _read(uploads["a"], "recommendations"), _read(uploads["b"], "recommendations"),
                _read(uploads["truth"], "ground_truth"),
                None if category_file is None else beyond_accuracy.item_categories(
                    _read(category_file, "item_categories")))
            st.session_state[FILES_ERROR] = None
        except ValueError as error:
            st.session_state[FILES_ERROR] = error  # said in the language of each rerun
    if st.session_state.get(FILES_ERROR):
        st.error(words.file_error(text.markdown(error_message(st.session_state[FILES_ERROR])),
                                  FILES in st.session_state))
    if FILES not in st.session_state:
        st.info(_(words.UPLOAD_THREE))
        st.stop()
    return Models(*st.session_state[FILES], source)


def warn_of_users_without_recommendations(models: Models) -> None:
    """A model that recommends nothing to some users of the ground truth scores 0 for them: said, per model."""
    truth = models.ground_truth
    for model, missing in significance.users_without_recommendations(models.recommendations_a,
                                                                     models.recommendations_b, truth).items():
        if missing:
            st.warning(words.missing_users(model, missing, truth["user"].nunique()))
