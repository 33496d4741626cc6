"""The one list of metrics: what each is called, its formula, its range, and how to compute it.

Pages read labels and formulas from here, and tests iterate over it, so a metric is described
once. Each metric is computed from one kind of input (a *case*): a ranking, ratings, predicted
labels, scores per user, or probabilities.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from math import inf

import pandas as pd

from metrics import classification_metrics as cls
from metrics import ctr_metrics, curves, ndcg, ranked_metrics, rating_metrics, topn_metrics


@dataclass(frozen=True)
class RankingCase:
    """One user's ranked list, graded ground truth (grade > 0 is relevant), K and settings."""

    recommended: Sequence[Hashable]
    ground_truth: Mapping[Hashable, float]
    k: int
    gain: str = "linear"
    ap_denominator: str = "min"

    @property
    def binary_truth(self) -> set:
        return {item for item, grade in self.ground_truth.items() if grade > 0}


@dataclass(frozen=True)
class UsersCase:
    """Several users' ranked lists and relevant sets, for the means over users."""

    all_recommended: Sequence[Sequence[Hashable]]
    all_ground_truth: Sequence[set]
    k: int
    ap_denominator: str = "min"


@dataclass(frozen=True)
class RatingCase:
    predictions: Sequence[float]
    actuals: Sequence[float]


@dataclass(frozen=True)
class LabelCase:
    y_true: Sequence[int]
    y_pred: Sequence[int]


@dataclass(frozen=True)
class ScoreCase:
    user_ids: Sequence[Hashable]
    y_true: Sequence[int]
    y_score: Sequence[float]
    gauc_weight: str = "impressions"


@dataclass(frozen=True)
class ProbabilityCase:
    y_true: Sequence[int]
    y_prob: Sequence[float]
    eps: float | None = None


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    case: type
    compute: Callable = field(repr=False)
    latex: str
    meaning: str
    needs_k: bool = False
    lower: float = 0.0
    upper: float = 1.0
    higher_is_better: bool = True
    best: float | None = None  # a target (calibration: 1) instead of "higher" or "lower is better"

    def improves(self, before: float, after: float) -> bool:
        """Whether moving from ``before`` to ``after`` is an improvement.

        >>> BY_KEY["calibration"].improves(1.3, 0.9), BY_KEY["calibration"].improves(0.9, 0.8)
        (True, False)
        >>> BY_KEY["rmse"].improves(0.5, 0.4)
        True
        """
        if self.best is not None:
            return abs(after - self.best) < abs(before - self.best)
        return after > before if self.higher_is_better else after < before

    def display_label(self, k: int | None = None) -> str:
        """The label with K filled in, e.g. "Precision@10"."""
        return self.label.replace("@K", f"@{k}") if k is not None else self.label


def _precision(c: RankingCase) -> float:
    return topn_metrics.precision_at_k(c.recommended, c.ground_truth, c.k)


def _recall(c: RankingCase) -> float:
    return topn_metrics.recall_at_k(c.recommended, c.ground_truth, c.k)


METRICS: tuple[Metric, ...] = (
    Metric("rmse", "RMSE", RatingCase, lambda c: rating_metrics.rmse(c.predictions, c.actuals),
           r"\mathrm{RMSE}=\sqrt{\frac{1}{n}\sum_{i=1}^{n}(\hat r_i-r_i)^2}",
           "Typical size of a rating error, where large misses weigh more.",
           upper=inf, higher_is_better=False),
    Metric("mae", "MAE", RatingCase, lambda c: rating_metrics.mae(c.predictions, c.actuals),
           r"\mathrm{MAE}=\frac{1}{n}\sum_{i=1}^{n}\lvert\hat r_i-r_i\rvert",
           "Average size of a rating error; every star of error weighs the same.",
           upper=inf, higher_is_better=False),
    Metric("mse", "MSE", RatingCase, lambda c: rating_metrics.mse(c.predictions, c.actuals),
           r"\mathrm{MSE}=\frac{1}{n}\sum_{i=1}^{n}(\hat r_i-r_i)^2",
           "Mean squared rating error: RMSE before the square root, in squared stars.",
           upper=inf, higher_is_better=False),
    Metric("precision_at_k", "Precision@K", RankingCase, _precision,
           r"\mathrm{P@K}=\frac{\lvert \mathrm{top}_K\cap \mathrm{Rel}\rvert}{K}",
           "Share of the K recommended slots that hold a relevant item.", needs_k=True),
    Metric("recall_at_k", "Recall@K", RankingCase, _recall,
           r"\mathrm{R@K}=\frac{\lvert \mathrm{top}_K\cap \mathrm{Rel}\rvert}{\lvert\mathrm{Rel}\rvert}",
           "Share of all relevant items found in the top K.", needs_k=True),
    Metric("f1_at_k", "F1@K", RankingCase, lambda c: topn_metrics.f1_at_k(_precision(c), _recall(c)),
           r"\mathrm{F1@K}=\frac{2\cdot \mathrm{P@K}\cdot \mathrm{R@K}}{\mathrm{P@K}+\mathrm{R@K}}",
           "Harmonic mean of Precision@K and Recall@K.", needs_k=True),
    Metric("hit_rate_at_k", "HR@K", RankingCase,
           lambda c: topn_metrics.hit_rate_at_k(c.recommended, c.ground_truth, c.k),
           r"\mathrm{HR@K}=\mathbb{1}\left[\lvert \mathrm{top}_K\cap \mathrm{Rel}\rvert>0\right]",
           "1 if at least one relevant item is in the top K, else 0.", needs_k=True),
    Metric("ap_at_k", "AP@K", RankingCase,
           lambda c: ranked_metrics.average_precision_at_k(
               c.recommended, c.ground_truth, c.k, denominator=c.ap_denominator),
           r"\mathrm{AP@K}=\frac{1}{\min(\lvert\mathrm{Rel}\rvert,K)}\sum_{i=1}^{K}\mathrm{P@}i\cdot \mathrm{rel}_i",
           "Precision at each hit, averaged: rewards putting hits early.", needs_k=True),
    Metric("rr", "RR", RankingCase,
           lambda c: ranked_metrics.reciprocal_rank(c.recommended, c.ground_truth),
           r"\mathrm{RR}=\frac{1}{\mathrm{rank}_{\text{first hit}}}",
           "One over the rank of the first relevant item in the whole list."),
    Metric("ndcg_binary_at_k", "NDCG@K (binary)", RankingCase,
           lambda c: ndcg.ndcg_at_k(c.recommended, c.binary_truth, c.k),
           r"\mathrm{NDCG@K}=\frac{\sum_{i=1}^{K}\mathrm{rel}_i/\log_2(i+1)}{\mathrm{IDCG@K}},\ \mathrm{rel}_i\in\{0,1\}",
           "Position-discounted hits, divided by the best possible.", needs_k=True),
    Metric("ndcg_graded_at_k", "NDCG@K (graded)", RankingCase,
           lambda c: ndcg.ndcg_at_k(c.recommended, c.ground_truth, c.k, gain=c.gain),
           r"\mathrm{NDCG@K}=\frac{\mathrm{DCG@K}}{\mathrm{IDCG@K}},\ \mathrm{DCG@K}=\sum_{i=1}^{K}\frac{g(\mathrm{rel}_i)}{\log_2(i+1)}",
           "Position-discounted graded gains, divided by the best possible.", needs_k=True),
    Metric("map_at_k", "MAP@K", UsersCase,
           lambda c: ranked_metrics.mean_average_precision_at_k(
               c.all_recommended, c.all_ground_truth, c.k, denominator=c.ap_denominator),
           r"\mathrm{MAP@K}=\frac{1}{|U|}\sum_{u\in U}\mathrm{AP@K}_u",
           "AP@K averaged over users; a user with no relevant item counts 0.", needs_k=True),
    Metric("mrr", "MRR", UsersCase,
           lambda c: ranked_metrics.mean_reciprocal_rank(c.all_recommended, c.all_ground_truth),
           r"\mathrm{MRR}=\frac{1}{|U|}\sum_{u\in U}\frac{1}{\mathrm{rank}_u}",
           "RR averaged over users; a user with no hit counts 0."),
    Metric("accuracy", "Accuracy", LabelCase, lambda c: cls.accuracy(c.y_true, c.y_pred),
           r"\mathrm{Accuracy}=\frac{TP+TN}{TP+FP+TN+FN}",
           "Share of all predictions that are right."),
    Metric("precision", "Precision", LabelCase, lambda c: cls.precision(c.y_true, c.y_pred),
           r"\mathrm{Precision}=\frac{TP}{TP+FP}",
           "Share of predicted positives that are really positive."),
    Metric("recall", "Recall", LabelCase, lambda c: cls.recall(c.y_true, c.y_pred),
           r"\mathrm{Recall}=\frac{TP}{TP+FN}",
           "Share of real positives that were predicted positive."),
    Metric("f1", "F1", LabelCase, lambda c: cls.f1(c.y_true, c.y_pred),
           r"F_1=\frac{2\cdot\mathrm{Precision}\cdot\mathrm{Recall}}{\mathrm{Precision}+\mathrm{Recall}}",
           "Harmonic mean of precision and recall."),
    Metric("auc", "AUC", ScoreCase, lambda c: cls.roc_auc(c.y_true, c.y_score),
           r"\mathrm{AUC}=\frac{1}{PN}\sum_{j=1}^{P}\sum_{k=1}^{N}\left(\mathbb{1}[s_j>s_k]+\tfrac12\mathbb{1}[s_j=s_k]\right)",
           "Chance that a random positive is scored above a random negative."),
    Metric("gauc", "GAUC", ScoreCase,
           lambda c: cls.gauc(c.user_ids, c.y_true, c.y_score, weight=c.gauc_weight)[0],
           r"\mathrm{GAUC}=\frac{\sum_{u} w_u\,\mathrm{AUC}_u}{\sum_{u} w_u}",
           "AUC within each user, averaged with a weight per user."),
    Metric("log_loss", "LogLoss", ProbabilityCase, lambda c: cls.log_loss(c.y_true, c.y_prob, eps=c.eps),
           r"\mathrm{LogLoss}=-\frac{1}{n}\sum_{i=1}^{n}\left[y_i\log p_i+(1-y_i)\log(1-p_i)\right]",
           "Average surprise of the true label under the predicted probability.",
           upper=inf, higher_is_better=False),
    Metric("normalized_entropy", "Normalised entropy", ProbabilityCase,
           lambda c: ctr_metrics.normalized_entropy(c.y_true, c.y_prob, eps=c.eps),
           r"\mathrm{NE}=\frac{\mathrm{LogLoss}}{-\left[\bar y\ln\bar y+(1-\bar y)\ln(1-\bar y)\right]},\ \bar y=\tfrac{1}{n}\sum_i y_i",
           "LogLoss divided by the LogLoss of always predicting the base click rate: 1 = no better "
           "than the base rate; comparable across data sets with different click rates.",
           upper=inf, higher_is_better=False),
    Metric("calibration", "Calibration", ProbabilityCase,
           lambda c: ctr_metrics.calibration(c.y_true, c.y_prob),
           r"\mathrm{Calibration}=\frac{\sum_i p_i}{\sum_i y_i}",
           "Predicted clicks divided by actual clicks: 1 is best, above 1 over-predicts, below 1 under-predicts.",
           upper=inf, best=1.0),
)

BY_KEY: dict[str, Metric] = {m.key: m for m in METRICS}


def metrics_for(case_type: type) -> tuple[Metric, ...]:
    """The metrics computed from one kind of case, in registry order."""
    return tuple(m for m in METRICS if m.case is case_type)


def evaluate(case) -> dict[str, float]:
    """Every metric of the case's kind, keyed by metric key."""
    return {m.key: m.compute(case) for m in metrics_for(type(case))}


def evaluate_over_k(case: RankingCase, ks, keys=None) -> pd.DataFrame:
    """K-dependent ranking metrics at each K in ``ks``: one row per K, one column per metric.

    ``keys`` names the metrics to compute (default: every K-dependent ranking metric).

    Raises
    ------
    ValueError
        If a key is not a K-dependent ranking metric of the registry.

    Examples
    --------
    >>> case = RankingCase([1, 2, 3], {1: 1, 3: 1}, k=3)
    >>> evaluate_over_k(case, [1, 3], ["precision_at_k", "hit_rate_at_k"]).to_dict("list")
    {'k': [1, 3], 'precision_at_k': [1.0, 0.6666666666666666], 'hit_rate_at_k': [1.0, 1.0]}
    """
    if keys is None:
        keys = [m.key for m in metrics_for(RankingCase) if m.needs_k]
    metrics = []
    for key in keys:
        metric = BY_KEY.get(key)
        if metric is None or metric.case is not RankingCase or not metric.needs_k:
            raise ValueError(f"keys must name K-dependent ranking metrics, got {key!r}")
        metrics.append(metric)
    # One vectorised pass (metrics.curves), checked against each metric's compute in the tests.
    table = curves.metrics_over_k(case.recommended, case.ground_truth, list(ks), gain=case.gain,
                                  ap_denominator=case.ap_denominator)
    return table[["k", *(m.key for m in metrics)]]
