"""The Write-it-yourself page's editor and its buttons: the code kept as typed, whether a sandbox can run it, Run
(waiting in the judge's queue), Try it and Reset."""

from __future__ import annotations

import time
from datetime import datetime, timezone

import streamlit as st

import kata
from content import kata as kata_texts
from content import text
from content.i18n import _
from content.pages import kata as words
from content.pages import kata_tools as tool_words
from kata import attempts
from kata.judge import Result, time_models
from kata.sandbox import check_available
from ui import kata_editor, kata_history, kata_tryout
from ui.controllers.kata_attempt import Attempt


def editor(attempt: Attempt, problem: kata.Problem) -> tuple[str, bool]:
    """The code box on the stored code (or the starter); what is typed is saved. Returns the code and whether
    it is too long to run."""
    code = attempt.data.get("code", {}).get(problem.key, kata_texts.starter(problem))
    seen = st.session_state.get("_kata_seen_code")
    if seen is not None and seen[0] == problem.key and seen[1] != code:
        kata_editor.remount()  # the stored code changed in another tab of this attempt: show it
    sent, too_long = kata_editor.code_box(problem.key, code, attempts.MAX_CODE)
    if sent is not None and sent != code:
        attempt.keep_code(sent)
        code = sent
    st.session_state["_kata_seen_code"] = (problem.key, code)
    if problem_text := st.session_state.pop("_kata_save_problem", None):
        st.warning(words.not_saved(text.markdown(problem_text)), icon="💾")
    return code, too_long


@st.cache_resource(show_spinner=False)
def _sandbox_problem() -> str | None:
    try:
        check_available()
    except kata.SandboxUnavailable as problem:
        return str(problem)
    time_models()  # in the background, once: a class opens the page before anyone presses Run
    return None


def _reset(attempt: Attempt, starter: str) -> None:
    attempt.keep_code(starter)
    kata_editor.remount()


def buttons(attempt: Attempt, problem: kata.Problem, code: str, too_long: bool) -> bool:
    """Run, Try it and Reset, and the try-it box under them; returns whether Run was pressed."""
    unavailable = _sandbox_problem()
    cells = st.columns([1, 2, 2], vertical_alignment="center")
    run = cells[0].button(_(words.RUN), type="primary", key="kata_run", disabled=unavailable is not None or too_long)
    try_it = cells[1].button(_(tool_words.TRY), key="kata_try", disabled=unavailable is not None or too_long)
    # The starter in the reader's language: the signature and the docstring.
    cells[2].button(_(words.RESET), key="kata_reset", on_click=_reset, args=(attempt, kata_texts.starter(problem)))
    if unavailable:
        st.error(words.no_sandbox(text.markdown(unavailable), kept=True), icon="🔒")
    kata_tryout.input_box(problem)  # after the buttons: Esc then Tab from the editor lands on Run
    if try_it:
        kata_tryout.run(problem, code)
    kata_tryout.show(problem, code)
    return run


def _judged(problem: kata.Problem, source: str) -> Result | None:
    """The judge's verdict, saying how far the run is in the queue meanwhile; None (and why) if it could not run."""
    ticket = kata.submit(problem.key, source)
    status = st.empty()
    while not ticket.done.wait(0.2):
        position = ticket.position
        status.info(words.queued(position) if position else _(words.RUNNING), icon="⏳")
    status.empty()
    try:
        return ticket.wait()
    except kata.SandboxUnavailable as problem_text:
        st.error(words.no_sandbox(text.markdown(str(problem_text)), kept=False), icon="🔒")
    except (RuntimeError, OSError) as problem_text:  # e.g. every sandbox uid busy: say so, keep the code
        st.error(words.judge_failed(text.markdown(str(problem_text))), icon="⚠️")
    return None


def run(attempt: Attempt, problem: kata.Problem, source: str) -> None:
    """Judge ``source``; keep the result for this session and its verdict in the attempt and the history."""
    result = _judged(problem, source)
    if result is None:
        return
    st.session_state.setdefault("_kata_results", {})[(attempt.id, problem.key)] = result
    verdict = attempts.verdict_record(result, datetime.now(timezone.utc).isoformat(timespec="seconds"))
    attempt.change(lambda stored: attempts.record_run(stored, problem.key, verdict, time.time()))
    kata_history.record(attempt.id, problem.key, source, result)
