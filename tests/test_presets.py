"""Every preset loads data whose numbers are the ones its banner calls exact, and the banner follows edits."""

import re

import pytest

from metrics.seed_examples import EXAMPLES
from tests.conftest import edit, latex, run_page, texts
from ui.state import TOPIC_PAGES


def load(example):
    at = run_page(TOPIC_PAGES["examples"])
    at.button(key=f"examples_load_{example.key}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    at.switch_page(TOPIC_PAGES[example.topic])  # later runs stay on the page the button opened
    return at


def shown_numbers(at) -> set[str]:
    """Every number the page shows outside the banner, at 4 decimals: cards, tables and formulas."""
    numbers = {m.value for m in at.metric}
    for frame in (d.value for d in at.dataframe):
        if "document prints" in frame.columns:
            continue
        for value in frame.to_numpy().ravel():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                numbers.add(f"{value:.4f}")
    numbers |= {f"{float(n):.4f}" for n in re.findall(r"\d+\.\d+", latex(at))}
    return numbers


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_the_loaded_data_gives_every_exact_value_of_the_banner(example):
    at = load(example)
    shown = shown_numbers(at)
    missing = [(v.key, f"{v.exact:.4f}") for v in example.values if f"{v.exact:.4f}" not in shown]
    assert not missing, missing


def test_after_an_edit_the_banner_says_changed_and_resets_to_the_example():
    at = load(next(e for e in EXAMPLES if e.key == "ap_rr"))
    assert "Loaded example:" in texts(at) and "Changed from the example" not in texts(at)
    edit(at, "recommended", edited_rows={6: {"rank": "2"}})
    assert card_value(at, "AP@10") == "0.8667"
    assert "Changed from the example:" in texts(at) and "Loaded example:" not in texts(at)
    at.button(key="reset_example_ap").click().run()
    assert not at.exception
    assert card_value(at, "AP@10") == "0.6429"
    assert "Loaded example:" in texts(at) and "Changed from the example" not in texts(at)
    assert at.session_state["recommended"]["item"].tolist() == [str(i) for i in range(101, 111)]


@pytest.mark.parametrize("key, table, change", [
    ("labels_sklearn", "labels", {"edited_rows": {0: {"label": 1}}}),
    ("log_loss", "probabilities", {"added_rows": [{"label": 1, "probability": 0.5}]}),
    ("auc_manual", "scores", {"deleted_rows": [0]}),
    ("ndcg_sklearn", "ndcg_scores", {"edited_rows": {0: {"score": 9.0}}}),
])
def test_every_table_kind_notices_an_edit(key, table, change):
    at = load(next(e for e in EXAMPLES if e.key == key))
    assert "Changed from the example" not in texts(at)
    edit(at, table, **change)
    assert "Changed from the example:" in texts(at)


def test_changing_k_counts_as_a_change():
    at = load(next(e for e in EXAMPLES if e.key == "topn_999"))
    at.slider(key="_k_widget").set_value(5).run()
    assert "Changed from the example:" in texts(at)


def card_value(at, label):
    return next(m.value for m in at.metric if m.label == label)
