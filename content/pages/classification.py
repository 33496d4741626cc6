"""The words of the classification-metrics page (pages/6_Classification_metrics.py)."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

TITLE = N_("Classification metrics")
INTRO = N_(
    "Treat each impression as a yes/no question: *will the user click?* Compare the model's answers "
    "with what happened and count the four outcomes — true positives (TP), false positives (FP), true "
    "negatives (TN) and false negatives (FN). **Accuracy**, **precision**, **recall** and **F1** are "
    "different ratios of these four counts. Edit the labels and predictions and watch them move.")

FORMULAS = N_("Formulas")
LABELS_AND_PREDICTIONS = N_("Labels and predictions")
EDITOR_CAPTION = N_("One row per impression. Both columns must be 0 or 1; any other value leaves the row out.")
LABEL_COLUMN = N_("Label (clicked?)")
LABEL_HELP = N_("1 = the user clicked (positive), 0 = not.")
PREDICTED_COLUMN = N_("Predicted")
PREDICTED_HELP = N_("1 = the model predicts a click, 0 = not.")
LABELS_TABLE = N_("Labels")
NO_ROWS = N_("No usable row is left: add a row with 0 or 1 in both columns to see the metrics.")
NO_PREDICTED_CLICK = N_(
    "The model predicts no click at all, so precision is 0/0. It is shown as 0, as scikit-learn "
    "does by default (`zero_division`), and F1 follows.")
NO_REAL_CLICK = N_(
    "There is no real click (label 1), so recall is 0/0. It is shown as 0, as scikit-learn does "
    "by default (`zero_division`).")
OUTCOMES = N_("**Each impression's outcome**")
OUTCOME_COLUMNS = {"label": N_("label"), "predicted": N_("predicted"), "outcome": N_("outcome")}
IMBALANCE = N_("Why accuracy misleads on imbalanced data")
SHARE_SLIDER = N_("Share of clicks (label 1) among the impressions")
ON_IMBALANCED_DATA = N_(
    "On imbalanced data, look at precision, recall and F1 (or at AUC and LogLoss of the scores), "
    "and compare accuracy with the baseline of always predicting the majority class.")


def imbalance(impressions: int) -> str:
    return _(
        "Clicks are rare: often only a few percent of impressions. Take {impressions} impressions and a "
        "lazy model that **always predicts 0** (no click). It is right on every non-click, so its accuracy "
        "equals the share of non-clicks — high — while it finds none of the clicks: recall 0, and precision "
        "and F1 0 as well. Move the slider to change the share of clicks."
    ).format(impressions=numbers.integer(impressions))


def always_zero(metric: str) -> str:
    """The label of a card of the lazy always-0 model: ``metric`` is the registry's metric name."""
    return _("Always-0: {metric}").format(metric=metric)


def lazy_counts(counts: dict[str, int]) -> str:
    return _("TP = {tp}, FP = {fp}, TN = {tn}, FN = {fn}: every click is a false negative.").format(
        tp=numbers.integer(counts["TP"]), fp=numbers.integer(counts["FP"]), tn=numbers.integer(counts["TN"]),
        fn=numbers.integer(counts["FN"]))


PITFALLS = (
    N_("Argument order matters: scikit-learn takes `precision_score(y_true, y_pred)`. Swapping the two "
       "arguments swaps precision and recall (and FP with FN)."),
    N_("When nothing is predicted positive, precision is 0/0. scikit-learn returns 0 with an "
       "`UndefinedMetricWarning` (`zero_division=\"warn\"`); `zero_division=1` or `np.nan` gives other numbers."),
    N_("These are classification metrics over impressions. Precision@K and Recall@K on the ranking pages "
       "count hits in a top-K list instead: same names, different inputs."),
    N_("Predicted labels come from thresholding a score (often at 0.5). A different threshold gives a "
       "different confusion matrix; AUC and LogLoss judge the scores without picking a threshold."),
    N_("Averaging over users or classes: the F1 of averaged precision and recall differs from the average "
       "of per-user F1 (`average=\"macro\"` vs `\"micro\"` in scikit-learn)."),
)
