"""The words of the sensitivity explorer (pages/12_Sensitivity_explorer.py)."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

TITLE = N_("Sensitivity explorer: one item through every rank")
IDEA = N_("A list of **N** items with one relevant item, **★**. Move it through every rank, or grow K, and see the "
          "shape of each metric: NDCG falls as 1/log₂(i+1), RR as 1/i, P@K and HR@K stay flat inside the top K "
          "and drop to 0 the moment the item leaves it. Press **Next ▶**, switch on **Auto-play**, or press ▶ Play "
          "under the chart to walk through.")
MODES = {"rank": N_("Move the relevant item through every rank"), "k": N_("Grow K from 1 to N")}
WHAT_MOVES = N_("What moves")
ITEMS_N = N_("Items N")
MISSING = N_("Relevant but never recommended")
MISSING_HELP = N_("More relevant items that are in neither list: they cap Recall and NDCG below 1.")
RANK_OF_STAR = N_("Rank of ★")
K_CUT_OFF = N_("K (cut-off)")
BACK = N_("◀ Back")
NEXT = N_("Next ▶")
AUTO_PLAY = N_("Auto-play")
AUTO_PLAY_HELP = N_("Advance one step a second; the cards and formulas follow.")
FORMULAS = N_("Formulas")
WITH_YOUR_NUMBERS = N_("With your numbers")
FIRST_HIT = N_("first hit")  # in RR = 1 / rank of the first hit
CHART_CAPTION = N_("The big markers follow the step; ▶ Play on the chart animates them through every step "
                   "(the cards and formulas follow the slider and the step buttons).")
PITFALLS = (
    N_("With one relevant item, HR@K and Recall@K are the same number, and P@K is HR@K divided by K."),
    N_("AP@K with one relevant item equals RR cut off at K: both are 1/rank inside the top K."),
    N_("RR has no cut-off here (as trec_eval): it keeps falling as 1/i past K, where the @K metrics are already 0."),
)


def heading(rank: int, k: int) -> str:
    return _("★ at rank {rank}, K = {k}").format(rank=numbers.integer(rank), k=numbers.integer(k))


def chart_title(mode: str, rank: int, k: int) -> str:
    if mode == "rank":
        return _("Each metric as ★ moves down the list (K = {k})").format(k=numbers.integer(k))
    return _("Each metric as K grows (★ at rank {rank})").format(rank=numbers.integer(rank))
