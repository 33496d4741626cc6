"""Write it yourself: implement a metric as an interview asks, judged on hidden cases in a sandbox."""

import time
from datetime import datetime, timezone

import streamlit as st

import kata
from kata import attempts
from kata.judge import Result
from kata.sandbox import check_available
from kata.timing import auc_timings
from ui import text
from ui.kata_views import breakdown, highlight_row, inputs_literal, scenario_for, show_value, steps_table
from ui.lesson_link import apply
from ui.navigation import TOPIC_PAGES
from ui.widgets import page, show_table

EDITOR_CSS = """
.st-key-kata_editor textarea { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9rem;
  line-height: 1.35; tab-size: 4; white-space: pre; overflow-x: auto; }
"""

page(
    "Write it yourself", "⌨️",
    "Interviews ask for a metric **from scratch**: AUC, AP@K, NDCG@K, MRR. Pick one, write the function, press "
    "**Run**. Your code runs in a sandbox on up to 200 hidden cases: the source documents' examples, then the "
    "edge cases where metrics usually go wrong, then random cases. Numbers are compared within 1e-9, never as "
    "rounded strings. On a failure you get the **smallest case that still fails**, the step where your value "
    "first parts from the right one, and the library convention your value matches, if any.",
)
st.html(f"<style>{EDITOR_CSS}</style>")


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
    st.session_state.pop("kata_editor", None)
ATTEMPT = st.session_state["_kata"]


def _save() -> None:
    try:
        attempts.save(ATTEMPT_ID, ATTEMPT)
    except (ValueError, OSError) as problem:
        st.session_state["_kata_save_problem"] = str(problem)


def _choose_problem() -> None:
    ATTEMPT["problem"] = st.session_state["kata_problem"]
    st.session_state.pop("kata_editor", None)
    _save()


def _keep_code() -> None:
    ATTEMPT.setdefault("code", {})[ATTEMPT["problem"]] = st.session_state["kata_editor"]
    _save()


keys = list(kata.PROBLEMS)
if ATTEMPT.get("problem") not in kata.PROBLEMS:
    ATTEMPT["problem"] = keys[0]
st.session_state["kata_problem"] = ATTEMPT["problem"]
problem = kata.PROBLEMS[st.selectbox("Problem", keys, format_func=lambda k: kata.PROBLEMS[k].title,
                                     key="kata_problem", on_change=_choose_problem)]
code = ATTEMPT.get("code", {}).get(problem.key, problem.starter)

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
    st.markdown(f"⏱️ **Interview mode** · {elapsed // 60:02d}:{elapsed % 60:02d} · hints hidden until you finish")


mode = st.columns([2, 1, 1], vertical_alignment="center")
if interview is None:
    mode[0].caption("Interview mode: a timer, no hints, a review at the end.")
    mode[1].button("Start an interview", on_click=_start_interview, key="kata_interview_start")
elif interview["finished"] is None:
    with mode[0]:
        _timer(interview["started"])
    mode[1].button("Finish and review", on_click=_finish_interview, key="kata_interview_finish", type="primary")
else:
    mode[1].button("Leave interview mode", on_click=_leave_interview, key="kata_interview_leave")

in_progress = interview is not None and interview["finished"] is None
st.markdown(f"**The task.** Write `{problem.function}` below; the docstring states the convention exactly.")
if not in_progress:
    with st.expander("Hints"):
        for hint in problem.hints:
            st.markdown(f"- {text.markdown(hint)}")

# --------------------------------------------------------------------------- editor and Run

if "kata_editor" not in st.session_state:
    st.session_state["kata_editor"] = code
st.text_area("Your code (Python: numpy and the standard library; indent with spaces)", key="kata_editor",
             height=360, on_change=_keep_code, max_chars=attempts.MAX_CODE)
if problem_text := st.session_state.pop("_kata_save_problem", None):
    st.warning(f"Your code could not be saved: {text.markdown(problem_text)}", icon="💾")


@st.cache_resource(show_spinner=False)
def _sandbox_problem() -> str | None:
    try:
        check_available()
    except kata.SandboxUnavailable as problem:
        return str(problem)
    return None


unavailable = _sandbox_problem()
buttons = st.columns([1, 2, 3], vertical_alignment="center")
run = buttons[0].button("Run", type="primary", key="kata_run", disabled=unavailable is not None)


def _reset() -> None:
    st.session_state["kata_editor"] = problem.starter
    _keep_code()


buttons[1].button("Reset to the signature", key="kata_reset", on_click=_reset)
if unavailable:
    st.error(f"**Code cannot run here: no sandbox.** {text.markdown(unavailable)} Your code is kept; it is "
             "never run without the sandbox.", icon="🔒")


def _verdict_record(result: Result) -> dict:
    failure = result.failure
    return {"passed": result.passed, "total": result.total, "error": result.error, "stdout": result.stdout,
            "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "failure": None if failure is None else {
                "inputs": repr(failure.inputs), "expected": failure.expected, "got": failure.got,
                "matches": failure.matches, "shrunk_from": failure.shrunk_from}}


if run:
    _keep_code()
    source = st.session_state["kata_editor"]
    ticket = kata.submit(problem.key, source)
    status = st.empty()
    while not ticket.done.wait(0.2):
        position = ticket.position
        status.info(f"In the queue: position {position}. Your code runs when a sandbox is free."
                    if position else "Running your code in the sandbox…", icon="⏳")
    status.empty()
    try:
        result = ticket.wait()
    except kata.SandboxUnavailable as problem_text:
        st.error(f"**Code cannot run here: no sandbox.** {text.markdown(problem_text)}", icon="🔒")
        result = None
    except (RuntimeError, OSError) as problem_text:  # e.g. every sandbox uid busy: say so, keep the code
        st.error(f"**The judge could not run your code just now.** {text.markdown(problem_text)} Your code is "
                 "kept; press Run again in a moment.", icon="⚠️")
        result = None
    if result is not None:
        st.session_state.setdefault("_kata_results", {})[(ATTEMPT_ID, problem.key)] = result
        ATTEMPT.setdefault("verdicts", {})[problem.key] = _verdict_record(result)
        ATTEMPT.setdefault("runs", {})[problem.key] = ATTEMPT.get("runs", {}).get(problem.key, 0) + 1
        if source.strip() != problem.starter.strip():  # running the untouched signature is not an attempt
            ATTEMPT.setdefault("attempted", {})[problem.key] = True
        _save()

# --------------------------------------------------------------------------- the verdict

result = st.session_state.get("_kata_results", {}).get((ATTEMPT_ID, problem.key))
record = ATTEMPT.get("verdicts", {}).get(problem.key)


def _show_failure(failure) -> None:
    st.markdown(f"**The smallest failing case** (shrunk from {failure.shrunk_from} failing "
                f"case{'s' if failure.shrunk_from != 1 else ''}):")
    st.code(f"{problem.function}({inputs_literal(failure.inputs)})", language="python", wrap_lines=True)
    cards = st.columns(2)
    cards[0].metric("Right value", show_value(failure.expected))
    cards[1].metric("Your value", show_value(failure.got))
    if failure.matches:
        st.warning(f"**Your value matches a known convention:** {text.markdown(failure.matches)}.", icon="🔭")
    if failure.steps:
        table, first = steps_table(failure)
        st.markdown("**Step by step:** the metric on the case cut after each row, right and yours"
                    + (f"; they first part at row {first + 1} (highlighted)." if first is not None else "."))
        show_table(highlight_row(table, first), key="kata_steps")
    for title, frame in breakdown(problem, failure.inputs):
        st.markdown(f"**{text.markdown(title)}** (the right computation, as the topic page shows it)")
        show_table(frame, key=f"kata_breakdown_{title}")
    page_label = TOPIC_PAGES[problem.topic]
    if st.button("Open this case on the topic page", key="kata_open_case", icon="↗️"):
        apply(scenario_for(problem, failure.inputs))
        st.switch_page(page_label)


if result is not None:
    if result.ok:
        st.success(f"**Passed {result.passed} of {result.total}.** Every hidden case agrees within 1e-9.", icon="✅")
    else:
        st.error(f"**Passed {result.passed} of {result.total}.**", icon="❌")
    if result.error:
        st.markdown("**Your code's error** (your lines only):")
        st.code(result.error, language=None, wrap_lines=True)
    if result.failure is not None:
        _show_failure(result.failure)
    if result.stdout:
        with st.expander("What your code printed"):
            st.code(result.stdout, language=None)
elif record is not None:
    st.info(f"Last run ({text.markdown(record['at'])} UTC): passed {record['passed']} of {record['total']}. "
            "Press Run to see the details again.", icon="🕘")

if record is not None:
    header = f"# {problem.title}: passed {record['passed']} of {record['total']} ({record['at']} UTC)\n"
    st.download_button("Download your code and verdict", header + st.session_state["kata_editor"],
                       file_name=f"{problem.key}.py", mime="text/x-python", key="kata_download", on_click="ignore")

# --------------------------------------------------------------------------- review and model solutions

if interview is not None and interview["finished"] is not None:
    seconds = int(interview["finished"] - interview["started"])
    runs = ATTEMPT.get("runs", {}).get(problem.key, 0) - interview.get("runs_at_start", 0)
    st.subheader("Review")
    st.markdown(f"Time: **{seconds // 60} min {seconds % 60} s** · runs: **{runs}** · last verdict: "
                + (f"**{record['passed']} of {record['total']}**" if record else "no run"))
    if record and record.get("failure") and record["failure"]["matches"]:
        st.markdown(f"Your last failure matched: {text.markdown(record['failure']['matches'])}.")
    st.markdown("Hints you did not see:")
    for hint in problem.hints:
        st.markdown(f"- {text.markdown(hint)}")


@st.cache_data(show_spinner=False)
def _timings() -> dict:
    return auc_timings()


if ATTEMPT.get("attempted", {}).get(problem.key) and not in_progress:
    st.subheader("Model solutions")
    loop_tab, numpy_tab = st.tabs(["Plain loop", "Vectorised numpy"])
    loop_tab.code(problem.loop_solution.strip(), language="python")
    numpy_tab.code(problem.numpy_solution.strip(), language="python")
    if problem.key == "auc":
        timings = _timings()
        st.markdown(
            f"**On {timings['n']:,} samples:** the pair loop (the offline-evaluation article's O(n²) method) takes "
            f"about **{timings['loop_seconds']:,.0f} s**; sort-and-count (the faster method it mentions) takes "
            f"**{timings['numpy_seconds'] * 1000:,.0f} ms**. The loop was timed on {timings['loop_n']:,} samples "
            f"({timings['loop_measured']:.2f} s) and scaled by n², since it compares every pair.")
elif not in_progress:
    st.caption("The model solutions (a plain loop and a vectorised one) appear after you run code of your own.")

st.caption("Your code is kept on the server under the random id in this page's address: reload or bookmark the "
           "page to come back to it. Anyone you give the address to sees your code; nobody else can.")
