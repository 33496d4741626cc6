"""The lessons page and lesson files: a teacher's file opened (or refused with its problems' lines), any lesson
downloaded as its file, the operator's folder beside the built-in lessons, a typed-number question."""

from __future__ import annotations

import pytest

from content.lessons import BY_KEY
from content.text import markdown as escaped
from content.lessons.file_reader import read_lesson
from content.lessons.library import FOLDER_VARIABLE
from tests.conftest import run_page
from tests.test_lesson_files import EXAMPLE, line_of
from tests.test_page_lessons import PAGE
from ui.controllers import lesson_library


def open_file(at, name: str, text: str):
    at.file_uploader(key="lessons_upload").set_value((name, text.encode(), "application/toml")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.fixture
def written(monkeypatch):
    """Every lesson file the page offers for download."""
    files: list[str] = []
    original = lesson_library.lesson_file

    def keep(lesson, translations=None):
        files.append(original(lesson, translations))
        return files[-1]

    monkeypatch.setattr(lesson_library, "lesson_file", keep)
    return files


def test_a_teachers_file_opens_joins_the_list_and_downloads_as_itself(written):
    at = open_file(run_page(PAGE), "recall-on-five.toml", EXAMPLE)
    assert at.success[0].value.startswith("**Recall on a list of five** is open")
    assert at.selectbox(key="lessons_choice").options[-1] == "🧪 Recall on a list of five"
    at.selectbox(key="lessons_choice").set_value("recall-on-five").run()
    assert at.subheader[0].value == "The list"
    assert at.get("download_button")[0].proto.label == "Download this lesson as a file"
    downloaded = read_lesson(written[-1])
    assert downloaded.lesson == read_lesson(EXAMPLE).lesson and downloaded.translations == read_lesson(EXAMPLE).translations


def test_a_built_in_lesson_downloads_with_its_catalog_translations(written):
    run_page(PAGE, query_params={"lesson": "ap", "step": "2"})
    downloaded = read_lesson(written[-1])
    assert downloaded.lesson == BY_KEY["ap"]
    assert downloaded.translations["tr"]["AP and MAP"] and downloaded.translations["zh"]["AP and MAP"]


def test_a_broken_file_is_refused_with_each_problems_line_and_field():
    broken = EXAMPLE.replace("k = 3", "k = 7", 1).replace('kind = "demonstrate"', 'kind = "lecture"')
    at = open_file(run_page(PAGE), "broken.toml", broken)
    (error,) = at.error
    assert error.value.startswith("**broken\\.toml** was not loaded:")
    assert escaped(f"line {line_of(broken, 'k = 7')}, steps[1].scenario.k") in error.value
    assert escaped(f"line {line_of(broken, 'lecture')}, steps[2].kind") in error.value
    assert "🧪 Recall on a list of five" not in at.selectbox(key="lessons_choice").options


def test_a_typed_number_question_shows_its_tolerance_and_checks_the_typed_value():
    at = open_file(run_page(PAGE), "recall-on-five.toml", EXAMPLE)
    at.query_params.update({"lesson": "recall-on-five", "step": "3"})
    at.run()
    assert "Give it to 2 decimal places." in [c.value for c in at.caption]
    at.text_input(key="lessons_answer_recall-on-five_2").input("0.4").run()
    assert at.error[0].value == "**Not quite.** You typed 0.4; the exact value is **0.50**."
    at.text_input(key="lessons_answer_recall-on-five_2").input("0.5").run()
    assert at.success[0].value == "**Right.** The exact value is 0.50."


def test_the_operators_folder_adds_its_lessons_and_lists_a_broken_files_problems(tmp_path, monkeypatch):
    (tmp_path / "good.toml").write_text(EXAMPLE)
    (tmp_path / "bad.toml").write_text(EXAMPLE.replace('id = "recall-on-five"', 'id = "bad"').replace("k = 3", "k = 0", 1))
    monkeypatch.setenv(FOLDER_VARIABLE, str(tmp_path))
    at = run_page(PAGE)
    assert "🧪 Recall on a list of five" in at.selectbox(key="lessons_choice").options
    assert at.warning[0].value == "Some lesson files of the server's folder were not loaded:"
    shown = [m.value for m in at.markdown if m.value.startswith("**bad\\.toml**")]
    assert shown and escaped(f"line {line_of(EXAMPLE, 'k = 3')}, steps[1].scenario.k") in shown[0]
