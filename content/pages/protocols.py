"""The words of the protocol lab (pages/22_Protocol_lab.py): each preset's question, what its paper found, and
what the page finds now, written from the measured numbers (tests/test_protocol_presets.py checks each)."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

TITLE = N_("How offline evaluation lies")
IDEA = N_("The same models, the same data (MovieLens 100K: 943 users, 1,682 movies, 100,000 ratings), the same "
          "metric code: only the **protocol** changes — how the test set is held out, which items compete, whether "
          "the baselines were tuned. Pick a preset to see a published finding put to the test, or set up a protocol "
          "of your own.")
PRESET = N_("Preset")
OWN = N_("Your own protocol")
RUN = N_("Run on MovieLens 100K")
RUN_OWN = N_("Run this protocol")
RUNNING = N_("Splitting, training four models and ranking every movie for every user…")
TRAINED_SO_FAR = N_("Models trained so far: {done} of {total}.")
FIRST_RUN = N_("The first run of a preset trains every model and takes several seconds; after that it is kept "
               "for everyone on this server.")
PAPER = N_("What the paper found:")
NOW = N_("What this page finds now:")
TABLE_CAPTION = N_("Means over the test users; K = 10. Coverage: share of the catalogue shown to someone; popularity: "
                   "mean number of training users of the items shown.")
DATA_MISSING = N_("MovieLens 100K is not installed on this server. The operator can install the copy that ships "
                  "with RecBole (`pip install --no-deps recbole==1.2.1`), or run the command line on a MovieLens "
                  "folder: `python -m metrics protocol --data PATH`.")
SPLIT = N_("Split")
TEST_SHARE = N_("Test share (random and temporal splits)")
CANDIDATES = N_("Candidates")
NEGATIVES = N_("Sampled negatives per held-out item")
MODELS = N_("Models")
TUNED = N_("Tune each model on a validation split of the training data")
DOWNLOAD = N_("Download {model}'s recommendations (CSV, opens in Your data and Compare)")
OPEN_ELSEWHERE = N_("Open these logs in Your data or Compare")
OPEN_HELP = N_("Each model's top 10 for every test user, with the test set as the ground truth: Your data evaluates "
               "one model user by user, Compare tests two on the same users.")
OPEN_PROTOCOL = N_("Logs of")
OPEN_MODEL = N_("Model")
OPEN_YOUR_DATA = N_("Open in Your data")
MODEL_A = N_("Model A")
MODEL_B = N_("Model B")
OPEN_COMPARE = N_("Compare A and B")
SAME_MODEL = N_("Choose two different models to compare.")
DOWNLOAD_TRUTH = N_("Download the test set (the ground truth, CSV)")
SPLIT_SIZES = N_("{train} training and {test} test interactions; {cold_users} test users with no training "
                 "interaction left out; {cold_items} test interactions with an item never seen in training "
                 "(a miss for every model).")

SPLIT_NAMES = {
    "random": N_("Random hold-out of interactions"),
    "leave-last-out": N_("Leave the last one out (per user)"),
    "temporal-fraction": N_("Each user's latest share"),
    "global-time": N_("Global time cut"),
}
CANDIDATE_NAMES = {
    "full": N_("The full catalogue"),
    "uniform": N_("Sampled negatives, uniform"),
    "popular": N_("Sampled negatives, by popularity"),
}
MODEL_NAMES = {
    "random": N_("Random"),
    "pop": N_("Most popular"),
    "itemknn": N_("Item k-NN"),
    "ease": N_("EASE"),
    "mf": N_("Matrix factorisation (ALS)"),
}
COLUMN_NAMES = {
    "precision@10": "P@10", "recall@10": "R@10", "ndcg@10": "NDCG@10", "hit_rate@10": "HR@10",
    "average_precision@10": "AP@10", "reciprocal_rank": "RR",
}
EXTRA_COLUMNS = {
    "coverage@10": N_("coverage@10"),
    "popularity@10": N_("popularity@10"),
    "full_hit_rate": N_("HR@10, full"),
    "sampled_hit_rate": N_("HR@10, sampled"),
    "expected_hit_rate": N_("HR@10, expected when sampled"),
    "corrected_hit_rate": N_("HR@10, corrected"),
    "full_ndcg": N_("NDCG@10, full"),
    "sampled_ndcg": N_("NDCG@10, sampled"),
    "expected_ndcg": N_("NDCG@10, expected when sampled"),
    "corrected_ndcg": N_("NDCG@10, corrected"),
}

PRESETS = {
    "sampled_vs_full": N_("Sampled negatives against the full ranking"),
    "split_leak": N_("Leave-last-out against a global time cut"),
    "tuned_baselines": N_("Baselines, untuned and tuned"),
    "significant_but_small": N_("Many users and a tiny effect"),
}
PROTOCOL_LABELS = {
    "sampled_vs_full": (N_("full"), N_("100 sampled")),
    "split_leak": (N_("leave-last-out"), N_("global time")),
    "tuned_baselines": (N_("untuned"), N_("tuned")),
    "significant_but_small": (N_("random split"), N_("random split")),
}
PAPERS = {
    "sampled_vs_full": N_("Krichene and Rendle (KDD 2020): metrics computed on 100 sampled negatives do not keep the "
                          "order the full ranking gives, even in expectation, and inflate every score; a corrected "
                          "estimate helps, but their advice is not to sample."),
    "split_leak": N_("Ji, Sun, Zhang and Li (TOIS 2023): leave-last-out and random splits let models train on "
                     "interactions from after the test time, and the order of the models changes with how much of "
                     "that future leaks in. Meng et al. (2020) saw model ranks swap between every pair of split "
                     "strategies."),
    "tuned_baselines": N_("Rendle, Zhang and Koren (2019) and Ferrari Dacrema et al. (RecSys 2019): well-tuned simple "
                          "baselines beat most newer methods; a comparison against untuned baselines misleads."),
    "significant_but_small": N_("Ihemelandu and Ekstrand (SIGIR 2023): with many users, paired tests call almost any "
                                "difference significant, so report effect sizes."),
}
PITFALLS = (
    N_("A protocol is part of the result: a number without its split, its candidates and its K cannot be compared "
       "with another."),
    N_("Leave-last-out is a per-user cut, not a time cut: other users' interactions from after the test time are in "
       "training."),
    N_("A global time cut loses the users who arrive after it: they have no training interaction, so no "
       "collaborative model can rank anything for them."),
    N_("Tune every model, baselines included, on a validation split taken from the training data only: never on "
       "the test set."),
)


def model_name(key: str) -> str:
    return _(MODEL_NAMES[key])


def _pairs(pairs) -> str:
    return _("; ").join(_("{a} and {b}").format(a=model_name(a), b=model_name(b)) for a, b in pairs)


def _place(rank: int) -> str:
    return _("#{place}").format(place=rank)


def sampled_finding(finding: dict) -> str:
    swaps, inflation = finding["swaps"], finding["inflation"]
    corrected_swaps = finding["corrected_swaps"]
    text = _("With 100 sampled negatives every model's HR@10 is at least {times} times its full-ranking value.").format(
        times=numbers.number(inflation, 1))
    if swaps:
        text += " " + _("Pairs of models that change order: {pairs}.").format(pairs=_pairs(swaps))
    else:
        text += " " + _("No pair of models changes order here: the paper's warning does not show on this data.")
    if corrected_swaps:
        text += " " + _("Pairs still the other way round in the corrected estimate: {pairs}.").format(
            pairs=_pairs(corrected_swaps))
    else:
        text += " " + _("The corrected estimate restores the full ranking's order.")
    return text


def moves(finding: dict) -> str:
    before, after = finding["ranks_before"], finding["ranks_after"]
    moved = [name for name in before.index if before[name] != after[name]]
    return _("; ").join(_("{model} {before} → {after}").format(model=model_name(name), before=_place(before[name]),
                                                                  after=_place(after[name])) for name in moved)


def split_finding(finding: dict, future_before: int, future_after: int) -> str:
    text = _("Leave-last-out trains on {before} interactions from after the earliest test interaction; the global "
             "time cut on {after}.").format(before=numbers.integer(future_before), after=numbers.integer(future_after))
    if finding["swaps"]:
        text += " " + _("By NDCG@10 the models change places: {moves}.").format(moves=moves(finding))
    else:
        text += " " + _("By NDCG@10 no model changes place here: the paper's finding does not show on this data.")
    return text


def tuned_finding(finding: dict) -> str:
    if finding["swaps"]:
        return _("Tuned on a validation split of the training data, the models change places by NDCG@10: "
                 "{moves}.").format(moves=moves(finding))
    return _("Tuning changes no model's place by NDCG@10 here: the paper's finding does not show on this data.")


def significance_finding(a: str, b: str, metric: str, users: int, row) -> str:
    verdict = (_("significant at 0.05") if row["p_adjusted"] < 0.05 else _("not significant at 0.05"))
    size = (_("a negligible effect (|d| below 0.2)") if abs(row["effect_size"]) < 0.2 else
            _("a small effect (|d| below 0.5)") if abs(row["effect_size"]) < 0.5 else _("a medium or large effect"))
    return _("{b} against {a} on {metric} over {users} users: a difference of {delta}, p = {p} ({verdict}), "
             "and Cohen's d = {d}: {size}.").format(
        a=model_name(a), b=model_name(b), metric=metric, users=numbers.integer(users),
        delta=numbers.number(row["delta"], 4, sign=True), p=numbers.number(row["p_adjusted"], 3), verdict=verdict,
        d=numbers.number(row["effect_size"], 2, sign=True), size=size)


def handed_setting(split: str, tuned: bool) -> str:
    """The protocol a handed log was made under, in the reader's language."""
    return _("; ").join((_(SPLIT_NAMES[split]), _(PROTOCOL_LABELS["tuned_baselines"][1 if tuned else 0])))


def handed_log(model: str, split: str, tuned: bool) -> str:
    """Your data's name for a log the lab handed over."""
    return _("the protocol lab's top 10 of {model} on MovieLens 100K ({setting})").format(
        model=model_name(model), setting=handed_setting(split, tuned))
