"""Every chart's text alternative: a one-sentence summary of what it shows, and its data as a table.

A Plotly chart is a picture: a screen reader gets nothing from it, its toolbar is not reached with Tab
and its hover needs a mouse. ``describe(figure)`` reads the figure's traces (an animation's last frame)
and returns the chart's name, one sentence that states the numbers that matter, and a table of every
drawn point, its numbers in the reader's notation; ``ui.widgets.chart`` shows them with the chart.
No Streamlit here.

The generic reading, per series (a line, a row of bars, a grid): its name, then each point when there
are a handful, a curve's first and last point (and its peak between them), or the highest and lowest
of many bars; points whose colour means something are read colour by colour; then the labelled lines
and areas drawn over the data (the current K, a mean).

A builder says what its traces cannot with ``explain(figure, ...)``, kept in ``layout.meta``:
``colours`` maps a marker colour to what it means ("hit"), ``columns`` names the table's columns of the
``x`` and ``y`` axes (a grid's rows: ``y``) and of the points' ``text``, ``summary`` replaces the generic
details with the builder's own, ``table`` (columns, rows) replaces the table read from the traces. A trace drawn for reference rather than data
(the chance diagonal, the formula's curve, a marker repeating a point) is marked with ``reference(trace)``.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from content import charts as words
from content import i18n, numbers
from content.i18n import _

REFERENCE = "reference"
"""``trace.meta`` of a trace drawn for reference: neither the summary nor the table reads it."""
META = "text_alternative"
"""The key of a builder's explanations in ``layout.meta``."""
FEW = 6
"""A series of at most this many points is read point by point."""


@dataclass(frozen=True)
class TextAlternative:
    name: str             # the chart's title, as plain text (the chart's accessible name)
    summary: str          # one sentence, plain text (never Markdown)
    table: pd.DataFrame   # every drawn point, as text: numbers in the reader's notation
    numeric: tuple[str, ...] = ()  # the table's columns of numbers


def reference(trace):
    """Mark a trace as drawn for reference, not data; returns it."""
    trace.meta = REFERENCE
    return trace


def explain(figure, *, summary: str | None = None, colours: dict[str, str] | None = None,
            columns: dict[str, str] | None = None, table: tuple[list, list] | None = None):
    """Keep a builder's explanations of ``figure`` for its text alternative; returns the figure."""
    meta = dict((figure.layout.meta or {}).get(META, {})) if isinstance(figure.layout.meta, dict) else {}
    if summary is not None:
        meta["summary"] = summary
    if colours is not None:
        meta["colours"] = {colour.lower(): meaning for colour, meaning in colours.items()}
    if columns is not None:
        meta["columns"] = dict(columns)
    if table is not None:
        header, rows = table
        meta["table"] = {"columns": list(header), "rows": [[_plain_value(v) for v in row] for row in rows]}
    figure.layout.meta = {META: meta}
    return figure


def describe(figure) -> TextAlternative:
    """The figure's name, summary and table, in the reader's language and notation."""
    layout = figure.layout.to_plotly_json()
    meta = (layout.get("meta") or {}).get(META, {}) if isinstance(layout.get("meta"), dict) else {}
    traces = _traces(figure)
    panels = _panels(layout, traces)
    colours = meta.get("colours", {})
    series = [s for s in (_series(trace, layout, colours, panels) for trace in traces) if s is not None]
    name = _plain(_title(layout))
    details = meta.get("summary") or _details(series, _marks(layout, panels), list(colours.values()))
    captions = [_plain(_title(frame.layout.to_plotly_json())) for frame in figure.frames or ()]
    if len(captions) > 1 and captions[-1]:  # an animation whose frames say what each step shows
        name = captions[0] or name
        details = words.animation(len(captions), captions[-1], details)
    table, numeric = _meta_table(meta["table"]) if "table" in meta else _table(series, meta.get("columns", {}))
    return TextAlternative(name, words.sentence(name, details), table, numeric)


# --------------------------------------------------------------------------- reading the figure


def _plain(value) -> str:
    """Plotly text as plain text: line breaks as spaces, tags dropped, entities (a typed '<') read back."""
    text = re.sub(r"(?i)<br\s*/?>", " ", str(value))
    text = re.sub(r"<[^<>]*>", "", text)
    return " ".join(html.unescape(text).split())


def _plain_value(value):
    if isinstance(value, np.generic):
        return value.item()
    return value


def _title(layout: dict) -> str:
    title = layout.get("title") or {}
    return (title.get("text") if isinstance(title, dict) else title) or ""


def _traces(figure) -> list[dict]:
    """The data traces as dicts; an animation's last frame replaces the traces it redraws."""
    data = [trace.to_plotly_json() for trace in figure.data]
    if figure.frames:
        last = figure.frames[-1]
        indices = list(last.traces) if last.traces is not None else list(range(len(last.data)))
        for index, trace in zip(indices, last.data, strict=False):
            if index < len(data):
                data[index] = {**data[index], **trace.to_plotly_json()}
    return [trace for trace in data if trace.get("meta") != REFERENCE]


def _values(array) -> list:
    if array is None:
        return []
    if isinstance(array, (str, bytes)):
        return [array]
    return [_plain_value(v) for v in (array.tolist() if isinstance(array, np.ndarray) else array)]


def _number(value) -> float | None:
    kind = type(value)
    if kind is float or kind is int:
        return float(value)
    if kind is bool or not isinstance(value, (int, float, np.number)):
        return None
    return float(value)


def _finite(value) -> bool:
    return value is not None and not math.isnan(value) and not math.isinf(value)


@dataclass
class _Axis:
    title: str = ""
    hidden: bool = False
    ticks: dict = field(default_factory=dict)
    percent: bool = False


def _key(value):
    number = _number(value)
    return number if number is not None else value


def _axis(layout: dict, ref: str) -> _Axis:
    spec = layout.get(f"{ref[0]}axis{ref[1:]}") or {}
    title = spec.get("title") or {}
    title = title.get("text") if isinstance(title, dict) else title
    ticks = {}
    if spec.get("tickvals") is not None and spec.get("ticktext") is not None:
        ticks = {_key(v): _plain(t) for v, t in zip(_values(spec["tickvals"]), _values(spec["ticktext"]), strict=False)}
    return _Axis(_plain(title or ""), spec.get("visible") is False, ticks, str(spec.get("tickformat") or "").endswith("%"))


def _percent(value: float) -> str:
    whole = abs(value * 100 - round(value * 100)) < 1e-9
    return numbers.percent(value, 0 if whole else 1)


def _shown(value, axis: _Axis) -> str:
    """A value as the axis writes it, in the reader's notation."""
    if isinstance(value, str):
        return _plain(value)
    number = _number(value)
    if number is None or math.isnan(number):
        return numbers.number(None)
    if axis.ticks and number in axis.ticks:
        return axis.ticks[number]
    return _percent(number) if axis.percent else numbers.short(number, 4)


def _at(value, axis: _Axis) -> str:
    """Where a point is: a category as it is named, a number with its axis' name ("rank 3")."""
    shown = _shown(value, axis)
    if isinstance(value, str) or (axis.ticks and _key(value) in axis.ticks):
        return shown
    return words.on_axis(axis.title, shown)


def _cell_value(value, axis: _Axis):
    """A value as the table holds it: a number stays a number unless the axis writes it otherwise."""
    if isinstance(value, str):
        return _plain(value)
    number = _number(value)
    if number is None:
        return None
    if (axis.ticks and number in axis.ticks) or axis.percent:
        return _shown(number, axis)
    return number


@dataclass
class _Point:
    at: object                   # where: a category or a number on the position axis
    value: float | None          # the drawn value (None on a hidden value axis)
    label: str | None = None     # the point's own text (an item's name), when it is not just its value
    meaning: str | None = None   # what its colour means
    lower: float | None = None   # an error bar's ends
    upper: float | None = None


@dataclass
class _Series:
    name: str
    kind: str                    # line, bar, markers, heatmap, histogram, box, pie
    points: list[_Point]
    at_axis: _Axis
    value_axis: _Axis
    raw: list = field(default_factory=list)        # a histogram's or box's values
    grid: tuple | None = None                      # a heatmap's (rows, columns, cells)
    across: str = "x"                              # the axis of the positions ("y": horizontal bars)


def _series(trace: dict, layout: dict, colours: dict, panels: dict) -> _Series | None:
    kind = trace.get("type", "scatter")
    x_ref, y_ref = trace.get("xaxis", "x"), trace.get("yaxis", "y")
    x_axis, y_axis = _axis(layout, x_ref), _axis(layout, y_ref)
    name = _plain(trace.get("name") or "")
    panel = panels.get((x_ref, y_ref))
    if panel:
        name = words.in_panel(panel, name)
    if kind == "heatmap":
        return _heatmap(trace, name, x_axis, y_axis)
    if kind == "pie":
        labels, values = _values(trace.get("labels")), _values(trace.get("values"))
        return _Series(name, "pie", [_Point(_plain(label), _number(value)) for label, value in zip(labels, values, strict=False)],
                       _Axis(), _Axis())
    if kind == "histogram":
        horizontal = trace.get("x") is None
        raw = [v for v in (_number(v) for v in _values(trace.get("y" if horizontal else "x"))) if _finite(v)]
        if not raw:
            return None
        distinct, counts = np.unique(raw, return_counts=True)
        at_axis, value_axis = (y_axis, x_axis) if horizontal else (x_axis, y_axis)
        return _Series(name, "histogram", [_Point(float(v), float(c)) for v, c in zip(distinct, counts, strict=True)],
                       at_axis, value_axis, raw=raw)
    if kind == "box":
        raw = [v for v in (_number(v) for v in _values(trace.get("y") if trace.get("y") is not None else trace.get("x")))
               if _finite(v)]
        if not raw:
            return None
        stats = dict(zip(words.STATISTICS, np.percentile(raw, [0, 25, 50, 75, 100]).tolist(), strict=True))
        return _Series(name, "box", [_Point(_(words.STATISTICS[key]), value) for key, value in stats.items()],
                       _Axis(), _Axis(), raw=raw)
    return _cartesian(trace, kind, name, x_axis, y_axis, colours)


def _heatmap(trace: dict, name: str, x_axis: _Axis, y_axis: _Axis) -> _Series | None:
    cells = [_values(row) for row in _values(trace.get("z"))]
    if not cells:
        return None
    columns = _values(trace.get("x")) or list(range(max(len(row) for row in cells)))
    rows = _values(trace.get("y")) or list(range(len(cells)))
    text = trace.get("text")
    text = [_values(row) for row in _values(text)] if text is not None and not isinstance(text, str) else None
    colour_bar = (trace.get("colorbar") or {}).get("title") or ""
    name = name or _plain((colour_bar.get("text") if isinstance(colour_bar, dict) else colour_bar) or "")
    points, shown = [], []
    for i, row in enumerate(cells):
        shown_row = []
        for j, value in enumerate(row):
            label = text[i][j] if text is not None and i < len(text) and j < len(text[i]) else None
            label = _plain(label) if label not in (None, "") else None
            points.append(_Point(words.cell(_shown(rows[i], y_axis), _shown(columns[j], x_axis)), _number(value), label))
            shown_row.append(label if label is not None else _number(value))
        shown.append(shown_row)
    grid = ([_shown(r, y_axis) for r in rows], [_shown(c, x_axis) for c in columns], shown)
    return _Series(name, "heatmap", points, _Axis(), _Axis(title=name), grid=grid)


_DECIMALS = re.compile(r"[.,](\d+)")


def _says_value(text, value: float | None) -> bool:
    """Whether a point's text only writes its value ("0.9500", "+0.0123", 3), so the table needs no label column."""
    if isinstance(text, (int, float, np.number)) and not isinstance(text, bool):
        return value is not None and math.isclose(float(text), value, abs_tol=1e-9)
    if text in (None, ""):
        return True  # no text (a miss's empty bar label)
    if not isinstance(text, str) or value is None:
        return False
    cleaned = text.strip().replace("\u2212", "-").lstrip("+").rstrip("%")
    try:
        number = numbers.parse(cleaned)
    except numbers.NumberError:
        return False
    if text.strip().endswith("%"):
        number /= 100
    digits = _DECIMALS.search(cleaned)
    return abs(number - value) <= 0.5 * 10 ** -(len(digits.group(1)) if digits else 0) + 1e-9


def _cartesian(trace: dict, kind: str, name: str, x_axis: _Axis, y_axis: _Axis, colours: dict) -> _Series | None:
    x, y = _values(trace.get("x")), _values(trace.get("y"))
    count = max(len(x), len(y))
    if not count:
        return None
    x, y = x or list(range(count)), y or list(range(count))
    horizontal = trace.get("orientation") == "h" or (
        kind == "scatter" and all(isinstance(v, str) for v in y) and not all(isinstance(v, str) for v in x))
    at, drawn, at_axis, value_axis = (y, x, y_axis, x_axis) if horizontal else (x, y, x_axis, y_axis)
    values = [_number(v) for v in drawn]
    if kind == "waterfall":  # a total is drawn at the sum so far
        measures, running = _values(trace.get("measure")), 0.0
        for i, value in enumerate(values):
            if i < len(measures) and measures[i] == "total":
                values[i] = running
            else:
                running += value or 0.0
    if value_axis.hidden:
        values = [None] * len(values)
    texts = trace.get("text")
    texts = _values(texts) if texts is not None and not isinstance(texts, str) else []
    labels = [None] * len(at)
    if texts and not all(_says_value(t, v) for t, v in zip(texts, values, strict=False)):
        labels = [_plain(t) if t not in (None, "") else None for t in texts] + [None] * (len(at) - len(texts))
    marker = trace.get("marker") or {}
    colour = marker.get("color")
    meanings = [None] * len(at)
    if colours and colour is not None:
        per_point = [colour] * len(at) if isinstance(colour, str) else _values(colour)
        meanings = [colours.get(str(c).lower(), _(words.OTHER)) for c in per_point]
    error = trace.get("error_x" if horizontal else "error_y") or {}
    plus = _values(error.get("array"))
    minus = plus if error.get("symmetric", True) is not False else _values(error.get("arrayminus"))
    points = []
    for i, position in enumerate(at):
        value = values[i] if i < len(values) else None
        point = _Point(position, value, labels[i] if i < len(labels) else None,
                       meanings[i] if i < len(meanings) else None)
        if plus and value is not None and i < len(plus) and i < len(minus):
            point.lower, point.upper = value - float(minus[i]), value + float(plus[i])
        points.append(point)
    mode = trace.get("mode") or ("lines" if kind == "scatter" else "")
    shape = "bar" if kind in ("bar", "waterfall") else "line" if "lines" in mode else "markers"
    return _Series(name, shape, points, at_axis, value_axis, across="y" if horizontal else "x")


def _panels(layout: dict, traces: list[dict]) -> dict:
    """Each subplot's title (``make_subplots``' paper annotations above its plot), by (x axis, y axis)."""
    references = {(t.get("xaxis", "x"), t.get("yaxis", "y")) for t in traces}
    titles = [a for a in layout.get("annotations") or () if a.get("xref") == "paper" and a.get("yref") == "paper"
              and a.get("text") and a.get("x") is not None and a.get("y") is not None]
    if len(references) < 2 or not titles:
        return {}
    found = {}
    for x_ref, y_ref in references:
        x_domain = (layout.get(f"xaxis{x_ref[1:]}") or {}).get("domain") or [0, 1]
        y_domain = (layout.get(f"yaxis{y_ref[1:]}") or {}).get("domain") or [0, 1]
        above = [a for a in titles if x_domain[0] - 0.01 <= a["x"] <= x_domain[1] + 0.01 and a["y"] >= y_domain[1] - 0.01]
        if above:
            found[(x_ref, y_ref)] = _plain(min(above, key=lambda a: a["y"] - y_domain[1])["text"])
    return found


def _marks(layout: dict, panels: dict) -> list[str]:
    """The labels of the lines and areas drawn over the data (subplot titles are the panels' names)."""
    taken = set(panels.values())
    marks = []
    for annotation in layout.get("annotations") or ():
        text = _plain(annotation.get("text") or "")
        if text and text not in marks and not (text in taken and annotation.get("xref") == "paper"):
            marks.append(text)
    return marks


# --------------------------------------------------------------------------- the summary


def _point_text(point: _Point, series: _Series) -> str:
    shown = [point.label] if point.label else []
    value = None if point.value is None else _shown(point.value, series.value_axis)
    if value is not None and not (series.kind == "heatmap" and point.label and value in point.label):
        shown.append(value)  # a grid's cell text ("TP = 3") may already say its value
    at = point.at if series.kind in ("heatmap", "pie", "box") else _at(point.at, series.at_axis)
    return words.point(at, shown)


def _describe(series: _Series, meanings: list[str]) -> str:
    if series.kind == "histogram":
        raw = series.raw
        return words.distribution(len(raw), _shown(min(raw), series.at_axis), _shown(max(raw), series.at_axis),
                                  _shown(float(np.mean(raw)), series.at_axis))
    if series.kind == "box":
        stats = {p.at: p.value for p in series.points}
        low, median, high = (stats[_(words.STATISTICS[key])] for key in ("min", "median", "max"))
        return words.box(numbers.short(median, 4), numbers.short(low, 4), numbers.short(high, 4))
    points = series.points
    if any(p.meaning for p in points):
        groups: dict[str, list[_Point]] = {meaning: [] for meaning in meanings}  # in the builder's order
        for p in points:
            groups.setdefault(p.meaning or _(words.OTHER), []).append(p)
        return words.parts([words.group(meaning, [_point_text(p, series) for p in members]) if len(members) <= FEW
                            else words.group_count(meaning, len(members), len(points))
                            for meaning, members in groups.items() if members])
    valued = [p for p in points if _finite(p.value)]
    if len(points) <= FEW or not valued:
        return words.listing([_point_text(p, series) for p in points[:FEW]])
    high, low = max(valued, key=lambda p: p.value), min(valued, key=lambda p: p.value)
    shown = lambda p: _shown(p.value, series.value_axis)  # noqa: E731
    where = lambda p: _point_text(_Point(p.at, None, p.label), series)  # noqa: E731
    if series.kind == "line" and all(_number(p.at) is not None for p in valued):
        first, last = valued[0], valued[-1]
        if high is not first and high is not last and high.value > max(first.value, last.value):
            return words.line(shown(first), where(first), shown(last), where(last), shown(high), where(high))
        return words.line(shown(first), where(first), shown(last), where(last))
    if high.value == low.value:
        return words.everywhere(shown(high), len(valued))
    return words.extremes(shown(high), where(high), shown(low), where(low))


def _details(series: list[_Series], marks: list[str], meanings: list[str]) -> str:
    parts = []
    for s in series:
        name = s.name
        if len(series) == 1 and any(p.meaning for p in s.points):
            name = ""  # one series read colour by colour: the colours' meanings name its parts
        elif not name and len(series) > 1:
            name = s.value_axis.title or _(words.VALUE)
        parts.append(words.series(name, _describe(s, meanings)))
    if marks:
        parts.append(words.marked(marks))
    return words.parts(parts) if parts else _(words.NO_DATA)


# --------------------------------------------------------------------------- the table


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    result = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        result.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return result


def _frame(columns: list[str], rows: list[list]) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """The table as text, numbers written in the reader's notation (at most four decimals, as a chart's hover
    shows them), and the names of its columns of numbers (shown aligned right). Text, not a Styler over
    numbers: a Styler costs about 0.1 ms a cell on every run, a chart's table may have a thousand."""
    names = _unique(columns)
    numeric = [all(c is None or _number(c) is not None for c in column) for column in zip(*rows)] if rows else []
    language = i18n.current()  # read once: from the session, it took most of a 60,000-point chart's table
    cells = [[c if c is None or isinstance(c, str) else numbers.short(c, 4, language=language) if _number(c) is not None
              else str(c) for c in row] for row in rows]
    return (pd.DataFrame(cells, columns=names, dtype=object),
            tuple(name for name, is_numeric in zip(names, numeric, strict=False) if is_numeric))


def _meta_table(table: dict) -> tuple[pd.DataFrame, tuple[str, ...]]:
    return _frame(table["columns"], table["rows"])


def _table(series: list[_Series], names: dict) -> tuple[pd.DataFrame, tuple[str, ...]]:
    if not series:
        return _frame([_(words.VALUE)], [])
    if len(series) == 1 and series[0].grid is not None:
        rows, columns, cells = series[0].grid
        header = names.get("y") or _(words.ROW)
        return _frame([header, *columns], [[row, *cells[i]] for i, row in enumerate(rows)])
    first = series[0]
    along = "x" if first.across == "y" else "y"
    at_header = names.get(first.across) or first.at_axis.title or _(words.POSITION)
    value_header = names.get(along) or first.value_axis.title or _(words.VALUE)
    flat = [(s, p) for s in series for p in s.points]
    has = {part: any(getattr(p, part) is not None for _s, p in flat) for part in ("label", "meaning", "lower", "value")}
    plain = [s for s in series if s.kind in ("line", "bar", "markers")]
    if (len(series) > 1 and len(plain) == len(series) and not has["label"] and not has["meaning"] and not has["lower"]
            and all([p.at for p in s.points] == [p.at for p in first.points] for s in series)):
        # Several series over the same positions: one column each.
        return _frame([at_header, *[s.name or s.value_axis.title or _(words.VALUE) for s in series]],
                      [[_cell_value(p.at, first.at_axis), *[_cell_value(s.points[i].value, s.value_axis) for s in series]]
                       for i, p in enumerate(first.points)])
    columns = ([_(words.SERIES)] if len(series) > 1 else []) + [at_header]
    columns += [value_header] if has["value"] else []
    columns += [names.get("text") or _(words.LABEL)] if has["label"] else []
    columns += [_(words.COLOUR_MEANS)] if has["meaning"] else []
    columns += [_(words.LOWER), _(words.UPPER)] if has["lower"] else []
    rows = []
    for s, p in flat:
        at = p.at if s.kind in ("heatmap", "pie", "box") else _cell_value(p.at, s.at_axis)
        row = ([s.name or s.value_axis.title or _(words.VALUE)] if len(series) > 1 else []) + [at]
        row += [_cell_value(p.value, s.value_axis)] if has["value"] else []
        row += [p.label] if has["label"] else []
        row += [p.meaning] if has["meaning"] else []
        row += [p.lower, p.upper] if has["lower"] else []
        rows.append(row)
    return _frame(columns, rows)
