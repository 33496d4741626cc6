"""The words of the closing "which metric when" guide (pages/21_Which_metric_when.py), as data: each
question a team asks, the metric that answers it, the pitfall that bites, and where the app teaches it.
The page only lays these out (translating each text with ``_``); a test checks that every metric, page
and lesson named here exists."""

from __future__ import annotations

from dataclasses import dataclass

from content.i18n import N_, _

TITLE = N_("Which metric when")
INTRO = N_("Each question a team asks about a recommender, the metric that answers it, the pitfall that catches "
              "people out, and where this app teaches it.")


def pitfall(text: str) -> str:
    return _("⚠️ **Pitfall:** {pitfall}").format(pitfall=text)


def answered(metrics: str, why: str) -> str:
    """The metrics that answer, then why: ``metrics`` is their names joined by " · "."""
    return _("**{metrics}**: {why}").format(metrics=metrics, why=why)


def page_link(page: str) -> str:
    return _("The page: {page}").format(page=page)


def lesson_link(lesson: str) -> str:
    return _("The lesson: {lesson}").format(lesson=lesson)


@dataclass(frozen=True)
class Answer:
    question: str
    metrics: tuple[str, ...]    # registry keys (metrics.registry.BY_KEY)
    why: str
    pitfall: str
    topic: str                  # the page that teaches it (ui.navigation topic)
    lesson: str | None = None   # the guided lesson (lessons.BY_KEY), if there is one


ANSWERS: tuple[Answer, ...] = (
    Answer(N_("Did we find anything relevant?"), ("hit_rate_at_k", "recall_at_k"),
           N_("HR@K says whether a user got at least one relevant item in the top K; Recall@K how much of "
              "everything relevant the top K found."),
           N_("Recall counts relevant items the list never recommended; a library that only sees the list "
              "reports 1.0 where the truth is 0.75."),
           "topn", "topn"),
    Answer(N_("How many of the slots were good?"), ("precision_at_k", "f1_at_k"),
           N_("Precision@K divides the hits by the K slots; F1@K balances it against recall."),
           N_("With fewer relevant items than K, Precision@K cannot reach 1, however good the order."),
           "topn", "topn"),
    Answer(N_("How early does the first good item come?"), ("rr", "mrr"),
           N_("RR is 1 over the rank of the first hit; MRR averages it over users."),
           N_("Only the first hit counts, and libraries disagree on a cut-off: a first hit below K scores 1/rank "
              "in trec_eval and 0 in ranx's mrr@k."),
           "rr", "rr"),
    Answer(N_("Are the hits near the top of the list?"), ("ap_at_k", "map_at_k"),
           N_("AP@K averages the precision at each hit, so early hits weigh more; MAP averages it over users."),
           N_("AP's denominator (min(|Rel|, K), |Rel| or the hits found) differs between libraries and changes "
              "the number."),
           "ap", "ap"),
    Answer(N_("Is the whole list well ordered, with graded relevance?"), ("ndcg_graded_at_k",),
           N_("NDCG@K discounts each item's gain by its rank and divides by the best possible order."),
           N_("The ideal includes relevant items never recommended, and linear (rel) and exponential (2^rel − 1) "
              "gains give different numbers: say which."),
           "ndcg", "ndcg"),
    Answer(N_("Are the predicted probabilities right?"), ("log_loss", "normalized_entropy", "calibration"),
           N_("LogLoss charges each prediction −ln of the probability it gave to what happened; normalised "
              "entropy and calibration make it comparable and say whether clicks are over- or under-predicted."),
           N_("LogLoss depends on the click rate: a know-nothing model scores low on rare clicks. Compare "
              "normalised entropy instead."),
           "logloss", "logloss"),
    Answer(N_("Does the model score clicks above non-clicks?"), ("auc", "gauc"),
           N_("AUC is the share of click/non-click pairs ordered right; GAUC asks it within each user."),
           N_("Pooled AUC mixes users who never see each other's items; users with clicks only are left out of "
              "GAUC; ties count ½ in scikit-learn and 0 in a hand-written loop."),
           "auc", "auc"),
    Answer(N_("Is a yes/no decision right?"), ("accuracy", "precision", "recall", "f1"),
           N_("The confusion matrix's four counts give accuracy, precision, recall and F1."),
           N_("On rare clicks a model that never predicts one has high accuracy and zero recall."),
           "classification", "classification"),
    Answer(N_("How far off are predicted ratings?"), ("rmse", "mae"),
           N_("MAE averages the misses; RMSE squares them first."),
           N_("RMSE is dominated by a few large misses; MAE barely notices them. Report both."),
           "rating", "rating"),
    Answer(N_("Is model B really better than model A?"), ("ndcg_graded_at_k", "ap_at_k"),
           N_("Compare the per-user differences with a paired test and an interval, not two means."),
           N_("A p-value is not the size of the difference, and testing seven metrics finds a 'significant' one "
              "by chance: correct for it (Holm)."),
           "compare", None),
)
