"""WCAG 2.2 AA, as axe-core checks it: no violation on any page, in every language, light and dark.

Per theme and language one tab opens the first page by its address (``?lang=``) at 1280x720 and then
every other page of the sidebar through its link, as a reader moves through the app (a fresh session
per page costs three times as long on a busy machine); on each, once the script is idle, axe runs
the WCAG 2.0, 2.1 and 2.2 A and AA rules on the whole document, sidebar included. Every violation
is listed in the failure (page, rule, element, axe's summary) and written to
tests/artifacts/axe/<theme>_<lang>.json.
"""

from __future__ import annotations

import json

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.streamlit_page import open_page, wait_until_idle
from tests.e2e.test_browser import no_exception_box, url_path
from ui.navigation import PAGES

PROJECTOR = {"width": 1280, "height": 720}
SERVERS = {"light": "server", "dark": "dark_server"}
WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
           "resultTypes": ["violations"]}
AXE_SCRIPT = Axe().axe_script  # axe-core, as axe-playwright-python ships it
# The script has finished and nothing on the page is a placeholder or left over from the page before.
DRAWN = "() => !document.querySelector('[data-testid=stSkeleton], [data-stale=true], [data-testid=stStatusWidget]')"


def _follow_sidebar_link(page: Page, path: str) -> None:
    """Open a page through its sidebar link and wait until it is drawn: as a reader does, open the sidebar if
    the page before closed it (the lessons and the live class start with it closed), then click the link."""
    before = page.locator("h1").first.text_content()
    sidebar = page.get_by_test_id("stSidebar")
    if sidebar.get_attribute("data-collapsed") == "true":
        page.get_by_test_id("stExpandSidebarButton").click()
        expect(sidebar).to_have_attribute("data-collapsed", "false")
    sidebar.locator(f'a[href="{url_path(path).lstrip("/")}"]').click()
    page.wait_for_function("before => [...document.querySelectorAll('h1')].some(h => h.textContent !== before)",
                           arg=before)
    wait_until_idle(page)
    page.wait_for_function(DRAWN)


def violations(page: Page, topic: str) -> list[dict]:
    if not page.evaluate("() => 'axe' in window"):
        page.evaluate(AXE_SCRIPT)
    rules = page.evaluate("options => axe.run(document, options).then(r => r.violations)", WCAG_AA)
    return [{"page": topic, "rule": rule["id"], "impact": rule["impact"], "target": node["target"],
             "html": node["html"][:200], "summary": node["failureSummary"]} for rule in rules for node in rule["nodes"]]


@pytest.mark.parametrize("lang", ["en", "tr", "zh"])
@pytest.mark.parametrize("theme", list(SERVERS))
def test_no_page_breaks_a_wcag_aa_rule(request, page, theme, lang):
    server = request.getfixturevalue(SERVERS[theme])
    page.set_viewport_size(PROJECTOR)
    first, *others = PAGES
    open_page(page, f"{server.url}{url_path(first.path)}?lang={lang}")
    found = violations(page, first.topic)
    for entry in others:
        _follow_sidebar_link(page, entry.path)
        no_exception_box(page)
        found += violations(page, entry.topic)
    folder = ARTIFACTS / "axe"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{theme}_{lang}.json").write_text(json.dumps(found, ensure_ascii=False, indent=1))
    assert not found, "\n".join(f"{v['page']}: {v['rule']} at {v['html']!r}: {v['summary']}" for v in found)
