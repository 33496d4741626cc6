"""Every worked example of the two seed documents, with what they print and what is exact.

The exact values are computed by this package when read, never typed in. Where a document
prints a number that its own example does not give, ``note`` says why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

from metrics import classification_metrics as cls
from metrics import ndcg, ranked_metrics, rating_metrics, topn_metrics

SEED_1 = "The NumPy tutorial on accuracy metrics (in Turkish: Doğruluk Metrikleri — Tam Matematik + NumPy)"
SEED_2 = "The article on offline evaluation indicators for recommendation systems (English and Chinese)"

RECOMMENDED = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]


@dataclass(frozen=True)
class Value:
    label: str
    printed: str | None
    compute: Callable[[], float] = field(repr=False)
    note: str = ""

    @property
    def exact(self) -> float:
        return self.compute()


@dataclass(frozen=True)
class Example:
    key: str
    document: str
    title: str
    topic: str
    data: dict
    values: tuple[Value, ...]
    note: str = ""


def _rating(model: str, metric) -> Callable[[], float]:
    def compute() -> float:
        predictions, actuals = rating_metrics.simulate_rating_models()[model]
        return metric(predictions, actuals)
    return compute


_NOT_FROM_CODE = ("The document's printed outputs do not come from its code: with "
                  "np.random.seed(42) the code gives this value. The lesson still holds: "
                  "a few ±4-star misses inflate RMSE much more than MAE.")

GT_TOPN = {103: 1, 105: 1, 108: 1, 999: 1}
GT_RANKED = {101: 1, 104: 1, 107: 1}
GT_GRADED = {101: 5, 104: 4, 107: 3, 999: 5}
# One table for the second seed's one-liners: TP 21, FP 21, FN 9, TN 49 (100 impressions).
TEXT_TRUE = [1] * 21 + [0] * 21 + [1] * 9 + [0] * 49
TEXT_PRED = [1] * 42 + [0] * 58
NDCG_0_8290 = ("The document prints 0.8290, which its code does not give. DCG = 1/log2(2) + "
               "1/log2(5) + 1/log2(8) = 1 + 0.43068 + 0.33333 = 1.76401; IDCG = 1/log2(2) + "
               "1/log2(3) + 1/log2(4) = 1 + 0.63093 + 0.5 = 2.13093; 1.76401 / 2.13093 = "
               "0.82781. The code's float32 changes only the 7th digit.")

EXAMPLES: tuple[Example, ...] = (
    Example(
        "rating_models", SEED_1, "RMSE vs MAE: naive, low-noise and outlier-prone models",
        "rating", {"kind": "rating_demo", "noise": 0.5, "outlier_share": 0.05, "seed": 42},
        tuple(
            Value(f"{model} {name}", printed, _rating(model, fn), _NOT_FROM_CODE)
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
        "topn_999", SEED_1, "Top-N metrics with a relevant item never recommended (999)",
        "topn", {"kind": "ranking", "recommended": RECOMMENDED,
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
        "ap_rr", SEED_1, "AP@10 and RR with relevant items at ranks 1, 4 and 7",
        "ap", {"kind": "ranking", "recommended": RECOMMENDED,
                       "ground_truth": GT_RANKED, "k": 10, "gain": "linear"},
        (
            Value("AP@10", "0.6429", lambda: ranked_metrics.average_precision_at_k(RECOMMENDED, GT_RANKED, 10)),
            Value("RR", "1.0", lambda: ranked_metrics.reciprocal_rank(RECOMMENDED, GT_RANKED)),
        ),
    ),
    Example(
        "ndcg_binary", SEED_1, "NDCG@10, binary relevance {101, 104, 107}",
        "ndcg", {"kind": "ranking", "recommended": RECOMMENDED,
                 "ground_truth": GT_RANKED, "k": 10, "gain": "linear"},
        (Value("NDCG@10", "0.8290", lambda: ndcg.ndcg_at_k(RECOMMENDED, GT_RANKED, 10), NDCG_0_8290),),
    ),
    Example(
        "ndcg_graded", SEED_1, "NDCG@10, graded relevance with an unrecommended 5-star item (999)",
        "ndcg", {"kind": "ranking", "recommended": RECOMMENDED,
                 "ground_truth": GT_GRADED, "k": 10, "gain": "linear"},
        (
            Value("NDCG@10 (linear gain)", None, lambda: ndcg.ndcg_at_k(RECOMMENDED, GT_GRADED, 10),
                  "The document prints no number, only that it differs from the binary case."),
            Value("NDCG@10 (exponential gain)", None,
                  lambda: ndcg.ndcg_at_k(RECOMMENDED, GT_GRADED, 10, gain="exponential")),
        ),
    ),
    Example(
        "all_metrics", SEED_1, "One ranking, six numbers (the document's last snippet)",
        "home", {"kind": "ranking", "recommended": RECOMMENDED,
                 "ground_truth": GT_RANKED, "k": 10, "gain": "linear"},
        (
            Value("Precision@10", "0.3000", lambda: topn_metrics.precision_at_k(RECOMMENDED, GT_RANKED, 10)),
            Value("Recall@10", "1.0000", lambda: topn_metrics.recall_at_k(RECOMMENDED, GT_RANKED, 10)),
            Value("HR@10", "1.0000", lambda: topn_metrics.hit_rate_at_k(RECOMMENDED, GT_RANKED, 10)),
            Value("AP@10", "0.6429", lambda: ranked_metrics.average_precision_at_k(RECOMMENDED, GT_RANKED, 10)),
            Value("RR", "1.0000", lambda: ranked_metrics.reciprocal_rank(RECOMMENDED, GT_RANKED)),
            Value("NDCG@10", "0.8290", lambda: ndcg.ndcg_at_k(RECOMMENDED, GT_RANKED, 10), NDCG_0_8290),
        ),
    ),
    Example(
        "labels_sklearn", SEED_2, "Precision, recall, accuracy and F1 with scikit-learn's labels",
        "classification",
        {"kind": "labels", "y_true": [0, 1, 1, 0, 1, 1], "y_pred": [0, 1, 0, 1, 1, 1]},
        (
            Value("Precision", None, lambda: cls.precision([0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 1])),
            Value("Recall", None, lambda: cls.recall([0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 1])),
            Value("Accuracy", None, lambda: cls.accuracy([0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 1])),
            Value("F1", None, lambda: cls.f1([0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 1])),
        ),
        note="The document runs this code but prints no output; these are the values it prints.",
    ),
    Example(
        "text_examples", SEED_2, "The one-line examples in the text",
        "classification", {"kind": "labels", "y_true": TEXT_TRUE, "y_pred": TEXT_PRED},
        (
            Value("Precision (the text: 5 of 10 recommended are interesting)", "0.5",
                  lambda: cls.precision(TEXT_TRUE, TEXT_PRED)),
            Value("Recall (the text: 10 of 20 interesting are recommended)", "0.5",
                  lambda: cls.recall(TEXT_TRUE, TEXT_PRED),
                  "The text uses two recalls: 10 of 20 = 0.5 in its recall line and R = 0.7 in its F1 line. "
                  "No one table has both; this one has the F1 line's 0.7, so that F1 can be checked here."),
            Value("Accuracy (the text: 70 of 100 right)", "0.7", lambda: cls.accuracy(TEXT_TRUE, TEXT_PRED)),
            Value("F1 (the text: P = 0.5, R = 0.7)", "0.583", lambda: cls.f1(TEXT_TRUE, TEXT_PRED),
                  "Printed rounded to 3 digits; exact 2·0.35/1.2 = 0.58333."),
        ),
        note="100 impressions with TP = 21, FP = 21, FN = 9, TN = 49: precision 21/42, accuracy 70/100 "
             "and recall 21/30, the numbers the text's one-liners use.",
    ),
    Example(
        "ndcg_formula", SEED_2, "NDCG of relevance [3, 2, 3, 0, 1] with the formula's 2^rel − 1 gain",
        "ndcg", {"kind": "ranking", "recommended": ["A", "B", "C", "D", "E"],
                 "ground_truth": {"A": 3, "B": 2, "C": 3, "E": 1}, "k": 5, "gain": "exponential"},
        (
            Value("DCG@5 (exponential)", None, lambda: ndcg.dcg_at_k([3, 2, 3, 0, 1], 5, gain="exponential")),
            Value("IDCG@5 (exponential)", None, lambda: ndcg.dcg_at_k([3, 3, 2, 1, 0], 5, gain="exponential")),
            Value("NDCG@5 (exponential)", None,
                  lambda: ndcg.ndcg_score([3, 2, 3, 0, 1], [5, 4, 3, 2, 1], gain="exponential")),
        ),
        note="The document writes the sum out but does not evaluate it. Its code below uses "
             "scikit-learn, whose gain is linear, so the two parts of the section give different numbers.",
    ),
    Example(
        "ndcg_sklearn", SEED_2, "scikit-learn ndcg_score([[3,2,3,0,1]], [[3,2,1,0,3]]) with a tie",
        "ndcg", {"kind": "ndcg_scores", "y_true": [3, 2, 3, 0, 1], "y_score": [3, 2, 1, 0, 3]},
        (
            Value("ndcg_score (ties averaged)", None, lambda: ndcg.ndcg_score([[3, 2, 3, 0, 1]], [[3, 2, 1, 0, 3]])),
        ),
        note="Items 1 and 5 tie at score 3, so they share ranks 1-2: each gets the mean gain (3+1)/2. "
             "scikit-learn's gain is linear (rel), as the page's default.",
    ),
    Example(
        "hit_rate", SEED_2, "Hit rate of recommended [1..5] against interests [2, 6, 7, 8, 9]",
        "topn", {"kind": "ranking", "recommended": [1, 2, 3, 4, 5],
                                   "ground_truth": {2: 1, 6: 1, 7: 1, 8: 1, 9: 1}, "k": 5, "gain": "linear"},
        (
            Value("HR@5", "1", lambda: topn_metrics.hit_rate_at_k([1, 2, 3, 4, 5], {2, 6, 7, 8, 9}, 5)),
        ),
        note="The text also calls 3 hits among 10 recommendations a hit rate of 0.3: that counts hits per "
             "recommended item, which is Precision@10 (3/10). The document's own code (and this app) scores "
             "a user 1 if any item hits.",
    ),
    Example(
        "auc_users", SEED_2, "Per-user AUC averaged over user1 and user2",
        "auc",
        {"kind": "scores", "user_ids": ["user1"] * 4 + ["user2"] * 4,
         "y_true": [1, 1, 0, 0, 1, 1, 0, 0], "y_score": [0.9, 0.8, 0.5, 0.4, 0.7, 0.6, 0.3, 0.2]},
        (
            Value("GAUC (uniform mean, the document's code)", None, lambda: cls.gauc(
                ["user1"] * 4 + ["user2"] * 4, [1, 1, 0, 0, 1, 1, 0, 0],
                [0.9, 0.8, 0.5, 0.4, 0.7, 0.6, 0.3, 0.2], weight="uniform")[0]),
            Value("AUC over all samples pooled", None, lambda: cls.roc_auc(
                [1, 1, 0, 0, 1, 1, 0, 0], [0.9, 0.8, 0.5, 0.4, 0.7, 0.6, 0.3, 0.2])),
        ),
        note="The document calls this AUC, but a mean of per-user AUCs is GAUC with equal "
             "weights. Both are 1.0 here: every positive outscores every negative, of its own "
             "user and of the other.",
    ),
    Example(
        "auc_manual", SEED_2, "Hand-written AUC (the interview question)",
        "auc",
        {"kind": "scores", "user_ids": ["u"] * 6, "y_true": [1, 1, 0, 0, 1, 0],
         "y_score": [0.9, 0.8, 0.1, 0.4, 0.95, 0.6]},
        (Value("AUC", None, lambda: cls.roc_auc([1, 1, 0, 0, 1, 0], [0.9, 0.8, 0.1, 0.4, 0.95, 0.6])),),
        note="Every positive outscores every negative, so all 9 pairs count 1. The document's loop "
             "uses a strict >, so a tie would count 0 there and 1/2 here (and in scikit-learn).",
    ),
    Example(
        "log_loss", SEED_2, "LogLoss of probabilities [0.8, 0.6, 0.3] for labels [1, 1, 0]",
        "logloss", {"kind": "probabilities", "y_true": [1, 1, 0], "y_prob": [0.8, 0.6, 0.3]},
        (Value("LogLoss", None, lambda: cls.log_loss([1, 1, 0], [0.8, 0.6, 0.3])),),
        note="The document says the value 'can be calculated by substituting the formula' and "
             "prints none: −(ln 0.8 + ln 0.6 + ln 0.7)/3.",
    ),
)

BY_KEY = {example.key: example for example in EXAMPLES}


def _decimals(printed: str) -> int:
    return len(printed.split(".")[1]) if "." in printed else 0


def printed_vs_exact() -> pd.DataFrame:
    """Every value a document prints as a number, next to the exact value and the difference.

    ``agrees`` is True when the exact value rounds to the printed one at the printed precision.

    Examples
    --------
    >>> table = printed_vs_exact()
    >>> row = table[table["value"] == "NDCG@10"].iloc[0]
    >>> float(row["printed"]), round(float(row["exact"]), 5)
    (0.829, 0.82781)
    """
    rows = [
        {"example": e.title, "value": v.label, "printed_text": v.printed, "printed": float(v.printed), "exact": v.exact,
         "agrees": abs(float(v.printed) - v.exact) <= 0.5 * 10.0 ** -_decimals(v.printed)}
        for e in EXAMPLES for v in e.values if v.printed is not None
    ]
    table = pd.DataFrame(rows).drop_duplicates(subset=["value", "printed"])
    table["difference"] = table["printed"] - table["exact"]
    return table.reset_index(drop=True)
