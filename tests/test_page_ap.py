"""AP and MAP page: the AP sum written out, all three denominators, the per-user MAP table."""

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import card, chart_specs, edit, latex, plotly_array, run_page, table_with, texts
from ui.state import TOPIC_PAGES, ground_truth_table, recommended_table

PAGE = TOPIC_PAGES["ap"]
AP_SEED = (1 / 1 + 2 / 4 + 3 / 7) / 3  # hits at ranks 1, 4, 7
AP_999 = (1 / 3 + 2 / 5 + 3 / 8)  # numerator for relevant {103, 105, 108, 999}
MAP_DEFAULT = ((1 + 2 / 4) / 2 + 1 / 3 + 0) / 3  # alice, bob, carol


def denominator_cards(at) -> dict:
    return {m.label: m.value for m in at.metric if m.label.startswith("÷ ")}


@pytest.fixture
def ap() -> AppTest:
    return run_page(PAGE)


def test_deep_link_writes_the_seed_sum_out(ap):
    assert card(ap, "AP@10") == f"{AP_SEED:.4f}" == "0.6429"
    assert r"\mathrm{AP@10}=\frac{\tfrac{1}{1}+\tfrac{2}{4}+\tfrac{3}{7}}{3}=\frac{1.9286}{3}=0.6429" in latex(ap)
    assert denominator_cards(ap) == {"÷ min(|Rel|, K) = 3": "0.6429", "÷ |Rel| = 3": "0.6429",
                                     "÷ hits in top K = 3": "0.6429"}
    assert card(ap, "MAP@10") == f"{MAP_DEFAULT:.4f}" == "0.3611"
    assert r"\mathrm{MAP@10}=\frac{0.75+0.3333+0}{3}=0.3611" in latex(ap)


def test_breakdown_table_has_precision_at_each_rank(ap):
    table = next(d.value for d in ap.dataframe if "contribution" in d.value.columns)
    assert table["hits_so_far"].tolist() == [1, 1, 1, 2, 2, 2, 3, 3, 3, 3]
    np.testing.assert_allclose(table["contribution"], [1, 0, 0, 1 / 2, 0, 0, 3 / 7, 0, 0, 0])


def test_moving_107_to_rank_2_raises_ap(ap):
    edit(ap, "recommended", edited_rows={6: {"rank": 2}})
    expected = (1 / 1 + 2 / 2 + 3 / 5) / 3
    assert card(ap, "AP@10") == f"{expected:.4f}" == "0.8667"
    assert r"\tfrac{1}{1}+\tfrac{2}{2}+\tfrac{3}{5}" in latex(ap)
    assert next(m for m in ap.metric if m.label == "AP@10").delta == f"{expected - AP_SEED:+.4f}"


def test_small_k_separates_the_three_denominators(ap):
    ap.slider(key="_k_widget").set_value(2).run()
    # top 2 = 101 (hit), 102: numerator 1/1
    assert denominator_cards(ap) == {"÷ min(|Rel|, K) = 2": f"{1 / 2:.4f}", "÷ |Rel| = 3": f"{1 / 3:.4f}",
                                     "÷ hits in top K = 1": f"{1 / 1:.4f}"}
    assert card(ap, "AP@2") == "0.5000"
    # alice: top 2 = 101 (hit), 102 of {101, 104} -> 1/2; bob and carol have no hit in the top 2
    assert card(ap, "MAP@2") == f"{(1 / 2) / 3:.4f}"
    ap.radio(key="_ap_denominator_widget").set_value("hits").run()
    assert card(ap, "AP@2") == "1.0000"
    assert card(ap, "MAP@2") == f"{1 / 3:.4f}"  # alice 1/1; bob and carol 0
    ap.radio(key="_ap_denominator_widget").set_value("relevant").run()
    assert card(ap, "AP@2") == f"{1 / 3:.4f}"
    assert r"\mathrm{AP@2}=\frac{\tfrac{1}{1}}{3}=\frac{1}{3}=0.3333" in latex(ap)


def test_seed_999_shows_all_three_denominators():
    at = run_page(PAGE, recommended=recommended_table(range(101, 111)),
                  ground_truth=ground_truth_table({103: 1, 105: 1, 108: 1, 999: 1}), k=10, loaded_example="topn_999")
    assert card(at, "AP@10") == f"{AP_999 / 4:.4f}" == "0.2771"
    assert denominator_cards(at) == {"÷ min(|Rel|, K) = 4": "0.2771", "÷ |Rel| = 4": "0.2771",
                                     "÷ hits in top K = 3": f"{AP_999 / 3:.4f}"}
    assert denominator_cards(at)["÷ hits in top K = 3"] == "0.3694"
    table = next(d.value for d in at.dataframe if "used_by" in d.value.columns)
    assert table["used_by"].tolist() == ["the NumPy tutorial, Recommenders map_at_k, RecBole", "trec_eval map_cut, ranx", "torchmetrics"]
    assert table["divide_by"].tolist() == [4, 4, 3]
    assert table["chosen"].tolist() == [True, False, False]
    at.radio(key="_ap_denominator_widget").set_value("hits").run()
    assert card(at, "AP@10") == "0.3694"
    assert r"\frac{\tfrac{1}{3}+\tfrac{2}{5}+\tfrac{3}{8}}{3}=\frac{1.1083}{3}=0.3694" in latex(at)


def test_seed_example_ap_rr_banner():
    at = run_page(PAGE, recommended=recommended_table(range(101, 111)),
                  ground_truth=ground_truth_table({101: 1, 104: 1, 107: 1}), k=10, loaded_example="ap_rr")
    assert "AP@10 and RR with relevant items at ranks 1, 4 and 7" in texts(at)
    banner = at.dataframe[0].value
    assert banner["document prints"].tolist() == ["0.6429", "1.0"]
    assert banner["exact"].tolist() == [f"{AP_SEED:.5f}", "1.00000"]
    assert card(at, "AP@10") == "0.6429"


def test_editing_a_user_changes_map_and_the_per_user_table(ap):
    edit(ap, "users", edited_rows={2: {"relevant": "301, 305"}})
    carol = (1 / 1 + 2 / 5) / 2
    assert card(ap, "MAP@10") == f"{((1 + 2 / 4) / 2 + 1 / 3 + carol) / 3:.4f}" == "0.5944"
    table = table_with(ap, "first_hit_rank")
    assert table["user"].tolist() == ["alice", "bob", "carol"]
    np.testing.assert_allclose(table["ap"], [0.75, 1 / 3, 0.7])
    np.testing.assert_allclose(table["rr"], [1, 1 / 3, 1])
    assert table["first_hit_rank"].tolist() == [1, 3, 1]


def test_repeated_item_in_a_user_leaves_that_user_out(ap):
    edit(ap, "users", edited_rows={1: {"recommended": "201, 202, 201"}})
    assert "Users, row 2 (bob): item '201' is recommended twice (ranks 1 and 3), so that user is left out." in texts(ap)
    assert card(ap, "MAP@10") == f"{(0.75 + 0) / 2:.4f}"
    assert table_with(ap, "first_hit_rank")["user"].tolist() == ["alice", "carol"]
    assert card(ap, "AP@10") == "0.6429"


def test_no_usable_user_says_so_and_keeps_ap(ap):
    edit(ap, "users", deleted_rows=[0, 1, 2])
    assert "No usable user in the table, so there is no MAP to compute" in texts(ap)
    assert not [m for m in ap.metric if m.label.startswith("MAP")]
    assert card(ap, "AP@10") == "0.6429"


def test_duplicate_item_is_named_and_the_cards_stay(ap):
    edit(ap, "recommended", added_rows=[{"rank": 11, "item": "103"}])
    assert "item '103' appears twice, at ranks 3 and 11" in texts(ap)
    assert card(ap, "AP@10") == "0.6429"
    assert card(ap, "MAP@10") == "0.3611"


def test_k_larger_than_the_list_is_explained(ap):
    ap.slider(key="_k_widget").set_value(12).run()
    assert "K = 12 is larger than the list (10 items)" in texts(ap)
    assert card(ap, "AP@12") == "0.6429"  # min(|Rel|, K) = 3 still


def test_empty_list_says_so_and_skips_the_contributions_chart(ap):
    edit(ap, "recommended", deleted_rows=list(range(10)))
    shown = texts(ap)
    assert "The recommended list is empty" in shown
    assert "no rank to walk through" in shown
    assert r"\mathrm{AP@10}=0\ \text{(no relevant item in the top 10)}" in shown
    assert card(ap, "AP@10") == "0.0000"
    assert [s["layout"]["title"]["text"] for s in chart_specs(ap)] == ["AP@10 per user"]


def test_charts_carry_contributions_and_per_user_ap(ap):
    contributions, users = chart_specs(ap)
    np.testing.assert_allclose(plotly_array(contributions["data"][0]["y"]), [1, 0, 0, 1 / 2, 0, 0, 3 / 7, 0, 0, 0])
    hits = np.array([1, 1, 1, 2, 2, 2, 3, 3, 3, 3])
    np.testing.assert_allclose(plotly_array(contributions["data"][1]["y"]), hits / np.arange(1, 11))
    np.testing.assert_allclose(plotly_array(users["data"][0]["y"]), [0.75, 1 / 3, 0])
    assert users["layout"]["xaxis"]["ticktext"] == ["alice", "bob", "carol"]
    assert users["layout"]["shapes"][0]["y0"] == pytest.approx(MAP_DEFAULT)
