"""The library lens page's content and pure helpers: presets, the per-library table, its chart.

No Streamlit here.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from metrics.conventions import APP, CONVENTIONS, METRIC_LABELS, METRICS, Breakdown
from ui.formulas import fmt
from ui.text import latex as latex_text
from ui.text import plotly as plotly_text
from ui import charts


class Preset(NamedTuple):
    key: str
    label: str
    story: str
    recommended: list
    ground_truth: dict
    k: int


SEED_LIST = list(range(101, 111))

PRESETS = (
    Preset("never_recommended", "999 never recommended",
           "The NumPy tutorial's relevant item 999 is not in the list. Libraries that are given only the recommended "
           "rows never learn it exists; torchmetrics divides AP by the hits it found.",
           SEED_LIST, {103: 1, 105: 1, 108: 1, 999: 1}, 10),
    Preset("more_relevant_than_k", "|Rel| > K",
           "Six relevant items but only five slots: dividing AP by |Rel| = 6 means even a perfect top 5 "
           "cannot score 1; min(|Rel|, K) = 5 can.",
           SEED_LIST, {102: 1, 104: 1, 106: 1, 107: 1, 108: 1, 109: 1}, 5),
    Preset("graded", "Graded relevance",
           "The NumPy tutorial's graded example: linear or exponential gain, grades ignored, the ideal sorted or not.",
           SEED_LIST, {101: 5, 104: 4, 107: 3, 999: 5}, 10),
    Preset("short_list", "List shorter than K",
           "Five recommendations, K = 10: most libraries count the five empty slots as misses; Evidently "
           "fails outright when no list reaches K.",
           SEED_LIST[:5], {101: 1, 104: 1, 107: 1}, 10),
    Preset("nothing_relevant", "A user with nothing relevant",
           "No relevant item at all: counted as 0 in the mean, or left out of it?",
           SEED_LIST, {}, 10),
    Preset("first_hit_below_k", "First hit below K",
           "The only relevant item is at rank 7 and K = 5: RR with a cut-off at K is 0, without one 1/7.",
           SEED_LIST, {107: 1}, 5),
)
BY_KEY = {p.key: p for p in PRESETS}


def differing_cells(values: pd.DataFrame, differences: pd.DataFrame) -> pd.DataFrame:
    """A boolean frame shaped like ``values``: True where the library differs from the app."""
    mask = pd.DataFrame(False, index=values.index, columns=values.columns)
    for row in differences.itertuples():
        mask.at[row.library, row.metric] = True
    return mask


def _cell(value: float, library: str, metric: str) -> str:
    if not np.isnan(value):
        return f"{value:.4f}"
    convention = CONVENTIONS.get(library, APP)
    return "no such metric" if not convention.has(metric) else "no value"


def display_table(app: pd.Series, values: pd.DataFrame) -> pd.DataFrame:
    """The app's row, then one row per library, as text: 4 decimals, or why there is no number."""
    rows = {f"{APP.name} (this app)": {m: f"{app[m]:.4f}" for m in METRICS}}
    for library, row in values.iterrows():
        rows[library] = {m: _cell(row[m], library, m) for m in METRICS}
    table = pd.DataFrame.from_dict(rows, orient="index", columns=list(METRICS))
    table.index.name = "library"
    return table


def column_labels(k: int) -> dict[str, str]:
    return {m: METRIC_LABELS[m].replace("K", str(k)) for m in METRICS}


def styled(table: pd.DataFrame, mask: pd.DataFrame, k: int):
    """The display table with differing cells highlighted, columns named with K."""
    full_mask = pd.DataFrame(False, index=table.index, columns=table.columns)
    full_mask.loc[mask.index, mask.columns] = mask
    highlight = "background-color: rgba(255, 75, 75, 0.25); font-weight: 600"
    app_row = "font-weight: 600"
    styles = pd.DataFrame("", index=table.index, columns=table.columns)
    styles[full_mask] = highlight
    styles.iloc[0] = app_row
    return table.rename(columns=column_labels(k)).style.apply(
        lambda _: styles.rename(columns=column_labels(k)), axis=None)


def values_chart(app: pd.Series, values: pd.DataFrame, mask: pd.DataFrame, k: int) -> go.Figure:
    """A grid of library × metric: the colour is how far the library's value lies from the app's
    (white: the same), the text is the library's value; empty where it gives none."""
    labels = column_labels(k)
    delta = values.sub(app, axis=1).where(mask, 0.0).where(values.notna())
    text = [[f"{v:.4f}" if not np.isnan(v) else "" for v in row] for row in values.to_numpy(dtype=float)]
    limit = max(float(np.nanmax(np.abs(delta.to_numpy(dtype=float)), initial=0.0)), 0.05)
    fig = go.Figure(go.Heatmap(
        z=delta.to_numpy(dtype=float), x=[labels[m] for m in METRICS], y=[plotly_text(n) for n in values.index],
        text=text, texttemplate="%{text}", textfont={"size": charts.FONT_SIZE}, zmid=0, zmin=-limit, zmax=limit,
        colorscale=[[0.0, charts.NEUTRAL], [0.5, charts.MISS], [1.0, charts.ALERT]], xgap=2, ygap=2, colorbar={"title": {"text": "library − app"}},
        hovertemplate="%{y}, %{x}: %{text}<br>library − app: %{z:+.4f}<extra></extra>",
    ))
    fig.update_yaxes(autorange="reversed", automargin=True)  # library names need more than the usual margin
    return charts._layout(fig, "Each library's value, coloured by its difference from the app's", height=430)


def breakdown_latex(name: str, metric: str, k: int, b: Breakdown) -> str:
    """``name``'s value of ``metric`` as numerator / denominator = value, in LaTeX."""
    label = {"precision": rf"\mathrm{{P@{k}}}", "recall": rf"\mathrm{{R@{k}}}",
             "average_precision": rf"\mathrm{{AP@{k}}}", "ndcg": rf"\mathrm{{NDCG@{k}}}",
             "reciprocal_rank": r"\mathrm{RR}"}[metric]
    who = latex_text(name)
    if np.isnan(b.value):
        return rf"{label}_{{{who}}} = \text{{no value}}"
    if np.isnan(b.denominator) or not b.denominator:
        return rf"{label}_{{{who}}} = {fmt(b.value)}"
    return rf"{label}_{{{who}}} = \frac{{{fmt(b.numerator)}}}{{{fmt(b.denominator)}}} = {fmt(b.value)}"


BREAKDOWN_COLUMNS = ("rank", "item", "grade", "relevant", "relevance", "gain", "discount", "contribution",
                     "hit", "precision_at_i", "first_hit", "one_over_rank", "in_top_k")
"""The columns of a breakdown table worth reading on a projector (running sums are left out)."""


def breakdown_columns(table: pd.DataFrame) -> list[str]:
    return [c for c in BREAKDOWN_COLUMNS if c in table.columns]


def disagreement_summary(mask: pd.DataFrame) -> str:
    """How many library values differ from this app's, and in how many libraries, in words."""
    cells, libraries = int(mask.to_numpy().sum()), int(mask.any(axis=1).sum())
    if not cells:
        return "Every library agrees with this app on this scenario."
    return (f"{cells} value{'s' if cells != 1 else ''} in {libraries} librar{'ies' if libraries != 1 else 'y'} "
            "differ{'s' if cells == 1 else ''} from this app's on this scenario.")
