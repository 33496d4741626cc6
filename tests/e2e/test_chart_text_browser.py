"""A chart's text alternative in a real browser: the chart is a named figure for a screen reader, its summary
is right under it, and its data opens from the keyboard (Plotly's toolbar is not reached with Tab)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import open_page, wait_until_idle
from tests.e2e.test_browser import url_path
from ui.navigation import TOPIC_PAGES


def test_a_charts_data_opens_with_tab_and_enter(server, page):
    open_page(page, server.url + url_path(TOPIC_PAGES["rr"]))
    chart = page.get_by_test_id("stPlotlyChart").first
    expect(chart).to_have_attribute("role", "figure")
    expect(chart).to_have_attribute("aria-label", "1/rank at each position: RR is the green bar (the first hit); "
                                                  "amber = later hits")
    # The caption right under the chart (its colons carry an invisible word joiner that stops autolinks).
    summary = page.get_by_test_id("stCaptionContainer").filter(has_text="rank 1 (101, 1)").first
    expect(summary).to_be_visible()
    data = page.get_by_test_id("stExpander").filter(has_text="Data of this chart").first
    expect(data.get_by_test_id("stDataFrame")).to_be_hidden()
    # A keyboard user tabs through the page (sidebar, editors, the charts: Plotly's toolbar takes no Tab stop)
    # until the first chart's "Data of this chart", then presses Enter.
    page.locator("body").focus()
    for _ in range(200):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => document.activeElement.tagName === 'SUMMARY' "
                                "? document.activeElement.innerText : ''")
        if "Data of this chart" in focused:
            break
    assert "Data of this chart" in focused, focused
    page.keyboard.press("Enter")
    wait_until_idle(page)
    expect(data.get_by_test_id("stDataFrame")).to_be_visible()
    data.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "chart_data_opened_by_keyboard.png"))
