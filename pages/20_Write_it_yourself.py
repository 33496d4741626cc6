"""Write it yourself: implement a metric as an interview asks, judged on hidden cases in a sandbox."""

import time
from datetime import datetime, timezone

import streamlit as st

import kata
from kata import attempts
from kata.judge import Result, time_models
from kata.sandbox import check_available
from kata.timing import auc_timings
from content import kata as kata_texts
from content.i18n import _
from content.pages import kata as words
from content.pages import kata_tools as tool_words
from ui import kata_editor, kata_history, kata_tryout
from content import text
from kata.judge import KINDS
from ui.browser import browser_key
from ui.controllers.kata_views import (breakdown, card_values, cases_table, first_failing, highlight_row,
                                       inputs_literal, interview_runs_table, scenario_for, steps_table)
from ui.lesson_link import apply
from ui.navigation import TOPIC_PAGES
from ui.widgets import page, show_table

page(_(words.TITLE), "⌨️", _(words.INTRO))


# --------------------------------------------------------------------------- the attempt (survives a reload)

BROWSER = browser_key()


def _attempt_id() -> str:
    """The address's attempt; but while an interview is open in this browser, every tab opens that one."""
    attempt_id = st.query_params.get("attempt")
    interview_id = attempts.open_interview(BROWSER)
    if interview_id is not None and attempt_id != interview_id:
        st.session_state["_kata_sent_to_interview"] = True
        attempt_id = interview_id
    elif not attempts.valid_id(attempt_id):
        attempt_id = st.session_state.get("_kata_attempt_id") or attempts.new_id()
    if st.query_params.get("attempt") != attempt_id:
        st.query_params["attempt"] = attempt_id
    st.session_state["_kata_attempt_id"] = attempt_id
    return attempt_id


ATTEMPT_ID = _attempt_id()
# Read at every rerun: another tab of the same attempt may have run code or given up meanwhile.
ATTEMPT = attempts.load(ATTEMPT_ID) or {"problem": next(iter(kata.PROBLEMS)), "code": {}, "verdicts": {}, "runs": {}}
if st.session_state.get("_kata_loaded") != ATTEMPT_ID:
    st.session_state["_kata_loaded"] = ATTEMPT_ID
    kata_editor.remount()


def _change(change) -> None:
    """Apply ``change`` to the stored attempt (under its lock) and to this run's copy."""
    try:
        ATTEMPT.update(attempts.update(ATTEMPT_ID, change))
    except (ValueError, OSError) as problem:
        st.session_state["_kata_save_problem"] = str(problem)


def _choose_problem() -> None:
    _change(lambda attempt: attempt.update(problem=st.session_state["kata_problem"]))
    kata_editor.remount()


def _keep_code(code: str) -> None:
    key = ATTEMPT["problem"]

    def keep(attempt: dict) -> None:
        attempt.setdefault("problem", key)
        attempt.setdefault("code", {})[key] = code
    _change(keep)


keys = list(kata.PROBLEMS)
if ATTEMPT.get("problem") not in kata.PROBLEMS:
    ATTEMPT["problem"] = keys[0]
st.session_state["kata_problem"] = ATTEMPT["problem"]
interview = ATTEMPT.setdefault("interview", {}).get(ATTEMPT["problem"])
in_progress = interview is not None and interview["finished"] is None
problem = kata.PROBLEMS[st.selectbox(_(words.PROBLEM), keys, format_func={k: kata_texts.title(kata.PROBLEMS[k]) for k in keys}.get,
                                     key="kata_problem", on_change=_choose_problem, disabled=in_progress)]
starter = kata_texts.starter(problem)  # the signature and the docstring in the reader's language
code = ATTEMPT.get("code", {}).get(problem.key, starter)
if in_progress and st.session_state.pop("_kata_sent_to_interview", False):
    st.info(_(words.SENT_TO_INTERVIEW), icon="⏱️")

# --------------------------------------------------------------------------- interview mode


def _start_interview() -> None:
    _change(lambda attempt: attempts.start_interview(attempt, problem.key, time.time()))
    attempts.bind_interview(BROWSER, ATTEMPT_ID)


def _finish_interview() -> None:
    _change(lambda attempt: attempts.finish_interview(attempt, problem.key, time.time()))


def _give_up() -> None:
    _change(lambda attempt: attempts.give_up(attempt, problem.key, time.time()))


def _leave_interview() -> None:
    _change(lambda attempt: attempt.setdefault("interview", {}).pop(problem.key, None))


@st.fragment(run_every=1.0)
def _timer(started: float) -> None:
    elapsed = int(time.time() - started)
    st.markdown(words.timer(elapsed // 60, elapsed % 60))


mode = st.columns([2, 1, 1], vertical_alignment="center")
if interview is None:
    mode[0].caption(_(words.INTERVIEW_CAPTION))
    mode[1].button(_(words.START_INTERVIEW), on_click=_start_interview, key="kata_interview_start")
elif interview["finished"] is None:
    with mode[0]:
        _timer(interview["started"])
    mode[1].button(_(words.FINISH_INTERVIEW), on_click=_finish_interview, key="kata_interview_finish", type="primary")
else:
    mode[1].button(_(words.LEAVE_INTERVIEW), on_click=_leave_interview, key="kata_interview_leave")

st.markdown(words.task(problem.function))
if not in_progress:
    with st.expander(_(words.HINTS)):
        for hint in kata_texts.hints(problem):
            st.markdown(f"- {text.markdown(hint)}")

# --------------------------------------------------------------------------- editor and Run

seen = st.session_state.get("_kata_seen_code")
if seen is not None and seen[0] == problem.key and seen[1] != code:
    kata_editor.remount()  # the stored code changed in another tab of this attempt: show it
sent, too_long = kata_editor.code_box(problem.key, code, attempts.MAX_CODE)
if sent is not None and sent != code:
    _keep_code(sent)
    code = sent
st.session_state["_kata_seen_code"] = (problem.key, code)
if problem_text := st.session_state.pop("_kata_save_problem", None):
    st.warning(words.not_saved(text.markdown(problem_text)), icon="💾")


@st.cache_resource(show_spinner=False)
def _sandbox_problem() -> str | None:
    try:
        check_available()
    except kata.SandboxUnavailable as problem:
        return str(problem)
    time_models()  # in the background, once: a class opens the page before anyone presses Run
    return None


unavailable = _sandbox_problem()
buttons = st.columns([1, 2, 2], vertical_alignment="center")
run = buttons[0].button(_(words.RUN), type="primary", key="kata_run", disabled=unavailable is not None or too_long)
try_it = buttons[1].button(_(tool_words.TRY), key="kata_try", disabled=unavailable is not None or too_long)


def _reset() -> None:
    _keep_code(starter)
    kata_editor.remount()


buttons[2].button(_(words.RESET), key="kata_reset", on_click=_reset)
if unavailable:
    st.error(words.no_sandbox(text.markdown(unavailable), kept=True), icon="🔒")
kata_tryout.input_box(problem)  # after the buttons: Esc then Tab from the editor lands on Run
if try_it:
    kata_tryout.run(problem, code)
kata_tryout.show(problem, code)


def _verdict_record(result: Result) -> dict:
    failure = result.failure
    return {"passed": result.passed, "total": result.total, "error": result.error, "stdout": result.stdout,
            "at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "seed": result.seed, "ok": result.ok,
            "failure": None if failure is None else {
                "inputs": repr(failure.inputs), "expected": failure.expected, "got": failure.got,
                "matches": failure.matches, "shrunk_from": failure.shrunk_from}}


if run:
    source = code
    ticket = kata.submit(problem.key, source)
    status = st.empty()
    while not ticket.done.wait(0.2):
        position = ticket.position
        status.info(words.queued(position) if position else _(words.RUNNING), icon="⏳")
    status.empty()
    try:
        result = ticket.wait()
    except kata.SandboxUnavailable as problem_text:
        st.error(words.no_sandbox(text.markdown(str(problem_text)), kept=False), icon="🔒")
        result = None
    except (RuntimeError, OSError) as problem_text:  # e.g. every sandbox uid busy: say so, keep the code
        st.error(words.judge_failed(text.markdown(str(problem_text))), icon="⚠️")
        result = None
    if result is not None:
        st.session_state.setdefault("_kata_results", {})[(ATTEMPT_ID, problem.key)] = result
        verdict = _verdict_record(result)
        _change(lambda attempt: attempts.record_run(attempt, problem.key, verdict, time.time()))
        kata_history.record(ATTEMPT_ID, problem.key, source, result)
        interview = ATTEMPT.get("interview", {}).get(problem.key)

# --------------------------------------------------------------------------- the verdict

result = st.session_state.get("_kata_results", {}).get((ATTEMPT_ID, problem.key))
record = ATTEMPT.get("verdicts", {}).get(problem.key)


def _show_call(inputs: dict) -> None:
    st.code(f"{problem.function}({inputs_literal(inputs)})", language="python", wrap_lines=True)


def _show_cards(expected, got) -> None:
    right, yours = card_values(expected, got)
    cards = st.columns(2)
    cards[0].metric(_(words.RIGHT_VALUE), right)
    cards[1].metric(_(words.YOUR_VALUE), yours)


def _show_failure(failure) -> None:
    st.markdown(words.smallest_case(failure.shrunk_from))
    _show_call(failure.inputs)
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


def _show_cases(cases) -> None:
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
                _show_call(cases[first].inputs)
                if cases[first].error is None:
                    _show_cards(cases[first].expected, cases[first].got)
            show_table(cases_table(cases, kind), key=f"kata_cases_{kind}",
                       column_config={name: _(label) for name, label in words.CASE_COLUMNS.items()})


if result is not None:
    if result.ok:
        st.success(words.passed_all(result.passed, result.total), icon="✅")
    else:
        st.error(words.passed_some(result.passed, result.total), icon="❌")
    if result.error:
        st.markdown(_(words.YOUR_ERROR))
        st.code(kata_texts.judge_message(result.error, problem.function), language=None, wrap_lines=True)
    if result.raised is not None:
        st.markdown(words.raised(result.raised.shrunk_from))
        _show_call(result.raised.inputs)
    if result.failure is not None and result.failure is not result.raised:
        _show_failure(result.failure)
    if result.call_seconds is not None:
        st.markdown(words.runtime(result.call_seconds, result.model_call_seconds))
    _show_cases(result.cases)
    if result.stdout:
        with st.expander(_(words.PRINTED)):
            st.code(result.stdout, language=None, wrap_lines=True)
elif record is not None:
    st.info(words.last_run(text.markdown(record['at']), record['passed'], record['total']), icon="🕘")

if record is not None:
    header = words.download_header(kata_texts.title(problem), record['passed'], record['total'], record['at'])
    st.download_button(_(words.DOWNLOAD), header + code,
                       file_name=f"{problem.key}.py", mime="text/x-python", key="kata_download", on_click="ignore")

kata_history.show(ATTEMPT_ID, problem.key)

# --------------------------------------------------------------------------- review and model solutions

if interview is not None and interview["finished"] is not None:
    seconds = int(interview["finished"] - interview["started"])
    runs = interview.get("runs", [])
    last = runs[-1] if runs else None
    st.subheader(_(words.REVIEW))
    st.markdown(words.review(seconds // 60, seconds % 60, len(runs),
                             words.review_verdict(last["passed"], last["total"]) if last else None))
    if interview.get("gave_up"):
        st.markdown(_(words.GAVE_UP))
    if runs:
        show_table(interview_runs_table(runs), key="kata_interview_runs",
                   column_config={name: _(label) for name, label in words.RUN_COLUMNS.items()})
    if record and record.get("failure") and record["failure"]["matches"]:
        st.markdown(words.last_failure(text.markdown(kata_texts.mistake(problem, record['failure']['matches']))))
    st.markdown(_(words.HINTS_NOT_SEEN))
    for hint in kata_texts.hints(problem):
        st.markdown(f"- {text.markdown(hint)}")


@st.cache_data(show_spinner=False)
def _timings() -> dict:
    return auc_timings()


if attempts.model_visible(ATTEMPT, problem.key):
    st.subheader(_(words.MODEL_SOLUTIONS))
    loop_tab, numpy_tab = st.tabs([_(words.PLAIN_LOOP), _(words.VECTORISED)])
    loop_tab.code(problem.loop_solution.strip(), language="python", wrap_lines=True)
    numpy_tab.code(problem.numpy_solution.strip(), language="python", wrap_lines=True)
    if problem.key == "auc":
        timings = _timings()
        st.markdown(words.auc_timings(timings))
else:
    st.caption(_(words.SOLUTIONS_LATER))
    with st.popover(_(words.GIVE_UP), icon="🏳️"):
        st.markdown(_(words.GIVE_UP_EXPLAINED))
        st.button(_(words.CONFIRM_GIVE_UP), key="kata_give_up", on_click=_give_up)

st.caption(_(words.KEPT))
