"""The same ranked list scored the way ten well-known libraries score it, and why they disagree.

Each library is described as data (:class:`Convention`): its choice for every cause of
disagreement, the functions its users call and the version described. One engine
(:func:`score`) turns a convention into numbers by calling the functions of ``metrics/`` with
that library's settings, plus a few small functions below for conventions ``metrics/`` lacks.
Because every value comes from the conventions, every difference from the app's own value can
be traced to the fields where the library's choice differs (:func:`differences`).

Source of the conventions and of the measured values: ``library-conventions.md`` (the shared
reference), and for trec_eval, ranx and scikit-learn the libraries themselves (tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import NamedTuple

import numpy as np
import pandas as pd

from metrics._validation import check_grades, check_k, check_ranking
from metrics.ndcg import dcg_at_k, dcg_table, ndcg_at_k, ndcg_ideal_from_list
from metrics.ranked_metrics import (
    average_precision_at_k, average_precision_table, first_hit_rank, reciprocal_rank, reciprocal_rank_at_k,
    reciprocal_rank_table,
)
from metrics.topn_metrics import precision_at_k, recall_at_k, top_k_table

METRICS = ("precision", "recall", "average_precision", "ndcg", "reciprocal_rank")
METRIC_LABELS = {"precision": "Precision@K", "recall": "Recall@K", "average_precision": "AP@K",
                 "ndcg": "NDCG@K", "reciprocal_rank": "RR"}

CHOICES: dict[str, dict[str, str]] = {
    "sees": {
        "judged": "the ranked list, and the ground truth as a separate set of judged items",
        "list_rows": "only the recommended rows, each with its grade (a relevant item never recommended is not there)",
        "candidates": "every candidate it ranks: the list, then each ground-truth item the list does not show",
    },
    "grade_levels": {
        "numbers": "any number >= 0; a grade above 0 is relevant",
        "integers": "whole levels: a grade is truncated to an integer, and only levels >= 1 are relevant",
    },
    "precision_short_list": {
        "k": "divides by K, so empty slots count as misses",
        "list_length": "divides by min(K, list length)",
    },
    "ap_denominator": {
        "min": "min(|Rel|, K)",
        "relevant": "|Rel|",
        "hits": "the hits in the top K",
        "k": "K",
        "whole_list": "|Rel| over the whole ranking, with no cut-off",
    },
    "ideal": {
        "all_judged": "every relevant item of the ground truth, best first, cut at K",
        "passed": "only the items passed in, best first, cut at K",
        "k_slots": "K slots, all relevant",
        "label_order": "the relevant items in the order the labels were given (not sorted), cut at K",
    },
    "gain": {
        "linear": "rel (linear)",
        "exponential": "2^rel − 1 (exponential)",
        "binary": "1 for every relevant item: grades ignored",
    },
    "ties": {
        "averaged": "averaged over the tie group",
        "docid_descending": "broken by document id, descending",
        "input_order": "input order",
        "better_rank": "the better rank for every tied item",
        "not_applicable": "no scores: the list order is the ranking",
    },
    "empty_users": {
        "zero": "scored 0 and counted in the mean",
        "skipped": "left out of the mean",
        "skipped_unjudged": "scored 0 if it has judged items, left out if it has none at all",
    },
    "rr_cutoff": {
        "none": "none: the first hit anywhere in the ranking",
        "k": "K: 0 if the first hit is below rank K",
    },
}
"""Every choice a convention field can take, in words."""

FIELD_LABELS = {
    "sees": "what the library is given",
    "grade_levels": "how grades are read",
    "refuses": "inputs the library refuses",
    "empty_users": "users with no relevant item",
    "precision_short_list": "Precision@K of a list shorter than K",
    "ap_denominator": "AP denominator",
    "ideal": "which items form the ideal DCG",
    "gain": "gain",
    "rr_cutoff": "RR cut-off",
    "ties": "tie rule",
}
"""The causes of disagreement, in the order :func:`differences` tries them."""

FIELDS_OF_METRIC = {
    "precision": ("sees", "grade_levels", "refuses", "empty_users", "precision_short_list"),
    "recall": ("sees", "grade_levels", "refuses", "empty_users"),
    "average_precision": ("sees", "grade_levels", "refuses", "empty_users", "ap_denominator"),
    "ndcg": ("sees", "grade_levels", "refuses", "empty_users", "ideal", "gain"),
    "reciprocal_rank": ("sees", "grade_levels", "refuses", "empty_users", "rr_cutoff"),
}
"""The fields that can change each metric. Ties never do here: a ranked list has no tied scores."""


@dataclass(frozen=True)
class Convention:
    """How one library computes the five ranking metrics, as data.

    ``functions`` maps each metric it has to the call its users make (a metric it lacks is
    absent); ``refuses`` maps a metric to the shortest list the library accepts for it: a
    number, or ``"K"`` for the cut-off itself.
    """

    name: str
    version: str
    functions: dict[str, str]
    sees: str = "judged"
    grade_levels: str = "numbers"
    precision_short_list: str = "k"
    ap_denominator: str = "min"
    ideal: str = "all_judged"
    gain: str = "linear"
    ties: str = "not_applicable"
    empty_users: str = "zero"
    rr_cutoff: str = "none"
    refuses: dict[str, int | str] = field(default_factory=dict)
    notes: str = ""

    def __post_init__(self):
        for name, choices in CHOICES.items():
            if getattr(self, name) not in choices:
                raise ValueError(f"{self.name}: {name} must be one of {list(choices)}, got {getattr(self, name)!r}")

    def has(self, metric: str) -> bool:
        return metric in self.functions

    @property
    def metrics(self) -> list[str]:
        """The metrics it has, in :data:`METRICS` order."""
        return [m for m in METRICS if self.has(m)]

    def shortest(self, metric: str, k: int) -> int:
        """The shortest list the library accepts for ``metric`` at cut-off ``k``."""
        value = self.refuses.get(metric, 0)
        return k if value == "K" else value

    def describe(self, name: str) -> str:
        """The choice of field ``name`` in words."""
        if name == "refuses":
            if not self.refuses:
                return "none"
            if set(self.refuses) == set(self.functions) and len(set(self.refuses.values())) == 1:
                return f"every metric of a list shorter than {next(iter(self.refuses.values()))}"
            return "; ".join(f"{METRIC_LABELS[m]} of a list shorter than {n}" for m, n in self.refuses.items())
        return CHOICES[name][getattr(self, name)]


APP = Convention(
    "RecEval Lab", "this app", {
        "precision": "metrics.topn_metrics.precision_at_k", "recall": "metrics.topn_metrics.recall_at_k",
        "average_precision": "metrics.ranked_metrics.average_precision_at_k",
        "ndcg": "metrics.ndcg.ndcg_at_k", "reciprocal_rank": "metrics.ranked_metrics.reciprocal_rank"},
    notes="The defaults of this app: the definitions of the NumPy tutorial and the offline-evaluation article.",
)
"""The app's own defaults, described the same way as the libraries."""

CONVENTIONS: dict[str, Convention] = {c.name: c for c in (
    Convention(
        "trec_eval", "pytrec_eval-terrier 0.5.11", {
            "precision": "P.K", "recall": "recall.K", "average_precision": "map_cut.K",
            "ndcg": "ndcg_cut.K", "reciprocal_rank": "recip_rank"},
        grade_levels="integers", ap_denominator="relevant", ties="docid_descending",
        empty_users="skipped_unjudged",
        notes="pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run); relevance must be an integer. "
              "Where scores tie, this app's engine gives trec_eval's numbers to the last digit with "
              "python -m metrics evaluate --ties trec_eval --format trec -q "
              "(batch.evaluate(..., ties=\"trec_eval\", denominator=\"relevant\")).",
    ),
    Convention(
        "scikit-learn", "scikit-learn 1.9.1", {
            "average_precision": "average_precision_score(y_true > 0, y_score)",
            "ndcg": "ndcg_score([y_true], [y_score], k=K)"},
        sees="list_rows", ap_denominator="whole_list", ideal="passed", ties="averaged",
        refuses={"average_precision": 1, "ndcg": 2},
        notes="No ranking Precision@K, Recall@K or RR. ndcg_score refuses a single document.",
    ),
    Convention(
        "ranx", "ranx 0.3.21", {
            "precision": "precision@K", "recall": "recall@K", "average_precision": "map@K",
            "ndcg": "ndcg@K", "reciprocal_rank": "mrr@K"},
        grade_levels="integers", ap_denominator="relevant", ties="input_order",
        empty_users="skipped_unjudged", rr_cutoff="k",
        refuses=dict.fromkeys(("precision", "recall", "average_precision", "ndcg", "reciprocal_rank"), 1),
        notes="evaluate(qrels, run, metrics); a query needs at least one judged and one ranked item. "
              "Where scores tie, ranx keeps the run's order: this app's --ties input (ties=\"input\") does the same.",
    ),
    Convention(
        "torchmetrics", "torchmetrics 1.9.0", {
            "precision": "RetrievalPrecision(top_k=K)", "recall": "RetrievalRecall(top_k=K)",
            "average_precision": "RetrievalMAP(top_k=K)", "ndcg": "RetrievalNormalizedDCG(top_k=K)",
            "reciprocal_rank": "RetrievalMRR(top_k=K)"},
        sees="candidates", ap_denominator="hits", ideal="passed", ties="averaged", rr_cutoff="k",
        notes="Defaults: adaptive_k=False, empty_target_action='neg'.",
    ),
    Convention(
        "Recommenders", "recommenders 1.2.1", {
            "precision": "precision_at_k", "recall": "recall_at_k", "average_precision": "map_at_k",
            "ndcg": "ndcg_at_k (score_type='binary')"},
        gain="binary", ties="input_order", empty_users="skipped",
        notes="recommenders.evaluation.python_evaluation; no MRR. Averages only users in both truth and "
              "predictions; `map` (not `map_at_k`) divides by |Rel|.",
    ),
    Convention(
        "RecBole", "RecBole 1.2.1", {
            "precision": "Precision", "recall": "Recall", "average_precision": "MAP", "ndcg": "NDCG",
            "reciprocal_rank": "MRR"},
        gain="binary", empty_users="skipped", rr_cutoff="k",
        notes="metrics=[...], topk=[K] in the config; only users with a test interaction are evaluated.",
    ),
    Convention(
        "Evidently", "Evidently 0.7.23", {
            "precision": "PrecisionTopK(k=K)", "recall": "RecallTopK(k=K)", "average_precision": "MAP(k=K)",
            "ndcg": "NDCG(k=K)", "reciprocal_rank": "MRR(k=K)"},
        sees="list_rows", precision_short_list="list_length", ap_denominator="relevant", ideal="passed",
        ties="better_rank", empty_users="skipped", rr_cutoff="k",
        refuses=dict.fromkeys(("precision", "recall", "average_precision", "ndcg", "reciprocal_rank"), "K"),
        notes="Given the recommended rows with a target column; no_feedback_users=False by default. Fails "
              "(KeyError) when no list in the data reaches K; a shorter list among longer ones divides "
              "Precision by its length.",
    ),
    Convention(
        "RecTools", "RecTools 0.19.0", {
            "precision": "Precision(k=K)", "recall": "Recall(k=K)", "average_precision": "MAP(k=K)",
            "ndcg": "NDCG(k=K)", "reciprocal_rank": "MRR(k=K)"},
        ap_denominator="relevant", ideal="k_slots", gain="binary", empty_users="skipped", rr_cutoff="k",
        notes="MAP(divide_by_k=True) divides by K instead; the default NDCG assumes K relevant slots.",
    ),
    Convention(
        "cornac", "cornac 3.0.1", {
            "precision": "Precision(k=K)", "recall": "Recall(k=K)", "average_precision": "MAP()",
            "ndcg": "NDCG(k=K)", "reciprocal_rank": "MRR()"},
        sees="candidates", ap_denominator="whole_list", gain="binary", empty_users="skipped",
        notes="cornac ranks every candidate item; MAP and MRR have no cut-off.",
    ),
    Convention(
        "Spark MLlib", "Spark MLlib 4.3", {
            "precision": "precisionAt(K)", "recall": "recallAt(K)",
            "average_precision": "meanAveragePrecisionAt(K)", "ndcg": "ndcgAt(K) with relevance (Scala)"},
        ideal="label_order", gain="exponential",
        notes="RankingMetrics; no MRR. PySpark passes only the first two columns to the JVM, so its ndcgAt "
              "is binary (gain 1, ideal min(|Rel|, K) ones).",
    ),
)}
"""The ten libraries, in the order the page shows them."""


# --------------------------------------------------------------------------- conventions metrics/ lacks


def average_precision_divided_by_k(recommended, ground_truth, k) -> float:
    """AP@K with denominator K (RecTools ``MAP(divide_by_k=True)``).

    Examples
    --------
    >>> average_precision_divided_by_k([1, 2, 3, 4], {1, 4}, 4)
    0.375
    """
    return float(average_precision_table(recommended, ground_truth, k)["contribution"].sum() / check_k(k))


def average_precision_whole_list(recommended, ground_truth) -> float:
    """AP over the whole ranking, divided by |Rel|, with no cut-off (scikit-learn, cornac).

    Examples
    --------
    >>> rec = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 999]
    >>> round(average_precision_whole_list(rec, {103, 105, 108, 999}), 4)
    0.368
    """
    items = check_ranking(recommended)
    return average_precision_at_k(items, ground_truth, max(len(items), 1), denominator="relevant")


def _relevances(items, grades) -> list[float]:
    return [grades.get(item, 0.0) for item in items]


def ndcg_k_slot_ideal(recommended, ground_truth, k, *, gain="linear") -> float:
    """NDCG@K whose ideal DCG assumes all K slots hold a relevant item of grade 1 (RecTools default).

    Examples
    --------
    >>> rec = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
    >>> round(ndcg_k_slot_ideal(rec, {101, 104, 107}, 10), 4)
    0.3882
    """
    k = check_k(k)
    items, grades = check_ranking(recommended), check_grades(ground_truth)
    return dcg_at_k(_relevances(items[:k], grades), k, gain=gain) / dcg_at_k([1.0] * k, k)


def ndcg_label_order_ideal(recommended, ground_truth, k, *, gain="exponential") -> float:
    """NDCG@K whose ideal DCG takes the relevant items in the order the labels were given.

    Spark MLlib's graded ``ndcgAt`` sums the ideal over its label array without sorting it by
    relevance, so the value depends on that order and can exceed 1. Labels sorted by grade,
    descending, give the correct NDCG.

    Examples
    --------
    >>> round(ndcg_label_order_ideal(["b", "a"], {"a": 1, "b": 10}, 2), 4)
    1.5835
    """
    k = check_k(k)
    items, grades = check_ranking(recommended), check_grades(ground_truth)
    ideal = dcg_at_k([g for g in grades.values() if g > 0], k, gain=gain)
    return dcg_at_k(_relevances(items[:k], grades), k, gain=gain) / ideal if ideal > 0 else 0.0


# --------------------------------------------------------------------------- the engine


@dataclass(frozen=True)
class View:
    """The ranking and the ground truth as one library receives them."""

    ranking: list
    grades: dict
    relevant: frozenset = frozenset()

    def __post_init__(self):
        object.__setattr__(self, "relevant", frozenset(i for i, g in self.grades.items() if g > 0))


def library_view(convention: Convention, recommended, ground_truth) -> View:
    """What ``convention``'s library is given: fields ``sees`` and ``grade_levels`` applied.

    Examples
    --------
    >>> library_view(CONVENTIONS["torchmetrics"], [1, 2], {2: 1, 9: 1}).ranking
    [1, 2, 9]
    >>> library_view(CONVENTIONS["Evidently"], [1, 2], {2: 1, 9: 1}).grades
    {2: 1.0}
    """
    ranking, grades = check_ranking(recommended), check_grades(ground_truth)
    if convention.grade_levels == "integers":
        grades = {item: float(int(grade)) for item, grade in grades.items()}
    listed = set(ranking)
    if convention.sees == "list_rows":
        grades = {item: grade for item, grade in grades.items() if item in listed}
    elif convention.sees == "candidates":
        ranking = ranking + [item for item in grades if item not in listed]
    return View(ranking, grades)


def _ndcg(convention: Convention, view: View, k: int) -> float:
    grades, gain = view.grades, convention.gain
    if gain == "binary":
        grades, gain = {item: 1.0 for item, grade in grades.items() if grade > 0}, "linear"
    compute = {"all_judged": ndcg_at_k, "passed": ndcg_ideal_from_list, "k_slots": ndcg_k_slot_ideal,
               "label_order": ndcg_label_order_ideal}[convention.ideal]
    return compute(view.ranking, grades, k, gain=gain)


def _average_precision(convention: Convention, view: View, k: int) -> float:
    if convention.ap_denominator == "k":
        return average_precision_divided_by_k(view.ranking, view.relevant, k)
    if convention.ap_denominator == "whole_list":
        return average_precision_whole_list(view.ranking, view.relevant)
    return average_precision_at_k(view.ranking, view.relevant, k, denominator=convention.ap_denominator)


def _precision(convention: Convention, view: View, k: int) -> float:
    if convention.precision_short_list == "list_length":
        k = min(k, len(view.ranking))
        if k == 0:
            return 0.0
    return precision_at_k(view.ranking, view.relevant, k)


def _reciprocal_rank(convention: Convention, view: View, k: int) -> float:
    if convention.rr_cutoff == "k":
        return reciprocal_rank_at_k(view.ranking, view.relevant, k)
    return reciprocal_rank(view.ranking, view.relevant)


_COMPUTE = {
    "precision": _precision,
    "recall": lambda c, v, k: recall_at_k(v.ranking, v.relevant, k),
    "average_precision": _average_precision,
    "ndcg": _ndcg,
    "reciprocal_rank": _reciprocal_rank,
}


class _Scorer:
    """Scores one input under many conventions, validating it once and computing each distinct
    (view, settings) combination once: :func:`causes` tries many near-identical conventions."""

    def __init__(self, recommended, ground_truth, k):
        self.recommended, self.ground_truth = check_ranking(recommended), check_grades(ground_truth)
        self.k = check_k(k)
        self._views: dict[tuple, View] = {}
        self._values: dict[tuple, float] = {}

    def view(self, convention: Convention) -> View:
        key = (convention.sees, convention.grade_levels)
        if key not in self._views:
            self._views[key] = library_view(convention, self.recommended, self.ground_truth)
        return self._views[key]

    def __call__(self, convention: Convention, metric: str) -> float:
        if metric not in METRICS:
            raise ValueError(f"metric must be one of {', '.join(METRICS)}, got {metric!r}")
        if not convention.has(metric):
            return float("nan")
        key = (metric, convention.shortest(metric, self.k),
               *(getattr(convention, f) for f in FIELDS_OF_METRIC[metric] if f != "refuses"))
        if key not in self._values:
            self._values[key] = self._compute(convention, metric)
        return self._values[key]

    def _compute(self, convention: Convention, metric: str) -> float:
        view = self.view(convention)
        if len(view.ranking) < convention.shortest(metric, self.k):
            return float("nan")
        if not view.relevant and (convention.empty_users == "skipped"
                                  or (convention.empty_users == "skipped_unjudged" and not view.grades)):
            return float("nan")
        return float(_COMPUTE[metric](convention, view, self.k))


def score(convention: Convention, metric: str, recommended, ground_truth, k) -> float:
    """One metric as ``convention``'s library computes it: NaN if it lacks the metric, refuses the
    input, or leaves this user out of its mean.

    Examples
    --------
    >>> rec = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
    >>> round(score(CONVENTIONS["torchmetrics"], "average_precision", rec, {103, 105, 108, 999}, 10), 4)
    0.3694
    """
    return _Scorer(recommended, ground_truth, k)(convention, metric)


def app_values(recommended, ground_truth, k) -> pd.Series:
    """The app's own value of each metric (its defaults: :data:`APP`)."""
    scorer = _Scorer(recommended, ground_truth, k)
    return pd.Series({m: scorer(APP, m) for m in METRICS}, name=APP.name)


def library_values(recommended, ground_truth, k) -> pd.DataFrame:
    """What each library reports for this one user: rows in :data:`CONVENTIONS` order, columns
    :data:`METRICS`. NaN where the library lacks the metric, refuses the input, or leaves the
    user out of its mean (a user with no relevant item, for some libraries).

    Parameters
    ----------
    recommended : sequence of hashable
        Ranked list, best first, no repeated item.
    ground_truth : set or dict
        Relevant items, or ``{item: grade}`` (grade > 0 is relevant). Each library receives it
        as its users pass it: see :func:`library_view` and :data:`CHOICES`.
    k : int
        Cut-off, a positive integer.

    Examples
    --------
    >>> rec = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
    >>> values = library_values(rec, {101: 5, 104: 4, 107: 3, 999: 5}, 10)
    >>> values["ndcg"].round(4).to_dict()["Spark MLlib"], values["ndcg"].round(4).to_dict()["RecBole"]
    (0.6943, 0.6886)
    """
    return _library_values(_Scorer(recommended, ground_truth, k))


def _library_values(scorer: _Scorer) -> pd.DataFrame:
    rows = {name: {m: scorer(c, m) for m in METRICS} for name, c in CONVENTIONS.items()}
    table = pd.DataFrame.from_dict(rows, orient="index", columns=list(METRICS))
    table.index.name = "library"
    return table


def _same(a: float, b: float) -> bool:
    return (np.isnan(a) and np.isnan(b)) or (not np.isnan(a) and not np.isnan(b) and abs(a - b) <= 1e-9)


def causes(convention: Convention, metric: str, recommended, ground_truth, k, *, app: Convention = APP) -> list[str]:
    """The fields that explain why ``convention``'s value of ``metric`` differs from the app's.

    Among the fields where the library's choice differs from the app's (see
    :data:`FIELDS_OF_METRIC`), the smallest sets whose switch to the app's choices gives the
    app's value; the answer is every field of those smallest sets, in the order of
    :data:`FIELD_LABELS`. Empty when the values agree. Switching every differing field gives
    the app's own convention, so a value that differs always names at least one cause.

    Examples
    --------
    >>> rec = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
    >>> causes(CONVENTIONS["Evidently"], "recall", rec, {103, 105, 108, 999}, 10)
    ['sees']
    >>> causes(CONVENTIONS["cornac"], "average_precision", rec, {103, 105, 108, 999}, 10)
    ['sees', 'ap_denominator']
    """
    return _causes(_Scorer(recommended, ground_truth, k), convention, metric, app)


def _causes(scorer: _Scorer, convention: Convention, metric: str, app: Convention = APP) -> list[str]:
    target = scorer(app, metric)
    if _same(scorer(convention, metric), target):
        return []
    differing = [f for f in FIELDS_OF_METRIC[metric] if getattr(convention, f) != getattr(app, f)]
    for size in range(1, len(differing) + 1):
        found = set()
        for subset in combinations(differing, size):
            switched = replace(convention, **{f: getattr(app, f) for f in subset})
            if _same(scorer(switched, metric), target):
                found.update(subset)
        if found:
            return [f for f in differing if f in found]
    return differing


def differences(recommended, ground_truth, k) -> pd.DataFrame:
    """One row per (library, metric) whose value differs from the app's by more than 1e-9.

    Columns: ``library``, ``metric``, ``library_value`` (NaN when the library leaves the user
    out or refuses the input), ``app_value``, ``causes`` (the convention fields, see
    :func:`causes`), ``cause`` (their labels) and ``explanation`` (in words, with this input's
    numbers). A library lacking a metric has no row for it.

    Examples
    --------
    >>> rec = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
    >>> table = differences(rec, {103, 105, 108, 999}, 10)
    >>> table.loc[table["library"] == "torchmetrics", "explanation"].tolist()
    ['torchmetrics divides AP by the 3 hits in the top 10, not by min(|Rel|, K) = min(4, 10) = 4.']
    """
    return compare(recommended, ground_truth, k).differences


class Comparison(NamedTuple):
    """Everything the page shows, from one validation of the input."""

    values: pd.DataFrame
    app: pd.Series
    differences: pd.DataFrame

    def libraries_that_differ(self) -> list[str]:
        """The libraries with at least one value unlike the app's, in :data:`CONVENTIONS` order."""
        return list(dict.fromkeys(self.differences["library"]))

    def differing_metrics(self, library: str) -> list[str]:
        """The metrics whose value ``library`` gives unlike the app's, in :data:`METRICS` order."""
        return self.differences.loc[self.differences["library"] == library, "metric"].tolist()

    def causes_of(self, library: str, metric: str) -> list[str] | None:
        """The fields behind ``library``'s value of ``metric`` (see :func:`causes`); None when it is the app's."""
        rows = self.differences.loc[(self.differences["library"] == library) & (self.differences["metric"] == metric)]
        return rows["causes"].iloc[0] if len(rows) else None


def compare(recommended, ground_truth, k) -> Comparison:
    """:func:`library_values`, :func:`app_values` and :func:`differences` at once, sharing the work."""
    scorer = _Scorer(recommended, ground_truth, k)
    k = scorer.k
    ours = pd.Series({m: scorer(APP, m) for m in METRICS}, name=APP.name)
    theirs = _library_values(scorer)
    rows = []
    for name, convention in CONVENTIONS.items():
        for metric in METRICS:
            if not convention.has(metric):
                continue
            value, app_value = theirs.at[name, metric], ours[metric]
            if _same(value, app_value):
                continue
            fields = _causes(scorer, convention, metric)
            rows.append({
                "library": name, "metric": metric, "library_value": value, "app_value": app_value,
                "causes": fields, "cause": "; ".join(FIELD_LABELS[f] for f in fields),
                "explanation": " ".join(explain(f, convention, metric, scorer.recommended, scorer.ground_truth, k)
                                        for f in fields),
            })
    columns = ["library", "metric", "library_value", "app_value", "causes", "cause", "explanation"]
    return Comparison(theirs, ours, pd.DataFrame(rows, columns=columns))


# --------------------------------------------------------------------------- explanations in words


def possessive(name: str) -> str:
    """"Recommenders'" and "RecTools'", but "cornac's".

    Examples
    --------
    >>> possessive("RecTools"), possessive("ranx")
    ("RecTools'", "ranx's")
    """
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _items(items) -> str:
    shown = [str(i) for i in items]
    return ", ".join(shown[:5]) + (f" and {len(shown) - 5} more" if len(shown) > 5 else "")


def _count(items, noun: str) -> str:
    return f"the {noun}" if len(items) == 1 else f"the {len(items)} {noun}s"


def _ap_divisor(choice: str, view: View, k: int) -> str:
    n_rel = len(view.relevant)
    hits = sum(1 for item in view.ranking[:k] if item in view.relevant)
    return {
        "min": f"min(|Rel|, K) = min({n_rel}, {k}) = {min(n_rel, k)}",
        "relevant": f"|Rel| = {n_rel}",
        "hits": f"the {hits} hit{'s' if hits != 1 else ''} in the top {k}",
        "k": f"K = {k}",
        "whole_list": f"|Rel| = {n_rel} over its whole ranking of {len(view.ranking)}, with no cut-off at {k}",
    }[choice]


def explain(name: str, convention: Convention, metric: str, recommended, ground_truth, k) -> str:
    """One sentence: how field ``name`` of ``convention`` differs from the app's, with this input's numbers.

    Item ids appear as plain text; the page escapes them for the context it shows them in.
    """
    lib, app = convention.name, APP
    view = library_view(convention, recommended, ground_truth)
    ours = library_view(app, recommended, ground_truth)
    if name == "sees":
        if convention.sees == "list_rows":
            unseen = [i for i in ours.relevant if i not in set(recommended)]
            return (f"{lib} is given only the recommended rows, so it never sees {_items(unseen)}: "
                    f"{_count(unseen, 'relevant item')} the list does not recommend.")
        extra = view.ranking[len(ours.ranking):]
        return (f"{lib} ranks every candidate it is given, not only the list: {_items(extra)} "
                f"{'comes' if len(extra) == 1 else 'come'} after the list, from rank {len(ours.ranking) + 1}.")
    if name == "grade_levels":
        changed = [i for i, g in check_grades(ground_truth).items() if g != int(g)]
        return (f"{lib} reads grades as whole levels, dropping the fraction of {_items(changed)}: "
                "a grade below 1 becomes 0, not relevant.")
    if name == "refuses":
        return f"{lib} refuses this input: {convention.describe('refuses')} (the list has {len(view.ranking)})."
    if name == "empty_users":
        what = "no judged item at all" if convention.empty_users == "skipped_unjudged" else "no relevant item"
        return f"{lib} leaves a user with {what} out of its mean; the app scores such a user 0 and counts them."
    if name == "precision_short_list":
        return (f"{lib} divides Precision@{k} by the {min(k, len(view.ranking))} items of the list, "
                f"not by K = {k}.")
    if name == "ap_denominator":
        return f"{lib} divides AP by {_ap_divisor(convention.ap_denominator, view, k)}, not by {_ap_divisor(app.ap_denominator, ours, k)}."
    if name == "ideal":
        return f"{lib} builds the ideal DCG from {CHOICES['ideal'][convention.ideal]}, not from {CHOICES['ideal'][app.ideal]}."
    if name == "gain":
        return f"{possessive(lib)} gain is {CHOICES['gain'][convention.gain]}, not {CHOICES['gain'][app.gain]}."
    if name == "rr_cutoff":
        rank = first_hit_rank(view.ranking, view.relevant)
        where = f"the first hit is at rank {rank}" if rank else "there is no hit"
        return f"{lib} counts RR only up to rank K = {k}; the app's RR has no cut-off ({where})."
    raise ValueError(f"no explanation for field {name!r}")


# --------------------------------------------------------------------------- breakdowns


@dataclass(frozen=True)
class Breakdown:
    """How one library reaches one value: the tables to read, and value = numerator / denominator.

    ``reason`` says why there is no value (then ``value`` is NaN and the tables are empty).
    """

    value: float
    numerator: float = float("nan")
    denominator: float = float("nan")
    numerator_label: str = ""
    denominator_label: str = ""
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    reason: str = ""


def _no_value_reason(convention: Convention, metric: str, view: View, k: int) -> str:
    if not convention.has(metric):
        return f"{convention.name} has no {METRIC_LABELS[metric]}."
    if len(view.ranking) < convention.shortest(metric, k):
        return f"{convention.name} refuses this input: {convention.describe('refuses')}."
    return f"{convention.name} leaves this user out of its mean: {convention.describe('empty_users')}."


def breakdown(convention: Convention, metric: str, recommended, ground_truth, k) -> Breakdown:
    """The working behind :func:`score` for one library and metric.

    Examples
    --------
    >>> rec = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
    >>> b = breakdown(CONVENTIONS["torchmetrics"], "average_precision", rec, {103, 105, 108, 999}, 10)
    >>> round(b.numerator, 4), b.denominator, round(b.value, 4)
    (1.1083, 3, 0.3694)
    """
    k = check_k(k)
    value = score(convention, metric, recommended, ground_truth, k)
    view = library_view(convention, recommended, ground_truth)
    if np.isnan(value):
        return Breakdown(value, reason=_no_value_reason(convention, metric, view, k))
    ranking, grades, relevant = view.ranking, view.grades, view.relevant
    hits = sum(1 for item in ranking[:k] if item in relevant)
    if metric in ("precision", "recall"):
        table = top_k_table(ranking, grades, k)
        if metric == "recall":
            return Breakdown(value, hits, len(relevant), f"hits in the top {k}", "|Rel|", {"Top K": table})
        divide_by = min(k, len(ranking)) if convention.precision_short_list == "list_length" else k
        label = "min(K, list length)" if convention.precision_short_list == "list_length" else "K"
        return Breakdown(value, hits, divide_by, f"hits in the top {k}", label, {"Top K": table})
    if metric == "average_precision":
        whole = convention.ap_denominator == "whole_list"
        table = average_precision_table(ranking, grades, max(len(ranking), 1) if whole else k)
        n_hits = int(table["hit"].sum())
        divide_by = {"min": min(len(relevant), k), "relevant": len(relevant), "hits": n_hits, "k": k,
                     "whole_list": len(relevant)}[convention.ap_denominator]
        return Breakdown(value, float(table["contribution"].sum()), divide_by, "sum of precision@i at hits",
                         CHOICES["ap_denominator"][convention.ap_denominator], {"AP steps": table})
    if metric == "ndcg":
        actual, ideal = ndcg_breakdown_tables(convention, view, k)
        return Breakdown(value, float(actual["contribution"].sum()), float(ideal["contribution"].sum()),
                         f"DCG@{k}", f"IDCG@{k}", {"DCG of the list": actual, "Ideal DCG": ideal})
    table = reciprocal_rank_table(ranking, grades)
    rank = first_hit_rank(ranking, grades)
    if rank is not None and convention.rr_cutoff == "k" and rank > k:
        rank = None
    return Breakdown(value, 1.0 if rank else 0.0, rank or float("nan"), "1", "rank of the first hit", {"Ranks": table})


def ndcg_breakdown_tables(convention: Convention, view: View, k: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The DCG table of the list and of the ideal ranking, as ``convention``'s library builds them."""
    grades, gain = view.grades, convention.gain
    if gain == "binary":
        grades, gain = {item: 1.0 for item, grade in grades.items() if grade > 0}, "linear"
    actual = dcg_table(_relevances(view.ranking[:k], grades), k, gain=gain, items=view.ranking)
    if convention.ideal == "k_slots":
        ideal_items, ideal_grades = [f"(slot {i})" for i in range(1, k + 1)], [1.0] * k
    elif convention.ideal == "label_order":
        ideal_items = [item for item, grade in grades.items() if grade > 0]
        ideal_grades = [grades[item] for item in ideal_items]
    else:
        pool = grades if convention.ideal == "all_judged" else {i: grades[i] for i in view.ranking if i in grades}
        ideal_items = sorted(pool, key=pool.get, reverse=True)
        ideal_grades = [pool[item] for item in ideal_items]
    return actual, dcg_table(ideal_grades, k, gain=gain, items=ideal_items)


def mean_over_users(users, k) -> pd.DataFrame:
    """Each library's mean over several users, each user scored by :func:`library_values`.

    A user the library leaves out (NaN) does not enter its mean; a library that leaves out
    every user, or lacks the metric, gets NaN. This is where "users with no relevant item"
    changes a MAP: counted as 0 it pulls the mean down, left out it does not.

    Parameters
    ----------
    users : sequence of (recommended, ground_truth) pairs
    k : int

    Examples
    --------
    >>> rec = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
    >>> means = mean_over_users([(rec, {101, 104, 107}), (rec, {})], 10)["average_precision"].round(4)
    >>> float(means["Spark MLlib"]), float(means["Evidently"])
    (0.3214, 0.6429)
    """
    users = list(users)
    if not users:
        raise ValueError("users is empty: there is no user to average over")
    stacked = np.stack([library_values(r, g, k).to_numpy(dtype=float) for r, g in users])
    counts = np.sum(~np.isnan(stacked), axis=0)
    sums = np.nansum(stacked, axis=0)
    means = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    table = pd.DataFrame(means, index=list(CONVENTIONS), columns=list(METRICS))
    table.index.name = "library"
    return table
