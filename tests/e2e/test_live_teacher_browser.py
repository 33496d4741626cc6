"""The teacher in Chromium: a reload or a reopened browser keeps the console; the join link a page opened
at localhost gives is the machine's network address; the projector's screen holds what matters."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from streamlit import net_util

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import code_scrolling_sideways, screenshot, wait_until_idle
from tests.e2e.accessibility import violations
from tests.e2e.test_live_class_browser import FOLLOW, RECALL_QUESTION, tabs


def start(teacher, url: str) -> str:
    teacher.goto(url + "/Live_class")
    teacher.get_by_role("button", name="Start a class").click()
    code = teacher.get_by_test_id("live-code")
    expect(code).to_have_text(re.compile(r"^[A-Z0-9]{6}$"))
    return code.inner_text()


def test_the_teacher_reloads_or_reopens_the_browser_mid_class_and_keeps_control(class_server, browser):
    with tabs(browser, [(1280, 720)]) as (teacher,):
        code = start(teacher, class_server.url)
        steps = teacher.get_by_role("combobox", name="Go to step")
        wait_until_idle(teacher)  # as below: a click while the new console still reruns can land twice
        teacher.get_by_role("button", name="Next ▶").click()
        expect(steps).to_have_value(re.compile(r"^2\. "), timeout=FOLLOW)
        teacher.reload()
        expect(teacher.get_by_test_id("live-code")).to_have_text(code)
        expect(steps).to_have_value(re.compile(r"^2\. "))
        teacher.get_by_role("button", name="Next ▶").click()  # and it still moves the class
        expect(steps).to_have_value(re.compile(r"^3\. "), timeout=FOLLOW)
        assert "teacher" not in teacher.url and "t=" not in teacher.url
        cookies = teacher.context.cookies()
        assert [c for c in cookies if c["name"] == "receval_device" and c["httpOnly"]]
        assert teacher.evaluate("document.cookie").find("receval_device") < 0  # no script can read it
        state = teacher.context.storage_state()
    reopened = browser.new_context(viewport={"width": 1280, "height": 720}, storage_state=state)
    try:  # the browser closed and opened again at the app's front page: "My classes" resumes the class
        page = reopened.new_page()
        page.goto(class_server.url + "/Live_class")
        page.get_by_role("button", name=f"▶ Resume class {code}").click()
        steps = page.get_by_role("combobox", name="Go to step")
        expect(steps).to_have_value(re.compile(r"^3\. "))
        for step in (4, 5):
            wait_until_idle(page)  # a click made while the resumed console still reruns can land twice or not at all
            page.get_by_role("button", name="Next ▶").click()
            expect(steps).to_have_value(re.compile(rf"^{step}\. "), timeout=FOLLOW)
        expect(steps).to_have_value("5. Predict HR@K for a shorter window")  # whole, and seen whole:
        assert steps.evaluate("box => box.scrollWidth <= box.clientWidth"), "the step box cuts its title"
    finally:
        reopened.close()


def test_a_teacher_page_opened_at_localhost_shows_a_join_link_with_the_network_address(class_server, browser):
    address = net_util.get_internal_ip()
    if not address:
        pytest.skip("this machine has no network address")
    local = class_server.url.replace("127.0.0.1", "localhost")
    with tabs(browser, [(1280, 720)]) as (teacher,):
        code = start(teacher, local)
        link = teacher.locator("code").filter(has_text="/class/").first.inner_text().strip()
        assert link == f"http://{address}:{class_server.port}/class/{code}?lang=en"  # the phones' light view
        expect(teacher.get_by_text("which only this computer can open", exact=False)).to_be_visible()
        screenshot(teacher, SCREENSHOTS, "live_teacher_network_address")
        teacher.set_viewport_size({"width": 390, "height": 844})  # the teacher's phone as a remote
        teacher.wait_for_timeout(500)
        assert not code_scrolling_sideways(teacher)
        assert not violations(teacher, "live class, teacher's console at 390 px")


def within_first_screen(page, locator) -> None:
    """The element is on the first 720 px without scrolling."""
    assert page.evaluate("window.scrollY") == 0 and page.evaluate(
        "document.querySelector('[data-testid=stMain]').scrollTop || 0") == 0
    box = locator.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 720, box


def test_the_projector_holds_the_question_counts_reveal_and_the_result_chart_at_1280x720(class_server, browser):
    with tabs(browser, [(1280, 720), (390, 844)]) as (teacher, phone):
        start(teacher, class_server.url)
        link = teacher.locator("code").filter(has_text="/class/").first.inner_text().strip()
        phone.goto(link.replace(link.split("/class/")[0], class_server.url))  # the light view the QR code opens
        phone.get_by_role("button", name="Join").click()
        steps = teacher.get_by_role("combobox", name="Go to step")
        for step in (2, 3):
            teacher.get_by_role("button", name="Next ▶").click()
            expect(steps).to_have_value(re.compile(rf"^{step}\. "), timeout=FOLLOW)
        phone.get_by_role("radio", name="0.75").check(timeout=FOLLOW)
        expect(phone.get_by_role("status").filter(has_text="Your answer '0.75' is in")).to_be_visible(timeout=FOLLOW)
        answered = teacher.get_by_test_id("stMetricValue").filter(has_text="1 of 1")
        expect(answered).to_be_visible(timeout=FOLLOW)  # it moved without a click
        expect(teacher.get_by_test_id("stMetric").filter(has_text="Joined")).to_contain_text("1")
        reveal = teacher.get_by_role("button", name="👁 Reveal")
        for shown in (steps, teacher.get_by_text(RECALL_QUESTION), answered, reveal,
                      teacher.get_by_role("button", name="🔒 Lock")):
            within_first_screen(teacher, shown)
        reveal.click()
        chart = teacher.locator(".js-plotly-plot").filter(has_text="How the class answered")
        expect(chart).to_be_visible()
        within_first_screen(teacher, chart)
        within_first_screen(teacher, teacher.get_by_test_id("stMetricValue").filter(has_text="1 of 1").first)
        teacher.screenshot(path=str(SCREENSHOTS / "live_teacher_reveal_720.png"))

        # The projector's window (its own browser window, the teacher's cookie): the class without controls.
        projector = browser.new_context(viewport={"width": 1280, "height": 720},
                                        storage_state=teacher.context.storage_state())
        try:
            presenter = projector.new_page()
            presenter.goto(teacher.url + "&view=present")
            chart = presenter.locator(".js-plotly-plot").filter(has_text="How the class answered")
            expect(chart).to_be_visible(timeout=FOLLOW)
            within_first_screen(presenter, chart)
            expect(presenter.get_by_test_id("live-code")).to_be_visible()
            for control in ("👁 Reveal", "🔒 Lock", "Next ▶", "📱 Use my phone as a remote"):
                expect(presenter.get_by_role("button", name=control)).to_have_count(0)
            expect(presenter.get_by_test_id("stMain").get_by_role("combobox")).to_have_count(0)
            presenter.screenshot(path=str(SCREENSHOTS / "live_presenter_reveal_720.png"))
        finally:
            projector.close()


def test_the_roster_shows_a_student_who_joins_without_the_teacher_clicking(class_server, browser):
    with tabs(browser, [(1280, 720), (390, 844)]) as (teacher, phone):
        code = start(teacher, class_server.url)
        teacher.get_by_text("Students, answers and ending the class").click()
        expect(teacher.get_by_text("Nobody has joined yet.")).to_be_visible()
        phone.goto(f"{class_server.url}/Live_class?room={code}")
        phone.get_by_role("textbox", name="Nickname (leave empty to stay anonymous)").fill("Zeynep")
        phone.get_by_role("button", name="Join").click()
        expect(teacher.get_by_text("Zeynep", exact=True)).to_be_visible(timeout=FOLLOW)
        expect(teacher.get_by_test_id("stMetric").filter(has_text="Joined")).to_contain_text("1")
        expect(teacher.get_by_text("Nobody has joined yet.")).to_have_count(0)
