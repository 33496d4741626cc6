"""The Logged feedback page's charts: estimates against the truth, the importance weights, bias and RMSE, the
clipping trade-off and doubly robust's four cases. No Streamlit here: tables from ``offpolicy`` in, figures out."""

from __future__ import annotations

import re

import pandas as pd
import plotly.graph_objects as go

from content import numbers
from content.i18n import _
from content.pages import logged_feedback as words
from content.text import plotly as plotly_text
from offpolicy.explore import Histogram
from ui.chart_text import explain
from ui.figures.charts import ALERT, HIT, MARKER, NEUTRAL, PALETTE, _layout, guide


def _names(keys) -> list[str]:
    return [words.estimator_name(key) for key in keys]


def estimates_against(table: pd.DataFrame, truth: float, *, title: str, truth_label: str, axis: str,
                      digits: int = 4) -> go.Figure:
    """One dot per estimator (``table``: value, low, high, indexed by estimator) with its interval as a bar, and a
    line at ``truth``."""
    names = _names(table.index)
    fig = go.Figure(go.Scatter(
        x=table["value"].tolist(), y=[plotly_text(n) for n in names], mode="markers",
        marker={"size": 12, "color": NEUTRAL},
        error_x={"type": "data", "symmetric": False, "array": (table["high"] - table["value"]).tolist(),
                 "arrayminus": (table["value"] - table["low"]).tolist(), "color": NEUTRAL, "thickness": 2},
        hovertemplate="%{y}: %{x}<extra></extra>", showlegend=False))
    guide(fig, x=truth, color=MARKER, text=plotly_text(truth_label), position="top right")
    fig.update_yaxes(range=[len(table) - 0.5, -1.2])  # the first estimator on top, a free row above it for the label
    error = (table["value"] - truth).abs()
    closest, farthest = error.idxmin(), error.idxmax()
    explain(fig, summary=words.estimates_summary(truth_label, truth, words.estimator_name(closest), table.loc[closest, "value"],
                                                 words.estimator_name(farthest), table.loc[farthest, "value"]),
            table=([_(words.ESTIMATOR), _(words.ESTIMATE), _(words.LOW), _(words.HIGH)],
                   [[name, round(float(row.value), digits), round(float(row.low), digits), round(float(row.high), digits)]
                    for name, row in zip(names, table.itertuples())]))
    return _layout(fig, title, axis, None, height=max(300, 48 * len(table) + 190))


_edge = words.weight_edge


def weight_bars(histogram: Histogram, rounds: int) -> go.Figure:
    """The positive weights' logarithmic bins as bars, each labelled by its range."""
    edges = histogram.edges.tolist()
    labels = [f"{_edge(low)}–{_edge(high)}" for low, high in zip(edges[:-1], edges[1:])]
    counts = histogram.counts.tolist()
    fig = go.Figure(go.Bar(x=labels, y=counts, marker_color=NEUTRAL, text=[numbers.integer(c) for c in counts],
                           textposition="outside", cliponaxis=False, hovertemplate="%{x}: %{y}<extra></extra>"))
    filled = [index for index, count in enumerate(counts) if count]
    top = filled[-1] if filled else 0
    explain(fig, summary=words.weights_summary(histogram.zeros, rounds, edges[top] if edges else 0,
                                               edges[top + 1] if edges else 0),
            table=([_(words.WEIGHT_BIN), _(words.WEIGHT_BIN_TO), _(words.ROUNDS_AXIS)],
                   [[_edge(low), _edge(high), count] for low, high, count in zip(edges[:-1], edges[1:], counts)]))
    fig.update_yaxes(range=[0, max(counts or [1]) * 1.2])
    return _layout(fig, _(words.WEIGHTS_TITLE), _(words.WEIGHT), _(words.ROUNDS_AXIS), legend_on_top=True)


def bias_and_rmse(accuracy: pd.DataFrame, repeats: int, *, title: str | None = None) -> go.Figure:
    """Each estimator's bias and RMSE (``accuracy``: bias, sd, rmse, indexed by estimator) as bars side by side,
    titled ``title`` (else "... over ``repeats`` logs")."""
    names = [plotly_text(n) for n in _names(accuracy.index)]
    fig = go.Figure()
    for column, label, colour in (("bias", _(words.BIAS), ALERT), ("rmse", words.RMSE, NEUTRAL)):
        fig.add_trace(go.Bar(x=names, y=accuracy[column].tolist(), name=plotly_text(label), marker_color=colour,
                             hovertemplate="%{x}: %{y}<extra>" + plotly_text(label) + "</extra>"))
    fig.update_layout(barmode="group")
    best, worst = accuracy["rmse"].idxmin(), accuracy["rmse"].idxmax()
    explain(fig, summary=words.accuracy_summary(words.estimator_name(best), accuracy.loc[best, "rmse"],
                                                words.estimator_name(worst), accuracy.loc[worst, "rmse"]),
            table=([_(words.ESTIMATOR), _(words.BIAS), _(words.SD), words.RMSE],
                   [[name, round(float(row.bias), 4), round(float(row.sd), 4), round(float(row.rmse), 4)]
                    for name, row in zip(_names(accuracy.index), accuracy.itertuples())]))
    title = title or _(words.ACCURACY_TITLE).format(repeats=numbers.integer(repeats))
    return _layout(fig, title, None, None, legend_on_top=True)


def clipping_lines(table: pd.DataFrame, logs: int) -> go.Figure:
    """Clipped IPS's bias, standard deviation and RMSE at each τ (``table`` indexed by τ, ∞ last)."""
    labels = [words.tau_label(float(tau)) for tau in table.index]
    fig = go.Figure()
    for column, label, colour in (("bias", _(words.BIAS), ALERT), ("sd", _(words.SD), HIT),
                                  ("rmse", words.RMSE, NEUTRAL)):
        fig.add_trace(go.Scatter(x=labels, y=table[column].tolist(), mode="lines+markers", name=plotly_text(label),
                                 line={"color": colour, "width": 3}, marker={"size": 9},
                                 hovertemplate="τ = %{x}: %{y}<extra>" + plotly_text(label) + "</extra>"))
    best = table["rmse"].idxmin()
    explain(fig, summary=words.clipping_summary(words.tau_label(float(best)), table.loc[best, "rmse"]),
            table=([words.TAU_COLUMN, _(words.BIAS), _(words.SD), words.RMSE],
                   [[label, round(float(row.bias), 4), round(float(row.sd), 4), round(float(row.rmse), 4)]
                    for label, row in zip(labels, table.itertuples())]))
    fig.update_xaxes(type="category")
    return _layout(fig, _(words.CLIPPING_TITLE).format(logs=numbers.integer(logs)), "τ", None, legend_on_top=True)


def doubly_robust_bars(table: pd.DataFrame, conditions) -> go.Figure:
    """DM's, IPS's and DR's bias under each (reward model, propensity) of ``conditions``: horizontal bars grouped
    by condition, so the conditions' names read across on a phone."""
    labels = ["<br>".join(plotly_text(part) for part in re.split(r"(?<=[,，])\s*", _(words.CONDITION_NAMES[condition]), 1))
              for condition in conditions]  # one line for the model, one for the propensity
    fig = go.Figure()
    for index, estimator in enumerate(("dm", "ips", "dr")):
        values = [float(table.loc[(*condition, estimator), "bias"]) for condition in conditions]
        fig.add_trace(go.Bar(y=labels, x=values, orientation="h", name=plotly_text(words.estimator_name(estimator)),
                             marker_color=PALETTE[(index + 2) % len(PALETTE)] if estimator != "dr" else NEUTRAL,
                             hovertemplate="%{y}: %{x}<extra></extra>"))
    fig.update_layout(barmode="group")
    fig.update_yaxes(autorange="reversed")
    explain(fig, summary=words.dr_summary(float(table.loc[("poor", "poor", "dr"), "bias"])),
            table=([_(words.MODEL), _(words.PROPENSITY), *_names(("dm", "ips", "dr"))],
                   [[_(words.RIGHT if model == "right" else words.POOR),
                     _(words.RIGHT if weights == "right" else words.POOR),
                     *[round(float(table.loc[(model, weights, e), "bias"]), 4) for e in ("dm", "ips", "dr")]]
                    for model, weights in conditions]))
    return _layout(fig, _(words.DR_TITLE), _(words.BIAS), None, legend_on_top=True, height=480)
