"""The words of the AUC and GAUC page (pages/7_AUC_and_GAUC.py)."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _, ngettext

TITLE = N_("AUC and GAUC")
INTRO = N_(
    "AUC is the chance that a randomly picked **positive** (a click) gets a higher score than a randomly picked "
    "**negative**: 1 is a perfect ranking, 0.5 is a coin flip. GAUC computes AUC **within each user** and "
    "averages it, so it only asks whether each user's own clicks were ranked above that user's own non-clicks.")

USER = N_("User")
LABEL = N_("Label")
LABEL_HELP = N_("1 = clicked (positive), 0 = not clicked (negative).")
SCORE = N_("Score")
SCORE_HELP = N_("The model's score; higher means more likely a click.")
SCORES = N_("Scores (one row per impression)")
SCORES_TABLE = N_("Scores table")
NO_ROWS = N_("No usable rows: add at least one row with a user, a label 0 or 1 and a numeric score.")
POOLED = N_("AUC over all impressions")

WEIGHTS = {
    "impressions": N_("impressions (DIN paper)"),
    "clicks": N_("clicks (RecBole)"),
    "uniform": N_("uniform (the offline-evaluation article's plain mean)"),
}
CREDITS = {1.0: N_("positive higher → 1"), 0.5: N_("tie → 0.5"), 0.0: N_("positive lower → 0")}
PAIR_COLUMNS = {
    "positive_row": N_("positive (row)"), "positive_user": N_("user"), "positive_score": N_("positive score"),
    "negative_row": N_("negative (row)"), "negative_user": N_("user"), "negative_score": N_("negative score"),
    "credit": N_("credit"), "why": N_("why"),
}
GAUC_COLUMNS = {
    "user": N_("user"), "impressions": N_("impressions"), "clicks": N_("clicks"), "uniform": N_("uniform"),
    "skipped_because": N_("skipped because"),
}
STRICT_CARD = N_("AUC, ties count 0 (strict >)")
STRICT_HELP = N_("The offline-evaluation article's hand-written loop and cornac: a tie earns nothing.")
TIES = N_(
    "**Ties: 0.5 or 0?** scikit-learn counts a tied pair as half a win: with equal scores the model "
    "cannot tell the two apart, so it is right half the time. The offline-evaluation article's hand-written loop "
    "(`if y_score[i] > y_score[j]`) and cornac use a strict `>`, so a tie earns nothing and AUC comes out "
    "lower whenever a positive ties a negative:")
ROC_CAPTION = N_(
    "Each step of the curve is one score threshold. A group of tied scores holding positives and "
    "negatives moves the curve diagonally: the triangle under that diagonal is the 0.5 per tied pair.")
GAUC_HEADER = N_("GAUC: AUC within each user")
GAUC_UNDEFINED = N_("GAUC is undefined: no user has both a click and a non-click, so there is no per-user AUC to "
                    "average.")
WEIGHT_RADIO = N_("Weight of each user's AUC")
POOLED_VS_GAUC = N_(
    "Pooled AUC also compares one user's click with **another** user's non-click, so a model that simply "
    "scores active users higher looks good. GAUC only compares impressions of the same user, which is what a "
    "personalised ranking has to get right.")

# Why AUC is undefined for labels of one class (metrics.classification_metrics.single_class_reason).
ONLY_POSITIVE = N_("AUC is undefined: every label is positive (1), so there is no negative sample to compare "
                   "against (no positive/negative pair).")
ONLY_NEGATIVE = N_("AUC is undefined: every label is negative (0), so there is no positive sample to compare "
                   "against (no positive/negative pair).")


# The same reason in the per-user table, under "skipped because": the note above the table gives the whole
# sentence, which no column of a phone or projector is wide enough for.
ONLY_CLICKS = N_("clicks only")
NO_CLICKS = N_("no click")


def single_class(all_positive: bool) -> str:
    return _(ONLY_POSITIVE if all_positive else ONLY_NEGATIVE)


def single_class_short(all_positive: bool) -> str:
    return _(ONLY_CLICKS if all_positive else NO_CLICKS)


def add_other_label(reason: str) -> str:
    return _("{reason} Add a row with the other label to get an AUC.").format(reason=reason)


def gauc_card(weight: str) -> str:
    return _("GAUC, {weight}").format(weight=_(WEIGHTS[weight]))


def pairs(counts: dict) -> str:
    return _(
        "Of the {positives} × {negatives} positive/negative pairs, **{higher}** have the positive higher "
        "(credit 1), **{tied}** are tied (credit 0.5) and **{lower}** have the positive lower (credit 0)."
    ).format(**{key: numbers.integer(counts[key]) for key in ("positives", "negatives", "higher", "tied", "lower")})


def skipped(count: int) -> str:
    return ngettext(
        "**{count} user skipped**, because AUC needs both a click and a non-click from the same user:",
        "**{count} users skipped**, because AUC needs both a click and a non-click from the same user:",
        count).format(count=numbers.integer(count))


PITFALLS = (
    N_("**Ties.** scikit-learn's `roc_auc_score` counts a tied positive/negative pair as 0.5; the offline-evaluation "
       "article's hand-written loop and cornac use a strict `>` and count it 0. Scores rounded to a few digits "
       "create many ties."),
    N_("**GAUC weights.** The DIN paper (Zhou et al., KDD 2018, eq. 10) weights each user's AUC by impressions; "
       "DIN's released code takes a plain mean; RecBole weights by clicks; cornac and torchmetrics use a plain mean. "
       "Say which one you report."),
    N_("**The offline-evaluation article calls its per-user mean \"AUC\".** A mean of per-user AUCs is GAUC with "
       "uniform weights, not AUC."),
    N_("**Users with one class.** Their AUC is undefined and they are dropped almost everywhere. scikit-learn 1.9 "
       "returns nan with a warning for them, so the offline-evaluation article's `np.mean(auc_list)` becomes nan as "
       "soon as one such user appears; this page skips them and says who."),
)
