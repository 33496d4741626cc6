"""A table's fractional numbers shown the way the reader writes them (0,25 in Turkish), still sorted by value.

Streamlit's grid writes every number with a point whatever the page's language; the one way to show
other text in a cell while the column still sorts by value is a pandas Styler's display values. A full
Styler renders every cell through its HTML machinery (about 8 µs a cell with pandas 3.1: 0.21 s for
22,500 cells, on every run). :func:`readers_notation` gives Streamlit only what it reads of a Styler
(``streamlit.elements.lib.pandas_styler_utils.marshall_styler``: ``_compute``, then ``_translate``'s
"body" cells with their ids and display values, the uuid and the caption), for the float columns
alone: about 3 µs a cell, most of it Streamlit's own reading. These are private parts of pandas and
Streamlit, both pinned in requirements.txt; ``tests/test_readers_notation.py`` compares what Streamlit
sends for it with what it sends for a real Styler, so an upgrade that changes either fails there.

No Streamlit here.
"""

from __future__ import annotations

import math

import pandas as pd
from pandas.io.formats.style import Styler

from content import numbers

STYLED_CELLS = 50_000
"""Above this many cells (a long log's per-user table) the grid's own notation is kept and the page
says so: the display values would cost more than 0.15 s on every run, and Streamlit refuses a
Styler of more than 262,144 cells."""


def readers_notation(frame: pd.DataFrame, columns, missing: str, language: str | None = None) -> Styler:
    """A Styler of ``frame`` showing each number of ``columns`` by :func:`content.numbers.short` (at most
    four decimals, the reader's decimal mark and grouping), ``missing`` for NaN.

    A real Styler (Streamlit recognises one by its exact type name, not a subclass) whose two steps
    Streamlit calls are replaced on this instance: nothing to compute, and a translation holding only
    the display values of ``columns``. A cell left out shows its own value, as a real Styler shows it."""
    shown = {
        frame.columns.get_loc(column): [
            missing if isinstance(value, float) and math.isnan(value) else numbers.short(value, language=language)
            for value in frame[column].tolist()]
        for column in columns}
    styler = Styler(frame)
    styler._compute = lambda: styler
    styler._translate = lambda *args, **kwargs: {
        "body": [[{"id": f"row{row}_col{column}", "display_value": values[row]} for column, values in shown.items()]
                 for row in range(len(frame))]}
    return styler


def float_columns(frame: pd.DataFrame) -> list:
    return [c for c in frame.columns if pd.api.types.is_float_dtype(frame[c].dtype)]


def in_readers_notation(frame: pd.DataFrame, missing: str = "—", language: str | None = None):
    """The frame as :func:`readers_notation` shows it when it has fractional numbers, at most ``STYLED_CELLS``
    cells and unique column names; else the frame itself (see :func:`kept_grid_notation`)."""
    columns = float_columns(frame)
    if not columns or not frame.columns.is_unique or frame.size > STYLED_CELLS:
        return frame
    return readers_notation(frame, columns, missing, language)


def kept_grid_notation(frame: pd.DataFrame, language: str | None = None) -> bool:
    """Whether the grid shows this frame's fractional numbers with a point although the reader writes a
    comma: a table too large to restyle, in a language whose decimal mark is not a point."""
    return (frame.size > STYLED_CELLS and bool(float_columns(frame))
            and numbers.decimal_mark(language) != ".")
