"""A question sheet laid out like Kahoot's template (CSV or .xlsx) as a lesson of quiz steps.

Columns, found by their header's first words (Kahoot writes "Question - max 120 characters"): ``Question``,
``Answer 1`` to ``Answer 4``, ``Time limit (sec)`` and ``Correct answer(s)`` (the answer numbers, such as ``2`` or
``1,3``). The header may follow a few rows of instructions, as in Kahoot's own file. Every problem is listed with
its row, as the spreadsheet numbers it, and none of the cells is run or rendered: the lesson shows them as typed.

A sheet's question computes nothing (no scenario, no metric), so the answer the sheet states is its truth: this is
the one place a lesson holds a written answer (``correct = true`` on a quiz step's option, docs/lesson-files.md).
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass, field
from pathlib import PurePath

import pandas as pd

from content import i18n
from content.i18n import N_, _
from content.lessons.file_reader import LANGUAGES, MAX_STEPS
from content.lessons.schema import Lesson, Option, Question, Step

MAX_BYTES = 1024 * 1024
MAX_QUESTIONS = MAX_STEPS
"""A sheet becomes one lesson, so it has at most as many questions as a lesson has steps."""
MAX_QUESTION = 120
MAX_ANSWER = 75
"""Kahoot's limits on a question's and an answer's length, in characters."""
ANSWERS = 4
DEFAULT_TIME = 20
HEADER_SEARCH = 20
"""Rows of instructions a header may follow."""
ICON = "📝"

NOT_READABLE = N_("the sheet cannot be read: {error}")
TOO_BIG = N_("the sheet has {size} bytes; a question sheet may have at most {limit}")
NOT_A_SHEET = N_("a question sheet is a .csv or .xlsx file, found “{name}”")
NO_HEADER = N_("no header row with Question, Answer 1 to Answer 4, Time limit (sec) and Correct answer(s) "
               "in the first {rows} rows")
NO_QUESTIONS = N_("the sheet has no questions under its header")
TOO_MANY = N_("the sheet has {count} questions; a sheet may have at most {limit}")
MISSING_QUESTION = N_("the question is missing")
TOO_FEW_ANSWERS = N_("a question needs at least two answers, found {count}")
QUESTION_TOO_LONG = N_("the question has {length} characters; at most {limit}")
ANSWER_TOO_LONG = N_("answer {number} has {length} characters; at most {limit}")
NO_CORRECT = N_("the correct answer is missing: give the number of a right answer, 1 to 4")
BAD_CORRECT = N_("the correct answer “{value}” is not among 1 to 4: give answer numbers such as 2 or 1,3")
EMPTY_CORRECT = N_("the correct answer {number} points to an empty answer")
SAME_ANSWER = N_("answers {first} and {second} are the same")
BAD_TIME = N_("the time limit “{value}” is not a positive number of seconds")
ROW = N_("row {row}: {problem}")
QUESTION_TITLE = N_("Question {number}")
SUMMARY = N_("Questions imported from a question sheet: {count}.")


@dataclass(frozen=True)
class SheetProblem:
    row: int | None                 # as the spreadsheet numbers it (the header's row + 1 is the first question)
    message: str                    # an English template of this module
    params: tuple[tuple[str, object], ...] = ()

    def text(self) -> str:
        said = _(self.message).format(**dict(self.params))
        return _(ROW).format(row=self.row, problem=said) if self.row is not None else said


def _problem(row: int | None, message: str, **params) -> SheetProblem:
    return SheetProblem(row, message, tuple(params.items()))


@dataclass(frozen=True)
class Imported:
    lesson: Lesson | None
    problems: tuple[SheetProblem, ...] = ()
    translations: dict[str, dict[str, str]] = field(default_factory=dict)


def _cell(value) -> str:
    """A cell as typed: text stays text, a whole number read as 20.0 is 20, an empty cell is ''."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _table(data: bytes, name: str) -> list[list[str]]:
    suffix = PurePath(name).suffix.lower()
    if suffix == ".csv":
        frame = pd.read_csv(io.BytesIO(data), header=None, dtype=str, keep_default_na=False, skip_blank_lines=False,
                            encoding="utf-8-sig")
    elif suffix == ".xlsx":
        frame = pd.read_excel(io.BytesIO(data), header=None, dtype=object, engine="openpyxl")
    else:
        raise LookupError(name)
    return [[_cell(value) for value in row] for row in frame.itertuples(index=False, name=None)]


_COLUMNS = {"question": re.compile(r"question\b"), "time": re.compile(r"time\s*limit"),
            "correct": re.compile(r"correct\s*answer"),
            **{f"answer {n}": re.compile(rf"answer\s*{n}\b") for n in range(1, ANSWERS + 1)}}


def _header(rows: list[list[str]]) -> tuple[int, dict[str, int]] | None:
    """The header's index and each column's position, or None."""
    for index, row in enumerate(rows[:HEADER_SEARCH]):
        found = {}
        for position, cell in enumerate(row):
            for key, pattern in _COLUMNS.items():
                if key not in found and pattern.match(cell.lower()):
                    found[key] = position
                    break
        if "question" in found and "correct" in found and "answer 1" in found and "answer 2" in found:
            return index, found
    return None


def _correct(value: str) -> list[int] | None:
    """The answer numbers of "2", "1,3" or "1; 3", or None if any is not 1 to 4."""
    parts = [part.strip() for part in re.split(r"[,;\s]+", value) if part.strip()]
    try:
        numbers = [float(part) for part in parts]
    except ValueError:
        return None
    if not numbers or any(not n.is_integer() or not 1 <= n <= ANSWERS for n in numbers):
        return None
    return sorted({int(n) for n in numbers})


def _time(value: str) -> int | None:
    try:
        seconds = float(value.replace(",", "."))
    except ValueError:
        return None
    return int(seconds) if seconds > 0 and seconds.is_integer() and math.isfinite(seconds) else None


def _question(row: list[str], columns: dict[str, int], number: int) -> tuple[Question | None, list[SheetProblem]]:
    def cell(key: str) -> str:
        position = columns.get(key)
        return row[position] if position is not None and position < len(row) else ""

    found: list[SheetProblem] = []
    prompt = cell("question")
    if not prompt:
        found.append(_problem(number, MISSING_QUESTION))
    elif len(prompt) > MAX_QUESTION:
        found.append(_problem(number, QUESTION_TOO_LONG, length=len(prompt), limit=MAX_QUESTION))
    answers = {n: cell(f"answer {n}") for n in range(1, ANSWERS + 1)}
    given = {n: text for n, text in answers.items() if text}
    if len(given) < 2:
        found.append(_problem(number, TOO_FEW_ANSWERS, count=len(given)))
    for n, text in given.items():
        if len(text) > MAX_ANSWER:
            found.append(_problem(number, ANSWER_TOO_LONG, number=n, length=len(text), limit=MAX_ANSWER))
    seen: dict[str, int] = {}
    for n, text in given.items():
        if text in seen:
            found.append(_problem(number, SAME_ANSWER, first=seen[text], second=n))
        seen.setdefault(text, n)
    raw_correct = cell("correct")
    correct = _correct(raw_correct) if raw_correct else None
    if not raw_correct:
        found.append(_problem(number, NO_CORRECT))
    elif correct is None:
        found.append(_problem(number, BAD_CORRECT, value=raw_correct))
    else:
        found += [_problem(number, EMPTY_CORRECT, number=n) for n in correct if n not in given]
    raw_time = cell("time")
    seconds = _time(raw_time) if raw_time else DEFAULT_TIME
    if seconds is None:
        found.append(_problem(number, BAD_TIME, value=raw_time))
    if found:
        return None, found
    options = tuple(Option(text, "", None, n in correct) for n, text in given.items())
    return Question(prompt, "choice", "", options, next(o.label for o in options if o.correct), "",
                    time_limit=seconds), []


def lesson_id(name: str) -> str:
    """An id for the lesson made of the file's name: lower-case letters, digits, - and _."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", PurePath(name).stem.lower()).strip("-_")[:56]
    return f"sheet-{slug}" if slug else "sheet"


def _translations(count: int) -> dict[str, dict[str, str]]:
    """The step titles and the summary in every language of the app, as a lesson file carries them."""
    said: dict[str, dict[str, str]] = {}
    for code in LANGUAGES:
        if code == i18n.SOURCE:
            continue
        with i18n.speaking(code):
            pairs = [(QUESTION_TITLE.format(number=n), _(QUESTION_TITLE).format(number=n)) for n in range(1, count + 1)]
            pairs.append((SUMMARY.format(count=count), _(SUMMARY).format(count=count)))
        said[code] = {english: translated for english, translated in pairs if translated != english}
    return said


def read_sheet(data: bytes, name: str) -> Imported:
    """The lesson a question sheet describes (one quiz step a row), or every problem with its row."""
    if len(data) > MAX_BYTES:
        return Imported(None, (_problem(None, TOO_BIG, size=len(data), limit=MAX_BYTES),))
    try:
        rows = _table(data, name)
    except LookupError:
        return Imported(None, (_problem(None, NOT_A_SHEET, name=name),))
    except Exception as error:  # noqa: BLE001 - pandas, csv and openpyxl raise many kinds; each is said to the teacher
        return Imported(None, (_problem(None, NOT_READABLE, error=error),))
    header = _header(rows)
    if header is None:
        return Imported(None, (_problem(None, NO_HEADER, rows=HEADER_SEARCH),))
    start, columns = header
    body = [(start + 2 + offset, row) for offset, row in enumerate(rows[start + 1:]) if any(row)]
    if not body:
        return Imported(None, (_problem(None, NO_QUESTIONS),))
    if len(body) > MAX_QUESTIONS:
        return Imported(None, (_problem(None, TOO_MANY, count=len(body), limit=MAX_QUESTIONS),))
    problems: list[SheetProblem] = []
    steps = []
    for row_number, row in body:
        question, found = _question(row, columns, row_number)
        problems += found
        if question is not None:
            steps.append(Step(QUESTION_TITLE.format(number=len(steps) + 1), "quiz", "", None, None, question=question))
    if problems:
        return Imported(None, tuple(problems))
    title = PurePath(name).stem.strip() or "Question sheet"
    lesson = Lesson(lesson_id(name), title, ICON, "", SUMMARY.format(count=len(steps)), tuple(steps))
    return Imported(lesson, (), _translations(len(steps)))
