"""Plotly figures of the what-if labs. No Streamlit here: tables from ``metrics`` in, figures out."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from plotly.subplots import make_subplots

from content import charts as chart_words
from content import metrics as metric_texts
from content import numbers
from content.i18n import N_, _
from ui.chart_text import explain, reference
from content.text import plotly as plotly_text
from ui.figures.charts import ALERT as ACCENT
from ui.figures.charts import HIT, MARKER, MISS, NEUTRAL, PALETTE, _layout, guide


def rank_arrows(changes: pd.DataFrame) -> go.Figure:
    """List A and list B as two columns of items, an arrow from A's rank to B's for each moved item.

    ``changes`` is ``metrics.whatif.rank_changes``; relevant items are green, others grey.
    """
    fig = go.Figure()
    colors = np.where(changes["relevant"], HIT, MISS)
    for column, x in (("rank_a", 0), ("rank_b", 1)):
        present = changes[column].notna().to_numpy()
        fig.add_trace(go.Scatter(
            x=[x] * int(present.sum()), y=changes.loc[present, column].astype(int),
            mode="markers+text", marker={"size": 14, "color": colors[present]},
            text=[plotly_text(i) for i in changes.loc[present, "item"]],
            textposition="middle left" if x == 0 else "middle right",
            name=_("list A") if x == 0 else _("list B"), hoverinfo="text", showlegend=False))
    for row in changes[changes["moved"] & changes["rank_a"].notna() & changes["rank_b"].notna()].itertuples():
        fig.add_annotation(x=0.97, y=int(row.rank_b), ax=0.03, ay=int(row.rank_a), xref="x", yref="y",
                           axref="x", ayref="y", showarrow=True, arrowhead=3, arrowwidth=2,
                           arrowcolor=HIT if row.relevant else ACCENT, text="")
    n = max([1, *changes["rank_a"].dropna().tolist(), *changes["rank_b"].dropna().tolist()])
    fig.update_xaxes(range=[-0.6, 1.6], tickvals=[0, 1], ticktext=["A", "B"])
    fig.update_yaxes(range=[n + 0.7, 0.3], dtick=1)
    moved = int(changes["moved"].sum())
    fig.update_layout(separators=numbers.plotly_separators())
    place = lambda rank: "—" if pd.isna(rank) else numbers.integer(rank)  # noqa: E731
    explain(fig, summary=chart_words.moves(
        [chart_words.moved(str(row.item), place(row.rank_a), place(row.rank_b))
         for row in changes[changes["moved"]].itertuples()], len(changes) - moved),
        table=([_("item"), _("list A"), _("list B"), _("relevant")],
               [[str(row.item), None if pd.isna(row.rank_a) else int(row.rank_a),
                 None if pd.isna(row.rank_b) else int(row.rank_b),
                 _("relevant") if row.relevant else _(chart_words.NOT_RELEVANT)] for row in changes.itertuples()]))
    return _layout(fig, _("A → B: {moved} item(s) moved (green = relevant)").format(moved=numbers.integer(moved)),
                   "", _("rank"), height=max(320, 36 * n + 90))


AXIS_NAMES = {"rank": N_("rank"), "k": "K"}  # the x of the sensitivity sweep: a rank or K


def metric_lines(sweep: pd.DataFrame, x: str, keys, current: int, k: int | None = None,
                 title: str = "") -> go.Figure:
    """One line per metric over ``x`` (a rank or K), a marker on each at ``current``, and an
    animation (play button and slider) that walks the markers through every step."""
    steps = sweep[x].astype(int).tolist()
    fig = go.Figure()
    for index, key in enumerate(keys):
        fig.add_trace(go.Scatter(x=steps, y=sweep[key], mode="lines+markers", name=metric_texts.label(key),
                                 marker={"size": 5}, line={"color": PALETTE[index % len(PALETTE)]}))
    at = sweep.set_index(x)
    colors = [PALETTE[index % len(PALETTE)] for index in range(len(keys))]
    names = [metric_texts.label(key) for key in keys]
    # One marker trace for all metrics, so each frame is one small trace (frames are costly to build).
    fig.add_trace(reference(go.Scatter(x=[current] * len(keys), y=at.loc[current, list(keys)].tolist(), mode="markers",
                                       showlegend=False, marker={"size": 12, "color": colors}, text=names,
                                       hovertemplate="%{text}: %{y:.4f}<extra></extra>", name=_("current step"))))
    marker_trace = len(keys)
    fig.frames = [go.Frame(name=str(s), traces=[marker_trace],
                           data=[go.Scatter(x=[s] * len(keys), y=at.loc[s, list(keys)].tolist())]) for s in steps]
    fig.update_layout(
        # Below the axis title (offsets in px, so they hold at any width): the buttons, then the
        # slider across the whole width, so 14 px labels never run into each other on a phone.
        updatemenus=[{"type": "buttons", "x": 0, "y": 0, "xanchor": "left", "yanchor": "top",
                      "direction": "left", "pad": {"t": 48}, "buttons": [
            {"label": _("▶ Play"), "method": "animate",
             "args": [None, {"frame": {"duration": 500, "redraw": False}, "fromcurrent": True, "transition": {"duration": 200}}]},
            {"label": "⏸", "method": "animate",
             "args": [[None], {"frame": {"duration": 0, "redraw": False}, "mode": "immediate"}]},
        ]}],
        sliders=[{"active": steps.index(current), "x": 0, "len": 1, "y": 0, "yanchor": "top", "pad": {"t": 84},
                  "currentvalue": {"prefix": f"{_(AXIS_NAMES[x])} = "},
                  "steps": [{"label": str(s), "method": "animate",
                             "args": [[str(s)], {"frame": {"duration": 0, "redraw": False}, "mode": "immediate"}]}
                            for s in steps]}],
    )
    if k is not None:
        guide(fig, x=k + 0.5, dash="dot", text=f"K = {k}")
    fig.update_yaxes(range=[-0.03, 1.08])
    fig.update_xaxes(dtick=1 if len(steps) <= 30 else None)
    fig.update_layout(separators=numbers.plotly_separators())
    return _layout(fig, title, _(AXIS_NAMES[x]), _("value"), height=520, legend_on_top=True, bottom=170)


def random_histograms(samples: pd.DataFrame, table: pd.DataFrame, labels: dict[str, str]) -> go.Figure:
    """Each metric's histogram over random orderings, with the list's score (red) and E[random] (dashed)."""
    keys = table["metric"].tolist()
    # Two panels a row: three left a phone's panels 110 px wide, their tick labels and notes overlapping.
    rows = int(np.ceil(len(keys) / 2))
    fig = make_subplots(rows=rows, cols=2, subplot_titles=[labels[key] for key in keys],
                        vertical_spacing=0.3 / rows, horizontal_spacing=0.14)
    traces, shapes, notes = [], [], []
    for index, row in enumerate(table.itertuples()):
        axis = "" if index == 0 else str(index + 1)
        values = samples[row.metric].to_numpy()
        # Binned here, so the browser gets at most 40 bars instead of every sample.
        distinct = np.unique(values)
        if distinct.size <= 40:
            x, share = distinct, np.array([np.count_nonzero(values == v) for v in distinct]) / values.size
            width = max(np.min(np.diff(distinct)) * 0.8, 0.008) if distinct.size > 1 else 0.05
        else:
            counts, edges = np.histogram(values, bins=40)
            x, share, width = (edges[:-1] + edges[1:]) / 2, counts / values.size, (edges[1] - edges[0]) * 0.95
        traces.append(go.Bar(x=x, y=share, width=width, marker_color=NEUTRAL, opacity=0.75, showlegend=False,
                             name=labels[row.metric], hovertemplate="%{x:.4f}: %{y:.1%}<extra></extra>",
                             xaxis=f"x{axis}", yaxis=f"y{axis}"))
        # Shapes written out once: add_vline per subplot costs ~100 ms a line.
        for value, style in ((row.value, {"color": ACCENT, "width": 3}), (row.expected, {"color": MISS, "dash": "dash"})):
            shapes.append({"type": "line", "xref": f"x{axis}", "yref": f"y{axis} domain", "x0": value, "x1": value,
                           "y0": 0, "y1": 1, "line": style, "layer": "below"})
        if distinct.size == 1:
            notes.append({"x": distinct[0], "y": 0.5, "xref": f"x{axis}", "yref": f"y{axis}", "showarrow": False,
                          # On two lines: one line ran over the neighbouring panels on a phone.
                          "text": _("every ordering:<br>{value}").format(value=numbers.number(distinct[0], 4)),
                          "bgcolor": "rgba(255,255,255,0.8)", "font": {"color": "black"}})
    fig.add_traces(traces)
    fig.update_layout(shapes=shapes, annotations=list(fig.layout.annotations) + notes)
    explain(fig, summary=chart_words.parts([
        chart_words.random_baseline(labels[row.metric], numbers.short(row.value, 4), numbers.short(row.expected, 4))
        for row in table.itertuples()]), columns={"x": _("value"), "y": _(chart_words.SHARE_OF_ORDERINGS)})
    fig.update_layout(separators=numbers.plotly_separators())
    fig.update_xaxes(nticks=5)  # a few labels a panel: on a phone they neither collide nor tilt
    return _layout(fig, _("Random orderings of your items: red = your list, dashed = E[random]"), "", "",
                   height=210 * rows + 100)


def sampled_bars(table: pd.DataFrame, k: int) -> go.Figure:
    """HR@K and NDCG@K of both models, full ranking next to sampled negatives."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=[f"HR@{k}", f"NDCG@{k}"])
    for evaluation, color in (("full", NEUTRAL), ("sampled", "#ef6c00")):
        part = table[table["evaluation"] == evaluation]
        for col, metric in ((1, "hit_rate"), (2, "ndcg")):
            fig.add_trace(go.Bar(x=[_("model {name}").format(name=m) for m in part["model"]], y=part[metric], marker_color=color,
                                 name=_("full catalogue") if evaluation == "full" else _("sampled negatives"),
                                 text=[numbers.number(v, 3) for v in part[metric]], textposition="outside",
                                 showlegend=col == 1, legendgroup=evaluation), row=1, col=col)
    fig.update_yaxes(range=[0, 1.15])
    fig.update_layout(barmode="group")
    fig.update_layout(separators=numbers.plotly_separators())
    return _layout(fig, _("Full ranking vs sampled negatives"), "", "", height=400)


def sampled_sweep(table: pd.DataFrame, metric: str, label: str, current: int, full_n: int) -> go.Figure:
    """A metric of both models as the number of sampled negatives grows (log axis) up to the full catalogue."""
    fig = go.Figure()
    for model, color in (("A", NEUTRAL), ("B", "#ef6c00")):
        part = table[table["model"] == model]
        fig.add_trace(go.Scatter(x=part["n_negatives"], y=part[metric], mode="lines+markers",
                                 name=_("model {name}").format(name=model), line={"color": color}))
    # Vertical markers as traces: a shape's annotation on a log axis would need log10 coordinates.
    for x, text, dash in ((current, f"n = {numbers.integer(current)}", "dash"), (full_n, _("full catalogue"), "dot")):
        fig.add_trace(reference(go.Scatter(x=[x, x], y=[0, 1.06], mode="lines+text", text=["", text],
                                           textposition="bottom left",
                                           line={"color": MARKER if dash == "dash" else MISS, "dash": dash},
                                           showlegend=False, hoverinfo="skip")))
    at = {model: table[table["model"] == model].set_index("n_negatives")[metric] for model in ("A", "B")}
    explain(fig, summary=chart_words.parts([
        chart_words.at_point(where, [chart_words.named_value(_("model {name}").format(name=model),
                                                             numbers.short(at[model].get(x, float("nan")), 4))
                                     for model in ("A", "B") if x in at[model].index])
        for x, where in ((current, f"n = {numbers.integer(current)}"),
                         (full_n, chart_words.point(_("full catalogue"), [f"n = {numbers.integer(full_n)}"])))
        if any(x in at[model].index for model in ("A", "B"))]) or None)
    fig.update_xaxes(type="log")
    fig.update_yaxes(range=[0, 1.1])
    fig.update_layout(separators=numbers.plotly_separators())
    return _layout(fig, _("{metric} as the number of sampled negatives grows").format(metric=label),
                   _("sampled negatives n (log scale)"), label, height=400)
