"""The views of the guided lesson "What the log did not show": numbers, formulas and figures from the Logged
feedback page's presets (:func:`offpolicy.presets.measured`: computed once per process, shared with the page),
drawn by the page's charts (``ui.figures.offpolicy_charts``). No Streamlit.

A scenario ``{"kind": "offpolicy", "preset": key}`` names a preset of ``offpolicy.presets.PRESETS``. The views'
values (their labels: ``content.lessons.offpolicy``):

- rare_target: ``truth``, ``rounds``, ``logs``, ``temperature_cold``/``_usual``, ``ess_cold``/``_usual`` (the mean
  effective sample size), and ``<measure>_<side>_<estimator>`` for measure bias, sd, rmse, standard_error, mean,
  bias_size (|bias|), side cold/usual, estimator ips/snips/dr; ``se_ratio_cold_ips`` (|bias| / standard error);
- clipping: ``truth``, ``logs``, ``rounds``, ``temperature``, ``max_weight``, ``best_tau``, and
  ``<measure>_tau_<τ>`` for τ 1, 10, 100, 1000, 10000, inf (unclipped IPS);
- doubly_robust: ``truth``, ``logs``, ``rounds``, ``<measure>_<model>_<propensity>_<estimator>`` (model and
  propensity right/poor, estimator dm/ips/dr), ``dr_off_case`` (1: poor model, 2: poor propensity, 3: both: the
  case of DR's largest bias);
- popularity_recall: ``recall_<m>``, ``ips_recall_<m>``, ``snips_recall_<m>``, ``place_naive_<m>``,
  ``place_snips_<m>`` for each model m, ``gamma``, ``train_rows``, ``test_rows``.
"""

from __future__ import annotations

import math
import threading

import pandas as pd

from content import numbers, text
from content.i18n import _
from content.lessons import offpolicy as lesson_words
from content.pages import logged_feedback as words
from offpolicy import presets
from protocols import movielens
from ui.controllers.lesson_view import View
from ui.figures import offpolicy_charts as charts
from ui.figures.protocol_charts import rank_slopes

MEASURES = ("bias", "sd", "rmse", "standard_error")
OFF_CASES = (("poor", "right"), ("right", "poor"), ("poor", "poor"))
"""The cases a half is poor in, numbered 1, 2, 3 by ``dr_off_case``."""


def check(scenario: dict) -> None:
    """Raise ValueError if the scenario names no preset of the Logged feedback page."""
    if scenario.get("preset") not in presets.PRESETS:
        raise ValueError(f"an offpolicy scenario names one of the presets {list(presets.PRESETS)}, "
                         f"got {scenario.get('preset')!r}")


_warming = threading.Lock()
_warm_started = False


def _measure_all() -> None:
    try:
        for key in presets.PRESETS:
            presets.measured(key)
    except movielens.DataUnavailable:
        pass


def prepare(scenario: dict) -> None:
    """Compute the scenario's preset now (the first time in a process: a second or two), and the lesson's other
    presets in the background. Raises DataUnavailable without ML-100K."""
    global _warm_started
    with _warming:
        start, _warm_started = not _warm_started, True
    if start:
        threading.Thread(target=_measure_all, name="receval-offpolicy-lesson", daemon=True).start()
    presets.measured(scenario["preset"])


def tau_key(tau: float) -> str:
    return "inf" if math.isinf(tau) else str(int(tau))


def _accuracy(values: dict, table: pd.DataFrame, suffix, truth: float) -> None:
    """Every measure of every row of ``table`` (bias, sd, rmse, standard_error) as ``<measure>_<suffix(row)>``,
    with the estimates' mean and the bias's size."""
    for row, found in table.iterrows():
        name = suffix(row)
        for measure in MEASURES:
            values[f"{measure}_{name}"] = float(found[measure])
        values[f"mean_{name}"] = truth + float(found["bias"])
        values[f"bias_size_{name}"] = abs(float(found["bias"]))


def values_of(key: str) -> dict[str, float]:
    """Every number the lesson's views state about the preset ``key``."""
    found = presets.measured(key)
    values: dict[str, float] = {}
    if key == "popularity_recall":
        metrics = found["metrics"]
        for model, row in metrics.iterrows():
            for measure in lesson_words.RECALLS:
                values[f"{measure}_{model}"] = float(row[measure])
            values[f"place_naive_{model}"] = float(found["places"]["recall"][model])
            values[f"place_snips_{model}"] = float(found["places"]["snips_recall"][model])
        values["gamma"] = round(float(found["gamma"]), 2)  # as the page writes it
        values["train_rows"], values["test_rows"] = float(found["counts"]["train"]), float(found["counts"]["test"])
        return values
    world = presets.world()
    truth = found["rare"]["truth"] if key == "rare_target" else found["truth"]
    values.update(truth=float(truth), rounds=float(found["rounds"]), logs=float(found["logs"]),
                  users=float(world.logger.shape[0]), candidates=float(world.logger.shape[1]))
    if key == "rare_target":
        for side, name in (("cold", "rare"), ("usual", "usual")):
            here = found[name]
            values[f"temperature_{side}"] = float(here["temperature"])
            values[f"ess_{side}"] = float(round(here["mean_ess"]))  # whole rounds, as the page writes it
            _accuracy(values, here["table"], lambda row, side=side: f"{side}_{row}", here["truth"])
        values["se_ratio_cold_ips"] = values["bias_size_cold_ips"] / values["standard_error_cold_ips"]
    elif key == "clipping":
        values.update(temperature=float(found["temperature"]), max_weight=float(found["max_weight"]),
                      best_tau=float(found["best"]))
        _accuracy(values, found["table"], lambda tau: f"tau_{tau_key(float(tau))}", found["truth"])
        values.update({f"tau_{tau_key(float(tau))}": float(tau) for tau in found["table"].index if math.isfinite(tau)})
    else:
        table = found["table"]
        _accuracy(values, table, lambda row: "_".join(row), found["truth"])
        sizes = [abs(float(table.loc[(*case, "dr"), "bias"])) for case in OFF_CASES]
        values["dr_off_case"] = float(sizes.index(max(sizes)) + 1)
    return values


# --------------------------------------------------------------------------- formulas

GENERAL = {
    "truth": r"V=\sum_{u}\sum_{a}p(u)\,\pi(a\mid u)\,q(u,a)",
    "bias": r"\mathrm{bias}=\frac{1}{L}\sum_{l=1}^{L}\hat V_l-V",
    "bias_size": r"\left|\mathrm{bias}\right|=\left|\frac{1}{L}\sum_{l=1}^{L}\hat V_l-V\right|",
    "sd": r"\mathrm{sd}=\sqrt{\frac{1}{L}\sum_{l=1}^{L}\left(\hat V_l-\bar V\right)^2}",
    "rmse": r"\mathrm{RMSE}=\sqrt{\frac{1}{L}\sum_{l=1}^{L}\left(\hat V_l-V\right)^2}=\sqrt{\mathrm{bias}^2+\mathrm{sd}^2}",
    "ess": r"\mathrm{ESS}=\frac{\left(\sum_i w_i\right)^2}{\sum_i w_i^2},\ w_i=\frac{\pi(a_i\mid x_i)}{\pi_0(a_i\mid x_i)}",
    "recall": r"\mathrm{Recall@10}=\frac{1}{|U|}\sum_{u\in U}\frac{|R_u\cap T_u|}{|R_u|}",
    "snips_recall": r"\mathrm{Recall@10}_{\mathrm{SNIPS}}=\frac{1}{|U|}\sum_{u\in U}"
                    r"\frac{\sum_{i\in R_u\cap T_u}w(i)}{\sum_{i\in R_u}w(i)},\ w(i)=\frac{1}{p(i)}",
    "dr_off_case": r"\arg\max_{c}\left|\mathrm{bias}_{\mathrm{DR}}(c)\right|",
}
CLIPPED = r",\ \hat V_{\tau}=\frac{1}{n}\sum_{i=1}^{n}\min\left(w_i,\tau\right)r_i"
DOUBLY_ROBUST = (r",\ \hat V_{\mathrm{DR}}=\frac{1}{n}\sum_{i=1}^{n}\left[\hat q(x_i,\pi)+w_i\left(r_i-"
                 r"\hat q(x_i,a_i)\right)\right]")


def _measure(key: str) -> str | None:
    if key == "truth" or key == "dr_off_case":
        return key
    if key.startswith("ess_"):
        return "ess"
    for measure in ("snips_recall", "recall", "bias_size", "bias", "sd", "rmse"):
        if key.startswith(measure + "_"):
            return measure
    return None


def _formulas(key: str, values: dict) -> tuple[dict[str, str], dict[str, str]]:
    general, substituted = {}, {}
    for name, value in values.items():
        measure = _measure(name)
        if measure is None:
            continue
        formula = GENERAL[measure]
        if measure in ("bias", "rmse") and key == "clipping":
            formula += CLIPPED
        elif measure in ("bias", "rmse") and key == "doubly_robust" and name.endswith("_dr"):
            formula += DOUBLY_ROBUST
        general[name] = formula
        rest = name[len(measure) + 1:]
        shown = numbers.latex(value, 4)
        if measure == "bias":
            substituted[name] = (rf"\mathrm{{bias}}={numbers.latex(values['mean_' + rest], 4)}-"
                                 rf"{numbers.latex(values['truth'], 4)}={shown}")
        elif measure == "bias_size":
            substituted[name] = rf"\left|\mathrm{{bias}}\right|=\left|{numbers.latex(values['bias_' + rest], 4)}\right|={shown}"
        elif measure == "rmse":
            substituted[name] = (rf"\mathrm{{RMSE}}=\sqrt{{\left({numbers.latex(values['bias_' + rest], 4)}\right)^2+"
                                 rf"{numbers.latex(values['sd_' + rest], 4)}^2}}={shown}")
        elif measure == "ess":
            substituted[name] = rf"\overline{{\mathrm{{ESS}}}}={numbers.latex(value, 1, grouped=True)}"
        elif measure == "dr_off_case":
            substituted[name] = rf"c={numbers.latex_integer(int(value))}"
        else:
            symbol = {"truth": "V", "sd": r"\mathrm{sd}", "recall": r"\mathrm{Recall@10}",
                      "snips_recall": r"\mathrm{Recall@10}_{\mathrm{SNIPS}}"}[measure]
            substituted[name] = rf"{symbol}={shown}"
    said = {r"\mathrm{bias}": text.latex(_(words.BIAS)), r"\mathrm{sd}": text.latex(_(words.SD)),
            r"\mathrm{DR}": text.latex(words.estimator_name("dr")),
            r"\mathrm{SNIPS}": text.latex(words.estimator_name("snips"))}

    def worded(latex: str) -> str:  # the formulas' words in the reader's language
        for symbol, word in said.items():
            latex = latex.replace(symbol, word)
        return latex
    return ({k: worded(v) for k, v in general.items()}, {k: worded(v) for k, v in substituted.items()})


# --------------------------------------------------------------------------- views


def _view(key: str, figure) -> View:
    values = values_of(key)
    general, substituted = _formulas(key, values)
    return View(values=values, general=general, substituted=substituted, figure=figure,
                data_caption=_(words.TABLE_CAPTION) if key != "popularity_recall" else "")


def _rare_figure(side: str):
    found = presets.measured("rare_target")
    here = found["rare" if side == "cold" else "usual"]
    title = _(words.TEMPERATURE_TITLE).format(logs=numbers.integer(found["logs"]),
                                              temperature=numbers.general(here["temperature"]))
    return charts.bias_and_rmse(here["table"], found["logs"], title=title)


def usual_view(scenario: dict) -> View:
    """The rare-target preset's usual logger (temperature 1): each estimator's bias and RMSE over its logs."""
    return _view("rare_target", _rare_figure("usual"))


def cold_view(scenario: dict) -> View:
    """The same with the cold logger (temperature 0.25), which rarely shows what the target picks."""
    return _view("rare_target", _rare_figure("cold"))


def clipping_view(scenario: dict) -> View:
    """Clipped IPS's bias, standard deviation and RMSE at each τ (the page's chart)."""
    found = presets.measured("clipping")
    return _view("clipping", charts.clipping_lines(found["table"], found["logs"]))


def doubly_robust_view(scenario: dict) -> View:
    """DM's, IPS's and DR's bias in the four cases of a right or poor reward model and propensity."""
    return _view("doubly_robust", charts.doubly_robust_bars(presets.measured("doubly_robust")["table"],
                                                            presets.CONDITIONS))


def recall_view(scenario: dict) -> View:
    """Each model's place by naive and by SNIPS-weighted Recall@10 (the page's slope chart)."""
    found = presets.measured("popularity_recall")
    labels = tuple(_(label) for label in words.PLACES)
    return _view("popularity_recall", rank_slopes(found["places"]["recall"], found["places"]["snips_recall"], labels,
                                                  "Recall@10"))


def puzzle(scenario: dict):
    """What a predict step shows before the answer: nothing its question asks about."""
    key = scenario["preset"]
    found = presets.measured(key)
    if key == "rare_target":
        return _rare_figure("usual")
    if key == "clipping":  # unclipped IPS alone: the τ it is asked about is not drawn
        unclipped = found["table"].loc[[math.inf]].rename(index={math.inf: "ips"})
        return charts.bias_and_rmse(unclipped, found["logs"])
    if key == "doubly_robust":  # both halves right: nothing poor is drawn yet
        table = found["table"].xs(("right", "right"), level=("model", "propensity"))
        return charts.bias_and_rmse(table, found["logs"])
    return recall_view(scenario).figure


STATIC_VIEWS = {"offpolicy_usual": usual_view, "offpolicy_cold": cold_view, "offpolicy_clipping": clipping_view,
                "offpolicy_doubly_robust": doubly_robust_view, "offpolicy_recall": recall_view}
