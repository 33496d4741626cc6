"""Plotly figure builders. No Streamlit here: each takes tables from ``metrics`` and returns a figure."""

from __future__ import annotations

import unicodedata

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from content import charts as chart_words
from content import metrics as metric_texts
from content import numbers
from content.i18n import _
from ui.chart_text import explain, reference

# One palette for Streamlit's light (#ffffff) and dark (#0e1117) themes: every colour has at
# least 3:1 contrast against both backgrounds (tests/test_charts.py checks it).
HIT, MISS, IDEAL, NEUTRAL, ALERT = "#2f8f46", "#7f8c99", "#b87a00", "#3b82f6", "#dc2626"
MARKER = "#d6458f"  # the current-K line: a colour no data line uses
PALETTE = [NEUTRAL, HIT, ALERT, "#9b6bd6", "#c86a0a", "#1a9c9c", "#b0774a"]
# Mid to deep blue cells with white text: no white block on a dark page, no dark text on dark cells.
HEATMAP_SCALE = [[0.0, "#6b8fd0"], [1.0, "#2c5cc5"]]
HEATMAP_TEXT = "#ffffff"
FONT_SIZE = 14  # px: projector-readable; titles 16 px
TITLE_WIDTH = 38  # columns per title line (a Chinese character takes two): fits a 390 px phone beside the toolbar


# Where plotly's add_vline/add_hline put a line's label, by annotation_position: (xanchor, yanchor, end).
_VLINE_LABELS = {"top right": ("left", "top", 1), "top left": ("right", "top", 1), "top": ("center", "bottom", 1),
                 "bottom right": ("left", "bottom", 0), "bottom left": ("right", "bottom", 0),
                 "bottom": ("center", "top", 0)}
_HLINE_LABELS = {"top right": ("right", "bottom", 1), "top left": ("left", "bottom", 0),
                 "bottom right": ("right", "top", 1), "bottom left": ("left", "top", 0)}


def guide(fig: go.Figure, *, x: float | None = None, y: float | None = None, axes: str = "", color: str = MARKER,
          dash: str | None = "dash", width: float = 2, text: str | None = None, position: str = "top right",
          font_size: int | None = None) -> go.Figure:
    """A vertical line at ``x`` (or a horizontal one at ``y``) across the plot of axes ``axes``
    ("" for the first, "2" for the second subplot...), with an optional label, placed as plotly's
    add_vline/add_hline place it. Written as one shape: add_vline costs ~40 ms a line on a cold
    server (~100 ms per subplot), most of a page's first answer."""
    line = {"color": color, "width": width} | ({"dash": dash} if dash else {})
    if x is not None:
        shape = {"type": "line", "x0": x, "x1": x, "xref": f"x{axes}", "y0": 0, "y1": 1, "yref": f"y{axes} domain"}
        xanchor, yanchor, end = _VLINE_LABELS[position]
        label = {"x": x, "xref": f"x{axes}", "y": end, "yref": f"y{axes} domain"}
    else:
        shape = {"type": "line", "y0": y, "y1": y, "yref": f"y{axes}", "x0": 0, "x1": 1, "xref": f"x{axes} domain"}
        xanchor, yanchor, end = _HLINE_LABELS[position]
        label = {"y": y, "yref": f"y{axes}", "x": end, "xref": f"x{axes} domain"}
    fig.layout.shapes = (*fig.layout.shapes, shape | {"line": line})
    if text is not None:
        label |= {"text": text, "showarrow": False, "xanchor": xanchor, "yanchor": yanchor}
        fig.layout.annotations = (*fig.layout.annotations,
                                  label | ({"font": {"size": font_size}} if font_size else {}))
    return fig


def rank_window(k: int) -> int:
    """How many ranks a per-rank chart shows: the top max(K, 20), so 200 items stay readable."""
    return max(int(k), 20)


# A wide (W) or full-width (F) character, as Chinese is written with, takes two columns of a title
# line: TITLE_WIDTH counted characters, and a Chinese title of 38 characters ran twice as wide as
# a phone. A line may break at a space and, since Chinese has no spaces, beside a wide character,
# but never before closing punctuation nor after opening punctuation ("，", "）" start no line).
_NO_LINE_START = frozenset("，。、；：！？）》」』】〕〉”’…%)]},.;:!?")
_NO_LINE_END = frozenset("（《「『【〔〈“‘([{")


def _is_wide(character: str) -> bool:
    return unicodedata.east_asian_width(character) in ("W", "F")


def display_width(text: str) -> int:
    """The columns ``text`` takes on a title line: two for a wide or full-width character, one for any other."""
    return sum(2 if _is_wide(character) else 1 for character in text)


def _pieces(word: str) -> list[str]:
    """A word (no spaces) cut where a line may break inside it: beside a wide character, except
    before closing or after opening punctuation. A word with no wide character stays whole."""
    pieces = [word[:1]]
    for before, character in zip(word, word[1:]):
        if ((_is_wide(before) or _is_wide(character))
                and character not in _NO_LINE_START and before not in _NO_LINE_END):
            pieces.append(character)
        else:
            pieces[-1] += character
    return pieces


def _wrap(title: str, width: int = TITLE_WIDTH) -> list[str]:
    """``title`` in lines of at most ``width`` columns (``display_width``), broken at spaces and
    between wide characters; a word longer than a line keeps a line of its own."""
    lines: list[str] = []
    for word in title.split(" "):
        for index, piece in enumerate(_pieces(word)):
            joined = (" " if index == 0 else "") + piece  # a space between words, none inside one
            if lines and display_width(lines[-1] + joined) <= width:
                lines[-1] += joined
            else:
                lines.append(piece)
    return lines


def _layout(fig: go.Figure, title: str, x: str | None = None, y: str | None = None, *, height: int | None = None,
            legend_on_top: bool = False, bottom: int = 40) -> go.Figure:
    """Finish every chart of the app the same way: a wrapped title, 14 px text everywhere, the toolbar apart.

    Works for subplots (every axis, colour bar and subplot title), animations (each frame's title
    is wrapped too, and the top margin fits the longest) and sliders or buttons. ``x``/``y`` name
    the first axes (None leaves them as they are); ``bottom`` is the bottom margin (more for a
    slider); ``legend_on_top`` puts the legend above the plot, right-aligned, under the title.
    """
    # No template: st.plotly_chart applies the Streamlit theme, and a template costs ~13 ms a figure.
    # The title is wrapped to fit a phone and starts at the chart's left edge; the toolbar stands
    # upright at the right edge (in its own margin), so the two never meet.
    lines = _wrap(title)
    title_style = {"x": 0, "xanchor": "left", "xref": "container", "pad": {"l": 8, "t": 22},
                   "y": 1, "yref": "container", "yanchor": "top", "font": {"size": FONT_SIZE + 2}}
    for frame in fig.frames or ():
        if frame.layout.title.text is not None:
            frame_lines = _wrap(frame.layout.title.text.replace("<br>", " "))  # wrapped once, even if the caller did
            frame.layout.title = {"text": "<br>".join(frame_lines), **title_style}
            lines = max(lines, frame_lines, key=len)
    # Streamlit's theme draws ticks, legends, annotations and colour bars at 12 px unless told otherwise.
    text_font = {"size": FONT_SIZE}
    legend = ({"orientation": "h", "x": 1, "xanchor": "right", "y": 1.02, "yanchor": "bottom", "font": text_font}
              if legend_on_top else {"orientation": "h", "y": -0.25, "font": text_font})
    top = 40 + 21 * len(lines) + (30 if legend_on_top else 0)
    layout = {
        "title": {"text": "<br>".join(_wrap(title)), **title_style},
        "margin": {"l": 50, "r": 40, "t": top, "b": bottom},
        "legend": legend,
        "font": text_font,
        "hoverlabel": {"font": text_font},
        "modebar": {"orientation": "v"},
        "uniformtext": {"minsize": FONT_SIZE, "mode": "hide"},  # bar text under 14 px is hidden, not shrunk
        "separators": numbers.plotly_separators(),  # 0,5 in Turkish: ticks, hover and d3 formats
    }
    if height is not None:
        layout["height"] = height
    for axis, text in (("xaxis", x), ("yaxis", y)):
        if text is not None:
            layout[axis] = {"title": {"text": text}}
    fig.update_layout(layout)
    fig.update_xaxes(tickfont=text_font, title_font=text_font)  # every axis of every subplot
    fig.update_yaxes(tickfont=text_font, title_font=text_font)
    for annotation in fig.layout.annotations:  # shape labels and subplot titles
        annotation.font.size = FONT_SIZE
    for trace in fig.data:
        if "colorbar" in trace and trace.showscale is not False:
            trace.colorbar.update(tickfont=text_font, title_font=text_font)
        if trace.type == "heatmap" and trace.textfont.size is None:  # Plotly shrinks cell text to fit otherwise
            trace.textfont.size = FONT_SIZE
    for control in (*fig.layout.sliders, *fig.layout.updatemenus):
        control.font.size = FONT_SIZE
    for slider in fig.layout.sliders:
        slider.currentvalue.font.size = FONT_SIZE
    return fig


def weight_name(weight: str) -> str:
    """A GAUC weight as a chart title names it, in the reader's language."""
    return {"impressions": _("impressions"), "clicks": _("clicks"), "uniform": _("uniform")}.get(weight, weight)


def metrics_vs_k(curves: pd.DataFrame, current_k: int) -> go.Figure:
    """One line per metric over K, with the current K marked by a vertical line."""
    fig = go.Figure()
    mode = "lines+markers" if len(curves) <= 40 else "lines"
    for index, key in enumerate(c for c in curves.columns if c != "k"):
        fig.add_trace(go.Scatter(x=curves["k"], y=curves[key], mode=mode,
                                 name=metric_texts.label(key), line={"color": PALETTE[index % len(PALETTE)]}))
    guide(fig, x=current_k, text=f"K = {numbers.integer(current_k)}")
    fig.update_yaxes(range=[-0.02, 1.05])
    at = curves[curves["k"] == current_k]
    if len(at):  # the numbers that matter: each metric at the marked K
        explain(fig, summary=chart_words.at_point(f"K = {numbers.integer(current_k)}", [
            chart_words.named_value(metric_texts.label(key), numbers.short(at[key].iloc[0], 4))
            for key in curves.columns if key != "k"]))
    return _layout(fig, _("Each metric as K grows"), "K", _("value"))


def _window(table: pd.DataFrame, window: int | None) -> tuple[pd.DataFrame, str]:
    """The first ``window`` ranks of a per-rank table, and a note for the title when rows were cut."""
    if window is None or len(table) <= window:
        return table, ""
    return table[table["rank"] <= window], _("(ranks 1-{window} of {total})").format(
        window=numbers.integer(window), total=numbers.integer(len(table)))


def _titled(title: str, note: str) -> str:
    """A chart title with the note on cut rows after it."""
    return _("{title} {note}").format(title=title, note=note) if note else title


def top_k_window(table: pd.DataFrame, k: int) -> go.Figure:
    """The ranked list as bars (hit, relevant outside the top K, miss), the top-K window shaded.

    A long list shows its first max(K, 20) ranks, and the title says so.
    """
    table, note = _window(table, rank_window(k))
    colors = np.where(table["hit"], HIT, np.where(table["relevant"], IDEAL, MISS))
    fig = go.Figure(go.Bar(x=table["rank"], y=np.ones(len(table)), marker_color=colors,
                           text=table["item"].astype(str), textposition="inside",
                           hovertext=[_("rank {rank}: {item} ({what})").format(
                               rank=numbers.integer(r), item=i,
                               what=_("hit") if h else _("relevant, outside top K") if rel else _("miss"))
                               for r, i, h, rel in zip(table["rank"], table["item"], table["hit"], table["relevant"], strict=True)],
                           hoverinfo="text", name=_("items")))
    fig.add_vrect(x0=0.5, x1=k + 0.5, fillcolor=NEUTRAL, opacity=0.15, line_width=0,
                  annotation_text=_("top {k}").format(k=numbers.integer(k)), annotation_position="outside top left")
    fig.update_yaxes(visible=False)
    fig.update_layout(height=260, showlegend=False)
    explain(fig, colours={HIT: _("hit"), IDEAL: _("relevant, outside top K"), MISS: _("miss")},
            columns={"text": _("item")})
    title = (_("The list {note}: green = hit in the top K, amber = relevant but below K, grey = miss").format(note=note)
             if note else _("The list: green = hit in the top K, amber = relevant but below K, grey = miss"))
    return _layout(fig, title, _("rank"), "")


def contributions(table: pd.DataFrame, title: str, window: int | None = None) -> go.Figure:
    """AP contributions per rank: precision@i at each hit (the first ``window`` ranks)."""
    table, note = _window(table, window)
    title = _titled(title, note)
    fig = go.Figure(go.Bar(x=table["rank"], y=table["contribution"],
                           marker_color=np.where(table["hit"], HIT, MISS),
                           text=[numbers.number(v, 3) if h else "" for v, h in zip(table["contribution"], table["hit"], strict=True)],
                           name=_("contribution")))
    fig.add_trace(go.Scatter(x=table["rank"], y=table["precision_at_i"], mode="lines+markers",
                             name=_("precision@i"), line={"color": NEUTRAL, "dash": "dot"}))
    explain(fig, colours={HIT: _("hit"), MISS: _("miss")})
    return _layout(fig, title, _("rank i"), _("value"))


def dcg_actual_vs_ideal(actual: pd.DataFrame, ideal: pd.DataFrame, window: int | None = None) -> go.Figure:
    """Per-rank DCG contributions of the recommended list next to the ideal ranking's (first ``window`` ranks)."""
    (actual, note), (ideal, _cut) = _window(actual, window), _window(ideal, window)
    fig = go.Figure()
    hover = _("rank {rank}: {item}").format(rank="%{x}", item="%{text}") + "<br>%{y:.4f}<extra></extra>"
    fig.add_trace(go.Bar(x=actual["rank"], y=actual["contribution"], name=_("your list"), marker_color=NEUTRAL,
                         text=actual["item"].astype(str), hovertemplate=hover))
    fig.add_trace(go.Bar(x=ideal["rank"], y=ideal["contribution"], name=_("ideal order"), marker_color=IDEAL,
                         text=ideal["item"].astype(str), hovertemplate=hover))
    fig.update_layout(barmode="group")
    return _layout(fig, _titled(_("Contribution gain / log2(i+1) per rank"), note), _("rank i"), _("contribution"))


def rating_errors(table: pd.DataFrame) -> go.Figure:
    """Absolute and squared error per prediction: squares make the large misses tower."""
    fig = go.Figure()
    x = np.arange(1, len(table) + 1)
    fig.add_trace(go.Bar(x=x, y=table["absolute_error"], name=_("|error| (MAE averages these)"), marker_color=NEUTRAL))
    fig.add_trace(go.Bar(x=x, y=table["squared_error"], name=_("error² (MSE averages these)"), marker_color=ALERT))
    fig.update_layout(barmode="group")
    return _layout(fig, _("Error of each prediction"), _("row"), _("error"))


def rmse_vs_mae(summary: pd.DataFrame) -> go.Figure:
    """RMSE and MAE per model side by side."""
    fig = go.Figure()
    for name, color in (("RMSE", ALERT), ("MAE", NEUTRAL)):
        fig.add_trace(go.Bar(x=summary["model"], y=summary[name], name=name, marker_color=color,
                             text=[numbers.number(v, 4) for v in summary[name]], textposition="outside"))
    fig.update_layout(barmode="group")
    return _layout(fig, _("RMSE vs MAE per model"), _("model"), _("error (stars)"))


def rmse_mae_over_outliers(sweep: pd.DataFrame, current: float) -> go.Figure:
    """RMSE and MAE of the outlier-prone model as the outlier share grows."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=sweep["outlier_share"], y=sweep["RMSE"], name="RMSE", mode="lines+markers", line={"color": ALERT}))
    fig.add_trace(go.Scatter(x=sweep["outlier_share"], y=sweep["MAE"], name="MAE", mode="lines+markers", line={"color": NEUTRAL}))
    guide(fig, x=current, text=numbers.percent(current))
    fig.update_xaxes(tickformat=".0%")
    return _layout(fig, _("Outlier-prone model: RMSE jumps with the first outliers, MAE grows slowly"),
                   _("share of ±4-star misses"), _("error (stars)"))


def confusion_matrix(counts: dict[str, int]) -> go.Figure:
    """The 2x2 confusion matrix as a labelled heatmap."""
    z = [[counts["TP"], counts["FN"]], [counts["FP"], counts["TN"]]]
    text = [[f"TP = {counts['TP']}", f"FN = {counts['FN']}"], [f"FP = {counts['FP']}", f"TN = {counts['TN']}"]]
    fig = go.Figure(go.Heatmap(z=z, x=[_("predicted 1"), _("predicted 0")], y=[_("actual 1"), _("actual 0")], text=text,
                               texttemplate="%{text}", textfont={"color": HEATMAP_TEXT, "size": FONT_SIZE + 2},
                               colorscale=HEATMAP_SCALE, zmin=0, showscale=False))
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(height=320)
    return _layout(fig, _("Confusion matrix"), "", "")


def roc_curve(points: pd.DataFrame, auc: float) -> go.Figure:
    """The ROC curve with its area shaded and the chance diagonal."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=points["fpr"], y=points["tpr"], mode="lines+markers", fill="tozeroy",
                             name=f"ROC (AUC = {numbers.number(auc, 4)})", line={"color": NEUTRAL}))
    fig.add_trace(reference(go.Scatter(x=[0, 1], y=[0, 1], mode="lines",
                                       name=_("chance (AUC = {half})").format(half=numbers.general(0.5)),
                                       line={"color": MISS, "dash": "dash"})))
    explain(fig, summary=chart_words.roc(len(points), numbers.number(auc, 4), numbers.general(0.5)))
    fig.update_xaxes(range=[0, 1])
    fig.update_yaxes(range=[0, 1.02])
    return _layout(fig, _("ROC curve"), _("false-positive rate"), _("true-positive rate"))


def per_user_auc(table: pd.DataFrame, weight: str) -> go.Figure:
    """Each user's AUC as a bar whose width of evidence (the weight) is printed on it."""
    used = table[table["skipped_because"] == ""]
    fig = go.Figure(go.Bar(x=used["user"].astype(str), y=used["auc"], marker_color=NEUTRAL,
                           text=[f"w = {numbers.general(w)}" for w in used[weight]], textposition="outside", name="AUC"))
    fig.update_yaxes(range=[0, 1.15])
    return _layout(fig, _("AUC per user (weight: {weight})").format(weight=weight_name(weight)), _("user"), "AUC")


def log_loss_curve(table: pd.DataFrame) -> go.Figure:
    """−log(p) of the true class, with each sample placed on the curve."""
    p = np.linspace(0.001, 1, 400)
    fig = go.Figure(reference(go.Scatter(x=p, y=-np.log(p), mode="lines", name=_("−log(p of the true label)"),
                                         line={"color": MISS})))
    p_true = np.where(table["label"] == 1, table["clipped"], 1 - table["clipped"])
    fig.add_trace(go.Scatter(x=p_true, y=table["loss"], mode="markers+text", name=_("your samples"),
                             text=[f"#{i + 1}" for i in range(len(table))], textposition="top center",
                             marker={"size": 12, "color": ALERT}))
    fig.update_yaxes(range=[0, max(7.0, float(table["loss"].max()) * 1.1 if len(table) else 7.0)])
    return _layout(fig, _("Loss of each sample: confident mistakes cost the most"),
                   _("probability given to the true label"), _("loss"))


def per_user_bars(table: pd.DataFrame, column: str, mean: float, mean_label: str, title: str) -> go.Figure:
    """One bar per user (``table["user"]``, ``table[column]``) and the mean over users as a line.

    Bars sit at positions 1..n labelled with the user names, so two users typed with the same
    name still get a bar each.
    """
    positions = list(range(1, len(table) + 1))
    fig = go.Figure(go.Bar(x=positions, y=table[column], marker_color=NEUTRAL, name=column,
                           text=[numbers.number(v, 4) for v in table[column]], textposition="outside"))
    guide(fig, y=mean, text=f"{mean_label} = {numbers.number(mean, 4)}")
    fig.update_xaxes(tickvals=positions, ticktext=table["user"].astype(str).tolist())
    fig.update_yaxes(range=[0, 1.15])
    return _layout(fig, title, _("user"), column)


def reciprocal_rank_positions(table: pd.DataFrame, window: int | None = None) -> go.Figure:
    """1/rank at each position of the list (the first ``window`` ranks); the first hit (whose bar is RR) in green."""
    table, note = _window(table, window)
    colors = np.where(table["first_hit"], HIT, np.where(table["relevant"], IDEAL, MISS))
    fig = go.Figure(go.Bar(x=table["rank"], y=table["one_over_rank"], marker_color=colors, name="1/rank",
                           text=table["item"].astype(str), textposition="inside",
                           hovertemplate=_("rank {rank}: {item}").format(rank="%{x}", item="%{text}")
                           + "<br>1/rank = %{y:.4f}<extra></extra>"))
    fig.update_yaxes(range=[0, 1.05])
    explain(fig, colours={HIT: _("first hit"), IDEAL: _(chart_words.LATER_HIT), MISS: _("miss")},
            columns={"text": _("item")})
    title = (_("1/rank at each position {note}: RR is the green bar (the first hit); amber = later hits").format(note=note)
             if note else _("1/rank at each position: RR is the green bar (the first hit); amber = later hits"))
    return _layout(fig, title, _("rank"), "1/rank")


def accuracy_vs_positive_share(sweep: pd.DataFrame, current: float) -> go.Figure:
    """Accuracy and recall of an always-0 model as the share of positives grows."""
    fig = go.Figure()
    for key, color in (("accuracy", NEUTRAL), ("recall", ALERT)):
        fig.add_trace(go.Scatter(x=sweep["positive_share"], y=sweep[key], name=metric_texts.label(key),
                                 mode="lines", line={"color": color}))
    guide(fig, x=current, text=numbers.percent(current))
    fig.update_xaxes(tickformat=".0%")
    fig.update_yaxes(range=[-0.02, 1.05])
    return _layout(fig, _("A model that never predicts a click: accuracy looks great, recall is 0"),
                   _("share of clicks (label 1) among impressions"), _("value"))


def printed_vs_exact(table: pd.DataFrame) -> go.Figure:
    """How far each number a document prints is from the exact value (0 = printed correctly)."""
    wrong = ~table["agrees"].to_numpy(dtype=bool)
    fig = go.Figure(go.Bar(
        x=table["difference"], y=table["value"], orientation="h",
        marker_color=np.where(wrong, ALERT, HIT),
        text=[_("prints {printed}, exact {exact}").format(printed=p, exact=numbers.number(e, 5))
              for p, e in zip(table["printed_text"], table["exact"], strict=True)],
        textposition="auto", name=_("printed − exact")))
    fig.update_layout(height=max(300, 28 * len(table)), yaxis={"autorange": "reversed"})
    explain(fig, colours={ALERT: _(chart_words.PRINTED_WRONG), HIT: _(chart_words.PRINTED_RIGHT)})
    return _layout(fig, _("Printed minus exact: red bars are numbers the documents get wrong"), _("printed − exact"), "")
