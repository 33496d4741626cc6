"""AUC and GAUC page: pair counts with ties, ROC curve, per-user AUCs under each weighting."""

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import card, chart_specs, edit, latex, plotly_array, run_page, table_with, texts
from ui.state import TOPIC_PAGES, scores_table

PAGE = TOPIC_PAGES["auc"]
GAUC = {w: f"GAUC, {label}" for w, label in (
    ("impressions", "impressions (DIN paper)"), ("clicks", "clicks (RecBole)"), ("uniform", "uniform (the offline-evaluation article's plain mean)"))}
STRICT = "AUC, ties count 0 (strict >)"
# The default scores: user1 has one tied pair (0.5 vs 0.5), user3 only clicks.
USER1_AUC = (1 + 1 + 0.5 + 1) / 4
USER2_AUC = (0 + 1 + 0 + 1) / 4


@pytest.fixture
def auc() -> AppTest:
    return run_page(PAGE)


def test_deep_link_counts_the_tied_pairs_as_half(auc):
    # 6 positives x 4 negatives: 14 won, 2 tied (0.5 vs 0.5 and 0.4 vs 0.4), 8 lost.
    assert card(auc, "AUC") == f"{(14 + 0.5 * 2) / 24:.4f}" == "0.6250"
    assert card(auc, STRICT) == f"{14 / 24:.4f}"
    assert r"\frac{14+0.5\cdot 2}{6\cdot 4}=0.6250" in latex(auc)
    assert r"\mathrm{AUC}_{>}=\frac{n_{>}}{P\cdot N}=\frac{14}{6\cdot 4}=0.5833" in latex(auc)
    assert "**14** have the positive higher (credit 1), **2** are tied (credit 0.5) and **8**" in texts(auc)


def test_pair_table_gives_the_tied_pair_half_a_credit(auc):
    pairs = table_with(auc, "credit")
    assert len(pairs) == 24
    tied = pairs[pairs["credit"] == "0.5"]  # shown in the reader's notation
    assert tied[["positive_row", "negative_row", "positive_score", "why"]].values.tolist() == [
        [2, 3, "0.5", "tie → 0.5"], [10, 4, "0.4", "tie → 0.5"]]
    assert pairs["credit"].astype(float).mean() == pytest.approx(0.625)


def test_gauc_under_each_weighting_and_the_skipped_user(auc):
    expected = f"{(USER1_AUC + USER2_AUC) / 2:.4f}"
    assert [card(auc, GAUC[w]) for w in GAUC] == [expected] * 3
    shown = texts(auc)
    assert "**1 user skipped**" in shown
    assert "**user3**: AUC is undefined: every label is positive (1)" in shown
    per_user = table_with(auc, "skipped_because")
    assert per_user["auc"].tolist()[:2] == [f"{USER1_AUC:.4f}", f"{USER2_AUC:.4f}"]


def test_weights_differ_once_users_have_different_impressions(auc):
    edit(auc, "scores", added_rows=[{"user": "user2", "label": 0, "score": 0.1},
                                    {"user": "user2", "label": 0, "score": 0.05}])
    user2 = (3 + 3) / (2 * 4)  # positives 0.7 and 0.3 each beat 0.2, 0.1, 0.05 but not 0.8
    assert card(auc, GAUC["impressions"]) == f"{(4 * USER1_AUC + 6 * user2) / 10:.4f}"
    assert card(auc, GAUC["clicks"]) == f"{(2 * USER1_AUC + 2 * user2) / 4:.4f}"
    assert card(auc, GAUC["uniform"]) == f"{(USER1_AUC + user2) / 2:.4f}"
    assert card(auc, "AUC") == f"{(14 + 6 * 2 + 0.5 * 2) / 36:.4f}"  # every positive beats both new negatives


def test_weight_radio_drives_the_per_user_chart_and_formula(auc):
    chart = chart_specs(auc)[1]
    assert plotly_array(chart["data"][0]["x"]) == ["user1", "user2"]
    np.testing.assert_allclose(plotly_array(chart["data"][0]["y"]), [USER1_AUC, USER2_AUC])
    assert chart["data"][0]["text"] == ["w = 4", "w = 4"]
    auc.radio(key="auc_gauc_weight").set_value("clicks").run()
    chart = chart_specs(auc)[1]
    assert chart["data"][0]["text"] == ["w = 2", "w = 2"]
    assert r"\mathrm{GAUC}_{\text{clicks}}=\frac{2\cdot 0.8750+2\cdot 0.5000}{2+2}=0.6875" in latex(auc)


def test_roc_curve_steps_diagonally_through_ties(auc):
    roc = chart_specs(auc)[0]["data"][0]
    np.testing.assert_allclose(plotly_array(roc["x"]), [0, 0, 1 / 4, 1 / 4, 1 / 4, 2 / 4, 3 / 4, 3 / 4, 1])
    np.testing.assert_allclose(plotly_array(roc["y"]), [0, 1 / 6, 1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6, 1, 1])
    assert roc["name"] == "ROC (AUC = 0.6250)"


def test_breaking_the_tie_in_favour_of_the_positive(auc):
    edit(auc, "scores", edited_rows={2: {"score": 0.1}})
    assert card(auc, "AUC") == f"{(17 + 0.5) / 24:.4f}"
    assert card(auc, STRICT) == f"{17 / 24:.4f}"
    assert card(auc, GAUC["impressions"]) == f"{(1 + USER2_AUC) / 2:.4f}"


def test_single_class_explains_why_auc_is_undefined(auc):
    edit(auc, "scores", edited_rows={i: {"label": 1} for i in (2, 3, 5, 7)})
    shown = texts(auc)
    assert "AUC is undefined: every label is positive (1), so there is no negative sample" in shown
    assert "GAUC is undefined: no user has both a click and a non-click" in shown
    assert "**3 users skipped**" in shown
    assert not auc.metric
    assert not chart_specs(auc)


def test_a_skipped_user_has_a_short_reason_in_the_table_and_the_whole_one_in_the_note_above(auc):
    # The whole sentence was cut by its column in every language (at 1280 too): the table says it in two words.
    table = table_with(auc, "skipped_because")
    assert table.set_index("user")["skipped_because"].to_dict() == {"user1": "", "user2": "", "user3": "clicks only"}
    assert "- **user3**: AUC is undefined: every label is positive (1), so there is no negative sample" in texts(auc)


def test_label_2_is_named_and_the_rest_still_scored(auc):
    edit(auc, "scores", edited_rows={0: {"label": 2}})
    assert "Scores table, row 1: label is 2, not 0 or 1, so that row is left out." in texts(auc)
    # Without the 0.9 positive: 5 positives x 4 negatives, 10 won and 2 tied.
    assert card(auc, "AUC") == f"{(10 + 0.5 * 2) / 20:.4f}"
    assert card(auc, GAUC["uniform"]) == f"{((1 + 0.5) / 2 + USER2_AUC) / 2:.4f}"


def test_empty_score_and_empty_table(auc):
    edit(auc, "scores", edited_rows={9: {"score": None}})
    assert "Scores table, row 10: score is empty, not a number, so that row is left out." in texts(auc)
    assert card(auc, "AUC") == f"{(13 + 0.5) / 20:.4f}"
    edit(auc, "scores", deleted_rows=list(range(10)))
    assert "No usable rows" in texts(auc)
    assert not auc.metric and not chart_specs(auc)


def test_seed_auc_users_is_a_uniform_gauc():
    at = run_page(PAGE, scores=scores_table(["user1"] * 4 + ["user2"] * 4, [1, 1, 0, 0, 1, 1, 0, 0],
                                            [0.9, 0.8, 0.5, 0.4, 0.7, 0.6, 0.3, 0.2]),
                  loaded_example="auc_users")
    assert card(at, "AUC") == "1.0000"
    assert [card(at, GAUC[w]) for w in GAUC] == ["1.0000"] * 3
    assert "a mean of per-user AUCs is GAUC with equal weights" in texts(at)
    assert "skipped**" not in texts(at)


def test_seed_auc_manual_has_nine_winning_pairs():
    at = run_page(PAGE, scores=scores_table(["u"] * 6, [1, 1, 0, 0, 1, 0], [0.9, 0.8, 0.1, 0.4, 0.95, 0.6]),
                  loaded_example="auc_manual")
    assert card(at, "AUC") == card(at, STRICT) == "1.0000"
    assert r"\frac{9+0.5\cdot 0}{3\cdot 3}=1.0000" in latex(at)
    assert "Every positive outscores every negative, so all 9 pairs count 1" in texts(at)
    assert table_with(at, "credit")["credit"].tolist() == ["1"] * 9
