"""The home page (the playground): its title, idea, headings and pitfalls."""

from __future__ import annotations

from content.i18n import N_

TITLE = N_("RecEval Lab: the playground")
IDEA = N_("Edit the recommended list, the relevant items and their grades, or K, and watch every ranking "
          "metric move. Each card shows the change since your last edit. The pages in the sidebar explain "
          "one metric family each, step by step.")
EVERY_METRIC = N_("**Every ranking metric at once**")
GRADED_NDCG = N_("**How the graded NDCG card is computed** (the NDCG page explains every step)")
EMPTY_LIST = N_("The recommended list is empty, so there is no list or curve to draw: add an item to the "
                "recommended list (rank and item id).")
PITFALLS = (
    N_("The same list gives six different numbers: each answers a different question "
       "(how many hits, how early, how well ordered)."),
    N_("Recall@K and NDCG@K count relevant items that were never recommended (like the NumPy tutorial's 999); "
       "libraries that only see the recommended rows (scikit-learn, torchmetrics) score higher."),
    N_("RR has no cut-off here, as in the NumPy tutorial and trec_eval: a first hit below K still counts."),
)
