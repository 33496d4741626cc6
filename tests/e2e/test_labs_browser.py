"""The A vs B lab in a real Chromium: type a rank in B, press a move button, read the cards."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import (
    card, edit_cell, editor, open_page, screenshot, type_into_new_row, wait_until_idle,
)


def test_moving_an_item_in_b_changes_the_cards_and_the_arrows(server, page: Page):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, server.url + "/A_vs_B")
    # the first look waits longer: on a busy machine the frontend can take seconds to draw a fresh session
    expect(card(page, "AP@10")).to_have_text("0.6429", timeout=30_000)
    page.get_by_role("button", name="⬇ Down").click()  # the selected item, 101, from rank 1 to 2
    wait_until_idle(page)
    expect(card(page, "RR")).to_have_text("0.5000")
    expect(page.get_by_text("-0.5000 vs A")).to_be_visible()
    # editor 0 is list B: type rank 2 for item 107 (row 7)
    edit_cell(page, editor(page, 0), column=1, row=6, text="2")
    # B = 102, 107, 101, ...: hits at ranks 2, 3, 5
    expect(card(page, "AP@10")).to_have_text(f"{(1 / 2 + 2 / 3 + 3 / 5) / 3:.4f}")
    arrows = page.locator(".js-plotly-plot").filter(has_text="A → B:")
    expect(arrows.filter(has_text="7 item(s) moved")).to_have_count(1)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot(page, SCREENSHOTS, "lab_ab_after_moves")


def test_a_relevant_item_typed_into_the_lab_scores_both_lists(server, page: Page):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, server.url + "/A_vs_B")
    expect(card(page, "Precision@10")).to_have_text("0.3000", timeout=30_000)
    # editor 1 is the lab's relevant items (101, 104, 107): a new row "110", grade 1, as a person types it
    type_into_new_row(page, editor(page, 1), rows=3, keys=["110", "Tab", "1", "Enter"])
    expect(card(page, "Precision@10")).to_have_text("0.4000")
    expect(page.get_by_text("110 (grade 1)")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_lab_pages_at_projector_size(server, page: Page):
    """Each lab at 1280x720: the sensitivity steps follow the button, the sampled page shows its flip."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, server.url + "/Sensitivity_explorer")
    expect(card(page, "RR")).to_have_text("1.0000", timeout=30_000)
    page.get_by_role("button", name="Next ▶").click()
    wait_until_idle(page)
    expect(card(page, "RR")).to_have_text("0.5000")
    page.get_by_test_id("stCheckbox").filter(has_text="Auto-play").locator("label").click()
    expect(card(page, "RR")).not_to_have_text("0.5000", timeout=15_000)  # the ticker moved ★ on by itself
    page.get_by_test_id("stCheckbox").filter(has_text="Auto-play").locator("label").click()
    wait_until_idle(page)
    chart = page.locator(".js-plotly-plot").filter(has_text="Each metric as ★ moves down the list")
    chart.locator(".updatemenu-button").filter(has_text="Play").click()  # Plotly's own animation, in the browser
    expect(chart.locator(".slider-container .slider-label").first).to_have_text("rank = 10", timeout=15_000)
    screenshot(page, SCREENSHOTS, "lab_sensitivity")
    page.wait_for_load_state("networkidle")  # leave no request half-done when navigating on
    open_page(page, server.url + "/Random_baselines")
    expect(page.get_by_text("of random orderings on").first).to_be_visible(timeout=30_000)
    screenshot(page, SCREENSHOTS, "lab_random")
    page.wait_for_load_state("networkidle")
    open_page(page, server.url + "/Sampled_negatives")
    expect(page.get_by_text("HR@10 flips:")).to_be_visible(timeout=30_000)
    screenshot(page, SCREENSHOTS, "lab_sampled")
    expect(page.get_by_test_id("stException")).to_have_count(0)
