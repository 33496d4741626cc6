"""Inputs at the edge: huge grades, huge seeds, large tables. Each is refused with a message or computed right."""

import numpy as np
import pandas as pd
import pytest

from metrics.ndcg import ndcg_at_k, ndcg_score
from metrics.seed_examples import BY_KEY
from tests.conftest import card, chart_titled, edit, plotly_array, run_page, texts

SEED_LIST = [str(i) for i in range(101, 111)]


@pytest.mark.parametrize("grade", ["1024", "5000", "1e308"])
def test_a_grade_too_large_for_exponential_gain_is_left_out_and_named(grade):
    at = run_page("pages/5_NDCG.py")
    edit(at, "ground_truth", edited_rows={1: {"grade": grade}})
    assert (f"Ground truth, row 2: the grade of item '104' is {float(grade):g}; grades above 1000 are left out"
            in texts(at))
    values = [m.value for m in at.metric]
    assert "undefined" not in values
    assert card(at, "NDCG@10 (graded)") == f"{ndcg_at_k(SEED_LIST, {'101': 1, '107': 1}, 10):.4f}"


def test_the_largest_allowed_grade_still_computes():
    at = run_page("pages/5_NDCG.py")
    at.radio(key="_gain_widget").set_value("exponential").run()
    edit(at, "ground_truth", edited_rows={1: {"grade": "1000"}})
    expected = ndcg_at_k(SEED_LIST, {"101": 1, "104": 1000, "107": 1}, 10, gain="exponential")
    assert np.isfinite(expected) and card(at, "NDCG@10 (graded)") == f"{expected:.4f}"
    assert "undefined" not in [m.value for m in at.metric]


def test_a_score_table_relevance_too_large_is_left_out_and_named():
    at = run_page("pages/5_NDCG.py")
    edit(at, "ndcg_scores", edited_rows={0: {"true_relevance": 1024}})
    assert "Scores table, row 1: true_relevance is 1024, not a grade (a number from 0 to 1000)" in texts(at)
    assert card(at, "Ties averaged (scikit-learn)") == f"{ndcg_score([2, 3, 0, 1], [2.0, 1.0, 0.0, 3.0]):.4f}"


@pytest.mark.parametrize("seed", [2**32, 2**40])
def test_a_seed_beyond_numpys_range_is_clamped_with_a_note(seed):
    # The stored value, as the widget's callback leaves it (AppTest cannot type a 33-bit number).
    at = run_page("pages/1_Rating_errors.py", rating_demo={"noise": 0.5, "outlier_share": 0.05, "seed": seed})
    assert at.session_state["rating_demo"]["seed"] == 2**32 - 1
    assert "is above the largest value allowed now (4294967295)" in texts(at)


def test_the_seed_42_demo_keeps_its_numbers():
    at = run_page("pages/1_Rating_errors.py")
    shown = "\n".join(d.value.to_csv() for d in at.dataframe)
    for value in BY_KEY["rating_models"].values:
        assert f"{value.exact:.4f}" in shown


def test_the_errors_chart_follows_an_edit_anywhere_in_a_large_table():
    """A cache keyed by a hash of a 60,000-row table samples its rows: an edit outside the sample was missed."""
    n = 60_000
    ratings = pd.DataFrame({"prediction": np.full(n, 3.0), "actual": np.full(n, 4.0)})
    at = run_page("pages/1_Rating_errors.py", ratings=ratings)
    for row in (12_345, 45_678):
        edit(at, "ratings", edited_rows={row: {"prediction": 1004.0}})
        squared = plotly_array(chart_titled(at, "Error of each prediction")["data"][1]["y"])
        assert max(squared) == 1_000_000.0 and squared[row] == 1_000_000.0
