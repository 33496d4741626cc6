"""The words of the AP and MAP page (pages/3_AP_and_MAP.py)."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

TITLE = N_("AP and MAP")
IDEA = N_(
    "**Average precision** walks down the top K and, at every hit, notes the precision so far "
    "(hits so far ÷ rank). AP@K adds these up and divides by a denominator D, so a hit at rank 1 "
    "is worth more than one at rank 7. **MAP@K** is the mean of AP@K over users. Libraries disagree on D: "
    "pick one below and compare all three.")

# How each AP denominator is written on the cards and in the table (the keys are ui.scenario's).
DENOMINATOR_NAMES = {"min": N_("min(|Rel|, K)"), "relevant": N_("|Rel|"), "hits": N_("hits in top K")}
# Who divides so (the second half of each denominator's option).
USED_BY = {
    "min": N_("the NumPy tutorial, Recommenders map_at_k, RecBole"),
    "relevant": N_("trec_eval map_cut, ranx"),
    "hits": N_("torchmetrics"),
}

RESULT = N_("**Result**")
FORMULA_WITH_NUMBERS = N_("The formula with your numbers")
SUM_OF_PRECISIONS = N_("sum of precision@i at hits")
DENOMINATOR = N_("denominator")
USED_BY_HEADER = N_("used by")
CHOSEN = N_("your choice")
HITS_DENOMINATOR = N_("Dividing by the hits ignores the relevant items that were missed: a list with one hit at rank 1 "
                      "scores 1.0 however many relevant items it missed.")
STEP_BY_STEP = N_("Step by step")
EMPTY_LIST = N_("The recommended list is empty, so there is no rank to walk through: AP@K is 0.")
USERS_HOWTO = N_("One user per row; type the lists as comma-separated item ids. K and the denominator above apply.")
NO_USER = N_("No usable user in the table, so there is no MAP to compute. Add a row with a recommended list.")
FIRST_HIT_AT = N_("first hit at rank")

PITFALLS = (
    N_("**Three denominators, three answers.** min(|Rel|, K) (the NumPy tutorial, Recommenders `map_at_k`, RecBole), "
       "|Rel| (trec_eval `map_cut`, ranx `map@k`, Recommenders `map`) and hits in the top K (torchmetrics). With a "
       "relevant item never recommended (the NumPy tutorial's 999) they give 0.2771, 0.2771 and 0.3694. RecTools can "
       "also divide by K. Users keep reporting this as a bug: Recommenders issues #1702 and #2309."),
    N_("**No cut-off.** scikit-learn `average_precision_score` and cornac score the whole ranking, not the top K "
       "(0.3680 on the 999 example)."),
    N_("**Which users count in MAP.** Here (and in trec_eval, ranx, torchmetrics) a user with no relevant item counts "
       "0; Evidently and cornac skip such users, and Recommenders averages only users present in both truth and "
       "predictions."),
    N_("**AP needs the order**; Precision@K does not: moving a hit from rank 7 to rank 2 raises AP but leaves P@K "
       "unchanged."),
)


def denominator_name(key: str) -> str:
    return _(DENOMINATOR_NAMES[key])


def chosen_denominator(key: str, divide_by: int) -> str:
    return _("The registry formula shows the NumPy tutorial's D = min(|Rel|, K); the line with your numbers uses "
             "the denominator chosen above: D = {denominator} = {value}.").format(
        denominator=denominator_name(key), value=numbers.integer(divide_by))


def each_denominator(k: int) -> str:
    return _("**The same list under each denominator** (AP@{k})").format(k=k)


def denominator_card(key: str, divide_by: int) -> str:
    """A card's label: '÷ min(|Rel|, K) = 3'."""
    return _("÷ {denominator} = {value}").format(denominator=denominator_name(key), value=numbers.integer(divide_by))


def contributions_title(k: int) -> str:
    return _("Precision@i at each hit (green bars add up to the AP@{k} numerator)").format(k=k)


def map_heading(k: int) -> str:
    return _("MAP@{k}: the mean over users").format(k=k)


def per_user_title(metric: str) -> str:
    """'AP@10 per user'."""
    return _("{metric} per user").format(metric=metric)
