"""Classification metrics page: accuracy, precision, recall, F1, the confusion matrix and imbalance."""

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import card, chart_titled, edit, plotly_array, run_page, texts
from ui.state import TOPIC_PAGES

PAGE = TOPIC_PAGES["classification"]
LABELS = ("Accuracy", "Precision", "Recall", "F1")


def cards(at, prefix: str = "") -> dict:
    return {label: card(at, prefix + label) for label in LABELS}


def shown(accuracy, precision, recall, f1) -> dict:
    return dict(zip(LABELS, (f"{v:.4f}" for v in (accuracy, precision, recall, f1)), strict=True))


@pytest.fixture
def cls_page() -> AppTest:
    return run_page(PAGE)


def test_deep_link_shows_the_sklearn_labels(cls_page):
    # label [0,1,1,0,1,1], predicted [0,1,0,1,1,1]: TP 3 (rows 2, 5, 6), FP 1 (row 4), TN 1, FN 1 (row 3)
    assert cards(cls_page) == shown(4 / 6, 3 / 4, 3 / 4, 2 * 3 / (2 * 3 + 1 + 1))
    latex = texts(cls_page)
    assert r"\mathrm{Accuracy}=\frac{3+1}{3+1+1+1}=0.6667" in latex
    assert r"\mathrm{Precision}=\frac{3}{3+1}=0.7500" in latex
    assert r"F_1=\frac{2\cdot 0.7500\cdot 0.7500}{0.7500+0.7500}=0.7500" in latex
    outcomes = next(d.value for d in cls_page.dataframe if "outcome" in d.value.columns)
    assert outcomes["outcome"].tolist() == ["TN", "TP", "FN", "FP", "TP", "TP"]


def test_fixing_the_false_negative_changes_every_card(cls_page):
    edit(cls_page, "labels", edited_rows={2: {"predicted": 1}})
    # TP 4, FP 1, TN 1, FN 0
    assert cards(cls_page) == shown(5 / 6, 4 / 5, 1.0, 2 * 4 / (2 * 4 + 1)) == {
        "Accuracy": "0.8333", "Precision": "0.8000", "Recall": "1.0000", "F1": "0.8889"}
    assert {m.label: m.delta for m in cls_page.metric if m.label == "Recall"} == {"Recall": "+0.2500"}


def test_confusion_matrix_chart_carries_the_counts(cls_page):
    z = chart_titled(cls_page, "Confusion matrix")["data"][0]["z"]
    assert [plotly_array(row) for row in z] == [[3, 1], [1, 1]]  # [[TP, FN], [FP, TN]]
    edit(cls_page, "labels", added_rows=[{"label": 1, "predicted": 1}, {"label": 0, "predicted": 0}])
    z = chart_titled(cls_page, "Confusion matrix")["data"][0]["z"]
    assert [plotly_array(row) for row in z] == [[4, 1], [1, 2]]
    assert cards(cls_page) == shown(6 / 8, 4 / 5, 4 / 5, 2 * 4 / (2 * 4 + 2))


def test_label_2_is_named_and_the_other_rows_still_count(cls_page):
    edit(cls_page, "labels", edited_rows={0: {"label": 2}})
    assert "Labels, row 1: label is 2, not 0 or 1, so that row is left out." in texts(cls_page)
    # rows 2-6: label [1,1,0,1,1], predicted [1,0,1,1,1]: TP 3, FP 1, TN 0, FN 1
    assert cards(cls_page) == shown(3 / 5, 3 / 4, 3 / 4, 6 / 8)


def test_non_numeric_prediction_is_named(cls_page):
    edit(cls_page, "labels", edited_rows={3: {"predicted": "yes"}})
    text = texts(cls_page)
    assert "Labels, row 4: predicted is" in text and "not 0 or 1, so that row is left out." in text
    # without row 4 (the FP): TP 3, FP 0, TN 1, FN 1
    assert cards(cls_page) == shown(4 / 5, 1.0, 3 / 4, 6 / 7)


def test_no_predicted_positive_explains_the_zero_division(cls_page):
    edit(cls_page, "labels", edited_rows={i: {"predicted": 0} for i in range(6)})
    assert cards(cls_page) == shown(2 / 6, 0, 0, 0)
    text = texts(cls_page)
    assert "precision is 0/0" in text and "zero_division" in text
    assert r"\mathrm{Precision}=\frac{0}{0+0}\;\to\;0" in text


def test_empty_table_says_so_and_keeps_the_imbalance_demo(cls_page):
    edit(cls_page, "labels", deleted_rows=list(range(6)))
    assert "No usable row is left" in texts(cls_page)
    assert not [m for m in cls_page.metric if m.label in LABELS]
    assert card(cls_page, "Always-0: Accuracy") == "0.9500"


def test_imbalance_demo_at_5_percent_clicks(cls_page):
    assert cards(cls_page, "Always-0: ") == shown(950 / 1000, 0, 0, 0)
    assert "TP = 0, FP = 0, TN = 950, FN = 50" in texts(cls_page)


def test_imbalance_slider_moves_accuracy_but_recall_stays_0(cls_page):
    cls_page.select_slider(key="_classification_positive_share_widget").set_value(0.2).run()
    assert not cls_page.exception
    assert cls_page.session_state["classification_positive_share"] == 0.2
    assert cards(cls_page, "Always-0: ") == shown(800 / 1000, 0, 0, 0)
    assert "TP = 0, FP = 0, TN = 800, FN = 200" in texts(cls_page)
    assert cards(cls_page) == shown(4 / 6, 3 / 4, 3 / 4, 3 / 4)  # the table's cards are untouched


def test_imbalance_chart_shows_accuracy_falling_and_recall_flat(cls_page):
    spec = chart_titled(cls_page, "A model that never predicts a click")
    shares = plotly_array(spec["data"][0]["x"])
    assert shares == pytest.approx([i / 100 for i in range(1, 51)])
    assert plotly_array(spec["data"][0]["y"]) == pytest.approx([1 - s for s in shares])
    assert plotly_array(spec["data"][1]["y"]) == [0.0] * 50
    assert spec["layout"]["shapes"][0]["x0"] == 0.05


def test_seed_example_labels_sklearn():
    at = run_page(PAGE, labels=pd.DataFrame({"label": [0, 1, 1, 0, 1, 1], "predicted": [0, 1, 0, 1, 1, 1]}),
                  loaded_example="labels_sklearn")
    assert cards(at) == shown(4 / 6, 3 / 4, 3 / 4, 3 / 4)
    banner = next(d.value for d in at.dataframe if "document prints" in d.value.columns)
    assert banner["exact"].tolist() == [f"{v:.5f}" for v in (3 / 4, 3 / 4, 4 / 6, 3 / 4)]
    assert "shows no output" in texts(at)


def test_seed_example_text_examples():
    from metrics.seed_examples import TEXT_PRED, TEXT_TRUE
    at = run_page(PAGE, labels=pd.DataFrame({"label": TEXT_TRUE, "predicted": TEXT_PRED}),
                  loaded_example="text_examples")
    # TP 21, FP 21, FN 9, TN 49: precision 21/42, recall 21/30, accuracy 70/100, as the text's one-liners
    assert cards(at) == shown(70 / 100, 21 / 42, 21 / 30, 2 * 0.5 * 0.7 / 1.2)
    banner = next(d.value for d in at.dataframe if "document prints" in d.value.columns)
    assert banner["document prints"].tolist() == ["0.5", "0.5", "0.7", "0.583"]
    assert banner["exact"].tolist() == ["0.50000", "0.70000", "0.70000", f"{2 * 0.5 * 0.7 / 1.2:.5f}"]
    assert "exact 2·0.35/1.2 = 0.58333" in texts(at)
