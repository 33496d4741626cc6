"""The words of the sampled negatives page (pages/14_Sampled_negatives.py)."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

TITLE = N_("Sampled negatives: a pitfall")
IDEA = N_("Many papers rank each user's held-out item among **n = 100 sampled negatives** instead of the whole "
          "catalogue. On a synthetic catalogue, model **A** (*hit or miss*: the item at the very top for some users, "
          "anywhere for the rest) beats model **B** (*always close*: the item in the top few percent, rarely the "
          "top 10) on the full ranking. Sample negatives and both scores inflate — and B overtakes A "
          "(Krichene & Rendle, *On Sampled Metrics for Item Recommendation*, KDD 2020).")
CATALOGUE = N_("Catalogue size N (items)")
USERS = N_("Users")
SEED = N_("Random seed")
A_HIT = N_("Model A: share of users it nails (top 0.05%)")
B_SPREAD = N_("Model B: share of the catalogue above it, at most")
A_REST = N_("Model A puts the rest anywhere in the catalogue (uniformly).")
SIMULATE = N_("Simulate")
NEGATIVES = N_("Sampled negatives n per user (the last step is the whole catalogue)")
SAMPLED = N_("sampled")  # in the formula: the rank among the sampled negatives
CHART_CAPTION = N_("The rank of each held-out item under each model is simulated once; every n draws its own sample "
                   "of negatives from the same catalogue. With n = N − 1 every negative is drawn, which is the full "
                   "ranking.")
PITFALLS = (
    N_("A sampled metric is not a smaller copy of the full one: with 100 negatives, an item at rank 200 of "
       "10,000 lands around rank 3, so a model that is *always close* looks perfect."),
    N_("Comparing two models with sampled metrics can give the opposite order from the full ranking; "
       "Krichene & Rendle recommend full ranking, or a correction of the sampled metric."),
    N_("Numbers from papers that use different n (50, 100, 1000) cannot be compared with each other."),
)


def heading(k: int, items: int, n: int) -> str:
    return _("HR@{k} and NDCG@{k}: full catalogue of {items} items vs {n} sampled negatives").format(
        k=k, items=numbers.integer(items), n=n)


def card_label(metric: str, model: str, full: bool, n: int) -> str:
    if full:
        return _("{metric} {model}, full").format(metric=metric, model=model)
    return _("{metric} {model}, n={n}").format(metric=metric, model=model, n=n)


def card_help(model: str, full: bool, n: int) -> str:
    if full:
        return _("Model {model}, ranked against the whole catalogue.").format(model=model)
    return _("Model {model}, ranked among {n} sampled negatives.").format(model=model, n=n)


def flips(metric: str, full: str, sampled: str, n: int) -> str:
    return _("**{metric} flips:** model {full} wins on the full catalogue, model {sampled} wins with {n} sampled "
             "negatives.").format(metric=metric, full=full, sampled=sampled, n=n)


def same_winner(metric: str, winner: str, n: int) -> str:
    return _("**{metric}:** the same winner ({winner}) on the full catalogue and with {n} sampled negatives.").format(
        metric=metric, winner=winner, n=n)
