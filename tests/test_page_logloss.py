"""LogLoss page: per-sample losses, the -ln(p) curve, the formula written out and the clipping ε."""

import math
import sys

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import card, chart_specs, chart_titled, edit, plotly_array, run_page, texts
from ui.state import TOPIC_PAGES

PAGE = TOPIC_PAGES["logloss"]
SEED_TERMS = [-math.log(0.8), -math.log(0.6), -math.log(1 - 0.3)]
MACHINE_EPS = sys.float_info.epsilon  # 2.220446049250313e-16


def eps_table(at) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "loss_at_zero" in d.value.columns)


@pytest.fixture
def logloss() -> AppTest:
    return run_page(PAGE)


def test_deep_link_shows_the_seed_probabilities(logloss):
    assert card(logloss, "LogLoss") == f"{sum(SEED_TERMS) / 3:.4f}" == "0.3635"
    assert (r"\mathrm{LogLoss}&=\tfrac{1}{3}\left[-\ln 0.8-\ln 0.6-\ln(1-0.3)\right]"
            r"\\&=\tfrac{1}{3}\left[0.2231+0.5108+0.3567\right]\\&=0.3635") in texts(logloss)
    losses = next(d.value for d in logloss.dataframe if "loss" in d.value.columns)
    assert losses["loss"].tolist() == pytest.approx(SEED_TERMS, abs=1e-12)
    assert losses["p_true_label"].tolist() == pytest.approx([0.8, 0.6, 0.7], abs=1e-12)


def test_curve_places_each_sample_at_its_true_label_probability(logloss):
    spec = chart_titled(logloss, "Loss of each sample")
    assert plotly_array(spec["data"][1]["x"]) == pytest.approx([0.8, 0.6, 0.7], abs=1e-12)
    assert plotly_array(spec["data"][1]["y"]) == pytest.approx(SEED_TERMS, abs=1e-12)
    assert plotly_array(spec["data"][1]["text"]) == ["#1", "#2", "#3"]


def test_editing_a_probability_changes_the_card(logloss):
    edit(logloss, "probabilities", edited_rows={1: {"probability": 0.9}})
    expected = (-math.log(0.8) - math.log(0.9) - math.log(0.7)) / 3
    assert card(logloss, "LogLoss") == f"{expected:.4f}" == "0.2284"
    assert [m.delta for m in logloss.metric if m.label == "LogLoss"] == [f"{expected - sum(SEED_TERMS) / 3:+.4f}"]


def test_a_confident_mistake_costs_what_the_clipping_allows(logloss):
    edit(logloss, "probabilities", added_rows=[{"label": 1, "probability": 0.0}])
    expected = (sum(SEED_TERMS) - math.log(MACHINE_EPS)) / 4
    assert card(logloss, "LogLoss") == f"{expected:.4f}" == "9.2836"
    assert r"-\ln\varepsilon\right]" in texts(logloss)
    assert r"&=9.2836,\quad \varepsilon=2.22\times10^{-16}\end{aligned}" in texts(logloss)
    assert "were clipped" in texts(logloss)
    table = eps_table(logloss)
    assert table["loss_at_zero"].tolist() == [
        f"{-math.log(e):.2f}" for e in (MACHINE_EPS, 1e-15, 1e-7)] == ["36.04", "34.54", "16.12"]
    assert table["your_log_loss"].tolist() == [
        f"{(sum(SEED_TERMS) - math.log(e)) / 4:.4f}" for e in (MACHINE_EPS, 1e-15, 1e-7)]

    logloss.radio(key="_logloss_eps_widget").set_value(1e-7).run()
    assert not logloss.exception
    assert logloss.session_state["logloss_eps"] == 1e-7
    assert card(logloss, "LogLoss") == f"{(sum(SEED_TERMS) - math.log(1e-7)) / 4:.4f}" == "4.3022"
    assert plotly_array(chart_titled(logloss, "Loss of each sample")["data"][1]["y"])[3] == pytest.approx(-math.log(1e-7))


def test_eps_does_not_matter_without_extreme_probabilities(logloss):
    assert eps_table(logloss)["your_log_loss"].tolist() == ["0.3635"] * 3
    logloss.radio(key="_logloss_eps_widget").set_value(1e-15).run()
    assert card(logloss, "LogLoss") == "0.3635"


def test_probability_1_3_is_named_and_the_row_left_out(logloss):
    edit(logloss, "probabilities", edited_rows={0: {"probability": 1.3}})
    assert ("Probabilities, row 1: probability is 1.3, not a probability in [0, 1], so that row is left out."
            in texts(logloss))
    assert card(logloss, "LogLoss") == f"{(-math.log(0.6) - math.log(0.7)) / 2:.4f}"


def test_label_2_is_named_and_the_row_left_out(logloss):
    edit(logloss, "probabilities", edited_rows={2: {"label": 2}})
    assert "Probabilities, row 3: label is 2, not 0 or 1, so that row is left out." in texts(logloss)
    assert card(logloss, "LogLoss") == f"{(-math.log(0.8) - math.log(0.6)) / 2:.4f}"


def test_single_class_is_fine_for_logloss(logloss):
    edit(logloss, "probabilities", deleted_rows=[2])
    assert card(logloss, "LogLoss") == f"{(-math.log(0.8) - math.log(0.6)) / 2:.4f}"
    assert "Some rows are left out" not in texts(logloss)


def test_empty_table_says_so_and_keeps_the_clipping_table(logloss):
    edit(logloss, "probabilities", deleted_rows=[0, 1, 2])
    assert "No usable row is left" in texts(logloss)
    assert not [m for m in logloss.metric if m.label == "LogLoss"]
    assert not [s for s in chart_specs(logloss) if s["layout"]["title"]["text"].startswith("Loss of each sample")]
    assert eps_table(logloss)["loss_at_zero"].tolist() == ["36.04", "34.54", "16.12"]


def test_seed_example_log_loss():
    at = run_page(PAGE, probabilities=pd.DataFrame({"label": [1, 1, 0], "probability": [0.8, 0.6, 0.3]}),
                  loaded_example="log_loss")
    assert card(at, "LogLoss") == "0.3635"
    banner = next(d.value for d in at.dataframe if "document prints" in d.value.columns)
    assert banner["document prints"].tolist() == ["—"]
    assert banner["exact"].tolist() == [f"{sum(SEED_TERMS) / 3:.5f}"] == ["0.36355"]
    assert "prints none" in texts(at)
