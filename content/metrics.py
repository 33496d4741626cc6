"""What each metric of ``metrics.registry`` means, in words, and the words of the labels that are not a
metric name ("(binary)", "(graded)", "Accuracy").

Keyed by the registry's metric key; :data:`FORMULA_WORDS` are the words of its general formulas. The registry keeps the English label as data (tests and the
Python API read it); the app shows :func:`label` and :func:`meaning`.
"""

from __future__ import annotations

import re

from content.i18n import N_, _

MEANINGS = {
    "rmse": N_("Typical size of a rating error, where large misses weigh more."),
    "mae": N_("Average size of a rating error; every star of error weighs the same."),
    "mse": N_("Mean squared rating error: RMSE before the square root, in squared stars."),
    "precision_at_k": N_("Share of the K recommended slots that hold a relevant item."),
    "recall_at_k": N_("Share of all relevant items found in the top K."),
    "f1_at_k": N_("Harmonic mean of Precision@K and Recall@K."),
    "hit_rate_at_k": N_("1 if at least one relevant item is in the top K, else 0."),
    "ap_at_k": N_("Precision at each hit, averaged: rewards putting hits early."),
    "rr": N_("One over the rank of the first relevant item in the whole list."),
    "ndcg_binary_at_k": N_("Position-discounted hits, divided by the best possible."),
    "ndcg_graded_at_k": N_("Position-discounted graded gains, divided by the best possible."),
    "map_at_k": N_("AP@K averaged over users; a user with no relevant item counts 0."),
    "mrr": N_("RR averaged over users; a user with no hit counts 0."),
    "accuracy": N_("Share of all predictions that are right."),
    "precision": N_("Share of predicted positives that are really positive."),
    "recall": N_("Share of real positives that were predicted positive."),
    "f1": N_("Harmonic mean of precision and recall."),
    "auc": N_("Chance that a random positive is scored above a random negative."),
    "gauc": N_("AUC within each user, averaged with a weight per user."),
    "log_loss": N_("Average surprise of the true label under the predicted probability."),
    "normalized_entropy": N_("LogLoss divided by the LogLoss of always predicting the base click rate: 1 = no "
                             "better than the base rate; comparable across data sets with different click rates."),
    "calibration": N_("Predicted clicks divided by actual clicks: 1 is best, above 1 over-predicts, below 1 "
                      "under-predicts."),
}

# Labels with a word in them (the others are metric names, the same in every language).
LABELS = {
    "ndcg_binary_at_k": N_("NDCG@K (binary)"),
    "ndcg_graded_at_k": N_("NDCG@K (graded)"),
    "normalized_entropy": N_("Normalised entropy"),
}
# Accuracy and Calibration are metric names, like Precision and Recall: the same on cards and in formulas
# in every language (each page introduces the language's own term once, in its prose).

# Words inside the registry's general formulas (\text{...}), translated where a formula is shown.
FORMULA_WORDS = (N_("first hit"),)
_TEXT = re.compile(r"\\text\{([^{}]*)\}")


def formula_words(latex: str) -> str:
    """A registry formula with the words of its ``\\text{...}`` in the reader's language (``first hit``).

    Set names such as ``\\mathrm{top}_K`` and ``Rel`` are notation and stay as they are."""
    return _TEXT.sub(lambda m: "\\text{" + _(m.group(1)).replace("{", "").replace("}", "").replace("\\", "") + "}"
                     if m.group(1) in FORMULA_WORDS else m.group(0), latex)


def label(key: str, k: int | None = None) -> str:
    """The card label of a registry metric in the reader's language, with K filled in (NDCG@10 (graded)).

    A key the registry does not know (a page's free label) is returned as it is.
    """
    from metrics.registry import BY_KEY

    metric = BY_KEY.get(key)
    if metric is None:
        return key
    shown = _(LABELS[key]) if key in LABELS else metric.label
    return shown.replace("@K", f"@{k}") if k is not None and metric.needs_k else shown


def meaning(key: str) -> str:
    """What the metric measures, in one sentence, in the reader's language ("" for an unknown key)."""
    return _(MEANINGS[key]) if key in MEANINGS else ""
