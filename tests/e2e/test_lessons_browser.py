"""The NDCG lesson in a real Chromium at projector size: every step, one animation played, one answer."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from content.lessons import BY_KEY
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import open_page, screenshot, wait_until_idle
from ui.controllers import lessons as engine

LESSON = BY_KEY["ndcg"]


def chart_title(page: Page):
    return page.locator(".js-plotly-plot .gtitle").first


def test_ndcg_lesson_step_by_step_at_1280x720(server, page):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, f"{server.url}/Lessons?lesson=ndcg&step=1")
    for index, step in enumerate(LESSON.steps):
        expect(page.get_by_role("heading", name=step.title)).to_be_visible()
        assert f"step={index + 1}" in page.url
        expect(page.locator(".katex").first).to_be_visible()
        expect(page.locator(".js-plotly-plot .main-svg").first).to_be_visible()
        expect(page.locator(".katex-error")).to_have_count(0)
        expect(page.get_by_test_id("stException")).to_have_count(0)

        if step.kind == "demonstrate":
            # Plotly draws each <br>-separated line of a title as its own tspan: no space between them.
            captions = [frame.layout.title.text.replace("<br>", "") for frame in engine.demonstration(step)[0].figure.frames]
            expect(chart_title(page)).to_have_text(captions[0])
            page.locator(".updatemenu-button").filter(has_text="Play").click()
            # The animation runs in the browser: the title walks through every frame to the last one.
            expect(chart_title(page)).to_have_text(captions[len(captions) // 2], timeout=15_000)
            expect(chart_title(page)).to_have_text(captions[-1], timeout=15_000)
        if step.kind == "predict":
            screenshot(page, SCREENSHOTS, f"lesson_ndcg_{index + 1}_question")
            page.get_by_test_id("stRadio").get_by_text(step.question.answer, exact=True).click()
            wait_until_idle(page)
            expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text("Right.")
            expect(page.locator(".katex-error")).to_have_count(0)
        screenshot(page, SCREENSHOTS, f"lesson_ndcg_{index + 1}_{step.kind}")

        if index + 1 < len(LESSON.steps):
            page.get_by_role("button", name="Next ▶").first.click()  # the top one (a copy ends the step)
            wait_until_idle(page)


def test_a_topic_page_opens_its_lesson_at_step_1_with_one_click(server, page):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, f"{server.url}/AP_and_MAP")
    link = page.get_by_test_id("stMain").get_by_role("link", name="Lesson", exact=True)
    expect(link).to_be_in_viewport()
    screenshot(page, SCREENSHOTS, "ap_page_lesson_link_1280x720")
    link.click()
    wait_until_idle(page)
    expect(page.get_by_role("heading", name=BY_KEY["ap"].steps[0].title)).to_be_visible()
    assert "lesson=ap" in page.url and "step=1" in page.url
    expect(page.get_by_test_id("stException")).to_have_count(0)
