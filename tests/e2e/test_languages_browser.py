"""Three languages as a reader meets them: a link's lang, the browser's language, the sidebar picker,
and a lesson step at 1280x720 and 390 px in Turkish and Chinese (screenshots
under tests/artifacts/screenshots/languages, with the home page and Your data, looked at). The decimal comma
and the uploader in Turkish: the Turkish walk of tests/e2e/test_every_page_browser.py."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import open_page, resize, screenshot, wait_until_idle
from tests.e2e.test_browser import url_path
from tests.e2e.test_room_and_phone_browser import CUT_TEXTS
from ui.navigation import TOPIC_PAGES

PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
FOLDER = SCREENSHOTS / "languages"


def _sidebar_language(page: Page) -> str:
    """The picker's label and the language it shows, as one text."""
    picker = page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox")
    return picker.inner_text() + " " + picker.get_by_role("combobox").input_value()


def test_a_lesson_link_with_lang_tr_opens_in_turkish_and_every_move_keeps_it(server, page: Page):
    open_page(page, server.url + url_path(TOPIC_PAGES["lessons"]) + "?lesson=ap&step=1&lang=tr")
    page.get_by_test_id("stExpandSidebarButton").click()  # the lessons page opens with the sidebar folded
    assert "Dil" in _sidebar_language(page) and "Türkçe" in _sidebar_language(page)
    assert "lang=tr" in page.url
    page.get_by_test_id("stMain").get_by_role("button").filter(has_text=re.compile("İleri|Sonraki")).first.click()
    wait_until_idle(page)
    expect(page).to_have_url(re.compile(r"step=2.*lang=tr|lang=tr.*step=2"))
    # A sidebar link to another page keeps the language (the session holds it; the address bar shows it).
    page.get_by_test_id("stSidebar").get_by_role("link").nth(4).click()
    wait_until_idle(page)
    page.wait_for_selector("h1")
    expect(page).to_have_url(re.compile(r"lang=tr"))
    assert "Türkçe" in _sidebar_language(page)


def test_the_browsers_language_picks_chinese_and_the_picker_switches_to_english(browser, server):
    context = browser.new_context(locale="zh-CN", viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        open_page(page, server.url + "/")
        assert "中文" in _sidebar_language(page)
        expect(page).to_have_url(re.compile(r"lang=zh"))
        page.get_by_test_id("stSidebar").get_by_role("combobox").click()
        page.get_by_role("option", name="English").click()
        wait_until_idle(page)
        expect(page).to_have_url(re.compile(r"lang=en"))
        assert "Language" in _sidebar_language(page)
    finally:
        context.close()


@pytest.mark.parametrize("code", ["tr", "zh"])
def test_a_lesson_step_holds_its_layout_at_1280_and_390(server, page: Page, code):
    """A lesson step opened by its link, then the tab narrowed to a phone's width (the home page and Your data:
    tests/e2e/test_every_page_browser.py, which photographs them here too)."""
    page.set_viewport_size(PROJECTOR)
    open_page(page, f"{server.url}{url_path(TOPIC_PAGES['lessons'])}?lesson=ndcg&step=2&lang={code}")
    for viewport in (PROJECTOR, PHONE):
        resize(page, viewport)  # the layout follows the width
        cut = page.evaluate(CUT_TEXTS, ", ".join(f"[data-testid=stMain] {part}" for part in
                                                 ("label", "button", "[data-testid=stMetric]", "h1", "h2", "h3")))
        screenshot(page, FOLDER, f"lesson-{code}-{viewport['width']}")
        assert cut == [], (viewport, cut)


def _document_language(page: Page) -> str:
    return page.evaluate("document.documentElement.lang")


def test_the_html_lang_is_the_language_shown_from_the_first_byte_and_follows_the_picker(server, page: Page):
    # The first HTML already says it (a screen reader picks its voice before any script runs) ...
    first = page.request.get(server.url + "/?lang=zh", headers={"Accept": "text/html"})
    assert '<html lang="zh-Hans">' in first.text()
    browsers = page.request.get(server.url + "/", headers={"Accept": "text/html", "Accept-Language": "tr-TR,tr;q=0.9"})
    assert '<html lang="tr">' in browsers.text()
    english = page.request.get(server.url + "/", headers={"Accept": "text/html", "Accept-Language": "de-DE"})
    assert '<html lang="en">' in english.text()
    # ... and a language picked in the sidebar, with no reload, is written into the open document.
    open_page(page, server.url + "/?lang=tr")
    assert _document_language(page) == "tr"
    for name, tag in (("中文", "zh-Hans"), ("English", "en")):
        page.get_by_test_id("stSidebar").get_by_role("combobox").click()
        page.get_by_role("option", name=name).click()
        wait_until_idle(page)
        expect(page.locator("html")).to_have_attribute("lang", tag)
