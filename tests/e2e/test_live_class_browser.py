"""A live class in Chromium: a teacher and three students (one on a 390 px phone) through a predict step."""

from __future__ import annotations

import re
from contextlib import contextmanager

from playwright.sync_api import Page, expect

from tests.e2e.conftest import PROBE_SUFFIXES, SCREENSHOTS, _is_probe_404, _leaves_the_machine
from tests.e2e.streamlit_page import screenshot

# The prompt is escaped Markdown: an invisible word joiner follows "@" (it stops autolinks).
RECALL_QUESTION = re.compile("What is Recall@\u2060?10\\?")
FOLLOW = 30_000  # ms: a liveness bound, not a timing claim (the issue asks for 2 s: the benchmark measures it)


@contextmanager
def tabs(browser, sizes, injected: str | None = None):
    """One browser context per person (separate cookies, like separate phones); fail on any browser error.
    ``injected``: a URL part whose failed responses the test makes itself (``page.route``), not a fault."""
    contexts, pages, problems = [], [], []

    def made(url: str) -> bool:
        return injected is not None and injected in url

    for width, height in sizes:
        context = browser.new_context(viewport={"width": width, "height": height})
        tab = context.new_page()
        tab.set_default_timeout(20_000)
        tab.on("console", lambda m: m.type == "error" and not _is_probe_404(m)
               and not made((m.location or {}).get("url", "")) and problems.append(f"console: {m.text}"))
        tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        tab.on("response", lambda r: r.status >= 400 and not r.url.endswith(PROBE_SUFFIXES) and not made(r.url)
               and problems.append(f"HTTP {r.status}: {r.url}"))
        tab.on("request", lambda r: _leaves_the_machine(r.url) and problems.append(f"external request: {r.url}"))
        contexts.append(context)
        pages.append(tab)
    try:
        yield pages
    finally:
        for context in contexts:
            context.close()
    assert not problems, problems


def join(student: Page, link: str, nickname: str, typed_code: str | None = None) -> None:
    student.goto(link)
    box = student.get_by_role("textbox", name="Class code")
    if typed_code is None:
        expect(box).to_have_value(re.compile(r"^[A-Z0-9]{6}$"))
    else:  # a student who opened the page and types the code from the projector, in lower case with a space
        box.click()
        student.keyboard.type(f"{typed_code[:3].lower()} {typed_code[3:].lower()}")
    if nickname:
        student.get_by_role("textbox", name="Nickname (leave empty to stay anonymous)").fill(nickname)
    student.get_by_role("button", name="Join").click()
    expect(student.get_by_text("you are", exact=False)).to_be_visible()


def test_a_teacher_and_three_students_through_a_predict_step(server, browser):
    with tabs(browser, [(1280, 720), (1280, 720), (800, 900), (390, 844)]) as (teacher, ann, bob, phone):
        teacher.goto(server.url + "/Live_class")
        teacher.get_by_role("button", name="Start a class").click()
        code = teacher.get_by_test_id("live-code")
        expect(code).to_have_text(re.compile(r"^[A-Z0-9]{6}$"))
        expect(teacher.get_by_test_id("stMain").get_by_test_id("stImage").first).to_be_visible()  # the QR code
        link = teacher.locator("code").filter(has_text="/class/").first.inner_text().strip()
        # The join link is the phones' light view, with the class and the teacher's language, never the key.
        assert link.endswith(f"/class/{code.inner_text()}?lang=en") and "teacher" not in link
        screenshot(teacher, SCREENSHOTS, "live_teacher_start")
        # These students use the Streamlit page, which still takes a class code (the server is on loopback).
        link = f"{server.url}/Live_class?room={code.inner_text()}&lang=en"

        join(ann, link, "Ann")
        join(bob, f"{server.url}/Live_class", "<b>Bob</b> **x**", typed_code=code.inner_text())
        join(phone, link, "")  # anonymous
        for student in (ann, bob, phone):
            expect(student.get_by_text("The list and its top-K window")).to_be_visible(timeout=FOLLOW)
        # The roster follows the joins by itself, folded away: the nicknames are not on the projected screen.
        expect(teacher.get_by_text("<b>Bob</b> **x**", exact=False)).to_be_hidden()

        steps = teacher.get_by_role("combobox", name="Go to step")
        for step in (2, 3):  # to step 3, "Predict Recall@10"; a click made while the last one reruns can be lost
            teacher.get_by_role("button", name="Next ▶").click()
            expect(steps).to_have_value(re.compile(rf"^{step}\. "), timeout=FOLLOW)
        expect(teacher.get_by_text(RECALL_QUESTION)).to_be_visible()
        for student in (ann, bob, phone):  # no reload: the screens follow the teacher
            expect(student.get_by_text(RECALL_QUESTION)).to_be_visible(timeout=FOLLOW)

        ann.get_by_text("0.75", exact=True).click()
        bob.get_by_text("0.3", exact=True).click()
        phone.get_by_text("0.3", exact=True).click()
        for student, answer in ((ann, "0.75"), (bob, "0.3"), (phone, "0.3")):
            expect(student.get_by_text(f"Your answer '{answer}' is in.", exact=False)).to_be_visible()
        phone.get_by_text("0.75", exact=True).click()  # changed her mind before the reveal
        expect(phone.get_by_text("Your answer '0.75' is in.", exact=False)).to_be_visible()
        expect(teacher.get_by_test_id("stMetricValue").filter(has_text="3 of 3")).to_be_visible(timeout=FOLLOW)

        phone.reload()  # a reload comes back to the class as the same student, answer kept
        expect(phone.get_by_text(RECALL_QUESTION)).to_be_visible()
        expect(phone.get_by_text("Your answer '0.75' is in.", exact=False)).to_be_visible()

        teacher.get_by_role("button", name="👁 Reveal").click()
        expect(teacher.get_by_test_id("stMetricValue").filter(has_text="2 of 3")).to_be_visible()
        expect(teacher.get_by_text(re.compile("That is Precision@\u2060?10"))).to_be_visible()
        expect(teacher.locator(".js-plotly-plot").filter(has_text="How the class answered")).to_be_visible()
        screenshot(teacher, SCREENSHOTS, "live_teacher_reveal")

        expect(ann.get_by_text("Right.", exact=False)).to_be_visible(timeout=FOLLOW)
        expect(bob.get_by_text("Not quite.", exact=False)).to_be_visible(timeout=FOLLOW)
        expect(phone.get_by_text("Right.", exact=False)).to_be_visible(timeout=FOLLOW)
        expect(phone.get_by_text("2 of 3 students got it right", exact=False)).to_be_visible()
        expect(bob.get_by_text("you are <b>Bob</b> **x**", exact=False)).to_be_visible()  # literally
        scroll_width = phone.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollWidth")
        assert scroll_width <= 390, f"the phone page is {scroll_width} px wide"
        screenshot(phone, SCREENSHOTS, "live_student_phone_reveal")
        for student in (ann, bob, phone):
            assert "teacher" not in student.url
