"""What a live class shows: a guided lesson's step, or the teacher's playground scenario with a question.

The store keeps only ``lesson`` (a string) and ``step``; every process turns them back into a
:class:`LiveStep` here, so a student on another process sees exactly the teacher's step.
A playground push is ``lesson = "playground:" + JSON`` of the scenario and the metric asked.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from content.lessons import BY_KEY
from content.lessons.schema import Option, Step
from teaching import practice
from metrics.registry import RankingCase

PLAYGROUND = "playground:"
MAX_PLAYGROUND_ITEMS = 200


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
        if self.case is None:
            return None
        return float(practice.QUIZ_METRICS[self.metric].compute(self.case))

    @property
    def why(self) -> str | None:
        if self.lesson_step is not None:
            return self.lesson_step.question.why if self.lesson_step.question else None
        return f"The exact value is {practice.describe(self.exact_value)}."

    def mistakes(self) -> dict[str, float]:
        """Numbers the common mistaken conventions give for a playground question (teaching.mistakes)."""
        return practice.mistakes(self.metric, self.case) if self.case is not None else {}


def asked_question(step: LiveStep, now: dict) -> str | None:
    """The question the class answers on this step (``now`` is ``Store.current``): the last round the
    teacher asked of it (``topn:2#2``)."""
    if step.question_id is None:
        return None
    return now["question_id"] if now.get("base_question") == step.question_id else step.question_id


def step_count(lesson: str) -> int:
    return len(BY_KEY[lesson].steps) if lesson in BY_KEY else 1


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
    lesson_data = BY_KEY.get(lesson)
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
