"""The protocol lab's chart: a slope chart of each model's place under two protocols. No Streamlit here."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from content.i18n import _
from content.pages import protocols as words
from ui.figures.charts import PALETTE, _layout
from ui.markup.text import plotly as plotly_text


def rank_slopes(before: pd.Series, after: pd.Series, labels: tuple[str, str], metric: str) -> go.Figure:
    """One line per model from its place under the first protocol to its place under the second (1 = best, on
    top); a model that changes place is drawn thick, one that keeps it thin."""
    fig = go.Figure()
    n = len(before)
    for index, name in enumerate(before.index):
        moved = before[name] != after[name]
        shown = plotly_text(words.model_name(name))
        fig.add_trace(go.Scatter(
            x=[0, 1], y=[int(before[name]), int(after[name])], mode="lines+markers+text",
            line={"color": PALETTE[index % len(PALETTE)], "width": 5 if moved else 2},
            marker={"size": 12}, text=[shown, shown], textposition=["middle left", "middle right"],
            name=shown, hovertemplate=f"{shown}: %{{y}}<extra></extra>", showlegend=False))
    fig.update_xaxes(range=[-1.1, 2.1], tickvals=[0, 1], ticktext=[plotly_text(label) for label in labels],
                     showgrid=False, zeroline=False)
    fig.update_yaxes(range=[n + 0.5, 0.5], dtick=1, zeroline=False)
    title = _("{metric}: each model's place (1 = best)").format(metric=metric)
    return _layout(fig, title, "", _("place"), height=max(300, 60 * n + 140))
