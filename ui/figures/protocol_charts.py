"""The protocol lab's chart: a slope chart of each model's place under two protocols. No Streamlit here."""

from __future__ import annotations

import textwrap

import pandas as pd
import plotly.graph_objects as go

from content import charts as chart_words
from content import numbers
from content.i18n import _
from content.pages import protocols as words
from ui.chart_text import explain
from ui.figures.charts import PALETTE, _layout
from content.text import plotly as plotly_text


LABEL_WIDTH = 20  # characters per line of a model's name beside the chart: "Matrix factorisation" / "(ALS)"


def _tie_offsets(places: pd.Series) -> pd.Series:
    """Models sharing a place are drawn a little apart (0.3 of a place), so their labels do not overprint."""
    rank_in_tie = places.groupby(places).cumcount()
    size = places.map(places.value_counts())
    return (rank_in_tie - (size - 1) / 2) * 0.3


def rank_slopes(before: pd.Series, after: pd.Series, labels: tuple[str, str], metric: str) -> go.Figure:
    """One line per model from its place under the first protocol to its place under the second (1 = best, on
    top), named at its right end; a model that changes place is drawn thick, one that keeps it thin."""
    fig = go.Figure()
    n = len(before)
    offsets = [_tie_offsets(before), _tie_offsets(after)]
    for index, name in enumerate(before.index):
        moved = before[name] != after[name]
        shown = plotly_text(words.model_name(name))
        label = "<br>".join(plotly_text(line) for line in textwrap.wrap(words.model_name(name), LABEL_WIDTH))
        fig.add_trace(go.Scatter(
            x=[0, 1], y=[before[name] + offsets[0][name], after[name] + offsets[1][name]],
            customdata=[int(before[name]), int(after[name])], mode="lines+markers+text",
            line={"color": PALETTE[index % len(PALETTE)], "width": 5 if moved else 2},
            marker={"size": 12}, text=["", label], textposition="middle right",
            name=shown, hovertemplate=f"{shown}: %{{customdata}}<extra></extra>", showlegend=False))
    # Names on the right only: two columns of names leave a phone's plot no room; a long one takes two lines.
    fig.update_xaxes(range=[-0.15, 2.2], tickvals=[0, 1], ticktext=[plotly_text(label) for label in labels],
                     showgrid=False, zeroline=False)
    fig.update_yaxes(range=[n + 0.5, 0.5], dtick=1, zeroline=False)
    names = {name: words.model_name(name) for name in before.index}
    changed = [name for name in before.index if before[name] != after[name]]
    explain(fig, summary=chart_words.moves([chart_words.moved(names[name], numbers.integer(before[name]),
                                                              numbers.integer(after[name])) for name in changed],
                                           n - len(changed)),
            table=([_("model"), *labels], [[names[name], int(before[name]), int(after[name])] for name in before.index]))
    title = _("{metric}: each model's place (1 = best)").format(metric=metric)
    return _layout(fig, title, "", _("place"), height=max(300, 60 * n + 140))


def model_bars(values: pd.Series, title: str, metric: str) -> go.Figure:
    """One horizontal bar per model (the best on top), its value written beside it."""
    ordered = values.sort_values(kind="stable")
    names = [plotly_text(words.model_name(name)) for name in ordered.index]
    fig = go.Figure(go.Bar(x=ordered.tolist(), y=names, orientation="h", marker_color=PALETTE[0],
                           text=[numbers.number(v, 4) for v in ordered], textposition="outside", cliponaxis=False,
                           hovertemplate="%{y}: %{text}<extra></extra>"))
    fig.update_xaxes(range=[0, float(ordered.max()) * 1.3 or 1.0])
    return _layout(fig, title, metric, None, height=max(300, 60 * len(values) + 140))


def leak_bars(protocols: list[str], before: list[int], after: list[int]) -> go.Figure:
    """Each protocol's training interactions, split at the earliest test interaction: those from before it, and
    those from after it (the future the model trains on), stacked."""
    fig = go.Figure()
    for part, counts, colour in ((_("before the test began"), before, PALETTE[0]),
                                 (_("after the test began"), after, PALETTE[2])):
        fig.add_trace(go.Bar(x=[plotly_text(p) for p in protocols], y=counts, name=part, marker_color=colour,
                             text=[numbers.integer(c) for c in counts], textposition="inside",
                             hovertemplate="%{x}: %{text}<extra>" + plotly_text(part) + "</extra>"))
    fig.update_layout(barmode="stack")
    return _layout(fig, _("Training interactions, split at the earliest test one"), None, _("interactions"),
                   legend_on_top=True)
