"""The words of the Precision, Recall, HR and F1 @K page (pages/2_Precision_Recall_HR_F1.py)."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _, ngettext, pgettext

TITLE = N_("Precision, Recall, HR and F1 @K")
IDEA = N_(
    "Look only at the first **K** recommendations and count the **hits** (relevant items). "
    "**Precision@K** divides the hits by K, **Recall@K** by the number of relevant items (even those "
    "never recommended), **F1@K** balances the two, and **HR@K** asks only whether there is any hit at all. "
    "None of them cares *where* in the top K a hit sits: move a hit within the top K and nothing changes.")

RESULT = N_("**Result**")
FORMULAS_WITH_NUMBERS = N_("The formulas with your numbers")
NO_RELEVANT = N_("The ground truth has no relevant item (grade > 0): Recall@K is 0 by the NumPy tutorial's convention "
                 "(trec_eval also scores such a user 0), and so are Precision, F1 and HR.")
EMPTY_LIST = N_("The recommended list is empty, so there is no top-K window or curve to draw. Add an item to the list.")
WINDOW = N_("The top-K window")
AS_K_GROWS = N_("Each metric as K grows")
AS_K_GROWS_CAPTION = N_("Precision falls as K grows past the last hit; Recall and HR can only rise.")

PITFALLS = (
    N_("**Lists shorter than K.** Precision@K here divides by K even when the list has fewer items "
       "(empty slots are misses), as trec_eval, ranx and the NumPy tutorial do. Evidently and torchmetrics "
       "(`adaptive_k=True`) divide by min(K, list length) instead, so a 3-item list with 3 hits scores "
       "1.0 there and 0.3 here at K = 10."),
    N_("**Recall counts what was never recommended.** A relevant item absent from the list (the NumPy tutorial's 999) "
       "stays in the denominator. A library that only sees the recommended rows (Evidently, scikit-learn "
       "on the list) reports Recall@10 = 1.0 instead of 0.75 for the NumPy tutorial's example."),
    N_("**F1 over many users.** F1 of the mean P and mean R (Evidently) is not the mean of each user's F1 "
       "(ranx, RecTools, cornac); the two differ whenever users differ."),
    N_("**Hit rate.** HR@K of one user is 0 or 1; averaged over users it is the share of users with at least one "
       "hit. The offline-evaluation article's text calls 3 hits among 10 recommendations a hit rate of 0.3, which "
       "is Precision@10; its own code scores a user 1 if any item hits."),
    N_("**Order inside the top K is ignored** by all four metrics: use AP, RR or NDCG when the position of a hit "
       "matters."),
)


def counts(hits: int, k: int, relevant: int, recommended: int) -> str:
    """'3 hits in the top 10; 4 relevant items in the ground truth; 10 items recommended.'"""
    hits_text = ngettext("{n} hit in the top {k}", "{n} hits in the top {k}", hits).format(
        n=numbers.integer(hits), k=numbers.integer(k))
    relevant_text = ngettext("{n} relevant item in the ground truth", "{n} relevant items in the ground truth",
                             relevant).format(n=numbers.integer(relevant))
    recommended_text = ngettext("{n} item recommended", "{n} items recommended", recommended).format(
        n=numbers.integer(recommended))
    # TRANSLATORS: three counts, each already a phrase: "3 hits in the top 10", "4 relevant items in ...".
    return _("{hits}; {relevant}; {recommended}.").format(hits=hits_text, relevant=relevant_text,
                                                          recommended=recommended_text)


def never_recommended(items: list[str], k: int) -> str:
    """The relevant items the list never recommends (each already quoted Markdown)."""
    return _("Relevant but never recommended: {items}. They still count in the Recall@{k} denominator, "
             "so Recall@{k} cannot reach 1 however large K gets.").format(items=listing(items), k=k)


def listing(items) -> str:
    """Names one after the other, with the language's list separator."""
    # TRANSLATORS: the separator between the names of a list ("'999', '998'"); Chinese writes "、".
    return pgettext("list separator", ", ").join(items)
