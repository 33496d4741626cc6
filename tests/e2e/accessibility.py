"""WCAG 2.2 AA, as axe-core checks it (the WCAG 2.0, 2.1 and 2.2 A and AA rules on the whole document, sidebar
included), and how a reader moves to another page: through its sidebar link. tests/e2e/test_every_page_browser.py
runs both on every page, in every language, light and dark."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.streamlit_page import DRAWN
from tests.e2e.test_browser import url_path

WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
           "resultTypes": ["violations"]}
AXE_SCRIPT = Axe().axe_script  # axe-core, as axe-playwright-python ships it


def follow_sidebar_link(page: Page, path: str) -> None:
    """Open a page through its sidebar link and wait until it is drawn: as a reader does, open the sidebar if
    the page before closed it (the lessons and the live class start with it closed), then click the link."""
    before = page.locator("h1").first.text_content()
    sidebar = page.get_by_test_id("stSidebar")
    # Closed, or opening by itself (a tab widened from a phone's 390 px: its expand button can go before a click
    # lands): press the button while it is there, until the sidebar is open.
    expand = page.get_by_test_id("stExpandSidebarButton")
    for _ in range(100):
        if sidebar.get_attribute("data-collapsed") != "true":
            break
        if expand.is_visible():
            try:
                expand.click(timeout=2_000)
            except PlaywrightTimeout:
                continue
        page.wait_for_timeout(200)
    expect(sidebar).to_have_attribute("data-collapsed", "false")
    sidebar.locator(f'a[href="{url_path(path).lstrip("/")}"]').click()
    # A new title is the new page's run under way: from then on its run state says when it has finished.
    page.wait_for_function("before => [...document.querySelectorAll('h1')].some(h => h.textContent !== before)",
                           arg=before)
    page.wait_for_function(DRAWN)


def violations(page: Page, topic: str) -> list[dict]:
    if not page.evaluate("() => 'axe' in window"):
        page.evaluate(AXE_SCRIPT)
    rules = page.evaluate("options => axe.run(document, options).then(r => r.violations)", WCAG_AA)
    return [{"page": topic, "rule": rule["id"], "impact": rule["impact"], "target": node["target"],
             "html": node["html"][:200], "summary": node["failureSummary"]} for rule in rules for node in rule["nodes"]]
