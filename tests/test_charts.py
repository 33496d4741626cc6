"""One chart palette that reads in Streamlit's light and dark themes, on every page's charts."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from tests.conftest import chart_specs, run_page
from ui.figures import charts
from ui.navigation import PAGES

BACKGROUNDS = {"light": "#ffffff", "dark": "#0e1117"}  # Streamlit's two theme backgrounds
NAMED = {"black": "#000000", "white": "#ffffff", "grey": "#808080", "gray": "#808080"}


def _rgb(color: str) -> tuple[float, float, float]:
    color = NAMED.get(color.strip().lower(), color.strip())
    if re.fullmatch(r"#[0-9a-fA-F]{6}", color):
        return tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))
    match = re.fullmatch(r"rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)", color)
    assert match, f"unknown colour format {color!r}"
    assert match.group(4) is None or float(match.group(4)) >= 0.99, f"a see-through colour depends on the theme: {color}"
    return tuple(float(match.group(i)) for i in (1, 2, 3))


def _luminance(color: str) -> float:
    channels = [c / 255 for c in _rgb(color)]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _colours(node, path=""):
    """Every colour a chart draws with: (where, colour), including colour-scale stops."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "textfont":
                continue  # text on heatmap cells: checked against the cells below
            if key == "colorscale" and isinstance(value, list):
                yield from ((f"{path}.colorscale", stop[1]) for stop in value)
            elif key in ("color", "fillcolor") and isinstance(value, str):
                yield f"{path}.{key}", value
            elif key == "color" and isinstance(value, list):
                yield from ((f"{path}.{key}", v) for v in value if isinstance(v, str))
            else:
                yield from _colours(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _colours(value, f"{path}[{index}]")


# Write it yourself shows code, verdicts and tables; Which metric when is a table of links; the live
# class's first screen is a join form (its reveal charts are checked below); the protocol lab trains
# nothing until asked (its slope chart is checked below).
CHARTLESS = {"kata", "which_metric", "live", "protocols"}


@pytest.mark.parametrize("path", [p.path for p in PAGES if p.topic not in CHARTLESS],
                         ids=[p.topic for p in PAGES if p.topic not in CHARTLESS])
def test_every_chart_colour_reads_on_light_and_dark_backgrounds(path):
    at = run_page(path)
    checked = 0
    for spec in chart_specs(at):
        shapes = [s for s in spec["layout"].get("shapes", []) if s.get("opacity", 1) >= 0.5]
        for where, colour in [*_colours(spec["data"]), *_colours(shapes, "shapes")]:
            for theme, background in BACKGROUNDS.items():
                assert contrast(colour, background) >= 3, (spec["layout"]["title"]["text"], where, colour, theme)
            checked += 1
    assert checked, "no colour was checked"


def test_the_k_marker_is_not_black_and_the_confusion_matrix_text_reads_on_its_cells():
    for background in BACKGROUNDS.values():
        assert contrast(charts.MARKER, background) >= 3
    for _, cell in charts.HEATMAP_SCALE:
        assert contrast(charts.HEATMAP_TEXT, cell) >= 3


def test_the_live_class_reveal_charts_read_on_light_and_dark_backgrounds():
    from ui.figures import live_charts

    figures = [live_charts.answers_bars([("0.3", 9, False), ("0.75", 3, True)], mine="0.3"),
               live_charts.answers_histogram([(0.5, 2), (0.8278, 3)], 0.8278, mine=0.5)]
    checked = 0
    for figure in figures:
        spec = figure.to_plotly_json()
        for where, colour in [*_colours(spec["data"]), *_colours(spec["layout"].get("shapes", []), "shapes")]:
            if colour.startswith("rgba(0,0,0,0)"):
                continue  # no outline
            for theme, background in BACKGROUNDS.items():
                assert contrast(colour, background) >= 3, (where, colour, theme)
            checked += 1
    assert checked >= 4


def test_a_metric_of_1_for_every_user_shows_its_whole_bar_inside_the_axis():
    """HR@10 = 1 for every user: the last bin holds them (closed at 1.0) and sits inside the axis,
    where a histogram binned by plotly put them in a bin starting at 1.0, outside the range."""
    from ui.figures import batch_charts

    per_user = pd.DataFrame({"hit_rate@10": [1.0] * 7 + [0.0] * 3, "ndcg@10": np.linspace(0, 1, 10)})
    fig = batch_charts.histograms(per_user, ["hit_rate@10", "ndcg@10"])
    hits, ndcg = fig.data
    assert list(hits.y) == [3] + [0] * 18 + [7] and sum(ndcg.y) == 10
    right_edge = hits.x[-1] + hits.width / 2
    assert right_edge <= fig.layout.xaxis.range[1] == 1
    assert [shape.x0 for shape in fig.layout.shapes] == [0.7, pytest.approx(0.5)]  # the means, one line per panel


def test_the_protocol_labs_slope_chart_colours_read_on_both_backgrounds():
    import pandas as pd

    from ui.figures.protocol_charts import rank_slopes

    names = ["random", "pop", "itemknn", "ease", "mf"]
    fig = rank_slopes(pd.Series([5, 4, 3, 1, 2], index=names), pd.Series([5, 3, 2, 1, 4], index=names),
                      ("leave-last-out", "global time"), "NDCG@10")
    colours = list(_colours(fig.to_plotly_json()["data"]))
    assert len(colours) >= len(names)
    for where, colour in colours:
        for theme, background in BACKGROUNDS.items():
            assert contrast(colour, background) >= 3, (where, colour, theme)
