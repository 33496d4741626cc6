"""Every chart's text alternative (issue 31, point 11): a one-sentence summary a screen reader reaches, and the
chart's data as a table on demand, numbers in the reader's notation.

A Plotly chart is a picture: its toolbar is not reached with Tab and its hover needs a mouse. Each chart is
shown by ``ui.widgets.chart``: the chart named by its title, a caption with the summary right under it, then an
expander "Data of this chart" holding the table read from the figure's traces.
"""

from __future__ import annotations

import html
import json
import math
import re

import pandas as pd
import plotly.graph_objects as go
import pytest

from content import i18n, numbers
from metrics.topn_metrics import top_k_table
from tests.conftest import edit, plotly_array, run_page
from ui.chart_text import META, REFERENCE, describe
from ui.navigation import PAGES

# Write it yourself shows code and tables; Which metric when is a table of links; the live class's first
# screen is a join form and the protocol lab trains nothing until asked: their charts are checked below
# from their builders.
CHARTLESS = {"kata", "which_metric", "live", "protocols"}
# Lesson steps of every kind of chart the lessons draw: an animation of bars, of lines, of a ROC curve and of
# a loss curve; the puzzles (a list, the users' lists, scores, labels); two bar panels.
LESSON_STEPS = [("topn", 4), ("ap", 3), ("ap", 5), ("auc", 2), ("auc", 3), ("classification", 3),
                ("logloss", 2), ("logloss", 6), ("rating", 2)]


# --------------------------------------------------------------------------- reading the page


def charts_with_text(at) -> list[tuple[dict, str, str, list[list[str]]]]:
    """Each chart on the page: its spec, its accessible name, the caption right under it (as plain text)
    and the table in the expander right after that (its cells as shown)."""
    found = []

    def walk(node):
        children = getattr(node, "children", None)
        if not children:
            return
        ordered = [children[k] for k in sorted(children)]
        for index, child in enumerate(ordered):
            if child.type == "plotly_chart":
                caption, expander = ordered[index + 1], ordered[index + 2]
                assert caption.type == "caption", f"no summary under the chart, found {caption.type}"
                assert expander.type == "expander", f"no data expander under the summary, found {expander.type}"
                tables = [c for c in expander.children.values() if c.type == "dataframe"]
                assert len(tables) == 1
                found.append((json.loads(child.proto.spec), child.proto.alt, plain(caption.value),
                              shown_cells(tables[0]), expander.label))
            walk(child)

    walk(at.main)
    return found


def plain(markdown: str) -> str:
    """Markdown escaped by content.text.markdown, as the reader sees it."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", str(markdown)).replace("\u2060", "")


def shown_cells(element) -> list[list[str]]:
    frame = element.value
    return [[str(frame.columns[j]) for j in range(frame.shape[1])]] + [
        ["" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v) for v in row]
        for row in frame.itertuples(index=False)]


def _text(value) -> str:
    text = re.sub(r"(?i)<br\s*/?>", " ", str(value))
    return " ".join(html.unescape(re.sub(r"<[^<>]*>", "", text)).split())


def read_number(cell: str, language: str) -> tuple[float, float] | None:
    """A shown number and the tolerance its digits give (0.4286 stands for 0.42857...), or None for text."""
    cell = cell.strip().replace("\u2212", "-")
    percent = cell.endswith("%") or cell.startswith("%")
    cell = cell.strip("%").lstrip("+")
    group = {"tr": "."}.get(language, ",")
    try:
        value = numbers.parse(cell.replace(group, ""), language=language)
    except numbers.NumberError:
        return None
    decimals = re.search(rf"[{re.escape(numbers.decimal_mark(language))}](\d+)$", cell)
    tolerance = 0.5 * 10 ** -(len(decimals.group(1)) if decimals else 0)
    return (value / 100, tolerance / 100) if percent else (value, tolerance)


def drawn(spec: dict) -> tuple[list[float], list[str]]:
    """The numbers and the words every data trace draws (an animation's last frame), as a reader would look them
    up: each point's position and value, a grid's cells, a histogram's distinct values."""
    data = [dict(t) for t in spec["data"]]
    frames = spec.get("frames") or []
    if len(frames) > 1 and (frames[-1].get("layout") or {}).get("title"):
        last = frames[-1]
        for index, trace in zip(last.get("traces") or range(len(last["data"])), last["data"], strict=False):
            data[index] = {**data[index], **trace}
    layout = spec["layout"]
    values, words = [], []

    def axis(ref: str) -> dict:
        return layout.get(f"{ref[0]}axis{ref[1:]}") or {}

    for trace in data:
        if trace.get("meta") == REFERENCE:
            continue
        kind = trace.get("type", "scatter")
        if kind == "heatmap":
            if trace.get("text") is not None:
                words += [_text(t) for row in trace["text"] for t in row if t]
            else:
                values += [v for row in trace["z"] for v in plotly_array(row)]
            continue
        if kind == "histogram":
            values += sorted(set(plotly_array(trace["x"])))
            continue
        x, y = plotly_array(trace.get("x", [])), plotly_array(trace.get("y", []))
        horizontal = trace.get("orientation") == "h" or (
            kind == "scatter" and y and all(isinstance(v, str) for v in y) and not all(isinstance(v, str) for v in x))
        (at, at_axis), (value, value_axis) = ((y, trace.get("yaxis", "y")), (x, trace.get("xaxis", "x"))) if horizontal \
            else ((x, trace.get("xaxis", "x")), (y, trace.get("yaxis", "y")))
        measures = trace.get("measure") or []
        if axis(value_axis).get("visible") is not False:
            values += [v for i, v in enumerate(value) if not (i < len(measures) and measures[i] == "total")]
        ticks = dict(zip(plotly_array(axis(at_axis).get("tickvals") or []), axis(at_axis).get("ticktext") or []))
        for position in at:
            if isinstance(position, str):
                words.append(_text(position))
            elif position in ticks:
                words.append(_text(ticks[position]))
            else:
                values.append(position)
    return [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))], words


def assert_table_holds_the_data(spec: dict, cells: list[list[str]], language: str) -> None:
    shown = [read_number(c, language) for row in cells[1:] for c in row]
    shown = [n for n in shown if n is not None]
    texts = {c for row in cells for c in row}
    explained = (spec["layout"].get("meta") or {}).get(META, {})
    if "table" in explained:  # the builder's own table (a slope chart's places without the tie offsets)
        expected = [explained["table"]["columns"], *explained["table"]["rows"]]
        assert len(cells) == len(expected)
        for row, wanted in zip(cells, expected, strict=True):
            for cell, value in zip(row, wanted, strict=True):
                if isinstance(value, (int, float)):
                    number, tolerance = read_number(cell, language)
                    assert abs(number - value) <= tolerance + 1e-9, (cell, value)
                else:
                    assert cell == ("" if value is None else str(value)), (cell, value)
        return
    values, words = drawn(spec)
    assert values or words, "the chart draws nothing"
    for value in values:
        assert any(abs(value - number) <= tolerance + 1e-9 for number, tolerance in shown), \
            (spec["layout"]["title"]["text"], value, cells[:4])
    for word in words:
        assert any(word == text or word in text for text in texts), (spec["layout"]["title"]["text"], word, cells[:4])


def check_page(at, language: str = "en") -> int:
    found = charts_with_text(at)
    for spec, name, summary, cells, label in found:
        title = _text(spec["layout"]["title"]["text"])
        assert name == title, "the chart is named by its title for a screen reader"
        assert summary.startswith(title) and len(summary) > len(title) + 3, summary
        assert summary.endswith("。" if language == "zh" else "."), summary
        assert summary.count("\n") == 0, "one sentence"
        with i18n.speaking(language):
            assert label == i18n._("Data of this chart")
        assert len(cells) > 1, "the data table is empty"
        assert_table_holds_the_data(spec, cells, language)
    return len(found)


# --------------------------------------------------------------------------- every chart of every page


@pytest.mark.parametrize("path", [p.path for p in PAGES if p.topic not in CHARTLESS],
                         ids=[p.topic for p in PAGES if p.topic not in CHARTLESS])
def test_every_chart_has_a_summary_under_it_and_its_data_in_a_table(path):
    at = run_page(path)
    assert check_page(at) == len(at.get("plotly_chart")) >= 1


@pytest.mark.parametrize(("lesson", "step"), LESSON_STEPS, ids=[f"{k}-{n}" for k, n in LESSON_STEPS])
def test_every_lesson_chart_has_a_summary_and_its_data(lesson, step):
    at = run_page("pages/10_Lessons.py", query_params={"lesson": lesson, "step": str(step)})
    assert check_page(at) == len(at.get("plotly_chart")) >= 1


def test_in_turkish_the_summaries_and_tables_write_the_decimal_comma():
    at = run_page("app.py", query_params={"lang": "tr"})
    assert check_page(at, "tr") == 2
    (_window, _name, list_summary, _cells, _label), (_curves, _name2, summary, cells, label) = charts_with_text(at)
    assert label == "Bu grafiğin verileri"
    # The seed example: P@10 = 0.3, AP@10 = 0.6429, NDCG@10 = 0.8278, listed with ';' (the comma is the decimal mark).
    assert "K = 10 için: Precision@K 0,3; Recall@K 1; F1@K 0,4615; HR@K 1; AP@K 0,6429" in summary, summary
    assert "isabet: sıra 1 (101); sıra 4 (104); sıra 7 (107)" in list_summary, list_summary
    numbers_shown = [c for row in cells[1:] for c in row[1:]]
    assert any("," in c for c in numbers_shown) and not any("." in c for c in numbers_shown), cells[:3]


def test_in_chinese_the_summary_reads_as_one_chinese_sentence():
    at = run_page("pages/4_RR_and_MRR.py", query_params={"lang": "zh"})
    assert check_page(at, "zh") == 2
    summaries = [summary for _spec, _name, summary, _cells, _label in charts_with_text(at)]
    assert "第一个命中：排名 1（101、1）" in summaries[0], summaries[0]
    assert "MRR = 0.4444" in summaries[1] and "alice（1）" in summaries[1], summaries[1]


# --------------------------------------------------------------------------- the numbers that matter, per kind


def summaries(at) -> dict[str, tuple[str, list[list[str]]]]:
    return {_text(spec["layout"]["title"]["text"]): (summary, cells)
            for spec, _name, summary, cells, _label in charts_with_text(at)}


def test_curves_over_k_state_each_metric_at_the_marked_k():
    at = run_page("pages/2_Precision_Recall_HR_F1.py")
    summary, cells = summaries(at)["Each metric as K grows"]
    values = {row[0]: row[1:] for row in cells[1:]}
    assert summary == ("Each metric as K grows: at K = 10: Precision@K 0.3, Recall@K 1, F1@K 0.4615, HR@K 1.")
    assert cells[0] == ["K", "Precision@K", "Recall@K", "F1@K", "HR@K"]
    assert values["10"] == ["0.3", "1", "0.4615", "1"] and values["1"] == ["1", "0.3333", "0.5", "1"]


def test_a_coloured_list_says_which_ranks_hit_and_which_items_they_hold():
    at = run_page("app.py")
    table = top_k_table([str(i) for i in range(101, 111)], {"101": 1, "104": 1, "107": 1}, 10)
    assert list(table.loc[table["hit"], "rank"]) == [1, 4, 7]
    summary, cells = summaries(at)["The list: green = hit in the top K, amber = relevant but below K, grey = miss"]
    assert summary.endswith(": hit: rank 1 (101), rank 4 (104), rank 7 (107); miss: 7 of 10; marked: top 10."), summary
    assert cells[0] == ["rank", "item", "colour means"]
    assert cells[1] == ["1", "101", "hit"] and cells[2] == ["2", "102", "miss"]


def test_bars_per_row_state_each_rows_error_and_follow_an_edit():
    at = run_page("pages/1_Rating_errors.py")
    edit(at, "ratings", edited_rows={0: {"prediction": "1"}})
    actual = at.session_state["ratings"].at[0, "actual"]
    summary, cells = summaries(at)["Error of each prediction"]
    error = abs(1 - actual)
    assert f"|error| (MAE averages these): row 1 ({numbers.short(error, 4)})," in summary, summary
    assert f"error² (MSE averages these): row 1 ({numbers.short(error ** 2, 4)})," in summary, summary
    assert cells[1][:3] == ["1", numbers.short(error, 4), numbers.short(error ** 2, 4)]


def test_a_grid_states_each_cell():
    at = run_page("pages/6_Classification_metrics.py")
    counts = {row[0]: row[1:] for row in summaries(at)["Confusion matrix"][1][1:]}
    summary = summaries(at)["Confusion matrix"][0]
    assert summary == ("Confusion matrix: actual 1 / predicted 1 (TP = 3), actual 1 / predicted 0 (FN = 1), "
                       "actual 0 / predicted 1 (FP = 1), actual 0 / predicted 0 (TN = 1).")
    assert counts == {"actual 1": ["TP = 3", "FN = 1"], "actual 0": ["FP = 1", "TN = 1"]}


def test_the_roc_curve_states_its_area_and_leaves_out_the_chance_diagonal():
    at = run_page("pages/7_AUC_and_GAUC.py")
    summary, cells = summaries(at)["ROC curve"]
    auc = at.get("plotly_chart")[0]
    assert summary == "ROC curve: the curve passes through 9 points; the area under it is AUC = 0.6250 (chance: 0.5)."
    assert len(cells) == 1 + 9, "the ROC points only, not the diagonal's two"
    assert json.loads(auc.proto.spec)["data"][1]["meta"] == REFERENCE


def test_a_histogram_of_differences_states_how_many_from_where_to_where_and_the_mean():
    at = run_page("pages/18_Compare_two_models.py")
    spec = next(s for s, *_rest in charts_with_text(at) if s["data"][0]["type"] == "histogram")
    differences = pd.Series(plotly_array(spec["data"][0]["x"]))
    summary, cells = summaries(at)[_text(spec["layout"]["title"]["text"])]
    assert (f"{numbers.integer(len(differences))} values from {numbers.short(differences.min(), 4)} to "
            f"{numbers.short(differences.max(), 4)}, mean {numbers.short(differences.mean(), 4)}") in summary, summary
    assert sum(float(row[1].replace(",", "")) for row in cells[1:]) == len(differences)


def test_a_waterfall_states_each_group_and_the_total_they_add_up_to():
    at = run_page("pages/18_Compare_two_models.py")
    for spec, _name, summary, cells, _label in charts_with_text(at):
        if spec["data"][0]["type"] != "waterfall":
            continue
        contributions = plotly_array(spec["data"][0]["y"])[:-1]
        total = numbers.short(sum(contributions), 4)
        assert summary.endswith(f"total ({total}).") and cells[-1][1:] == [total], (summary, cells[-1])


def test_the_forest_plot_states_every_metrics_difference_under_its_verdict():
    at = run_page("pages/18_Compare_two_models.py")
    table = at.dataframe[0].value
    summary, cells = summaries(at)["Difference B − A with its interval"]
    for metric, row in table.iterrows():
        assert f"{metric} ({numbers.number(row['delta'], 4, sign=True)})" in summary, (metric, summary)
    assert cells[0] == ["metric", "mean difference per user (B − A)", "colour means", "lower end", "upper end"]
    rows = {row[0]: row[1:] for row in cells[1:]}
    low, high = table.loc["RR", ["ci_low", "ci_high"]]
    assert rows["RR"][2:] == [numbers.short(low, 4), numbers.short(high, 4)]


def test_the_random_baselines_state_the_lists_value_against_random_orderings():
    at = run_page("pages/13_Random_baselines.py")
    summary = next(iter(summaries(at).values()))[0]
    assert "AP@10: your list 0.6429, random orderings" in summary and "NDCG@10 (graded): your list 0.8278" in summary


def test_an_animation_is_read_at_its_last_step():
    at = run_page("pages/10_Lessons.py", query_params={"lesson": "topn", "step": "4"})
    (spec, name, summary, cells, _label), = charts_with_text(at)
    last = _text(spec["frames"][-1]["layout"]["title"]["text"])
    assert summary.startswith(f"{name}: an animation in {len(spec['frames'])} steps up to “{last}”; at its end, ")
    assert len(cells) == 1 + len(spec["frames"]), "one row per K of the last step"


def test_the_live_class_reveal_charts_state_the_answers():
    from ui.figures import live_charts

    bars = describe(live_charts.answers_bars([("0.3", 9, False), ("0.75", 3, True)], mine="0.3"))
    assert bars.summary == "How the class answered (green = right): right answer: 0.75 (3); wrong answer: 0.3 (9)."
    assert bars.table.values.tolist() == [["0.3", "9", "wrong answer"], ["0.75", "3", "right answer"]]
    numbers_typed = describe(live_charts.answers_histogram([(0.5, 2), (0.8278, 3)], 0.8278, mine=0.5))
    assert numbers_typed.summary.endswith(": answer 0.5 (2), answer 0.8278 (3); marked: true 0.8278, you."), \
        numbers_typed.summary


def test_the_protocol_labs_slope_chart_states_who_moves_without_the_tie_offsets():
    from ui.figures.protocol_charts import rank_slopes

    names = ["random", "pop", "itemknn", "ease", "mf"]
    fig = rank_slopes(pd.Series([5, 4, 3, 1, 2], index=names), pd.Series([5, 3, 3, 1, 3], index=names),
                      ("leave-last-out", "global time"), "NDCG@10")
    described = describe(fig)
    assert described.summary == ("NDCG@10: each model's place (1 = best): moved: Most popular 4 → 3, "
                                 "Matrix factorisation (ALS) 2 → 3; 3 keep their places.")
    assert described.table.iloc[:, 1:].values.tolist() == [["5", "5"], ["4", "3"], ["3", "3"], ["1", "1"], ["2", "3"]]


def test_a_typed_name_shows_as_typed_in_the_summary_and_the_table():
    at = run_page("app.py")
    edit(at, "recommended", edited_rows={0: {"item": "**<b>x</b>**"}})
    edit(at, "ground_truth", edited_rows={0: {"item": "**<b>x</b>**"}})  # still the first hit
    (spec, _name, summary, cells, _label), _curves = charts_with_text(at)
    assert "rank 1 (**<b>x</b>**)" in summary, summary
    assert cells[1][:2] == ["1", "**<b>x</b>**"]


def test_boxes_and_pies_read_sensibly():
    box = describe(go.Figure(go.Box(y=[1, 2, 3, 4, 10], name="delay")).update_layout(title="Delays"))
    assert box.summary == "Delays: delay: median 3, from 1 to 10."
    pie = describe(go.Figure(go.Pie(labels=["a", "b"], values=[3, 1])).update_layout(title="Shares"))
    assert pie.summary == "Shares: a (3), b (1)."
    assert pie.table.values.tolist() == [["a", "3"], ["b", "1"]]


@pytest.mark.parametrize("topic", ["home", "ap", "classification"])
def test_hidden_answers_hide_the_charts_summaries_and_data_too(topic):
    """While the practice switch hides cards and charts, a chart's summary would state the answer (P@10 0.3)."""
    from ui.input import scenario_link
    from ui.navigation import TOPIC_PAGES

    at = run_page(TOPIC_PAGES[topic], practice={**scenario_link.PRACTICE_DEFAULTS, "hide_answers": True})
    assert at.get("plotly_chart"), "the charts are drawn, hidden by the switch's style"
    assert not [e for e in at.expander if e.label == "Data of this chart"]
    assert not any(str(c.value).startswith(_text(s["layout"]["title"]["text"]).split(":")[0])
                   for c in at.caption for s in (json.loads(p.proto.spec) for p in at.get("plotly_chart")))
    at.toggle(key="_hide_answers_widget").set_value(False).run()
    assert check_page(at) == len(at.get("plotly_chart"))
