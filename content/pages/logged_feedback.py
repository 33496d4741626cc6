"""The words of the Logged feedback page (pages/23_Logged_feedback.py): its controls, its views, and each preset's
finding, written from the measured numbers (tests/test_logged_feedback_presets.py checks each sentence)."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _
from content.pages import protocols as protocol_words

TITLE = N_("Logged feedback")
IDEA = N_("How good would a new recommender have been, judged only from the logs an old one left? A log holds the "
          "item the old recommender (the **logger**) showed, the click, and the probability the logger gave that "
          "item; the estimators reweight the clicks to say what the new one (the **target**) would have earned. "
          "Here the clicks come from a hidden model on MovieLens 100K, so the true value is known exactly and every "
          "estimator's error shows.")
DATA_MISSING = protocol_words.DATA_MISSING
PRESET = N_("Preset")
EXPLORE = N_("Your own settings")
WORLD = N_("Each of MovieLens 100K's 943 users gets 50 candidate movies. The hidden click model is EASE's scores "
           "through a logistic link; the logger a softmax over popularity at the chosen temperature; the target "
           "item k-NN's top pick; the reward model of DM, DR and switch-DR popularity's scores through the same "
           "link (deliberately poor).")
TEMPERATURE = N_("Logger's temperature (low: it nearly always shows the most popular movie)")
ROUNDS = N_("Rounds in the log")
TAU = N_("Clipping threshold τ (clipped IPS and switch-DR)")
OBD_SWITCH = N_("Use the Open Bandit Dataset's real logs")
RUNNING = N_("Drawing the logs and estimating…")

TRUE_VALUE = N_("True value of the target")
TRUE_VALUE_HELP = N_("Σ over users and movies of p(user) · π(movie | user) · q(user, movie), from the hidden click "
                     "model: computed, never estimated.")
ESS = N_("Effective sample size")
ESS_HELP = N_("(Σ w)² / Σ w² over the log's weights w = π / π₀: how many equally weighted rounds the reweighted "
              "log is worth.")
ESS_OF = N_("{ess} of {rounds} rounds")
ONE_LOG = N_("One log of {rounds} rounds")
REPEATED = N_("Over {repeats} logs of {rounds} rounds")
REPEATED_CAPTION = N_("Bias: the estimates' mean minus the true value; RMSE: the typical error of one log's "
                      "estimate (RMSE² = bias² + variance).")

ESTIMATOR = N_("estimator")
ESTIMATE = N_("estimate")
LOW = N_("95% interval, low")
HIGH = N_("95% interval, high")
ERROR = N_("error")
BIAS = N_("bias")
SD = N_("standard deviation")
RMSE = "RMSE"
TRUTH_LINE = N_("true value")
WEIGHT = N_("weight π / π₀")
ROUNDS_AXIS = N_("rounds")
WEIGHT_BIN = N_("weights from")
WEIGHT_BIN_TO = N_("to")

ESTIMATOR_NAMES = {
    "dm": N_("DM"),
    "ips": N_("IPS"),
    "snips": N_("SNIPS"),
    "dr": N_("DR"),
    "switch_dr": N_("switch-DR"),
    "clipped_ips": N_("clipped IPS"),
}


model_name = protocol_words.model_name


def estimator_name(key: str) -> str:
    return _(ESTIMATOR_NAMES[key])


def ess_of(ess: float, rounds: int) -> str:
    return _(ESS_OF).format(ess=numbers.integer(round(ess)), rounds=numbers.integer(rounds))


# --------------------------------------------------------------------------- charts

ESTIMATES_TITLE = N_("Each estimator on one log, with its 95% interval, against the true value")
ESTIMATES_AXIS = N_("click rate of the target")
WEIGHTS_TITLE = N_("The log's importance weights π / π₀ (rounds of weight 0 left out)")
ACCURACY_TITLE = N_("Bias and RMSE of each estimator over {repeats} logs")
TEMPERATURE_TITLE = N_("Bias and RMSE over {logs} logs, the logger at temperature {temperature}")
CLIPPING_TITLE = N_("Clipped IPS as τ moves: bias, standard deviation and RMSE over {logs} logs")
UNCLIPPED = N_("∞ (IPS)")
DR_TITLE = N_("Bias of DM, IPS and DR with a right or poor reward model and propensity")
OBD_TITLE = N_("Bernoulli TS estimated from the Random logs, against its own logs' click rate")
OBD_TRUTH = N_("Bernoulli TS's own logs")

CONDITION_NAMES = {
    ("right", "right"): N_("right model, right propensity"),
    ("poor", "right"): N_("poor model, right propensity"),
    ("right", "poor"): N_("right model, poor propensity"),
    ("poor", "poor"): N_("poor model, poor propensity"),
}


def estimates_summary(reference: str, truth: float, closest: str, closest_value: float, farthest: str,
                      farthest_value: float) -> str:
    """``reference``: what the line is (the true value, or Bernoulli TS's own logs); a click rate of a few per
    thousand gets five decimals."""
    digits = 4 if abs(truth) >= 0.01 else 5
    return _("{reference}: {truth}; closest {closest} ({closest_value}), farthest {farthest} ({farthest_value})").format(
        reference=reference, truth=numbers.number(truth, digits), closest=closest,
        closest_value=numbers.number(closest_value, digits), farthest=farthest,
        farthest_value=numbers.number(farthest_value, digits))


def weight_edge(value: float) -> str:
    """A bin's edge: one decimal below 10, a whole number above (562.3 reads as 562)."""
    return numbers.number(value, 1) if value < 10 else numbers.integer(int(round(value)))


def weights_summary(zeros: int, rounds: int, low: float, high: float) -> str:
    return _("{zeros} of {rounds} rounds weigh 0 (the target never picks their movie); the largest weights lie "
             "between {low} and {high}").format(zeros=numbers.integer(zeros), rounds=numbers.integer(rounds),
                                                low=weight_edge(low), high=weight_edge(high))


def accuracy_summary(best: str, best_rmse: float, worst: str, worst_rmse: float) -> str:
    return _("smallest RMSE {best} ({best_rmse}), largest {worst} ({worst_rmse})").format(
        best=best, best_rmse=numbers.number(best_rmse, 4), worst=worst, worst_rmse=numbers.number(worst_rmse, 4))


def clipping_summary(best: str, rmse: float) -> str:
    return _("the smallest RMSE, {rmse}, at τ = {tau}").format(rmse=numbers.number(rmse, 4), tau=best)


def dr_summary(bias: float) -> str:
    return _("DR's bias with both poor: {bias}").format(bias=numbers.number(bias, 4, sign=True))


def obd_summary(target: float) -> str:
    return _("Bernoulli TS's own logs click at {target}").format(target=numbers.number(target, 5))


# --------------------------------------------------------------------------- presets

PRESETS = {
    "rare_target": N_("IPS when the target's pick is rarely shown"),
    "clipping": N_("Clipping the weights: bias for variance"),
    "doubly_robust": N_("Doubly robust: which half must be right"),
    "popularity_recall": N_("Popularity-weighted Recall"),
}
FINDING = N_("What this page finds:")
SETTINGS = {
    "rare_target": N_("{logs} logs of {rounds} rounds each, the logger at temperature {cold} and at {usual}; the "
                      "target item k-NN's top pick."),
    "clipping": N_("{logs} logs of {rounds} rounds each, the logger at temperature {cold}; the same logs for every τ."),
    "doubly_robust": N_("{logs} logs of {rounds} rounds each, the logger at temperature 1. The right reward model is "
                        "the hidden click model itself, the poor one popularity's; the right propensity is the "
                        "logger's, the poor one 1/50, as if the logger had been uniform."),
    "popularity_recall": N_("The protocol lab's random 80/20 split of MovieLens 100K, each model trained on the 80% "
                            "and ranking the full catalogue; a hit on movie i counts 1 / p(i), "
                            "p(i) = (count(i) / max count)^γ over the training interactions."),
}
TABLE_CAPTION = N_("Bias: mean of the estimates minus the true value; standard error: the standard deviation over "
                   "√(number of logs), the noise in that mean.")
STANDARD_ERROR = N_("standard error")
TAU_COLUMN = "τ"
MODEL = N_("reward model")
PROPENSITY = N_("propensity")
RIGHT = N_("right")
POOR = N_("poor")
NAIVE_RECALL = N_("Recall@10, naive")
IPS_RECALL = N_("Recall@10, IPS")
SNIPS_RECALL = N_("Recall@10, SNIPS")
NAIVE_NDCG = N_("NDCG@10, naive")
SNIPS_NDCG = N_("NDCG@10, SNIPS")
PLACES = (N_("naive"), N_("SNIPS-weighted"))
MODEL_NAME = N_("model")


def settings(key: str, found: dict) -> str:
    if key == "popularity_recall":
        return _(SETTINGS[key])
    cold = found.get("temperature", found.get("rare", {}).get("temperature"))
    usual = found.get("usual", {}).get("temperature")
    return _(SETTINGS[key]).format(logs=numbers.integer(found["logs"]), rounds=numbers.integer(found["rounds"]),
                                   cold=numbers.general(cold) if cold is not None else "",
                                   usual=numbers.general(usual) if usual is not None else "")


def rare_finding(found: dict) -> str:
    rare, usual = found["rare"], found["usual"]
    ips, usual_ips = rare["table"].loc["ips"], usual["table"].loc["ips"]
    return _("At temperature {cold} the logger rarely shows the target's pick: a log of {rounds} rounds is worth "
             "{ess} equally weighted ones ({usual_ess} at temperature {usual}). Over {logs} logs IPS's mean misses "
             "the true value, {truth}, by {bias}, {ratio} times its standard error ({se}): no bias shows. But one log's "
             "IPS is typically {rmse} off (its RMSE), {times} times its error at temperature {usual} "
             "({usual_rmse}); SNIPS's RMSE is {snips}.").format(
        cold=numbers.general(rare["temperature"]), usual=numbers.general(usual["temperature"]),
        rounds=numbers.integer(found["rounds"]), ess=numbers.integer(round(rare["mean_ess"])),
        usual_ess=numbers.integer(round(usual["mean_ess"])), logs=numbers.integer(found["logs"]),
        truth=numbers.number(rare["truth"], 4), bias=numbers.number(ips["bias"], 4, sign=True),
        ratio=numbers.number(abs(ips["bias"]) / ips["standard_error"], 1),
        se=numbers.number(ips["standard_error"], 4), rmse=numbers.number(ips["rmse"], 4),
        times=numbers.number(ips["rmse"] / usual_ips["rmse"], 1), usual_rmse=numbers.number(usual_ips["rmse"], 4),
        snips=numbers.number(rare["table"].loc["snips", "rmse"], 4))


def tau_label(tau: float) -> str:
    return _(UNCLIPPED) if tau == float("inf") else numbers.integer(int(tau))


def clipping_finding(found: dict) -> str:
    table = found["table"]
    unclipped, smallest = table.loc[float("inf")], table.iloc[0]
    best = table.loc[found["best"]]
    return _("The largest weight in these logs is {largest}. Unclipped, IPS's bias is {bias} and its standard "
             "deviation {sd}. Clipping at τ = {small} cuts the standard deviation to {small_sd}, but the bias grows "
             "to {small_bias}. The smallest RMSE, {best_rmse}, is at τ = {best} (bias {best_bias}, standard "
             "deviation {best_sd}); unclipped it is {rmse}.").format(
        largest=numbers.number(found["max_weight"], 0, grouped=True),
        bias=numbers.number(unclipped["bias"], 4, sign=True), sd=numbers.number(unclipped["sd"], 4),
        small=tau_label(float(table.index[0])), small_sd=numbers.number(smallest["sd"], 4),
        small_bias=numbers.number(smallest["bias"], 4, sign=True), best_rmse=numbers.number(best["rmse"], 4),
        best=tau_label(found["best"]), best_bias=numbers.number(best["bias"], 4, sign=True),
        best_sd=numbers.number(best["sd"], 4), rmse=numbers.number(unclipped["rmse"], 4))


def dr_finding(found: dict) -> str:
    table = found["table"]

    def bias(model: str, propensity: str, estimator: str) -> str:
        return numbers.number(table.loc[(model, propensity, estimator), "bias"], 4, sign=True)

    return _("With the logger's propensities, DR has no bias whatever the reward model: {right_right} with the right "
             "one, {poor_right} with popularity's, which leaves DM off by {dm_poor}. With the right reward model, it "
             "has none whatever the propensity: {right_poor} with 1/50, which leaves IPS off by {ips_poor}. With "
             "both poor, DR is off by {poor_poor}: it rescues one half, not both.").format(
        right_right=bias("right", "right", "dr"), poor_right=bias("poor", "right", "dr"),
        dm_poor=bias("poor", "right", "dm"), right_poor=bias("right", "poor", "dr"),
        ips_poor=bias("right", "poor", "ips"), poor_poor=bias("poor", "poor", "dr"))


def popularity_finding(found: dict) -> str:
    metrics = found["metrics"]
    naive, weighted = found["naive_winner"], found["snips_winner"]
    name = protocol_words.model_name
    runner_up = metrics["recall"].drop(naive).idxmax()
    text = _("Naive Recall@10 puts {naive} first ({naive_value} against {second}'s {second_value}).").format(
        naive=name(naive), naive_value=numbers.number(metrics.loc[naive, "recall"], 4), second=name(runner_up),
        second_value=numbers.number(metrics.loc[runner_up, "recall"], 4))
    if weighted == naive:
        return text + " " + _("Weighted by popularity (γ = {gamma}), the same model stays first.").format(
            gamma=numbers.number(found["gamma"], 2))
    return text + " " + _("Weighted by popularity (γ = {gamma}), so that a hit on a rarely rated movie counts for "
                          "more, {weighted} leads: SNIPS Recall@10 {weighted_snips} against {naive_snips}, IPS "
                          "Recall@10 {weighted_ips} against {naive_ips}.").format(
        gamma=numbers.number(found["gamma"], 2), weighted=name(weighted),
        weighted_snips=numbers.number(metrics.loc[weighted, "snips_recall"], 4),
        naive_snips=numbers.number(metrics.loc[naive, "snips_recall"], 4),
        weighted_ips=numbers.number(metrics.loc[weighted, "ips_recall"], 4),
        naive_ips=numbers.number(metrics.loc[naive, "ips_recall"], 4))


# --------------------------------------------------------------------------- the Open Bandit Dataset

OBD_MISSING = N_("The Open Bandit Dataset is not on this server. The operator can download obp's source archive "
                 "(1.3 MB, it holds the dataset's sample) with `pip download --no-deps --ignore-requires-python "
                 "obp==0.5.7 -d ~/.cache/receval`, or set `RECEVAL_OBP_SOURCE` to where it is, then reload this page.")
OBD_BROKEN = N_("obp's source archive was found but could not be read: {problem}")
OBD_IDEA = N_("Real logs from ZOZOTOWN's fashion site, the Open Bandit Dataset's sample: 10,000 rounds of each "
              "logger, 80 items at 3 positions. Bernoulli Thompson sampling (Bernoulli TS) is estimated from the "
              "rounds of the uniformly random logger (Random) and judged against the click rate of its own logs. "
              "The sliders belong to the simulation: these logs are as they were recorded.")
OBD_RELATIVE = N_("Relative value by IPS (Bernoulli TS over Random)")
OBD_RELATIVE_HELP = N_("obp's README prints {readme}; the Monte Carlo error of this figure is {error}.")
OBD_NOTE = N_("DR equals DM here: the Random logger's propensity is the same within each item and position, so DR's "
              "correction sums to zero. DM's interval covers the sampling of rounds, never its model's error.")
OBD_RATIO = N_("over Bernoulli TS's click rate")
OBD_SOURCE = N_("Read from obp's source archive (licence: {licence}); nothing is copied into this app.")


PITFALLS = (
    N_("A log only holds what the logger showed: a movie it never shows has no click to reweight, and no estimator "
       "can find its value."),
    N_("IPS's interval comes from the same few heavy weights that make it wild: with a small effective sample size "
       "the interval itself cannot be trusted."),
    N_("DM's interval covers the sampling of rounds only, never its model's error: a narrow interval around a wrong "
       "value."),
    N_("Clipping, switching and self-normalising all buy a smaller variance with some bias: say which one and its "
       "threshold with the number."),
)


IPS_FORMULA = r"\hat V_{\mathrm{IPS}}=\frac{1}{n}\sum_{i=1}^{n}\frac{\pi(a_i\mid x_i)}{\pi_0(a_i\mid x_i)}\,r_i"
"""Inverse propensity scoring: each logged click weighted by how much likelier the target makes the logged action."""


def ips_substituted(weighted_clicks: float, rounds: int, value: float) -> str:
    """IPS with the shown log's numbers: the weighted clicks' sum over the rounds."""
    return (rf"\hat V_{{\mathrm{{IPS}}}}=\frac{{{numbers.latex(weighted_clicks, 2, grouped=True)}}}"
            rf"{{{numbers.latex_integer(rounds)}}}={numbers.latex(value, 4)}")
