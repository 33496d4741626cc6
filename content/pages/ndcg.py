"""The words of the NDCG page (pages/5_NDCG.py)."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _, pgettext

TITLE = N_("NDCG")
IDEA = N_(
    "NDCG asks how close your list's order is to the best possible order. Each relevant item earns a "
    "**gain** (its grade), shrunk by a **discount** 1/log2(i+1) that grows with its rank i; the sum is DCG. "
    "Dividing by the DCG of the ideal order (IDCG) puts the score between 0 and 1.")
SKLEARN_EXAMPLE_BELOW = N_("⬇️ This example is in the section *Score-based NDCG with ties* further down.")

GAIN_TEXT = {"linear": N_("linear gain: rel"), "exponential": N_("exponential gain: 2^rel − 1")}
OTHER_GAIN_CARD = {"linear": N_("NDCG@{k} (graded, linear gain)"),
                   "exponential": N_("NDCG@{k} (graded, exponential gain)")}

# The DCG tables of the list and of the ideal ordering.
RANK_HELP = N_("Rank")
ITEM = N_("item")
REL_HELP = N_("Relevance grade")
GAIN = N_("gain")
DISCOUNT_HELP = N_("Discount of rank i")
CONTRIBUTION_SHORT = N_("gain × disc.")
CONTRIBUTION_HELP = N_("Contribution to DCG")
DCG_SO_FAR = N_("DCG so far")
DCG_SO_FAR_HELP = N_("Running DCG")

# The editor of the score-based section.
SCORE_ITEM = N_("Item")
TRUE_RELEVANCE = N_("True relevance")
TRUE_RELEVANCE_HELP = N_("Grade >= 0.")
SCORE = N_("Score")
SCORE_HELP = N_("The model's score; higher is ranked first.")
# TRANSLATORS: the name of the scores table in the messages about rows left out ("Scores table, row 2: ...").
SCORES_TABLE = N_("Scores table")

# The table of tie groups.
RELEVANCE = N_("relevance")
SCORE_LOWER = N_("score")
TIE_GROUP = N_("tie group")
POSITIONS = N_("positions spanned")
GROUP_SIZE = N_("items in group")
AVERAGED_GAIN = N_("averaged gain")
SUMMED_DISCOUNT = N_("summed discount")
CONTRIBUTION = N_("contribution")

CARDS_HEADING = N_("**Binary vs graded, linear vs exponential gain**")
FORMULA_WITH_NUMBERS = N_("The formula with your numbers")
GRADE = N_("grade")
EXPONENTIAL_VS_LINEAR = N_("Exponential gain makes a top grade worth far more than the next one down: 2^5 − 1 = 31 vs "
                           "2^4 − 1 = 15, while linear gain gives 5 vs 4.")
BOTH_EMPTY = N_("Both lists are empty, so there is no DCG to draw: add items to the recommended list and give "
                "at least one item of the ground truth a grade above 0.")
YOUR_LIST = N_("**Your list**")
LIST_EMPTY = N_("The recommended list is empty: add an item (rank and id) to give it a DCG.")
IDEAL_ORDERING = N_("**Ideal ordering** (every graded item of the ground truth, best first)")
TRUTH_EMPTY = N_("The ground truth is empty: add a relevant item with a grade above 0.")
ALL_RECOMMENDED = N_("The ideal ordering uses every relevant item of the ground truth, recommended or not; here "
                     "every relevant item is somewhere in your list.")
NO_GRADE = N_("No item of the ground truth has a grade above 0, so IDCG is 0 and NDCG is scored 0: give an "
              "item a grade above 0.")

WHICH_IDEAL = N_("Which items form the ideal?")
WHICH_IDEAL_CAPTION = N_("trec_eval, ranx and this app build the ideal from every judged item; libraries that only see "
                         "the items you pass them cannot know about a relevant item you never recommended, and "
                         "score higher.")
LIST_ONLY_HELP = N_("What scikit-learn, torchmetrics and Evidently report when given only the recommended items.")
LIST_ONLY_HELP_EXPONENTIAL = N_("What scikit-learn, torchmetrics and Evidently report when given only the recommended "
                                "items (with linear gain: they have no exponential gain).")
LIST_ONLY_HELPS = {"linear": LIST_ONLY_HELP, "exponential": LIST_ONLY_HELP_EXPONENTIAL}

TIES_HEADING = N_("Score-based NDCG with ties (scikit-learn's `ndcg_score`)")
TIES_TEXT = N_(
    "scikit-learn takes each item's true relevance and a predicted score, ranks by score, and compares with "
    "the order by true relevance. When two items have **the same score** their order is undecided: "
    "scikit-learn averages over both orders, so the tied items share the gains of the positions they span.")
NO_SCORE_ROWS = N_("No usable rows in the scores table: add an item with a relevance ≥ 0 and a numeric score.")
TIES_AVERAGED_SKLEARN = N_("Ties averaged (scikit-learn)")
TIES_AVERAGED_EXPONENTIAL = N_("Ties averaged (exponential gain)")
SKLEARN_LINEAR_ONLY = N_("scikit-learn ndcg_score (linear gain only)")
IN_FAVOUR = N_("Tie broken in favour")
AGAINST = N_("Tie broken against")
INPUT_ORDER = N_("Input order kept (ranx)")
TIES_AVERAGED_EXPONENTIAL_HELP = N_("scikit-learn's averaging of tied items, with the selected exponential gain.")
SKLEARN_LINEAR_ONLY_HELP = N_("What sklearn.metrics.ndcg_score returns on this table: it has no exponential gain.")
IN_FAVOUR_HELP = N_("Tied items ordered most relevant first.")
AGAINST_HELP = N_("Tied items ordered least relevant first.")
INPUT_ORDER_HELP = N_("Tied items in the order of the table, as ranx (ndcg, or ndcg_burges for exponential gain) "
                      "and Recommenders do.")
TIE_CARD_HELP = {TIES_AVERAGED_EXPONENTIAL: TIES_AVERAGED_EXPONENTIAL_HELP,
                 SKLEARN_LINEAR_ONLY: SKLEARN_LINEAR_ONLY_HELP, IN_FAVOUR: IN_FAVOUR_HELP, AGAINST: AGAINST_HELP,
                 INPUT_ORDER: INPUT_ORDER_HELP}
# TRANSLATORS: words inside a KaTeX formula (\text{...}): keep them short.
TIE_AVERAGED_DCG = N_("tie-averaged DCG")
NO_TIES = N_("No two items share a score, so every way of breaking ties gives the same NDCG.")
TIES_RANGE = N_("Ignoring ties means picking one order: the two tie-broken cards are the lowest and highest "
                "NDCG any such choice can give; scikit-learn's average lies between them.")


def gain_text(gain: str) -> str:
    return _(GAIN_TEXT[gain])


def other_gain_card(gain: str, k: int) -> str:
    """The third card's label: NDCG@K with ``gain``."""
    return _(OTHER_GAIN_CARD[gain]).format(k=k)


def graded_help(gain: str) -> str:
    return _("The grades as typed, with the selected {gain}.").format(gain=gain_text(gain))


def cards_caption(gain: str) -> str:
    return _("The graded card uses the selected **{gain}**; the third card the other gain. Binary "
             "grades give the same NDCG under both gains, because 2^1 − 1 = 1: the binary card stands for both."
             ).format(gain=gain_text(gain))


def dcg_heading(k: int) -> str:
    return _("DCG@{k} of your list next to the ideal ordering").format(k=k)


def missing_from_list(items: list[str]) -> str:
    """``items`` are already quoted Markdown."""
    return _("The ideal ordering uses **every** relevant item of the ground truth, including {items}, which your "
             "list never recommends (like the NumPy tutorial's 999). Such an item raises IDCG but can never add to "
             "DCG, so even a perfect order of what you recommended stays below 1.").format(items=listing(items))


def ideal_from_truth_card(k: int) -> str:
    return _("NDCG@{k}, ideal from the whole ground truth").format(k=k)


def ideal_from_list_card(k: int) -> str:
    return _("NDCG@{k}, ideal from your list only").format(k=k)


def list_only_help(gain: str) -> str:
    """The help of the card whose ideal is built from the list's items only."""
    return _(LIST_ONLY_HELPS[gain])


def positions_caption(n: int, gain: str) -> str:
    return _("NDCG over all {n} positions with the selected {gain}.").format(n=numbers.integer(n), gain=gain_text(gain))


def tie_latex(dcg: float, idcg: float, ndcg: float) -> str:
    """The tie-averaged NDCG as KaTeX, its numbers in the reader's notation."""
    words = _(TIE_AVERAGED_DCG).replace("\\", "").replace("{", "").replace("}", "")
    return (rf"\mathrm{{NDCG}}=\frac{{\text{{{words}}}}}{{\mathrm{{IDCG}}}}"
            rf"=\frac{{{numbers.latex(dcg, 4)}}}{{{numbers.latex(idcg, 4)}}}={numbers.latex(ndcg, 4)}")


def shown(value: float) -> str:
    """A gain as a learner writes it: whole numbers plain, others with 4 decimals."""
    return numbers.integer(value) if float(value).is_integer() else numbers.number(value, 4)


def tie_group(items: list[str], score: float, positions: str, gains: list[float], size: int, averaged: float,
              discount: float) -> str:
    """One tie group explained (``items`` already quoted Markdown)."""
    return _("Items {items} tie at score {score}, so they span positions {positions}. Each of those positions "
             "gets their averaged gain ({gains})/{size} = {averaged}, and the group adds {averaged} × {discount} "
             "(the summed discount) to DCG. The *contribution* column splits that among the items by their own "
             "gain.").format(items=listing(items), score=numbers.general(score), positions=positions,
                             gains=" + ".join(shown(g) for g in gains), size=numbers.integer(size),
                             averaged=shown(averaged), discount=numbers.number(discount, 4))


def pitfalls(from_list: float, from_truth: float, binary: float) -> tuple[str, ...]:
    """The pitfalls, with the NumPy tutorial's examples computed (``from_list``/``from_truth``: its graded
    example with the ideal from the list or from the whole ground truth; ``binary``: its binary example)."""
    return (
        _("**Which items form the ideal.** trec_eval, ranx and this app build IDCG from every relevant item of the "
          "ground truth. scikit-learn, torchmetrics and Evidently only see the items passed in, so a relevant item "
          "never recommended disappears from the ideal: the NumPy tutorial's graded example gives "
          "{from_list} there instead of {from_truth}. RecBole and cornac use min(|Rel|, K) binary "
          "slots; RecTools assumes K relevant slots.").format(from_list=numbers.number(from_list, 4),
                                                              from_truth=numbers.number(from_truth, 4)),
        _("**Linear vs exponential gain.** The NumPy tutorial, trec_eval, scikit-learn, torchmetrics and ranx `ndcg` "
          "use gain = rel; the offline-evaluation article's formula, ranx `ndcg_burges` and Recommenders "
          "`score_type=\"exp\"` use 2^rel − 1. The two agree for binary grades only. RecBole, cornac and RecTools "
          "ignore grades altogether."),
        _("**Ties.** scikit-learn (default) and torchmetrics average tied items; trec_eval breaks ties by document "
          "id, descending (renaming items changes the score); ranx and Recommenders keep the input order; Evidently "
          "gives all tied items the better rank. scikit-learn's `ignore_ties=True` picks one order."),
        _("**The NumPy tutorial prints NDCG@10 = {printed}, which is wrong.** Its own example gives "
          "DCG = 1 + 1/log2(5) + 1/log2(8) = {dcg} and IDCG = 1 + 1/log2(3) + 1/log2(4) = {idcg}, so "
          "NDCG@10 = {ndcg}. Its float32 arithmetic only changes the 7th digit.").format(
            printed=numbers.number(0.8290, 4), dcg=numbers.number(1.7640, 4), idcg=numbers.number(2.1309, 4),
            ndcg=numbers.number(binary, 4)),
        _("NDCG with no relevant item in the ground truth is 0/0; this app, the NumPy tutorial and trec_eval score "
          "it 0."),
    )


def listing(items) -> str:
    """Names one after the other, with the language's list separator."""
    # TRANSLATORS: the separator between the names of a list ("'999', '998'"); Chinese writes "、".
    return pgettext("list separator", ", ").join(items)
