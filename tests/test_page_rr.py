"""RR and MRR page: the first hit, 1/rank, the RR@K comparison and MRR over users."""

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import card, chart_specs, edit, latex, plotly_array, run_page, table_with, texts
from ui.state import TOPIC_PAGES, ground_truth_table, recommended_table

PAGE = TOPIC_PAGES["rr"]
from ui.figures.charts import HIT, IDEAL, MISS
MRR_DEFAULT = (1 / 1 + 1 / 3 + 0) / 3  # alice hits at 1, bob at 3, carol never


@pytest.fixture
def rr() -> AppTest:
    return run_page(PAGE)


def test_deep_link_shows_the_seed_rr(rr):
    assert card(rr, "RR") == "1.0000"
    assert card(rr, "RR@10 (ranx-style cut-off)") == "1.0000"
    assert r"\mathrm{RR}=\frac{1}{1}=1.0000" in latex(rr)
    assert r"\mathrm{RR}=\frac{1}{\mathrm{rank}_{\text{first hit}}}" in latex(rr)  # from the registry
    assert "First hit: item **101** at rank **1**" in texts(rr)
    assert card(rr, "MRR") == f"{MRR_DEFAULT:.4f}" == "0.4444"
    assert r"\mathrm{MRR}=\frac{1+0.3333+0}{3}=0.4444" in latex(rr)


def test_removing_101_moves_the_first_hit_to_rank_4(rr):
    edit(rr, "ground_truth", deleted_rows=[0])
    assert card(rr, "RR") == f"{1 / 4:.4f}"
    assert r"\mathrm{RR}=\frac{1}{4}=0.2500" in latex(rr)
    assert "First hit: item **104** at rank **4**" in texts(rr)
    assert next(m for m in rr.metric if m.label == "RR").delta == f"{1 / 4 - 1:+.4f}"
    edit(rr, "recommended", edited_rows={6: {"rank": 2}})  # 107 to rank 2
    assert card(rr, "RR") == "0.5000"


def test_k_below_the_first_hit_changes_only_rr_at_k(rr):
    edit(rr, "ground_truth", deleted_rows=[0])  # first hit 104 at rank 4
    rr.slider(key="_k_widget").set_value(3).run()
    assert card(rr, "RR") == "0.2500"
    assert card(rr, "RR@3 (ranx-style cut-off)") == "0.0000"
    assert "The first hit (rank 4) is below K = 3" in texts(rr)
    assert card(rr, "MRR") == "0.4444"  # RR has no cut-off, so MRR ignores K too


def test_seed_999_ground_truth_first_hit_at_rank_3():
    at = run_page(PAGE, recommended=recommended_table(range(101, 111)),
                  ground_truth=ground_truth_table({103: 1, 105: 1, 108: 1, 999: 1}), loaded_example="topn_999")
    assert not at.exception
    assert card(at, "RR") == f"{1 / 3:.4f}"
    assert "Loaded example" not in texts(at)  # a top-N example is not this page's topic


def test_editing_a_user_changes_mrr(rr):
    edit(rr, "users", edited_rows={2: {"relevant": "304"}})
    assert card(rr, "MRR") == f"{(1 + 1 / 3 + 1 / 4) / 3:.4f}" == "0.5278"
    table = table_with(rr, "first_hit_rank")
    assert table.columns.tolist() == ["user", "first_hit_rank", "rr"]
    assert table["first_hit_rank"].tolist() == [1, 3, 4]
    np.testing.assert_allclose(table["rr"], [1, 1 / 3, 1 / 4])


def test_repeated_item_in_a_user_leaves_that_user_out(rr):
    edit(rr, "users", edited_rows={0: {"recommended": "101, 101, 102"}})
    assert "Users, row 1 (alice): item '101' is recommended twice (ranks 1 and 2), so that user is left out." in texts(rr)
    assert card(rr, "MRR") == f"{(1 / 3 + 0) / 2:.4f}"
    assert card(rr, "RR") == "1.0000"


def test_no_usable_user_says_so(rr):
    edit(rr, "users", deleted_rows=[0, 1, 2])
    assert "No usable user in the table, so there is no MRR to compute" in texts(rr)
    assert not [m for m in rr.metric if m.label == "MRR"]


def test_duplicate_item_is_named_and_the_cards_stay(rr):
    edit(rr, "recommended", added_rows=[{"rank": 11, "item": "103"}])
    assert "item '103' appears twice, at ranks 3 and 11" in texts(rr)
    assert card(rr, "RR") == "1.0000"
    assert card(rr, "MRR") == "0.4444"


def test_k_larger_than_the_list_is_explained(rr):
    rr.slider(key="_k_widget").set_value(14).run()
    assert "K = 14 is larger than the list (10 items)" in texts(rr)
    assert card(rr, "RR") == "1.0000"


def test_empty_list_says_so(rr):
    edit(rr, "recommended", deleted_rows=list(range(10)))
    shown = texts(rr)
    assert "The recommended list is empty" in shown
    assert r"\mathrm{RR}=0\ \text{(no relevant item anywhere in the list)}" in shown
    assert card(rr, "RR") == "0.0000"
    assert [s["layout"]["title"]["text"] for s in chart_specs(rr)] == ["RR per user"]


def test_charts_carry_one_over_rank_and_rr_per_user(rr):
    edit(rr, "ground_truth", deleted_rows=[0])  # first hit 104 at rank 4, later hit 107
    positions, users = chart_specs(rr)
    bars = positions["data"][0]
    np.testing.assert_allclose(plotly_array(bars["y"]), 1 / np.arange(1, 11))
    assert bars["marker"]["color"] == [MISS, MISS, MISS, HIT, MISS, MISS, IDEAL, MISS, MISS, MISS]
    np.testing.assert_allclose(plotly_array(users["data"][0]["y"]), [1, 1 / 3, 0])
    assert users["layout"]["shapes"][0]["y0"] == pytest.approx(MRR_DEFAULT)
