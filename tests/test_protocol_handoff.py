"""Every log the protocol lab produces opens in Your data and Compare: after a run on ML-100K, a button hands one
model's top 10 and the test set to Your data, another two models' to Compare, and each page names the source."""

from __future__ import annotations

import pytest

from content.pages import protocols as words
from tests.conftest import run_page, texts

PAGE = "pages/22_Protocol_lab.py"
PRESET = "significant_but_small"  # item k-NN and EASE on a random split: the lab's quickest preset


@pytest.fixture
def lab():
    at = run_page(PAGE, protocol_preset=PRESET)
    at.button(key=f"protocol_run_{PRESET}").click().run(timeout=180)
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown_number(text: str) -> float:
    return float(text.replace(",", ""))


def test_a_model_opens_in_your_data_with_the_labs_per_user_means(lab):
    means = lab.dataframe[0].value.loc[words.model_name("ease")]
    lab.selectbox(key=f"protocol_open_model_{PRESET}").set_value("ease")
    lab.button(key=f"protocol_open_your_data_{PRESET}").click().run(timeout=180)
    assert not lab.exception, [e.value for e in lab.exception]
    assert [t.value for t in lab.title] == ["🗂️ Your data"]
    assert ("Showing the protocol lab's top 10 of EASE on MovieLens 100K (Random hold-out of interactions; untuned)"
            in texts(lab))
    table = lab.dataframe[0].value.set_index("metric")["K = 10"]
    for column, label in (("P@10", "Precision@K"), ("R@10", "Recall@K"), ("HR@10", "HR@K"), ("AP@10", "MAP@K"),
                          ("NDCG@10", "NDCG@K"), ("RR", "MRR (no cut-off)")):
        assert table[label] == pytest.approx(shown_number(means[column]), abs=5e-5), column
    users = lab.dataframe[1].value.set_index("meaning")["users"]
    assert users.iloc[0] == 940 and users.iloc[1:].sum() == 0  # every test user has a list, none is left out
    # the page names the lab as the source chosen, with no other source's form above the handed log
    assert lab.radio(key="yd_source").value == "From the protocol lab"
    assert not [s for s in lab.select_slider if s.key == "yd_quality"] and not lab.number_input
    lab.switch_page("pages/17_Your_data.py").run(timeout=180)  # AppTest's next run is of its own page, not the one switched to
    lab.radio(key="yd_source").set_value("Synthetic log").run(timeout=180)
    assert [s.key for s in lab.select_slider if s.key == "yd_quality"] == ["yd_quality"]  # the form is back
    assert "From the protocol lab" in lab.radio(key="yd_source").options  # the handed log is still the one shown


def test_two_models_open_in_compare_with_their_paired_comparison(lab):
    expected = lab.dataframe[1].value  # the lab's own paired test of item k-NN (A) against EASE (B)
    lab.button(key=f"protocol_open_compare_{PRESET}").click().run(timeout=180)
    assert not lab.exception, [e.value for e in lab.exception]
    assert [t.value for t in lab.title] == ["📊 Compare two models"]
    assert lab.radio(key="compare_source").value == "From the protocol lab"
    assert ("A = Item k-NN, B = EASE**: each model's top 10 from the protocol lab on MovieLens 100K (Random hold-out "
            "of interactions; untuned), scored against the held-out interactions of the split's 940 test users."
            in texts(lab))
    table = lab.dataframe[0].value
    assert len(table) == len(expected)
    for (_, row), (_, lab_row) in zip(table.iterrows(), expected.iterrows(), strict=True):
        for column in ("mean_a", "mean_b", "delta", "p_adjusted", "effect_size"):
            assert row[column] == pytest.approx(shown_number(lab_row[column]), abs=5e-5), column
        assert (row["wins"], row["ties"], row["losses"]) == tuple(shown_number(lab_row[c]) for c in ("wins", "ties",
                                                                                                     "losses"))


def test_compare_offers_the_lab_only_once_a_pair_was_handed_over():
    at = run_page("pages/18_Compare_two_models.py")
    assert "From the protocol lab" not in at.radio(key="compare_source").options


def test_your_data_offers_the_lab_only_while_it_shows_a_log_the_lab_handed_over():
    at = run_page("pages/17_Your_data.py")
    assert "From the protocol lab" not in at.radio(key="yd_source").options
