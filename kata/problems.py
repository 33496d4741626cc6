"""The problems, as data: what the candidate writes, the convention stated exactly, the reference.

The model solutions live in :mod:`kata.solutions`; the mistakes a wrong value can match in
:mod:`kata.mistakes`; how cases are built in :mod:`kata.cases`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from kata import solutions
from kata.mistakes import LOG_LOSS_EPS, MISTAKES, Mistake
from metrics import classification_metrics as cls
from metrics import ndcg, ranked_metrics, rating_metrics, topn_metrics


@dataclass(frozen=True)
class Problem:
    key: str
    title: str
    topic: str
    """The topic page that shows this metric's breakdown (a key of ui.input.scenario_link's pages)."""
    kind: str
    """How a case is built: a key of :data:`kata.cases.RANDOM`."""
    signature: str
    docstring: str
    hints: tuple[str, ...]
    reference: Callable[..., float]
    loop_solution: str
    numpy_solution: str
    mistakes: tuple[Mistake, ...] = ()

    @property
    def function(self) -> str:
        return self.key

    @property
    def starter(self) -> str:
        """The code the editor starts from: the signature, the docstring, a body to replace."""
        doc = "\n".join(("    " + line) if line else "" for line in self.docstring.strip().splitlines())
        return f'{self.signature}\n    """\n{doc}\n    """\n    raise NotImplementedError\n'


def _quiet(function):
    def call(**kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return function(**kwargs)
    return call


_RANKED = ("recommended: the ranked list of item ids, best first, no repeats.\n"
           "relevant: the set of relevant item ids (some may never be recommended).\n"
           "k: the cut-off, an integer >= 1 (it may exceed len(recommended)).")


def _problem(key, title, topic, kind, signature, docstring, hints, reference) -> Problem:
    loop, vectorised = solutions.MODEL[key]
    return Problem(key, title, topic, kind, signature, docstring, tuple(hints), reference, loop, vectorised,
                   MISTAKES[key])


PROBLEMS: dict[str, Problem] = {p.key: p for p in (
    _problem("precision_at_k", "Precision@K", "topn", "ranking",
             "def precision_at_k(recommended, relevant, k):",
             f"The share of the K slots that hold a relevant item.\n\n{_RANKED}\n\n"
             "Divide by K even when the list is shorter than K (an empty slot is a miss).\n"
             "Return a float in [0, 1].",
             ["Only the first k items count: recommended[:k].",
              "The denominator is k, not len(recommended[:k])."],
             lambda recommended, relevant, k: topn_metrics.precision_at_k(recommended, relevant, k)),
    _problem("recall_at_k", "Recall@K", "topn", "ranking",
             "def recall_at_k(recommended, relevant, k):",
             f"The share of all relevant items that appear in the top K.\n\n{_RANKED}\n\n"
             "Return 0.0 when relevant is empty.",
             ["Count the relevant items in recommended[:k].", "Divide by len(relevant), guarding against 0."],
             lambda recommended, relevant, k: topn_metrics.recall_at_k(recommended, relevant, k)),
    _problem("hit_rate_at_k", "Hit rate@K (one user)", "topn", "ranking",
             "def hit_rate_at_k(recommended, relevant, k):",
             f"1.0 if at least one relevant item is in the top K, else 0.0.\n\n{_RANKED}",
             ["any(...) over recommended[:k] is enough.", "Return a float, 1.0 or 0.0, not a count."],
             lambda recommended, relevant, k: topn_metrics.hit_rate_at_k(recommended, relevant, k)),
    _problem("average_precision_at_k", "AP@K", "ap", "ranking",
             "def average_precision_at_k(recommended, relevant, k):",
             f"Average precision at K, as the NumPy tutorial defines it.\n\n{_RANKED}\n\n"
             "AP@K = (sum of precision@i over the ranks i <= K that hold a relevant item) / min(|relevant|, K).\n"
             "A relevant item never recommended still counts in |relevant|.\n"
             "Return 0.0 when relevant is empty.",
             ["precision@i = hits among the first i items / i, taken only at ranks that are hits.",
              "Ranks start at 1.", "The denominator is min(len(relevant), k), not the number of hits."],
             lambda recommended, relevant, k: ranked_metrics.average_precision_at_k(recommended, relevant, k)),
    _problem("reciprocal_rank", "Reciprocal rank", "rr", "ranking_no_k",
             "def reciprocal_rank(recommended, relevant):",
             "1 / (the rank of the first relevant item), over the whole list (no cut-off).\n\n"
             "recommended: the ranked list of item ids, best first, no repeats.\n"
             "relevant: the set of relevant item ids.\n\n"
             "Ranks start at 1. Return 0.0 when no recommended item is relevant.",
             ["enumerate(recommended, start=1) gives 1-based ranks.", "Stop at the first hit."],
             lambda recommended, relevant: ranked_metrics.reciprocal_rank(recommended, relevant)),
    _problem("dcg_at_k", "DCG@K", "ndcg", "relevances",
             "def dcg_at_k(relevances, k):",
             "Discounted cumulative gain of graded relevances given in ranked order, as the NumPy tutorial\n"
             "writes it: DCG@K = sum over i = 1..K of rel_i / log2(i + 1).\n\n"
             "relevances: a list of grades >= 0, best-ranked first (it may be shorter than k, or empty).\n"
             "k: the cut-off, an integer >= 1.\n\n"
             "The gain is linear (rel itself). Return a float; 0.0 for an empty list.",
             ["The discount of rank 1 is 1 / log2(2) = 1.", "np.log2(np.arange(2, n + 2)) gives every discount."],
             lambda relevances, k: ndcg.dcg_at_k(relevances, k)),
    _problem("ndcg_at_k", "NDCG@K (binary and graded)", "ndcg", "graded",
             "def ndcg_at_k(recommended, relevance, k):",
             "NDCG@K = DCG@K of the list / DCG@K of the ideal list.\n\n"
             "recommended: the ranked list of item ids, best first, no repeats.\n"
             "relevance: a dict {item id: grade >= 0}; an item not in it has grade 0. Binary relevance is\n"
             "  every grade 1. Some graded items may never be recommended.\n"
             "k: the cut-off, an integer >= 1.\n\n"
             "Gain is linear (the grade), the discount 1 / log2(i + 1), ranks from 1. The ideal list sorts\n"
             "EVERY graded item (recommended or not) by grade, best first, cut at K.\n"
             "Return 0.0 when the ideal DCG is 0.",
             ["Write dcg(grades, k) once and call it twice.",
              "The ideal comes from relevance.values(), not from the recommended items."],
             lambda recommended, relevance, k: ndcg.ndcg_at_k(recommended, relevance, k)),
    _problem("f1_at_k", "F1@K", "topn", "ranking",
             "def f1_at_k(recommended, relevant, k):",
             f"The harmonic mean of Precision@K and Recall@K.\n\n{_RANKED}\n\n"
             "Precision@K divides the hits in the top K by K; Recall@K divides them by len(relevant).\n"
             "F1@K = 2 P R / (P + R); return 0.0 when P + R is 0 (also when relevant is empty).",
             ["Compute P and R as in their own problems, then combine them.",
              "The harmonic mean, not (P + R) / 2."],
             lambda recommended, relevant, k: topn_metrics.f1_at_k(topn_metrics.precision_at_k(recommended, relevant, k),
                                                                   topn_metrics.recall_at_k(recommended, relevant, k))),
    _problem("mean_average_precision_at_k", "MAP@K (several users)", "ap", "users",
             "def mean_average_precision_at_k(all_recommended, all_ground_truth, k):",
             "MAP@K as the NumPy tutorial writes it: the mean over users of AP@K.\n\n"
             "all_recommended: one ranked list of item ids per user, best first, no repeats within a list.\n"
             "all_ground_truth: one set of relevant item ids per user, in the same order (at least one user).\n"
             "k: the cut-off, an integer >= 1.\n\n"
             "AP@K = (sum of precision@i over the ranks i <= K that hold a relevant item) / min(|relevant|, K).\n"
             "A user with no relevant item has AP@K = 0.0 and still counts in the mean.",
             ["Write average_precision_at_k for one user first, then average it.",
              "Every user counts, also one whose ground truth is empty."],
             lambda all_recommended, all_ground_truth, k: ranked_metrics.mean_average_precision_at_k(
                 all_recommended, all_ground_truth, k)),
    _problem("mean_reciprocal_rank", "MRR (several users)", "rr", "users_no_k",
             "def mean_reciprocal_rank(all_recommended, all_ground_truth):",
             "MRR as the NumPy tutorial writes it: the mean over users of the reciprocal rank.\n\n"
             "all_recommended: one ranked list of item ids per user, best first, no repeats within a list.\n"
             "all_ground_truth: one set of relevant item ids per user, in the same order (at least one user).\n\n"
             "A user's reciprocal rank is 1 / (the rank of their first relevant item), ranks from 1, over the\n"
             "whole list; 0.0 when none of their items is relevant, and that user still counts in the mean.",
             ["Write reciprocal_rank for one user first, then average it.",
              "A user without a hit adds 0 but still counts in the denominator."],
             lambda all_recommended, all_ground_truth: ranked_metrics.mean_reciprocal_rank(
                 all_recommended, all_ground_truth)),
    _problem("auc", "AUC (ROC), by hand", "auc", "scores",
             "def auc(y_true, y_score):",
             "The probability that a random positive scores higher than a random negative.\n\n"
             "y_true: a list of labels, 0 or 1. y_score: a list of floats, the same length.\n\n"
             "Count every (positive, negative) pair: 1 if the positive scores higher, 1/2 if they tie, 0\n"
             "otherwise; divide by (positives x negatives). Return float('nan') when only one class is\n"
             "present.",
             ["The offline-evaluation article's double loop is O(n^2); sorting gives O(n log n).",
              "Ties count one half: average ranks (Mann-Whitney U) do that for you."],
             _quiet(lambda y_true, y_score: cls.roc_auc(y_true, y_score))),
    _problem("gauc", "GAUC (impression-weighted)", "auc", "groups",
             "def gauc(user_ids, y_true, y_score):",
             "Group AUC: each user's AUC (ties count 1/2), averaged with weights = that user's number of\n"
             "samples (impressions).\n\n"
             "user_ids, y_true (0/1), y_score: three lists of the same length, one entry per impression.\n\n"
             "A user whose labels are all one class has no AUC: leave them out (their weight too).\n"
             "Return one float; float('nan') when every user is left out.",
             ["Group the indices by user first.", "Weighted mean: sum(w * auc) / sum(w) over the users kept."],
             _quiet(lambda user_ids, y_true, y_score: cls.gauc(user_ids, y_true, y_score)[0])),
    _problem("log_loss", "LogLoss", "logloss", "probabilities",
             "def log_loss(y_true, y_prob):",
             "Binary cross-entropy: -mean(y log p + (1 - y) log(1 - p)), natural log.\n\n"
             "y_true: a list of labels, 0 or 1. y_prob: predicted probabilities of 1, in [0, 1].\n\n"
             f"Clip each probability to [{LOG_LOSS_EPS:g}, 1 - {LOG_LOSS_EPS:g}] before both logarithms, as\n"
             "scikit-learn does with its eps, so a probability of 0 or 1 gives a large finite loss.",
             ["np.clip(p, eps, 1 - eps) with eps = 1e-15.", "The mean, not the sum."],
             lambda y_true, y_prob: cls.clipped_log_loss(y_true, y_prob, eps=LOG_LOSS_EPS)),
    _problem("rmse", "RMSE", "rating", "ratings",
             "def rmse(predictions, actuals):",
             "Root mean squared error: sqrt(mean((prediction - actual) ** 2)).\n\n"
             "predictions, actuals: lists of floats of the same non-zero length.",
             ["Square, then mean, then root.", "Divide by n, not n - 1."],
             lambda predictions, actuals: rating_metrics.rmse(predictions, actuals)),
    _problem("mae", "MAE", "rating", "ratings",
             "def mae(predictions, actuals):",
             "Mean absolute error: mean(|prediction - actual|).\n\n"
             "predictions, actuals: lists of floats of the same non-zero length.",
             ["abs() before the mean."],
             lambda predictions, actuals: rating_metrics.mae(predictions, actuals)),
)}
"""Every problem, in the order the page lists them."""
