"""Logged feedback in a real Chromium, at a 1280x720 projector and on a 390 px phone: the logger's temperature
moved with the arrow keys changes the effective sample size and the estimates, a preset shows its finding, and
no chart runs out of the screen."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import DRAWN, card, open_page, screenshot, wait_until_idle

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1280, "height": 720}
FIRST_RUN = 120_000  # ms: a fresh server builds ML-100K's world (three models) before the page's first answer


def _open(page: Page, url: str) -> None:
    open_page(page, url)
    expect(card(page, "True value of the target")).to_have_text("0.5457", timeout=FIRST_RUN)
    wait_until_idle(page)
    expect(page.locator(".js-plotly-plot .main-svg").first).to_be_visible()  # Plotly has drawn, not only mounted
    page.wait_for_function(DRAWN)


def _press_on_slider(page: Page, key: str, press: str, times: int = 1) -> None:
    """Focus the slider's thumb and press an arrow key, as a keyboard user does."""
    thumb = page.locator(f".st-key-{key} input[type=range]")  # react-aria: a hidden range input takes the keys
    thumb.focus()
    expect(thumb).to_be_focused()
    for _ in range(times):
        page.keyboard.press(press)
    wait_until_idle(page)


def _charts_fit(page: Page, width: int) -> None:
    """Every chart drawn lies within the screen's width (read in one go, once the rerun has replaced the old ones)."""
    page.wait_for_function(DRAWN)
    boxes = page.evaluate("() => [...document.querySelectorAll('.js-plotly-plot')].filter(p => p.offsetParent)"
                          ".map(p => { const r = p.getBoundingClientRect(); return [r.left, r.right]; })")
    assert boxes, "no chart drawn"
    assert all(left >= 0 and right <= width + 1 for left, right in boxes), boxes


def test_the_temperature_slider_moves_by_keyboard_at_1280x720(server, page: Page):
    page.set_viewport_size(PROJECTOR)
    _open(page, server.url + "/Logged_feedback")
    ess = card(page, "Effective sample size")
    before = ess.text_content()
    table = page.locator("[data-testid=stDataFrame]:visible").first
    screenshot(page, SCREENSHOTS, "logged_feedback_1280x720")
    _press_on_slider(page, "logged_temperature", "ArrowLeft", times=2)  # 1 → 0.5 → 0.25
    expect(page.locator(".st-key-logged_temperature input[type=range]")).to_have_attribute("aria-valuetext", "0.25")
    expect(ess).not_to_have_text(before)
    assert int(ess.text_content().replace(",", "")) < int(before.replace(",", ""))  # a colder logger: fewer rounds count
    expect(card(page, "True value of the target")).to_have_text("0.5457")
    expect(table).to_be_visible()
    _charts_fit(page, PROJECTOR["width"])
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot(page, SCREENSHOTS, "logged_feedback_1280x720_temperature_0.25")


def test_the_page_and_a_preset_on_a_390px_phone(server, page: Page):
    page.set_viewport_size(PHONE)
    _open(page, server.url + "/Logged_feedback")
    before = card(page, "Effective sample size").text_content()
    _press_on_slider(page, "logged_rounds", "ArrowRight")  # 10,000 → 20,000 rounds
    expect(page.get_by_role("heading", name="One log of 20,000 rounds")).to_be_visible()
    expect(card(page, "Effective sample size")).not_to_have_text(before)
    _charts_fit(page, PHONE["width"])
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot(page, SCREENSHOTS, "logged_feedback_390")
    page.get_by_test_id("stSelectbox").filter(has_text="Preset").click()
    page.get_by_role("option", name="Doubly robust: which half must be right").click()
    finding = page.get_by_test_id("stAlertContentInfo")
    expect(finding).to_contain_text("it rescues one half, not both", timeout=FIRST_RUN)
    wait_until_idle(page)
    _charts_fit(page, PHONE["width"])
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot(page, SCREENSHOTS, "logged_feedback_390_doubly_robust")
