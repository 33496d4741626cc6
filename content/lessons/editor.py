"""“Make a question of this”: a teacher's list, grades and K as a one-step lesson that asks one metric.

The right value is computed (``teaching.question_mistakes.compute``, the registry's), never typed. Wrong options are
proposed from the named mistakes (``teaching.question_mistakes.named_mistakes``) that give a different number on
this list: a mistake that gives the right number, or one already proposed, is left out. The teacher unticks what
they do not want; :func:`build` writes the lesson file (``to_toml``, every sentence in every language) and reads it
back with the loader, so only a file that opens is offered. The result is a ``Lesson`` and its TOML text: the page
downloads it or opens it in the session; anything else (a class database) can take the same two.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from content import i18n
from content.i18n import N_, _
from content.lessons import answers
from content.lessons.file_reader import LANGUAGES, Loaded, item_key, read_lesson
from content.lessons.file_writer import to_toml
from content.lessons.problems import Problem
from content.lessons.schema import Lesson, Option, Question, Step, Tolerance
from content.practice import mistake as mistake_words
from content.text import markdown
from metrics.registry import RankingCase
from teaching import question_mistakes
from teaching.question_mistakes import METRICS, compute, named_mistakes

KINDS = ("value", "number")
"""value: the student picks among the right number and the proposed wrong ones; number: the student types it."""
KIND_NAMES = {"value": N_("A choice of values"), "number": N_("A typed number")}
LABELS = {"precision_at_k": "Precision@{k}", "recall_at_k": "Recall@{k}", "f1_at_k": "F1@{k}",
          "hit_rate_at_k": "HR@{k}", "ap_at_k": "AP@{k}", "rr": "RR", "ndcg_at_k": "NDCG@{k}"}
VIEWS = {"precision_at_k": "topn", "recall_at_k": "topn", "f1_at_k": "topn", "hit_rate_at_k": "topn",
         "ap_at_k": "ap", "rr": "rr", "ndcg_at_k": "ndcg"}
"""The lesson view whose cards and formulas show each metric at the reveal."""
DECIMALS = (1, 2, 3, 4)
ICON = "❓"

TITLE = N_("A question on {metric}")
SUMMARY = N_("Made with “Make a question of this” from a list of {count} items.")
STEP_TITLE = N_("{metric} on this list")
TEXT = N_("Recommended, best first: {items}. Relevant items and their grades: {grades}. K = {k}.")
NO_RELEVANT = N_("none")
EXPONENTIAL = N_("NDCG here uses the exponential gain 2^grade − 1.")
PROMPT_VALUE = N_("What is {metric}?")
PROMPT_NUMBER = N_("What is {metric}? Type it.")
WHY = N_("{metric} = {value}, computed from the list, the grades and K.")
RIGHT = N_("Right: {metric} computed from the list, the grades and K.")
WRONG = N_("This is what you get with {mistake}.")
EMPTY_LIST = N_("The recommended list is empty: add items before making a question of it.")
K_CUT = N_("K = {k} is longer than the list of {count} items; the question uses K = {count}, as a lesson file must.")
AP_MIN = N_("The question computes AP with min(|Rel|, K) in the denominator, as every lesson does.")
NO_PROPOSALS = N_("No named mistake gives a different number on this list: ask for a typed number, or change the "
                  "list.")

# The editor's frame (ui/question_editor.py), on the playground and each ranking metric page.
OPEN = N_("Make a question of this")
OPEN_HELP = N_("This list, its grades and K as a lesson of one question: the app computes the right answer and "
               "proposes wrong ones from common mistakes.")
METRIC = N_("Metric")
KIND = N_("Kind of question")
RIGHT_OPTION = N_("The right option, computed: {value}")
WRONG_OPTIONS = N_("Wrong options, each what a named mistake gives here (untick the ones you do not want):")
DECIMALS_LABEL = N_("Decimal places the typed number must agree to")
PREVIEW = N_("Preview: the step on a phone")
DOWNLOAD = N_("Download the lesson file (.toml)")
OPEN_IN_LESSONS = N_("Open it in this session's lessons")
OPENED = N_("**{title}** is open in this session's lessons.")
RUN_IT = N_("Run it on the lessons page")
NOT_MADE = N_("The lesson file could not be made:")
KEEP_ONE = N_("Keep at least one wrong option ticked, or ask for a typed number.")


@dataclass(frozen=True)
class Proposal:
    """A wrong option: what one named mistake gives on this list."""

    mistake: str        # the mistake's English name (teaching.question_mistakes)
    value: float        # the mistake's computation on this list, unrounded
    label: str          # the number as the option shows it

    def explanation(self) -> str:
        return _(WRONG).format(mistake=mistake_words(self.mistake))


@dataclass(frozen=True)
class Draft:
    """What the editor made: the lesson as the loader reads its file, that file, and the loader's problems."""

    lesson: Lesson | None
    text: str
    problems: tuple[Problem, ...] = ()
    translations: dict[str, dict[str, str]] = field(default_factory=dict)


def _item(item):
    """An item as a lesson file reads it back: the playground's "103" is the number 103 there."""
    return item_key(item) if isinstance(item, str) else item


def scenario_of(case: RankingCase) -> dict:
    """The lesson scenario of a playground case: K cut to the list's length (a lesson file's rule), items that look
    like whole numbers made numbers in the list and the truth alike (as the file will read them)."""
    scenario = {"kind": "ranking", "recommended": [_item(item) for item in case.recommended],
                "ground_truth": {_item(item): grade for item, grade in case.ground_truth.items()},
                "k": min(case.k, len(case.recommended))}
    if case.gain != "linear":
        scenario["gain"] = case.gain
    return scenario


def case_of(scenario: dict) -> RankingCase:
    return RankingCase(scenario["recommended"], scenario["ground_truth"], scenario["k"],
                       scenario.get("gain", "linear"))


def label(value: float) -> str:
    """A number as an option shows it: four decimals at most, trailing zeros dropped (0.5, 0.3333, 1)."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def metric_label(metric: str, k: int) -> str:
    return LABELS[metric].format(k=k)


def right_value(scenario: dict, metric: str) -> float:
    return compute(metric, case_of(scenario))


def proposals(scenario: dict, metric: str) -> tuple[Proposal, ...]:
    """The wrong options the named mistakes give here: each a different number from the right one and from the
    others (``answers.close``, the loader's test of a match), in the catalogue's order."""
    case = case_of(scenario)
    right = compute(metric, case)
    kept: list[Proposal] = []
    for name, value in named_mistakes(metric, case).items():
        if value is None or value != value or value in (float("inf"), float("-inf")):
            continue
        shown = label(value)
        if answers.close(value, right) or answers.close(float(shown), right) \
                or any(answers.close(value, p.value) or p.label == shown for p in kept):
            continue
        kept.append(Proposal(name, float(value), shown))
    return tuple(kept)


def _sentences(scenario: dict, metric: str, kind: str, chosen: tuple[Proposal, ...]) -> dict[str, str]:
    """Every sentence of the lesson in the current language, by role."""
    k = scenario["k"]
    name = metric_label(metric, k)
    grades = ", ".join(f"{markdown(item)} = {grade:g}" for item, grade in scenario["ground_truth"].items() if grade > 0)
    text = _(TEXT).format(items=", ".join(markdown(item) for item in scenario["recommended"]),
                          grades=grades or _(NO_RELEVANT), k=k)
    if metric == "ndcg_at_k" and scenario.get("gain") == "exponential":
        text += " " + _(EXPONENTIAL)
    said = {"title": _(TITLE).format(metric=name), "summary": _(SUMMARY).format(count=len(scenario["recommended"])),
            "step": _(STEP_TITLE).format(metric=name), "text": text,
            "prompt": _(PROMPT_VALUE if kind == "value" else PROMPT_NUMBER).format(metric=name),
            "why": _(WHY).format(metric=name, value=label(right_value(scenario, metric))),
            "right": _(RIGHT).format(metric=name)}
    said.update({f"wrong {number}": proposal.explanation() for number, proposal in enumerate(chosen)})
    return said


def lesson_key(scenario: dict, metric: str, kind: str) -> str:
    digest = hashlib.sha1(repr((sorted(scenario.items(), key=str), metric, kind)).encode()).hexdigest()[:6]
    return f"question-{metric.replace('_', '-')}-{digest}"


def build(scenario: dict, metric: str, kind: str, chosen: tuple[Proposal, ...] = (), decimals: int = 2) -> Draft:
    """The one-step lesson asking ``metric`` on ``scenario``, its file, and the loader's verdict on that file."""
    if metric not in METRICS or kind not in KINDS:
        raise ValueError(f"metric must be one of {METRICS} and kind one of {KINDS}; got {metric!r}, {kind!r}")
    with i18n.speaking(i18n.SOURCE):
        english = _sentences(scenario, metric, kind, chosen)
    translations = {}
    for code in LANGUAGES:
        if code != i18n.SOURCE:
            with i18n.speaking(code):
                said = _sentences(scenario, metric, kind, chosen)
            translations[code] = {english[role]: text for role, text in said.items() if text != english[role]}
    right = right_value(scenario, metric)
    if kind == "value":
        options = [Option(label(right), english["right"], float(label(right)))]
        options += [Option(p.label, english[f"wrong {n}"], float(p.label)) for n, p in enumerate(chosen)]
        options.sort(key=lambda option: option.value)
        question = Question(english["prompt"], kind, metric, tuple(options), "", english["why"])
    else:
        question = Question(english["prompt"], kind, metric, (), "", english["why"],
                            tolerance=Tolerance("decimals", decimals))
    step = Step(english["step"], "predict", english["text"], scenario, VIEWS[metric], (metric,), question=question)
    lesson = Lesson(lesson_key(scenario, metric, kind), english["title"], ICON, VIEWS[metric], english["summary"],
                    (step,))
    text = to_toml(lesson, translations)
    loaded: Loaded = read_lesson(text)
    return Draft(loaded.lesson, text, loaded.problems, loaded.translations)


__all__ = ["DECIMALS", "KINDS", "METRICS", "Draft", "Proposal", "build", "label", "metric_label", "proposals",
           "question_mistakes", "right_value", "scenario_of"]
