"""The Write-it-yourself page's attempt: which one this tab opens (an open interview wins over the address), the
problem it is on, and every change to it, saved under the store's lock. Read again at every rerun: another tab of
the same attempt may have run code or given up meanwhile."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

import kata
from content import kata as kata_texts
from content.i18n import _
from content.pages import kata as words
from kata import attempts
from ui import browser, kata_editor


@dataclass
class Attempt:
    id: str
    data: dict
    browser: str

    def change(self, change) -> None:
        """Apply ``change`` to the stored attempt (under its lock) and to this run's copy."""
        try:
            self.data.update(attempts.update(self.id, change))
        except (ValueError, OSError) as problem:
            st.session_state["_kata_save_problem"] = str(problem)

    def keep_code(self, code: str) -> None:
        key = self.data["problem"]

        def keep(attempt: dict) -> None:
            attempt.setdefault("problem", key)
            attempt.setdefault("code", {})[key] = code
        self.change(keep)

    def interview(self, problem_key: str) -> dict | None:
        return self.data.get("interview", {}).get(problem_key)

    def in_interview(self, problem_key: str) -> bool:
        interview = self.interview(problem_key)
        return interview is not None and interview["finished"] is None


def _attempt_id(browser_key: str) -> str:
    """The address's attempt; but while an interview is open in this browser, every tab opens that one."""
    attempt_id = st.query_params.get("attempt")
    interview_id = attempts.open_interview(browser_key)
    if interview_id is not None and attempt_id != interview_id:
        st.session_state["_kata_sent_to_interview"] = True
        attempt_id = interview_id
    elif not attempts.valid_id(attempt_id):
        attempt_id = st.session_state.get("_kata_attempt_id") or attempts.new_id()
    if st.query_params.get("attempt") != attempt_id:
        st.query_params["attempt"] = attempt_id
    st.session_state["_kata_attempt_id"] = attempt_id
    return attempt_id


def open_attempt() -> Attempt:
    browser_key = browser.browser_key()  # looked up on the module at each run: tests stand in for the cookie
    attempt_id = _attempt_id(browser_key)
    data = attempts.load(attempt_id) or {"problem": next(iter(kata.PROBLEMS)), "code": {}, "verdicts": {}, "runs": {}}
    if st.session_state.get("_kata_loaded") != attempt_id:
        st.session_state["_kata_loaded"] = attempt_id
        kata_editor.remount()
    return Attempt(attempt_id, data, browser_key)


def _choose_problem(attempt: Attempt) -> None:
    attempt.change(lambda stored: stored.update(problem=st.session_state["kata_problem"]))
    kata_editor.remount()


def problem_box(attempt: Attempt) -> kata.Problem:
    """The problem's box, held while its interview runs; a tab sent to that interview says why."""
    keys = list(kata.PROBLEMS)
    if attempt.data.get("problem") not in kata.PROBLEMS:
        attempt.data["problem"] = keys[0]
    st.session_state["kata_problem"] = attempt.data["problem"]
    attempt.data.setdefault("interview", {})
    in_progress = attempt.in_interview(attempt.data["problem"])
    chosen = st.selectbox(_(words.PROBLEM), keys, format_func={k: kata_texts.title(kata.PROBLEMS[k]) for k in keys}.get,
                          key="kata_problem", on_change=_choose_problem, args=(attempt,), disabled=in_progress)
    if in_progress and st.session_state.pop("_kata_sent_to_interview", False):
        st.info(_(words.SENT_TO_INTERVIEW), icon="⏱️")
    return kata.PROBLEMS[chosen]
