"""The Write-it-yourself page's interview mode: start, the running clock, finish or leave, and the review once it
is over (its length, its runs, the last mistake and the hints not seen)."""

from __future__ import annotations

import time

import streamlit as st

import kata
from content import kata as kata_texts
from content import text
from content.i18n import _
from content.pages import kata as words
from kata import attempts
from ui.controllers.kata_attempt import Attempt
from ui.controllers.kata_views import interview_runs_table
from ui.widgets import show_table


def _start(attempt: Attempt, problem_key: str) -> None:
    attempt.change(lambda stored: attempts.start_interview(stored, problem_key, time.time()))
    attempts.bind_interview(attempt.browser, attempt.id)


def _finish(attempt: Attempt, problem_key: str) -> None:
    attempt.change(lambda stored: attempts.finish_interview(stored, problem_key, time.time()))


def _leave(attempt: Attempt, problem_key: str) -> None:
    attempt.change(lambda stored: stored.setdefault("interview", {}).pop(problem_key, None))


def give_up(attempt: Attempt, problem_key: str) -> None:
    attempt.change(lambda stored: attempts.give_up(stored, problem_key, time.time()))


def _hints(problem: kata.Problem) -> None:
    for hint in kata_texts.hints(problem):
        st.markdown(f"- {text.markdown(hint)}")


@st.fragment(run_every=1.0)
def _timer(started: float) -> None:
    st.markdown(words.timer(*attempts.minutes_and_seconds(time.time() - started)))


def mode(attempt: Attempt, problem: kata.Problem) -> None:
    """Start an interview, or its clock and Finish, or Leave once it is over."""
    interview = attempt.interview(problem.key)
    args = (attempt, problem.key)
    cells = st.columns([2, 1, 1], vertical_alignment="center")
    if interview is None:
        cells[0].caption(_(words.INTERVIEW_CAPTION))
        cells[1].button(_(words.START_INTERVIEW), on_click=_start, args=args, key="kata_interview_start")
    elif interview["finished"] is None:
        with cells[0]:
            _timer(interview["started"])
        cells[1].button(_(words.FINISH_INTERVIEW), on_click=_finish, args=args, key="kata_interview_finish",
                        type="primary")
    else:
        cells[1].button(_(words.LEAVE_INTERVIEW), on_click=_leave, args=args, key="kata_interview_leave")


def task(attempt: Attempt, problem: kata.Problem) -> None:
    """The task; its hints too, except during an interview."""
    st.markdown(words.task(problem.function))
    if not attempt.in_interview(problem.key):
        with st.expander(_(words.HINTS)):
            _hints(problem)


def review(attempt: Attempt, problem: kata.Problem) -> None:
    """Once an interview is over: how long it took, its runs, the last mistake and the hints not seen."""
    interview = attempt.interview(problem.key)
    if interview is None or interview["finished"] is None:
        return
    runs = interview.get("runs", [])
    last = runs[-1] if runs else None
    st.subheader(_(words.REVIEW))
    minutes, seconds = attempts.minutes_and_seconds(interview["finished"] - interview["started"])
    st.markdown(words.review(minutes, seconds, len(runs),
                             words.review_verdict(last["passed"], last["total"]) if last else None))
    if interview.get("gave_up"):
        st.markdown(_(words.GAVE_UP))
    if runs:
        show_table(interview_runs_table(runs), key="kata_interview_runs",
                   column_config={name: _(label) for name, label in words.RUN_COLUMNS.items()})
    record = attempt.data.get("verdicts", {}).get(problem.key)
    if record and record.get("failure") and record["failure"]["matches"]:
        st.markdown(words.last_failure(text.markdown(kata_texts.mistake(problem, record['failure']['matches']))))
    st.markdown(_(words.HINTS_NOT_SEEN))
    _hints(problem)
