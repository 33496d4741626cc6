"""The words of the RR and MRR page (pages/4_RR_and_MRR.py)."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

TITLE = N_("RR and MRR")
IDEA = N_(
    "**Reciprocal rank** looks only at the **first** relevant item: RR = 1 / its rank, so a first hit at "
    "rank 1 scores 1, at rank 2 scores 0.5, at rank 4 scores 0.25, and no hit at all scores 0. Later hits "
    "do not count. **MRR** is the mean of RR over users: it suits tasks where the user needs one good answer.")

RESULT = N_("**Result**")
RR_AT_K_HELP = N_("Like RR, but 0 when the first hit is below rank K (ranx mrr@k). Shown for comparison.")
FORMULA_WITH_NUMBERS = N_("The formula with your numbers")
NO_HIT = N_("No relevant item anywhere in the recommended list, so RR is 0.")
STEP_BY_STEP = N_("Step by step")
EMPTY_LIST = N_("The recommended list is empty, so there is no first hit: RR is 0. Add an item to the list.")
FIRST_HIT = N_("first hit")
MRR_HEADING = N_("MRR: the mean over users")
USERS_HOWTO = N_("One user per row; type the lists as comma-separated item ids.")
NO_USER = N_("No usable user in the table, so there is no MRR to compute. Add a row with a recommended list.")
FIRST_HIT_AT = N_("first hit at rank")

PITFALLS = (
    N_("**RR has no cut-off** here, as in the NumPy tutorial and trec_eval `recip_rank`: a first hit at rank 15 still "
       "scores 1/15. ranx `mrr@k` (and many evaluation scripts' MRR@K) score 0 when the first hit is below K, so the "
       "same run can give two MRRs. Say which one you report."),
    N_("**Only the first hit counts.** A list with hits at ranks 1, 2 and 3 has the same RR as one with a hit only "
       "at rank 1; use AP or NDCG when later hits matter."),
    N_("**Small differences at the top are huge.** Moving the first hit from rank 1 to 2 halves RR, while moving "
       "it from 10 to 20 changes it by 0.05: MRR is dominated by the users with an early hit."),
    N_("**Users with no relevant item** count 0 here (trec_eval, ranx); some libraries skip them, which raises MRR."),
)


def rr_at_k_card(k: int) -> str:
    return _("RR@{k} (ranx-style cut-off)").format(k=k)


def first_hit(item: str, rank: int, k: int) -> str:
    """``item`` is already Markdown-escaped."""
    return _("First hit: item **{item}** at rank **{rank}**. RR ignores K: the K slider changes only the "
             "RR@{k} card.").format(item=item, rank=numbers.integer(rank), k=k)


def below_k(rank: int, k: int) -> str:
    return _("The first hit (rank {rank}) is below K = {k}: RR (no cut-off, as in the NumPy tutorial and "
             "trec_eval recip_rank) still counts it, but ranx's mrr@{k} scores this user 0.").format(rank=numbers.integer(rank), k=k)


def per_user_title(metric: str) -> str:
    return _("{metric} per user").format(metric=metric)
