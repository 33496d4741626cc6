"""Issue 41's reveal, end to end: the teacher's real console and three phones on the real light view.

The teacher (1280x720) starts a class with the first lesson, goes to its choice question and reveals it with
the console's own buttons; three phones (390 px, each its own browser) join through the console's join link
and follow the event stream. One chooses an explained wrong option, one the right one, one answers nothing.
The teacher's page is reloaded between the answers and the reveal: the phones' streams do not depend on it.
Before the reveal the teacher starts a 5 s timer: the phones count it down and lock by themselves at zero.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from classroom.steps import live_step
from content.lessons import LESSONS
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import screenshot, wait_until_idle
from tests.e2e.test_live_class_browser import FOLLOW, RECALL_QUESTION, tabs
from tests.e2e.test_live_teacher_browser import start

FOLDER = SCREENSHOTS / "live_reveal"
QUESTION = live_step(LESSONS[0].key, 2)  # "Predict Recall@10": the first lesson's first choice question
RIGHT = next(o for o in QUESTION.options if o.label == QUESTION.right_answer)
WRONG = next(o for o in QUESTION.options if o.label != QUESTION.right_answer and o.explanation)
PHONE = (390, 844)


def join(phone: Page, link: str, nickname: str) -> None:
    """Open the join link the console shows (the QR code's), type a nickname and join, as a student does."""
    phone.goto(link)
    phone.get_by_role("textbox", name="Nickname (leave empty to stay anonymous)").fill(nickname)
    phone.get_by_role("button", name="Join").click()
    expect(phone.get_by_text(f"you are {nickname}")).to_be_visible(timeout=FOLLOW)
    phone.evaluate("window.sameDocument = true")  # gone if the page ever reloads or navigates


def answer(phone: Page, option: str) -> None:
    phone.get_by_role("radio", name=option, exact=True).check(timeout=FOLLOW)
    expect(phone.get_by_role("status").filter(has_text=f"Your answer '{option}' is in")).to_be_visible()


def test_after_a_teacher_reload_the_reveal_gives_each_phone_its_own_verdict(class_server, browser):
    assert QUESTION.title == "Predict Recall@10" and WRONG.label == "0.3"  # the lesson this test walks
    with tabs(browser, [(1280, 720), PHONE, PHONE, PHONE]) as (teacher, wrong, right, silent):
        code = start(teacher, class_server.url)
        link = teacher.locator("code").filter(has_text="/class/").first.inner_text().strip()
        assert link.endswith(f"/class/{code}?lang=en")
        link = class_server.url + link[link.index("/class/"):]  # this machine's loopback, not its network address
        for phone, nickname in ((wrong, "Wendy"), (right, "Rita"), (silent, "Sam")):
            join(phone, link, nickname)

        steps = teacher.get_by_role("combobox", name="Go to step")
        for step in (2, 3):
            teacher.get_by_role("button", name="Next ▶").click()
            expect(steps).to_have_value(re.compile(rf"^{step}\. "), timeout=FOLLOW)
        for phone in (wrong, right, silent):
            expect(phone.get_by_role("heading", name=QUESTION.title)).to_be_visible(timeout=FOLLOW)
        answer(wrong, WRONG.label)
        answer(right, RIGHT.label)
        expect(teacher.get_by_test_id("stMetricValue").filter(has_text="2 of 3")).to_be_visible(timeout=FOLLOW)

        teacher.reload()  # mid-class: the console comes back, the phones' streams never noticed
        expect(teacher.get_by_test_id("live-code")).to_have_text(code)
        expect(steps).to_have_value(re.compile(r"^3\. "))
        expect(teacher.get_by_text(RECALL_QUESTION)).to_be_visible()

        # The console's shortest timer: every phone counts it down, and at zero shows the answers locked
        # though the teacher did nothing (the room's version does not move when a timer runs out).
        seconds = teacher.get_by_role("spinbutton", name="Seconds to answer")
        seconds.fill("5")
        seconds.press("Enter")
        wait_until_idle(teacher)
        teacher.get_by_role("button", name="⏱ Start the timer").click()
        for phone in (wrong, right, silent):
            expect(phone.get_by_role("timer")).to_have_text(re.compile(r"^⏱ Answers lock in 0:0[1-5]\.$"),
                                                            timeout=FOLLOW)
        for phone, locked in ((wrong, f"Yours: '{WRONG.label}'."), (right, f"Yours: '{RIGHT.label}'."),
                              (silent, "You did not answer.")):
            expect(phone.get_by_text(f"The teacher locked the answers. {locked}")).to_be_visible(timeout=FOLLOW)
            expect(phone.get_by_role("radio")).to_have_count(0)
        teacher.get_by_role("button", name="👁 Reveal").click()

        verdict = f"Not quite. {WRONG.explanation} The answer is {RIGHT.label}."
        assert said(wrong, "Not quite.") == verdict  # its own option's explanation, and the right answer
        assert said(wrong, "1 student chose") == f"1 student chose {WRONG.label}: {WRONG.explanation}"
        assert said(right, "Right.") == f"Right. {RIGHT.explanation}"
        assert said(silent, "You did not answer") == "You did not answer; 1 of 2 students got it right."
        for phone in (wrong, right):
            assert said(phone, "1 of 2 students got it right;") == (
                "1 of 2 students got it right; 0 other students gave the same answer as you.")
        for phone, mine in ((wrong, WRONG.label), (right, RIGHT.label)):  # its own answer, marked in the counts
            expect(phone.locator("li.mine")).to_have_text(re.compile(rf"^{re.escape(mine)}( ✓)?: 1$"))
        expect(silent.locator("li.mine")).to_have_count(0)
        for phone in (wrong, right, silent):
            assert phone.evaluate("window.sameDocument") is True, "a phone reloaded to get the reveal"
            assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways
        chart = teacher.locator(".js-plotly-plot").filter(has_text="How the class answered")
        expect(chart).to_be_visible(timeout=FOLLOW)

        FOLDER.mkdir(parents=True, exist_ok=True)
        for phone, name in ((wrong, "phone_wrong"), (right, "phone_right"), (silent, "phone_silent")):
            phone.screenshot(path=str(FOLDER / f"{name}.png"), full_page=True)
        screenshot(teacher, FOLDER, "console")


def said(phone: Page, start: str) -> str:
    """The one paragraph of the phone's screen that starts with ``start``, once the stream has brought it,
    as read (the word joiners that keep "@10" and "10:" from becoming links are invisible: left out)."""
    paragraph = phone.locator("#screen p").filter(has_text=re.compile("^" + re.escape(start)))
    expect(paragraph).to_have_count(1, timeout=FOLLOW)
    return paragraph.inner_text().replace("\u2060", "")
