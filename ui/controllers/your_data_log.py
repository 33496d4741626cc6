"""The log Your data evaluates: the synthetic log it opens with, where the next one comes from (the generator's
form, two uploaded files, or the protocol lab's log), the notice that the numbers shown are not those of the files
just chosen, and the problem that kept the last log out. The log shown is ``st.session_state["yd_log"]``."""

from __future__ import annotations

import streamlit as st

from content import numbers, text
from content import your_data as words_of
from content.i18n import _
from content.pages import your_data as words
from content.your_data import TIE_RULE
from ui.controllers import your_data as yd
from ui.handoff import replace_log
from ui.integer_box import integer_box
from ui.uploads import file_input
from ui.widgets import choice

QUALITIES = [i / 20 for i in range(21)]  # a select_slider, which shows 0,50 in Turkish (a slider shows 0.50)


def open_with_a_synthetic_log() -> None:
    if st.session_state.get("yd_log") is None:
        replace_log(yd.synthetic(yd.SYNTHETIC))


def source() -> str:
    """Where the next log comes from; the protocol lab is offered only while its log is the one shown."""
    handed = st.session_state["yd_log"].origin[0] == "lab"
    sources = [key for key in words.SOURCES if key != words.LAB or handed]
    return choice(st.radio, _(words.WHERE_FROM), sources, "yd_source", horizontal=True,
                  format_func=lambda key: _(words.SOURCES[key]))


def generator(progress) -> None:
    """The synthetic log's settings; a log past the row limit is refused, kept as the error to say."""
    start = yd.SYNTHETIC
    with st.form("yd_synthetic", border=True):
        cells = st.columns(5)
        with cells[0]:
            users = integer_box(_(words.USERS), min_value=1, max_value=100_000, value=start["users"],
                                key="yd_users")
        with cells[4]:
            seed = integer_box(_(words.RANDOM_SEED), min_value=0, max_value=10_000, value=start["seed"],
                               key="yd_seed")
        settings = {
            "users": users,
            "list_length": cells[1].number_input(_(words.LIST_LENGTH), 1, 200, start["list_length"],
                                                 key="yd_list_length"),
            "relevant": cells[2].number_input(_(words.RELEVANT_PER_USER), 1, 100, start["relevant"],
                                              key="yd_relevant"),
            "quality": cells[3].select_slider(_(words.MODEL_QUALITY), QUALITIES, start["quality"], key="yd_quality",
                                              format_func=lambda v: numbers.number(v, 2),
                                              help=_(words.MODEL_QUALITY_HELP)),
            "seed": seed,
        }
        generate = st.form_submit_button(_(words.GENERATE), type="primary")
    if generate:
        refused = yd.too_many_rows(settings)
        if refused:
            st.session_state["yd_error"] = refused
        else:
            progress.progress(0.3, text=_(words.GENERATING))
            replace_log(yd.synthetic(settings))


def _format_label(fmt: str) -> str:
    return _(words.FORMATS[fmt])


def _chosen_files(*uploads) -> tuple | None:
    """What identifies the files in the uploaders, to tell whether the log shown was read from them."""
    return tuple(None if u is None else u.file_id for u in uploads) if any(uploads) else None


def files(progress, stale_notice) -> None:
    """Two files and their formats, read when asked; until then ``stale_notice`` says the numbers are the old log's."""
    st.markdown(words_of.formats_help())
    left, right = st.columns(2)
    with left:
        recs_file = file_input(_(words.RECS_FILE), "yd_recs_file")
        recs_format = choice(st.selectbox, _(words.ITS_FORMAT), list(words.FORMATS), "yd_recs_format",
                             format_func=_format_label)
    with right:
        truth_file = file_input(_(words.TRUTH_FILE), "yd_truth_file")
        truth_format = choice(st.selectbox, _(words.ITS_FORMAT), list(words.FORMATS), "yd_truth_format",
                              format_func=_format_label)
    keep_best = st.checkbox(_(words.KEEP_BEST), key="yd_keep_best", help=_(words.KEEP_BEST_HELP))
    if st.button(_(words.READ), type="primary", disabled=not (recs_file and truth_file), key="yd_read"):
        progress.progress(0.2, text=_(words.READING))
        try:
            log = yd.load_files(yd.Upload(recs_file.name, recs_file.getvalue(), recs_format),
                                yd.Upload(truth_file.name, truth_file.getvalue(), truth_format), keep_best)
        except yd.LoadError as error:  # kept as the error, so it is said in the language of each rerun
            st.session_state["yd_error"] = error
        else:
            replace_log(log, _chosen_files(recs_file, truth_file))
    chosen = _chosen_files(recs_file, truth_file)
    if chosen is not None and chosen != st.session_state.get("yd_log_files"):
        stale_notice.warning(words.old_results(text.markdown(st.session_state["yd_log"].source)), icon="⏳")


def shown() -> yd.Log:
    """The log the results below are of, named, after the problem that kept the last one out, if any."""
    error = st.session_state.get("yd_error")
    if error:
        st.error(words.not_loaded(text.markdown(error.message())), icon="🚫")
    log: yd.Log = st.session_state["yd_log"]
    st.caption(words.showing(text.markdown(log.source), len(log.recommendations), len(log.ground_truth), _(TIE_RULE)))
    return log
