"""LogLoss page, normalised entropy and calibration block: the seed's numbers, one-class data, edits."""

import math

import pytest

from streamlit.proto.Metric_pb2 import Metric

from tests.conftest import card, chart_titled, edit, run_page, texts
from ui.state import TOPIC_PAGES

PAGE = TOPIC_PAGES["logloss"]
RED, GREEN = (Metric.DESCRIPTOR.fields_by_name["color"].enum_type.values_by_name[name].number for name in ("RED", "GREEN"))
SEED_LOGLOSS = -(math.log(0.8) + math.log(0.6) + math.log(0.7)) / 3
SEED_ENTROPY = -(2 / 3 * math.log(2 / 3) + 1 / 3 * math.log(1 / 3))


@pytest.fixture
def logloss():
    return run_page(PAGE)


def test_seed_probabilities_give_ne_and_calibration_written_out(logloss):
    assert card(logloss, "Normalised entropy") == f"{SEED_LOGLOSS / SEED_ENTROPY:.4f}" == "0.5712"
    assert card(logloss, "Calibration") == "0.8500"
    assert r"\mathrm{NE}=\frac{0.3635}{0.6365}=0.5712,\quad \bar y=\tfrac{2}{3}" in texts(logloss)
    assert r"\text{Calibration}=\frac{0.8+0.6+0.3}{2}=\frac{1.7}{2}=0.8500" in texts(logloss)
    bars = chart_titled(logloss, "LogLoss vs the base rate")["data"]
    assert bars[0]["y"] == pytest.approx([SEED_LOGLOSS, SEED_ENTROPY])
    assert bars[1]["y"] == pytest.approx([1.7, 2])
    sweep = next(d.value for d in logloss.dataframe if "normalized_entropy" in d.value.columns)
    assert sweep["normalized_entropy"].tolist() == ["1.0000"] * 4  # shown in the reader's notation
    assert sweep["log_loss"].astype(float).is_monotonic_increasing


def test_an_edit_moves_ne_and_calibration(logloss):
    edit(logloss, "probabilities", edited_rows={1: {"probability": 0.9}})
    loss = -(math.log(0.8) + math.log(0.9) + math.log(0.7)) / 3
    assert card(logloss, "Normalised entropy") == f"{loss / SEED_ENTROPY:.4f}"
    assert card(logloss, "Calibration") == f"{2.0 / 2:.4f}"


def test_one_class_says_ne_is_undefined(logloss):
    edit(logloss, "probabilities", deleted_rows=[0, 1])
    assert card(logloss, "Normalised entropy") == "undefined"
    assert card(logloss, "Calibration") == "undefined"
    assert "Every label is the same" in texts(logloss) and "calibration is undefined too" in texts(logloss)
    assert r"\mathrm{NE}\ \text{undefined: every label is the same}" in texts(logloss)
    assert card(logloss, "LogLoss") == f"{-math.log(0.7):.4f}"


def test_calibration_change_is_green_when_it_moves_towards_1_and_red_when_it_moves_away(logloss):
    """Calibration has a target (1), not a direction: the card's colour follows the distance to 1."""
    def calibration_card():
        return next(m.proto for m in logloss.metric if m.label == "Calibration")

    edit(logloss, "probabilities", edited_rows={1: {"probability": 0.9}})  # 0.85 -> 1.00, towards 1
    towards = calibration_card()
    assert towards.delta == "+0.1500" and towards.color == GREEN
    edit(logloss, "probabilities", edited_rows={1: {"probability": 0.99}})  # 1.00 -> 1.045, away from 1
    away = calibration_card()
    assert away.delta == "+0.0450" and away.color == RED
    edit(logloss, "probabilities", edited_rows={1: {"probability": 0.95}})  # 1.045 -> 1.025, towards 1
    back = calibration_card()
    assert back.delta == "-0.0200" and back.color == GREEN
