"""The four what-if labs and the pinned baseline, used as a learner would (AppTest)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from metrics import baselines
from metrics.registry import BY_KEY
from tests.conftest import card, chart_specs, edit, latex, plotly_array, run_page, table_with, texts
from content import text
from content.labs import PRESETS
from ui.state import TOPIC_PAGES

D = lambda i: 1 / np.log2(i + 1)  # noqa: E731  (the NDCG discount at rank i)


def deltas(at) -> dict[str, str]:
    return {m.label: m.delta for m in at.metric}


def ab_row(at, label: str) -> dict:
    table = table_with(at, "B − A").rename(columns={"B − A": "difference"})
    return table[table["metric"] == label].iloc[0].to_dict()


# ---------- A vs B ----------

@pytest.fixture
def ab():
    return run_page(TOPIC_PAGES["ab"])


def test_ab_starts_with_b_a_copy_of_the_playground_list(ab):
    assert card(ab, "AP@10") == "0.6429" and card(ab, "NDCG@10 (binary)") == "0.8278"
    assert not any(deltas(ab).values())
    assert chart_specs(ab)[0]["layout"]["title"]["text"].startswith("A → B: 0 item(s) moved")
    assert r"\Delta_{\mathrm{NDCG@10}}=0.8278-0.8278=+0.0000" in latex(ab)


def test_the_relevant_items_are_edited_in_the_lab_and_score_both_lists(ab):
    edit(ab, "ab_ground_truth", added_rows=[{"item": "110", "grade": "1"}])  # a fourth hit, at rank 10
    row = ab_row(ab, "Precision@10")
    assert row["A"] == row["B"] == pytest.approx(0.4)
    assert ab_row(ab, "AP@10")["A"] == pytest.approx((1 + 2 / 4 + 3 / 7 + 4 / 10) / 4)
    assert "110 (grade 1)" in " ".join(c.value for c in ab.caption)
    edit(ab, "ab_b", edited_rows={9: {"rank": 1}})  # the new hit to the top of B
    assert ab_row(ab, "AP@10")["B"] == pytest.approx((1 + 2 / 2 + 3 / 5 + 4 / 8) / 4)
    edit(ab, "ab_ground_truth", edited_rows={0: {"grade": "lots"}})  # 101's grade unusable: a warning, 101 left out
    assert any("lots" in w.value for w in ab.warning)
    assert ab_row(ab, "Recall@10")["A"] == pytest.approx(1.0)  # three relevant items left, all in the list


def test_a_preset_brings_its_own_relevant_items(ab):
    preset = PRESETS[0]
    edit(ab, "ab_ground_truth", added_rows=[{"item": "110", "grade": "1"}])
    ab.button(key=f"_ab_preset_{preset.key}").click().run()
    shown = ab.session_state["ab_ground_truth"]
    assert dict(zip(shown["item"], shown["grade"].astype(float), strict=True)) == {
        str(item): float(grade) for item, grade in preset.truth.items()}


def test_typing_a_rank_in_b_moves_the_item_and_shows_the_difference(ab):
    edit(ab, "ab_b", edited_rows={6: {"rank": 2}})  # 107 from rank 7 to rank 2
    assert card(ab, "AP@10") == "0.8667"  # (1 + 2/2 + 3/5) / 3
    assert deltas(ab)["AP@10"] == f"{(1 + 1 + 0.6) / 3 - (1 + 0.5 + 3 / 7) / 3:+.4f} vs A"
    assert deltas(ab)["Precision@10"] == ""  # P@10 cannot see the move
    assert r"\Delta_{\mathrm{NDCG@10}}=0.9469-0.8278=+0.1191" in latex(ab)
    arrows = chart_specs(ab)[0]
    assert arrows["layout"]["title"]["text"].startswith("A → B: 6 item(s) moved")
    moved = {(a["ay"], a["y"]) for a in arrows["layout"]["annotations"] if a.get("showarrow")}
    assert (7, 2) in moved and (2, 3) in moved


def test_move_buttons_keep_the_item_selected_and_swap_exchanges_ranks(ab):
    ab.selectbox(key="_ab_item").set_value("107").run()
    ab.button(key="_ab_up").click().run()
    assert ab.session_state["ab_b"]["item"].tolist()[5:7] == ["107", "106"]
    assert ab.selectbox(key="_ab_item").value == "107"
    ab.button(key="_ab_down").click().run()
    assert ab.session_state["ab_b"]["item"].tolist() == [str(i) for i in range(101, 111)]
    ab.number_input(key="_ab_to_rank").set_value(1).run()
    ab.button(key="_ab_move").click().run()
    assert ab.session_state["ab_b"]["item"].tolist()[:2] == ["107", "101"]
    assert card(ab, "RR") == "1.0000"
    ab.selectbox(key="_ab_swap").set_value("110").run()
    ab.button(key="_ab_do_swap").click().run()
    assert ab.session_state["ab_b"]["item"].tolist()[0] == "110"
    assert card(ab, "RR") == "0.5000" and deltas(ab)["RR"] == "-0.5000 vs A"
    ab.button(key="_ab_reset").click().run()
    assert not any(deltas(ab).values())


@pytest.mark.parametrize("preset", PRESETS, ids=[p.key for p in PRESETS])
def test_every_preset_shows_the_numbers_its_text_states(ab, preset):
    ab.button(key=f"_ab_preset_{preset.key}").click().run()
    assert not ab.exception
    shown_text = texts(ab)
    assert preset.title in shown_text
    for key, column, value in preset.shows:
        metric = BY_KEY[key]
        label = metric.display_label(preset.k if metric.needs_k else None)
        assert round(ab_row(ab, label)[column], 4) == pytest.approx(value, abs=5e-13), (key, column)
        assert f"{abs(value):.4f}" in preset.text, (key, column, value)
        if column == "B":
            assert card(ab, label) == f"{value:.4f}"
        if column == "difference":
            assert deltas(ab)[label] == f"{value:+.4f} vs A"


SHOWN_AFTER_A_MOVE = {"top_matters_most": {"0.0073"}}  # checked by the next test, after the move it asks for


@pytest.mark.parametrize("preset", PRESETS, ids=[p.key for p in PRESETS])
def test_every_number_a_preset_text_writes_is_on_the_page(ab, preset):
    ab.button(key=f"_ab_preset_{preset.key}").click().run()
    table = table_with(ab, "B − A")
    shown = {f"{abs(v):.4f}" for column in ("A", "B", "B − A") for v in table[column]}
    written = set(re.findall(r"\d\.\d{4}", preset.text))
    assert written, preset.key
    assert written - shown == SHOWN_AFTER_A_MOVE.get(preset.key, set())


def test_first_preset_second_claim_nine_to_ten_costs_0_0073(ab):
    ab.button(key="_ab_preset_top_matters_most").click().run()
    ab.button(key="_ab_reset").click().run()
    ab.selectbox(key="_ab_item").set_value("109").run()
    ab.button(key="_ab_down").click().run()
    assert deltas(ab)["NDCG@10 (binary)"] == "-0.0073 vs A"
    assert round((D(9) - D(10)) / (1 + D(2)), 4) == 0.0073
    assert "costs only **0.0073**" in PRESETS[0].text


def test_duplicate_typed_into_b_is_named_and_kept(ab):
    edit(ab, "ab_b", added_rows=[{"rank": 11, "item": "103"}])
    assert "item '103' appears twice" in texts(ab)
    assert ab.session_state["ab_b"]["item"].tolist()[-1] == "103"
    ab.selectbox(key="_ab_item").set_value("101").run()
    ab.button(key="_ab_down").click().run()
    assert ab.session_state["ab_b"]["item"].tolist()[-1] == "103"  # the move kept the typed row


# ---------- Sensitivity explorer ----------

@pytest.fixture
def sensitivity():
    return run_page(TOPIC_PAGES["sensitivity"])


def test_sensitivity_steps_the_item_down_and_cards_and_formula_follow(sensitivity):
    assert card(sensitivity, "NDCG@5 (binary)") == "1.0000"
    sensitivity.button(key="_sens_next").click().run()
    assert card(sensitivity, "RR") == "0.5000"
    assert card(sensitivity, "NDCG@5 (binary)") == f"{D(2):.4f}"
    assert card(sensitivity, "Precision@5") == "0.2000"
    assert r"\mathrm{RR}=\frac{1}{2}=0.5000" in latex(sensitivity)
    for _ in range(4):
        sensitivity.button(key="_sens_next").click().run()
    # rank 6 is outside K = 5: the @K metrics drop to 0, RR keeps 1/6
    assert card(sensitivity, "HR@5") == "0.0000" and card(sensitivity, "RR") == f"{1 / 6:.4f}"


def test_sensitivity_auto_play_switch_runs_and_stops_at_the_last_step(sensitivity):
    sensitivity.toggle(key="_sens_playing_widget").set_value(True).run()
    assert sensitivity.session_state["sens_playing"] is True
    sensitivity.slider(key="_sens_step_widget").set_value(10).run()
    sensitivity.toggle(key="_sens_playing_widget").set_value(False).run()
    assert card(sensitivity, "RR") == "0.1000"


def test_sensitivity_lines_have_the_textbook_shapes_and_a_frame_per_rank(sensitivity):
    spec = chart_specs(sensitivity)[0]
    lines = {t["name"]: t for t in spec["data"][:6]}
    ranks = np.arange(1, 11)
    np.testing.assert_allclose(plotly_array(lines["RR"]["y"]), 1 / ranks)
    np.testing.assert_allclose(plotly_array(lines["NDCG@K (binary)"]["y"]), np.where(ranks <= 5, D(ranks), 0))
    np.testing.assert_allclose(plotly_array(lines["Precision@K"]["y"]), np.where(ranks <= 5, 0.2, 0))
    assert len(spec["frames"]) == 10
    assert spec["layout"]["updatemenus"][0]["buttons"][0]["label"] == "▶ Play"


def test_sensitivity_grows_k_and_missing_items_cap_recall(sensitivity):
    sensitivity.radio(key="_sens_mode_widget").set_value("k").run()
    sensitivity.number_input(key="_sens_missing_widget").set_value(1).run()
    # ★ stays at rank 5 (the old K), K is the step (1): nothing found yet
    assert card(sensitivity, "Recall@1") == "0.0000"
    sensitivity.slider(key="_sens_step_widget").set_value(5).run()
    assert card(sensitivity, "Recall@5") == "0.5000"  # one of two relevant items: capped below 1
    assert card(sensitivity, "NDCG@5 (binary)") == f"{D(5) / (1 + D(2)):.4f}"
    assert chart_specs(sensitivity)[0]["layout"]["title"]["text"] == "Each metric as K grows (★ at rank 5)"


# ---------- Random baselines ----------

def test_random_page_shows_exact_expectation_percentile_and_follows_edits():
    at = run_page(TOPIC_PAGES["random"])
    table = table_with(at, "E[random] (exact)").set_index("metric")
    exact = baselines.random_expectation([str(i) for i in range(101, 111)], {"101": 1, "104": 1, "107": 1}, 10)
    assert table.loc["AP@10", "E[random] (exact)"] == pytest.approx(exact["average_precision_at_k"])
    assert table.loc["Precision@10", "your list"] == 0.3 and table.loc["Precision@10", "beats (share)"] == 0.5
    assert r"\mathbb{E}[\mathrm{P@10}]=\frac{3\cdot10}{10\cdot10}=0.3000" in latex(at)
    before = table.loc["AP@10", "beats (share)"]
    edit(at, "recommended", edited_rows={6: {"rank": 2}})
    after = table_with(at, "E[random] (exact)").set_index("metric")
    assert after.loc["AP@10", "your list"] == pytest.approx(2.6 / 3)
    assert after.loc["AP@10", "beats (share)"] > before
    assert after.loc["AP@10", "chance-corrected"] == pytest.approx(
        (2.6 / 3 - exact["average_precision_at_k"]) / (1 - exact["average_precision_at_k"]))
    assert "Your list beats **" in texts(at)
    histograms = chart_specs(at)[-1]
    assert len([t for t in histograms["data"] if t["type"] == "bar"]) == 6
    # Precision@10 is 0.3 in every ordering: one bar holding all of them
    assert plotly_array(histograms["data"][0]["y"]) == [1.0]


# ---------- Sampled negatives ----------

def test_sampled_page_shows_the_flip_and_it_goes_away_with_every_negative():
    at = run_page(TOPIC_PAGES["sampled"])
    assert "HR@10 flips:** model A wins on the full catalogue, model B wins with 100 sampled" in texts(at)
    assert float(card(at, "HR@10 B, n=100")) > float(card(at, "HR@10 B, full"))
    assert r"1+199\cdot\frac{100}{9999}=2.99" in latex(at)
    at.select_slider(key="_sampled_n_widget").set_value(9999).run()
    assert "**HR@10:** the same winner (A)" in texts(at)
    assert card(at, "HR@10 A, n=9999") == card(at, "HR@10 A, full")


def test_sampled_settings_form_changes_the_catalogue():
    at = run_page(TOPIC_PAGES["sampled"])
    at.text_input(key="_sampled_items_typed").set_value("2000")
    at.button[0].click().run()
    assert not at.exception
    assert "full catalogue of 2,000 items vs 100 sampled negatives" in at.subheader[0].value
    at.text_input(key="_sampled_items_typed").set_value("20")
    at.button[0].click().run()
    assert not at.exception
    # n cannot exceed the 19 other items: sampling all of them is the full ranking
    assert "full catalogue of 20 items vs 19 sampled negatives" in at.subheader[0].value
    assert card(at, "HR@10 A, n=19") == card(at, "HR@10 A, full")


# ---------- Pinned baseline ----------

def test_pin_makes_deltas_compare_with_the_pinned_scenario_until_unpinned():
    at = run_page(TOPIC_PAGES["topn"])
    at.toggle(key="_pin_topn").set_value(True).run()
    assert at.session_state["pinned"]["topn"]["precision_at_k"] == 0.3
    at.slider(key="_k_widget").set_value(5).run()
    at.slider(key="_k_widget").set_value(4).run()
    # pinned at K = 10 (P = 0.3): K = 4 gives P@4 = 2/4, delta against the pin, not against K = 5 (0.4)
    assert deltas(at)["Precision@4"] == "+0.2000"
    at.toggle(key="_pin_topn").set_value(False).run()
    at.slider(key="_k_widget").set_value(5).run()
    assert deltas(at)["Precision@5"] == "-0.1000"  # since the last edit again: 0.4 - 0.5
    assert "topn" not in at.session_state["pinned"]


def test_pin_survives_a_page_switch():
    at = run_page(TOPIC_PAGES["home"])
    at.toggle(key="_pin_home").set_value(True).run()
    at.switch_page(TOPIC_PAGES["topn"]).run()
    at.switch_page(TOPIC_PAGES["home"]).run()
    assert at.toggle(key="_pin_home").value is True


# ---------- Edge cases: nothing typed is lost, no traceback ----------

def test_ab_with_b_emptied_scores_zero_and_shows_no_move_controls(ab):
    edit(ab, "ab_b", deleted_rows=list(range(10)))
    assert card(ab, "AP@10") == "0.0000"
    assert deltas(ab)["AP@10"] == f"{-(1 + 0.5 + 3 / 7) / 3:+.4f} vs A"
    assert not [b for b in ab.button if b.key == "_ab_up"]
    ab.button(key="_ab_reset").click().run()
    assert card(ab, "AP@10") == "0.6429"


def test_ab_shows_typed_markup_literally_and_takes_the_playground_scenario():
    from ui.state import ground_truth_table, recommended_table
    at = run_page(TOPIC_PAGES["ab"], recommended=recommended_table(["<b>x</b>", "**y**"]),
                  ground_truth=ground_truth_table({"**y**": 2}), k=2)
    assert card(at, "RR") == "0.5000"
    # texts() reads escapes as what they show, so look at the caption as sent: escaped, never raw
    captions = "\n".join(str(c.value) for c in at.caption)
    assert text.markdown("**y**") + " (grade 2)" in captions and "**y** (grade" not in captions
    arrows = chart_specs(at)[0]
    assert "&lt;b&gt;x&lt;/b&gt;" in arrows["data"][0]["text"]
    at.button(key="_ab_preset_rr_first_hit_only").click().run()
    at.button(key="_ab_take").click().run()
    assert at.session_state["ab_a"] == ["<b>x</b>", "**y**"] and at.session_state["ab_k"] == 2


def test_sensitivity_shrinking_n_below_the_step_clamps_it(sensitivity):
    sensitivity.slider(key="_sens_step_widget").set_value(9).run()
    sensitivity.number_input(key="_sens_n_widget").set_value(4).run()
    assert sensitivity.session_state["sens_step"] == 4 and sensitivity.session_state["sens_k"] == 4
    assert card(sensitivity, "RR") == "0.2500"
    sensitivity.button(key="_sens_next").click().run()
    assert card(sensitivity, "RR") == "1.0000"  # wraps to rank 1


def test_random_page_with_an_empty_list_or_no_relevant_item_says_so():
    at = run_page(TOPIC_PAGES["random"])
    edit(at, "ground_truth", deleted_rows=[0, 1, 2])
    table = table_with(at, "E[random] (exact)").set_index("metric")
    assert table["your list"].eq(0).all() and table["chance-corrected"].isna().all()
    edit(at, "recommended", deleted_rows=list(range(10)))
    assert "there is nothing to put in a random order" in texts(at)
    assert chart_specs(at) == []


def test_random_baseline_cards_colour_only_what_beats_chance():
    from streamlit.proto.Metric_pb2 import Metric

    """A score every ordering shares (P@10 = 0.3 in all of them) sits at 50%: grey, no arrow; a score
    above most random orderings is green and up; the delta is short enough not to be cut."""
    def shown(proto) -> tuple[str, str, str]:
        return proto.delta, Metric.MetricDirection.Name(proto.direction), Metric.MetricColor.Name(proto.color)

    at = run_page(TOPIC_PAGES["random"])
    cards = {m.label: m.proto for m in at.metric}
    assert shown(cards["Precision@10"]) == ("beats 50%", "NONE", "GRAY")
    assert shown(cards["AP@10"]) == ("beats 86%", "UP", "GREEN")
    assert any("share of the 10,000 random orderings" in c.value for c in at.caption)
    edit(at, "recommended", edited_rows={0: {"rank": 10}})  # 101 (relevant) to the bottom: AP below most orders
    delta, direction, colour = shown({m.label: m.proto for m in at.metric}["AP@10"])
    assert int(delta.split()[1].rstrip("%")) < 50 and (direction, colour) == ("DOWN", "RED")


def test_the_sampled_labs_model_sliders_write_the_turkish_decimal_comma():
    at = run_page(TOPIC_PAGES["sampled"], lang="tr")
    options = [slider.options for slider in at.select_slider]
    assert any("0,40" in shown for shown in options) and any("0,020" in shown for shown in options), options
    assert not any("0.40" in shown or "0.020" in shown for shown in options)
