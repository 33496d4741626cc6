"""“Make a question of this” on a phone, by keyboard: Tab to the editor, open it, Tab to the download, get the file."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from content.lessons.file_reader import read_lesson
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import open_page, screenshot, wait_until_idle

PHONE = {"width": 390, "height": 844}


def tab_to(page: Page, text: str, limit: int = 250) -> None:
    """Press Tab until the focused element is the control that says ``text`` (not a region holding it)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        said = page.evaluate("() => (document.activeElement?.innerText || '').trim()")
        if text in said and len(said) < len(text) + 12:
            return
    raise AssertionError(f"Tab never reached “{text}”")


def test_a_question_made_on_a_phone_by_keyboard_downloads_as_a_lesson_that_loads(server, page: Page, tmp_path):
    page.set_viewport_size(PHONE)
    open_page(page, server.url)
    tab_to(page, "Make a question of this")
    page.keyboard.press("Enter")  # opens the expander; its content is built now
    wait_until_idle(page)
    editor = page.get_by_test_id("stExpander").filter(has_text="Make a question of this")
    expect(editor.get_by_text("The right option, computed:")).to_be_visible()
    expect(editor.get_by_test_id("stCheckbox").first).to_be_visible()
    preview = page.locator(".st-key-question_preview")
    expect(preview).to_be_visible()
    assert preview.bounding_box()["width"] <= 390  # the phone-sized preview fits the phone
    assert page.evaluate("document.querySelector('[data-testid=stMain]').scrollWidth") <= 390  # nothing sideways
    editor.scroll_into_view_if_needed()
    screenshot(page, SCREENSHOTS, "question_editor_390")

    tab_to(page, "Download the lesson file (.toml)")
    with page.expect_download() as download:
        page.keyboard.press("Enter")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    loaded = read_lesson(saved.read_bytes())
    assert loaded.problems == ()
    assert saved.name == f"{loaded.lesson.key}.toml" and loaded.lesson.key.startswith("question-ndcg-at-k-")
    assert loaded.lesson.steps[0].question.kind == "value" and len(loaded.lesson.steps[0].question.options) >= 2
