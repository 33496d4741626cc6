"""The right answer of a lesson question, computed from its scenario with ``metrics``: a lesson file never states
it. ``ui.controllers.lessons.reveal`` computes the same answer from the step's view when the learner answers;
tests/test_lessons_content.py checks the two agree on every built-in question."""

from __future__ import annotations

import math
import warnings

from content.lessons import problems as say
from content.lessons.problems import Unanswerable
from content.lessons.scenarios import changed, parse
from content.lessons.schema import Step
from metrics import classification_metrics as cls
from metrics import registry

VIEW_NAMES = {"ndcg_at_k": "ndcg_graded_at_k"}
"""Values the lesson views name differently from the registry."""


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-3, abs_tol=5e-4)


def scenario_values(step: Step, scenario: dict) -> dict[str, float]:
    """Every number the scenario gives a question.

    A protocol scenario's numbers come from models trained on MovieLens 100K (``protocols``, which this layer
    may not import, and seconds of training): its question compares two values the step states as claims
    (``at``), which tests/test_lesson_protocols.py checks against the trained models. An offpolicy scenario's
    come from the Logged feedback page's presets (``offpolicy``, above this layer) the same way
    (tests/test_lesson_offpolicy.py).
    """
    kind = scenario.get("kind")
    if kind in DATA_KINDS:
        return {claim.value: float(claim.at) for claim in step.claims if claim.at is not None and claim.frames is None}
    if kind not in registry_kinds():
        raise Unanswerable(say.NOT_ANSWERABLE, kind=kind)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cls.UndefinedMetricWarning)
        found = registry.evaluate(parse(scenario))
    found.update({view: found[name] for view, name in VIEW_NAMES.items() if name in found})
    return found


DATA_KINDS = ("protocol", "offpolicy")
"""Scenarios whose numbers come from a data set: their questions are answered from the step's claims."""


def registry_kinds() -> tuple[str, ...]:
    return ("ranking", "users", "ratings", "labels", "scores", "probabilities")


def _value(values: dict[str, float], metric: str, kind: str) -> float:
    if metric not in values:
        raise Unanswerable(say.UNKNOWN_METRIC, metric=metric, kind=kind, known=", ".join(sorted(values)))
    return float(values[metric])


def _position(a: float, b: float, first_higher: bool) -> int:
    """0, 1 or 2: the first option (up / first higher), the second, or the third (unchanged / the same)."""
    return 2 if close(a, b) else (0 if first_higher else 1)


def answer(step: Step) -> str:
    """The label of the right option, or for a number question the value to its tolerance's places."""
    if step.question.kind == "choice":  # a quiz step's plain question: the file states its right options
        return next(option.label for option in step.question.options if option.correct)
    question, kind = step.question, step.scenario.get("kind")
    before = scenario_values(step, step.scenario)
    value = _value(before, question.metric, kind)
    labels = [option.label for option in question.options]
    if question.kind == "number":
        return question.tolerance.shown(value)
    if question.kind == "value":
        matching = [o.label for o in question.options if o.value is not None and close(o.value, value)]
        if not matching:
            raise Unanswerable(say.NO_OPTION_MATCHES, metric=question.metric, value=f"{value:.4f}",
                               stated=", ".join(f"{o.value:g}" for o in question.options if o.value is not None))
        if len(matching) > 1:
            raise Unanswerable(say.OPTIONS_MATCH, count=len(matching), metric=question.metric,
                               value=f"{value:.4f}", labels=", ".join(matching))
        return matching[0]
    if kind in DATA_KINDS and (question.kind == "direction" or not question.other_metric):
        raise Unanswerable(say.PROTOCOL_QUESTION)
    if question.kind == "direction":
        after = _value(scenario_values(step, changed(step.scenario, question.change)), question.metric, kind)
        return labels[_position(value, after, after > value)]
    if question.other_metric:
        other = _value(before, question.other_metric, kind)
    else:
        other = _value(scenario_values(step, question.other), question.metric, question.other.get("kind"))
    return labels[_position(value, other, value > other)]
