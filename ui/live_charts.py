"""The live class's reveal charts: a bar per option, or a histogram of typed numbers against the truth."""

from __future__ import annotations

import plotly.graph_objects as go

from ui import text
from ui.charts import HIT, MARKER, MISS, NEUTRAL, _layout


def answers_bars(counts: list[tuple[str, int, bool]], mine: str | None = None) -> go.Figure:
    """One bar per answer, the right one green; ``mine`` (a student's own answer) outlined."""
    labels = [text.plotly(label) for label, _, _ in counts]
    fig = go.Figure(go.Bar(
        x=labels, y=[n for _, n, _ in counts], text=[n for _, n, _ in counts], textposition="outside",
        marker={"color": [HIT if right else MISS for _, _, right in counts],
                "line": {"color": [MARKER if label == mine else "rgba(0,0,0,0)" for label, _, _ in counts],
                         "width": 4}},
        hovertemplate="%{x}: %{y} students<extra></extra>"))
    fig = _layout(fig, "How the class answered (green = right)", None, "students", height=340)
    fig.update_yaxes(rangemode="tozero", dtick=max(1, max((n for _, n, _ in counts), default=1) // 5))
    fig.update_xaxes(type="category")
    return fig


def answers_histogram(numbers: list[tuple[float, int]], true_value: float, mine: float | None = None) -> go.Figure:
    """Typed numbers in bins of 0.05 (clipped to the answers' range), the true value as a line."""
    values = [value for value, n in numbers for _ in range(n)]
    fig = go.Figure(go.Histogram(x=values, xbins={"size": 0.05}, marker={"color": NEUTRAL},
                                 hovertemplate="%{x}: %{y} students<extra></extra>"))
    fig.add_vline(x=true_value, line={"color": HIT, "width": 3}, annotation_text=f"true {true_value:.4f}",
                  annotation_font_size=14)
    if mine is not None:
        fig.add_vline(x=mine, line={"color": MARKER, "width": 2, "dash": "dot"}, annotation_text="you",
                      annotation_position="bottom right", annotation_font_size=14)
    return _layout(fig, "How the class answered, against the true value", "answer", "students", height=340)
