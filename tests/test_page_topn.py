"""Precision, Recall, HR and F1 @K page: counts in the formulas, cards, top-K window, curves."""

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import card, chart_specs, edit, latex, plotly_array, run_page, texts
from ui.state import TOPIC_PAGES, ground_truth_table, recommended_table

PAGE = TOPIC_PAGES["topn"]
from ui.figures.charts import HIT, IDEAL, MISS


def f1(p, r):
    return 2 * p * r / (p + r)


def cards(at, k):
    return [card(at, f"{name}@{k}") for name in ("Precision", "Recall", "F1", "HR")]


@pytest.fixture
def topn() -> AppTest:
    return run_page(PAGE)


def test_deep_link_shows_the_first_seed_scenario(topn):
    assert cards(topn, 10) == ["0.3000", "1.0000", f"{f1(0.3, 1.0):.4f}", "1.0000"]
    assert cards(topn, 10)[2] == "0.4615"
    shown = latex(topn)
    assert r"\mathrm{P@10}=\frac{3}{10}=0.3000" in shown
    assert r"\mathrm{R@10}=\frac{3}{3}=1.0000" in shown
    assert r"\mathrm{F1@10}=\frac{2\cdot 0.3\cdot 1}{0.3+1}=0.4615" in shown
    assert r"\mathrm{HR@10}=\mathbb{1}\left[3>0\right]=1" in shown
    # the general formulas come from the registry
    assert r"\mathrm{P@K}=\frac{\lvert \mathrm{top}_K\cap \mathrm{Rel}\rvert}{K}" in shown


def test_k_slider_changes_the_counts_and_cards(topn):
    topn.slider(key="_k_widget").set_value(5).run()
    # top 5 = 101..105: hits 101 and 104 of the relevant {101, 104, 107}
    assert cards(topn, 5) == ["0.4000", f"{2 / 3:.4f}", f"{f1(2 / 5, 2 / 3):.4f}", "1.0000"]
    assert cards(topn, 5)[2] == "0.5000"
    assert r"\mathrm{R@5}=\frac{2}{3}=0.6667" in latex(topn)
    precision = next(m for m in topn.metric if m.label == "Precision@5")
    assert precision.delta == f"{0.4 - 0.3:+.4f}"


def test_moving_107_to_rank_2_changes_nothing_at_10_but_everything_at_5(topn):
    edit(topn, "recommended", edited_rows={6: {"rank": 2}})
    assert cards(topn, 10) == ["0.3000", "1.0000", "0.4615", "1.0000"]
    topn.slider(key="_k_widget").set_value(5).run()
    # top 5 = 101, 107, 102, 103, 104: three hits
    assert cards(topn, 5) == ["0.6000", "1.0000", f"{f1(0.6, 1.0):.4f}", "1.0000"]
    assert cards(topn, 5)[2] == "0.7500"


def test_seed_example_topn_999():
    at = run_page(PAGE, recommended=recommended_table(range(101, 111)),
                  ground_truth=ground_truth_table({103: 1, 105: 1, 108: 1, 999: 1}), k=10, loaded_example="topn_999")
    assert cards(at, 10) == ["0.3000", "0.7500", f"{f1(0.3, 0.75):.4f}", "1.0000"]
    assert cards(at, 10)[2] == "0.4286"
    shown = latex(at)
    assert r"\mathrm{R@10}=\frac{3}{4}=0.7500" in shown
    assert r"\mathrm{F1@10}=\frac{2\cdot 0.3\cdot 0.75}{0.3+0.75}=0.4286" in shown
    assert "Relevant but never recommended: '999'" in texts(at)
    banner = at.dataframe[0].value
    assert banner["value"].tolist() == ["Precision@10", "Recall@10", "HR@10", "F1@10"]
    assert banner["document prints"].tolist() == ["0.3000", "0.7500", "1.0000", "0.4286"]
    assert banner["exact"].tolist() == ["0.30000", "0.75000", "1.00000", f"{3 / 7:.5f}"]
    assert "Top-N metrics with a relevant item never recommended (999)" in texts(at)


def test_seed_example_hit_rate_with_its_precision_note():
    at = run_page(PAGE, recommended=recommended_table([1, 2, 3, 4, 5]),
                  ground_truth=ground_truth_table({2: 1, 6: 1, 7: 1, 8: 1, 9: 1}), k=5, loaded_example="hit_rate")
    # one hit (item 2) among 5 slots and 5 relevant items
    assert cards(at, 5) == ["0.2000", "0.2000", "0.2000", "1.0000"]
    banner = at.dataframe[0].value
    assert banner["document prints"].tolist() == ["1"]
    assert banner["exact"].tolist() == ["1.00000"]
    assert "that counts hits per recommended item, which is Precision@10 (3/10)" in texts(at)


def test_duplicate_item_is_named_and_the_cards_stay(topn):
    edit(topn, "recommended", added_rows=[{"rank": 11, "item": "103"}])
    assert "item '103' appears twice, at ranks 3 and 11" in texts(topn)
    assert cards(topn, 10) == ["0.3000", "1.0000", "0.4615", "1.0000"]
    assert topn.session_state["recommended"]["item"].tolist()[-1] == "103"  # the table keeps what was typed


def test_non_numeric_grade_is_named_and_the_row_left_out(topn):
    edit(topn, "ground_truth", edited_rows={0: {"grade": "top"}})
    assert "the grade of item '101' is 'top', not a number" in texts(topn)
    # relevant = {104, 107}: 2 hits of 10 slots, 2 of 2 found
    assert cards(topn, 10) == ["0.2000", "1.0000", f"{f1(0.2, 1.0):.4f}", "1.0000"]


def test_k_larger_than_the_list_divides_by_k(topn):
    topn.slider(key="_k_widget").set_value(15).run()
    assert not topn.exception
    assert "K = 15 is larger than the list (10 items): the 5 empty slots count as misses" in texts(topn)
    assert cards(topn, 15) == ["0.2000", "1.0000", f"{f1(0.2, 1.0):.4f}", "1.0000"]
    assert r"\mathrm{P@15}=\frac{3}{15}=0.2000" in latex(topn)


def test_empty_list_says_so_and_skips_the_charts(topn):
    edit(topn, "recommended", deleted_rows=list(range(10)))
    shown = texts(topn)
    assert "The recommended list is empty" in shown
    assert "there is no top-K window or curve to draw" in shown
    assert cards(topn, 10) == ["0.0000", "0.0000", "0.0000", "0.0000"]
    assert chart_specs(topn) == []


def test_empty_ground_truth_scores_recall_zero(topn):
    edit(topn, "ground_truth", deleted_rows=[0, 1, 2])
    assert "The ground truth has no relevant item" in texts(topn)
    assert r"\mathrm{R@10}=\frac{0}{0}\to 0" in latex(topn)
    assert cards(topn, 10) == ["0.0000", "0.0000", "0.0000", "0.0000"]


def test_top_k_window_highlights_hits_inside_k(topn):
    topn.slider(key="_k_widget").set_value(5).run()
    window = chart_specs(topn)[0]
    bars = window["data"][0]
    assert bars["text"] == [str(i) for i in range(101, 111)]
    assert plotly_array(bars["x"]) == list(range(1, 11))
    # 101 and 104 are hits in the top 5; 107 is relevant but below K
    assert bars["marker"]["color"] == [HIT, MISS, MISS, HIT, MISS, MISS, IDEAL, MISS, MISS, MISS]
    assert window["layout"]["shapes"][0]["x1"] == 5.5


def test_curves_show_exactly_the_four_metrics_at_each_k(topn):
    curves = chart_specs(topn)[1]
    assert [t["name"] for t in curves["data"]] == ["Precision@K", "Recall@K", "F1@K", "HR@K"]
    by_name = {t["name"]: t for t in curves["data"]}
    hits = np.array([1, 1, 1, 2, 2, 2, 3, 3, 3, 3])
    k = np.arange(1, 11)
    assert plotly_array(by_name["Precision@K"]["x"]) == k.tolist()
    np.testing.assert_allclose(plotly_array(by_name["Precision@K"]["y"]), hits / k)
    np.testing.assert_allclose(plotly_array(by_name["Recall@K"]["y"]), hits / 3)
    np.testing.assert_allclose(plotly_array(by_name["F1@K"]["y"]), f1(hits / k, hits / 3))
    np.testing.assert_allclose(plotly_array(by_name["HR@K"]["y"]), np.ones(10))
