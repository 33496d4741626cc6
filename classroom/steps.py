"""What a live class shows: a guided lesson's step, or the teacher's playground scenario with a question.

The store keeps only ``lesson`` (a string) and ``step``; every process turns them back into a
:class:`LiveStep` here, so a student on another process sees exactly the teacher's step.
A playground push is ``lesson = "playground:" + JSON`` of the scenario and the metric asked.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass

from classroom.judge import is_right
from classroom.variants import accepts, as_number, truth
from content.lessons import BY_KEY
from content.lessons.file_reader import read_lesson
from content.lessons.library import teach
from content.lessons.schema import Lesson, Option, Step
from teaching import practice
from metrics.registry import RankingCase

PLAYGROUND = "playground:"
MAX_PLAYGROUND_ITEMS = 200
FILE = "file:"           # a teacher's lesson file run live: "file:" + the first 16 hex of its text's SHA-256
MOST_FILE_LESSONS = 256  # file lessons this process keeps read; one evicted is read again from the database

_file_lessons: OrderedDict[str, Lesson] = OrderedDict()
_file_lock = threading.Lock()


def file_lesson_key(text: str) -> str:
    """The ``lesson`` string a room keeps for a lesson file: the same text gives the same key in every process."""
    return FILE + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def know_file_lesson(key: str, text: str) -> Lesson | None:
    """Read a lesson file's text once in this process (its translations taught to ``_``) under ``key``;
    None when the text does not read as a lesson (it was checked when saved: a bug or a tampered row)."""
    with _file_lock:
        if key in _file_lessons:
            _file_lessons.move_to_end(key)
            return _file_lessons[key]
    loaded = read_lesson(text)
    if loaded.lesson is None:
        return None
    teach(loaded.translations)
    with _file_lock:
        _file_lessons[key] = loaded.lesson
        while len(_file_lessons) > MOST_FILE_LESSONS:
            _file_lessons.popitem(last=False)
    return loaded.lesson


def is_known(lesson: str | None) -> bool:
    """Whether :func:`live_step` can turn ``lesson`` into steps without the database's help."""
    return not lesson or not lesson.startswith(FILE) or lesson in _file_lessons


def lesson_of(lesson: str | None) -> Lesson | None:
    """A built-in lesson, or a lesson file this process has read (``Store.current`` reads a room's on the way)."""
    if not lesson:
        return None
    if lesson.startswith(FILE):
        return _file_lessons.get(lesson)
    return BY_KEY.get(lesson)


@dataclass(frozen=True)
class LiveStep:
    lesson: str
    index: int
    title: str
    text: str
    lesson_step: Step | None          # a guided lesson's step, drawn by the lesson views
    case: RankingCase | None = None   # a playground scenario
    metric: str | None = None         # the playground question's metric (a key of practice.QUIZ_METRICS)

    @property
    def question_id(self) -> str | None:
        if self.lesson_step is not None:
            return f"{self.lesson}:{self.index}" if self.lesson_step.question else None
        return "playground-" + hashlib.sha256(self.lesson.encode()).hexdigest()[:12]

    @property
    def options(self) -> tuple[Option, ...]:
        """The choices of a lesson question; empty for a number to type."""
        question = self.lesson_step.question if self.lesson_step is not None else None
        return question.options if question else ()

    @property
    def prompt(self) -> str | None:
        if self.lesson_step is not None:
            return self.lesson_step.question.prompt if self.lesson_step.question else None
        return f"Predict {practice.QUIZ_METRICS[self.metric].display_label(self.case.k)} of this list."

    @property
    def right_answer(self) -> str | None:
        if self.lesson_step is not None:
            return self.lesson_step.question.answer if self.lesson_step.question else None
        return repr(self.exact_value)

    @property
    def exact_value(self) -> float | None:
        """The number asked: the playground's, or a lesson's typed-number question's on the step's own scenario."""
        if self.case is None:
            if self.is_number_question:
                return truth(self.lesson_step, self.lesson_step.scenario)[0]
            return None
        return float(practice.QUIZ_METRICS[self.metric].compute(self.case))

    @property
    def is_number_question(self) -> bool:
        """The student types the number (a playground question, or a lesson's ``number`` question)."""
        if self.lesson_step is None:
            return True
        question = self.lesson_step.question
        return question is not None and question.kind == "number"

    @property
    def tolerance(self):
        """A lesson number question's tolerance (``content.lessons.schema.Tolerance``); None otherwise."""
        question = self.lesson_step.question if self.lesson_step is not None else None
        return question.tolerance if question is not None else None

    @property
    def variant(self) -> dict | None:
        """The question's ``variant``: each student answers for a list of their own (``classroom.variants``)."""
        question = self.lesson_step.question if self.lesson_step is not None else None
        return question.variant if question is not None else None

    def judge(self, value: str) -> bool | None:
        """Whether one answer is right for the step's own scenario (not for a variant's per-student lists)."""
        if self.lesson_step is not None and self.is_number_question:
            typed = as_number(value)
            return typed is not None and accepts(self.tolerance, typed, self.exact_value)
        return is_right(value, self.right_answer)

    @property
    def why(self) -> str | None:
        if self.lesson_step is not None:
            return self.lesson_step.question.why if self.lesson_step.question else None
        return f"The exact value is {practice.describe(self.exact_value)}."

    def mistakes(self) -> dict[str, float]:
        """Numbers the common mistaken conventions give for a playground or typed-number question (teaching.mistakes)."""
        if self.case is None:
            if self.is_number_question:
                return truth(self.lesson_step, self.lesson_step.scenario)[1]
            return {}
        return practice.mistakes(self.metric, self.case)


def asked_question(step: LiveStep, now: dict) -> str | None:
    """The question the class answers on this step (``now`` is ``Store.current``): the last round the
    teacher asked of it (``topn:2#2``)."""
    if step.question_id is None:
        return None
    return now["question_id"] if now.get("base_question") == step.question_id else step.question_id


def step_count(lesson: str) -> int:
    found = lesson_of(lesson)
    return len(found.steps) if found is not None else 1


def live_step(lesson: str | None, index: int) -> LiveStep | None:
    """The step the store names, or None when there is nothing (yet) to show or it is unknown."""
    if not lesson:
        return None
    if lesson.startswith(PLAYGROUND):
        try:
            data = json.loads(lesson[len(PLAYGROUND):])
            case = RankingCase(list(data["recommended"]), {k: float(v) for k, v in data["ground_truth"]},
                               int(data["k"]), data.get("gain", "linear"), data.get("ap_denominator", "min"))
            metric = data["metric"]
            if metric not in practice.QUIZ_METRICS:
                return None
        except (ValueError, KeyError, TypeError):
            return None
        return LiveStep(lesson, 0, "Predict from the teacher's list", "The teacher's scenario: the list, the relevant "
                        "items and K are below. Work it out, then answer.", None, case, metric)
    lesson_data = lesson_of(lesson)
    if lesson_data is None or not 0 <= index < len(lesson_data.steps):
        return None
    step = lesson_data.steps[index]
    return LiveStep(lesson, index, step.title, step.text, step)


def playground_lesson(case: RankingCase, metric: str) -> str:
    """The ``lesson`` string that carries a playground scenario and the metric to predict."""
    if metric not in practice.QUIZ_METRICS:
        raise ValueError(f"Unknown metric {metric!r}")
    if len(case.recommended) > MAX_PLAYGROUND_ITEMS:
        raise ValueError(f"A live question takes at most {MAX_PLAYGROUND_ITEMS} recommended items.")
    data = {"recommended": list(case.recommended), "ground_truth": [[k, v] for k, v in case.ground_truth.items()],
            "k": case.k, "gain": case.gain, "ap_denominator": case.ap_denominator, "metric": metric}
    return PLAYGROUND + json.dumps(data, separators=(",", ":"))
