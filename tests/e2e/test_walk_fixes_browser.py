"""What a newcomer's walk through the app found (issue 18), checked as a person does it in Chromium."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import cell_texts, edit_cell, editor_of, open_page, screenshot, wait_until_idle


def test_typing_a_lower_rank_on_the_home_page_puts_the_item_exactly_there(server, page: Page):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, server.url)
    recommended = editor_of(page, "recommended")
    edit_cell(page, recommended, column=1, row=0, text="5")  # item 101's rank, then Enter
    expect(recommended.locator("#glide-cell-2-4")).to_have_text("101")
    assert [cell_texts(recommended, row, 2) for row in range(5)] == [
        ["1", "102"], ["2", "103"], ["3", "104"], ["4", "105"], ["5", "101"]]
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot(page, SCREENSHOTS, "walk_home_rank_5")


def test_ab_picker_follows_the_item_down_three_presses(server, page: Page):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, server.url + "/A_vs_B")
    picker = page.get_by_role("combobox", name="Item to move in B")
    picker.click()
    page.keyboard.type("105", delay=40)  # the list filters to "rank 5: 105"
    page.keyboard.press("Enter")
    wait_until_idle(page)
    expect(picker).to_have_value("rank 5: 105")
    for rank in (6, 7, 8):
        page.get_by_role("button", name="⬇ Down").click()
        wait_until_idle(page)
        expect(picker).to_have_value(f"rank {rank}: 105")
    b_list = editor_of(page, "ab_b")
    expect(b_list.locator("#glide-cell-2-7")).to_have_text("105")
    assert [cell_texts(b_list, row, 2)[1] for row in range(10)] == [
        "101", "102", "103", "104", "106", "107", "108", "105", "109", "110"]
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot(page, SCREENSHOTS, "walk_ab_picker_follows")
