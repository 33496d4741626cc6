"""The shapes of lesson data. Scenarios are plain dicts with a ``kind`` (see ``SCENARIO_KINDS``)."""

from __future__ import annotations

from dataclasses import dataclass, field

STEP_KINDS = ("show", "demonstrate", "predict", "explore", "quiz")
"""show: one locked view; demonstrate: the scenario changes by itself over animation frames;
predict: the learner answers before the numbers are revealed; explore: controls unlocked, a goal;
quiz: a plain multiple-choice question with no scenario (a question sheet's, ``content.lessons.sheet``), its right
options stated by the file (``correct``): nothing is computed, so there is nothing to compute the answer from."""

SCENARIO_KINDS = {
    "ranking": ("recommended", "ground_truth", "k"),       # optional: gain ("linear"/"exponential")
    "users": ("users", "recommended", "relevant", "k"),     # one list per user
    "ratings": ("predictions", "actuals"),
    "labels": ("y_true",),                                  # plus y_pred, or y_score and threshold
    "scores": ("user_ids", "y_true", "y_score"),
    "probabilities": ("y_true", "y_prob"),
    "sweep": ("values",),                                   # a demonstration over generated data
    "protocol": ("preset",),                                # a protocol lab preset on MovieLens 100K; optional:
                                                            # negatives (sampled per held-out item)
    "offpolicy": ("preset",),                               # a Logged feedback page preset (offpolicy.presets)
}

QUESTION_KINDS = ("value", "direction", "compare", "number", "choice")
"""number: the learner types the metric's value, right within the question's ``tolerance``; value: which option's number is the metric (each option carries its ``value``); direction: does
the metric go up, down or stay when ``change`` is applied (options in that order); compare: is the
metric higher for A (the step's scenario) or B (``other``), or, with ``other_metric``, is
``metric`` or ``other_metric`` higher on the one scenario (options: first higher, second higher,
the same, in that order); choice: a quiz step's plain question, right when the chosen option is ``correct``."""


@dataclass(frozen=True)
class Option:
    label: str
    explanation: str          # shown when this option is chosen: why it is right, or what it mixes up
    value: float | None = None  # for "value" questions: the number this option claims
    correct: bool = False       # for "choice" questions only: the file states which options are right


VARIANT_KEYS = ("length", "relevant", "grades", "k", "seed")
VARIANT_METRICS = ("precision_at_k", "recall_at_k", "f1_at_k", "ap_at_k", "rr", "ndcg_at_k")
MOST_VARIANT_ITEMS = 30
"""A question's ``variant``: each student of a live class answers for a list of their own, ``length`` items long
with ``relevant`` of them relevant (grades drawn from ``grades = [lo, hi]``, whole numbers), cut at ``k``; drawn
from the class's random seed, the student and ``seed``. Only a value or number question on a ranking scenario has one."""

TOLERANCE_KINDS = ("decimals", "absolute", "relative")
"""decimals: right when it agrees with the value rounded to that many places; absolute: within that much of it;
relative: within that share of it (0.05 = 5%)."""


@dataclass(frozen=True)
class Tolerance:
    kind: str
    amount: float

    def accepts(self, typed: float, value: float) -> bool:
        slack = 1e-9  # a typed 0.75 for 0.7499999999 is the same number
        if self.kind == "decimals":
            return abs(typed - value) <= 0.5 * 10 ** -int(self.amount) + slack
        if self.kind == "absolute":
            return abs(typed - value) <= self.amount + slack
        return abs(typed - value) <= self.amount * abs(value) + slack

    def shown(self, value: float) -> str:
        """The right value as the answer key writes it: to the stated places, else to 4."""
        return f"{value:.{int(self.amount) if self.kind == 'decimals' else 4}f}"


@dataclass(frozen=True)
class Question:
    prompt: str
    kind: str
    metric: str               # a key of the step's view values (registry keys where one exists)
    options: tuple[Option, ...]
    answer: str               # the right option's label; a test checks it against metrics/
    why: str                  # one sentence shown with the numbers at the reveal
    change: dict | None = None        # direction: scenario fields replaced (or {"move": (item, rank)})
    other: dict | None = None         # compare: scenario B
    other_metric: str | None = None   # compare: the second metric on the same scenario
    tolerance: Tolerance | None = None  # number: how close a typed value must be
    time_limit: int | None = None       # choice: seconds the teacher gives (a question sheet's "Time limit")
    variant: dict | None = None       # a list per student in a live class (VARIANT_KEYS, all filled in)


@dataclass(frozen=True)
class Control:
    """A control an explore step unlocks.

    kind "k": the cut-off K; "rank": where ``item`` sits in the list; "grade": ``item``'s grade;
    "value": element ``index`` of the list field ``field``; "threshold": the decision threshold;
    "setting": the scenario's number ``field`` (whole numbers when ``minimum`` and ``step`` are).
    """

    kind: str
    label: str
    item: object = None
    field: str | None = None
    index: int | None = None
    minimum: float = 0.0
    maximum: float = 1.0
    step: float = 0.05


@dataclass(frozen=True)
class Goal:
    text: str
    conditions: tuple[tuple[str, str, object], ...]  # (value key, "<" "<=" "==" ">=" ">", number or value key)
    reached: str                                     # what to say when every condition holds


CLAIM_DIRECTIONS = ("rises", "falls", "unchanged", "never falls", "never rises", "rises evenly",
                    "rises ever faster", "falls ever slower", "rises more than", "rises less than", "above", "below")
"""How a value moves over each move between consecutive frames of a claim's range. "rises evenly":
by the same amount each move; "ever faster"/"ever slower": each move's change larger/smaller than the
one before; "rises more/less than": rises, by more/less than ``than`` changes on the same move.
"above"/"below": not a move but a standing: the value is higher/lower than ``than`` on every frame of the range."""


@dataclass(frozen=True)
class Claim:
    """What a step's text says moves, as data a test checks against the step's own numbers.

    ``value`` is a column of the step's frames (``ui.controllers.lessons.claim_frames``: the animation frames of a
    demonstrate step, before and after the change of a predict step). ``frames`` is the range of
    frame indices (0-based, both ends included) the claim holds over, all frames if None; ``at``,
    if given, is the value every frame of the range shows.
    """

    value: str
    direction: str
    frames: tuple[int, int] | None = None
    at: float | None = None
    than: str | None = None


@dataclass(frozen=True)
class Step:
    title: str
    kind: str
    text: str
    scenario: dict | None             # None only for a quiz step
    view: str | None
    focus: tuple[str, ...] = ()       # the value keys whose cards and formulas this step shows (all if empty)
    animation: dict | None = None     # demonstrate: what changes frame by frame
    question: Question | None = None
    controls: tuple[Control, ...] = ()
    goal: Goal | None = None
    claims: tuple[Claim, ...] = ()    # every sentence of ``text`` about what moves, checked by a test


@dataclass(frozen=True)
class Lesson:
    key: str
    title: str
    icon: str
    topic: str                # the teaching page of ui.navigation this lesson belongs to
    summary: str
    steps: tuple[Step, ...] = field(default_factory=tuple)
