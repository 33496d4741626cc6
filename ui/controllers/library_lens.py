"""The library lens page's content and pure helpers: presets, the per-library table, its chart, the table of one
library's settings, and what a user with nothing relevant does to each library's mean.

No Streamlit here.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from content import conventions as words_of
from content import numbers
from content.i18n import _
from content.pages import lens as words
from metrics.conventions import (APP, CONVENTIONS, FIELD_LABELS, METRIC_LABELS, METRICS, Convention, library_values,
                                 mean_over_users)
from metrics.registry import RankingCase
from ui.chart_text import explain
from content.text import plotly as plotly_text
from ui.figures import charts


class Preset(NamedTuple):
    key: str
    recommended: list
    ground_truth: dict
    k: int

    @property
    def label(self) -> str:
        """The button's label in the reader's language (content/pages/lens.py)."""
        return words.preset_label(self.key)

    @property
    def story(self) -> str:
        return words.preset_story(self.key)

    def on_screen(self, case: RankingCase) -> bool:
        """Whether ``case`` is still this preset (the scenario's editors hold ids and grades as text and floats)."""
        return (case.recommended == [str(i) for i in self.recommended] and case.k == self.k
                and case.ground_truth == {str(i): float(g) for i, g in self.ground_truth.items()})


SEED_LIST = list(range(101, 111))

PRESETS = (
    Preset("never_recommended", SEED_LIST, {103: 1, 105: 1, 108: 1, 999: 1}, 10),
    Preset("more_relevant_than_k", SEED_LIST, {102: 1, 104: 1, 106: 1, 107: 1, 108: 1, 109: 1}, 5),
    Preset("graded", SEED_LIST, {101: 5, 104: 4, 107: 3, 999: 5}, 10),
    Preset("short_list", SEED_LIST[:5], {101: 1, 104: 1, 107: 1}, 10),
    Preset("nothing_relevant", SEED_LIST, {}, 10),
    Preset("first_hit_below_k", SEED_LIST, {107: 1}, 5),
)
BY_KEY = {p.key: p for p in PRESETS}
TUTORIAL_USER = ([str(i) for i in SEED_LIST], {"101": 1, "104": 1, "107": 1})
"""The NumPy tutorial's user: a user with nothing relevant is averaged with them."""
FOUR_PLACES = ("discount", "contribution", "precision_at_i", "one_over_rank")
"""The fractional columns of a breakdown table."""


def differing_cells(values: pd.DataFrame, differences: pd.DataFrame) -> pd.DataFrame:
    """A boolean frame shaped like ``values``: True where the library differs from the app."""
    mask = pd.DataFrame(False, index=values.index, columns=values.columns)
    for row in differences.itertuples():
        mask.at[row.library, row.metric] = True
    return mask


def _cell(value: float, library: str, metric: str) -> str:
    if not np.isnan(value):
        return numbers.number(value, 4)
    convention = CONVENTIONS.get(library, APP)
    return _(words.NO_SUCH_METRIC) if not convention.has(metric) else _(words.NO_VALUE)


def display_table(app: pd.Series, values: pd.DataFrame) -> pd.DataFrame:
    """The app's row, then one row per library, as text: 4 decimals, or why there is no number."""
    rows = {_("{name} (this app)").format(name=APP.name): {m: numbers.number(app[m], 4) for m in METRICS}}
    for library, row in values.iterrows():
        rows[library] = {m: _cell(row[m], library, m) for m in METRICS}
    table = pd.DataFrame.from_dict(rows, orient="index", columns=list(METRICS))
    table.index.name = _(words.LIBRARY_COLUMN)
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
    text = [[numbers.number(v, 4) if not np.isnan(v) else "" for v in row] for row in values.to_numpy(dtype=float)]
    limit = max(float(np.nanmax(np.abs(delta.to_numpy(dtype=float)), initial=0.0)), 0.05)
    fig = go.Figure(go.Heatmap(
        z=delta.to_numpy(dtype=float), x=[labels[m] for m in METRICS], y=[plotly_text(n) for n in values.index],
        text=text, texttemplate="%{text}", textfont={"size": charts.FONT_SIZE}, zmid=0, zmin=-limit, zmax=limit,
        colorscale=[[0.0, charts.NEUTRAL], [0.5, charts.MISS], [1.0, charts.ALERT]], xgap=2, ygap=2, colorbar={"title": {"text": _(words.CHART_DELTA)}},
        hovertemplate="%{y}, %{x}: %{text}<br>" + _(words.CHART_DELTA) + ": %{z:+.4f}<extra></extra>",
    ))
    fig.update_yaxes(autorange="reversed", automargin=True)  # library names need more than the usual margin
    fig.update_layout(separators=numbers.plotly_separators())
    explain(fig, columns={"y": _(words.LIBRARY_COLUMN)})
    return charts._layout(fig, _(words.CHART_TITLE), height=430)


BREAKDOWN_COLUMNS = ("rank", "item", "grade", "relevant", "relevance", "gain", "discount", "contribution",
                     "hit", "precision_at_i", "first_hit", "one_over_rank", "in_top_k")
"""The columns of a breakdown table worth reading on a projector (running sums are left out)."""


def breakdown_columns(table: pd.DataFrame) -> list[str]:
    return [c for c in BREAKDOWN_COLUMNS if c in table.columns]


def disagreement_summary(mask: pd.DataFrame) -> str:
    """How many library values differ from this app's, and in how many libraries, in words."""
    cells, libraries = int(mask.to_numpy().sum()), int(mask.any(axis=1).sum())
    return words.disagreement_summary(cells, libraries)


def four_places(table: pd.DataFrame):
    """A breakdown table with its fractional columns to 4 places in the reader's notation (read-only)."""
    shown = [c for c in FOUR_PLACES if c in table.columns]
    return table.style.format(lambda v: numbers.number(v, 4), subset=shown) if shown else table


def nothing_relevant(case: RankingCase) -> bool:
    return not any(grade > 0 for grade in case.ground_truth.values())


def mean_with_the_tutorial_user(case: RankingCase) -> pd.DataFrame:
    """Each library's MAP@K of the tutorial's user alone and averaged with ``case``'s, and how the library treats
    a user with no relevant item; headers in words, as a table to read."""
    means = mean_over_users([TUTORIAL_USER, (case.recommended, case.ground_truth)], case.k)
    alone = library_values(*TUTORIAL_USER, case.k)
    table = pd.DataFrame({_(words.MAP_ALONE): alone["average_precision"], _(words.MAP_WITH): means["average_precision"],
                          _(words.EMPTY_USERS): [words_of.describe(c, "empty_users") for c in CONVENTIONS.values()]})
    table.index.name = _(words.LIBRARY_COLUMN)
    return table


def settings_table(convention: Convention, library: str) -> pd.DataFrame:
    """Each setting of ``convention`` (shown as ``library``) beside this app's, ≠ where they differ, and the calls
    its users make."""
    rows = [{"setting": words_of.field_label(f), "library": words_of.describe(convention, f),
             "app": words_of.describe(APP, f), "differs": "≠" if convention.describe(f) != APP.describe(f) else ""}
            for f in FIELD_LABELS]
    rows.append({"setting": _(words.WHAT_USERS_CALL), "library": "; ".join(
        f"{METRIC_LABELS[m]}: {convention.functions[m]}" for m in convention.metrics), "app": "", "differs": ""})
    table = pd.DataFrame(rows).set_index("setting").rename(
        columns={"library": library, "app": _(words.THIS_APP), "differs": _(words.DIFFERS)})
    table.index.name = _(words.SETTING)
    return table
