"""Every worked example of the two seed documents, with what they print and what is exact.

The exact values are computed by this package when read, never typed in. Only data and numbers
live here: each example and value has a key, and its words (title, the document's name, the
value's label, the note saying why a document prints a number its own example does not give)
are in ``content/examples.py`` under those keys.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

from metrics import classification_metrics as cls
from metrics import ndcg, ranked_metrics, rating_metrics, topn_metrics

SEED_1 = "numpy_tutorial"    # the NumPy tutorial on accuracy metrics (in Turkish)
SEED_2 = "offline_article"   # the article on offline evaluation indicators (English and Chinese)

RECOMMENDED = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]


@dataclass(frozen=True)
class Value:
    key: str          # a metric's name as the documents write it (Precision@10), or a key of its own
    printed: str | None
    compute: Callable[[], float] = field(repr=False)

    @property
    def exact(self) -> float:
        return self.compute()

    @property
    def label(self) -> str:
        """The value's key, for callers that name it in English; the reader's words are content.examples.label."""
        return self.key


@dataclass(frozen=True)
class Example:
    key: str
    document: str     # SEED_1 or SEED_2
    topic: str
    data: dict
    values: tuple[Value, ...]


def _rating(model: str, metric) -> Callable[[], float]:
    def compute() -> float:
        predictions, actuals = rating_metrics.simulate_rating_models()[model]
        return metric(predictions, actuals)
    return compute


GT_TOPN = {103: 1, 105: 1, 108: 1, 999: 1}
GT_RANKED = {101: 1, 104: 1, 107: 1}
GT_GRADED = {101: 5, 104: 4, 107: 3, 999: 5}
# One table for the second seed's one-liners: TP 21, FP 21, FN 9, TN 49 (100 impressions).
TEXT_TRUE = [1] * 21 + [0] * 21 + [1] * 9 + [0] * 49
TEXT_PRED = [1] * 42 + [0] * 58
EXAMPLES: tuple[Example, ...] = (
    Example(
        "rating_models", SEED_1, "rating", {"kind": "rating_demo", "noise": 0.5, "outlier_share": 0.05, "seed": 42},
        tuple(
            Value(f"{model} {name}", printed, _rating(model, fn))   # the model's key, then the metric
            for model, rmse_printed, mae_printed in (
                ("Naive (mean for everyone)", "1.0996", "0.9170"),
                ("Low-noise", "0.5031", "0.4001"),
                ("Outlier-prone", "0.9420", "0.3950"),
            )
            for name, printed, fn in (("RMSE", rmse_printed, rating_metrics.rmse),
                                      ("MAE", mae_printed, rating_metrics.mae))
        ),
    ),
    Example(
        "topn_999", SEED_1, "topn", {"kind": "ranking", "recommended": RECOMMENDED,
                                     "ground_truth": GT_TOPN, "k": 10, "gain": "linear"},
        (
            Value("Precision@10", "0.3000", lambda: topn_metrics.precision_at_k(RECOMMENDED, GT_TOPN, 10)),
            Value("Recall@10", "0.7500", lambda: topn_metrics.recall_at_k(RECOMMENDED, GT_TOPN, 10)),
            Value("HR@10", "1.0000", lambda: topn_metrics.hit_rate_at_k(RECOMMENDED, GT_TOPN, 10)),
            Value("F1@10", "0.4286", lambda: topn_metrics.f1_at_k(
                topn_metrics.precision_at_k(RECOMMENDED, GT_TOPN, 10),
                topn_metrics.recall_at_k(RECOMMENDED, GT_TOPN, 10))),
        ),
    ),
    Example(
        "ap_rr", SEED_1, "ap", {"kind": "ranking", "recommended": RECOMMENDED,
                                "ground_truth": GT_RANKED, "k": 10, "gain": "linear"},
        (
            Value("AP@10", "0.6429", lambda: ranked_metrics.average_precision_at_k(RECOMMENDED, GT_RANKED, 10)),
            Value("RR", "1.0", lambda: ranked_metrics.reciprocal_rank(RECOMMENDED, GT_RANKED)),
        ),
    ),
    Example(
        "ndcg_binary", SEED_1, "ndcg", {"kind": "ranking", "recommended": RECOMMENDED,
                                        "ground_truth": GT_RANKED, "k": 10, "gain": "linear"},
        (Value("NDCG@10", "0.8290", lambda: ndcg.ndcg_at_k(RECOMMENDED, GT_RANKED, 10)),),
    ),
    Example(
        "ndcg_graded", SEED_1, "ndcg", {"kind": "ranking", "recommended": RECOMMENDED,
                                        "ground_truth": GT_GRADED, "k": 10, "gain": "linear"},
        (
            Value("ndcg_linear", None, lambda: ndcg.ndcg_at_k(RECOMMENDED, GT_GRADED, 10)),
            Value("ndcg_exponential", None, lambda: ndcg.ndcg_at_k(RECOMMENDED, GT_GRADED, 10, gain="exponential")),
        ),
    ),
    Example(
        "all_metrics", SEED_1, "home", {"kind": "ranking", "recommended": RECOMMENDED,
                                        "ground_truth": GT_RANKED, "k": 10, "gain": "linear"},
        (
            Value("Precision@10", "0.3000", lambda: topn_metrics.precision_at_k(RECOMMENDED, GT_RANKED, 10)),
            Value("Recall@10", "1.0000", lambda: topn_metrics.recall_at_k(RECOMMENDED, GT_RANKED, 10)),
            Value("HR@10", "1.0000", lambda: topn_metrics.hit_rate_at_k(RECOMMENDED, GT_RANKED, 10)),
            Value("AP@10", "0.6429", lambda: ranked_metrics.average_precision_at_k(RECOMMENDED, GT_RANKED, 10)),
            Value("RR", "1.0000", lambda: ranked_metrics.reciprocal_rank(RECOMMENDED, GT_RANKED)),
            Value("NDCG@10", "0.8290", lambda: ndcg.ndcg_at_k(RECOMMENDED, GT_RANKED, 10)),
        ),
    ),
    Example(
        "labels_sklearn", SEED_2, "classification",
        {"kind": "labels", "y_true": [0, 1, 1, 0, 1, 1], "y_pred": [0, 1, 0, 1, 1, 1]},
        (
            Value("Precision", None, lambda: cls.precision([0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 1])),
            Value("Recall", None, lambda: cls.recall([0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 1])),
            Value("Accuracy", None, lambda: cls.accuracy([0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 1])),
            Value("F1", None, lambda: cls.f1([0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 1])),
        ),
    ),
    Example(
        "text_examples", SEED_2, "classification", {"kind": "labels", "y_true": TEXT_TRUE, "y_pred": TEXT_PRED},
        (
            Value("precision", "0.5", lambda: cls.precision(TEXT_TRUE, TEXT_PRED)),
            Value("recall", "0.5", lambda: cls.recall(TEXT_TRUE, TEXT_PRED)),
            Value("accuracy", "0.7", lambda: cls.accuracy(TEXT_TRUE, TEXT_PRED)),
            Value("f1", "0.583", lambda: cls.f1(TEXT_TRUE, TEXT_PRED)),
        ),
    ),
    Example(
        "ndcg_formula", SEED_2, "ndcg", {"kind": "ranking", "recommended": ["A", "B", "C", "D", "E"],
                                         "ground_truth": {"A": 3, "B": 2, "C": 3, "E": 1}, "k": 5,
                                         "gain": "exponential"},
        (
            Value("dcg", None, lambda: ndcg.dcg_at_k([3, 2, 3, 0, 1], 5, gain="exponential")),
            Value("idcg", None, lambda: ndcg.dcg_at_k([3, 3, 2, 1, 0], 5, gain="exponential")),
            Value("ndcg", None, lambda: ndcg.ndcg_score([3, 2, 3, 0, 1], [5, 4, 3, 2, 1], gain="exponential")),
        ),
    ),
    Example(
        "ndcg_sklearn", SEED_2, "ndcg", {"kind": "ndcg_scores", "y_true": [3, 2, 3, 0, 1], "y_score": [3, 2, 1, 0, 3]},
        (Value("ndcg_score", None, lambda: ndcg.ndcg_score([[3, 2, 3, 0, 1]], [[3, 2, 1, 0, 3]])),),
    ),
    Example(
        "hit_rate", SEED_2, "topn", {"kind": "ranking", "recommended": [1, 2, 3, 4, 5],
                                     "ground_truth": {2: 1, 6: 1, 7: 1, 8: 1, 9: 1}, "k": 5, "gain": "linear"},
        (Value("HR@5", "1", lambda: topn_metrics.hit_rate_at_k([1, 2, 3, 4, 5], {2, 6, 7, 8, 9}, 5)),),
    ),
    Example(
        "auc_users", SEED_2, "auc",
        {"kind": "scores", "user_ids": ["user1"] * 4 + ["user2"] * 4,
         "y_true": [1, 1, 0, 0, 1, 1, 0, 0], "y_score": [0.9, 0.8, 0.5, 0.4, 0.7, 0.6, 0.3, 0.2]},
        (
            Value("gauc_uniform", None, lambda: cls.gauc(
                ["user1"] * 4 + ["user2"] * 4, [1, 1, 0, 0, 1, 1, 0, 0],
                [0.9, 0.8, 0.5, 0.4, 0.7, 0.6, 0.3, 0.2], weight="uniform")[0]),
            Value("auc_pooled", None, lambda: cls.roc_auc(
                [1, 1, 0, 0, 1, 1, 0, 0], [0.9, 0.8, 0.5, 0.4, 0.7, 0.6, 0.3, 0.2])),
        ),
    ),
    Example(
        "auc_manual", SEED_2, "auc",
        {"kind": "scores", "user_ids": ["u"] * 6, "y_true": [1, 1, 0, 0, 1, 0],
         "y_score": [0.9, 0.8, 0.1, 0.4, 0.95, 0.6]},
        (Value("AUC", None, lambda: cls.roc_auc([1, 1, 0, 0, 1, 0], [0.9, 0.8, 0.1, 0.4, 0.95, 0.6])),),
    ),
    Example(
        "log_loss", SEED_2, "logloss", {"kind": "probabilities", "y_true": [1, 1, 0], "y_prob": [0.8, 0.6, 0.3]},
        (Value("LogLoss", None, lambda: cls.log_loss([1, 1, 0], [0.8, 0.6, 0.3])),),
    ),
)

BY_KEY = {example.key: example for example in EXAMPLES}


def _decimals(printed: str) -> int:
    return len(printed.split(".")[1]) if "." in printed else 0


def printed_vs_exact(label: Callable[[Example, Value], str] | None = None) -> pd.DataFrame:
    """Every value a document prints as a number, next to the exact value and the difference.

    ``agrees`` is True when the exact value rounds to the printed one at the printed precision.
    ``value`` is ``label(example, value)`` (the reader's words, from content.examples), by default the
    value's key; ``key`` is always the value's key.

    Examples
    --------
    >>> table = printed_vs_exact()
    >>> row = table[table["value"] == "NDCG@10"].iloc[0]
    >>> float(row["printed"]), round(float(row["exact"]), 5)
    (0.829, 0.82781)
    """
    rows = [
        {"example": e.key, "key": v.key, "value": label(e, v) if label else v.key, "printed_text": v.printed,
         "printed": float(v.printed), "exact": v.exact,
         "agrees": abs(float(v.printed) - v.exact) <= 0.5 * 10.0 ** -_decimals(v.printed)}
        for e in EXAMPLES for v in e.values if v.printed is not None
    ]
    table = pd.DataFrame(rows).drop_duplicates(subset=["key", "printed"])
    table["difference"] = table["printed"] - table["exact"]
    return table.reset_index(drop=True)
