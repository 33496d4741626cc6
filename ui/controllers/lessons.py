"""Turn a lesson step into numbers, formulas and figures. No Streamlit: the page only lays these out.

Every number comes from ``metrics``; this module picks what a step shows before and after the
learner answers, checks an explore step's goal, and colours the numbers of a formula that changed.
Scenarios and locked views live in ``ui.controllers.lesson_views``, animations in ``ui.controllers.lesson_demos``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from urllib.parse import urlencode

import pandas as pd
import plotly.graph_objects as go

from content import numbers
from content.i18n import _
from content.lessons.schema import Claim, Goal, Step
from metrics import classification_metrics as cls
from metrics import registry, topn_metrics
from ui.figures import charts, lesson_charts
from ui.controllers import lesson_offpolicy, lesson_protocols
from ui.controllers.lesson_demos import ANIMATED_VIEWS, WALK_METRICS, demonstration
from ui.controllers.lesson_views import (STATIC_VIEWS, View, changed, check_scenario, control_value, data_for_reader, label,
                             make_room, moved, parse, placed, predicted_labels, slider_spec, static_view, with_control,
                             with_controls)

CHANGED = "#c62828"
VIEW_KINDS = frozenset(STATIC_VIEWS) | frozenset(ANIMATED_VIEWS)

# --------------------------------------------------------------------------- puzzles, questions, goals


def puzzle_figure(scenario: dict) -> go.Figure:
    """The data of a scenario without any metric: what a learner sees before answering."""
    kind = scenario["kind"]
    if kind == "protocol":
        return lesson_protocols.puzzle(scenario)
    if kind == "offpolicy":
        return lesson_offpolicy.puzzle(scenario)
    if kind == "ranking":
        case = parse(scenario)
        table = topn_metrics.top_k_table(case.recommended, case.ground_truth, case.k)
        return lesson_charts.ranking_puzzle(table, case.k, _("The list: green = relevant, shaded = the top K"))
    if kind == "users":
        hits = [[item in set(rel) for item in rec] for rec, rel in zip(scenario["recommended"], scenario["relevant"], strict=True)]
        return lesson_charts.users_puzzle(scenario["users"], hits)
    if kind == "ratings":
        rows = [_("#{number} (actual {actual})").format(number=i + 1, actual=numbers.general(a))
                for i, a in enumerate(scenario["actuals"])]
        return lesson_charts.values_puzzle(rows, scenario["predictions"], _("Predicted ratings"), _("stars"))
    if kind == "labels":
        case = parse(scenario)
        return charts.confusion_matrix(cls.confusion_counts(case.y_true, case.y_pred))
    values = scenario["y_score"] if kind == "scores" else scenario["y_prob"]
    users = scenario.get("user_ids", [])
    several = len(set(users)) > 1
    outcome = {1: _("click"), 0: _("no click")}
    names = [(_("#{number} {user}: {outcome}") if several else _("#{number} {outcome}")).format(
        number=i + 1, user=users[i] if several else "", outcome=outcome[1 if y else 0])
        for i, y in enumerate(scenario["y_true"])]
    if len(names) > 12:
        names = [f"#{i + 1}" for i in range(len(names))]
    title = _("Scores: green = click, grey = no click") if kind == "scores" else \
        _("Predicted click probabilities: green = click, grey = no click")
    return lesson_charts.values_puzzle(names, values, title, _("score") if kind == "scores" else _("probability"),
                                       lesson_charts.label_colours(scenario["y_true"]))


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-3, abs_tol=5e-4)


@dataclass
class Reveal:
    answer: str                       # the right option's label, decided by the numbers
    shown: list[tuple[str, View]]     # (caption, view) to show side by side, the last one highlighted


def reveal(step: Step) -> Reveal:
    """What the numbers say about a predict step's question, computed by ``metrics``.

    Options are positional: for "direction" (up, down, unchanged); for "compare" (first higher,
    second higher, the same).
    """
    q = step.question
    before = static_view(step.view, step.scenario)
    labels = [o.label for o in q.options]
    if q.kind == "number":
        return Reveal(q.tolerance.shown(before.values[q.metric]), [("", before)])
    if q.kind == "value":
        actual = before.values[q.metric]
        matching = [o.label for o in q.options if o.value is not None and _close(o.value, actual)]
        if len(matching) != 1:
            raise ValueError(f"{step.title!r}: {len(matching)} options match {q.metric} = {actual:.4f}")
        return Reveal(matching[0], [("", before)])
    if q.kind == "direction":
        after = static_view(step.view, changed(step.scenario, q.change))
        a, b = before.values[q.metric], after.values[q.metric]
        index = 2 if _close(a, b) else (0 if b > a else 1)
        return Reveal(labels[index], [("before", before), ("after", after)])
    if q.other_metric:
        a, b = before.values[q.metric], before.values[q.other_metric]
        shown = [("", before)]
    else:
        other = static_view(step.view, q.other)
        a, b = before.values[q.metric], other.values[q.metric]
        shown = [("A", before), ("B", other)]
    index = 2 if _close(a, b) else (0 if a > b else 1)
    return Reveal(labels[index], shown)


def typed_right(step: Step, typed: float) -> bool:
    """Whether a number typed for a number question is the metric's value, within the question's tolerance."""
    return step.question.tolerance.accepts(typed, step_view(step).values[step.question.metric])


_COMPARE = {"<": lambda a, b: a < b and not _exact(a, b), "<=": lambda a, b: a <= b or _exact(a, b),
            "==": lambda a, b: _exact(a, b), ">=": lambda a, b: a >= b or _exact(a, b),
            ">": lambda a, b: a > b and not _exact(a, b)}


def _exact(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def goal_reached(goal: Goal, values: dict[str, float]) -> bool:
    """Whether every condition of an explore step's goal holds for these values."""
    for key, op, target in goal.conditions:
        right = values[target] if isinstance(target, str) else float(target)
        if math.isnan(values[key]) or not _COMPARE[op](values[key], right):
            return False
    return True


# --------------------------------------------------------------------------- claims


def claim_frames(step: Step) -> pd.DataFrame:
    """The numbers a step's claims are checked against, one row per frame.

    demonstrate: the animation's frames; predict with a change: before and after it (the view's values
    and every registry metric of the scenario); any other step: its one view.
    """
    if step.kind == "demonstrate":
        return demonstration(step)[0].frames.reset_index(drop=True)
    scenarios = [step.scenario]
    if step.question is not None and step.question.change:
        scenarios.append(changed(step.scenario, step.question.change))
    rows = []
    for scenario in scenarios:
        row = dict(registry.evaluate(parse(scenario))) if scenario["kind"] not in ("sweep", "protocol", "offpolicy") else {}
        row.update(static_view(step.view, scenario).values)
        rows.append(row)
    return pd.DataFrame(rows)


def _moves_hold(direction: str, changes: list[float], other: list[float] | None) -> bool:
    tiny = 1e-9
    if direction == "rises":
        return all(c > tiny for c in changes)
    if direction == "falls":
        return all(c < -tiny for c in changes)
    if direction == "unchanged":
        return all(abs(c) <= tiny for c in changes)
    if direction == "never falls":
        return all(c >= -tiny for c in changes)
    if direction == "never rises":
        return all(c <= tiny for c in changes)
    if direction == "rises evenly":
        return all(c > tiny for c in changes) and all(abs(c - changes[0]) <= 1e-6 for c in changes)
    if direction == "rises ever faster":
        return all(c > tiny for c in changes) and all(b > a + tiny for a, b in zip(changes, changes[1:]))
    if direction == "falls ever slower":
        return all(c < -tiny for c in changes) and all(b > a + tiny for a, b in zip(changes, changes[1:]))
    if direction == "rises more than":
        return all(c > tiny for c in changes) and all(c > o + tiny for c, o in zip(changes, other, strict=True))
    if direction == "rises less than":
        return all(c > tiny for c in changes) and all(c < o - tiny for c, o in zip(changes, other, strict=True))
    raise ValueError(f"unknown claim direction {direction!r}")


def claim_problem(claim: Claim, frames: pd.DataFrame) -> str | None:
    """Why ``claim`` does not hold for these frames, or None if it does."""
    for column in (claim.value, claim.than):
        if column is not None and column not in frames.columns:
            return f"{column!r} is not one of the frames' values {list(frames.columns)}"
    first, last = claim.frames if claim.frames is not None else (0, len(frames) - 1)
    if not 0 <= first <= last < len(frames):
        return f"frames {first}..{last} are outside the {len(frames)} frames"
    values = [float(v) for v in frames[claim.value].iloc[first:last + 1]]
    if claim.at is not None and not all(_close(v, claim.at) for v in values):
        return f"{claim.value} should be {claim.at} over frames {first}..{last}: {values}"
    if claim.direction in ("above", "below"):
        if claim.than is None:
            return f"{claim.direction!r} needs a value to compare with (than)"
        seen = [float(v) for v in frames[claim.than].iloc[first:last + 1]]
        higher = claim.direction == "above"
        if all((v > o) if higher else (v < o) for v, o in zip(values, seen, strict=True)):
            return None
        return f"{claim.value} is not {claim.direction} {claim.than} over frames {first}..{last}: {values} vs {seen}"
    if first == last:
        return None if claim.direction == "unchanged" else f"{claim.direction!r} needs at least two frames"
    changes = [b - a for a, b in zip(values, values[1:])]
    other = None
    if claim.than is not None:
        seen = [float(v) for v in frames[claim.than].iloc[first:last + 1]]
        other = [b - a for a, b in zip(seen, seen[1:])]
    if not _moves_hold(claim.direction, changes, other):
        return f"{claim.value} does not {claim.direction} {claim.than or ''} over frames {first}..{last}: {values}"
    return None


# --------------------------------------------------------------------------- highlighting


_NUMBER = re.compile(r"(?<![A-Za-z\\])\d+(?:\.\d+)?")


def highlight(latex: str, previous: str | None) -> str:
    r"""``latex`` with each number that is new or changed since ``previous`` coloured.

    Numbers are matched in order (a diff of the two number sequences), so a term that moved
    keeps its colour only if its value changed. Digits glued to a command (``\tfrac12``) are left alone.
    """
    if not previous or previous == latex:
        return latex
    old = [m.group() for m in _NUMBER.finditer(previous)]
    found = list(_NUMBER.finditer(latex))
    new = [m.group() for m in found]
    marked: set[int] = set()
    for tag, _i1, _i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            marked.update(range(j1, j2))
    parts, last = [], 0
    for index, match in enumerate(found):
        if index in marked:
            parts += [latex[last:match.start()], rf"{{\textcolor{{{CHANGED}}}{{{match.group()}}}}}"]
            last = match.end()
    parts.append(latex[last:])
    return "".join(parts)


def stacked(latex: str) -> str:
    r"""A formula whose parts are joined by ``,\ `` written one part per line, so it fits half a page."""
    parts = latex.split(r",\ ")
    return latex if len(parts) == 1 else r"\begin{gathered}" + r"\\".join(parts) + r"\end{gathered}"


def card_text(value: float, before: float | None = None) -> tuple[str, str | None]:
    """A card's value to 4 places ("undefined" for nan) and its change since ``before``, if it changed,
    in the reader's notation."""
    shown = numbers.number(value, 4)
    if before is None or math.isnan(value) or math.isnan(before) or math.isclose(before, value):
        return shown, None
    return shown, numbers.number(value - before, 4, sign=True)


def needs_data(step: Step) -> bool:
    """Whether the step's numbers come from a data set (the protocol lesson's models and the off-policy lesson's
    simulated logs, both on MovieLens 100K): the first time in a process they take seconds, and a server may not
    have the data."""
    return step.scenario is not None and step.scenario.get("kind") in ("protocol", "offpolicy")


def data_missing(step: Step) -> bool:
    return needs_data(step) and not lesson_protocols.available()


def prepare(step: Step) -> None:
    """Train what a step that :func:`needs_data` reads (once per process), so the page can say it is working."""
    if needs_data(step):
        (lesson_offpolicy if step.scenario["kind"] == "offpolicy" else lesson_protocols).prepare(step.scenario)


def step_view(step: Step) -> View:
    """The locked view of a show, predict or explore step at its own scenario."""
    return static_view(step.view, step.scenario)


def previous_formulas(steps, index: int) -> dict[str, str]:
    """The substituted formulas of the step before ``index`` if it used the same view, else none."""
    if index == 0 or steps[index - 1].view != steps[index].view:
        return {}
    return static_view(steps[index - 1].view, steps[index - 1].scenario).substituted


__all__ = ["ANIMATED_VIEWS", "CHANGED", "VIEW_KINDS", "WALK_METRICS", "card_text", "changed",
           "check_scenario", "claim_frames", "claim_problem", "control_value", "data_for_reader", "data_missing",
           "demonstration", "needs_data", "prepare",
           "goal_reached", "highlight",
           "label", "make_room", "moved", "parse", "placed", "predicted_labels", "previous_formulas", "puzzle_figure",
           "Reveal", "reveal", "slider_spec", "stacked", "static_view", "step_view", "View", "with_control",
           "with_controls"]


def step_link(page_url: str | None, lesson_key: str, number: int) -> str:
    """The full address of a lesson step, to paste into a class chat (the page's URL without its query).

    >>> step_link("http://127.0.0.1:8501/Lessons?lesson=ap&step=2&k=10", "ndcg", 3)
    'http://127.0.0.1:8501/Lessons?lesson=ndcg&step=3'
    """
    base = (page_url or "").split("?", 1)[0].split("#", 1)[0]
    return f"{base}?{urlencode({'lesson': lesson_key, 'step': number})}"
