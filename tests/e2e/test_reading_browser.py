"""What only a browser shows: fitting a projector, formulas and charts on a phone, the dark theme,
the K slider under fast key presses, and where "Load" lands."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import card, editor, open_page, screenshot, settle_layout, wait_until_idle
from tests.e2e.test_browser import no_exception_box, url_path
from ui.figures import charts
from ui.navigation import TOPIC_PAGES

PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
# How many cards head each ranking page (its results column), in metric-family order.
HEADLINE_CARDS = {"home": 8, "topn": 4, "ap": 1, "rr": 2, "ndcg": 3}


def _inside(box: dict, width: int, height: int) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height


def wait_for_formulas_and_charts(page: Page) -> None:
    """Idle, and every element drawn: on a busy machine the status widget can still be on its way."""
    wait_until_idle(page)
    page.wait_for_function("""() => !document.querySelector('[data-testid=stSkeleton], [data-stale=true]')
        && [...document.querySelectorAll('style')].some(s => s.textContent.includes('katex-display'))""", timeout=30_000)
    wait_until_idle(page)
    settle_layout(page)  # Plotly lays out again once the column width is known


@pytest.mark.parametrize("topic", list(HEADLINE_CARDS))
def test_editors_and_headline_cards_fit_a_projector_screen(server, page, topic):
    page.set_viewport_size(PROJECTOR)
    open_page(page, server.url + url_path(TOPIC_PAGES[topic]))
    wait_for_formulas_and_charts(page)
    first_editor = editor(page, 0).bounding_box()
    assert _inside(first_editor, **PROJECTOR), first_editor
    cards = page.get_by_test_id("stMetric")
    boxes = [cards.nth(i).bounding_box() for i in range(HEADLINE_CARDS[topic])]
    assert all(_inside(b, **PROJECTOR) for b in boxes), boxes
    # Row by row: each card is right of the one before in its row, or starts a lower row.
    for before, after in zip(boxes, boxes[1:]):
        assert after["y"] > before["y"] + 10 or (abs(after["y"] - before["y"]) <= 10 and after["x"] > before["x"])
    page.screenshot(path=str(SCREENSHOTS / f"projector_1280x720_{topic}.png"))


# Every .katex-display: how far its rendered glyphs reach beyond its own box (which hides the
# overflow) and beyond its column. What KaTeX hides on purpose (a square root's tail) is skipped.
KATEX_OVERFLOW = """() => [...document.querySelectorAll('.katex-display')].filter(d => d.offsetParent).map(d => {
  const box = d.getBoundingClientRect();
  const column = d.closest('[data-testid=stVerticalBlock]').getBoundingClientRect();
  const ext = {left: box.left, right: box.right, top: box.top, bottom: box.bottom};
  const walk = (e, clip) => {
    const r = e.getBoundingClientRect();
    const l = Math.max(r.left, clip.left), rt = Math.min(r.right, clip.right);
    const t = Math.max(r.top, clip.top), b = Math.min(r.bottom, clip.bottom);
    if (r.width && r.height && rt > l && b > t) {
      ext.left = Math.min(ext.left, l); ext.right = Math.max(ext.right, rt);
      ext.top = Math.min(ext.top, t); ext.bottom = Math.max(ext.bottom, b);
    }
    const inner = getComputedStyle(e).overflow === 'visible' ? clip : {left: Math.max(clip.left, r.left),
      right: Math.min(clip.right, r.right), top: Math.max(clip.top, r.top), bottom: Math.min(clip.bottom, r.bottom)};
    for (const c of e.children) walk(c, inner);
  };
  walk(d.querySelector('.katex-html'), {left: -1e9, right: 1e9, top: -1e9, bottom: 1e9});
  return {formula: d.innerText.replace(/\\s+/g, ' ').slice(0, 40),
          cut: Math.max(box.left - ext.left, ext.right - box.right, box.top - ext.top, ext.bottom - box.bottom),
          beyond_column: box.right - column.right};
})"""

# Every chart: its smallest text, whether its title fits the chart, and whether the toolbar covers the title.
CHART_TEXT = """() => [...document.querySelectorAll('.js-plotly-plot')].filter(p => p.offsetParent).map(p => {
  const svg = p.querySelector('.main-svg').getBoundingClientRect();
  const sizes = [...p.querySelectorAll('svg text')].filter(t => t.textContent.trim() && t.getBoundingClientRect().width)
    .map(t => parseFloat(getComputedStyle(t).fontSize));
  const title = p.querySelector('.gtitle'); const tb = title ? title.getBoundingClientRect() : null;
  const bar = p.querySelector('.modebar'); const mb = bar ? bar.getBoundingClientRect() : null;
  const overlap = tb && mb && mb.width ? !(mb.right <= tb.left || mb.left >= tb.right || mb.bottom <= tb.top || mb.top >= tb.bottom) : false;
  return {title: title ? title.textContent.slice(0, 40) : '', smallest: Math.min(...sizes),
          title_cut: tb ? tb.left < svg.left - 1 || tb.right > svg.right + 1 || tb.top < svg.top - 1 : false, toolbar_on_title: overlap};
})"""


def unreadable(page: Page, topic: str, hover_each_chart: bool) -> list:
    problems = []
    # On a phone the Plotly toolbar (shown on hover) is the one that could cover a title.
    for plot in page.locator(".js-plotly-plot").all() if hover_each_chart else [None]:
        if plot is not None:
            plot.hover()
        problems += [(topic, chart) for chart in page.evaluate(CHART_TEXT)
                     if chart["smallest"] < 14 or chart["title_cut"] or chart["toolbar_on_title"]]
    return problems + [(topic, f) for f in page.evaluate(KATEX_OVERFLOW) if f["cut"] > 1 or f["beyond_column"] > 1]


def test_an_ap_sum_over_late_ranks_fits_a_phone(server, page):
    """Ten hits at ranks 10, 20, ..., 100 (K = 100): wide fractions, so the result goes on a line of its own."""
    page.set_viewport_size(PHONE)
    recommended = ",".join(str(1000 + i) for i in range(1, 121))
    truth = ",".join(f"{1000 + i}:1" for i in range(10, 101, 10))
    open_page(page, f"{server.url}/AP_and_MAP?v=1&page=ap&k=100&recommended={recommended}&ground_truth={truth}")
    wait_for_formulas_and_charts(page)
    expect(card(page, "AP@100")).to_have_text("0.1000")  # every hit at precision 1/10
    cut = [f for f in page.evaluate(KATEX_OVERFLOW) if f["cut"] > 1 or f["beyond_column"] > 1]
    assert not cut, cut


def test_dark_theme_marks_k_in_a_colour_that_reads_on_dark(dark_server, page):
    page.set_viewport_size(PROJECTOR)
    for topic in ("home", "classification"):
        open_page(page, dark_server.url + url_path(TOPIC_PAGES[topic]))
        wait_for_formulas_and_charts(page)
        background = page.evaluate("getComputedStyle(document.querySelector('.stApp')).backgroundColor")
        red, green, blue = (int(c) for c in background[4:-1].split(","))
        assert max(red, green, blue) < 60, background  # Streamlit's dark theme is on
        screenshot(page, SCREENSHOTS, f"dark_1280_{topic}")
    open_page(page, dark_server.url)
    wait_for_formulas_and_charts(page)
    marker = page.locator(".js-plotly-plot").filter(has_text="Each metric as K grows").locator(".shapelayer path").first
    red, green, blue = (int(charts.MARKER[i:i + 2], 16) for i in (1, 3, 5))
    expect(marker).to_have_css("stroke", f"rgb({red}, {green}, {blue})")
    page.set_viewport_size(PHONE)
    screenshot(page, SCREENSHOTS, "dark_390_home")


def test_fast_arrow_key_presses_land_on_the_intended_k(server, page):
    open_page(page, server.url + url_path(TOPIC_PAGES["topn"]))
    thumb = page.get_by_test_id("stSlider").filter(has_text="K (cut-off)").locator("input[type=range]")
    thumb.focus()
    for _ in range(4):  # a teacher tapping the key, faster than a rerun
        page.keyboard.press("ArrowLeft")
        page.wait_for_timeout(150)
    wait_until_idle(page)
    page.wait_for_timeout(1000)
    wait_until_idle(page)
    expect(card(page, "Precision@6")).to_have_text("0.3333")
    expect(page.get_by_test_id("stNumberInput").locator("input")).to_have_value("6")
    no_exception_box(page)


def test_load_opens_the_target_page_at_its_top_with_the_banner_in_view(server, page):
    page.set_viewport_size(PROJECTOR)
    open_page(page, server.url + url_path(TOPIC_PAGES["examples"]))
    load = page.get_by_role("button", name="Load ▶").last
    load.scroll_into_view_if_needed()
    load.click()
    wait_until_idle(page)
    page.wait_for_timeout(500)
    heading = page.locator("h1").first.bounding_box()
    assert 0 <= heading["y"] < PROJECTOR["height"], heading
    banner = page.get_by_text("Loaded example:").first.bounding_box()
    assert banner is not None and 0 <= banner["y"] < PROJECTOR["height"], banner
    page.screenshot(path=str(SCREENSHOTS / "projector_1280x720_after_load.png"))
