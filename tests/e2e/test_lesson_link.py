"""Lesson links in a real browser: the address bar follows edits, and opening it elsewhere shows the same numbers."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Page, expect

from content.text import _NO_AUTOLINK as NO_AUTOLINK
from tests.e2e.conftest import PROBE_SUFFIXES, SCREENSHOTS, _is_probe_404
from tests.e2e.streamlit_page import DRAWN, card, edit_cell, editor, open_page, screenshot, set_slider, wait_until_idle


SLOW = 20_000  # ms: the first run after opening a page can be slow on a shared machine


def all_cards(page: Page) -> dict[str, str]:
    labels = page.get_by_test_id("stMetricLabel").all_inner_texts()
    values = page.get_by_test_id("stMetricValue").all_inner_texts()
    return dict(zip(labels, values, strict=True))


def test_a_copied_address_reopens_the_same_scenario_in_a_new_browser(server, page, browser):
    open_page(page, server.url + "/NDCG")
    edit_cell(page, editor(page, 1), column=2, row=1, text="3")  # grade of item 104
    expect(card(page, "NDCG@10 (graded, linear)").or_(card(page, "NDCG@10 (graded)")).first).to_have_text("0.6355")
    expect(page).to_have_url(re.compile("ground_truth="))  # the address bar follows the edit
    address = page.url
    assert parse_qs(urlparse(address).query)["ground_truth"] == ["101:1,104:3,107:1"]
    page.wait_for_function(DRAWN)  # the first card changes while the run goes on to the cards below it
    shown = all_cards(page)

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    problems: list[str] = []
    try:
        other = context.new_page()
        other.on("console", lambda m: m.type == "error" and not _is_probe_404(m) and problems.append(m.text))
        other.on("pageerror", lambda e: problems.append(str(e)))
        other.on("response", lambda r: r.status >= 400 and not r.url.endswith(PROBE_SUFFIXES)
                 and problems.append(f"HTTP {r.status}: {r.url}"))
        open_page(other, address)
        expect(other.locator("h1").first).to_contain_text("NDCG")
        expect(card(other, "NDCG@10 (binary)")).to_have_text("0.8278", timeout=SLOW)
        assert all_cards(other) == shown
        other.reload()
        other.wait_for_selector("h1")
        wait_until_idle(other)
        expect(card(other, "NDCG@10 (binary)")).to_have_text("0.8278", timeout=SLOW)
        assert all_cards(other) == shown  # a reload keeps the scenario
        screenshot(other, SCREENSHOTS, "lesson_link_reopened")
    finally:
        context.close()
    assert not problems, problems


def test_hide_the_answers_hides_cards_and_charts_until_a_check(server, page):
    open_page(page, server.url + "/?v=1&page=home&k=10&gain=linear&ap=min&ground_truth=101:5,104:4,107:3,999:5")
    expect(card(page, "NDCG@10 (graded)")).to_have_text("0.6747", timeout=SLOW)
    page.get_by_test_id("stSidebar").get_by_text("Hide the answers").click()
    wait_until_idle(page)
    expect(page.get_by_test_id("stMetric")).to_have_count(0, timeout=SLOW)
    expect(page.locator(".js-plotly-plot").first).to_be_hidden()
    page.get_by_test_id("stSidebar").get_by_role("link", name="AP and MAP").click()
    wait_until_idle(page)
    expect(page.get_by_test_id("stMetric")).to_have_count(0, timeout=SLOW)
    # the three editors (list, ground truth, users) stay; the three breakdown tables are hidden
    expect(page.get_by_test_id("stDataFrame")).to_have_count(6)
    expect(page.locator("[data-testid=stDataFrame]:visible")).to_have_count(3)
    expect(page.locator(".katex-display").first).to_be_visible()  # the general AP formula stays
    map_formula = page.locator(".katex-display").filter(has_text="0.3611")  # MAP@10 with numbers
    expect(map_formula).to_have_count(1)
    expect(map_formula).to_be_hidden()
    screenshot(page, SCREENSHOTS, "hide_the_answers_ap")
    page.get_by_test_id("stSidebar").get_by_role("link", name="Playground").click()
    wait_until_idle(page)
    screenshot(page, SCREENSHOTS, "hide_the_answers")
    page.get_by_label("Your value").fill("3/10")  # the form starts on the first card, Precision@10
    page.get_by_role("button", name="Check").click()
    wait_until_idle(page)
    expect(card(page, "NDCG@10 (graded)")).to_have_text("0.6747", timeout=SLOW)
    verdict = page.get_by_test_id("stAlert").filter(has_text="3/10")
    expect(verdict).to_be_visible()
    assert "Right: 0.3000 (= 3/10)." in verdict.inner_text().replace(NO_AUTOLINK, "")  # the joiner after ':'

    expect(page.locator(".js-plotly-plot").first).to_be_visible()


def test_the_scenario_file_downloads_what_is_on_screen_after_k_moves(server, page, tmp_path):
    """Drag K, then save the scenario with a click: the file holds the K on screen, and no rerun left a stale file
    behind for the browser to fetch (an eager download button used to 404 after a quick second rerun)."""
    media: list[str] = []
    page.on("request", lambda r: "/static/" not in r.url and "/media/" in r.url and media.append(r.url))
    open_page(page, server.url)
    set_slider(page, "K (cut-off)", 4)
    set_slider(page, "K (cut-off)", 6)
    expect(card(page, "Precision@6")).to_have_text("0.3333")  # hits at ranks 1 and 4
    assert media == [], "a download button's file was fetched before anyone clicked it"
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Lesson link and file").click()
    button = sidebar.get_by_role("button", name="Download the scenario (JSON)")
    expect(button).to_be_visible()
    wait_until_idle(page)  # a person clicks the button they see, on a page that is not rerunning
    # The file is made on the server when clicked (a deferred download): under CI's load that round trip took
    # longer than Playwright's 20 s once.
    with page.expect_download(timeout=45_000) as download:
        button.click()
    saved = tmp_path / "scenario.json"
    download.value.save_as(saved)
    assert download.value.suggested_filename == "receval-scenario.json"
    document = json.loads(saved.read_text())
    assert document["k"] == 6
    assert [row[0] for row in document["tables"]["ground_truth"]["rows"]] == ["101", "104", "107"]
