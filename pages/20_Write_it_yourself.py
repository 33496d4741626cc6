"""Write it yourself: implement a metric as an interview asks, judged on hidden cases in a sandbox."""

import time
from datetime import datetime, timezone

import streamlit as st

import kata
from kata import attempts
from kata.judge import Result
from kata.sandbox import check_available
from kata.timing import auc_timings
from content import kata as kata_texts
from content.i18n import _
from content.pages import kata as words
from content.pages import kata_tools as tool_words
from ui import kata_editor, kata_history, kata_tryout
from ui.markup import text
from ui.controllers.kata_views import breakdown, highlight_row, inputs_literal, scenario_for, show_value, steps_table
from ui.lesson_link import apply
from ui.navigation import TOPIC_PAGES
from ui.widgets import page, show_table

page(_(words.TITLE), "⌨️", _(words.INTRO))


# --------------------------------------------------------------------------- the attempt (survives a reload)

def _attempt_id() -> str:
    attempt_id = st.query_params.get("attempt")
    if not attempts.valid_id(attempt_id):
        attempt_id = st.session_state.get("_kata_attempt_id") or attempts.new_id()
        st.query_params["attempt"] = attempt_id
    st.session_state["_kata_attempt_id"] = attempt_id
    return attempt_id


ATTEMPT_ID = _attempt_id()
if st.session_state.get("_kata_loaded") != ATTEMPT_ID:
    st.session_state["_kata"] = attempts.load(ATTEMPT_ID) or {"problem": next(iter(kata.PROBLEMS)), "code": {},
                                                                "verdicts": {}, "runs": {}}
    st.session_state["_kata_loaded"] = ATTEMPT_ID
    kata_editor.remount()
ATTEMPT = st.session_state["_kata"]


def _save() -> None:
    try:
        attempts.save(ATTEMPT_ID, ATTEMPT)
    except (ValueError, OSError) as problem:
        st.session_state["_kata_save_problem"] = str(problem)


def _choose_problem() -> None:
    ATTEMPT["problem"] = st.session_state["kata_problem"]
    _save()


def _keep_code(text: str) -> None:
    ATTEMPT.setdefault("code", {})[ATTEMPT["problem"]] = text
    _save()


keys = list(kata.PROBLEMS)
if ATTEMPT.get("problem") not in kata.PROBLEMS:
    ATTEMPT["problem"] = keys[0]
st.session_state["kata_problem"] = ATTEMPT["problem"]
problem = kata.PROBLEMS[st.selectbox(_(words.PROBLEM), keys, format_func={k: kata_texts.title(kata.PROBLEMS[k]) for k in keys}.get,
                                     key="kata_problem", on_change=_choose_problem)]
starter = kata_texts.starter(problem)  # the signature and the docstring in the reader's language
code = ATTEMPT.get("code", {}).get(problem.key, starter)

# --------------------------------------------------------------------------- interview mode

interview = ATTEMPT.setdefault("interview", {}).get(problem.key)


def _start_interview() -> None:
    ATTEMPT["interview"][problem.key] = {"started": time.time(), "finished": None, "runs_at_start":
                                         ATTEMPT.get("runs", {}).get(problem.key, 0)}
    _save()


def _finish_interview() -> None:
    ATTEMPT["interview"][problem.key]["finished"] = time.time()
    _save()


def _leave_interview() -> None:
    ATTEMPT["interview"].pop(problem.key, None)
    _save()


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

in_progress = interview is not None and interview["finished"] is None
st.markdown(words.task(problem.function))
if not in_progress:
    with st.expander(_(words.HINTS)):
        for hint in kata_texts.hints(problem):
            st.markdown(f"- {text.markdown(hint)}")

# --------------------------------------------------------------------------- editor and Run

sent, too_long = kata_editor.code_box(problem.key, code, attempts.MAX_CODE)
if sent is not None:
    _keep_code(sent)
    code = sent
if problem_text := st.session_state.pop("_kata_save_problem", None):
    st.warning(words.not_saved(text.markdown(problem_text)), icon="💾")


@st.cache_resource(show_spinner=False)
def _sandbox_problem() -> str | None:
    try:
        check_available()
    except kata.SandboxUnavailable as problem:
        return str(problem)
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
            "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
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
        ATTEMPT.setdefault("verdicts", {})[problem.key] = _verdict_record(result)
        kata_history.record(ATTEMPT_ID, problem.key, source, result)
        ATTEMPT.setdefault("runs", {})[problem.key] = ATTEMPT.get("runs", {}).get(problem.key, 0) + 1
        if source.strip() not in (problem.starter.strip(), starter.strip()):  # running the untouched signature is not an attempt
            ATTEMPT.setdefault("attempted", {})[problem.key] = True
        _save()

# --------------------------------------------------------------------------- the verdict

result = st.session_state.get("_kata_results", {}).get((ATTEMPT_ID, problem.key))
record = ATTEMPT.get("verdicts", {}).get(problem.key)


def _show_failure(failure) -> None:
    st.markdown(words.smallest_case(failure.shrunk_from))
    st.code(f"{problem.function}({inputs_literal(failure.inputs)})", language="python", wrap_lines=True)
    cards = st.columns(2)
    cards[0].metric(_(words.RIGHT_VALUE), show_value(failure.expected))
    cards[1].metric(_(words.YOUR_VALUE), show_value(failure.got))
    if failure.matches:
        st.warning(words.matches(text.markdown(kata_texts.mistake(problem, failure.matches))), icon="🔭")
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


if result is not None:
    if result.ok:
        st.success(words.passed_all(result.passed, result.total), icon="✅")
    else:
        st.error(words.passed_some(result.passed, result.total), icon="❌")
    if result.error:
        st.markdown(_(words.YOUR_ERROR))
        st.code(kata_texts.judge_message(result.error, problem.function), language=None, wrap_lines=True)
    if result.failure is not None:
        _show_failure(result.failure)
    if result.stdout:
        with st.expander(_(words.PRINTED)):
            st.code(result.stdout, language=None)
elif record is not None:
    st.info(words.last_run(text.markdown(record['at']), record['passed'], record['total']), icon="🕘")

kata_history.show(ATTEMPT_ID, problem.key)

if record is not None:
    header = words.download_header(kata_texts.title(problem), record['passed'], record['total'], record['at'])
    st.download_button(_(words.DOWNLOAD), header + code,
                       file_name=f"{problem.key}.py", mime="text/x-python", key="kata_download", on_click="ignore")

# --------------------------------------------------------------------------- review and model solutions

if interview is not None and interview["finished"] is not None:
    seconds = int(interview["finished"] - interview["started"])
    runs = ATTEMPT.get("runs", {}).get(problem.key, 0) - interview.get("runs_at_start", 0)
    st.subheader(_(words.REVIEW))
    st.markdown(words.review(seconds // 60, seconds % 60, runs,
                             words.review_verdict(record['passed'], record['total']) if record else None))
    if record and record.get("failure") and record["failure"]["matches"]:
        st.markdown(words.last_failure(text.markdown(kata_texts.mistake(problem, record['failure']['matches']))))
    st.markdown(_(words.HINTS_NOT_SEEN))
    for hint in kata_texts.hints(problem):
        st.markdown(f"- {text.markdown(hint)}")


@st.cache_data(show_spinner=False)
def _timings() -> dict:
    return auc_timings()


if ATTEMPT.get("attempted", {}).get(problem.key) and not in_progress:
    st.subheader(_(words.MODEL_SOLUTIONS))
    loop_tab, numpy_tab = st.tabs([_(words.PLAIN_LOOP), _(words.VECTORISED)])
    loop_tab.code(problem.loop_solution.strip(), language="python")
    numpy_tab.code(problem.numpy_solution.strip(), language="python")
    if problem.key == "auc":
        timings = _timings()
        st.markdown(words.auc_timings(timings))
elif not in_progress:
    st.caption(_(words.SOLUTIONS_LATER))

st.caption(_(words.KEPT))
