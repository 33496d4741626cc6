"""The words of the random and perfect baselines page (pages/13_Random_baselines.py)."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

TITLE = N_("Random and perfect baselines")
SUBHEADER = N_("Your list against chance")
EMPTY = N_("The recommended list is empty: there is nothing to put in a random order. Add an item to the list.")
CHANCE_CORRECTED = N_("chance-corrected")  # in the formula and the table
VALUE = N_("value")
RANDOM = N_("random")
PERFECT = N_("perfect")
COLUMNS = {"metric": N_("metric"), "value": N_("your list"), "expected": N_("E[random] (exact)"),
           "perfect": N_("perfect order"), "beats": N_("beats (share)"), "chance_corrected": N_("chance-corrected")}
PITFALLS = (
    N_("A random ranker is not a zero baseline: with 3 relevant items among 10 and K = 10, every order has "
       "Precision@10 = 0.3, so that number says nothing about the ordering at all."),
    N_("The perfect score can be below 1: a relevant item that was never recommended caps Recall and NDCG."),
    N_("The chance-corrected score is undefined when the perfect order scores no better than chance "
       "(for example when every item is relevant)."),
)


def idea(orderings: int) -> str:
    return _("Is 0.35 good? It depends on what a **random** order of the same items would score and what the "
             "**best** order could score. Here your recommended list is compared with {orderings} random orderings "
             "of its own items: where it falls in their histogram, the exact expected random score, the perfect "
             "score and the chance-corrected score (0 = no better than chance, 1 = perfect).").format(
        orderings=numbers.integer(orderings))


def cards_caption(orderings: int) -> str:
    return _("Under each score: the share of the {orderings} random orderings of your items it beats (ties "
             "count half). Green: above chance; grey: at chance; red: below.").format(
        orderings=numbers.integer(orderings))


def card_help(expected: float, perfect: float, corrected: float, meaning: str) -> str:
    return _("E[random] = {expected}, perfect = {perfect}, chance-corrected = {corrected}. {meaning}").format(
        expected=numbers.number(expected, 4), perfect=numbers.number(perfect, 4),
        corrected=numbers.number(corrected, 2), meaning=meaning)


def best_beats(share: float, label: str) -> str:
    return _("Your list beats **{share}** of random orderings on {metric}; ties count half, so a score every "
             "ordering shares sits at {half}.").format(share=numbers.percent(share), metric=label,
                                                       half=numbers.percent(0.5))


def table_caption(orderings: int, n: int) -> str:
    return _("A dash in chance-corrected means undefined: the perfect order scores no better than chance. "
             "{orderings} random orderings of the {n} recommended items, random seed 0. The expectation is exact "
             "(closed forms, see metrics/baselines.py), not the histogram's mean.").format(
        orderings=numbers.integer(orderings), n=numbers.integer(n))
