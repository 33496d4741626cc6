"""A question sheet (Kahoot's layout, CSV or .xlsx) becomes a lesson of quiz steps; every problem is said by row."""

from __future__ import annotations

import io

import openpyxl
import pytest

from content.lessons import sheet
from content.lessons.file_reader import read_lesson
from content.lessons.file_writer import to_toml

HEADER = ["Question - max 120 characters", "Answer 1 - max 75 characters", "Answer 2 - max 75 characters",
          "Answer 3 - max 75 characters", "Answer 4 - max 75 characters",
          "Time limit (sec) – 5, 10, 20, 30, 60, 90, 120, or 240 secs", "Correct answer(s) - choose at least one"]
GOOD = [
    ["What does K cut?", "The list", "The truth", "", "", 20, 1],
    ["Which are ranking metrics? **bold** <b>x</b>", "NDCG", "RMSE", "MRR", "AUC", 30, "1,3"],
]
BAD = [
    ["", "a", "b", "", "", 20, 1],                                  # row: no question
    ["One answer only?", "a", "", "", "", 20, 1],                   # fewer than two answers
    ["Which?", "a", "b", "", "", 20, 5],                            # correct answer not among 1-4
    ["Which one?", "a", "b", "", "", "soon", 2],                    # time limit not a number
    ["Negative time?", "a", "b", "", "", -10, 2],                   # time limit not positive
    ["Q" * 121, "a", "b", "", "", 20, 1],                           # question too long
    ["Long answer?", "a" * 76, "b", "", "", 20, 1],                 # answer too long
    ["Empty right answer?", "a", "b", "", "", 20, 3],               # points to an empty answer
    ["Same twice?", "yes", "yes", "", "", 20, 1],                   # two answers the same
]


def xlsx(rows: list[list], instructions: int = 0) -> bytes:
    """A real .xlsx, as Kahoot's template: some rows of instructions, the header, then one question a row."""
    book = openpyxl.Workbook()
    sheet_ = book.active
    for number in range(instructions):
        sheet_.append([f"Instructions line {number + 1}"])
    sheet_.append(HEADER)
    for row in rows:
        sheet_.append([None if cell == "" else cell for cell in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def csv(rows: list[list]) -> bytes:
    import csv as csv_module
    out = io.StringIO()
    writer = csv_module.writer(out)
    writer.writerow(HEADER)
    writer.writerows(rows)
    return out.getvalue().encode()


@pytest.mark.parametrize("make,name", [(csv, "quiz.csv"), (lambda rows: xlsx(rows, instructions=3), "quiz.xlsx")])
def test_a_good_sheet_is_a_lesson_of_quiz_steps_that_writes_and_reads_back(make, name):
    imported = sheet.read_sheet(make(GOOD), name)
    assert imported.problems == ()
    lesson = imported.lesson
    assert lesson.key == "sheet-quiz" and [step.kind for step in lesson.steps] == ["quiz", "quiz"]
    first, second = (step.question for step in lesson.steps)
    assert first.kind == "choice" and first.time_limit == 20
    assert [(o.label, o.correct) for o in first.options] == [("The list", True), ("The truth", False)]
    assert second.prompt == "Which are ranking metrics? **bold** <b>x</b>"  # kept as typed
    assert [o.label for o in second.options if o.correct] == ["NDCG", "MRR"]
    loaded = read_lesson(to_toml(lesson, imported.translations))
    assert loaded.problems == () and loaded.lesson == lesson


@pytest.mark.parametrize("make,name,first_row", [(csv, "bad.csv", 2), (lambda rows: xlsx(rows, 2), "bad.xlsx", 4)])
def test_every_problem_is_listed_with_its_row(make, name, first_row):
    imported = sheet.read_sheet(make(GOOD + BAD), name)
    assert imported.lesson is None
    by_row = {}
    for problem in imported.problems:
        by_row.setdefault(problem.row - first_row - len(GOOD), []).append(problem.message)
    assert by_row == {
        0: [sheet.MISSING_QUESTION], 1: [sheet.TOO_FEW_ANSWERS], 2: [sheet.BAD_CORRECT], 3: [sheet.BAD_TIME],
        4: [sheet.BAD_TIME], 5: [sheet.QUESTION_TOO_LONG], 6: [sheet.ANSWER_TOO_LONG], 7: [sheet.EMPTY_CORRECT],
        8: [sheet.SAME_ANSWER],
    }
    said = [problem.text() for problem in imported.problems]
    assert said[0] == f"row {first_row + len(GOOD)}: the question is missing"
    assert f"row {first_row + len(GOOD) + 2}: the correct answer “5” is not among 1 to 4" in said[2]


def test_too_many_rows_no_header_and_other_files_are_refused():
    many = sheet.read_sheet(csv([["Q?", "a", "b", "", "", 20, 1]] * (sheet.MAX_QUESTIONS + 1)), "many.csv")
    assert [p.message for p in many.problems] == [sheet.TOO_MANY]
    assert sheet.read_sheet(b"a,b\n1,2\n", "x.csv").problems[0].message == sheet.NO_HEADER
    assert sheet.read_sheet(b"anything", "x.txt").problems[0].message == sheet.NOT_A_SHEET
    assert sheet.read_sheet(b"not a zip", "x.xlsx").problems[0].message == sheet.NOT_READABLE
    assert sheet.read_sheet(csv([]), "empty.csv").problems[0].message == sheet.NO_QUESTIONS
    assert sheet.read_sheet(b"x" * (sheet.MAX_BYTES + 1), "big.csv").problems[0].message == sheet.TOO_BIG


def test_an_empty_time_limit_is_the_default_and_blank_rows_are_skipped():
    imported = sheet.read_sheet(csv([["Q?", "a", "b", "", "", "", "2"], ["", "", "", "", "", "", ""]]), "t.csv")
    assert imported.problems == ()
    assert imported.lesson.steps[0].question.time_limit == sheet.DEFAULT_TIME
    assert imported.lesson.steps[0].question.answer == "b"


def test_a_quiz_file_refuses_what_only_metric_questions_have():
    text = to_toml(sheet.read_sheet(csv(GOOD), "q.csv").lesson)
    broken = text.replace('kind = "choice"', 'kind = "choice"\nmetric = "recall_at_k"', 1)
    assert [p.message for p in read_lesson(broken).problems] == ["a choice question has no metric: its right options "
                                                                 "are marked with correct = true"]
    none_right = text.replace("correct = true\n", "")
    assert "a choice question needs at least one option with correct = true" in \
        [p.message for p in read_lesson(none_right).problems]
