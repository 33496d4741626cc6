"""Words of the Compare two models page: pages/18_Compare_two_models.py arranges them."""

from __future__ import annotations

from content import numbers, text
from content.i18n import N_, _, ngettext

TITLE = N_("Compare two models")
BEYOND_ROWS = {  # the rows of whole_logs.beyond_accuracy.side_by_side
    "catalog_coverage": N_("catalogue coverage@{k}"), "gini_index": N_("Gini index of exposure@{k}"),
    "average_popularity": N_("average popularity (ARP)@{k}"), "novelty": N_("novelty@{k} (bits)"),
    "personalization": N_("personalisation@{k}"), "intra_list_diversity": N_("intra-list diversity@{k}"),
}
INTRO = N_(
    "\"Model B has NDCG@10 0.312, model A 0.305\" starts most arguments about recommenders. Whether B is "
    "really better depends on how much the difference varies from user to user. Here both models are scored "
    "on the **same users**, and each user's difference B − A is what is tested: its mean, an interval for it, "
    "a p-value corrected for the number of metrics compared, and an effect size."
)
SIMULATING = N_("Simulating the users of the experiment ...")
COMPARING = N_("Comparing the two models ...")
DATA = N_("Data")
SYNTHETIC = "A synthetic pair with a known true difference"  # the source's key: the page tests it
LAB = "From the protocol lab"  # the source's key, offered once the protocol lab has handed a pair over
SOURCES = {SYNTHETIC: N_("A synthetic pair with a known true difference"), "My own files": N_("My own files"),
           LAB: N_("From the protocol lab")}
TRUE_DIFFERENCE = N_("True difference in NDCG@10 (B − A) over the population")
USERS_IN_EXPERIMENT = N_("Users in the experiment")
SEED = N_("Random seed of the population")
MODEL_A = N_("Model A's recommendations")
MODEL_B = N_("Model B's recommendations")
GROUND_TRUTH = N_("Ground truth")
CATEGORIES = N_("Item categories (optional)")
UPLOAD_THREE = N_("Upload the three files to compare the models; until then, switch to the synthetic pair to see the "
                  "page at work.")
TEST = N_("Test")
CORRECTION = N_("Correction over the metrics")
INTERVAL = N_("Interval")
FOCUS = N_("Metric to look at closely")
WHERE_FROM = N_("Where the difference comes from")
HOW_MANY = N_("How many users would I need?")
BEYOND = N_("Beyond accuracy")
POPULARITY_NOTE = N_("Popularity (ARP, novelty) is counted from the ground truth: how many users find each item relevant.")
DIVERSITY_SYNTHETIC = N_("Intra-list diversity: the share of pairs of items in a user's top K from different categories "
                         "(the synthetic catalogue's items each have one of 8 genres, at random).")
DIVERSITY = N_("Intra-list diversity: the share of pairs of items in a user's top K from different categories.")
LAB_DIVERSITY = N_("The protocol lab hands over no item categories, so intra-list diversity is left out.")
NO_DIVERSITY = N_("Upload item categories (columns item, category) to add intra-list diversity.")
COLUMNS = {"verdict": N_("verdict"), "mean_a": N_("mean A"), "mean_b": N_("mean B"), "delta": "B − A",
           "ci_low": N_("interval low"), "ci_high": N_("interval high"), "p_value": "p",
           "effect_size": N_("Cohen's d"), "wins": N_("wins"), "ties": N_("ties"), "losses": N_("losses")}
DIFFERENCE_FORMULA = r"\bar d = \frac{1}{n}\sum_{u=1}^{n} (b_u - a_u), \quad d_{\text{Cohen}} = \frac{\bar d}{s_d}"
PITFALLS = (
    N_("A p-value is not the size of the difference: with 20,000 users a difference of 0.002 is 'significant' and "
       "still negligible (look at the interval and Cohen's d)."),
    N_("Testing seven metrics at 5% each finds a 'significant' one by chance about 30% of the time: that is what "
       "the Holm and Bonferroni corrections are for."),
    N_("Comparing the two means with an unpaired test throws away the pairing: the spread between easy and hard "
       "users swamps the difference between the models."),
    N_("Most per-user differences in hit rate and precision are exactly 0: the Wilcoxon test drops them, so it "
       "answers a question about the users whose score changed."),
)


def synthetic_caption(true_delta: float, users: int) -> str:
    return _("Both models rank candidates for a population of 20,000 users; over all of them B's mean NDCG@10 is "
             "higher by exactly {delta}. Your experiment sees {users} of them. With few users, watch a real difference "
             "hide in the noise; with many, watch a tiny one become 'significant'.").format(
        delta=numbers.number(true_delta, 4, sign=True), users=numbers.integer(users))


def lab_caption(a: str, b: str, setting: str, users: int) -> str:
    return _("**A = {a}, B = {b}**: each model's top 10 from the protocol lab on MovieLens 100K ({setting}), "
             "scored against the held-out interactions of the split's {users} test users.").format(
        a=a, b=b, setting=setting, users=numbers.integer(users))


def files_caption(max_rows: int) -> str:
    return _("CSV or Parquet with columns user, item, rank (or score) for each model, and user, item, relevance for "
             "the ground truth; TREC run and qrels files work too. Optionally, item, category for intra-list "
             "diversity. Up to {rows} rows a file.").format(rows=numbers.integer(max_rows))


def file_error(problem: str, has_last: bool) -> str:
    """Why a file cannot be used, as a sentence: an engine's message has no full stop of its own."""
    if not problem.rstrip().endswith((".", "?", "!", "。", "？", "！")):
        problem = problem.rstrip() + _(".")
    if has_last:
        return _("This file cannot be used: {problem} The results below are from the last files that could be "
                 "read.").format(problem=problem)
    return _("This file cannot be used: {problem}").format(problem=problem)


def missing_users(model: str, missing: int, users: int) -> str:
    return ngettext(
        "Model {model} recommends nothing to {missing} of the {users} user in the ground truth: they score 0 for "
        "model {model}, which counts against it. Check that both logs cover the same users.",
        "Model {model} recommends nothing to {missing} of the {users} users in the ground truth: they score 0 for "
        "model {model}, which counts against it. Check that both logs cover the same users.", users).format(
        model=model, missing=numbers.integer(missing), users=numbers.integer(users))


def cannot_compare(problem: str) -> str:
    return _("The two logs cannot be compared: {problem}").format(problem=problem)


def interval_label(confidence: float) -> str:
    return _("{confidence} interval").format(confidence=numbers.percent(confidence))


def difference_substituted(row, users: int, sd: float, confidence: float) -> str:
    """:data:`DIFFERENCE_FORMULA` with a metric's numbers: its row of the comparison, the users compared and the
    standard deviation of their differences."""
    delta = numbers.latex(row["delta"], sign=True)
    return (r"\begin{aligned}"
            rf"\bar d &= {delta}\quad (n = {numbers.latex_integer(users)}) \\"
            rf"{text.latex(interval_label(confidence))} &= [{numbers.latex(row['ci_low'], sign=True)},\ "
            rf"{numbers.latex(row['ci_high'], sign=True)}] \\"
            rf"d_{{\text{{Cohen}}}} &= {delta} / {numbers.latex(sd, 4)} = "
            rf"{numbers.latex(row['effect_size'], 2, sign=True)}"
            r"\end{aligned}")


def p_corrected(correction: str) -> str:
    return _("p ({correction})").format(correction=correction)


def table_caption(users: int, test: str, metrics: int, correction: str) -> str:
    return ngettext(
        "{users} users compared. Interval: bootstrap percentile interval of the mean paired difference (10,000 "
        "resamples). p: {test}; adjusted for the {metrics} metric compared ({correction}). Wins: users for whom B "
        "scores higher.",
        "{users} users compared. Interval: bootstrap percentile interval of the mean paired difference (10,000 "
        "resamples). p: {test}; adjusted for the {metrics} metrics compared ({correction}). Wins: users for whom B "
        "scores higher.", metrics).format(users=numbers.integer(users), test=test, metrics=numbers.integer(metrics),
                                          correction=correction)


def by_activity(metric: str) -> str:
    return _("{metric}: by the user's number of relevant items").format(metric=metric)


def by_popularity(metric: str) -> str:
    return _("{metric}: by how popular the user's relevant items are").format(metric=metric)


def target_label(metric: str) -> str:
    return _("Smallest difference in {metric} worth detecting").format(metric=metric)


def users_needed(needed: int, target: float, metric: str, spread: float, users: int) -> str:
    return ngettext(
        "A paired t-test needs **{needed} user** to detect a difference of {target} in {metric} {power} of the time "
        "at the {level} level, given the spread of the per-user differences seen here (standard deviation "
        "{spread}). This experiment has {users}.",
        "A paired t-test needs **{needed} users** to detect a difference of {target} in {metric} {power} of the time "
        "at the {level} level, given the spread of the per-user differences seen here (standard deviation "
        "{spread}). This experiment has {users}.", needed).format(
        needed=numbers.integer(needed), target=numbers.number(target, 4), metric=metric,
        power=numbers.percent(0.8), level=numbers.percent(0.05), spread=numbers.number(spread, 4),
        users=numbers.integer(users))


def beyond_caption(source: str, has_categories: bool) -> str:
    """How popularity is counted, then whether intra-list diversity is shown (from the data of ``source``)."""
    diversity = (DIVERSITY_SYNTHETIC if source == SYNTHETIC else LAB_DIVERSITY if source == LAB else
                 DIVERSITY if has_categories else NO_DIVERSITY)
    # TRANSLATORS: two sentences one after the other: how popularity is counted, then intra-list diversity.
    return _("{popularity} {diversity}").format(popularity=_(POPULARITY_NOTE), diversity=_(diversity))


def beyond_row(key: str, k: int) -> str:
    """A row of the beyond-accuracy table, in the reader's language."""
    return _(BEYOND_ROWS[key]).format(k=k)
