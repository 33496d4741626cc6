"""The live class's reveal charts: a bar per option, or a histogram of typed numbers against the truth."""

from __future__ import annotations

import plotly.graph_objects as go

from content import numbers as notation
from content.classroom import option_text
from content.i18n import _
from content.pages import live as words
from ui.chart_text import explain
from content import text
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
    explain(fig, colours={HIT: _(words.RIGHT_ANSWER), MISS: _(words.WRONG_ANSWER)},
            columns={"x": _(words.ANSWER_AXIS)})
    fig = _layout(fig, _(words.BARS_TITLE), None, _(words.STUDENTS_AXIS), height=320)
    fig.update_layout(separators=notation.plotly_separators())
    _whole_students(fig, max((n for _, n, _ in counts), default=1))
    fig.update_xaxes(type="category")
    return fig


def answers_histogram(numbers: list[tuple[float, int]], true_value: float, mine: float | None = None) -> go.Figure:
    """A bar per distinct typed number (to four decimals), so a mistake close to the truth (0.8538 against
    0.8278) keeps its own bar; the true value as a green line, labelled above the plot, clear of the bars."""
    grouped: dict[float, int] = {}
    for value, n in numbers:
        grouped[round(value, 4)] = grouped.get(round(value, 4), 0) + n
    values = sorted(grouped)
    points = sorted({*values, round(true_value, 4)})
    gaps = [b - a for a, b in zip(points, points[1:], strict=False) if b > a]
    width = min(min(gaps, default=0.02) * 0.8, max(points[-1] - points[0], 0.02) / 12)
    fig = go.Figure(go.Bar(x=values, y=[grouped[v] for v in values], width=width, marker={"color": NEUTRAL},
                           customdata=[notation.number(v, 4) for v in values],
                           hovertemplate=_(words.HOVER).replace("%{x}", "%{customdata}") + "<extra></extra>"))
    guide(fig, x=true_value, color=HIT, width=3, dash=None, text=words.true_value(true_value), font_size=14,
          position="top")
    fig.layout.annotations[-1].font.color = HIT
    if mine is not None:
        guide(fig, x=mine, dash="dot", text=_(words.YOU), position="bottom right", font_size=14)
    fig = _layout(fig, _(words.HISTOGRAM_TITLE), _(words.ANSWER_AXIS), _(words.STUDENTS_AXIS), height=320)
    fig.update_layout(separators=notation.plotly_separators(), margin={"t": fig.layout.margin.t + 22})
    _whole_students(fig, max(grouped.values(), default=1))
    return fig


def _whole_students(fig: go.Figure, most: int) -> None:
    """A y axis of whole students: no 0.5 student between 0 and 1."""
    fig.update_yaxes(rangemode="tozero", tickformat="d", dtick=max(1, -(-most // 5)), range=[0, most * 1.15 + 0.1])
