"""The Write-it-yourself page's verdict: this session's last run (the smallest failing case, its steps, every case
by kind), else the stored one; the download; and the model solutions once they may be seen, else giving up."""

from __future__ import annotations

import streamlit as st

import kata
from content import kata as kata_texts
from content import text
from content.i18n import _
from content.pages import kata as words
from kata import attempts
from kata.judge import KINDS
from kata.timing import auc_timings
from ui.controllers.kata_attempt import Attempt
from ui.controllers.kata_interview import give_up
from ui.controllers.kata_views import (breakdown, card_values, cases_table, first_failing, highlight_row,
                                       inputs_literal, scenario_for, steps_table)
from ui.lesson_link import apply
from ui.navigation import TOPIC_PAGES
from ui.widgets import show_table


def _show_call(problem: kata.Problem, inputs: dict) -> None:
    st.code(f"{problem.function}({inputs_literal(inputs)})", language="python", wrap_lines=True)


def _show_cards(expected, got) -> None:
    right, yours = card_values(expected, got)
    cards = st.columns(2)
    cards[0].metric(_(words.RIGHT_VALUE), right)
    cards[1].metric(_(words.YOUR_VALUE), yours)


def _show_failure(problem: kata.Problem, failure) -> None:
    st.markdown(words.smallest_case(failure.shrunk_from))
    _show_call(problem, failure.inputs)
    _show_cards(failure.expected, failure.got)
    if failure.matches:
        st.warning(words.matches(text.markdown(kata_texts.mistake(problem, failure.matches))), icon="🔭")
    elif failure.got is not None:
        st.info(_(words.NO_CONVENTION), icon="🔭")
    if failure.steps:
        table, first = steps_table(failure)
        st.markdown(words.step_by_step(first + 1 if first is not None else None))
        show_table(highlight_row(table, first), key="kata_steps",
                   column_config={name: _(label) for name, label in words.STEP_COLUMNS.items()})
    for number, (title, frame) in enumerate(breakdown(problem, failure.inputs)):
        st.markdown(words.breakdown_heading(text.markdown(title)))
        show_table(frame, key=f"kata_breakdown_{problem.key}_{number}")
    page_label = TOPIC_PAGES[problem.topic]
    if st.button(_(words.OPEN_CASE), key="kata_open_case", icon="↗️"):
        apply(scenario_for(problem, failure.inputs))
        st.switch_page(page_label)


def _show_cases(problem: kata.Problem, cases) -> None:
    """Every case by kind; the kind holding the first failing case opened on it."""
    first = first_failing(cases)
    for kind in KINDS:
        group = [case for case in cases if case.kind == kind]
        if not group:
            continue
        passed = sum(case.passed for case in group)
        opened = first is not None and cases[first].kind == kind
        with st.expander(words.cases_heading(_(words.CASE_KINDS[kind]), passed, len(group)), expanded=opened,
                         icon="✅" if passed == len(group) else "❌"):
            if opened:
                st.markdown(words.first_failing(group.index(cases[first]) + 1))
                _show_call(problem, cases[first].inputs)
                if cases[first].error is None:
                    _show_cards(cases[first].expected, cases[first].got)
            show_table(cases_table(cases, kind), key=f"kata_cases_{kind}",
                       column_config={name: _(label) for name, label in words.CASE_COLUMNS.items()})


def _show_result(problem: kata.Problem, result) -> None:
    if result.ok:
        st.success(words.passed_all(result.passed, result.total), icon="✅")
    else:
        st.error(words.passed_some(result.passed, result.total), icon="❌")
    if result.error:
        st.markdown(_(words.YOUR_ERROR))
        st.code(kata_texts.judge_message(result.error, problem.function), language=None, wrap_lines=True)
    if result.raised is not None:
        st.markdown(words.raised(result.raised.shrunk_from))
        _show_call(problem, result.raised.inputs)
    if result.failure is not None and result.failure is not result.raised:
        _show_failure(problem, result.failure)
    if result.call_seconds is not None:
        st.markdown(words.runtime(result.call_seconds, result.model_call_seconds))
    _show_cases(problem, result.cases)
    if result.stdout:
        with st.expander(_(words.PRINTED)):
            st.code(result.stdout, language=None, wrap_lines=True)


def verdict(attempt: Attempt, problem: kata.Problem, code: str) -> None:
    """This session's last run in full, else the stored verdict in a line; then its download."""
    result = st.session_state.get("_kata_results", {}).get((attempt.id, problem.key))
    record = attempt.data.get("verdicts", {}).get(problem.key)
    if result is not None:
        _show_result(problem, result)
    elif record is not None:
        st.info(words.last_run(text.markdown(record['at']), record['passed'], record['total']), icon="🕘")
    if record is not None:
        header = words.download_header(kata_texts.title(problem), record['passed'], record['total'], record['at'])
        st.download_button(_(words.DOWNLOAD), header + code,
                           file_name=f"{problem.key}.py", mime="text/x-python", key="kata_download", on_click="ignore")


@st.cache_data(show_spinner=False)
def _timings() -> dict:
    return auc_timings()


def model_solutions(attempt: Attempt, problem: kata.Problem) -> None:
    """Both model solutions (and, for AUC, how long each takes) once they may be seen; else how to give up."""
    if attempts.model_visible(attempt.data, problem.key):
        st.subheader(_(words.MODEL_SOLUTIONS))
        loop_tab, numpy_tab = st.tabs([_(words.PLAIN_LOOP), _(words.VECTORISED)])
        loop_tab.code(problem.loop_solution.strip(), language="python", wrap_lines=True)
        numpy_tab.code(problem.numpy_solution.strip(), language="python", wrap_lines=True)
        if problem.key == "auc":
            st.markdown(words.auc_timings(_timings()))
    else:
        st.caption(_(words.SOLUTIONS_LATER))
        with st.popover(_(words.GIVE_UP), icon="🏳️"):
            st.markdown(_(words.GIVE_UP_EXPLAINED))
            st.button(_(words.CONFIRM_GIVE_UP), key="kata_give_up", on_click=give_up, args=(attempt, problem.key))
