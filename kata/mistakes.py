"""The known conventions and mistakes a candidate's value can match, one list per problem.

Every value comes from ``metrics/``: a library's convention through :func:`metrics.conventions.score`
with one field of the app's convention changed, a classic slip through :mod:`teaching.mistakes`,
and the rest from the metric functions with another argument.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from metrics import classification_metrics as cls
from metrics import conventions, ndcg, rating_metrics, ranked_metrics, topn_metrics
from teaching import mistakes

LOG_LOSS_EPS = 1e-15
"""Where the LogLoss problem clips each probability (its statement and its mistakes say 1e-15)."""


@dataclass(frozen=True)
class Mistake:
    """A convention or slip: what the candidate did, in words, and the value it gives on a case."""

    key: str
    says: str
    """In English (Python users, the tests); a UI translates it by the problem's key and ``key``."""
    compute: Callable[[dict], float | None]
    libraries: tuple[str, ...] = ()
    """A library convention's libraries (``says`` then names them after ``did``)."""
    metric: str = ""
    """A library convention's metric label (conventions.METRIC_LABELS)."""


def _library_names(metric: str, field: str, choice: str) -> tuple[str, ...]:
    return tuple(c.name for c in conventions.CONVENTIONS.values() if getattr(c, field) == choice and c.has(metric))


def _libraries(metric: str, field: str, choice: str) -> str:
    names = list(_library_names(metric, field, choice))
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def convention(metric: str, field: str, choice: str, did: str) -> Mistake:
    """A library's choice for one field: '<did>: that is <metric> as <libraries> compute it'."""
    changed = replace(conventions.APP, **{field: choice})
    libraries = _libraries(metric, field, choice)
    label = conventions.METRIC_LABELS[metric]
    says = f"{did}: that is {label} as {libraries} compute it" if libraries else did

    def compute(case):
        ground_truth = case.get("relevant", case.get("relevance"))
        value = conventions.score(changed, metric, case["recommended"], ground_truth, case.get("k", 10**6))
        return None if np.isnan(value) else value
    return Mistake(f"{field}={choice}", says, compute, _library_names(metric, field, choice), label)


def _quiet(function):
    def call(*args, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return function(*args, **kwargs)
    return call


def _auc_strict(case) -> float | None:
    table = cls.auc_pairs_table(case["y_true"], case["y_score"])
    return None if table.empty else float((table["credit"] == 1).mean())


def _auc_ties_one(case) -> float | None:
    table = cls.auc_pairs_table(case["y_true"], case["y_score"])
    return None if table.empty else float((table["credit"] > 0).mean())


def _gauc(weight: str):
    return _quiet(lambda case: cls.gauc(case["user_ids"], case["y_true"], case["y_score"], weight=weight)[0])


def _gauc_pooled(case):
    return _quiet(cls.roc_auc)(case["y_true"], case["y_score"])


def _log_loss_unclipped(case) -> float | None:
    y, p = np.asarray(case["y_true"], float), np.asarray(case["y_prob"], float)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    return value


def _rmse_sample(case) -> float:
    """Divided by n - 1: on one rating that is x / 0, inf (nan when the error is 0), as numpy computes it."""
    errors = np.subtract(case["predictions"], case["actuals"])
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.sqrt(np.sum(errors ** 2) / np.float64(errors.size - 1)))


def _first_hit_in_top_k_rr(case) -> float:
    return ranked_metrics.reciprocal_rank_at_k(case["recommended"], case["relevant"], 10)


def _harmonic(p: float, r: float) -> float:
    return topn_metrics.f1_at_k(p, r)


def _f1_short_list(c) -> float:
    p = conventions.score(replace(conventions.APP, precision_short_list="list_length"), "precision",
                          c["recommended"], c["relevant"], c["k"])
    return _harmonic(0.0 if np.isnan(p) else p, topn_metrics.recall_at_k(c["recommended"], c["relevant"], c["k"]))


def _f1_no_cutoff(c) -> float:
    n = max(len(c["recommended"]), 1)
    hits = topn_metrics.precision_at_k(c["recommended"], c["relevant"], n) * n
    p, r = hits / c["k"], topn_metrics.recall_at_k(c["recommended"], c["relevant"], n)
    return 2 * p * r / (p + r) if p + r else 0.0  # not f1_at_k: with the whole list's hits P can pass 1


def _users(c):
    return list(zip(c["all_recommended"], c["all_ground_truth"]))


def _map_divided_by_k(c) -> float:
    return float(np.mean([conventions.average_precision_divided_by_k(r, g, c["k"]) for r, g in _users(c)]))


def _map_without_empty_users(c) -> float | None:
    kept = [(r, g) for r, g in _users(c) if g]
    return ranked_metrics.mean_average_precision_at_k(*zip(*kept), c["k"]) if kept else None


def _mrr_of_users_with_a_hit(c) -> float | None:
    rrs = [rr for rr in (ranked_metrics.reciprocal_rank(r, g) for r, g in _users(c)) if rr > 0]
    return float(np.mean(rrs)) if rrs else None


def _mrr_ranks_from_zero(c) -> float | None:
    rrs = [mistakes.reciprocal_rank_from_zero(r, g) for r, g in _users(c)]
    return None if any(rr is None for rr in rrs) else float(np.mean(rrs))


MISTAKES: dict[str, tuple[Mistake, ...]] = {
    "precision_at_k": (
        convention("precision", "precision_short_list", "list_length",
                   "you divided by min(K, list length) instead of K"),
        Mistake("recall", "you divided by the number of relevant items: that is Recall@K",
                lambda c: topn_metrics.recall_at_k(c["recommended"], c["relevant"], c["k"])),
        Mistake("no_cutoff", "you counted the hits in the whole list, not only the top K",
                lambda c: topn_metrics.precision_at_k(c["recommended"], c["relevant"], max(len(c["recommended"]), 1))
                * max(len(c["recommended"]), 1) / c["k"]),
    ),
    "recall_at_k": (
        Mistake("precision", "you divided by K: that is Precision@K",
                lambda c: topn_metrics.precision_at_k(c["recommended"], c["relevant"], c["k"])),
        Mistake("no_cutoff", "you counted the hits in the whole list, not only the top K",
                lambda c: topn_metrics.recall_at_k(c["recommended"], c["relevant"], max(len(c["recommended"]), 1))),
    ),
    "hit_rate_at_k": (
        Mistake("hit_count", "you returned the number of hits in the top K, not 1 or 0",
                lambda c: topn_metrics.precision_at_k(c["recommended"], c["relevant"], c["k"]) * c["k"]),
        Mistake("precision", "you returned hits / K: that is Precision@K (the article's '3 hits in 10 is 0.3')",
                lambda c: topn_metrics.precision_at_k(c["recommended"], c["relevant"], c["k"])),
        Mistake("no_cutoff", "you looked for a hit in the whole list, not only the top K",
                lambda c: topn_metrics.hit_rate_at_k(c["recommended"], c["relevant"], max(len(c["recommended"]), 1))),
    ),
    "average_precision_at_k": (
        convention("average_precision", "ap_denominator", "hits", "you divided by the hits in the top K"),
        convention("average_precision", "ap_denominator", "relevant", "you divided by |Rel|, all relevant items"),
        Mistake("ap_denominator=k", "you divided by K: that is RecTools' MAP(divide_by_k=True)",
                lambda c: conventions.average_precision_divided_by_k(c["recommended"], c["relevant"], c["k"])),
        convention("average_precision", "ap_denominator", "whole_list",
                   "you ignored K and averaged over the whole list, divided by |Rel|"),
        Mistake("ranks_from_zero", "you counted ranks from 0: precision at a hit was hits / (rank - 1)",
                lambda c: mistakes.average_precision_ranks_from_zero(c["recommended"], c["relevant"], c["k"])),
    ),
    "reciprocal_rank": (
        Mistake("ranks_from_zero", "you counted ranks from 0: 1 / (rank - 1)",
                lambda c: mistakes.reciprocal_rank_from_zero(c["recommended"], c["relevant"])),
        Mistake("rank_not_reciprocal", "you returned the rank of the first hit, not 1 / rank",
                lambda c: float(ranked_metrics.first_hit_rank(c["recommended"], c["relevant"]) or 0)),
        Mistake("cutoff_10", "you stopped looking after rank 10: that is RR@10 (ranx, RecBole, Evidently cut RR at K)",
                _first_hit_in_top_k_rr),
    ),
    "dcg_at_k": (
        Mistake("exponential_gain", "you used the gain 2^rel − 1 (the offline-evaluation article's formula); "
                "this problem's gain is rel",
                lambda c: ndcg.dcg_at_k(c["relevances"], c["k"], gain="exponential")),
        Mistake("log_base_e", "you used the natural log in the discount; it is log2(i + 1)",
                lambda c: mistakes.dcg_log_base_e(list(range(len(c["relevances"]))),
                                                  dict(enumerate(c["relevances"])), c["k"])),
        Mistake("ranks_off_by_one", "you used log2(i + 2): the discount for ranks counted from 0, on ranks from 1",
                lambda c: mistakes.dcg_ranks_off_by_one(list(range(len(c["relevances"]))),
                                                        dict(enumerate(c["relevances"])), c["k"])),
        Mistake("no_cutoff", "you summed over the whole list, not only the top K",
                lambda c: ndcg.dcg_at_k(c["relevances"], max(len(c["relevances"]), 1))),
    ),
    "ndcg_at_k": (
        convention("ndcg", "ideal", "passed", "you built the ideal DCG from the recommended items only"),
        convention("ndcg", "gain", "binary", "you ignored the grades (gain 1 for every relevant item)"),
        convention("ndcg", "gain", "exponential", "you used the gain 2^rel − 1; this problem's gain is rel"),
        convention("ndcg", "ideal", "k_slots", "you assumed the ideal list has K relevant items of grade 1"),
        Mistake("ranks_off_by_one", "you used log2(i + 2): the discount for ranks counted from 0, on ranks from 1",
                lambda c: mistakes.ndcg_ranks_off_by_one(c["recommended"], c["relevance"], c["k"])),
    ),
    "f1_at_k": (
        Mistake("arithmetic_mean", "you averaged P and R as (P + R) / 2; F1 is their harmonic mean, 2PR / (P + R)",
                lambda c: (topn_metrics.precision_at_k(c["recommended"], c["relevant"], c["k"])
                           + topn_metrics.recall_at_k(c["recommended"], c["relevant"], c["k"])) / 2),
        Mistake("precision_short_list", "your Precision@K divided by min(K, list length) instead of K",
                _f1_short_list),
        Mistake("no_cutoff", "you counted the hits in the whole list, not only the top K", _f1_no_cutoff),
    ),
    "mean_average_precision_at_k": (
        Mistake("ap_denominator=hits", "you divided each user's AP by their hits in the top K (torchmetrics)",
                lambda c: ranked_metrics.mean_average_precision_at_k(c["all_recommended"], c["all_ground_truth"],
                                                                     c["k"], denominator="hits")),
        Mistake("ap_denominator=relevant", "you divided each user's AP by |Rel| (trec_eval map_cut, ranx)",
                lambda c: ranked_metrics.mean_average_precision_at_k(c["all_recommended"], c["all_ground_truth"],
                                                                     c["k"], denominator="relevant")),
        Mistake("ap_denominator=k", "you divided each user's AP by K: that is RecTools' MAP(divide_by_k=True)",
                _map_divided_by_k),
        Mistake("skip_empty", "you left out the users with no relevant item (as trec_eval does); the NumPy "
                "tutorial counts them as 0", _map_without_empty_users),
    ),
    "mean_reciprocal_rank": (
        Mistake("skip_no_hit", "you averaged over the users with a hit only; a user without one counts as 0",
                _mrr_of_users_with_a_hit),
        Mistake("ranks_from_zero", "you counted ranks from 0: 1 / (rank - 1)", _mrr_ranks_from_zero),
        Mistake("sum", "you returned the sum over users, not the mean",
                lambda c: ranked_metrics.mean_reciprocal_rank(c["all_recommended"], c["all_ground_truth"])
                * len(c["all_recommended"])),
    ),
    "auc": (
        Mistake("ties_zero", "a tied positive/negative pair counted 0 (strict >, the offline-evaluation "
                "article's loop); it counts 1/2", _auc_strict),
        Mistake("ties_one", "a tied positive/negative pair counted 1 (>=); it counts 1/2", _auc_ties_one),
    ),
    "gauc": (
        Mistake("uniform", "you averaged the users' AUCs with equal weights (the offline-evaluation article's "
                "np.mean); GAUC weights each user by impressions", _gauc("uniform")),
        Mistake("clicks", "you weighted each user by clicks; GAUC weights by impressions", _gauc("clicks")),
        Mistake("pooled", "you computed one AUC over all samples, ignoring the users", _gauc_pooled),
    ),
    "log_loss": (
        Mistake("no_clipping", "you did not clip the probabilities: log(0) is -inf", _log_loss_unclipped),
        Mistake("machine_eps", "you clipped at float64 epsilon (2.2e-16, scikit-learn 1.9's default); "
                "this problem clips at 1e-15",
                lambda c: cls.log_loss(c["y_true"], c["y_prob"])),
        Mistake("sum", "you returned the sum of the losses, not the mean",
                lambda c: cls.clipped_log_loss(c["y_true"], c["y_prob"], eps=LOG_LOSS_EPS) * len(c["y_true"])),
        Mistake("clipped_true_label", "you clipped the probability of the true label, not p itself: in floating "
                "point 1 - (1 - 1e-15) is not exactly 1e-15, so a probability of 0 or 1 comes out slightly off",
                lambda c: cls.log_loss(c["y_true"], c["y_prob"], eps=LOG_LOSS_EPS)),
    ),
    "rmse": (
        Mistake("mse", "you forgot the square root: that is MSE",
                lambda c: rating_metrics.mse(c["predictions"], c["actuals"])),
        Mistake("mae", "you took absolute errors: that is MAE",
                lambda c: rating_metrics.mae(c["predictions"], c["actuals"])),
        Mistake("n_minus_1", "you divided by n − 1 (a sample standard deviation); RMSE divides by n", _rmse_sample),
    ),
    "mae": (
        Mistake("signed", "you forgot the absolute value: that is the mean (signed) error",
                lambda c: float(np.mean(np.subtract(c["predictions"], c["actuals"])))),
        Mistake("rmse", "you squared the errors and took the root: that is RMSE",
                lambda c: rating_metrics.rmse(c["predictions"], c["actuals"])),
    ),
}
