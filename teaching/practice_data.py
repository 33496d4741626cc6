"""Quiz questions beyond rankings: AUC, GAUC, LogLoss, RMSE/MAE and the confusion-matrix metrics.

Each family draws a small random data set (a few impressions or ratings, one decimal, so it can be
done by hand), asks one metric of it, and knows the common mistakes and the worked solution. Every
answer is computed by ``metrics.registry``; no Streamlit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from metrics import classification_metrics as cls
from metrics import rating_metrics, registry
from teaching.worked import Worked


@dataclass(frozen=True)
class Family:
    name: str
    metrics: tuple[str, ...]                                   # registry keys one question may ask
    make: Callable[[np.random.Generator], object] = field(repr=False)


def _two_classes(rng, n: int) -> list[int]:
    while True:
        labels = [int(v) for v in rng.integers(0, 2, size=n)]
        if 0 < sum(labels) < n:
            return labels


def _scores(rng, n: int) -> list[float]:
    return [round(float(v), 1) for v in rng.integers(1, 10, size=n) / 10]


def _auc_case(rng) -> registry.ScoreCase:
    n = 6
    return registry.ScoreCase(["u"] * n, _two_classes(rng, n), _scores(rng, n))


def _gauc_case(rng) -> registry.ScoreCase:
    sizes = [int(v) for v in rng.integers(2, 5, size=3)]
    labels = [y for size in sizes for y in _two_classes(rng, size)]
    if rng.random() < 0.4:  # a user who only clicked: left out of GAUC, still in pooled AUC
        sizes.append(2)
        labels += [1, 1]
    users = [f"user{u + 1}" for u, size in enumerate(sizes) for _ in range(size)]
    return registry.ScoreCase(users, labels, _scores(rng, len(labels)))


def _probability_case(rng) -> registry.ProbabilityCase:
    n = 4
    return registry.ProbabilityCase(_two_classes(rng, n), _scores(rng, n))


def _rating_case(rng) -> registry.RatingCase:
    actuals = [float(v) for v in rng.integers(1, 6, size=5)]
    predictions = [float(np.clip(a + rng.choice([-2, -1, -0.5, 0, 0, 0.5, 1]), 1, 5)) for a in actuals]
    if predictions == actuals:
        predictions[0] = 5.0 if actuals[0] < 5 else 4.0
    return registry.RatingCase(predictions, actuals)


def _label_case(rng) -> registry.LabelCase:
    while True:
        y_true, y_pred = _two_classes(rng, 8), _two_classes(rng, 8)
        if any(t and p for t, p in zip(y_true, y_pred, strict=True)):  # TP > 0: every metric defined
            return registry.LabelCase(y_true, y_pred)


FAMILIES = (
    Family("AUC", ("auc",), _auc_case),
    Family("GAUC", ("gauc",), _gauc_case),
    Family("LogLoss", ("log_loss",), _probability_case),
    Family("rating errors", ("rmse", "mae"), _rating_case),
    Family("classification", ("accuracy", "precision", "recall", "f1"), _label_case),
)
DATA_METRICS = frozenset(key for family in FAMILIES for key in family.metrics)


def draw(rng: np.random.Generator, family: Family) -> tuple[str, object]:
    """A metric of the family and a fresh random data set for it."""
    return str(rng.choice(list(family.metrics))), family.make(rng)


def compute(metric: str, case) -> float:
    return float(registry.BY_KEY[metric].compute(case))


def data_table(case) -> pd.DataFrame:
    """The data a question shows, one row per impression or rating."""
    if isinstance(case, registry.ScoreCase):
        table = pd.DataFrame({"impression": [f"#{i + 1}" for i in range(len(case.y_true))], "user": list(case.user_ids),
                              "score": list(case.y_score), "clicked": list(case.y_true)})
        return table if len(set(case.user_ids)) > 1 else table.drop(columns="user")
    if isinstance(case, registry.ProbabilityCase):
        return pd.DataFrame({"impression": [f"#{i + 1}" for i in range(len(case.y_true))],
                             "clicked": list(case.y_true), "predicted probability": list(case.y_prob)})
    if isinstance(case, registry.RatingCase):
        return pd.DataFrame({"rating": [f"#{i + 1}" for i in range(len(case.actuals))],
                             "predicted": list(case.predictions), "actual": list(case.actuals)})
    return pd.DataFrame({"impression": [f"#{i + 1}" for i in range(len(case.y_true))],
                         "clicked": list(case.y_true), "predicted": list(case.y_pred)})


# --- mistakes, each naming the worked step it changes ----------------------------------------------

def mistakes(metric: str, case) -> dict[str, tuple[float, str]]:
    """Each common mistake: the number it gives and the worked step it goes wrong at."""
    if metric == "auc":
        counts = cls.auc_pair_counts(case.y_true, case.y_score)
        return {"a tie counted 0 instead of ½ (a strict > in the pair loop)": (counts["auc_strict"], "ties"),
                "the pairs counted the wrong way round (1 − AUC)": (1 - counts["auc"], "count")}
    if metric == "gauc":
        pooled = cls.roc_auc(case.y_true, case.y_score)
        plain, _ = cls.gauc(case.user_ids, case.y_true, case.y_score, weight="uniform")
        return {"a plain mean over users instead of weighting each by impressions": (plain, "weights"),
                "one AUC over all impressions pooled, instead of one per user": (pooled, "per_user")}
    if metric == "log_loss":
        terms = cls.log_loss_terms(case.y_true, case.y_prob)
        p_true = terms["p_true_label"].to_numpy(dtype=float)
        return {"log base 10 instead of the natural log": (float(-np.log10(p_true).mean()), "terms"),
                "log base 2 instead of the natural log": (float(-np.log2(p_true).mean()), "terms"),
                "the probability of a click used for every impression, clicked or not":
                    (float(-np.log(np.asarray(case.y_prob, dtype=float)).mean()), "p_true"),
                "the sum instead of the mean": (float(terms["loss"].sum()), "mean")}
    if metric in ("rmse", "mae"):
        errors = rating_metrics.rating_errors_table(case.predictions, case.actuals)
        found = {"MSE: the root was not taken": (float(errors["squared_error"].mean()), "root"),
                 "MAE instead of RMSE": (float(errors["absolute_error"].mean()), "root")} if metric == "rmse" else \
            {"signed errors averaged (misses up and down cancel)": (float(errors["error"].mean()), "absolute"),
             "RMSE instead of MAE": (float(np.sqrt(errors["squared_error"].mean())), "absolute")}
        return found
    counts = cls.confusion_counts(case.y_true, case.y_pred)
    tp, fp, tn, fn = counts["TP"], counts["FP"], counts["TN"], counts["FN"]
    p, r = tp / (tp + fp), tp / (tp + fn)
    return {
        "accuracy": {"TN left out of the right answers, TP / n": (tp / (tp + fp + tn + fn), "result")},
        "precision": {"recall's denominator TP + FN instead of TP + FP": (r, "result")},
        "recall": {"precision's denominator TP + FP instead of TP + FN": (p, "result")},
        "f1": {"the plain mean of precision and recall instead of the harmonic mean": ((p + r) / 2, "result")},
    }[metric]


# --- worked solutions ------------------------------------------------------------------------------

def solution(metric: str, case) -> Worked:
    label = registry.BY_KEY[metric].label
    value = compute(metric, case)
    if metric == "auc":
        pairs = cls.auc_pairs_table(case.y_true, case.y_score)
        counts = cls.auc_pair_counts(case.y_true, case.y_score)
        table = pd.DataFrame({"click": [f"#{i + 1}" for i in pairs["positive"]], "click score": pairs["positive_score"],
                              "non-click": [f"#{i + 1}" for i in pairs["negative"]],
                              "non-click score": pairs["negative_score"], "credit": pairs["credit"]})
        pn = counts["positives"] * counts["negatives"]
        steps = (("pairs", f"{counts['positives']} clicks × {counts['negatives']} non-clicks = {pn} pairs"),
                 ("count", f"click scored higher: {counts['higher']} pairs, credit 1 each"),
                 ("ties", f"tied: {counts['tied']} pairs, credit ½ each"),
                 ("result", f"AUC = ({counts['higher']} + ½ · {counts['tied']}) / {pn} = {value:.4f}"))
        return Worked("AUC: every click/non-click pair", table, steps)
    if metric == "gauc":
        users = cls.gauc_table(case.user_ids, case.y_true, case.y_score)
        used = users[users["skipped_because"] == ""]
        table = pd.DataFrame({"user": users["user"], "impressions": users["impressions"], "clicks": users["clicks"],
                              "AUC": users["auc"].round(4),
                              "left out": ["clicks only" if s and c else "no click" if s else ""
                                           for s, c in zip(users["skipped_because"], users["clicks"], strict=True)]})
        terms = " + ".join(f"{w} · {a:.4f}" for w, a in zip(used["impressions"], used["auc"], strict=True))
        steps = (("per_user", "AUC within each user, from that user's pairs only; a user with one class has no pair "
                              "and is left out"),
                 ("weights", f"weight of each user: their impressions ({', '.join(map(str, used['impressions']))})"),
                 ("result", f"GAUC = ({terms}) / {int(used['impressions'].sum())} = {value:.4f}"))
        return Worked("GAUC: AUC per user, weighted by impressions", table, steps)
    if metric == "log_loss":
        terms = cls.log_loss_terms(case.y_true, case.y_prob)
        table = pd.DataFrame({"impression": [f"#{i + 1}" for i in range(len(terms))], "clicked": terms["label"],
                              "p": terms["probability"], "p of what happened": terms["p_true_label"].round(4),
                              "−ln": terms["loss"].round(4)})
        steps = (("p_true", "probability given to what happened: p for a click, 1 − p for a non-click"),
                 ("terms", "each costs −ln of that probability (natural log)"),
                 ("mean", f"LogLoss = their mean = {float(terms['loss'].sum()):.4f} / {len(terms)} = {value:.4f}"))
        return Worked("LogLoss: the cost of each impression", table, steps)
    if metric in ("rmse", "mae"):
        errors = rating_metrics.rating_errors_table(case.predictions, case.actuals)
        table = errors.rename(columns={"absolute_error": "|error|", "squared_error": "error²"})
        if metric == "rmse":
            mse = float(errors["squared_error"].mean())
            steps = (("squares", f"square each error and average: MSE = {mse:.4f}"),
                     ("root", f"RMSE = √MSE = √{mse:.4f} = {value:.4f}"))
        else:
            steps = (("absolute", "take each error without its sign"),
                     ("result", f"MAE = mean of |error| = {float(errors['absolute_error'].sum()):g} / {len(errors)} "
                                f"= {value:.4f}"))
        return Worked(f"{label}: each rating's error", table, steps)
    counts = cls.confusion_counts(case.y_true, case.y_pred)
    tp, fp, tn, fn = counts["TP"], counts["FP"], counts["TN"], counts["FN"]
    table = pd.DataFrame({"": ["clicked (1)", "not clicked (0)"], "predicted 1": [f"TP = {tp}", f"FP = {fp}"],
                          "predicted 0": [f"FN = {fn}", f"TN = {tn}"]})
    formula = {"accuracy": f"(TP + TN) / n = ({tp} + {tn}) / {tp + fp + tn + fn}",
               "precision": f"TP / (TP + FP) = {tp} / ({tp} + {fp})",
               "recall": f"TP / (TP + FN) = {tp} / ({tp} + {fn})",
               "f1": f"2 · P · R / (P + R), P = {tp}/{tp + fp}, R = {tp}/{tp + fn}"}[metric]
    steps = (("counts", f"count the four outcomes: TP = {tp}, FP = {fp}, TN = {tn}, FN = {fn}"),
             ("result", f"{label} = {formula} = {value:.4f}"))
    return Worked(f"{label}: the confusion matrix", table, steps)
