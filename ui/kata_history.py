"""The candidate's runs of a problem in this session: time, verdict, passed count, and a diff between two."""

from __future__ import annotations

import difflib
from datetime import datetime, timezone

import pandas as pd
import streamlit as st

from content.i18n import _
from content.pages import kata_tools as words
from kata.judge import Result

MAX_RUNS = 30
"""Runs kept per problem and session (each holds up to 20,000 characters of code)."""
_HISTORY = "_kata_history"


def _runs(attempt_id: str, problem_key: str) -> list[dict]:
    return st.session_state.setdefault(_HISTORY, {}).setdefault((attempt_id, problem_key), [])


def verdict(result: Result) -> str:
    if result.ok:
        return "passed"
    return "wrong" if result.error is None else "error"


def record(attempt_id: str, problem_key: str, source: str, result: Result) -> None:
    runs = _runs(attempt_id, problem_key)
    number = runs[-1]["number"] + 1 if runs else 1
    runs.append({"number": number, "at": datetime.now(timezone.utc).strftime("%H:%M:%S"), "code": source,
                 "verdict": verdict(result), "passed": result.passed, "total": result.total})
    del runs[:-MAX_RUNS]
    for end in ("from", "to"):  # a new run: compare the last two again
        st.session_state.pop(f"kata_diff_{end}_{problem_key}", None)


def diff(before: str, after: str, name_before: str, name_after: str) -> str:
    """A unified diff of two runs' code (shown as code: nothing in it is ever rendered)."""
    return "\n".join(difflib.unified_diff(before.splitlines(), after.splitlines(), fromfile=name_before,
                                          tofile=name_after, lineterm=""))


def show(attempt_id: str, problem_key: str) -> None:
    runs = _runs(attempt_id, problem_key)
    if not runs:
        return
    with st.expander(_(words.HISTORY), expanded=len(runs) > 1):
        table = pd.DataFrame([{"run": words.run_label(r["number"]), "at": r["at"],
                               "verdict": _(words.VERDICTS[r["verdict"]]),
                               "passed": words.passed_of(r["passed"], r["total"])} for r in runs],
                             columns=list(words.HISTORY_COLUMNS))
        st.dataframe(table, hide_index=True, width="stretch",
                     column_config={name: _(label) for name, label in words.HISTORY_COLUMNS.items()})
        if len(runs) < 2:
            return
        by_number = {r["number"]: r for r in runs}
        numbers = list(by_number)
        pick = st.columns(2)
        first = pick[0].selectbox(_(words.DIFF_FROM), numbers, index=len(numbers) - 2, format_func=words.run_label,
                                  key=f"kata_diff_from_{problem_key}")
        second = pick[1].selectbox(_(words.DIFF_TO), numbers, index=len(numbers) - 1, format_func=words.run_label,
                                   key=f"kata_diff_to_{problem_key}")
        changes = diff(by_number[first]["code"], by_number[second]["code"], words.run_label(first),
                       words.run_label(second))
        if changes:
            st.code(changes, language="diff", wrap_lines=True)
        else:
            st.caption(_(words.NO_CHANGE))
