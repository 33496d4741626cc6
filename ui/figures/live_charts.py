"""The live class's reveal charts: a bar per option, or a histogram of typed numbers against the truth."""

from __future__ import annotations

import plotly.graph_objects as go

from content import numbers as notation
from content.classroom import option_text
from content.i18n import _
from content.pages import live as words
from ui.markup import text
from ui.figures.charts import HIT, MARKER, MISS, NEUTRAL, _layout, guide


def answers_bars(counts: list[tuple[str, int, bool]], mine: str | None = None) -> go.Figure:
    """One bar per answer, the right one green; ``mine`` (a student's own answer) outlined."""
    labels = [text.plotly(option_text(label)) for label, _n, _right in counts]  # in the reader's language
    fig = go.Figure(go.Bar(
        x=labels, y=[n for _, n, _ in counts], text=[n for _, n, _ in counts], textposition="outside",
        marker={"color": [HIT if right else MISS for _, _, right in counts],
                "line": {"color": [MARKER if label == mine else "rgba(0,0,0,0)" for label, _, _ in counts],
                         "width": 4}},
        hovertemplate=_(words.HOVER) + "<extra></extra>"))
    fig = _layout(fig, _(words.BARS_TITLE), None, _(words.STUDENTS_AXIS), height=340)
    fig.update_layout(separators=notation.plotly_separators())
    fig.update_yaxes(rangemode="tozero", dtick=max(1, max((n for _, n, _ in counts), default=1) // 5))
    fig.update_xaxes(type="category")
    return fig


def answers_histogram(numbers: list[tuple[float, int]], true_value: float, mine: float | None = None) -> go.Figure:
    """Typed numbers in bins of 0.05 (clipped to the answers' range), the true value as a line."""
    values = [value for value, n in numbers for _ in range(n)]
    fig = go.Figure(go.Histogram(x=values, xbins={"size": 0.05}, marker={"color": NEUTRAL},
                                 hovertemplate=_(words.HOVER) + "<extra></extra>"))
    guide(fig, x=true_value, color=HIT, width=3, dash=None, text=words.true_value(true_value), font_size=14)
    if mine is not None:
        guide(fig, x=mine, dash="dot", text=_(words.YOU), position="bottom right", font_size=14)
    fig = _layout(fig, _(words.HISTOGRAM_TITLE), _(words.ANSWER_AXIS), _(words.STUDENTS_AXIS), height=340)
    fig.update_layout(separators=notation.plotly_separators())
    return fig
