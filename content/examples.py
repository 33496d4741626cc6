"""The words of the seed documents' worked examples (metrics/seed_examples.py holds their data and numbers).

Each example's title and note are keyed by the example's key; each value's label and note by
(example key, value key). A value whose key is a metric's name as the documents write it
(Precision@10, NDCG@10, RR) has no label here: its key is shown. Where a document prints a number
its own example does not give, the note says why (translated); the printed number stays as printed.
"""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _
from metrics.seed_examples import SEED_1, SEED_2, Example, Value

DOCUMENTS = {
    SEED_1: N_("The NumPy tutorial on accuracy metrics (in Turkish: Doğruluk Metrikleri — Tam Matematik + NumPy)"),
    SEED_2: N_("The article on offline evaluation indicators for recommendation systems (English and Chinese)"),
}

TITLES = {
    "rating_models": N_("RMSE vs MAE: naive, low-noise and outlier-prone models"),
    "topn_999": N_("Top-N metrics with a relevant item never recommended (999)"),
    "ap_rr": N_("AP@10 and RR with relevant items at ranks 1, 4 and 7"),
    "ndcg_binary": N_("NDCG@10, binary relevance {101, 104, 107}"),
    "ndcg_graded": N_("NDCG@10, graded relevance with an unrecommended 5-star item (999)"),
    "all_metrics": N_("One ranking, six numbers (the document's last snippet)"),
    "labels_sklearn": N_("Precision, recall, accuracy and F1 with scikit-learn's labels"),
    "text_examples": N_("The one-line examples in the text"),
    "ndcg_formula": N_("NDCG of relevance [3, 2, 3, 0, 1] with the formula's 2^rel − 1 gain"),
    "ndcg_sklearn": N_("scikit-learn ndcg_score([[3,2,3,0,1]], [[3,2,1,0,3]]) with a tie"),
    "hit_rate": N_("Hit rate of recommended [1..5] against interests [2, 6, 7, 8, 9]"),
    "auc_users": N_("Per-user AUC averaged over user1 and user2"),
    "auc_manual": N_("Hand-written AUC (the interview question)"),
    "log_loss": N_("LogLoss of probabilities [0.8, 0.6, 0.3] for labels [1, 1, 0]"),
}

NOTES = {
    "labels_sklearn": N_("The document runs this code but shows no output; these are the values the code prints."),
    "text_examples": N_("100 impressions with TP = 21, FP = 21, FN = 9, TN = 49: precision 21/42, accuracy 70/100 "
                        "and recall 21/30, the numbers the text's one-liners use."),
    "ndcg_formula": N_("The document writes the sum out but does not evaluate it. Its code below uses "
                       "scikit-learn, whose gain is linear, so the two parts of the section give different numbers."),
    "ndcg_sklearn": N_("Items 1 and 5 tie at score 3, so they share ranks 1-2: each gets the mean gain (3+1)/2. "
                       "scikit-learn's gain is linear (rel), as the page's default."),
    "hit_rate": N_("The text also calls 3 hits among 10 recommendations a hit rate of 0.3: that counts hits per "
                   "recommended item, which is Precision@10 (3/10). The document's own code (and this app) scores "
                   "a user 1 if any item hits."),
    "auc_users": N_("The document calls this AUC, but a mean of per-user AUCs is GAUC with equal "
                    "weights. Both are 1.0 here: every positive outscores every negative, of its own "
                    "user and of the other."),
    "auc_manual": N_("Every positive outscores every negative, so all 9 pairs count 1. The document's loop "
                     "uses a strict >, so a tie would count 0 there and 1/2 here (and in scikit-learn)."),
    "log_loss": N_("The document says the value 'can be calculated by substituting the formula' and "
                   "prints none: −(ln 0.8 + ln 0.6 + ln 0.7)/3."),
}

VALUE_LABELS = {
    ("rating_models", "Naive (mean for everyone) RMSE"): N_("Naive (mean for everyone) RMSE"),
    ("rating_models", "Naive (mean for everyone) MAE"): N_("Naive (mean for everyone) MAE"),
    ("rating_models", "Low-noise RMSE"): N_("Low-noise RMSE"),
    ("rating_models", "Low-noise MAE"): N_("Low-noise MAE"),
    ("rating_models", "Outlier-prone RMSE"): N_("Outlier-prone RMSE"),
    ("rating_models", "Outlier-prone MAE"): N_("Outlier-prone MAE"),
    ("ndcg_graded", "ndcg_linear"): N_("NDCG@10 (linear gain)"),
    ("ndcg_graded", "ndcg_exponential"): N_("NDCG@10 (exponential gain)"),
    ("text_examples", "precision"): N_("Precision (the text: 5 of 10 recommended are interesting)"),
    ("text_examples", "recall"): N_("Recall (the text: 10 of 20 interesting are recommended)"),
    ("text_examples", "accuracy"): N_("Accuracy (the text: 70 of 100 right)"),
    ("text_examples", "f1"): N_("F1 (the text: P = 0.5, R = 0.7)"),
    ("ndcg_formula", "dcg"): N_("DCG@5 (exponential)"),
    ("ndcg_formula", "idcg"): N_("IDCG@5 (exponential)"),
    ("ndcg_formula", "ndcg"): N_("NDCG@5 (exponential)"),
    ("ndcg_sklearn", "ndcg_score"): N_("ndcg_score (ties averaged)"),
    ("auc_users", "gauc_uniform"): N_("GAUC (uniform mean, the document's code)"),
    ("auc_users", "auc_pooled"): N_("AUC over all samples pooled"),
}

NOT_FROM_CODE = N_("The document's printed outputs do not come from its code: with "
                   "np.random.seed(42) the code gives this value. The lesson still holds: "
                   "a few ±4-star misses inflate RMSE much more than MAE.")
NDCG_0_8290 = N_("The document prints 0.8290, which its code does not give. DCG = 1/log2(2) + "
                 "1/log2(5) + 1/log2(8) = 1 + 0.43068 + 0.33333 = 1.76401; IDCG = 1/log2(2) + "
                 "1/log2(3) + 1/log2(4) = 1 + 0.63093 + 0.5 = 2.13093; 1.76401 / 2.13093 = "
                 "0.82781. The code's float32 changes only the 7th digit.")
VALUE_NOTES = {
    **{("rating_models", f"{model} {metric}"): NOT_FROM_CODE
       for model in ("Naive (mean for everyone)", "Low-noise", "Outlier-prone") for metric in ("RMSE", "MAE")},
    ("ndcg_binary", "NDCG@10"): NDCG_0_8290,
    ("all_metrics", "NDCG@10"): NDCG_0_8290,
    ("ndcg_graded", "ndcg_linear"): N_("The document prints no number, only that it differs from the binary case."),
    ("text_examples", "recall"): N_(
        "The text uses two recalls: 10 of 20 = 0.5 in its recall line and R = 0.7 in its F1 line. "
        "No one table has both; this one has the F1 line's 0.7, so that F1 can be checked here."),
    ("text_examples", "f1"): N_("Printed rounded to 3 digits; exact 2·0.35/1.2 = 0.58333."),
}


def document(name: str) -> str:
    """The name of a seed document (metrics.seed_examples.SEED_1 or SEED_2) in the reader's language."""
    return _(DOCUMENTS[name])


def title(example: Example) -> str:
    return _(TITLES[example.key])


def note(example: Example) -> str:
    """What the example's note says ("" if it has none)."""
    return _(NOTES[example.key]) if example.key in NOTES else ""


def label(example: Example, value: Value) -> str:
    """The value's label: its own words, or its key when the key is a metric's name (Precision@10, Accuracy:
    translated, if at all, by the catalog that names the metric)."""
    words = VALUE_LABELS.get((example.key, value.key))
    return _(words if words else value.key)


def value_note(example: Example, value: Value) -> str:
    """Why the document prints what it does for this value ("" if there is nothing to say)."""
    words = VALUE_NOTES.get((example.key, value.key))
    return _(words) if words else ""


def value_rows(example: Example, *, missing: str, disagrees: str | None = None) -> list[dict]:
    """One row per value of the example: its label, what the document prints (``missing`` where it prints
    none), the exact value; with ``disagrees``, also whether the two agree (``disagrees`` where a note says
    why not). The loaded-example banner and the worked-examples page show these rows."""
    rows = []
    for value in example.values:
        row = {"value": label(example, value), "document prints": value.printed or missing,
               "exact": numbers.number(value.exact, 5)}
        if disagrees is not None:
            row["agrees"] = "—" if value.printed is None else (disagrees if value_note(example, value) else "✅")
        rows.append(row)
    return rows


# The banner of a loaded example (ui.widgets.loaded_example_banner) and the sources line under every page.
SOURCES = N_("Sources: the NumPy tutorial on accuracy metrics and the article on offline evaluation indicators "
             "for recommendation systems. Every example of both is a one-click preset on the worked-examples page.")
SOURCES_LINK = N_("Worked examples of both source documents")
RESET = N_("↩️ Reset to the example")
RESET_HELP = N_("Load the example's data again, replacing your edits.")
BANNER_COLUMNS = {"value": N_("value"), "document prints": N_("document prints"), "exact": N_("exact")}


def changed_banner(example: Example) -> str:
    return _("**Changed from the example:** {title}  \nThe numbers on this page are for your edited data; the "
             "table shows the example's own values.").format(title=title(example))


def loaded_banner(example: Example) -> str:
    return _("**Loaded example:** {title}  \n_{document}_").format(title=title(example),
                                                                    document=document(example.document))


def noted(example: Example, value: Value) -> str:
    """A value's note with the value named: "**NDCG@10:** The document prints ..."."""
    return _("**{value}:** {note}").format(value=label(example, value), note=value_note(example, value))
