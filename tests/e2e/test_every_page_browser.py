"""Every page, in every language and both themes, read by a person in one tab: six walks (light and dark, times
English, Turkish and Chinese), each opening every page of the sidebar once and running on it every check that
belongs to its language and theme, so that a page is drawn once for all of them.

- **WCAG 2.2 AA** (axe-core, tests/e2e/accessibility.py) on every page of every walk, at 1280x720; every
  violation is listed in the failure and written to tests/artifacts/axe/<theme>_<lang>.json.
- **Nothing cut in Turkish or Chinese** (tests/e2e/cut_texts.py: labels, buttons, cards, headings, links,
  chart titles, table cells, input tables scrolling sideways) at 1280 and again once the tab is narrowed to
  390 px; a page with a problem is photographed into tests/artifacts/screenshots/cut_texts/, the home page and
  Your data always into tests/artifacts/screenshots/languages/.
- **Turkish as a Turkish reader sees it** (on the Turkish walk's home page): the decimal comma on every card, and
  the sidebar's uploader saying what it takes in Turkish, not in Streamlit's English.
- **Formulas and charts read on a projector and a phone** (in English, tests/e2e/test_reading_browser.py's
  probes): each page drawn without an exception, its title and first formula, chart or button on screen, no
  formula or chart title cut, chart text at least 14 px, at 1280 and once narrowed to 390 (a phone turned to
  portrait: charts and formulas lay out again without a rerun), with the toolbar of each chart hovered.

Each walk opens the first page by its address (``?lang=``) and every other page through its sidebar link (the
link found by the page's own address), as a reader moves: a fresh session per page costs three times as long.
Every page as the first page of a new session and of a fresh server process: tests/test_cold_pages.py; pages
opened by a link a student was sent: the single-page browser tests, which each open their page by its address.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.accessibility import follow_sidebar_link, violations
from tests.e2e.conftest import ARTIFACTS, SCREENSHOTS
from tests.e2e.cut_texts import GRID_TEXTS, cut_on
from tests.e2e.streamlit_page import open_page, resize, screenshot
from tests.e2e.test_browser import FIRST_BUTTON, TITLES, no_exception_box, url_path
from tests.e2e.test_reading_browser import PHONE, PROJECTOR, unreadable, wait_for_formulas_and_charts
from ui.navigation import PAGES

SERVERS = {"light": "server", "dark": "dark_server"}
CUT_TEXTS_FOLDER = SCREENSHOTS / "cut_texts"
LANGUAGE_SCREENSHOTS = ("home", "your_data")  # photographed into screenshots/languages, to be looked at
PHONE_SCREENSHOTS = ("home", "ndcg", "classification")


@pytest.mark.parametrize("lang", ["en", "tr", "zh"])
@pytest.mark.parametrize("theme", list(SERVERS))
def test_every_page_is_accessible_uncut_and_readable_at_1280_and_390(request, page: Page, theme, lang):
    server = request.getfixturevalue(SERVERS[theme])
    reading = theme == "light" and lang == "en"
    cutting = theme == "light" and lang != "en"
    if cutting:
        page.add_init_script(GRID_TEXTS)
    page.set_viewport_size(PROJECTOR)
    found, cut, unread = [], {}, []
    for number, entry in enumerate(PAGES):
        if number == 0:
            open_page(page, f"{server.url}{url_path(entry.path)}?lang={lang}")
        else:
            follow_sidebar_link(page, entry.path)
        if reading:
            wait_for_formulas_and_charts(page)
        no_exception_box(page)
        found += violations(page, entry.topic)
        if reading:
            unread += _read_at_1280_and_390(page, number, entry.topic)
        if cutting:
            cut.update(_cut_at_1280_and_390(page, entry.topic, lang))
        if cutting and lang == "tr" and number == 0:
            _turkish_numbers_and_uploader(page)
    folder = ARTIFACTS / "axe"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{theme}_{lang}.json").write_text(json.dumps(found, ensure_ascii=False, indent=1))
    assert not found, "\n".join(f"{v['page']}: {v['rule']} at {v['html']!r}: {v['summary']}" for v in found)
    assert not cut, cut
    assert not unread, unread


def _read_at_1280_and_390(page: Page, number: int, topic: str) -> list:
    expect(page.locator("h1").first).to_contain_text(TITLES[topic])
    if topic in FIRST_BUTTON:
        expect(page.get_by_role("button", name=FIRST_BUTTON[topic], exact=True)).to_be_visible()
    elif topic == "which_metric":
        expect(page.get_by_text("The page: AP and MAP").first).to_be_visible()
    else:
        expect(page.locator(".katex").first).to_be_visible()
        expect(page.locator(".js-plotly-plot .main-svg").first).to_be_visible()
    problems = unreadable(page, topic, hover_each_chart=False)
    screenshot(page, SCREENSHOTS, f"{number:02d}_{topic}", then=PHONE)  # the phone's check next: one layout fewer
    problems += [(topic, "390px", *problem[1:]) for problem in unreadable(page, topic, hover_each_chart=True)]
    if topic in PHONE_SCREENSHOTS:
        screenshot(page, SCREENSHOTS, f"phone_390_{topic}")
    page.set_viewport_size(PROJECTOR)
    return problems


def _cut_at_1280_and_390(page: Page, topic: str, lang: str) -> dict:
    problems = {}
    for viewport in (PROJECTOR, PHONE):
        resize(page, viewport)  # Plotly and the grids draw once the width is known
        cut = cut_on(page)
        if cut:
            problems[f"{topic} {lang} {viewport['width']}"] = cut
            screenshot(page, CUT_TEXTS_FOLDER, f"{topic}-{lang}-{viewport['width']}")
        if topic in LANGUAGE_SCREENSHOTS:
            screenshot(page, SCREENSHOTS / "languages", f"{topic}-{lang}-{viewport['width']}")
    page.set_viewport_size(PROJECTOR)
    return problems


def _turkish_numbers_and_uploader(page: Page) -> None:
    values = page.get_by_test_id("stMetricValue").all_inner_texts()
    assert values and all(re.fullmatch(r"\d,\d{4}", v) for v in values), values
    sidebar = page.get_by_test_id("stSidebar")
    uploader = sidebar.get_by_test_id("stExpander").filter(has=page.get_by_test_id("stFileUploader")).locator("summary")
    uploader.click()
    expect(sidebar.get_by_text("Dosya başına en çok 1 MB · JSON")).to_be_visible()
    expect(sidebar.get_by_test_id("stFileUploaderDropzoneInstructions")).to_be_hidden()
    assert "per file" not in sidebar.inner_text()
    uploader.click()  # folded again: the pages after it are read as a reader first meets them
