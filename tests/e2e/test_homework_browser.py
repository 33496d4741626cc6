"""Issue 43 in Chromium: a student does a homework on a 390 px phone (/homework/CODE of `streamlit run app.py`),
answers with a verdict at once, reloads mid-way and resumes at the same step with the same verdict. The teacher gives
the homework through the store (what the console's button calls)."""

from __future__ import annotations

import os
import re
import time

import pytest
from playwright.sync_api import expect

import classroom
from classroom import homework
from classroom.engine import database_url
from classroom.steps import live_step
from tests.e2e.test_live_class_browser import tabs

FOLLOW = 15_000  # ms: a liveness bound, not a timing claim
QUESTION = live_step("topn", 2)  # a value question of the first built-in lesson


@pytest.fixture
def store(server):
    assert "RECEVAL_CLASSROOM_URL" not in os.environ or database_url() == os.environ["RECEVAL_CLASSROOM_URL"]
    made = classroom.Store(database_url())
    yield made
    made.engine.dispose()


def test_a_student_does_the_homework_on_a_phone_reloads_and_resumes(server, browser, store):
    room = homework.create(store, "topn", time.time() + 3600)
    try:
        with tabs(browser, [(390, 844)]) as (phone,):
            phone.goto(f"{server.url}/homework/{room.code}?lang=en")
            expect(phone.locator("main")).to_contain_text("Homework")
            phone.locator("#nickname").fill("Ann")
            phone.locator("form button[type=submit]").click()
            expect(phone.locator("#where")).to_have_text("Step 1 of 7", timeout=FOLLOW)
            expect(phone.locator("#deadline")).to_contain_text("(UTC)")
            phone.locator("#next").click()
            phone.locator("#next").click()
            expect(phone.locator("#where")).to_have_text("Step 3 of 7", timeout=FOLLOW)
            phone.get_by_role("radio", name=re.compile("^" + re.escape(QUESTION.right_answer))).check()
            phone.locator("#send").click()
            expect(phone.locator("#verdict")).to_have_attribute("data-verdict", "right", timeout=FOLLOW)
            phone.reload()  # mid-way: the same step, the same answer and verdict, no form to answer again
            expect(phone.locator("#where")).to_have_text("Step 3 of 7", timeout=FOLLOW)
            expect(phone.locator("#verdict")).to_have_attribute("data-verdict", "right")
            expect(phone.locator("#send")).to_have_count(0)
            phone.locator("#next").click()
            expect(phone.locator("#where")).to_have_text("Step 4 of 7", timeout=FOLLOW)
            phone.goto(f"{server.url}/homework/{room.code}?lang=en")  # the link opened again: still step 4
            expect(phone.locator("#where")).to_have_text("Step 4 of 7", timeout=FOLLOW)
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, width  # nothing wider than the phone
        report = homework.report(store, room.code, room.teacher_key)
        assert report["students"][0]["answers"] == {QUESTION.question_id: (QUESTION.right_answer, True)}
    finally:
        store.end_room(room.code, room.teacher_key)
