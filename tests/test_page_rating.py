"""Rating errors page: RMSE/MAE/MSE of the editable ratings, and the seed's three-model demo."""

import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import card, chart_specs, chart_titled, edit, plotly_array, run_page, table_with, texts
from ui.state import TOPIC_PAGES

PAGE = TOPIC_PAGES["rating"]
DEFAULT_PREDICTIONS = [3.5, 4.0, 2.0, 5.0, 3.0]
DEFAULT_ACTUALS = [4.0, 4.0, 1.0, 5.0, 5.0]


def hand_errors(predictions, actuals):
    """RMSE, MAE, MSE written out with plain Python, independent of the metrics package."""
    squared = [(p - a) ** 2 for p, a in zip(predictions, actuals, strict=True)]
    absolute = [abs(p - a) for p, a in zip(predictions, actuals, strict=True)]
    mse = sum(squared) / len(squared)
    return {"RMSE": f"{math.sqrt(mse):.4f}", "MAE": f"{sum(absolute) / len(absolute):.4f}", "MSE": f"{mse:.4f}"}


def seed_code(noise=0.5, outlier_share=0.05, seed=42):
    """The first seed document's smoke test, as printed there (global RNG), with the knobs exposed."""
    np.random.seed(seed)
    n = 1000
    actuals = np.random.choice([1, 2, 3, 4, 5], size=n, p=[0.05, 0.10, 0.20, 0.35, 0.30])
    preds_naive = np.full(n, actuals.mean())
    preds_good = actuals + np.random.normal(0, noise, n)
    preds_outlier = actuals + np.random.normal(0, 0.2, n)
    outlier_mask = np.random.random(n) < outlier_share
    preds_outlier[outlier_mask] += np.random.choice([-4, 4], outlier_mask.sum())
    rmse = lambda p: float(np.sqrt(np.mean((p - actuals) ** 2)))  # noqa: E731
    mae = lambda p: float(np.mean(np.abs(p - actuals)))  # noqa: E731
    return [(rmse(p), mae(p)) for p in (preds_naive, preds_good, preds_outlier)]


def cards(at) -> dict:
    return {label: card(at, label) for label in ("RMSE", "MAE", "MSE")}


@pytest.fixture
def rating() -> AppTest:
    return run_page(PAGE)


def test_deep_link_shows_the_default_ratings(rating):
    assert cards(rating) == hand_errors(DEFAULT_PREDICTIONS, DEFAULT_ACTUALS)
    assert cards(rating) == {"RMSE": "1.0247", "MAE": "0.7000", "MSE": "1.0500"}
    shown = texts(rating)
    assert (r"\begin{aligned}\mathrm{RMSE}&=\sqrt{\tfrac{1}{5}\left[0.25+0+\cdots+4\right]}\\&=\sqrt{1.0500}"
            r"\\&=1.0247\end{aligned}") in shown
    assert (r"\lvert 3.5-4\rvert+\lvert 4-4\rvert+\cdots+\lvert 3-5\rvert\right]"
            r"\\&=\tfrac{1}{5}\left[0.5+0+\cdots+2\right]\\&=0.7000") in shown
    assert "Some rows are left out" not in shown


def test_editing_a_prediction_changes_the_cards_and_shows_the_change(rating):
    edit(rating, "ratings", edited_rows={4: {"prediction": 5.0}})
    predictions = DEFAULT_PREDICTIONS[:4] + [5.0]
    assert cards(rating) == hand_errors(predictions, DEFAULT_ACTUALS) == {
        "RMSE": "0.5000", "MAE": "0.3000", "MSE": "0.2500"}
    deltas = {m.label: m.delta for m in rating.metric if m.label in ("RMSE", "MAE", "MSE")}
    assert deltas == {"RMSE": f"{0.5 - math.sqrt(1.05):+.4f}", "MAE": "-0.4000", "MSE": "-0.8000"}


def test_an_added_outlier_row_inflates_rmse_more_than_mae(rating):
    edit(rating, "ratings", added_rows=[{"prediction": 1.0, "actual": 5.0}])
    expected = hand_errors(DEFAULT_PREDICTIONS + [1.0], DEFAULT_ACTUALS + [5.0])
    assert cards(rating) == expected == {"RMSE": "1.8819", "MAE": "1.2500", "MSE": "3.5417"}
    assert table_with(rating, "squared_error")["squared_error"].tolist() == [0.25, 0, 1, 0, 4, 16]


def test_non_numeric_cell_is_named_and_the_row_left_out(rating):
    edit(rating, "ratings", edited_rows={0: {"prediction": "abc"}})
    shown = texts(rating)
    assert "Ratings, row 1: prediction is" in shown and "not a number, so that row is left out." in shown
    assert cards(rating) == hand_errors(DEFAULT_PREDICTIONS[1:], DEFAULT_ACTUALS[1:]) == {
        "RMSE": "1.1180", "MAE": "0.7500", "MSE": "1.2500"}


def test_empty_cell_is_named_and_the_other_rows_still_count(rating):
    edit(rating, "ratings", edited_rows={2: {"actual": None}})
    assert "Ratings, row 3: actual is empty, not a number, so that row is left out." in texts(rating)
    keep = [0, 1, 3, 4]
    assert cards(rating) == hand_errors([DEFAULT_PREDICTIONS[i] for i in keep], [DEFAULT_ACTUALS[i] for i in keep])


def test_a_short_table_writes_every_term_out(rating):
    edit(rating, "ratings", deleted_rows=[3, 4])
    assert cards(rating) == hand_errors(DEFAULT_PREDICTIONS[:3], DEFAULT_ACTUALS[:3])
    assert (r"\mathrm{MSE}&=\tfrac{1}{3}\left[(3.5-4)^2+(4-4)^2+(2-1)^2\right]"
            r"\\&=\tfrac{1}{3}\left[0.25+0+1\right]\\&=0.4167") in texts(rating)


def test_empty_table_says_so_and_keeps_the_demo(rating):
    edit(rating, "ratings", deleted_rows=[0, 1, 2, 3, 4])
    assert "No usable rating is left" in texts(rating)
    assert not [m for m in rating.metric if m.label in ("RMSE", "MAE", "MSE")]
    titles = [s["layout"]["title"]["text"] for s in chart_specs(rating)]
    assert not any(t.startswith("Error of each prediction") for t in titles)
    assert len(table_with(rating, "model")) == 3


def test_error_chart_carries_absolute_and_squared_errors(rating):
    spec = chart_titled(rating, "Error of each prediction")
    assert plotly_array(spec["data"][0]["y"]) == [0.5, 0, 1, 0, 2]
    assert plotly_array(spec["data"][1]["y"]) == [0.25, 0, 1, 0, 4]


def test_demo_at_defaults_matches_the_seed_code_not_its_printout(rating):
    summary = table_with(rating, "model")
    expected = seed_code()
    assert summary["RMSE"].round(4).tolist() == [round(r, 4) for r, _ in expected] == [1.1545, 0.4967, 0.9009]
    assert summary["MAE"].round(4).tolist() == [round(m, 4) for _, m in expected] == [0.9532, 0.3950, 0.3417]
    printed = table_with(rating, "its code gives")
    assert printed["document prints"].tolist() == ["1.0996", "0.9170", "0.5031", "0.4001", "0.9420", "0.3950"]
    assert printed["its code gives"].tolist() == ["1.1545", "0.9532", "0.4967", "0.3950", "0.9009", "0.3417"]
    bars = chart_titled(rating, "RMSE vs MAE")
    assert [round(v, 4) for v in plotly_array(bars["data"][0]["y"])] == [1.1545, 0.4967, 0.9009]
    assert "16 to the sum of squared errors" in texts(rating)


def test_outlier_share_slider_updates_the_demo_and_the_shared_dict(rating):
    rating.select_slider(key="rating_demo_outlier_share").set_value(0.1).run()
    assert not rating.exception
    assert rating.session_state["rating_demo"] == {"noise": 0.5, "outlier_share": 0.1, "seed": 42}
    outlier_rmse, outlier_mae = seed_code(outlier_share=0.1)[2]
    summary = table_with(rating, "model")
    assert round(summary["RMSE"].iloc[2], 6) == round(outlier_rmse, 6)
    assert round(summary["MAE"].iloc[2], 6) == round(outlier_mae, 6)
    sweep = chart_titled(rating, "Outlier-prone model")
    assert sweep["layout"]["shapes"][0]["x0"] == 0.1


def test_noise_slider_changes_only_the_low_noise_model(rating):
    rating.select_slider(key="rating_demo_noise").set_value(1.0).run()
    summary = table_with(rating, "model")
    expected = seed_code(noise=1.0)
    assert summary["RMSE"].round(6).tolist() == [round(r, 6) for r, _ in expected]
    assert summary["RMSE"].round(4).tolist()[0::2] == [1.1545, 0.9009]


def test_sweep_chart_runs_over_outlier_shares_0_to_30_percent(rating):
    spec = chart_titled(rating, "Outlier-prone model")
    shares = plotly_array(spec["data"][0]["x"])
    assert shares == pytest.approx([i / 100 for i in range(31)])
    rmse, mae = plotly_array(spec["data"][0]["y"]), plotly_array(spec["data"][1]["y"])
    for index in (0, 5, 10, 30):
        expected_rmse, expected_mae = seed_code(outlier_share=shares[index])[2]
        assert (rmse[index], mae[index]) == pytest.approx((expected_rmse, expected_mae), abs=1e-12)
    # 5% of ±4 misses: MAE grows by about 0.05·4, RMSE by about sqrt(0.05·16): several times more.
    assert rmse[5] - rmse[0] > 3 * (mae[5] - mae[0])


def test_loaded_seed_example_shows_printed_and_exact_values():
    at = run_page(PAGE, rating_demo={"noise": 0.5, "outlier_share": 0.05, "seed": 42}, loaded_example="rating_models")
    banner = table_with(at, "document prints")
    exact = [f"{v:.5f}" for pair in seed_code() for v in pair]
    assert banner["exact"].tolist() == exact
    assert banner["document prints"].tolist()[:2] == ["1.0996", "0.9170"]
    assert "do not come from its code" in texts(at)


def test_a_loaded_demo_setting_moves_the_sliders():
    at = run_page(PAGE, rating_demo={"noise": 1.0, "outlier_share": 0.2, "seed": 7})
    assert at.select_slider(key="rating_demo_noise").value == 1.0
    assert at.select_slider(key="rating_demo_outlier_share").value == 0.2
    assert at.text_input(key="_rating_demo_seed_typed").value == "7"
    summary = table_with(at, "model")
    assert summary["RMSE"].round(6).tolist() == [round(r, 6) for r, _ in seed_code(1.0, 0.2, 7)]
