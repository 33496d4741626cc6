"""Typed numbers judged to a lesson's tolerance, and a list of their own for each student (a question's ``variant``).

A student's list is drawn from the class's seed (``Store.current()["seed"]``), the student's id and the question
(its first round's id, so asking again gives each student the same list), with ``random.Random`` seeded by their
SHA-256: the same in every process, after a reload, and never the same for two students but by chance. The app
computes each student's right value from their list with ``metrics``, and names the mistaken convention
(``teaching.mistakes`` through ``teaching.practice``) their number matches.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass

from content import classroom as class_texts
from content.lessons.answers import scenario_values
from content.lessons.schema import Step, Tolerance
from metrics.registry import RankingCase
from teaching import practice

VIEW_NAMES = {"ndcg_at_k": "ndcg_graded_at_k"}
ITEM_POOL = 99  # items are numbered 1 to 99 (or 4 x the list's length, when longer): short to read on a phone
_cache: OrderedDict[str, tuple[float, dict[str, float]]] = OrderedDict()
_cache_lock = threading.Lock()
MOST_CACHED = 4096


def draw(step: Step, seed: str, student_id: str, question: str) -> dict:
    """The ranking scenario of one student for a variant question (``question``: the question's first round)."""
    variant = step.question.variant
    salt = f"{seed}|{student_id}|{question}|{variant['seed']}".encode()
    rng = random.Random(int.from_bytes(hashlib.sha256(salt).digest()[:8], "big"))
    items = rng.sample(range(1, max(ITEM_POOL, 4 * variant["length"]) + 1), variant["length"])
    low, high = variant["grades"]
    relevant = sorted(rng.sample(range(variant["length"]), variant["relevant"]))
    truth = {items[rank]: rng.randint(low, high) for rank in relevant}
    return {"kind": "ranking", "recommended": items, "ground_truth": truth, "k": variant["k"],
            "gain": step.scenario.get("gain", "linear")}


def _case(scenario: dict) -> RankingCase:
    return RankingCase(list(scenario["recommended"]), {k: float(v) for k, v in scenario["ground_truth"].items()},
                       int(scenario["k"]), scenario.get("gain", "linear"))


def truth(step: Step, scenario: dict) -> tuple[float, dict[str, float]]:
    """The right value of the step's metric on ``scenario``, and the numbers the named mistakes give (English
    names, translated where shown). Cached: a reveal judges the same lists again for every language."""
    metric = step.question.metric
    key = json.dumps([metric, scenario], sort_keys=True, default=str)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    values = scenario_values(step, scenario)
    right = float(values[metric] if metric in values else values[VIEW_NAMES[metric]])
    named: dict[str, float] = {}
    if scenario.get("kind") == "ranking" and metric in practice.QUIZ_METRICS:
        case = _case(scenario)
        named = practice.mistakes(metric, case)
        swapped = {"recall_at_k": ("precision_at_k", class_texts.DIVIDED_BY_K),
                   "precision_at_k": ("recall_at_k", class_texts.DIVIDED_BY_RELEVANT)}.get(metric)
        if swapped:
            other = float(practice.QUIZ_METRICS[swapped[0]].compute(case))
            if math.isfinite(other) and not practice.close(other, right):
                named[swapped[1]] = other
    found = (right, named)
    with _cache_lock:
        _cache[key] = found
        while len(_cache) > MOST_CACHED:
            _cache.popitem(last=False)
    return found


def accepts(tolerance: Tolerance | None, typed: float, value: float) -> bool:
    """A typed number against the right value: the question's tolerance, else the practice mode's four decimals."""
    if tolerance is not None:
        return tolerance.accepts(typed, value)
    return practice.close(typed, value)


def as_number(value: str | None) -> float | None:
    try:
        return float(practice.parse_answer(value)) if value is not None else None
    except ValueError:
        return None


@dataclass(frozen=True)
class Verdict:
    right: bool | None        # None: nothing (readable) to judge
    value: float              # the right value for this student
    mistake: str | None       # the named mistake (English) the typed number matches, when wrong


def judge(step: Step, scenario: dict, answer: str | None) -> Verdict:
    right_value, named = truth(step, scenario)
    typed = as_number(answer)
    if typed is None:
        return Verdict(None, right_value, None)
    if accepts(step.question.tolerance, typed, right_value):
        return Verdict(True, right_value, None)
    tolerance = step.question.tolerance
    mistake = next((name for name, value in named.items() if accepts(tolerance, typed, value)), None)
    return Verdict(False, right_value, mistake)


def options(step: Step, scenario: dict) -> list[str]:
    """A variant value question's choices for one student: their right value and what the named mistakes give
    (and, when there are none, two near misses), four decimals each, in increasing order."""
    right_value, named = truth(step, scenario)
    values = [right_value, *named.values()]
    if len(values) < 3:
        values += [right_value + 0.1 if right_value <= 0.9 else right_value - 0.2,
                   right_value / 2 if right_value else 0.25]
    labels: list[str] = []
    for value in sorted(values):
        label = f"{value:.4f}"
        if label not in labels:
            labels.append(label)
    return labels


def describe(scenario: dict) -> str:
    """A student's list in one line for the export: ``list 14 7 3 52; relevant 7 (2), 52 (1); K = 3``."""
    truth_part = ", ".join(f"{item} ({grade:g})" for item, grade in scenario["ground_truth"].items())
    return f"list {' '.join(str(item) for item in scenario['recommended'])}; relevant {truth_part}; K = {scenario['k']}"
