"""NDCG page: substituted formula, binary/graded and linear/exponential cards, DCG tables, ties."""

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import card, chart_specs, edit, latex, plotly_array, run_page, texts
from ui.state import TOPIC_PAGES, ground_truth_table, recommended_table

PAGE = TOPIC_PAGES["ndcg"]
D = lambda i: 1 / np.log2(i + 1)  # noqa: E731  discount of rank i
IDCG3 = D(1) + D(2) + D(3)
SCORE_CARDS = ("Ties averaged (scikit-learn)", "Tie broken in favour", "Tie broken against", "Input order kept (ranx)")


@pytest.fixture
def ndcg() -> AppTest:
    return run_page(PAGE)


def test_deep_link_shows_the_first_seed_with_the_substituted_formula(ndcg):
    expected = f"{(D(1) + D(4) + D(7)) / IDCG3:.4f}"
    assert expected == "0.8278"
    assert [card(ndcg, label) for label in ("NDCG@10 (binary)", "NDCG@10 (graded)", "NDCG@10 (graded, exponential gain)")] == [
        expected] * 3
    shown = latex(ndcg)
    assert r"\mathrm{DCG@10} &= \frac{1}{\log_2 2}+\frac{1}{\log_2 5}+\frac{1}{\log_2 8} = 1.7640" in shown
    assert r"\mathrm{IDCG@10} &= \frac{1}{\log_2 2}+\frac{1}{\log_2 3}+\frac{1}{\log_2 4} = 2.1309" in shown
    assert r"\mathrm{NDCG@10} &= \frac{1.7640}{2.1309} = 0.8278" in shown


def test_grade_3_for_104_changes_graded_ndcg_under_each_gain(ndcg):
    edit(ndcg, "ground_truth", edited_rows={1: {"grade": 3}})
    linear = (1 + 3 * D(4) + D(7)) / (3 + D(2) + D(3))
    exponential = (1 + 7 * D(4) + D(7)) / (7 + D(2) + D(3))
    assert card(ndcg, "NDCG@10 (graded)") == f"{linear:.4f}" == "0.6355"
    assert card(ndcg, "NDCG@10 (graded, exponential gain)") == f"{exponential:.4f}"
    assert card(ndcg, "NDCG@10 (binary)") == "0.8278"
    graded = next(m for m in ndcg.metric if m.label == "NDCG@10 (graded)")
    assert graded.delta == f"{linear - (D(1) + D(4) + D(7)) / IDCG3:+.4f}"
    assert r"\frac{3}{\log_2 5}" in latex(ndcg)

    ndcg.radio(key="_gain_widget").set_value("exponential").run()
    assert card(ndcg, "NDCG@10 (graded)") == f"{exponential:.4f}"
    assert card(ndcg, "NDCG@10 (graded, linear gain)") == f"{linear:.4f}"
    assert r"\frac{7}{\log_2 5}" in latex(ndcg)


def test_k_slider_cuts_dcg_and_idcg(ndcg):
    ndcg.slider(key="_k_widget").set_value(3).run()
    assert card(ndcg, "NDCG@3 (binary)") == f"{D(1) / IDCG3:.4f}"
    assert r"\mathrm{DCG@3} &= \frac{1}{\log_2 2} = 1.0000" in latex(ndcg)
    actual, ideal = (d.value for d in ndcg.dataframe if "running_dcg" in d.value.columns)
    assert len(actual) == 3 and len(ideal) == 3


def test_dcg_tables_and_chart_carry_each_rank(ndcg):
    actual, ideal = (d.value for d in ndcg.dataframe if "running_dcg" in d.value.columns)
    np.testing.assert_allclose(actual["discount"], [D(i) for i in range(1, 11)])
    assert actual["running_dcg"].iloc[-1] == pytest.approx(D(1) + D(4) + D(7))
    assert ideal["item"].tolist() == ["101", "104", "107"]
    chart = chart_specs(ndcg)[0]
    assert [t["name"] for t in chart["data"]] == ["your list", "ideal order"]
    assert plotly_array(chart["data"][0]["x"]) == list(range(1, 11))
    np.testing.assert_allclose(plotly_array(chart["data"][0]["y"]), [1, 0, 0, D(4), 0, 0, D(7), 0, 0, 0])
    np.testing.assert_allclose(plotly_array(chart["data"][1]["y"]), [1, D(2), D(3)])


def test_duplicate_item_is_named_and_the_rest_still_scored(ndcg):
    edit(ndcg, "recommended", edited_rows={2: {"item": "101"}})
    assert "item '101' appears twice, at ranks 1 and 3" in texts(ndcg)
    # Rank 3 is left out, so 104 moves up to rank 3 and 107 to rank 6.
    assert card(ndcg, "NDCG@10 (binary)") == f"{(D(1) + D(3) + D(6)) / IDCG3:.4f}"


@pytest.mark.parametrize(("grade", "message"), [
    (-2, "the grade of item '104' is -2; grades must be 0 or more"),
    ("high", "the grade of item '104' is 'high', not a number"),
])
def test_bad_grade_is_named_and_that_row_left_out(ndcg, grade, message):
    edit(ndcg, "ground_truth", edited_rows={1: {"grade": grade}})
    assert message in texts(ndcg)
    assert card(ndcg, "NDCG@10 (binary)") == f"{(D(1) + D(7)) / (D(1) + D(2)):.4f}"
    assert not ndcg.exception


def test_empty_ground_truth_scores_zero_and_says_why(ndcg):
    edit(ndcg, "ground_truth", deleted_rows=[0, 1, 2])
    assert card(ndcg, "NDCG@10 (binary)") == "0.0000"
    assert "IDCG = 0: no item has a grade above 0, scored 0" in latex(ndcg)


def test_seed_ndcg_binary_says_the_printed_0_8290_is_wrong():
    at = run_page(PAGE, recommended=recommended_table(range(101, 111)),
                  ground_truth=ground_truth_table({101: 1, 104: 1, 107: 1}), k=10, gain="linear",
                  loaded_example="ndcg_binary")
    assert card(at, "NDCG@10 (binary)") == "0.8278"
    shown = texts(at)
    assert "The document prints 0.8290, which its code does not give" in shown
    assert "0.82781" in shown
    banner = next(d.value for d in at.dataframe if "document prints" in d.value.columns)
    assert banner.to_dict("records") == [{"value": "NDCG@10", "document prints": "0.8290", "exact": "0.82781"}]


def test_seed_ndcg_graded_counts_the_unrecommended_999_in_the_ideal():
    at = run_page(PAGE, recommended=recommended_table(range(101, 111)),
                  ground_truth=ground_truth_table({101: 5, 104: 4, 107: 3, 999: 5}), k=10, gain="linear",
                  loaded_example="ndcg_graded")
    linear = (5 + 4 * D(4) + 3 * D(7)) / (5 + 5 * D(2) + 4 * D(3) + 3 * D(4))
    exponential = (31 + 15 * D(4) + 7 * D(7)) / (31 + 31 * D(2) + 15 * D(3) + 7 * D(4))
    list_only = (5 + 4 * D(4) + 3 * D(7)) / (5 + 4 * D(2) + 3 * D(3))
    assert card(at, "NDCG@10 (graded)") == f"{linear:.4f}" == "0.6747"
    assert card(at, "NDCG@10 (graded, exponential gain)") == f"{exponential:.4f}" == "0.6516"
    assert card(at, "NDCG@10, ideal from your list only") == f"{list_only:.4f}" == "0.8558"
    assert card(at, "NDCG@10 (binary)") == f"{(D(1) + D(4) + D(7)) / (D(1) + D(2) + D(3) + D(4)):.4f}"
    assert "including '999', which your list never recommends" in texts(at)
    _, ideal = (d.value for d in at.dataframe if "running_dcg" in d.value.columns)
    assert ideal["item"].tolist() == ["101", "999", "104", "107"]


def test_seed_ndcg_formula_uses_exponential_gain():
    at = run_page(PAGE, recommended=recommended_table(list("ABCDE")),
                  ground_truth=ground_truth_table({"A": 3, "B": 2, "C": 3, "E": 1}), k=5, gain="exponential",
                  loaded_example="ndcg_formula")
    exponential = (7 + 3 * D(2) + 7 * D(3) + 1 * D(5)) / (7 + 7 * D(2) + 3 * D(3) + 1 * D(4))
    linear = (3 + 2 * D(2) + 3 * D(3) + 1 * D(5)) / (3 + 3 * D(2) + 2 * D(3) + 1 * D(4))
    assert card(at, "NDCG@5 (graded)") == f"{exponential:.4f}"
    assert card(at, "NDCG@5 (graded, linear gain)") == f"{linear:.4f}"
    # three terms a line, so the sum fits a phone
    assert r"\frac{7}{\log_2 2}+\frac{3}{\log_2 3}+\frac{7}{\log_2 4}\\&\quad+\frac{1}{\log_2 6}" in latex(at)


def test_seed_ndcg_sklearn_averages_the_tie_and_shows_both_broken_orders():
    at = run_page(PAGE, ndcg_scores=pd.DataFrame({"item": list("ABCDE"), "true_relevance": [3, 2, 3, 0, 1],
                                                  "score": [3.0, 2.0, 1.0, 0.0, 3.0]}),
                  loaded_example="ndcg_sklearn")
    idcg = 3 + 3 * D(2) + 2 * D(3) + 1 * D(4)
    averaged = (2 * (D(1) + D(2)) + 2 * D(3) + 3 * D(4)) / idcg
    a_first = (3 + 1 * D(2) + 2 * D(3) + 3 * D(4)) / idcg
    e_first = (1 + 3 * D(2) + 2 * D(3) + 3 * D(4)) / idcg
    assert [card(at, label) for label in SCORE_CARDS] == [
        f"{averaged:.4f}", f"{a_first:.4f}", f"{e_first:.4f}", f"{a_first:.4f}"] == ["0.8783", "0.9367", "0.8199", "0.9367"]
    shown = texts(at)
    assert "Items 'A', 'E' tie at score 3, so they span positions 1–2" in shown
    assert "averaged gain (3 + 1)/2 = 2" in shown
    assert "Score-based NDCG with ties" in shown
    ties = next(d.value for d in at.dataframe if "tie_group" in d.value.columns)
    assert ties["item"].tolist() == ["A", "E", "B", "C", "D"]
    assert ties["contribution"].sum() == pytest.approx(averaged * idcg)


def test_exponential_gain_applies_to_the_score_form_too(ndcg):
    ndcg.radio(key="_gain_widget").set_value("exponential").run()
    idcg = 7 + 7 * D(2) + 3 * D(3) + 1 * D(4)
    assert card(ndcg, "Ties averaged (exponential gain)") == f"{(4 * (D(1) + D(2)) + 3 * D(3) + 7 * D(4)) / idcg:.4f}"


@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_a_card_named_after_scikit_learn_shows_scikit_learns_number(ndcg, gain):
    from sklearn.metrics import ndcg_score

    ndcg.radio(key="_gain_widget").set_value(gain).run()
    table = ndcg.session_state["ndcg_scores"]
    expected = ndcg_score([table["true_relevance"].astype(float)], [table["score"].astype(float)])
    named = [m for m in ndcg.metric if "scikit-learn" in m.label]
    assert named, [m.label for m in ndcg.metric]
    assert all(m.value == f"{expected:.4f}" for m in named), [(m.label, m.value, expected) for m in named]


def test_negative_relevance_in_the_scores_table_is_left_out(ndcg):
    edit(ndcg, "ndcg_scores", edited_rows={1: {"true_relevance": -1}})
    assert ("Scores table, row 2: true_relevance is -1, not a grade (a number from 0 to 1000), "
            "so that row is left out.") in texts(ndcg)
    # A, C, D, E remain: A and E tie at the top with mean gain (3 + 1)/2.
    expected = (2 * (D(1) + D(2)) + 3 * D(3)) / (3 + 3 * D(2) + 1 * D(3))
    assert card(ndcg, "Ties averaged (scikit-learn)") == f"{expected:.4f}"
    assert card(ndcg, "NDCG@10 (binary)") == "0.8278"


def test_cleared_score_is_left_out_and_no_tie_remains(ndcg):
    # A number column turns typed text into an empty cell, so "not a number" arrives as empty.
    edit(ndcg, "ndcg_scores", edited_rows={4: {"score": None}})
    assert "Scores table, row 5: score is empty, not a number, so that row is left out." in texts(ndcg)
    expected = f"{(3 + 2 * D(2) + 3 * D(3)) / (3 + 3 * D(2) + 2 * D(3)):.4f}"
    assert [card(ndcg, label) for label in SCORE_CARDS] == [expected] * 4
    assert "No two items share a score" in texts(ndcg)


def test_empty_scores_table_says_so(ndcg):
    edit(ndcg, "ndcg_scores", deleted_rows=[0, 1, 2, 3, 4])
    assert "No usable rows in the scores table" in texts(ndcg)
    assert not [m for m in ndcg.metric if m.label in SCORE_CARDS]
    assert card(ndcg, "NDCG@10 (binary)") == "0.8278"
