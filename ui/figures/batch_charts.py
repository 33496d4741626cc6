"""Plotly figures of a whole log's evaluation. No Streamlit here."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from plotly.subplots import make_subplots

from content import charts as chart_words
from content import numbers
from content.i18n import _
from content.pages import your_data as words
from ui.controllers.your_data import column_label
from ui.chart_text import explain
from ui.figures.charts import PALETTE, _layout, guide

BINS = 20


def histograms(per_user: pd.DataFrame, columns: list[str], *, per_row: int = 3,
               title: str | None = None) -> go.Figure:
    """One histogram of the per-user values per column, 20 bins over [0, 1], mean marked."""
    rows = math.ceil(len(columns) / per_row)
    # Two short lines: three side by side still fit a phone.
    titles = [words.mean_of(column_label(c), numbers.number(per_user[c].mean(), 4)) for c in columns]
    fig = make_subplots(rows=rows, cols=per_row, subplot_titles=titles, vertical_spacing=0.5 / max(rows, 1) * 0.6,
                        horizontal_spacing=0.1)  # room for the next panel's counts on a phone
    spreads, table = [], []
    for index, column in enumerate(columns):
        row, col = index // per_row + 1, index % per_row + 1
        # Binned here (the last bin holds 1.0 itself, as np.histogram closes it), so a metric that is 1 for
        # every user shows its bar and the browser gets 20 bars instead of every user's value.
        counts, edges = np.histogram(per_user[column].dropna(), bins=BINS, range=(0, 1))
        most = int(np.argmax(counts))
        spreads.append(chart_words.spread(column_label(column), numbers.number(per_user[column].mean(), 4),
                                          int(counts.sum()), numbers.short(edges[most], 2),
                                          numbers.short(edges[most + 1], 2), int(counts[most])))
        table += [[column_label(column), float(low), float(high), int(n)]
                  for low, high, n in zip(edges[:-1], edges[1:], counts, strict=True)]
        fig.add_trace(go.Bar(x=(edges[:-1] + edges[1:]) / 2, y=counts, width=0.95 / BINS,
                             marker_color=PALETTE[index % len(PALETTE)], name=column_label(column),
                             customdata=np.stack([edges[:-1], edges[1:]], axis=1),
                             hovertemplate="%{customdata[0]:.2f}–%{customdata[1]:.2f}: %{y} " + _(words.USERS_AXIS)
                             + "<extra></extra>"),
                      row=row, col=col)
        axes = "" if index == 0 else str(index + 1)
        guide(fig, x=float(per_user[column].mean()), axes=axes)
        fig.layout[f"xaxis{axes}"].range = [0, 1]
    fig.update_yaxes(title_text=_(words.USERS_AXIS), col=1)
    fig.update_layout(showlegend=False, bargap=0.05, separators=numbers.plotly_separators())
    explain(fig, summary=chart_words.parts(spreads),
            table=([_("metric"), _(chart_words.FROM), _(chart_words.TO), _(words.USERS_AXIS)], table))
    fig = _layout(fig, _(words.HISTOGRAMS_TITLE) if title is None else title, height=260 * rows + 120)
    fig.layout.margin.t += 40  # the first row's two-line panel titles sit above its plots, under the title
    return fig


def metric_vs_k(curves: pd.DataFrame, chosen_ks: list[int]) -> go.Figure:
    """Mean of each metric against K, the chosen K values marked."""
    fig = go.Figure()
    for index, (metric, rows) in enumerate(curves.groupby("metric", sort=False)):
        fig.add_trace(go.Scatter(x=rows["k"], y=rows["mean"], mode="lines+markers", name=metric,
                                 line={"color": PALETTE[index % len(PALETTE)]}))
    for k in chosen_ks:
        guide(fig, x=k, dash="dot", color="grey", text=words.k_marker(k))
    fig.update_xaxes(tickvals=sorted(curves["k"].unique()))
    fig.update_yaxes(range=[-0.02, 1.05])
    fig.update_layout(separators=numbers.plotly_separators())
    return _layout(fig, _(words.AGAINST_K_TITLE), "K", _(words.MEAN_AXIS))
