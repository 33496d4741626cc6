"""AppTests of “Make a question of this” on the home page and of a question sheet opened on the lessons page."""

from __future__ import annotations

import pytest

from content.lessons import editor
from content.text import markdown as escaped
from content.lessons.file_reader import read_lesson
from tests.conftest import run_page
from tests.test_lesson_sheet import BAD, GOOD, csv, xlsx
from tests.test_page_lessons import PAGE


@pytest.fixture
def home():
    at = run_page("app.py")
    assert at.expander[0].label == "Make a question of this"
    at.session_state["home_question"] = True  # the expander opened (Enter on its summary in a browser)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_editor_makes_a_lesson_that_downloads_and_loads_back_equal(home, monkeypatch):
    made = []
    original = editor.build
    monkeypatch.setattr(editor, "build", lambda *a, **k: made.append(original(*a, **k)) or made[-1])
    home.selectbox(key="home_question_metric").set_value("ndcg_at_k").run()
    home.radio(key="home_question_kind").set_value("value").run()
    assert not home.exception and not home.error
    wrong = [box for box in home.checkbox if box.key.startswith("home_question_wrong_ndcg_at_k_")]
    assert len(wrong) >= 2 and all(box.value for box in wrong)
    wrong[0].uncheck().run()  # the teacher leaves one proposed mistake out
    draft = made[-1]
    question = draft.lesson.steps[0].question
    assert len(question.options) == len(wrong)  # the right one and the ticked wrong ones
    assert [b.proto.label for b in home.get("download_button")][0] == "Download the lesson file (.toml)"
    assert read_lesson(draft.text).lesson == draft.lesson  # what the button offers loads back equal
    assert draft.lesson.steps[0].scenario["recommended"] == list(range(101, 111))
    assert home.container(key="question_preview")  # the phone-sized preview
    home.button(key="home_question_open").click().run()
    assert draft.lesson.key in home.session_state["lessons_files"]
    assert home.success[0].value.endswith("is open in this session's lessons.")


def test_a_question_opened_from_the_editor_runs_on_the_lessons_page(home):
    home.radio(key="home_question_kind").set_value("number").run()
    home.button(key="home_question_open").click().run()
    (key,) = home.session_state["lessons_files"]
    home.switch_page(PAGE)
    home.query_params["lesson"] = key
    home.query_params["step"] = "1"
    home.run()
    assert not home.exception, [e.value for e in home.exception]
    assert home.subheader[0].value == "NDCG@10 on this list"
    home.text_input(key=f"lessons_answer_{key}_0").input("0.83").run()
    assert home.success[0].value.startswith("**Right.**")


def test_the_editor_speaks_turkish():
    at = run_page("app.py", query_params={"lang": "tr"}, home_question=True)
    assert not at.exception
    assert "Bunu bir soruya dönüştür" in [e.label for e in at.expander]


@pytest.mark.parametrize("name,data", [("quiz.csv", csv(GOOD)), ("quiz.xlsx", xlsx(GOOD, instructions=2))], ids=["csv", "xlsx"])
def test_a_question_sheet_opens_as_a_lesson_of_quiz_steps(name, data):
    at = run_page(PAGE)
    at.file_uploader(key="lessons_sheet_upload").set_value((name, data, "text/csv")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.success[0].value.startswith("**quiz** is open")
    at.selectbox(key="lessons_choice").set_value("sheet-quiz").run()
    assert at.subheader[0].value == "Question 1"
    at.radio(key="lessons_answer_sheet-quiz_0").set_value("The truth").run()
    assert at.error[0].value == "**Not quite.** The answer is **The list**."
    assert "Download the imported lesson as a file (.toml)" in [b.proto.label for b in at.get("download_button")]
    at.query_params["step"] = "2"
    at.run()
    shown = f"**{escaped(GOOD[1][0])}**"  # as typed: every Markdown and HTML character escaped
    assert shown in [m.value for m in at.markdown] and "<b>" not in shown
    at.radio(key="lessons_answer_sheet-quiz_1").set_value("MRR").run()
    assert at.success[0].value == "**Right.**"


def test_a_broken_sheet_is_refused_with_each_problems_row():
    at = run_page(PAGE)
    at.file_uploader(key="lessons_sheet_upload").set_value(("bad.csv", csv(GOOD + BAD), "text/csv")).run()
    (error,) = at.error
    assert error.value.startswith("**bad\\.csv** was not loaded:")
    assert f"- {escaped('row 4: the question is missing')}" in error.value


def test_every_sentence_of_the_open_editor_comes_through_the_catalogs():
    from content import i18n
    from tests import pseudo

    at = run_page("app.py", lang=i18n.PSEUDO, home_question=True)
    assert at.expander[0].label != "Make a question of this"
    assert pseudo.untranslated(at) == []
    at.radio(key="home_question_kind").set_value("number").run()
    assert pseudo.untranslated(at) == []


@pytest.mark.parametrize("path,group,metric", [
    ("pages/2_Precision_Recall_HR_F1.py", "topn", "recall_at_k"), ("pages/3_AP_and_MAP.py", "ap", "ap_at_k"),
    ("pages/4_RR_and_MRR.py", "rr", "rr"), ("pages/5_NDCG.py", "ndcg", "ndcg_at_k")], ids=["topn", "ap", "rr", "ndcg"])
def test_each_ranking_page_opens_the_editor_on_its_own_metric(path, group, metric):
    at = run_page(path, **{f"{group}_question": True})
    assert at.selectbox(key=f"{group}_question_metric").value == metric
    assert not at.error
    if at.info and at.info[-1].value.startswith("No named mistake"):  # the seed list: every mistake agrees here
        at.radio(key=f"{group}_question_kind").set_value("number").run()
    assert "Download the lesson file (.toml)" in [b.proto.label for b in at.get("download_button")]
