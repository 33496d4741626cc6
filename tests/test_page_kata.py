"""The Write-it-yourself page as a candidate uses it: pick, write, run, read the verdict, reload."""

import json

import pytest

import kata
from kata import attempts
from tests.conftest import run_page, texts
from tests.kata_page import editor_code, editor_element, type_code
from tests.kata_samples import WRONG
from ui.state import TOPIC_PAGES

PAGE = TOPIC_PAGES["kata"]


@pytest.fixture(autouse=True)
def private_store(tmp_path, monkeypatch):
    monkeypatch.setattr(attempts, "STORE", tmp_path)
    return tmp_path


def open_page(**query):
    return run_page(PAGE, query_params=query)


def write_and_run(at, problem: str, code: str):
    if at.selectbox(key="kata_problem").value != problem:  # an interview holds its problem (the box is disabled)
        at.selectbox(key="kata_problem").set_value(problem).run()
    type_code(at, code)
    at.button(key="kata_run").click().run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_opens_with_the_first_problem_and_its_signature():
    at = open_page()
    assert editor_code(at).startswith("def precision_at_k(recommended, relevant, k):")
    assert attempts.valid_id(at.query_params["attempt"][0] if isinstance(at.query_params["attempt"], list)
                             else at.query_params["attempt"])
    assert "appear after a passing run, or if you give up" in texts(at)
    at.button(key="kata_run").click().run(timeout=60)
    assert "NotImplementedError" in "\n".join(c.value for c in at.code)
    assert not any("Model solutions" in h.value for h in at.subheader)  # a failing run reveals nothing


def test_a_correct_solution_passes_all_and_reveals_the_model_solutions():
    at = write_and_run(open_page(), "auc", kata.PROBLEMS["auc"].numpy_solution)
    assert any("Passed 200 of 200" in s.value for s in at.success)
    shown = "\n".join(c.value for c in at.code)
    assert "for p in positives:" in shown and "np.argsort" in shown
    assert "scaled by n²" in texts(at)


def test_a_wrong_solution_shows_the_shrunk_case_the_convention_and_the_steps():
    at = write_and_run(open_page(), "average_precision_at_k", WRONG["average_precision_at_k"]["ap_denominator=hits"])
    assert any("Passed" in e.value and "of 200" in e.value for e in at.error)
    assert "torchmetrics" in "\n".join(w.value for w in at.warning)
    assert any(c.value.startswith("average_precision_at_k(recommended=") for c in at.code)
    values = {m.label: m.value for m in at.metric}
    assert values["Right value"] != values["Your value"]
    assert "they first part at row" in texts(at)
    assert at.button(key="kata_open_case")


def test_an_exception_shows_the_candidates_line_not_the_apps_traceback():
    at = write_and_run(open_page(), "rmse", "def rmse(predictions, actuals):\n    return 1 / 0\n")
    error = next(c.value for c in at.code if "ZeroDivisionError" in c.value)
    assert "line 2, in rmse: return 1 / 0" in error and "harness" not in error and "Traceback" not in error


def test_the_attempt_survives_a_reload_and_stays_private():
    at = write_and_run(open_page(), "mae", kata.PROBLEMS["mae"].loop_solution)
    attempt_id = at.query_params["attempt"]
    attempt_id = attempt_id[0] if isinstance(attempt_id, list) else attempt_id
    again = open_page(attempt=attempt_id)
    assert again.selectbox(key="kata_problem").value == "mae"
    assert editor_code(again) == kata.PROBLEMS["mae"].loop_solution
    assert "passed 200 of 200" in "\n".join(i.value for i in again.info)
    stranger = open_page()
    assert editor_code(stranger).startswith("def precision_at_k")


def test_interview_mode_hides_hints_then_reviews():
    at = open_page()
    at.selectbox(key="kata_problem").set_value("rmse").run()
    assert any(e.label == "Hints" for e in at.expander)
    at.button(key="kata_interview_start").click().run()
    assert not any(e.label == "Hints" for e in at.expander)
    assert "Interview mode" in texts(at)
    at = write_and_run(at, "rmse", kata.PROBLEMS["rmse"].loop_solution)
    assert not any("Model solutions" in h.value for h in at.subheader)  # not before the review
    at.button(key="kata_interview_finish").click().run()
    assert any(h.value == "Review" for h in at.subheader)
    assert "runs: **1**" in texts(at)
    assert any("Model solutions" in h.value for h in at.subheader)


def test_without_a_sandbox_run_is_disabled_and_says_how_to_install(monkeypatch):
    from kata import sandbox
    monkeypatch.setattr(sandbox, "BWRAP", "/nonexistent/bwrap")
    import streamlit as st
    st.cache_resource.clear()
    at = open_page()
    assert at.button(key="kata_run").disabled
    assert "apt-get install -y bubblewrap" in texts(at)
    st.cache_resource.clear()


def test_the_button_opens_the_shrunk_case_on_the_topic_page():
    at = write_and_run(open_page(), "average_precision_at_k", WRONG["average_precision_at_k"]["ap_denominator=hits"])
    failure_call = next(c.value for c in at.code if c.value.startswith("average_precision_at_k(recommended="))
    at.button(key="kata_open_case").click().run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "📈 AP and MAP"
    recommended = at.session_state["recommended"]["item"].tolist()
    assert f"recommended={[int(i) for i in recommended]!r}" in failure_call
    assert f"k={at.session_state['k']})" in failure_call


def test_a_judge_that_cannot_start_is_a_message_not_a_traceback(monkeypatch):
    from kata import judge

    def busy(*args, **kwargs):
        raise RuntimeError("every sandbox uid from 61000 to 61063 is in use")
    monkeypatch.setattr(judge, "_judge", busy)
    at = write_and_run(open_page(), "mae", kata.PROBLEMS["mae"].loop_solution)
    assert "could not run your code just now" in texts(at)
    assert editor_code(at) == kata.PROBLEMS["mae"].loop_solution


# --------------------------------------------------------------------------- fair: the model solution (7-8)

def model_shown(at) -> bool:
    return any("Model solutions" in h.value for h in at.subheader)


def attempt_of(at) -> str:
    value = at.query_params["attempt"]
    return value[0] if isinstance(value, list) else value


def test_a_failing_run_never_shows_the_model_solution_giving_up_does():
    at = write_and_run(open_page(), "rmse", "def rmse(predictions, actuals):\n    return 0\n")
    assert any("Passed" in e.value for e in at.error) and not model_shown(at)
    assert "for p, a in zip" not in "\n".join(c.value for c in at.code)
    at.button(key="kata_give_up").click().run()
    assert model_shown(at)
    assert attempts.load(attempt_of(at))["state"]["rmse"] == "given_up"


def test_a_second_tab_opens_the_open_interview_and_its_runs_count(monkeypatch):
    from ui import browser
    monkeypatch.setattr(browser, "browser_key", lambda: "xsrf:one-browser")
    first = open_page()
    first.selectbox(key="kata_problem").set_value("rmse").run()
    first.button(key="kata_interview_start").click().run()
    interview_id = attempt_of(first)

    second = open_page()  # a new tab, no ?attempt= in its address
    assert attempt_of(second) == interview_id
    assert "every tab of this page opens it" in texts(second) and "Interview mode" in texts(second)
    assert second.selectbox(key="kata_problem").value == "rmse" and second.selectbox(key="kata_problem").disabled
    type_code(second, "def rmse(predictions, actuals):\n    return 0\n")
    second.button(key="kata_run").click().run(timeout=60)
    assert not model_shown(second)
    other_tab = open_page(attempt=attempts.new_id())  # even another attempt's address opens the interview
    assert attempt_of(other_tab) == interview_id and not model_shown(other_tab)

    first.run()
    assert editor_code(first).endswith("return 0\n")  # the code the other tab ran
    first.button(key="kata_interview_finish").click().run()
    assert "runs: **1**" in texts(first)
    assert not model_shown(first)  # finished without a passing run: still hidden
    runs = attempts.load(interview_id)["interview"]["rmse"]["runs"]
    assert len(runs) == 1 and runs[0]["passed"] < runs[0]["total"] and runs[0]["seed"] is not None


def test_giving_up_in_an_interview_ends_it_and_the_review_says_so(monkeypatch):
    from ui import browser
    monkeypatch.setattr(browser, "browser_key", lambda: "xsrf:another-browser")
    at = open_page()
    at.selectbox(key="kata_problem").set_value("mae").run()
    at.button(key="kata_interview_start").click().run()
    assert not model_shown(at)
    at.button(key="kata_give_up").click().run()
    assert model_shown(at) and "You gave up on this problem." in texts(at)
    assert any(h.value == "Review" for h in at.subheader)
    assert attempts.open_interview("xsrf:another-browser") is None
    fresh = open_page()  # the interview is over: a new tab is a new attempt again
    assert attempt_of(fresh) != attempt_of(at)


# --------------------------------------------------------------------------- what the verdict shows (14, cases, runtime)

def test_a_returned_objects_repr_shows_as_typed_not_as_markdown():
    code = ("class Verdict:\n    def __repr__(self):\n        return ':red[PASSED] [see](http://example.com)'\n"
            "def mae(predictions, actuals):\n    return Verdict()\n")
    at = write_and_run(open_page(), "mae", code)
    yours = next(m.value for m in at.metric if m.label == "Your value")
    assert ":red[" not in yours and "](" not in yours
    assert yours.startswith("\\:\u2060red\\[PASSED\\]")


def test_float32_values_show_the_digits_where_they_differ():
    code = ("import numpy as np\ndef mae(predictions, actuals):\n"
            "    return float(np.float32(sum(abs(p - a) for p, a in zip(predictions, actuals)) / len(actuals)))\n")
    at = write_and_run(open_page(), "mae", code)
    values = {m.label: m.value for m in at.metric}
    assert values["Right value"] != values["Your value"]
    right, yours = float(values["Right value"]), float(values["Your value"])
    # They part only where float32 rounds (a relative 6e-8 at most), so six significant digits would show the
    # same card in all but the rare case that straddles a rounding boundary (the cases are drawn afresh).
    assert abs(right - yours) <= 1e-6 * abs(right)


def test_cases_are_listed_by_kind_with_the_first_failing_one_opened():
    at = write_and_run(open_page(), "reciprocal_rank", WRONG["reciprocal_rank"]["cutoff_10"])
    headings = {e.label: e for e in at.expander if "passed" in e.label}
    assert [label.split(":")[0] for label in headings] == ["The documents' examples", "Edge cases",
                                                           "Random cases, drawn afresh for this run"]
    assert [e.proto.expanded for e in headings.values()] == [False, True, False]  # the edge holding rank 12
    assert "The first failing case" in texts(at)
    tables = [d.value for d in at.dataframe if "verdict" in d.value.columns][:3]  # the session's history follows
    assert [len(t) for t in tables] == [sum(c.kind == kind for c in at.session_state["_kata_results"][
        next(iter(at.session_state["_kata_results"]))].cases) for kind in ("example", "edge", "random")]
    assert (tables[1]["verdict"] == "❌").sum() >= 1 and "Runtime" in texts(at)


def test_a_passing_run_shows_its_runtime_against_the_model_solution():
    at = write_and_run(open_page(), "mae", kata.PROBLEMS["mae"].numpy_solution)
    assert "the model solution (plain loop)" in texts(at) and "µs per call" in texts(at)
    assert "The first failing case" not in texts(at)


def test_one_browser_keeps_its_key_though_streamlit_masks_its_cookie_anew_on_each_load():
    """Two loads of this page in one Chromium profile: the cookie differs, the token under its mask does not."""
    from ui.browser import xsrf_token
    first = "2|474da108|00f011a7e291bb68e3f33a3bac8ccd32|1796324275"
    second = "2|00a15b3f|471ceb90a57d415fa41fc00ceb603705|1796324275"
    assert first != second and xsrf_token(first) == xsrf_token(second) == "47bdb0afa5dc1a60a4be9b33ebc16c3a"
    assert xsrf_token("not-a-tornado-cookie") == "not-a-tornado-cookie"


# --------------------------------------------------------------------------- the code editor

def test_the_editor_is_ace_with_line_numbers_soft_tabs_and_a_way_out_for_the_keyboard():
    args = json.loads(editor_element(open_page()).proto.json_args)
    assert args["lang"] == "python" and args["response_mode"] == "blur"
    assert args["options"]["showLineNumbers"] and args["options"]["useSoftTabs"]
    assert args["options"]["enableKeyboardAccessibility"]
    assert args["props"]["theme"] == "chrome"  # an Ace theme: the component's own @import Google's fonts


def test_the_text_the_editor_sends_is_kept_and_run_exactly():
    exact = ("def mae(predictions, actuals):\r\n\t# ünïcödé, a tab, trailing spaces   \n"
             "    return sum(abs(p - a) for p, a in zip(predictions, actuals)) / len(actuals)")  # no final newline
    at = write_and_run(open_page(), "mae", exact)
    attempt_id = at.query_params["attempt"]
    attempt_id = attempt_id[0] if isinstance(attempt_id, list) else attempt_id
    assert attempts.load(attempt_id)["code"]["mae"] == exact
    assert any("Passed 200 of 200" in s.value for s in at.success)


def test_code_over_the_limit_is_neither_saved_nor_run_and_says_so():
    at = open_page()
    type_code(at, kata.PROBLEMS["precision_at_k"].loop_solution)
    type_code(at, "x = 1\n" * 4000)
    assert at.button(key="kata_run").disabled
    assert "over the limit of 20,000" in "\n".join(e.value for e in at.error)
    assert editor_code(at) == kata.PROBLEMS["precision_at_k"].loop_solution  # the last text that fitted
    at.run()  # another rerun (a click elsewhere): still refused until the editor sends a shorter text
    assert at.button(key="kata_run").disabled
    type_code(at, "x = 2\n")
    assert not at.button(key="kata_run").disabled and not at.error


def test_reset_and_switching_problems_mount_the_right_code():
    at = open_page()
    type_code(at, "def precision_at_k(recommended, relevant, k):\n    return 0.5\n")
    at.selectbox(key="kata_problem").set_value("mae").run()
    assert editor_code(at).startswith("def mae(predictions, actuals):")
    at.selectbox(key="kata_problem").set_value("precision_at_k").run()
    assert editor_code(at) == "def precision_at_k(recommended, relevant, k):\n    return 0.5\n"
    key_before = at.session_state["_kata_editor_key"]
    at.button(key="kata_reset").click().run()
    assert editor_code(at) == kata.PROBLEMS["precision_at_k"].starter
    assert at.session_state["_kata_editor_key"] != key_before  # a fresh editor, so the browser shows the signature


# --------------------------------------------------------------------------- Run on my input

SHORT_LIST = "def precision_at_k(recommended, relevant, k):\n    top = recommended[:k]\n" \
             "    return sum(item in relevant for item in top) / len(top)\n"


def test_run_on_my_input_shows_the_values_side_by_side_and_never_the_model_code():
    at = open_page()
    type_code(at, SHORT_LIST)
    at.text_area(key="kata_input_precision_at_k").input("recommended=[1, 2], relevant={2}, k=5").run()
    at.button(key="kata_try").click().run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    table = at.dataframe[0].value
    assert list(table.columns) == ["input", "right", "yours", "same"]
    assert table["input"].iloc[-1] == "your input: recommended=[1, 2], relevant={2}, k=5"
    assert (table["right"].iloc[-1], table["yours"].iloc[-1], table["same"].iloc[-1]) == ("0.2", "0.5", "no")
    assert len(table) == 1 + len(kata.cases.EXAMPLES["ranking"])
    shown = "\n".join(c.value for c in at.code)
    assert "hits += 1" not in shown and not any("Model solutions" in h.value for h in at.subheader)
    saved = attempts.load(at.session_state["_kata_attempt_id"])
    assert not saved.get("runs") and not saved.get("verdicts")  # a try is not a judged run


def test_an_input_that_cannot_run_says_why_and_keeps_what_was_typed():
    at = open_page()
    typed = "recommended=[1, 1], relevant={2}, k=2"
    at.text_area(key="kata_input_precision_at_k").input(typed).run()
    at.button(key="kata_try").click().run(timeout=60)
    message = "\n".join(e.value for e in at.error)
    assert "Your input cannot run" in message and "duplicate item 1" in message
    assert at.text_area(key="kata_input_precision_at_k").value == typed
    assert not at.dataframe


# --------------------------------------------------------------------------- the history of runs

def test_the_history_lists_each_run_and_diffs_two_as_escaped_code():
    at = open_page()
    first = "def precision_at_k(recommended, relevant, k):\n    return 0.0  # :red[PASSED] <b>x</b>\n"
    raising = "def precision_at_k(recommended, relevant, k):\n    return 1 / 0\n"
    for code in (first, raising, kata.PROBLEMS["precision_at_k"].loop_solution):
        type_code(at, code)
        at.button(key="kata_run").click().run(timeout=60)
        assert not at.exception, [e.value for e in at.exception]
    history = at.dataframe[-1].value
    assert history["run"].tolist() == ["run 1", "run 2", "run 3"]
    assert history["verdict"].tolist() == ["❌ a wrong value", "⚠️ an error or a limit", "✅ all passed"]
    assert history["passed"].iloc[-1] == "200 of 200"
    at.selectbox(key="kata_diff_from_precision_at_k").set_value(1).run()
    shown = next(c for c in at.code if c.language == "diff").value
    assert shown.startswith("--- run 1\n+++ run 3\n")
    assert "-    return 0.0  # :red[PASSED] <b>x</b>" in shown and "+        if item in relevant:" in shown
    assert not any(":red[PASSED]" in m.value for m in at.markdown)  # typed text only ever inside the code block


def test_the_history_is_the_sessions_own():
    at = open_page()
    type_code(at, SHORT_LIST)
    at.button(key="kata_run").click().run(timeout=60)
    other = open_page(attempt=at.session_state["_kata_attempt_id"])  # the same address, another session
    assert not any("Your runs" in e.label for e in other.expander)


def test_a_try_disappears_once_the_code_changes():
    at = open_page()
    type_code(at, SHORT_LIST)
    at.button(key="kata_try").click().run(timeout=60)
    assert at.dataframe
    type_code(at, kata.PROBLEMS["precision_at_k"].loop_solution)
    assert not at.dataframe  # its values were another code's


def test_the_editors_page_and_scripts_ship_in_its_wheel():
    """Its index.html loads only files beside it; the one remote URL that code can load (a font @import in
    the component's own two themes) stays unused because the editor is given an Ace theme."""
    import re
    from pathlib import Path

    import code_editor

    from ui.kata_editor import THEMES

    build = Path(code_editor.__file__).parent / "frontend" / "build"
    index = (build / "index.html").read_text()
    references = re.findall(r'(?:src|href)="([^"]+)"', index)
    assert references and all(ref.startswith("./") for ref in references)
    assert not set(THEMES.values()) & {"streamlit_light", "streamlit_dark"}
    assert all((build / name).exists() for name in re.findall(r'src="\./([^"]+)"', index))
