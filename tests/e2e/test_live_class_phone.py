"""Phones on the live class's light view (/class/{code}) of `streamlit run app.py`, in Chromium.

The teacher moves the class through the Store (what the console's buttons call): this file is about the
phones. One student on a 390 px phone joins and answers by keyboard alone; one joins with lang=tr.
"""

from __future__ import annotations

import os
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

import classroom
from classroom.engine import database_url
from classroom.steps import live_step
from content.lessons import LESSONS
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_live_class_browser import tabs

RECALL, HR = [live_step(lesson.key, i) for lesson in LESSONS for i, step in enumerate(lesson.steps)
              if step.kind == "predict" and step.question.options][:2]
WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]}}
FOLLOW = 15_000  # ms: a liveness bound, not a timing claim (benchmarks/live_class.py measures it)


@pytest.fixture
def store(server):
    # The shared server's database: the checkout's, unless the environment names another (as the app reads it).
    assert "RECEVAL_CLASSROOM_URL" not in os.environ or database_url() == os.environ["RECEVAL_CLASSROOM_URL"]
    made = classroom.Store(database_url())
    yield made
    made.engine.dispose()


def show(store, room, step):
    store.set_step(room.code, room.teacher_key, step.lesson, step.index, step.question_id, step.right_answer)


def test_a_phone_by_keyboard_and_a_turkish_phone_join_answer_and_follow_the_teacher(server, browser, store):
    room = store.create_room()
    show(store, room, RECALL)
    try:
        with tabs(browser, [(390, 844), (390, 844)]) as (phone, turkish):
            _by_keyboard(phone, server.url, room.code)
            _in_turkish(turkish, server.url, room.code)
            assert store.tally(room.code, room.teacher_key, RECALL.question_id) == {"0.75": 1, "1.0": 1}

            show(store, room, HR)  # the teacher's Next: both screens move without a click
            expect(phone.get_by_role("heading", name=HR.title)).to_be_visible(timeout=FOLLOW)
            expect(turkish.get_by_role("heading", name="Daha kısa bir pencere için HR@K'yi tahmin edin")).to_be_visible(
                timeout=FOLLOW)
            expect(phone.get_by_role("heading", name=HR.title)).to_be_focused()  # a screen reader hears the step
            phone.get_by_role("radio", name="down").check()
            expect(phone.get_by_role("status").filter(has_text="is in")).to_be_visible()

            phone.reload()  # a reload keeps the student and their answer
            expect(phone.get_by_role("radio", name="down")).to_be_checked(timeout=FOLLOW)

            store.reveal(room.code, room.teacher_key, HR.question_id)
            expect(phone.get_by_text("Right.")).to_be_visible(timeout=FOLLOW)
            expect(turkish.get_by_text("Cevap vermediniz", exact=False)).to_be_visible(timeout=FOLLOW)
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            phone.screenshot(path=str(SCREENSHOTS / "live-phone-390-revealed.png"), full_page=True)
            turkish.screenshot(path=str(SCREENSHOTS / "live-phone-390-tr-revealed.png"), full_page=True)
            _fits(phone)
            _accessible(phone)
            _accessible(turkish)

            store.end_room(room.code, room.teacher_key)
            expect(phone.get_by_text("This class has ended", exact=False)).to_be_visible(timeout=FOLLOW)
    finally:
        try:
            store.end_room(room.code, room.teacher_key)
        except LookupError:
            pass


def _by_keyboard(phone: Page, base: str, code: str) -> None:
    phone.goto(f"{base}/class/{code}")
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    nickname = phone.get_by_label("Nickname (leave empty to stay anonymous)")
    expect(nickname).to_be_focused()
    phone.keyboard.type("Ann <b>")
    phone.keyboard.press("Enter")
    expect(phone.get_by_role("heading", name=RECALL.title)).to_be_visible(timeout=FOLLOW)
    expect(phone.get_by_text("Three of the four relevant items")).to_be_visible()
    expect(phone.get_by_text("you are Ann <b>")).to_be_visible()  # its own name, as typed: text, not markup
    first = phone.get_by_role("radio", name="0.3")
    for _ in range(10):  # Tab to the options
        phone.keyboard.press("Tab")
        if first.evaluate("e => e === document.activeElement"):
            break
    expect(first).to_be_focused()
    phone.keyboard.press("ArrowDown")  # a radio group moves and checks with the arrow keys
    expect(phone.get_by_role("radio", name="0.75")).to_be_checked()
    expect(phone.get_by_role("status").filter(has_text=re.compile("Your answer '0.75' is in"))).to_be_visible()
    phone.screenshot(path=str(SCREENSHOTS / "live-phone-390-question.png"), full_page=True)
    _fits(phone)
    _accessible(phone)


def _in_turkish(turkish: Page, base: str, code: str) -> None:
    turkish.goto(f"{base}/class/{code.lower()}?lang=tr")
    expect(turkish.locator("html")).to_have_attribute("lang", "tr")
    turkish.get_by_label("Takma ad", exact=False).fill("Ayşe")
    turkish.get_by_role("button", name="Katıl").click()
    expect(turkish.get_by_role("heading", name="Recall@10'u tahmin edin")).to_be_visible(timeout=FOLLOW)
    turkish.get_by_role("radio", name="1,0").check()  # a number option in the Turkish notation, sent as "1.0"
    expect(turkish.get_by_role("status").filter(has_text="alındı")).to_contain_text("'1,0'")
    turkish.screenshot(path=str(SCREENSHOTS / "live-phone-390-tr-question.png"), full_page=True)


def _fits(phone: Page) -> None:
    """Nothing wider than the phone: no sideways scrolling at 390 px."""
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _accessible(phone: Page) -> None:
    found = Axe().run(phone, options=WCAG)
    assert found.violations_count == 0, found.generate_report()


def test_a_screen_the_server_could_not_build_leaves_the_last_one_on_the_phone_with_a_notice(browser, tmp_path,
                                                                                              monkeypatch):
    """The light view's routes in this process (no Streamlit), one screen build made to fail: the phone keeps
    the step it shows, says why in its status line, in its language, and the next screen replaces both."""
    from classroom.web import screen
    from classroom.web.hub import Hub
    from content import i18n
    from content.i18n import _
    from content.pages import live_phone
    from tests.test_classroom_web import LiveServer

    store = classroom.Store(f"sqlite:///{tmp_path / 'live.db'}")
    room = store.create_room()
    show(store, room, RECALL)
    real_build, broken = screen.build, store.current(room.code)["version"] + 1

    def build(now, distribution, language, by_student=None):
        if now["version"] == broken:
            raise TypeError("a fault in the screen")
        return real_build(now, distribution, language, by_student)

    monkeypatch.setattr(screen, "build", build)
    server = LiveServer(Hub(store, poll_seconds=0.05))
    with i18n.speaking("tr"):
        recall, hr, notice = _(RECALL.title), _(HR.title), _(live_phone.SCREEN_FAILED)
    try:
        with tabs(browser, [(390, 844)]) as (phone,):
            phone.goto(f"{server.url}/class/{room.code}?lang=tr")
            phone.get_by_label("Takma ad", exact=False).fill("Ayşe")
            phone.get_by_role("button", name="Katıl").click()
            expect(phone.get_by_role("heading", name=recall)).to_be_visible(timeout=FOLLOW)

            store.set_step(room.code, room.teacher_key, HR.lesson, HR.index, HR.question_id, HR.right_answer)
            expect(phone.locator("#status")).to_have_text(notice, timeout=FOLLOW)
            expect(phone.get_by_role("heading", name=recall)).to_be_visible()  # the last screen stays
            expect(phone.get_by_role("radio", name="0,75")).to_be_visible()
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            phone.screenshot(path=str(SCREENSHOTS / "live-phone-390-tr-screen-failed.png"), full_page=True)
            _accessible(phone)

            store.lock(room.code, room.teacher_key, HR.question_id)  # the next move builds: it replaces both
            expect(phone.get_by_role("heading", name=hr)).to_be_visible(timeout=FOLLOW)
            expect(phone.locator("#status")).to_have_text("")

            store.end_room(room.code, room.teacher_key)
            expect(phone.locator("#status")).to_have_text("")
            expect(phone.get_by_role("status").filter(has_text="sona erdi")).to_be_visible(timeout=FOLLOW)
    finally:
        server.stop()


def test_a_phone_counts_a_timer_down_and_closes_its_answers_itself_at_zero(browser, tmp_path):
    """The light view in this process on a store whose clock stands still 3 s before the deadline: the server
    never locks the question, so the form that closes is closed by the phone's own script, on time."""
    from classroom.web.hub import Hub
    from tests.test_classroom_web import LiveServer

    clock = [1_000_000.0]
    store = classroom.Store(f"sqlite:///{tmp_path / 'live.db'}", clock=lambda: clock[0])
    room = store.create_room()
    show(store, room, RECALL)
    store.start_timer(room.code, room.teacher_key, RECALL.question_id, 60)
    clock[0] += 57
    server = LiveServer(Hub(store, poll_seconds=0.05))
    try:
        with tabs(browser, [(390, 844)]) as (phone,):
            phone.goto(f"{server.url}/class/{room.code}")
            phone.get_by_label("Nickname (leave empty to stay anonymous)").fill("Ann")
            phone.get_by_role("button", name="Join").click()
            expect(phone.get_by_role("timer")).to_have_text(re.compile(r"^⏱ Answers lock in 0:0[1-3]\.$"),
                                                            timeout=FOLLOW)
            phone.get_by_role("radio", name="0.75").check()
            expect(phone.get_by_role("status").filter(has_text="Your answer '0.75' is in")).to_be_visible()
            expect(phone.get_by_role("timer")).to_be_visible()  # drawn again with the confirmation
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            phone.screenshot(path=str(SCREENSHOTS / "live-phone-390-timer.png"), full_page=True)
            expect(phone.get_by_text("The teacher locked the answers. Yours: '0.75'.")).to_be_visible(timeout=FOLLOW)
            expect(phone.get_by_role("radio")).to_have_count(0)
            expect(phone.get_by_role("timer")).to_have_count(0)
            assert store.current(room.code)["state"] == "open"  # the server's clock has not got there
            _accessible(phone)
    finally:
        server.stop()
