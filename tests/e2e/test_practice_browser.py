"""The practice quiz in a real Chromium: type an answer and press Enter, as a candidate does."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from metrics.practice import QUIZ_METRICS, QuizSettings, make_quiz
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import open_page, screenshot, wait_until_idle


def test_enter_in_the_answer_box_checks_an_answer_right_to_3_decimals(server, page: Page):
    page.set_viewport_size({"width": 390, "height": 844})
    question = make_quiz(QuizSettings(seed=1))[0]
    exact = QUIZ_METRICS[question.metric].compute(question.case)
    open_page(page, server.url + "/Practice")
    expect(page.get_by_text("at least 3 decimals").first).to_be_visible(timeout=30_000)
    box = page.get_by_label("Your answer")
    box.click()
    box.type(f"{exact:.3f}")
    box.press("Enter")
    wait_until_idle(page)
    expect(page.get_by_text("Score: 1 / 1")).to_be_visible()
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text("Right")
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot(page, SCREENSHOTS, "practice_enter_checks_phone")
