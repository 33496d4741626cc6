"""Plotly figures for comparing two models. No Streamlit here."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from content import metrics as metric_texts
from content import charts as chart_words
from content import compare as words
from content import numbers
from content.i18n import _
from whole_logs import significance
from ui.chart_text import explain
from ui.figures.charts import PALETTE, _layout, guide

BETTER, WORSE, UNCLEAR = PALETTE[1], PALETTE[2], "#78909c"

# The batch engine's column names (``whole_logs.batch.column_name``) and the registry metric each is.
_BATCH_TO_REGISTRY = {"precision": "precision_at_k", "recall": "recall_at_k", "f1": "f1_at_k",
                      "hit_rate": "hit_rate_at_k", "average_precision": "ap_at_k", "ndcg": "ndcg_graded_at_k",
                      "reciprocal_rank": "rr"}


def metric_label(column: str) -> str:
    """The registry's label for a batch column: "average_precision@10" -> "AP@10", "reciprocal_rank" -> "RR".

    >>> metric_label("average_precision@10"), metric_label("reciprocal_rank"), metric_label("novelty@10 (bits)")
    ('AP@10', 'RR', 'novelty@10 (bits)')
    """
    name, _, k = column.partition("@")
    key = _BATCH_TO_REGISTRY.get(name)
    if key is None:
        return column
    return metric_texts.label(key, int(k) if k.isdigit() else None)


def forest_plot(table: pd.DataFrame, alpha: float = 0.05) -> go.Figure:
    """Each metric's mean difference B - A with its interval; green/red where the adjusted p-value
    is below ``alpha``, grey where the difference is not clear."""
    metrics = list(table.index)[::-1]
    rows = table.loc[metrics]
    colors = significance.winners(rows, alpha=alpha).map(
        {"B better": BETTER, "A better": WORSE, "no clear difference": UNCLEAR}).to_numpy()
    fig = go.Figure(go.Scatter(
        x=rows["delta"], y=metrics, mode="markers", marker={"size": 12, "color": colors},
        error_x={"type": "data", "symmetric": False, "array": rows["ci_high"] - rows["delta"],
                 "arrayminus": rows["delta"] - rows["ci_low"], "thickness": 2, "width": 6,
                 "color": UNCLEAR},
        hovertext=[words.forest_hover(m, d, lo, hi, p)
                   for m, d, lo, hi, p in zip(metrics, rows["delta"], rows["ci_low"], rows["ci_high"], rows["p_adjusted"], strict=True)],
        hoverinfo="text", showlegend=False))
    guide(fig, x=0, color=UNCLEAR)
    verdicts = significance.winners(rows, alpha=alpha)
    explain(fig, colours={BETTER: _(words.VERDICTS["B better"]), WORSE: _(words.VERDICTS["A better"]),
                          UNCLEAR: _(words.VERDICTS["no clear difference"])},
            columns={"x": _(words.FOREST_AXIS), "y": _("metric")},
            # every metric's difference, grouped by verdict (best first, as the table lists them)
            summary=chart_words.parts([chart_words.group(_(words.VERDICTS[verdict]), [
                chart_words.point(metric, [numbers.number(rows.at[metric, "delta"], 4, sign=True)])
                for metric in metrics[::-1] if verdicts[metric] == verdict])
                for verdict in words.VERDICTS if (verdicts == verdict).any()]))
    fig.update_layout(height=max(260, 60 + 42 * len(metrics)), separators=numbers.plotly_separators())
    return _layout(fig, _(words.FOREST_TITLE), _(words.FOREST_AXIS), "")


def difference_histogram(differences: pd.Series, metric: str) -> go.Figure:
    """The per-user differences of one metric; most are often exactly 0 (same list quality)."""
    fig = go.Figure(go.Histogram(x=differences, nbinsx=41, marker_color=PALETTE[0]))
    guide(fig, x=float(differences.mean()), color=PALETTE[4], dash=None, text=words.mean_marker(differences.mean()),
          position="top")
    fig.update_layout(separators=numbers.plotly_separators())
    return _layout(fig, words.histogram_title(metric), words.histogram_axis(metric), _(words.USERS_AXIS))


def waterfall(groups: pd.DataFrame, title: str) -> go.Figure:
    """Each group's contribution to the mean difference, adding up to the total."""
    labels = [words.group_label(g, n) for g, n in zip(groups.index, groups["users"], strict=True)]
    fig = go.Figure(go.Waterfall(
        x=[*labels, _(words.TOTAL)], y=[*groups["contribution"], 0.0], measure=["relative"] * len(groups) + ["total"],
        text=[numbers.number(v, 4, sign=True) for v in groups["contribution"]]
        + [numbers.number(groups["contribution"].sum(), 4, sign=True)],
        textposition="outside", increasing={"marker": {"color": BETTER}}, decreasing={"marker": {"color": WORSE}},
        totals={"marker": {"color": PALETTE[0]}}))
    fig.update_layout(separators=numbers.plotly_separators())
    return _layout(fig, title, "", _(words.CONTRIBUTION_AXIS))
