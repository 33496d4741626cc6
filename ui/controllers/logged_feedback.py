"""The Logged feedback page's Streamlit pieces: the simulated world (built once per server), the reader's own
settings, each preset's finding and the Open Bandit Dataset's real logs. Every number comes from ``offpolicy``;
every sentence from content/pages/logged_feedback.py."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from content import numbers
from content.i18n import _
from content.pages import logged_feedback as words
from metrics.errors import DataError
from offpolicy import explore, obd, presets, simulate
from ui.controllers import protocol_lab
from ui.figures import offpolicy_charts as charts
from ui.figures.protocol_charts import rank_slopes
from ui.widgets import chart, formula, show_table


def data_available() -> bool:
    return protocol_lab.data_available()


def _world() -> simulate.World:
    """ML-100K's world, built once per process (:func:`offpolicy.presets.world`)."""
    return presets.world()


@st.cache_data(max_entries=32, show_spinner=False)
def _explored(temperature: float, rounds: int, tau: float) -> explore.Explored:
    return explore.explore(_world(), temperature, rounds, tau)


def _preset(key: str) -> dict:
    """The preset's numbers, once per process and shared with the guided lesson (:func:`offpolicy.presets.measured`)."""
    return presets.measured(key)


@st.cache_data(max_entries=2, show_spinner=False)
def _reproduction(source: str) -> obd.Reproduction:
    return obd.reproduce(source)


def _choice(label: str, values, key: str, shown) -> float:
    """A select slider (Streamlit's own slider writes a point in every language: these are written in the reader's
    notation), starting at the page's default."""
    return st.select_slider(label, list(values), value=explore.DEFAULTS[key], key=f"logged_{key}", format_func=shown)


def controls() -> tuple[float, int, float]:
    left, middle, right = st.columns(3)
    with left:
        temperature = _choice(_(words.TEMPERATURE), explore.TEMPERATURES, "temperature", numbers.general)
    with middle:
        rounds = _choice(_(words.ROUNDS), explore.SIZES, "rounds", numbers.integer)
    with right:
        tau = _choice(_(words.TAU), explore.TAUS, "tau", lambda v: numbers.integer(int(v)))
    return temperature, rounds, tau


def _estimates_table(table: pd.DataFrame, columns: dict[str, str], digits: int = 4) -> None:
    shown = table[list(columns)].rename(index=words.estimator_name, columns=columns)
    shown.index.name = _(words.ESTIMATOR)
    show_table(shown.reset_index().map(lambda v: numbers.number(v, digits) if isinstance(v, float) else v))


def own_settings() -> None:
    st.caption(_(words.WORLD))
    temperature, rounds, tau = controls()
    with st.spinner(_(words.RUNNING)):
        found = _explored(temperature, rounds, tau)
    truth, ess = st.columns(2)
    truth.metric(_(words.TRUE_VALUE), numbers.number(found.truth, 4), help=_(words.TRUE_VALUE_HELP), border=True)
    ess.metric(_(words.ESS), numbers.integer(round(found.ess)), help=_(words.ESS_HELP), border=True)
    ess.caption(words.ess_of(found.ess, found.rounds))
    formula(words.IPS_FORMULA, words.ips_substituted(found.weighted_clicks, found.rounds,
                                                     float(found.one_log.loc["ips", "value"])))
    st.subheader(_(words.ONE_LOG).format(rounds=numbers.integer(found.rounds)))
    left, right = st.columns(2)
    with left:
        chart(charts.estimates_against(found.one_log, found.truth, title=_(words.ESTIMATES_TITLE),
                                       truth_label=_(words.TRUTH_LINE), axis=_(words.ESTIMATES_AXIS)),
              key="logged_estimates")
    with right:
        chart(charts.weight_bars(found.weights, found.rounds), key="logged_weights")
    _estimates_table(found.one_log, {"value": _(words.ESTIMATE), "low": _(words.LOW), "high": _(words.HIGH),
                                     "error": _(words.ERROR)})
    st.subheader(_(words.REPEATED).format(repeats=numbers.integer(found.repeats),
                                          rounds=numbers.integer(found.rounds)))
    chart(charts.bias_and_rmse(found.accuracy, found.repeats), key="logged_accuracy")
    _estimates_table(found.accuracy, {"bias": _(words.BIAS), "sd": _(words.SD), "rmse": words.RMSE})
    st.caption(_(words.REPEATED_CAPTION))


def _finding(key: str, found: dict) -> str:
    return {"rare_target": words.rare_finding, "clipping": words.clipping_finding,
            "doubly_robust": words.dr_finding, "popularity_recall": words.popularity_finding}[key](found)


def preset(key: str) -> None:
    with st.spinner(_(words.RUNNING)):
        found = _preset(key)
    st.caption(words.settings(key, found))
    st.info(f"**{_(words.FINDING)}** {_finding(key, found)}", icon="🔎")
    if key == "rare_target":
        left, right = st.columns(2)
        for case, area in (("rare", left), ("usual", right)):
            here = found[case]
            title = _(words.TEMPERATURE_TITLE).format(logs=numbers.integer(found["logs"]),
                                                      temperature=numbers.general(here["temperature"]))
            with area:
                chart(charts.bias_and_rmse(here["table"], found["logs"], title=title), key=f"logged_rare_{case}")
        _estimates_table(found["rare"]["table"], {"bias": _(words.BIAS), "standard_error": _(words.STANDARD_ERROR),
                                                  "sd": _(words.SD), "rmse": words.RMSE})
    elif key == "clipping":
        chart(charts.clipping_lines(found["table"], found["logs"]), key="logged_clipping")
        table = found["table"][["bias", "standard_error", "sd", "rmse"]]
        table.index = [words.tau_label(float(tau)) for tau in table.index]
        show_table(table.rename_axis(words.TAU_COLUMN).reset_index().rename(columns={
            "bias": _(words.BIAS), "standard_error": _(words.STANDARD_ERROR), "sd": _(words.SD), "rmse": words.RMSE})
            .map(lambda v: numbers.number(v, 4) if isinstance(v, float) else v))
    elif key == "doubly_robust":
        chart(charts.doubly_robust_bars(found["table"], presets.CONDITIONS), key="logged_dr")
    else:
        labels = tuple(_(label) for label in words.PLACES)
        chart(rank_slopes(found["places"]["recall"], found["places"]["snips_recall"], labels, "Recall@10"),
              key="logged_places")
        columns = {"recall": _(words.NAIVE_RECALL), "ips_recall": _(words.IPS_RECALL),
                   "snips_recall": _(words.SNIPS_RECALL), "ndcg": _(words.NAIVE_NDCG), "snips_ndcg": _(words.SNIPS_NDCG)}
        shown = found["metrics"][list(columns)].rename(index=words.model_name, columns=columns)
        shown.index.name = _(words.MODEL_NAME)
        show_table(shown.reset_index().map(lambda v: numbers.number(v, 4) if isinstance(v, float) else v))
    if key != "popularity_recall":
        st.caption(_(words.TABLE_CAPTION))


def open_bandit_dataset() -> None:
    """The Open Bandit Dataset's Random logs estimating Bernoulli TS, or how to get the archive."""
    try:
        source = obd.find_source()
        found = _reproduction(str(source))
    except obd.SourceUnavailable:
        st.info(_(words.OBD_MISSING), icon="📦")
        return
    except DataError as error:
        st.warning(_(words.OBD_BROKEN).format(problem=str(error)))
        return
    st.caption(_(words.OBD_IDEA))
    relative, ess = st.columns(2)
    relative.metric(_(words.OBD_RELATIVE), numbers.number(found.relative_value, 4), border=True,
                    help=_(words.OBD_RELATIVE_HELP).format(readme=numbers.number(obd.README_VALUE, 6),
                                                           error=numbers.number(found.monte_carlo_error, 4)))
    table = found.estimates
    ess.metric(_(words.ESS), numbers.integer(round(float(table["ess"].iloc[0]))), help=_(words.ESS_HELP), border=True)
    chart(charts.estimates_against(table, found.bts_mean_click, title=_(words.OBD_TITLE),
                                   truth_label=_(words.OBD_TRUTH), axis=_(words.ESTIMATES_AXIS), digits=5),
          key="logged_obd_estimates")
    _estimates_table(table, {"value": _(words.ESTIMATE), "low": _(words.LOW), "high": _(words.HIGH),
                             "relative_to_bts_on_policy": _(words.OBD_RATIO)}, digits=5)
    st.caption(_(words.OBD_NOTE))
    st.caption(_(words.OBD_SOURCE).format(licence=found.licence))
