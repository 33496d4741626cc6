"""Practice mode without Streamlit: answer checking, the mistake catalogue, quiz questions, goal challenges.

A typed answer is right when it is the exact value rounded to the decimals typed, at least
:data:`MIN_DECIMALS` of them (``0.643``, ``0.6429``, ``0,6429``, ``64.29%``), or the exact value itself
(``9/14``, ``0.5``). When it is wrong, :func:`mistakes` recomputes the metric under each common mistaken convention from the same
input; the first one that gives the typed number is named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import combinations

import numpy as np
import pandas as pd

from teaching import mistakes as wrong
from teaching import practice_data, worked
from metrics import registry as metric_registry
from metrics.ndcg import GAINS, dcg_at_k, ndcg_at_k, ndcg_ideal_from_list
from metrics.ranked_metrics import (
    AP_DENOMINATORS, average_precision_at_k, reciprocal_rank, reciprocal_rank_at_k,
)
from metrics.registry import RankingCase
from metrics.topn_metrics import f1_at_k, precision_at_k, recall_at_k

TOLERANCE = 0.5e-4
"""Half a unit in the fourth decimal: how close two computed values must be to count as the same."""

MIN_DECIMALS = 3
EXACT = 1e-9
ANSWER_RULE = ("Give at least 3 decimals (0.643 or 0.6429) or the exact fraction (9/14): an answer is right when "
               "it is the exact value rounded to the decimals you typed.")
"""What the answer boxes say about the precision asked."""

MAX_ANSWER_LENGTH = 40


class AnswerError(ValueError):
    """A typed answer that is not a number: ``code`` and ``fields`` say why (the UI words it in the
    reader's language); ``str()`` is the English message."""

    def __init__(self, code: str, message: str, **fields):
        super().__init__(message)
        self.code, self.fields = code, fields


def parse_answer(text: str) -> Fraction:
    """A typed number as an exact fraction: decimals, a decimal comma, a percentage or ``p/q``.

    Raises
    ------
    ValueError
        With a message to show the learner, for anything that is not a finite number.

    Examples
    --------
    >>> parse_answer("9/14"), parse_answer(" 0,5 "), parse_answer("25%")
    (Fraction(9, 14), Fraction(1, 2), Fraction(1, 4))
    """
    cleaned = str(text).strip().replace(" ", "")
    if not cleaned:
        raise AnswerError("empty", "Type a number first, e.g. 0.6429 or 9/14.")
    if len(cleaned) > MAX_ANSWER_LENGTH:
        raise AnswerError("too_long", f"That answer is {len(cleaned)} characters long; a number needs at most "
                          f"{MAX_ANSWER_LENGTH}.", length=len(cleaned), most=MAX_ANSWER_LENGTH)
    percent = cleaned.endswith("%")
    body = cleaned.removesuffix("%")
    if "," in body and "." not in body and "/" not in body and body.count(",") == 1:
        body = body.replace(",", ".")
    try:
        value = Fraction(body)
    except (ValueError, ZeroDivisionError):
        raise AnswerError("not_a_number", f"{text.strip()!r} is not a number: type a decimal such as 0.6429 or a "
                          "fraction such as 9/14.", text=text.strip()) from None
    return value / 100 if percent else value


def typed_decimals(text: str) -> int | None:
    """How many decimals a typed decimal answer has (a percentage's two more); None for a fraction or 1e-3.

    Examples
    --------
    >>> typed_decimals("1.631"), typed_decimals("0,5"), typed_decimals("64.29%"), typed_decimals("9/14")
    (3, 1, 4, None)
    """
    cleaned = str(text).strip().replace(" ", "")
    body = cleaned.removesuffix("%")
    if "/" in body or "e" in body.lower():
        return None
    point = "." if "." in body else "," if body.count(",") == 1 else None
    decimals = len(body.split(point, 1)[1]) if point else 0
    return decimals + 2 * cleaned.endswith("%")


def matches(typed: Fraction, decimals: int | None, value: float) -> bool:
    """Whether a typed answer stands for ``value``: exactly, or ``value`` rounded to the typed decimals
    when there are at least :data:`MIN_DECIMALS` of them.

    Examples
    --------
    >>> matches(Fraction("1.631"), 3, 1.6309), matches(Fraction("1.63"), 2, 1.6309), matches(Fraction(9, 14), None, 9 / 14)
    (True, False, True)
    """
    gap = abs(float(typed) - float(value))
    if gap <= EXACT:
        return True
    return decimals is not None and decimals >= MIN_DECIMALS and gap <= 0.5 * 10.0 ** -decimals + 1e-12


def as_fraction(value: float, max_denominator: int = 1000) -> Fraction | None:
    """The small fraction equal to ``value`` (to 1e-9), if there is one: 0.642857... -> 9/14.

    Examples
    --------
    >>> as_fraction(9 / 14), as_fraction(1 / np.log2(3))
    (Fraction(9, 14), None)
    """
    fraction = Fraction(value).limit_denominator(max_denominator)
    return fraction if abs(float(fraction) - value) < 1e-9 else None


def describe(value: float) -> str:
    """0.6429 (= 9/14) when a small fraction is exact, else the four decimals."""
    fraction = as_fraction(value)
    if fraction is not None and fraction.denominator > 1:
        return f"{value:.4f} (= {fraction})"
    return f"{value:.4f}"


def close(a: float, b: float) -> bool:
    return abs(float(a) - float(b)) <= TOLERANCE + 1e-12


# --- the metrics a question can ask for, and the mistakes each invites -----------------------------

@dataclass(frozen=True)
class QuizMetric:
    key: str
    label: str
    latex: str
    compute: Callable[[RankingCase], float] = field(repr=False)
    mistakes: Callable[[RankingCase], dict[str, float | None]] = field(repr=False)

    def display_label(self, k: int) -> str:
        return self.label.replace("@K", f"@{k}")


def _other_gain(case: RankingCase) -> str:
    return GAINS[1 - GAINS.index(case.gain)]


_GAIN_MISTAKE = {"linear": "exponential gain 2^rel − 1 instead of the linear gain rel",
                 "exponential": "linear gain rel instead of the exponential gain 2^rel − 1"}
_DENOMINATOR_NAMES = {"min": "min(|Rel|, K)", "relevant": "|Rel|", "hits": "the hits in the top K"}
RANKS_FROM_ZERO = "ranks counted from 0"


def _ap_mistakes(c: RankingCase) -> dict[str, float | None]:
    found: dict[str, float | None] = {
        f"AP divided by {_DENOMINATOR_NAMES[d]} instead of {_DENOMINATOR_NAMES[c.ap_denominator]}":
            average_precision_at_k(c.recommended, c.ground_truth, c.k, denominator=d)
        for d in AP_DENOMINATORS if d != c.ap_denominator
    }
    found[f"{RANKS_FROM_ZERO} (precision at a hit = hits so far / (rank − 1))"] = \
        wrong.average_precision_ranks_from_zero(c.recommended, c.ground_truth, c.k, denominator=c.ap_denominator)
    return found


def _rr_mistakes(c: RankingCase) -> dict[str, float | None]:
    return {
        f"RR cut at K = {c.k} (a first hit below rank K counted as 0)": reciprocal_rank_at_k(c.recommended, c.ground_truth, c.k),
        f"{RANKS_FROM_ZERO} (1 / (rank − 1))": wrong.reciprocal_rank_from_zero(c.recommended, c.ground_truth),
    }


def _ndcg_mistakes(c: RankingCase) -> dict[str, float | None]:
    return {
        _GAIN_MISTAKE[c.gain]: ndcg_at_k(c.recommended, c.ground_truth, c.k, gain=_other_gain(c)),
        "the ideal ranking built from the recommended list only (relevant items never recommended left out)":
            ndcg_ideal_from_list(c.recommended, c.ground_truth, c.k, gain=c.gain),
        f"the ideal ranking built from the top K = {c.k} of the list only (relevant items below rank {c.k} "
        "or never recommended left out)": wrong.ndcg_ideal_from_top_k(c.recommended, c.ground_truth, c.k, gain=c.gain),
        f"{RANKS_FROM_ZERO} in the discount (1/log2(i + 2) at rank i)":
            wrong.ndcg_ranks_off_by_one(c.recommended, c.ground_truth, c.k, gain=c.gain),
    }


def _list_relevances(c: RankingCase) -> list[float]:
    return [c.ground_truth.get(item, 0.0) for item in c.recommended]


def _dcg(c: RankingCase) -> float:
    return dcg_at_k(_list_relevances(c), c.k, gain=c.gain)


def _dcg_mistakes(c: RankingCase) -> dict[str, float | None]:
    return {
        _GAIN_MISTAKE[c.gain]: dcg_at_k(_list_relevances(c), c.k, gain=_other_gain(c)),
        "log base e in the discount (1/ln(i + 1) instead of 1/log2(i + 1))":
            wrong.dcg_log_base_e(c.recommended, c.ground_truth, c.k, gain=c.gain),
        f"{RANKS_FROM_ZERO} in the discount (1/log2(i + 2) at rank i)":
            wrong.dcg_ranks_off_by_one(c.recommended, c.ground_truth, c.k, gain=c.gain),
    }


def _no_mistakes(_: RankingCase) -> dict[str, float | None]:
    return {}


def _precision(c: RankingCase) -> float:
    return precision_at_k(c.recommended, c.ground_truth, c.k)


def _recall(c: RankingCase) -> float:
    return recall_at_k(c.recommended, c.ground_truth, c.k)


QUIZ_METRICS: dict[str, QuizMetric] = {m.key: m for m in (
    QuizMetric("precision_at_k", "Precision@K", r"\mathrm{P@K}=\frac{\lvert \mathrm{top}_K\cap \mathrm{Rel}\rvert}{K}",
               _precision, _no_mistakes),
    QuizMetric("recall_at_k", "Recall@K", r"\mathrm{R@K}=\frac{\lvert \mathrm{top}_K\cap \mathrm{Rel}\rvert}{\lvert\mathrm{Rel}\rvert}",
               _recall, _no_mistakes),
    QuizMetric("f1_at_k", "F1@K", r"\mathrm{F1@K}=\frac{2\cdot \mathrm{P@K}\cdot \mathrm{R@K}}{\mathrm{P@K}+\mathrm{R@K}}",
               lambda c: f1_at_k(_precision(c), _recall(c)), _no_mistakes),
    QuizMetric("ap_at_k", "AP@K",
               r"\mathrm{AP@K}=\frac{1}{\min(\lvert\mathrm{Rel}\rvert,K)}\sum_{i=1}^{K}\mathrm{P@}i\cdot \mathrm{rel}_i",
               lambda c: average_precision_at_k(c.recommended, c.ground_truth, c.k, denominator=c.ap_denominator),
               _ap_mistakes),
    QuizMetric("rr", "RR", r"\mathrm{RR}=\frac{1}{\mathrm{rank}_{\text{first hit}}}",
               lambda c: reciprocal_rank(c.recommended, c.ground_truth), _rr_mistakes),
    QuizMetric("dcg_at_k", "DCG@K", r"\mathrm{DCG@K}=\sum_{i=1}^{K}\frac{\mathrm{rel}_i}{\log_2(i+1)}", _dcg, _dcg_mistakes),
    QuizMetric("ndcg_at_k", "NDCG@K", r"\mathrm{NDCG@K}=\frac{\mathrm{DCG@K}}{\mathrm{IDCG@K}}",
               lambda c: ndcg_at_k(c.recommended, c.ground_truth, c.k, gain=c.gain), _ndcg_mistakes),
)}

# Registry keys the dashboard's cards use, mapped to the quiz metric that checks them.
CARD_KEYS = {"precision_at_k": "precision_at_k", "recall_at_k": "recall_at_k", "f1_at_k": "f1_at_k",
             "ap_at_k": "ap_at_k", "rr": "rr", "ndcg_graded_at_k": "ndcg_at_k"}


def mistakes(metric: str, case: RankingCase) -> dict[str, float]:
    """Each mistaken convention that gives a different number from the right one, and that number."""
    quiz_metric = QUIZ_METRICS[metric]
    right = quiz_metric.compute(case)
    return {name: float(value) for name, value in quiz_metric.mistakes(case).items()
            if value is not None and np.isfinite(value) and not close(value, right)}


@dataclass(frozen=True)
class Verdict:
    correct: bool
    message: str
    mistake: str | None = None
    unreadable: bool = False  # not a number (or no option chosen): ask again, do not score
    solution: tuple[worked.Worked, ...] = ()  # a wrong answer's worked solution, its slip marked
    code: str = ""  # what the message says, for the UI to word in the reader's language (content/practice.py)
    fields: dict = field(default_factory=dict, compare=False)  # the values the message names


def check_number(text: str, exact: float, known_mistakes: dict[str, float] | None = None) -> Verdict:
    """Right when the typed answer :func:`matches` ``exact``; when wrong, the mistake that gives it, if any.

    The typed answer is quoted as typed. Too few decimals to tell (``0.64`` for 0.6429) is not scored.

    Examples
    --------
    >>> check_number("9/14", 9 / 14).correct, check_number("0.6429", 9 / 14).correct, check_number("0.643", 9 / 14).correct
    (True, True, True)
    >>> check_number("1.631", 1.6309).message
    'Right: 1.631 is 1.6309 rounded to 3 decimals.'
    >>> check_number("0.64", 9 / 14).unreadable
    True
    >>> check_number("0.5", 9 / 14, {"AP divided by the hits": 0.5}).mistake
    'AP divided by the hits'
    """
    try:
        typed = parse_answer(text)
    except AnswerError as problem:
        return Verdict(False, str(problem), unreadable=True, code=problem.code, fields=problem.fields)
    shown, decimals = str(text).strip(), typed_decimals(text)
    if matches(typed, decimals, exact):
        if abs(float(typed) - exact) <= EXACT:
            return Verdict(True, f"Right: {describe(exact)}.", code="right_exact", fields={"exact": exact})
        return Verdict(True, f"Right: {shown} is {exact:.4f} rounded to {decimals} decimals.", code="right_rounded",
                       fields={"shown": shown, "exact": exact, "decimals": decimals})
    for name, value in (known_mistakes or {}).items():
        if matches(typed, decimals, value):
            return Verdict(False, f"Not quite: {shown} is what you get with {name}. "
                                  f"The answer is {describe(exact)}.", name, code="mistake",
                           fields={"shown": shown, "mistake": name, "exact": exact})
    if decimals is not None and decimals < MIN_DECIMALS and abs(float(typed) - exact) <= 0.5 * 10.0 ** -decimals:
        low, high = float(typed) - 0.5 * 10.0 ** -decimals, float(typed) + 0.5 * 10.0 ** -decimals
        return Verdict(False, f"{shown} stands for anything from {low:g} to {high:g}: give at least {MIN_DECIMALS} "
                              "decimals, or the exact fraction, so it can be checked.", unreadable=True,
                       code="too_few_decimals", fields={"shown": shown, "low": low, "high": high, "most": MIN_DECIMALS})
    return Verdict(False, f"Not quite: you typed {shown}; the answer is {describe(exact)}.", code="wrong",
                   fields={"shown": shown, "exact": exact})


def check_metric(text: str, metric: str, case: RankingCase) -> Verdict:
    """:func:`check_number` against a metric of ``case``, with its mistake catalogue; a wrong answer
    carries the worked solution with the step the diagnosed mistake changes marked."""
    verdict = check_number(text, QUIZ_METRICS[metric].compute(case), mistakes(metric, case))
    if verdict.correct or verdict.unreadable:
        return verdict
    solution = worked.ranking_solution(metric, case).with_mark(worked.slip(metric, verdict.mistake))
    return replace(verdict, solution=(solution,))


# --- quiz questions from a seeded random scenario -------------------------------------------------

@dataclass(frozen=True)
class QuizSettings:
    """What makes a quiz: the same settings give every learner the same questions."""

    seed: int = 1
    length: int = 8
    graded: bool = False
    k: int = 5
    questions: int = 6


@dataclass(frozen=True)
class Question:
    kind: str  # "compute", "compare", "swap", "k_equal" or "data"
    metric: str  # a key of QUIZ_METRICS; for "data", a registry key of practice_data.FAMILIES
    prompt: str
    case: object  # a RankingCase; for "data" the registry case of its family
    other: RankingCase | None = None  # list B of a "compare" question
    options: tuple[str, ...] = ()
    right_options: frozenset = frozenset()
    right_ks: frozenset = frozenset()

    @property
    def label(self) -> str:
        if self.kind == "data":
            return metric_registry.BY_KEY[self.metric].label
        return QUIZ_METRICS[self.metric].display_label(self.case.k)

    @property
    def latex(self) -> str:
        if self.kind == "data":
            return metric_registry.BY_KEY[self.metric].latex
        return QUIZ_METRICS[self.metric].latex.replace("K", str(self.case.k))


KINDS = ("compute", "compare", "swap", "k_equal", "data", "data")
COMPARE_OPTIONS = ("List A", "List B", "They score the same")


def _random_case(rng: np.random.Generator, settings: QuizSettings) -> RankingCase:
    items = [int(i) for i in rng.choice(np.arange(100, 1000), size=settings.length + 1, replace=False)]
    recommended, outside = items[:-1], items[-1]
    n_relevant = int(rng.integers(1, max(2, settings.length // 2) + 1))
    relevant = [int(i) for i in rng.choice(recommended, size=n_relevant, replace=False)]
    if rng.random() < 0.4:
        relevant.append(outside)  # a relevant item the list never recommends, like the seed's 999
    grades = {item: float(rng.integers(1, 4)) if settings.graded else 1.0 for item in relevant}
    return RankingCase(recommended, grades, min(settings.k, settings.length))


def _swapped(items: list, i: int, j: int) -> list:
    swapped = list(items)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    return swapped


def swap_gains(metric: str, case: RankingCase) -> dict[tuple[int, int], float]:
    """The change of a metric for every swap of two ranks (1-based), by brute force."""
    compute = QUIZ_METRICS[metric].compute
    before = compute(case)
    n = len(case.recommended)
    return {(i + 1, j + 1): compute(replace(case, recommended=_swapped(case.recommended, i, j))) - before
            for i, j in combinations(range(n), 2)}


def ks_where_precision_equals_recall(case: RankingCase) -> frozenset:
    """Every K from 1 to the list length where P@K = R@K, by exact fractions."""
    return frozenset(k for k in range(1, len(case.recommended) + 1)
                     if Fraction(precision_at_k(case.recommended, case.ground_truth, k)).limit_denominator(10**6)
                     == Fraction(recall_at_k(case.recommended, case.ground_truth, k)).limit_denominator(10**6))


def _compute_question(rng, settings) -> Question:
    case = _random_case(rng, settings)
    metric = str(rng.choice(list(QUIZ_METRICS)))
    label = QUIZ_METRICS[metric].display_label(case.k)
    return Question("compute", metric, f"Compute {label} for the list below.", case)


def two_lists_table(a: RankingCase, b: RankingCase) -> pd.DataFrame:
    """Lists A and B side by side, one row per rank, each item with its grade and whether it is in the top K."""
    def cells(case: RankingCase, item) -> str:
        grade = case.ground_truth.get(item, 0.0)
        return f"{item} (grade {grade:g})" if grade > 0 else str(item)
    return pd.DataFrame({"rank": [f"#{r}{' ·top K' if r <= a.k else ''}" for r in range(1, len(a.recommended) + 1)],
                         "list A": [cells(a, i) for i in a.recommended],
                         "list B": [cells(b, i) for i in b.recommended]})


def _compare_question(rng, settings) -> Question:
    case = _random_case(rng, settings)
    metric = str(rng.choice(["precision_at_k", "ap_at_k", "rr", "ndcg_at_k", "recall_at_k"]))
    other = replace(case, recommended=[int(i) for i in rng.permutation(case.recommended)])
    a, b = QUIZ_METRICS[metric].compute(case), QUIZ_METRICS[metric].compute(other)
    right = COMPARE_OPTIONS[2] if abs(a - b) < 1e-12 else COMPARE_OPTIONS[0] if a > b else COMPARE_OPTIONS[1]
    label = QUIZ_METRICS[metric].display_label(case.k)
    return Question("compare", metric, f"Which list scores higher on {label}? Both share the same relevant items.",
                    case, other, COMPARE_OPTIONS, frozenset({right}))


def _swap_question(rng, settings) -> Question | None:
    case = _random_case(rng, settings)
    metric = str(rng.choice(["ap_at_k", "ndcg_at_k", "rr", "precision_at_k"]))
    gains = swap_gains(metric, case)
    best = max(gains.values())
    if best <= 1e-12:
        return None
    best_swaps = [s for s, g in gains.items() if g >= best - 1e-12]
    others = [s for s, g in gains.items() if g < best - 1e-12]
    picked = [best_swaps[int(rng.integers(len(best_swaps)))]]
    picked += [others[int(i)] for i in rng.choice(len(others), size=min(3, len(others)), replace=False)]
    names = {s: f"swap ranks {s[0]} and {s[1]}" for s in picked}
    options = tuple(names[picked[int(i)]] for i in rng.permutation(len(picked)))
    label = QUIZ_METRICS[metric].display_label(case.k)
    return Question("swap", metric, f"Which single swap of two ranks raises {label} the most?", case,
                    options=options, right_options=frozenset(names[s] for s in picked if s in best_swaps))


def _k_equal_question(rng, settings) -> Question | None:
    case = _random_case(rng, settings)
    first_hit = next((i for i, item in enumerate(case.recommended) if item in case.ground_truth), None)
    if first_hit is None:
        return None
    # A hit at rank 1 leaves one answer, K = |Rel|, instead of every K before the first hit (0 = 0).
    case = replace(case, recommended=_swapped(case.recommended, 0, first_hit))
    ks = ks_where_precision_equals_recall(case)
    if not ks:
        return None
    return Question("k_equal", "precision_at_k", "What K makes Precision@K equal Recall@K for the list below? "
                    f"(K from 1 to {len(case.recommended)})", case, right_ks=ks)


_DATA_PROMPTS = {"ScoreCase": "for the impressions below (clicked: 1 = a click)",
                 "ProbabilityCase": "for the predicted click probabilities below (natural log)",
                 "RatingCase": "for the predicted and actual ratings below",
                 "LabelCase": "for the clicks and predicted clicks below"}


def _data_question(rng, settings, number: int) -> Question:
    """A question of the next family in turn (AUC, GAUC, LogLoss, ratings, classification)."""
    family = practice_data.FAMILIES[(settings.seed + number) % len(practice_data.FAMILIES)]
    metric, case = practice_data.draw(rng, family)
    value = practice_data.compute(metric, case)
    if not np.isfinite(value):
        return None
    label = metric_registry.BY_KEY[metric].label
    extra = " GAUC weights each user by their impressions." if metric == "gauc" else ""
    return Question("data", metric, f"Compute {label} {_DATA_PROMPTS[type(case).__name__]}.{extra}", case)


_MAKERS = {"compute": _compute_question, "compare": _compare_question, "swap": _swap_question,
           "k_equal": _k_equal_question}


def make_quiz(settings: QuizSettings) -> list[Question]:
    """The quiz of these settings: question kinds in turn, each from its own random scenario.

    Examples
    --------
    >>> [q.kind for q in make_quiz(QuizSettings(seed=7, questions=7))]
    ['compute', 'compare', 'swap', 'k_equal', 'data', 'data', 'compute']
    >>> make_quiz(QuizSettings(seed=7)) == make_quiz(QuizSettings(seed=7))
    True
    """
    rng = np.random.default_rng(settings.seed)
    quiz: list[Question] = []
    for index in range(settings.questions):
        kind = KINDS[index % len(KINDS)]
        question = None
        while question is None:  # a draw with no answer (no swap helps) is drawn again
            if kind == "data":
                question = _data_question(rng, settings, sum(q.kind == "data" for q in quiz))
            else:
                question = _MAKERS[kind](rng, settings)
        quiz.append(question)
    return quiz


def check(question: Question, typed: str) -> Verdict:
    """Check a typed answer (a number, a K or the chosen option) against a question."""
    if question.kind == "compute":
        return check_metric(typed, question.metric, question.case)
    if question.kind == "data":
        return _check_data(question, typed)
    if question.kind == "k_equal":
        try:
            k = parse_answer(typed)
        except AnswerError as problem:
            return Verdict(False, str(problem), unreadable=True, code=problem.code, fields=problem.fields)
        ks = ", ".join(str(k) for k in sorted(question.right_ks))
        fields = {"k": k, "ks": sorted(question.right_ks), "n": len(question.case.recommended)}
        if k in question.right_ks:
            return Verdict(True, f"Right: at K = {k}, P@K = R@K (every such K: {ks}).", code="k_right", fields=fields)
        if k.denominator != 1 or not 1 <= k <= len(question.case.recommended):
            return Verdict(False, f"K is a whole number from 1 to {len(question.case.recommended)}; the answer is K = {ks}.",
                           code="k_range", fields=fields)
        p = precision_at_k(question.case.recommended, question.case.ground_truth, int(k))
        r = recall_at_k(question.case.recommended, question.case.ground_truth, int(k))
        return Verdict(False, f"Not quite: at K = {k}, P@K = {p:.4f} and R@K = {r:.4f}. "
                              f"They are equal at K = {ks}: where K = |Rel| (or where there is no hit yet).",
                       solution=(_k_solution(question, int(k)),), code="k_wrong", fields={**fields, "p": p, "r": r})
    if typed in question.right_options:
        return Verdict(True, f"Right: {typed}.", code="option_right", fields={"option": typed})
    right = " or ".join(sorted(question.right_options))
    fields = {"right": sorted(question.right_options), "option": typed}
    if typed not in question.options:
        return Verdict(False, "Pick one of the options first.", unreadable=True, code="pick_option")
    if question.kind == "compare":
        mistake = _compare_mistake(question, typed)
        step = worked.slip(question.metric, mistake) if mistake else "result"
        said = f" Your choice is what {mistake} gives." if mistake else ""
        solution = tuple(worked.ranking_solution(question.metric, c).with_mark(step).titled(name)
                         for name, c in (("List A", question.case), ("List B", question.other)))
        return Verdict(False, f"Not quite: the answer is {right}.{said}", mistake, solution=solution,
                       code="option_wrong", fields={**fields, "mistake": mistake})
    return Verdict(False, f"Not quite: the answer is {right}.", solution=_swap_solution(question, typed),
                   code="option_wrong", fields={**fields, "mistake": None})


def _check_data(question: Question, typed: str) -> Verdict:
    exact = practice_data.compute(question.metric, question.case)
    found = {name: (float(value), step) for name, (value, step)
             in practice_data.mistakes(question.metric, question.case).items()
             if np.isfinite(value) and not close(value, exact)}
    verdict = check_number(typed, exact, {name: value for name, (value, _) in found.items()})
    if verdict.correct or verdict.unreadable:
        return verdict
    mark = found[verdict.mistake][1] if verdict.mistake else None
    return replace(verdict, solution=(practice_data.solution(question.metric, question.case).with_mark(mark),))


def _k_solution(question: Question, chosen: int) -> worked.Worked:
    """P@K and R@K at every K, the chosen K marked."""
    case = question.case
    rows = [{"K": k, "hits": round(precision_at_k(case.recommended, case.ground_truth, k) * k),
             "P@K": round(precision_at_k(case.recommended, case.ground_truth, k), 4),
             "R@K": round(recall_at_k(case.recommended, case.ground_truth, k), 4),
             "": "your K" if k == chosen else "equal" if k in question.right_ks else ""}
            for k in range(1, len(case.recommended) + 1)]
    steps = (("relevant", f"|Rel| = {len(case.binary_truth)}: P@K = hits/K and R@K = hits/|Rel| are equal when K = |Rel|, "
                          "or while there is no hit"),
             ("choice", f"at your K = {chosen}: P@K = {rows[chosen - 1]['P@K']:.4f}, R@K = {rows[chosen - 1]['R@K']:.4f}"))
    return worked.Worked("P@K and R@K at every K", pd.DataFrame(rows), steps, "choice")


def _swap_of(option: str) -> tuple[int, int]:
    first, second = option.removeprefix("swap ranks ").split(" and ")
    return int(first), int(second)


def _swap_solution(question: Question, typed: str) -> tuple[worked.Worked, ...]:
    """The offered swaps with the metric after each (the chosen one marked), and the worked solution
    of the list after the chosen swap and after the best one."""
    metric, case = question.metric, question.case
    gains = swap_gains(metric, case)
    before = QUIZ_METRICS[metric].compute(case)
    label = question.label
    rows = [{"swap": option, f"{label} after": round(before + gains[_swap_of(option)], 4),
             "change": round(gains[_swap_of(option)], 4),
             "": "your choice" if option == typed else "best" if option in question.right_options else ""}
            for option in question.options]
    best = next(o for o in question.options if o in question.right_options)
    steps = (("before", f"{label} of the list as it is: {before:.4f}"),
             ("choice", f"{typed}: {label} changes by {gains[_swap_of(typed)]:+.4f}"),
             ("best", f"{best}: {label} changes by {gains[_swap_of(best)]:+.4f}, the most of any swap"))
    offered = worked.Worked("The offered swaps", pd.DataFrame(rows), steps, "choice")
    after = []
    for name, option in (("After your swap", typed), ("After the best swap", best)):
        i, j = _swap_of(option)
        swapped = replace(case, recommended=_swapped(case.recommended, i - 1, j - 1))
        after.append(worked.ranking_solution(metric, swapped).titled(f"{name} ({option})"))
    return (offered, *after)


def _compare_mistake(question: Question, typed: str) -> str | None:
    """For a compare question: the mistaken convention under which the chosen list would win."""
    a = QUIZ_METRICS[question.metric].mistakes(question.case)
    b = QUIZ_METRICS[question.metric].mistakes(question.other)
    for name in a:
        if a[name] is None or b[name] is None:
            continue
        verdict = COMPARE_OPTIONS[2] if abs(a[name] - b[name]) < 1e-12 else COMPARE_OPTIONS[0 if a[name] > b[name] else 1]
        if verdict == typed:
            return name
    return None


def summary(results: list[tuple[str, bool]]) -> tuple[int, int, list[str]]:
    """(right, asked, the metrics missed at least once, in first-missed order) from (label, correct) pairs.

    Examples
    --------
    >>> summary([("AP@5", True), ("RR", False), ("RR", False), ("NDCG@5", False)])
    (1, 4, ['RR', 'NDCG@5'])
    """
    missed = list(dict.fromkeys(label for label, correct in results if not correct))
    return sum(correct for _, correct in results), len(results), missed
