"""Plotly figures of the lessons: animations with play/pause and a frame slider, and puzzle views.

No Streamlit and no metric arithmetic here: every number arrives in a table computed by ``metrics``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from content import charts as chart_words
from content import numbers
from content.i18n import _
from ui.chart_text import explain, reference
from ui.figures.charts import HEATMAP_SCALE, HEATMAP_TEXT, HIT, IDEAL, MISS, NEUTRAL, PALETTE, _layout, guide

MOVING = "#c62828"
SPEEDS = {"slow": 1400, "normal": 800, "fast": 350}
"""Milliseconds per animation frame for each speed the lesson page offers."""


def animated(frames: list[tuple[str, list, str]], *, x_title: str, y_title: str, duration: int,
             x_range=None, y_range=None, height: int = 380) -> go.Figure:
    """A figure that plays ``frames`` (name, traces, caption) with Play/Pause buttons and a slider.

    The caption (the frame's numbers) is the title, so the numbers move with the picture. Every
    frame's title is wrapped as ``_layout`` wraps the still one, so playing never changes its shape.
    """
    name, traces, caption = frames[0]
    fig = go.Figure(data=traces, frames=[go.Frame(data=t, name=n, layout={"title": {"text": c}}) for n, t, c in frames])
    play = {"frame": {"duration": duration, "redraw": True}, "fromcurrent": True,
            "transition": {"duration": min(300, duration // 2)}}
    pause = {"frame": {"duration": 0, "redraw": False}, "mode": "immediate", "transition": {"duration": 0}}
    fig.update_layout(
        height=height,
        # Below the axis title (offsets in px, so they hold at any width): the buttons, then the
        # slider across the whole width, so 14 px button labels never run into the slider.
        updatemenus=[{"type": "buttons", "direction": "left", "x": 0, "y": 0, "xanchor": "left",
                      "yanchor": "top", "showactive": False, "pad": {"t": 62, "r": 10},
                      "buttons": [{"label": _("▶ Play"), "method": "animate", "args": [None, play]},
                                  {"label": _("⏸ Pause"), "method": "animate", "args": [[None], pause]}]}],
        sliders=[{"active": 0, "x": 0, "y": 0, "len": 1, "yanchor": "top", "pad": {"t": 98},
                  "currentvalue": {"visible": False},
                  "steps": [{"label": n, "method": "animate",
                             "args": [[n], {"frame": {"duration": 0, "redraw": True}, "mode": "immediate",
                                            "transition": {"duration": 0}}]} for n, _traces, _caption in frames]}],
    )
    if x_range is not None:
        fig.update_xaxes(range=x_range)
    if y_range is not None:
        fig.update_yaxes(range=y_range)
    # _layout wraps every frame's title as the still one, and leaves room for the longest.
    return _layout(fig, caption, x_title, y_title, legend_on_top=True, bottom=154)


def growing_lines(table: pd.DataFrame, x: str, lines: dict[str, str], captions: list[str], *, x_title: str,
                  y_title: str, duration: int, y_max: float | None = None, reversed_x: bool = False) -> go.Figure:
    """One line per column of ``lines`` (column -> legend name), drawn up to the frame's row."""
    frames = []
    for i in range(len(table)):
        shown = table.iloc[: i + 1]
        traces = [go.Scatter(x=shown[x].tolist(), y=shown[column].tolist(), mode="lines+markers", name=name,
                             line={"color": PALETTE[j % len(PALETTE)], "width": 3}, marker={"size": 9})
                  for j, (column, name) in enumerate(lines.items())]
        frames.append((_frame_name(table[x].iloc[i]), traces, captions[i]))
    low, high = float(table[x].min()), float(table[x].max())
    pad = (high - low) * 0.05 or 0.5
    top = y_max if y_max is not None else float(np.nanmax(table[list(lines)].to_numpy())) * 1.1 or 1.0
    x_range = [high + pad, low - pad] if reversed_x else [low - pad, high + pad]
    return animated(frames, x_title=x_title, y_title=y_title, duration=duration, x_range=x_range, y_range=[0, top])


def _frame_name(value) -> str:
    value = float(value)
    return numbers.general(value)


def walking_bars(tables: list[pd.DataFrame], moving_item, captions: list[str], *, duration: int,
                 y_title: str, y_max: float) -> go.Figure:
    """Per-rank bars (``rank``, ``item``, ``term``, ``hit``) of each frame; the moving item in red."""
    frames = []
    for table, caption in zip(tables, captions, strict=True):
        colours = [MOVING if item == moving_item else (HIT if hit else MISS)
                   for item, hit in zip(table["item"], table["hit"], strict=True)]
        bar = go.Bar(x=table["rank"].tolist(), y=table["term"].tolist(), marker_color=colours,
                     text=[str(i) for i in table["item"]], textposition="outside", name=_("term per rank"),
                     # Not shrunk to the bar's width: on a phone the bars are narrower than "107" at 14 px,
                     # and uniformtext then hid every label.
                     constraintext="none", cliponaxis=False,
                     hovertemplate=_("rank {rank}: {item}").format(rank="%{x}", item="%{text}")
                     + "<br>%{y:.4f}<extra></extra>")
        rank = int(table.loc[table["item"] == moving_item, "rank"].iloc[0])
        frames.append((_("rank {rank}").format(rank=rank), [bar], caption))
    n = max(len(t) for t in tables)
    fig = animated(frames, x_title=_("rank"), y_title=y_title, duration=duration, x_range=[0.5, n + 0.5],
                   y_range=[0, y_max * 1.2])
    fig.update_layout(showlegend=False)
    explain(fig, colours={MOVING: _(chart_words.MOVING), HIT: _("hit"), MISS: _("miss")}, columns={"text": _("item")})
    return fig


def roc_drawing(points: pd.DataFrame, captions: list[str], *, duration: int) -> go.Figure:
    """The ROC curve laid down point by point as the threshold sweeps, the area shaded at the end."""
    frames = []
    for i in range(len(points)):
        shown = points.iloc[: i + 1]
        last = i == len(points) - 1
        traces = [
            reference(go.Scatter(x=[0, 1], y=[0, 1], mode="lines",
                                 name=_("chance (AUC = {auc})").format(auc=numbers.general(0.5)),
                                 line={"color": "grey", "dash": "dash"})),
            go.Scatter(x=shown["fpr"].tolist(), y=shown["tpr"].tolist(), mode="lines+markers", name=_("ROC so far"),
                       fill="tozeroy" if last else "none", line={"color": NEUTRAL, "width": 3}, marker={"size": 9}),
            reference(go.Scatter(x=[shown["fpr"].iloc[-1]], y=[shown["tpr"].iloc[-1]], mode="markers",
                                 name=_("threshold now"),
                                 marker={"size": 16, "color": MOVING, "symbol": "circle-open", "line": {"width": 3}},
                                 cliponaxis=False)),  # at (0, 0) and (1, 1) the ring sits on the axes: drawn whole
        ]
        frames.append((f"{i}", traces, captions[i]))
    # Taller than the other animations: on a phone the wrapped title, the legend and the Play row left the
    # plot 90 px high, a flat line instead of a curve.
    return animated(frames, x_title=_("false-positive rate"), y_title=_("true-positive rate"), duration=duration,
                    x_range=[-0.04, 1.04], y_range=[-0.04, 1.06], height=500)


def loss_marker(frames_table: pd.DataFrame, captions: list[str], *, duration: int) -> go.Figure:
    """The −ln p curve and one impression sliding along it (columns ``probability``, ``sample_loss``)."""
    p = np.linspace(0.005, 1, 200)
    curve = reference(go.Scatter(x=p.tolist(), y=(-np.log(p)).tolist(), mode="lines",
                                 name=_("−ln(p of what happened)"), line={"color": "grey"}))
    frames = []
    for i, row in enumerate(frames_table.itertuples()):
        marker = go.Scatter(x=[row.probability], y=[row.sample_loss], mode="markers+text", name=_("the click"),
                            text=[numbers.number(row.sample_loss, 2)], textposition="top right",
                            marker={"size": 16, "color": MOVING})
        frames.append((_frame_name(row.probability), [curve, marker], captions[i]))
    return animated(frames, x_title=_("probability given to the click"), y_title=_("cost −ln p"), duration=duration,
                    x_range=[0, 1.02], y_range=[0, 5.5])


def base_rate_comparison(parts: dict) -> go.Figure:
    """LogLoss next to the base rate's LogLoss, and predicted next to actual clicks."""
    fig = go.Figure()
    # Category names on short lines: four bars in two panels still read on a phone without tilting.
    fig.add_trace(go.Bar(x=["LogLoss", _("LogLoss<br>of the<br>base rate")], y=[parts["log_loss"], parts["base_rate_entropy"]],
                         marker_color=[NEUTRAL, IDEAL], name=_("loss (nats)"),
                         text=[numbers.number(parts["log_loss"], 4), numbers.number(parts["base_rate_entropy"], 4)],
                         textposition="outside"))
    fig.add_trace(go.Bar(x=[_("predicted<br>clicks"), _("actual<br>clicks")], y=[parts["predicted_clicks"], parts["clicks"]],
                         marker_color=[NEUTRAL, HIT], name=_("clicks"), yaxis="y2",
                         text=[numbers.number(parts["predicted_clicks"], 2), numbers.integer(parts["clicks"])],
                         textposition="outside"))
    fig.update_layout(height=360, showlegend=False,
                      xaxis={"domain": [0, 0.4]}, xaxis2={"domain": [0.62, 1], "anchor": "y2"},
                      yaxis2={"anchor": "x2", "title": _("clicks")})
    fig.data[1].update(xaxis="x2")
    fig.update_yaxes(rangemode="tozero")
    return _layout(fig, _("LogLoss vs the base rate's; predicted vs actual clicks"), "", _("nats"))


# --------------------------------------------------------------------------- puzzles: the data, no metric


def ranking_puzzle(table: pd.DataFrame, k: int, title: str) -> go.Figure:
    """The ranked list as tiles: relevant in green, others grey; the top-K window shaded."""
    colours = np.where(table["relevant"], HIT, MISS)
    fig = go.Figure(go.Bar(x=table["rank"], y=np.ones(len(table)), marker_color=colours,
                           text=table["item"].astype(str), textposition="inside", name=_("items"),
                           hovertemplate=_("rank {rank}: {item}").format(rank="%{x}", item="%{text}")
                           + "<extra></extra>"))
    fig.add_vrect(x0=0.5, x1=k + 0.5, fillcolor=NEUTRAL, opacity=0.12, line_width=0,
                  annotation_text=_("top {k}").format(k=k), annotation_position="outside top left")
    fig.update_yaxes(visible=False)
    fig.update_layout(height=220, showlegend=False)
    explain(fig, colours={HIT: _("relevant"), MISS: _(chart_words.NOT_RELEVANT)}, columns={"text": _("item")})
    return _layout(fig, title, _("rank"), "")


def users_puzzle(names, hits: list[list[bool]]) -> go.Figure:
    """One row per user, one cell per rank: green where the user's list holds a relevant item."""
    width = max((len(h) for h in hits), default=0)
    z = [[1 if j < len(h) and h[j] else 0 for j in range(width)] for h in hits]
    fig = go.Figure(go.Heatmap(z=z, x=list(range(1, width + 1)), y=[str(n) for n in names],
                               colorscale=[[0, MISS], [1, HIT]], showscale=False, xgap=3, ygap=3))
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(height=260)
    ranks = [[numbers.integer(j + 1) for j, hit in enumerate(row) if hit] for row in hits]
    explain(fig, summary=chart_words.parts([chart_words.relevant_ranks(str(name), shown)
                                            for name, shown in zip(names, ranks, strict=True)]),
            table=([_("user"), _(chart_words.RELEVANT_AT)],
                   [[str(name), chart_words.listing(shown)] for name, shown in zip(names, ranks, strict=True)]))
    return _layout(fig, _("Each user's list: green = relevant item"), _("rank"), "")


def values_puzzle(labels, values, title: str, y_title: str, colours=None) -> go.Figure:
    """One bar per row (a rating, a score, a probability), coloured by its label."""
    fig = go.Figure(go.Bar(x=[str(x) for x in labels], y=list(values), marker_color=colours or NEUTRAL,
                           text=[numbers.general(v) for v in values], textposition="outside", name=y_title))
    fig.update_layout(height=320, showlegend=False)
    if colours:
        explain(fig, colours={HIT: _("click"), MISS: _("no click")})
    return _layout(fig, title, "", y_title)


def label_colours(y_true) -> list[str]:
    return [HIT if y == 1 else MISS for y in y_true]


def threshold_and_confusion(y_true, y_score, threshold: float, counts: dict[str, int]) -> go.Figure:
    """Scores as bars (green = click) with the threshold line, beside the confusion matrix it makes."""
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2, column_widths=[0.55, 0.45], horizontal_spacing=0.12,
                        subplot_titles=(_("scores"), _("confusion matrix")))
    names = [f"#{i + 1}" for i in range(len(y_score))]
    fig.add_trace(go.Bar(x=names, y=list(y_score), marker_color=label_colours(y_true), name=_("score"),
                         marker_line={"color": [MOVING if s >= threshold else "rgba(0,0,0,0)" for s in y_score],
                                      "width": 3}), row=1, col=1)
    guide(fig, y=threshold, color=MOVING)
    z = [[counts["TP"], counts["FN"]], [counts["FP"], counts["TN"]]]
    text = [[f"TP = {counts['TP']}", f"FN = {counts['FN']}"], [f"FP = {counts['FP']}", f"TN = {counts['TN']}"]]
    fig.add_trace(go.Heatmap(z=z, x=[_("predicted 1"), _("predicted 0")], y=[_("actual 1"), _("actual 0")], text=text,
                             texttemplate="%{text}", textfont={"color": HEATMAP_TEXT}, colorscale=HEATMAP_SCALE,
                             zmin=0, showscale=False), row=1, col=2)
    fig.update_xaxes(type="category", row=1, col=1)
    fig.update_yaxes(range=[0, 1.05], row=1, col=1)
    fig.update_yaxes(autorange="reversed", row=1, col=2)
    fig.update_layout(height=360, showlegend=False)
    explain(fig, colours={HIT: _("click"), MISS: _("no click")})
    return _layout(fig, _("Scores at or above {threshold} are predicted clicks (red outline), making this confusion "
                          "matrix").format(threshold=numbers.general(threshold)), "", "")
