"""Read a lesson file (TOML, docs/lesson-files.md) into a ``Lesson``, with every problem found at once.

Nothing in a file is run or rendered as HTML: its strings become a lesson's Markdown text, its numbers a
scenario the metrics compute. The right answer is never in the file; ``answer`` (``content.lessons.answers``)
computes it, and a value option that disagrees with the computation refuses the file.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from typing import Callable

from content.lessons import answers
from content.lessons import problems as say
from content.lessons.problems import Problem, Unanswerable, problem
from content.lessons.schema import (CLAIM_DIRECTIONS, MOST_VARIANT_ITEMS, QUESTION_KINDS, SCENARIO_KINDS, STEP_KINDS,
                                    TOLERANCE_KINDS, VARIANT_KEYS, VARIANT_METRICS, Claim, Control, Goal, Lesson,
                                    Option, Question, Step, Tolerance)
from content.lessons.source_lines import SourceLines, field_name

MAX_BYTES = 64 * 1024
MAX_STEPS = 40
LANGUAGES = ("en", "tr", "zh")
ICON = "📄"
ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
NUMBER = re.compile(r"-?\d+(?:\.(\d+))?")
WHOLE = re.compile(r"-?\d+")

DEFAULT_VIEWS = {"ranking": "topn", "users": "map", "ratings": "rating", "labels": "confusion", "scores": "auc",
                 "probabilities": "logloss"}
SCENARIO_OPTIONAL = {"ranking": ("gain",), "labels": ("y_pred", "y_score", "threshold"), "protocol": ("negatives",)}
GAINS = ("linear", "exponential")
CONTROL_KINDS = ("k", "rank", "grade", "value", "threshold", "setting")
GOAL_OPERATORS = ("<", "<=", "==", ">=", ">")
LESSON_KEYS = ("id", "title", "icon", "topic", "summary", "steps")
STEP_KEYS = ("title", "kind", "text", "view", "focus", "scenario", "animation", "question", "controls", "goal", "claims")
QUESTION_KEYS = ("prompt", "kind", "metric", "why", "options", "change", "other", "other_metric", "tolerance",
                 "time_limit", "variant")
OPTION_KEYS = ("label", "explanation", "value", "correct")
CONTROL_KEYS = ("kind", "label", "item", "field", "index", "minimum", "maximum", "step")
GOAL_KEYS = ("text", "conditions", "reached")
CLAIM_KEYS = ("value", "direction", "frames", "at", "than")
ORDERS = {"direction": "up, down, unchanged", "compare": "first higher, second higher, the same"}


@dataclass(frozen=True)
class Loaded:
    lesson: Lesson | None                       # None when the file has a problem
    problems: tuple[Problem, ...] = ()
    translations: dict[str, dict[str, str]] = field(default_factory=dict)  # language -> {source text: translation}


def _kind_of(value) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"


_CHECKS = {
    "true or false": lambda v: isinstance(v, bool),
    "a string": lambda v: isinstance(v, str),
    "a whole number": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "a number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "a list": lambda v: isinstance(v, list),
    "a table": lambda v: isinstance(v, dict),
    "a list of tables": lambda v: isinstance(v, list) and all(isinstance(x, dict) for x in v),
}


def item_key(key: str):
    """A ground-truth key as the item it names: TOML keys are strings, and ``103`` names the item 103."""
    return int(key) if WHOLE.fullmatch(key) else key


class _Reader:
    def __init__(self, text: str):
        self.where = SourceLines(text)
        self.problems: list[Problem] = []
        self.translations: dict[str, dict[str, str]] = {}

    def fail(self, path: tuple, message: str, **params) -> None:
        self.problems.append(problem(self.where.find(path), field_name(path), message, **params))

    def only(self, table: dict, path: tuple, allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                self.fail(path + (key,), say.UNKNOWN_KEY, expected=", ".join(allowed))

    def typed(self, value, path: tuple, expected: str) -> bool:
        if _CHECKS[expected](value):
            return True
        self.fail(path, say.WRONG_TYPE, expected=expected, found=_kind_of(value))
        return False

    def get(self, table: dict, path: tuple, key: str, expected: str, required: bool = True, default=None):
        if key not in table:
            if required:
                self.fail(path + (key,), say.MISSING)
            return default
        value = table[key]
        return value if self.typed(value, path + (key,), expected) else default

    def choice(self, table: dict, path: tuple, key: str, allowed, required: bool = True, default=None):
        value = self.get(table, path, key, "a string", required, default)
        if value is not None and value not in allowed:
            self.fail(path + (key,), say.NOT_ONE_OF, value=value, expected=", ".join(allowed))
            return default
        return value

    def text(self, table: dict, path: tuple, key: str, required: bool = True, default: str = "") -> str:
        """A sentence in one language (a string) or several (``{en = "...", tr = "..."}``); the English one, else
        the first, is the lesson's, and the others its translations."""
        if key not in table:
            if required:
                self.fail(path + (key,), say.MISSING)
            return default
        value = table[key]
        if isinstance(value, str):
            return value
        if not isinstance(value, dict):
            self.fail(path + (key,), say.WRONG_TYPE, expected="a string or a table of languages", found=_kind_of(value))
            return default
        good = {}
        for language, said in value.items():
            if language not in LANGUAGES:
                self.fail(path + (key, language), say.UNKNOWN_LANGUAGE, value=language, expected=", ".join(LANGUAGES))
            elif self.typed(said, path + (key, language), "a string"):
                good[language] = said
        if not good:
            if not value:
                self.fail(path + (key,), say.MISSING)
            return default
        source = good.get("en", next(iter(good.values())))
        for language, said in good.items():
            if said != source:
                self.translations.setdefault(language, {})[source] = said
        return source

    def numbers(self, table: dict, path: tuple, key: str, expected: str = "a number") -> list | None:
        values = self.get(table, path, key, "a list")
        if values is None:
            return None
        good = all([self.typed(v, path + (key, i), expected) for i, v in enumerate(values)])
        if not values:
            self.fail(path + (key,), say.EMPTY_LIST)
        return values if good and values else None

    def labels(self, table: dict, path: tuple, key: str) -> list | None:
        values = self.numbers(table, path, key, "a whole number")
        if values is not None:
            for i, v in enumerate(values):
                if v not in (0, 1):
                    self.fail(path + (key, i), say.NOT_BINARY, value=v)
                    return None
        return values

    def unit(self, table: dict, path: tuple, key: str) -> list | None:
        values = self.numbers(table, path, key)
        if values is not None:
            for i, v in enumerate(values):
                if not 0 <= v <= 1:
                    self.fail(path + (key, i), say.OUT_OF_UNIT, value=v)
                    return None
        return values

    def same_length(self, path: tuple, scenario: dict, first: str, second: str) -> None:
        one, other = scenario.get(first), scenario.get(second)
        if one is not None and other is not None and len(one) != len(other):
            self.fail(path + (second,), say.LENGTHS_DIFFER, first=first, second=second, one=len(one), other=len(other))

    def items(self, values: list, path: tuple) -> None:
        seen = set()
        for i, item in enumerate(values):
            if not isinstance(item, (int, str)) or isinstance(item, bool):
                self.fail(path + (i,), say.WRONG_TYPE, expected="a string", found=_kind_of(item))
            elif item in seen:
                self.fail(path + (i,), say.DUPLICATE_ITEM, item=item)
            seen.add(item)

    # ------------------------------------------------------------------- scenarios

    def scenario(self, table, path: tuple) -> dict | None:
        if not self.typed(table, path, "a table"):
            return None
        kind = self.choice(table, path, "kind", tuple(SCENARIO_KINDS))
        if kind is None:
            return None
        self.only(table, path, ("kind", *SCENARIO_KINDS[kind], *SCENARIO_OPTIONAL.get(kind, ())))
        before = len(self.problems)
        read = getattr(self, f"_{kind}")(table, path)
        return read if len(self.problems) == before else None

    def _k(self, table: dict, path: tuple, longest: int | None) -> int | None:
        k = self.get(table, path, "k", "a whole number")
        if k is not None and longest is not None and not 1 <= k <= longest:
            self.fail(path + ("k",), say.K_OUT_OF_RANGE, k=k, most=longest)
        return k

    def _ranking(self, table: dict, path: tuple) -> dict:
        recommended = self.get(table, path, "recommended", "a list")
        if recommended is not None:
            self.items(recommended, path + ("recommended",))
        truth = self.get(table, path, "ground_truth", "a table")
        if truth is not None:
            for item, grade in truth.items():
                self.typed(grade, path + ("ground_truth", item), "a number")
            truth = {item_key(item): grade for item, grade in truth.items()}
        k = self._k(table, path, len(recommended) if recommended else None)
        scenario = {"kind": "ranking", "recommended": recommended, "ground_truth": truth, "k": k}
        if "gain" in table:
            scenario["gain"] = self.choice(table, path, "gain", GAINS)
        return scenario

    def _users(self, table: dict, path: tuple) -> dict:
        users = self.get(table, path, "users", "a list")
        lists = {}
        for key in ("recommended", "relevant"):
            lists[key] = self.get(table, path, key, "a list")
            for i, one in enumerate(lists[key] or ()):
                if self.typed(one, path + (key, i), "a list") and key == "recommended":
                    self.items(one, path + (key, i))
        scenario = {"kind": "users", "users": users, **lists}
        longest = max((len(r) for r in lists["recommended"] if isinstance(r, list)), default=0) \
            if lists["recommended"] else None
        scenario["k"] = self._k(table, path, longest)
        self.same_length(path, scenario, "users", "recommended")
        self.same_length(path, scenario, "users", "relevant")
        return scenario

    def _ratings(self, table: dict, path: tuple) -> dict:
        scenario = {"kind": "ratings", "predictions": self.numbers(table, path, "predictions"),
                    "actuals": self.numbers(table, path, "actuals")}
        self.same_length(path, scenario, "predictions", "actuals")
        return scenario

    def _labels(self, table: dict, path: tuple) -> dict:
        scenario = {"kind": "labels", "y_true": self.labels(table, path, "y_true")}
        if "y_pred" in table or "y_score" not in table:
            scenario["y_pred"] = self.labels(table, path, "y_pred")
            self.same_length(path, scenario, "y_true", "y_pred")
        if "y_score" in table:
            scenario["y_score"] = self.numbers(table, path, "y_score")
            scenario["threshold"] = self.get(table, path, "threshold", "a number")
            self.same_length(path, scenario, "y_true", "y_score")
        return scenario

    def _scores(self, table: dict, path: tuple) -> dict:
        users = self.get(table, path, "user_ids", "a list")
        scenario = {"kind": "scores", "user_ids": users, "y_true": self.labels(table, path, "y_true"),
                    "y_score": self.numbers(table, path, "y_score")}
        self.same_length(path, scenario, "y_true", "user_ids")
        self.same_length(path, scenario, "y_true", "y_score")
        return scenario

    def _probabilities(self, table: dict, path: tuple) -> dict:
        scenario = {"kind": "probabilities", "y_true": self.labels(table, path, "y_true"),
                    "y_prob": self.unit(table, path, "y_prob")}
        self.same_length(path, scenario, "y_true", "y_prob")
        return scenario

    def _sweep(self, table: dict, path: tuple) -> dict:
        return {"kind": "sweep", "values": self.unit(table, path, "values")}

    def _protocol(self, table: dict, path: tuple) -> dict:
        scenario = {"kind": "protocol", "preset": self.get(table, path, "preset", "a string")}
        if "negatives" in table:
            scenario["negatives"] = self.get(table, path, "negatives", "a whole number")
        return scenario

    def _offpolicy(self, table: dict, path: tuple) -> dict:
        return {"kind": "offpolicy", "preset": self.get(table, path, "preset", "a string")}

    # ------------------------------------------------------------------- questions

    def option(self, table, path: tuple, kind: str) -> Option | None:
        if not self.typed(table, path, "a table"):
            return None
        self.only(table, path, OPTION_KEYS)
        label = self.text(table, path, "label")
        explanation = self.text(table, path, "explanation", required=kind != "choice")
        correct = False
        if kind == "choice":
            correct = bool(self.get(table, path, "correct", "true or false", required=False, default=False))
        elif "correct" in table:
            self.fail(path + ("correct",), say.CORRECT_ONLY_CHOICE)
        value = None
        if kind == "value":
            value = self.get(table, path, "value", "a number")
            number = NUMBER.fullmatch(label)
            if value is not None and number:
                places = len(number.group(1) or "")
                if abs(float(label) - value) > 0.5 * 10 ** -places + 1e-9:
                    self.fail(path + ("value",), say.LABEL_DISAGREES, label=label, value=value)
            value = float(value) if value is not None else None
        elif "value" in table:
            self.fail(path + ("value",), say.ONLY_FOR, kind="a value question", what="a value")
        return Option(label, explanation, value, correct)

    def tolerance(self, table, path: tuple) -> Tolerance | None:
        if not self.typed(table, path, "a table"):
            return None
        self.only(table, path, TOLERANCE_KINDS)
        given = [kind for kind in TOLERANCE_KINDS if kind in table]
        if len(given) != 1:
            self.fail(path, say.ONE_TOLERANCE)
            return None
        kind = given[0]
        amount = self.get(table, path, kind, "a whole number" if kind == "decimals" else "a number")
        if amount is None:
            return None
        if amount < 0 or (amount == 0 and kind != "decimals"):
            self.fail(path + (kind,), say.NOT_POSITIVE, value=amount)
            return None
        return Tolerance(kind, amount)

    def variant(self, table, path: tuple, kind: str | None, metric: str | None, scenario: dict | None) -> dict | None:
        """Each student's own list: every field filled in (``k`` from the scenario when not given)."""
        if not self.typed(table, path, "a table"):
            return None
        self.only(table, path, VARIANT_KEYS)
        before = len(self.problems)
        if kind not in ("value", "number") or (scenario is not None and scenario.get("kind") != "ranking"):
            self.fail(path, say.VARIANT_ONLY)
        if metric is not None and metric not in VARIANT_METRICS:
            self.fail(path, say.VARIANT_METRIC, expected=", ".join(VARIANT_METRICS))
        length = self.get(table, path, "length", "a whole number")
        self._within(path + ("length",), length, 2, MOST_VARIANT_ITEMS)
        relevant = self.get(table, path, "relevant", "a whole number")
        self._within(path + ("relevant",), relevant, 1, length if isinstance(length, int) else MOST_VARIANT_ITEMS)
        grades = self.get(table, path, "grades", "a list", required=False, default=[1, 1])
        if grades is not None and not (len(grades) == 2 and all(isinstance(g, int) and not isinstance(g, bool)
                                                               and g >= 1 for g in grades) and grades[0] <= grades[1]):
            self.fail(path + ("grades",), say.VARIANT_GRADES, value=str(grades))
        k = self.get(table, path, "k", "a whole number", required=False,
                     default=(scenario or {}).get("k") if "k" not in table else None)
        if "k" in table or k is not None:
            self._within(path + ("k",), k, 1, length if isinstance(length, int) else MOST_VARIANT_ITEMS)
        seed = self.get(table, path, "seed", "a whole number", required=False, default=0)
        if len(self.problems) > before:
            return None
        return {"length": length, "relevant": relevant, "grades": list(grades), "k": k, "seed": seed}

    def _within(self, path: tuple, value, low: int, high: int) -> None:
        if isinstance(value, int) and not low <= value <= high:
            self.fail(path, say.VARIANT_RANGE, low=low, high=high, value=value)

    def question(self, table, path: tuple) -> Question | None:
        if not self.typed(table, path, "a table"):
            return None
        if "answer" in table:
            self.fail(path + ("answer",), say.ANSWER_TYPED)
        self.only({k: v for k, v in table.items() if k != "answer"}, path, QUESTION_KEYS)
        kind = self.choice(table, path, "kind", QUESTION_KINDS)
        prompt, why = self.text(table, path, "prompt"), self.text(table, path, "why", required=kind != "choice")
        if kind == "choice" and "metric" in table:
            self.fail(path + ("metric",), say.CHOICE_NO_METRIC)
        metric = self.get(table, path, "metric", "a string") if kind != "choice" else ""
        time_limit = self.get(table, path, "time_limit", "a whole number", required=False)
        if time_limit is not None and kind != "choice":
            self.fail(path + ("time_limit",), say.ONLY_FOR, kind="a choice question", what="a time limit")
        elif time_limit is not None and time_limit <= 0:
            self.fail(path + ("time_limit",), say.NOT_POSITIVE, value=time_limit)
        options, tolerance = (), None
        if kind == "number":
            if "options" in table:
                self.fail(path + ("options",), say.NO_OPTIONS)
            tolerance = self.tolerance(table.get("tolerance"), path + ("tolerance",)) if "tolerance" in table else \
                self.fail(path, say.NEEDS, kind="a number question", what="tolerance")
        elif kind is not None:
            if "tolerance" in table:
                self.fail(path + ("tolerance",), say.ONLY_FOR, kind="a number question", what="tolerance")
            listed = self.get(table, path, "options", "a list of tables", default=[])
            options = tuple(self.option(o, path + ("options", i), kind) for i, o in enumerate(listed))
            self.option_count(path, kind, options)
        change = other = None
        other_metric = self.get(table, path, "other_metric", "a string", required=False)
        if "change" in table or kind == "direction":
            change = self.change(table, path, kind)
        if "other" in table:
            other = self.scenario(table["other"], path + ("other",))
        if kind == "compare" and "other" not in table and other_metric is None:
            self.fail(path, say.NEEDS, kind="a compare question", what="other or other_metric")
        return Question(prompt, kind, metric, options, "", why, change, other, other_metric, tolerance, time_limit)

    def question_variant(self, table: dict, path: tuple, question: Question | None, scenario: dict | None):
        if question is None or not isinstance(table, dict) or "variant" not in table:
            return question
        variant = self.variant(table["variant"], path + ("variant",), question.kind, question.metric, scenario)
        return replace(question, variant=variant) if variant is not None else question

    def option_count(self, path: tuple, kind: str, options: tuple) -> None:
        labels = [o.label for o in options if o is not None]
        if kind in ORDERS and len(options) != 3:
            self.fail(path + ("options",), say.OPTION_COUNT, kind=kind, order=ORDERS[kind])
        elif kind == "value" and len(options) < 2:
            self.fail(path + ("options",), say.OPTIONS_TWO)
        elif kind == "choice" and len(options) < 2:
            self.fail(path + ("options",), say.CHOICE_OPTIONS_TWO)
        elif kind == "choice" and options and None not in options and not any(o.correct for o in options):
            self.fail(path + ("options",), say.NO_CORRECT)
        for label in sorted({label for label in labels if labels.count(label) > 1}):
            self.fail(path + ("options",), say.LABEL_TWICE, label=label)

    def change(self, table: dict, path: tuple, kind: str) -> dict | None:
        if kind != "direction":
            self.fail(path + ("change",), say.ONLY_FOR, kind="a direction question", what="a change")
            return None
        change = self.get(table, path, "change", "a table")
        if change is None:
            return None
        if "move" in change:
            move = change["move"]
            if not (isinstance(move, list) and len(move) == 2 and isinstance(move[1], int)):
                self.fail(path + ("change", "move"), say.PAIR, value=move)
                return None
            change = {**change, "move": tuple(move)}
        return change

    # ------------------------------------------------------------------- controls, goals, claims

    def control(self, table, path: tuple, scenario: dict | None) -> Control | None:
        if not self.typed(table, path, "a table"):
            return None
        self.only(table, path, CONTROL_KEYS)
        kind = self.choice(table, path, "kind", CONTROL_KINDS)
        label = self.text(table, path, "label")
        given = {key: table[key] for key in ("item", "field", "index", "minimum", "maximum", "step") if key in table}
        for key in ("minimum", "maximum", "step"):
            if key in given and not self.typed(given[key], path + (key,), "a number"):
                given.pop(key)
        if "index" in given and not self.typed(given["index"], path + ("index",), "a whole number"):
            given.pop("index")
        if "field" in given and not self.typed(given["field"], path + ("field",), "a string"):
            given.pop("field")
        if kind in ("rank", "grade") and "item" not in given:
            self.fail(path, say.NEEDS, kind=f"a {kind} control", what="an item")
        if kind == "rank" and scenario and "item" in given and given["item"] not in scenario.get("recommended", ()):
            self.fail(path + ("item",), say.NOT_IN_LIST, item=given["item"])
        if kind in ("value", "setting") and "field" not in given:
            self.fail(path, say.NEEDS, kind=f"a {kind} control", what="a field")
        if kind == "value" and scenario and "field" in given:
            values = scenario.get(given["field"])
            index = given.get("index", 0)
            if not isinstance(values, list) or not 0 <= index < len(values):
                self.fail(path + ("index",), say.INDEX_OUT_OF_RANGE, index=index, field=given["field"],
                          last=len(values) - 1 if isinstance(values, list) else "-")
        control = Control(kind, label, **given)
        if control.minimum >= control.maximum:
            self.fail(path + ("maximum",), say.RANGE_EMPTY, minimum=control.minimum, maximum=control.maximum)
        return control

    def goal(self, table, path: tuple) -> Goal | None:
        if not self.typed(table, path, "a table"):
            return None
        self.only(table, path, GOAL_KEYS)
        text, reached = self.text(table, path, "text"), self.text(table, path, "reached")
        conditions = []
        for i, condition in enumerate(self.get(table, path, "conditions", "a list", default=[])):
            where = path + ("conditions", i)
            if not (isinstance(condition, list) and len(condition) == 3 and isinstance(condition[0], str)
                    and isinstance(condition[2], (str, int, float)) and not isinstance(condition[2], bool)):
                self.fail(where, say.WRONG_TYPE, expected='["value", "<", 0.5]', found=condition)
            elif condition[1] not in GOAL_OPERATORS:
                self.fail(where, say.NOT_ONE_OF, value=condition[1], expected=", ".join(GOAL_OPERATORS))
            else:
                conditions.append(tuple(condition))
        return Goal(text, tuple(conditions), reached)

    def claim(self, table, path: tuple) -> Claim | None:
        if not self.typed(table, path, "a table"):
            return None
        self.only(table, path, CLAIM_KEYS)
        value = self.get(table, path, "value", "a string")
        direction = self.choice(table, path, "direction", CLAIM_DIRECTIONS)
        frames = self.get(table, path, "frames", "a list", required=False)
        if frames is not None:
            if len(frames) == 2 and all(isinstance(f, int) and not isinstance(f, bool) for f in frames):
                frames = tuple(frames)
            else:
                self.fail(path + ("frames",), say.PAIR, value=frames)
        at = self.get(table, path, "at", "a number", required=False)
        than = self.get(table, path, "than", "a string", required=False)
        return Claim(value, direction, frames, at, than)

    # ------------------------------------------------------------------- steps and the lesson

    def step(self, table, path: tuple, answer: Callable[[Step], str]) -> Step | None:
        if not self.typed(table, path, "a table"):
            return None
        before = len(self.problems)
        self.only(table, path, STEP_KEYS)
        kind = self.choice(table, path, "kind", STEP_KINDS)
        title, text = self.text(table, path, "title"), self.text(table, path, "text", required=kind != "quiz")
        if kind == "quiz":  # a plain question: nothing to compute, so nothing to show
            for key in ("scenario", "view", "focus"):
                if key in table:
                    self.fail(path + (key,), say.QUIZ_NO_SCENARIO)
            scenario = view = None
        else:
            scenario = self.scenario(table["scenario"], path + ("scenario",)) if "scenario" in table else \
                self.fail(path + ("scenario",), say.MISSING)
            default_view = DEFAULT_VIEWS.get((scenario or {}).get("kind"))
            view = self.get(table, path, "view", "a string", required=default_view is None and scenario is not None,
                            default=default_view)
        focus = self.get(table, path, "focus", "a list", required=False, default=[]) if kind != "quiz" else []
        for i, key in enumerate(focus):
            self.typed(key, path + ("focus", i), "a string")
        animation = self.get(table, path, "animation", "a table", required=False)
        question = self.question(table["question"], path + ("question",)) if "question" in table else None
        if question is not None:
            question = self.question_variant(table["question"], path + ("question",), question, scenario)
        controls = tuple(self.control(c, path + ("controls", i), scenario)
                         for i, c in enumerate(self.get(table, path, "controls", "a list", required=False, default=[])))
        goal = self.goal(table["goal"], path + ("goal",)) if "goal" in table else None
        claims = tuple(self.claim(c, path + ("claims", i), )
                       for i, c in enumerate(self.get(table, path, "claims", "a list", required=False, default=[])))
        self.kind_needs(table, path, kind)
        if question is not None and kind is not None and question.kind is not None \
                and (question.kind == "choice") != (kind == "quiz"):
            self.fail(path + ("question", "kind"), say.CHOICE_IN_QUIZ)
        if len(self.problems) > before:
            return None
        step = Step(title, kind, text, scenario, view, tuple(focus), animation, question, controls, goal, claims)
        if question is not None:
            try:
                step = replace(step, question=replace(question, answer=answer(step)))
            except Unanswerable as why:
                self.fail(path + ("question",), why.message, **why.params)
                return None
        return step

    def kind_needs(self, table: dict, path: tuple, kind: str | None) -> None:
        wants = {"question": kind in ("predict", "quiz"), "controls": kind == "explore", "goal": kind == "explore"}
        names = {"predict": "a predict step", "quiz": "a quiz step", "explore": "an explore step"}
        for key, wanted in wants.items():
            owner = ("quiz" if kind == "quiz" else "predict") if key == "question" else "explore"
            if wanted and key not in table:
                self.fail(path, say.NEEDS, kind=names[owner], what="a question" if key == "question"
                          else "controls and a goal")
            elif kind is not None and not wanted and key in table:
                self.fail(path + (key,), say.ONLY_FOR, kind=names[owner],
                          what="a question" if key == "question" else "controls and a goal")
        if kind is not None and kind != "demonstrate" and "animation" in table:
            self.fail(path + ("animation",), say.ONLY_FOR, kind="a demonstrate step", what="an animation")

    def lesson(self, document: dict, answer: Callable[[Step], str]) -> Lesson | None:
        self.only(document, (), LESSON_KEYS)
        key = self.get(document, (), "id", "a string")
        if key is not None and not ID.fullmatch(key):
            self.fail(("id",), say.BAD_ID, value=key)
        title = self.text(document, (), "title")
        icon = self.get(document, (), "icon", "a string", required=False, default=ICON)
        topic = self.get(document, (), "topic", "a string", required=False, default="")
        summary = self.text(document, (), "summary", required=False)
        listed = self.get(document, (), "steps", "a list of tables", default=None)
        if listed is None:
            return None
        if not listed:
            self.fail(("steps",), say.NO_STEPS)
        if len(listed) > MAX_STEPS:
            self.fail(("steps",), say.TOO_MANY_STEPS, count=len(listed), limit=MAX_STEPS)
            return None
        steps = tuple(self.step(s, ("steps", i), answer) for i, s in enumerate(listed))
        return Lesson(key, title, icon, topic, summary, steps)


def read_lesson(data: bytes | str, answer: Callable[[Step], str] = answers.answer) -> Loaded:
    """The lesson a file's text describes, or every problem with its line and field."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_BYTES:
        return Loaded(None, (problem(None, "", say.TOO_BIG, size=len(raw), limit=MAX_BYTES),))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return Loaded(None, (problem(None, "", say.NOT_UTF8),))
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"at line (\d+)", str(error))
        return Loaded(None, (problem(int(line.group(1)) if line else None, "", say.NOT_TOML, error=error),))
    reader = _Reader(text)
    lesson = reader.lesson(document, answer)
    if reader.problems:
        return Loaded(None, tuple(reader.problems), reader.translations)
    return Loaded(lesson, (), reader.translations)
