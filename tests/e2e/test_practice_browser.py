"""The practice quiz in a real Chromium: type an answer and press Enter, as a candidate does."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from teaching.practice import QUIZ_METRICS, QuizSettings, make_quiz
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


def test_a_wrong_answer_shows_its_worked_solution_at_projector_size(server, page: Page):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, server.url + "/Practice")
    box = page.get_by_label("Your answer")
    expect(box).to_be_visible(timeout=30_000)
    box.click()
    box.type("0.5")
    box.press("Enter")
    wait_until_idle(page)
    expect(page.get_by_text("Score: 0 / 1")).to_be_visible()
    expect(page.get_by_text(re.compile("precision at each hit"))).to_be_visible()  # "@" carries a word joiner
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot(page, SCREENSHOTS, "practice_worked_solution_1280")


def test_the_guide_and_the_auc_data_at_projector_size(server, page: Page):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, server.url + "/Which_metric_when")
    expect(page.get_by_text("Is model B really better than model A?")).to_be_visible(timeout=30_000)
    screenshot(page, SCREENSHOTS, "which_metric_when_1280")
    open_page(page, server.url + "/Lessons?lesson=auc&step=5")
    expect(page.get_by_text("Left out of GAUC: user3")).to_be_visible(timeout=30_000)
    screenshot(page, SCREENSHOTS, "lesson_gauc_left_out_1280")
