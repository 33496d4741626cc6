"""The playground: every ranking metric follows each edit of the shared scenario."""

import numpy as np
import pytest

from tests.conftest import card, chart_specs, edit, plotly_array, run_page, texts
from ui.figures import charts

D = lambda i: 1 / np.log2(i + 1)  # noqa: E731  discount of rank i
IDCG3 = D(1) + D(2) + D(3)


def test_default_scenario_is_the_first_seed_example(home):
    assert [card(home, label) for label in ("Precision@10", "Recall@10", "HR@10", "AP@10", "RR", "NDCG@10 (binary)")] == [
        "0.3000", "1.0000", "1.0000", "0.6429", "1.0000", "0.8278"]
    assert card(home, "F1@10") == f"{2 * 0.3 / 1.3:.4f}"


def test_changing_the_grade_of_104_changes_graded_ndcg_and_shows_the_delta(home):
    edit(home, "ground_truth", edited_rows={1: {"grade": 3}})
    expected = (D(1) + 3 * D(4) + D(7)) / (3 + D(2) + D(3))
    assert card(home, "NDCG@10 (graded)") == f"{expected:.4f}" == "0.6355"
    assert card(home, "NDCG@10 (binary)") == "0.8278"
    graded = next(m for m in home.metric if m.label == "NDCG@10 (graded)")
    assert graded.delta == f"{expected - (D(1) + D(4) + D(7)) / IDCG3:+.4f}"


def test_moving_107_to_rank_2_reorders_the_list_and_the_metrics(home):
    edit(home, "recommended", edited_rows={6: {"rank": 2}})
    assert card(home, "AP@10") == f"{(1 + 2 / 2 + 3 / 5) / 3:.4f}"
    assert card(home, "NDCG@10 (binary)") == f"{(D(1) + D(2) + D(5)) / IDCG3:.4f}"
    assert card(home, "Precision@10") == "0.3000"


def test_k_slider_changes_precision_and_moves_the_highlighted_k(home):
    home.slider(key="_k_widget").set_value(5).run()
    assert card(home, "Precision@5") == "0.4000"
    assert card(home, "Recall@5") == f"{2 / 3:.4f}"
    curves = chart_specs(home)[1]
    assert curves["layout"]["shapes"][0]["x0"] == 5


def test_metric_vs_k_chart_carries_each_metric_at_each_k(home):
    curves = chart_specs(home)[1]
    precision = next(t for t in curves["data"] if t["name"] == "Precision@K")
    assert plotly_array(precision["x"]) == list(range(1, 11))
    np.testing.assert_allclose(plotly_array(precision["y"]), [1, 1 / 2, 1 / 3, 2 / 4, 2 / 5, 2 / 6, 3 / 7, 3 / 8, 3 / 9, 3 / 10])


def test_top_k_window_colours_hits(home):
    window = chart_specs(home)[0]["data"][0]
    assert window["text"][:4] == ["101", "102", "103", "104"]
    assert [c == charts.HIT for c in window["marker"]["color"]] == [True, False, False, True, False, False, True, False, False, False]


def test_duplicate_item_shows_the_message_and_keeps_the_metrics(home):
    edit(home, "recommended", added_rows=[{"rank": 11, "item": "103"}])
    assert "item '103' appears twice, at ranks 3 and 11" in texts(home)
    assert card(home, "NDCG@10 (binary)") == "0.8278"
    assert home.data_editor[0].value is not None


def test_non_numeric_grade_is_named_and_the_row_left_out(home):
    edit(home, "ground_truth", edited_rows={2: {"grade": "high"}})
    assert "the grade of item '107' is 'high', not a number" in texts(home)
    assert card(home, "Recall@10") == "1.0000"  # relevant = {101, 104}, both in the top 10


def test_empty_list_says_so_and_scores_zero(home):
    edit(home, "recommended", deleted_rows=list(range(10)))
    assert "The recommended list is empty" in texts(home)
    assert card(home, "Precision@10") == "0.0000"


def test_k_larger_than_the_list_is_explained(home):
    edit(home, "recommended", deleted_rows=[8, 9])
    home.slider(key="_k_widget").set_value(10).run()
    assert "K = 10 is larger than the list (8 items)" in texts(home)
    assert card(home, "Precision@10") == "0.3000"


def test_scenario_survives_switching_pages():
    at = run_page("app.py")
    edit(at, "ground_truth", edited_rows={1: {"grade": 3}})
    at.switch_page("pages/9_Worked_examples.py").run()
    at.switch_page("app.py").run()
    assert not at.exception
    assert card(at, "NDCG@10 (graded)") == "0.6355"


@pytest.mark.parametrize("gain, expected", [("linear", (5 + 4 * D(4) + 3 * D(7)) / (5 + 5 * D(2) + 4 * D(3) + 3 * D(4))),
                                             ("exponential", (31 + 15 * D(4) + 7 * D(7)) / (31 + 31 * D(2) + 15 * D(3) + 7 * D(4)))])
def test_gain_radio_switches_graded_ndcg(gain, expected):
    at = run_page("app.py")
    edit(at, "ground_truth", edited_rows={0: {"grade": 5}, 1: {"grade": 4}, 2: {"grade": 3}},
         added_rows=[{"item": "999", "grade": 5}])
    at.radio(key="_gain_widget").set_value(gain).run()
    assert card(at, "NDCG@10 (graded)") == f"{expected:.4f}"
