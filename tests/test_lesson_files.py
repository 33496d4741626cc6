"""Lesson files: every problem of a file found at once, each with its line and field; the limits; the writer's
round trip; a folder whose broken file does not hide the others."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from content import i18n
from content.lessons import LESSONS
from content.lessons import problems as say
from content.lessons.file_reader import MAX_BYTES, MAX_STEPS, read_lesson
from content.lessons.file_writer import to_toml
from content.lessons.library import FOLDER_VARIABLE, operator_folder, read_folder
from content.lessons.schema import Tolerance
from tests.conftest import ROOT

EXAMPLE = (ROOT / "docs" / "examples" / "recall-on-five.toml").read_text()


def line_of(text: str, fragment: str, after: str = "") -> int:
    """The 1-based line of the first ``fragment`` after the first ``after``."""
    start = text.index(after) if after else 0
    return text[: text.index(fragment, start)].count("\n") + 1


def found(text: str) -> list[tuple[int | None, str, str]]:
    return [(p.line, p.field, p.message) for p in read_lesson(text).problems]


def test_the_documented_example_loads_and_its_typed_number_answer_is_computed():
    loaded = read_lesson(EXAMPLE)
    assert loaded.problems == ()
    question = loaded.lesson.steps[2].question
    assert (question.kind, question.answer, question.tolerance) == ("number", "0.50", Tolerance("decimals", 2))
    assert loaded.lesson.steps[0].view == "topn", "a ranking step's view defaults to the top-K view"
    assert loaded.translations == {"tr": {"Recall on a list of five": "Beş öğelik bir listede Recall"}}


def test_the_docs_page_shows_the_example_file_as_it_is():
    assert EXAMPLE.strip() in (ROOT / "docs" / "lesson-files.md").read_text()


def test_a_toml_syntax_error_names_its_line():
    broken = EXAMPLE.replace('kind = "show"', 'kind = "show', 1)
    ((line, _field, message),) = found(broken)
    assert message == say.NOT_TOML and line == line_of(EXAMPLE, 'kind = "show"')


def test_every_problem_is_found_at_once_each_with_its_line_and_field():
    broken = (EXAMPLE
              .replace('kind = "demonstrate"', 'kind = "lecture"')                      # unknown step kind
              .replace("recommended = [11, 12, 13, 14, 15]\nground_truth = { 12 = 1, 15 = 1 }\nk = 5",
                       "recommended = [11, 12, 13, 14, 15]\nk = 5")                     # missing field
              .replace('title = "Type Recall@3"', 'title = "Type Recall@3"\ncolour = "red"')  # unknown key
              .replace("ground_truth = { 12 = 1, 15 = 1 }\nk = 3\n\n[steps.question]\nprompt = \"What is Precision@3?\"",
                       "ground_truth = { 12 = 1, 15 = 1 }\nk = 9\n\n[steps.question]\nprompt = \"What is Precision@3?\"")
              .replace('label = "0.5"\nvalue = 0.5', 'label = "0.5"\nvalue = "half"'))   # wrong type
    problems = found(broken)
    lines = broken.splitlines()
    by_message = {message: (line, field) for line, field, message in problems}
    assert by_message[say.NOT_ONE_OF] == (line_of(broken, '"lecture"'), "steps[2].kind")
    assert by_message[say.MISSING] == (line_of(broken, "[steps.scenario]", "K grows"), "steps[2].scenario.ground_truth")
    assert by_message[say.UNKNOWN_KEY] == (line_of(broken, "colour"), "steps[3].colour")
    assert by_message[say.K_OUT_OF_RANGE] == (line_of(broken, "k = 9"), "steps[4].scenario.k")
    assert by_message[say.WRONG_TYPE] == (line_of(broken, 'value = "half"'), "steps[4].question.options[2].value")
    assert all(lines[line - 1] for line, _f, _m in problems), "every line points at the text"


def test_an_item_listed_twice_is_refused_at_its_place_in_the_list():
    broken = EXAMPLE.replace("recommended = [11, 12, 13, 14, 15]", "recommended = [11, 12, 13, 12, 15]", 1)
    assert found(broken) == [(line_of(broken, "[11, 12, 13, 12"), "steps[1].scenario.recommended[4]",
                              say.DUPLICATE_ITEM)]
    assert "item 12 is listed twice" in read_lesson(broken).problems[0].text()


def test_an_option_value_that_disagrees_with_the_computation_refuses_the_file_naming_the_step_and_why():
    broken = EXAMPLE.replace("value = 0.3333", "value = 0.25").replace('label = "0.3333"', 'label = "0.25"')
    ((line, field, message),) = found(broken)
    assert (line, field, message) == (line_of(broken, "[steps.question]", "Choose Precision@3"),
                                      "steps[4].question", say.NO_OPTION_MATCHES)
    shown = read_lesson(broken).problems[0].text()
    assert "precision_at_k = 0.3333" in shown and "0.25, 0.5" in shown


def test_a_label_and_its_value_must_say_the_same_number():
    broken = EXAMPLE.replace('label = "0.5"', 'label = "0.6"')
    assert found(broken) == [(line_of(broken, "value = 0.5"), "steps[4].question.options[2].value",
                              say.LABEL_DISAGREES)]


def test_the_answer_is_never_typed():
    broken = EXAMPLE.replace('kind = "number"', 'kind = "number"\nanswer = "0.5"')
    assert found(broken) == [(line_of(broken, 'answer = "0.5"'), "steps[3].question.answer", say.ANSWER_TYPED)]


def test_a_number_question_states_one_tolerance():
    assert found(EXAMPLE.replace("tolerance = { decimals = 2 }\n", ""))[0][1:] == ("steps[3].question", say.NEEDS)
    both = EXAMPLE.replace("{ decimals = 2 }", "{ decimals = 2, absolute = 0.01 }")
    assert found(both)[0][1:] == ("steps[3].question.tolerance", say.ONE_TOLERANCE)


@pytest.mark.parametrize(("tolerance", "typed", "right"), [
    (Tolerance("decimals", 2), 0.33, True), (Tolerance("decimals", 2), 0.34, False),
    (Tolerance("absolute", 0.01), 0.343, True), (Tolerance("absolute", 0.01), 0.345, False),
    (Tolerance("relative", 0.05), 0.35, True), (Tolerance("relative", 0.05), 0.36, False)])
def test_a_typed_number_is_right_within_its_tolerance(tolerance, typed, right):
    assert tolerance.accepts(typed, 1 / 3) is right


def test_an_unknown_language_and_a_translated_sentence():
    broken = EXAMPLE.replace('title.tr = "', 'title.fr = "')
    assert found(broken) == [(line_of(broken, "title.fr"), "title.fr", say.UNKNOWN_LANGUAGE)]


def test_the_size_and_step_limits_are_refused_with_a_message():
    padded = EXAMPLE + "#" * MAX_BYTES
    (big,) = read_lesson(padded).problems
    assert big.message == say.TOO_BIG and f"at most {MAX_BYTES}" in big.text()
    step = EXAMPLE[EXAMPLE.index("[[steps]]"): EXAMPLE.index("[[steps]]", EXAMPLE.index("[[steps]]") + 1)]
    many = EXAMPLE + ("\n" + step) * MAX_STEPS
    (steps,) = read_lesson(many).problems
    assert steps.message == say.TOO_MANY_STEPS and f"{MAX_STEPS + 5} steps" in steps.text()


def test_problems_read_in_the_readers_language():
    broken = EXAMPLE.replace("recommended = [11, 12, 13, 14, 15]", "recommended = [11, 12, 13, 12, 15]", 1)
    (problem,) = read_lesson(broken).problems
    with i18n.speaking("tr"):
        turkish = problem.text()
    with i18n.speaking("zh"):
        chinese = problem.text()
    assert "12" in turkish and turkish != problem.text() and chinese != problem.text()


# --------------------------------------------------------------------------- the writer


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_every_built_in_lesson_round_trips_with_its_catalog_translations(lesson):
    from ui.controllers.lesson_library import catalog_translations

    said = catalog_translations(lesson)
    loaded = read_lesson(to_toml(lesson, said))
    assert loaded.problems == () and loaded.lesson == lesson
    assert loaded.translations == {code: messages for code, messages in said.items() if messages}


SENTENCES = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=300)


@settings(max_examples=60, deadline=None)
@given(title=SENTENCES, text=SENTENCES, why=SENTENCES)
def test_any_sentence_survives_the_round_trip(title, text, why):
    lesson = read_lesson(EXAMPLE).lesson
    steps = list(lesson.steps)
    question = steps[2].question.__class__(**{**steps[2].question.__dict__, "why": why})
    steps[2] = steps[2].__class__(**{**steps[2].__dict__, "text": text, "question": question})
    changed = lesson.__class__(lesson.key, title, lesson.icon, lesson.topic, lesson.summary, tuple(steps))
    assert read_lesson(to_toml(changed)).lesson == changed


# --------------------------------------------------------------------------- folders


def test_a_broken_file_in_a_folder_does_not_hide_the_others(tmp_path: Path):
    (tmp_path / "a_good.toml").write_text(EXAMPLE)
    (tmp_path / "b_broken.toml").write_text(EXAMPLE.replace('id = "recall-on-five"', 'id = "other"')
                                            .replace("k = 3", "k = 0", 1))
    (tmp_path / "c_twin.toml").write_text(EXAMPLE)
    (tmp_path / "d_huge.toml").write_text(EXAMPLE + "#" * MAX_BYTES)
    (tmp_path / "notes.txt").write_text("not a lesson")
    shelf = read_folder(tmp_path, {"topn": "built in"})
    assert [lesson.key for lesson in shelf.lessons] == ["recall-on-five"]
    refused = {r.name: [p.message for p in r.problems] for r in shelf.refused}
    assert refused == {"b_broken.toml": [say.K_OUT_OF_RANGE], "c_twin.toml": [say.ID_TAKEN], "d_huge.toml": [say.TOO_BIG]}


def test_the_operators_folder_is_named_by_the_environment(tmp_path: Path, monkeypatch):
    monkeypatch.delenv(FOLDER_VARIABLE, raising=False)
    assert operator_folder({}).lessons == ()
    monkeypatch.setenv(FOLDER_VARIABLE, str(tmp_path / "missing"))
    assert [p.message for r in operator_folder({}).refused for p in r.problems] == ["{variable} names {folder}, which "
                                                                                     "is not a folder"]
    (tmp_path / "lesson.toml").write_text(EXAMPLE.replace('id = "recall-on-five"', 'id = "topn"'))
    monkeypatch.setenv(FOLDER_VARIABLE, str(tmp_path))
    (refused,) = operator_folder({lesson.key: "built in" for lesson in LESSONS}).refused
    assert refused.problems[0].message == say.ID_TAKEN and refused.problems[0].line == 2


def test_the_readmes_first_lesson_loads_and_says_what_the_reader_does():
    """The README's first lesson file: no problem, its right answers computed, and the limits and the variable it
    names the reader's own."""
    import re

    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Teachers' own lessons"):readme.index("## The manual")]
    loaded = read_lesson(re.search(r"```toml\n(.*?)```", section, re.S).group(1))
    assert loaded.problems == ()
    typed, own = (step.question for step in loaded.lesson.steps)
    assert (typed.kind, typed.answer, typed.tolerance) == ("number", "0.50", Tolerance("decimals", 2))
    recommended, truth, k = [11, 12, 13, 14, 15], {12, 15}, 3  # its why: one hit in the first three, two relevant
    assert (sum(item in truth for item in recommended[:k]), len(truth)) == (1, 2)
    assert own.variant == {"length": 6, "relevant": 3, "grades": [1, 1], "k": 3, "seed": 7}
    assert own.tolerance == Tolerance("absolute", 0.01)
    assert f"{MAX_BYTES // 1024} KB" in section and f"{MAX_STEPS} steps" in section
    assert f"`{FOLDER_VARIABLE}=" in section
