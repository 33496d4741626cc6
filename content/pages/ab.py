"""The words of the A vs B page (pages/11_A_vs_B.py); the presets are in content/labs.py."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

TITLE = N_("A vs B: what one move does")
IDEA = N_("List **A** is fixed; list **B** starts as a copy. Move items in B (type a new rank in the table, or "
          "use the buttons) and every metric is shown for B with its difference from A. Each preset below is a "
          "one-click lesson that states the number it shows.")
PRESETS = N_("**Presets**")
LIST_B = N_("**List B**: type a new rank")
RELEVANT = N_("**Relevant items** (grades, for A and B)")
PICK_AND_MOVE = N_("**…or pick an item of B and move it**")
K = N_("K (cut-off)")
RESET = N_("↺ Reset B to A")
FROM_PLAYGROUND = N_("⤵ From the playground")
FROM_PLAYGROUND_HELP = N_("Take list A, the relevant items and K from the playground's scenario; B becomes a copy of A.")
CARDS = N_("**Every metric for B, and its difference from A**")
METRIC = N_("metric")  # in the formula Δ = metric(B) − metric(A) and the table's first header
PITFALLS = (
    N_("A difference of 0 does not mean the lists are equally good: P@K, R@K and HR@K cannot see order inside "
       "the top K, and RR cannot see anything after the first hit."),
    N_("NDCG's discount is steep at the top: a swap among the first ranks moves it far more than the same swap "
       "lower down."),
    N_("Items of B that are not in A are scored as in any list: a relevant one can only help B."),
)

# The move controls (ui/controllers/ab_lab.py)
ITEM_TO_MOVE = N_("Item to move in B")
UP = N_("⬆ Up")
DOWN = N_("⬇ Down")
MOVE_TO_RANK = N_("Move to rank")
MOVE = N_("Move")
SWAP_WITH = N_("Swap with")
SWAP = N_("Swap")


def preset_banner(title: str, text: str) -> str:
    return _("**{title}.** {text}").format(title=title, text=text)


def ranked_item(rank: int, item: str) -> str:
    """An item of B in the move controls, with its rank."""
    return _("rank {rank}: {item}").format(rank=numbers.integer(rank), item=item)


def delta(difference: float) -> str:
    """A card's difference from list A."""
    # TRANSLATORS: keep {difference} first: the card colours the change by its leading sign.
    return _("{difference} vs A").format(difference=numbers.number(difference, 4, sign=True))


def card_help(a_value: float, meaning: str) -> str:
    return _("A: {value}. {meaning}").format(value=numbers.number(a_value, 4), meaning=meaning)


def graded_item(item: str, grade: float) -> str:
    return _("{item} (grade {grade})").format(item=item, grade=numbers.general(grade))


def truth_caption(relevant: list[str]) -> str:
    """The chart's caption: the relevant items (already written with their grades), and how to read it."""
    if not relevant:
        return _("Relevant items: none. List A (fixed) is the left column, B the right one.")
    return _("Relevant items: {items}. List A (fixed) is the left column, B the right one.").format(
        items=_(", ").join(relevant))
