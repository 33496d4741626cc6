"""The protocol lab's chart: a slope chart of each model's place under two protocols. No Streamlit here."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from content import charts as chart_words
from content import numbers
from content.i18n import _
from content.pages import protocols as words
from ui.chart_text import explain
from ui.figures.charts import PALETTE, _layout
from ui.markup.text import plotly as plotly_text


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
        fig.add_trace(go.Scatter(
            x=[0, 1], y=[before[name] + offsets[0][name], after[name] + offsets[1][name]],
            customdata=[int(before[name]), int(after[name])], mode="lines+markers+text",
            line={"color": PALETTE[index % len(PALETTE)], "width": 5 if moved else 2},
            marker={"size": 12}, text=["", shown], textposition="middle right",
            name=shown, hovertemplate=f"{shown}: %{{customdata}}<extra></extra>", showlegend=False))
    # Names on the right only: two columns of names leave a phone's plot no room.
    fig.update_xaxes(range=[-0.15, 1.95], tickvals=[0, 1], ticktext=[plotly_text(label) for label in labels],
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
