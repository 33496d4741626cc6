"""Issue 43: homework with a deadline. A lesson each student goes through at their own pace on the light view, with
the live class's screens and verdicts at once, until the deadline; the teacher's report, most-missed first."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

import classroom
from classroom import gradebook, homework, variants
from classroom.steps import live_step
from classroom.store import AnswersClosed

LESSON = (Path(__file__).parent / "data" / "ders-recall.toml").read_text("utf-8")
NUMBER, VARIANT, VALUE = 1, 2, 3  # the steps of the Turkish lesson file
DAY = 24 * 3600


class Clock:
    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(tmp_path, clock):
    made = classroom.Store(f"sqlite:///{tmp_path / 'live.db'}", clock=clock)
    yield made
    made.engine.dispose()


@pytest.fixture
def work(store, clock):
    return homework.create(store, None, clock.now + DAY, lesson_text=LESSON, join_question="Student number")


def qid(store, room, index):
    return f"{homework.info(store, room.code)['lesson']}:{index}"


def right_number(store, room, index=NUMBER):
    lesson = homework.info(store, room.code)["lesson"]
    return f"{live_step(lesson, index).exact_value:.4f}"


# --------------------------------------------------------------------------- the store

def test_a_homework_keeps_each_students_step_and_answers_and_judges_at_once(store, work):
    ann = store.join(work.code, "Ann", identifier="S-1")
    bob = store.join(work.code, "Bob", identifier="S-2")
    assert homework.progress(store, work.code, ann)["step"] == 0
    assert homework.move(store, work.code, ann, NUMBER) == NUMBER
    assert homework.move(store, work.code, ann, 99) == 4  # kept within the lesson's five steps
    homework.move(store, work.code, ann, NUMBER)
    judged = homework.answer(store, work.code, ann, qid(store, work, NUMBER), right_number(store, work))
    assert judged.right is True
    # A typed number within the file's tolerance, written with a comma, is right too.
    typed = right_number(store, work)[:4].replace(".", ",")
    assert homework.answer(store, work.code, bob, qid(store, work, NUMBER), typed).right is True
    wrong = homework.answer(store, work.code, bob, qid(store, work, VALUE), "0.5")
    assert wrong.right is False
    # A reload (a new Store, another process) resumes where the student was, with their verdicts.
    again = homework.progress(classroom.Store(str(store.engine.url), clock=store.clock), work.code, ann)
    assert again["step"] == NUMBER and again["answers"][qid(store, work, NUMBER)].right is True
    assert set(again["answers"]) == {qid(store, work, NUMBER)}  # only Ann's own answers
    assert homework.progress(store, work.code, bob)["step"] == 0  # each their own step


def test_an_answer_is_final_and_a_variant_is_judged_on_the_students_own_list(store, work):
    ann = store.join(work.code, "Ann", identifier="S-1")
    question = qid(store, work, VARIANT)
    seed = homework.info(store, work.code)["seed"]
    lesson = homework.info(store, work.code)["lesson"]
    scenario = variants.draw(live_step(lesson, VARIANT).lesson_step, seed, ann, question)
    value = variants.judge(live_step(lesson, VARIANT).lesson_step, scenario, None).value
    judged = homework.answer(store, work.code, ann, question, f"{value:.4f}")
    assert judged.right is True and judged.scenario == variants.describe(scenario)
    with pytest.raises(homework.AlreadyAnswered):
        homework.answer(store, work.code, ann, question, "0")
    with pytest.raises(classroom.store.QuestionNotFound):
        homework.answer(store, work.code, ann, f"{lesson}:0", "0")  # a step with no question
    with pytest.raises(LookupError):
        homework.answer(store, work.code, "not-a-student", qid(store, work, NUMBER), "0.5")
    with pytest.raises(AnswersClosed):  # the live class's answer (which replaces) does not take a homework's
        store.answer(work.code, ann, qid(store, work, NUMBER), "0.5")


def test_the_deadline_closes_answers_and_only_the_teacher_moves_it(store, work, clock):
    ann = store.join(work.code, "Ann", identifier="S-1")
    with pytest.raises(PermissionError):
        homework.set_deadline(store, work.code, "not the key", clock.now + 2 * DAY)
    with pytest.raises(PermissionError):
        homework.close(store, work.code, "not the key")
    with pytest.raises(ValueError):
        homework.set_deadline(store, work.code, work.teacher_key, clock.now - 1)  # not in the past
    clock.now += DAY + 1
    assert homework.info(store, work.code)["closed"]
    with pytest.raises(AnswersClosed) as closed:
        homework.answer(store, work.code, ann, qid(store, work, NUMBER), "0.5")
    assert closed.value.state == "locked"
    homework.move(store, work.code, ann, VALUE)  # reading on after the deadline is fine
    homework.set_deadline(store, work.code, work.teacher_key, clock.now + DAY)  # the teacher extends it
    homework.answer(store, work.code, ann, qid(store, work, NUMBER), "0.5")
    homework.close(store, work.code, work.teacher_key)  # and closes early
    with pytest.raises(AnswersClosed):
        homework.answer(store, work.code, ann, qid(store, work, VALUE), "0.5")


def test_a_homework_outlives_a_live_class_and_then_goes(store, work, clock):
    live = store.create_room()
    clock.now += 13 * 3600  # past a live class's 12 hours
    with pytest.raises(classroom.RoomNotFound):
        store.current(live.code)
    assert homework.info(store, work.code)["lesson"].startswith("file:")
    clock.now += DAY + homework.HOMEWORK_KEEP
    with pytest.raises(classroom.RoomNotFound):
        homework.info(store, work.code)
    with pytest.raises(homework.NotHomework):
        homework.info(store, store.create_room().code)


def test_the_report_puts_the_most_missed_first_and_the_gradebook_has_a_row_each(store, work):
    ann = store.join(work.code, "Ann", identifier="S-1")
    bob = store.join(work.code, "Bob", identifier="S-2")
    store.join(work.code, "Cem", identifier="S-3")  # answered nothing
    number, value = qid(store, work, NUMBER), qid(store, work, VALUE)
    homework.answer(store, work.code, ann, number, right_number(store, work))
    homework.answer(store, work.code, bob, number, right_number(store, work))
    homework.answer(store, work.code, ann, value, "0.5")
    homework.move(store, work.code, bob, VALUE)
    report = homework.report(store, work.code, work.teacher_key)
    order = [q["question_id"] for q in report["questions"]]
    assert order[-1] == number  # two of three right: the least missed
    assert {q["question_id"]: q["missed"] for q in report["questions"]}[value] == 3
    assert order.index(value) < order.index(qid(store, work, VARIANT))  # both missed by 3; the wrong answer counts
    people = {p["nickname"]: p for p in report["students"]}
    assert people["Ann"]["answers"][value] == ("0.5", False) and people["Bob"]["step"] == VALUE
    assert people["Cem"]["answers"] == {} and people["Ann"]["identifier"] == "S-1"
    with pytest.raises(PermissionError):
        homework.report(store, work.code, "not the key")
    marks = gradebook.marks(store.export(work.code, work.teacher_key), work.code, lambda step: step.title)
    rows = list(csv.reader(io.StringIO(gradebook.csv_text(marks, identifier="Student number"))))
    assert [r[:3] for r in rows[1:]] == [["S-1", "Ann", "1"], ["S-2", "Bob", "1"]]


def test_run_these_live_opens_the_lesson_at_the_most_missed_step(store, work):
    ann = store.join(work.code, "Ann", identifier="S-1")
    homework.answer(store, work.code, ann, qid(store, work, NUMBER), right_number(store, work))
    report = homework.report(store, work.code, work.teacher_key)
    live, steps = homework.run_live(store, work.code, work.teacher_key, report["questions"])
    now = store.current(live.code)
    assert not now["homework"] and now["step"] == steps[0] == report["questions"][0]["step"]
    assert steps[-1] == NUMBER or NUMBER not in steps
    assert now["lesson"] == homework.info(store, work.code)["lesson"]


# --------------------------------------------------------------------------- the phone's routes

from starlette.applications import Starlette  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from classroom.web import homework as homework_web  # noqa: E402
from classroom.web.hub import Hub  # noqa: E402


def phone(store) -> TestClient:
    return TestClient(Starlette(routes=homework_web.routes(Hub(store))), base_url="http://testserver")


def joined(store, room, nickname="Ann", identifier="S-1"):
    browser = phone(store)
    page = browser.get(f"/homework/{room.code}?lang=en")
    assert page.status_code == 200 and "Student number" in page.text and "UTC" not in page.text
    sent = browser.post(f"/homework/{room.code}/join?lang=en", data={"nickname": nickname, "identifier": identifier},
                        follow_redirects=False)
    assert sent.status_code == 303 and sent.headers["location"] == f"/homework/{room.code}?lang=en"
    cookie = sent.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and f"Path=/homework/{room.code}" in cookie
    return browser


def test_a_student_goes_through_the_homework_with_verdicts_at_once_and_a_reload_resumes(store, work):
    browser = joined(store, work)
    first = browser.get(f"/homework/{work.code}?lang=en")
    assert "Step 1 of 5" in first.text and "(UTC)" in first.text
    moved = browser.post(f"/homework/{work.code}/move?lang=en", data={"step": str(NUMBER)})
    assert "Step 2 of 5" in moved.text and "inputmode='decimal'" in moved.text
    # Not a number: refused with the reason, the typed text kept, nothing recorded.
    refused = browser.post(f"/homework/{work.code}/answer?lang=en",
                           data={"question_id": qid(store, work, NUMBER), "value": "abc"})
    assert refused.status_code == 400 and "role='alert'" in refused.text and "value='abc'" in refused.text
    typed = right_number(store, work)[:4].replace(".", ",")  # the tolerance's two decimals, with a comma
    done = browser.post(f"/homework/{work.code}/answer?lang=en",
                        data={"question_id": qid(store, work, NUMBER), "value": typed})
    assert done.status_code == 200 and "data-verdict='right'" in done.text
    assert f"action='/homework/{work.code}/answer" not in done.text  # answered: no form to answer again
    again = browser.post(f"/homework/{work.code}/answer?lang=en",
                         data={"question_id": qid(store, work, NUMBER), "value": "0.1"})
    assert again.status_code == 409 and "final" in again.text
    # The variant step shows this student's own list; a reload (a new page load with the cookie) resumes there.
    browser.post(f"/homework/{work.code}/move?lang=en", data={"step": str(VARIANT)})
    reloaded = browser.get(f"/homework/{work.code}?lang=en")
    assert "Step 3 of 5" in reloaded.text and "<ol class='items' id='own-list'>" in reloaded.text
    browser.post(f"/homework/{work.code}/move?lang=en", data={"step": str(VALUE)})
    wrong = browser.post(f"/homework/{work.code}/answer?lang=en",
                         data={"question_id": qid(store, work, VALUE), "value": "0.5"})
    assert "data-verdict='wrong'" in wrong.text
    last = browser.post(f"/homework/{work.code}/move?lang=en", data={"step": "4"})
    assert "You answered 2 of 3 questions; 1 right." in last.text


def test_after_the_deadline_the_server_refuses_and_the_phone_says_so(store, work, clock):
    browser = joined(store, work)
    browser.post(f"/homework/{work.code}/move?lang=en", data={"step": str(NUMBER)})
    clock.now += DAY + 1
    page = browser.get(f"/homework/{work.code}?lang=en")
    assert "answers are closed" in page.text and "inputmode='decimal'" not in page.text
    sent = browser.post(f"/homework/{work.code}/answer?lang=en",
                        data={"question_id": qid(store, work, NUMBER), "value": "0.5"})
    assert sent.status_code == 409 and "answers are closed" in sent.text
    assert homework.report(store, work.code, work.teacher_key)["students"][0]["answers"] == {}


def test_a_student_sees_only_their_own_answers_and_cross_site_posts_are_refused(store, work):
    ann, bob = joined(store, work), joined(store, work, "Bob", "S-2")
    ann.post(f"/homework/{work.code}/move?lang=en", data={"step": str(VALUE)})
    ann.post(f"/homework/{work.code}/answer?lang=en", data={"question_id": qid(store, work, VALUE), "value": "0.5"})
    bob.post(f"/homework/{work.code}/move?lang=en", data={"step": str(VALUE)})
    assert "id='yours'" not in bob.get(f"/homework/{work.code}?lang=en").text
    stranger = phone(store)
    assert stranger.post(f"/homework/{work.code}/answer", data={"question_id": qid(store, work, VALUE),
                                                               "value": "0.5"}).status_code == 403
    forged = bob.post(f"/homework/{work.code}/answer?lang=en", headers={"origin": "https://evil.example",
                                                                       "sec-fetch-site": "cross-site"},
                      data={"question_id": qid(store, work, VALUE), "value": "0.5"})
    assert forged.status_code == 403
    assert phone(store).get(f"/homework/{store.create_room().code}").status_code == 404  # a live class is not one


def test_a_homeworks_code_on_the_live_class_page_leads_to_the_homework(store, work):
    from classroom.web import student
    browser = TestClient(Starlette(routes=student.routes(Hub(store))))
    sent = browser.get(f"/class/{work.code}?lang=tr", follow_redirects=False)
    assert sent.status_code == 303 and sent.headers["location"] == f"/homework/{work.code}?lang=tr"


# --------------------------------------------------------------------------- the console (AppTest)

def test_the_console_gives_a_homework_reads_the_report_and_runs_the_missed_questions_live(tmp_path, monkeypatch):
    import datetime

    from streamlit.testing.v1 import AppTest

    from tests.conftest import ROOT
    from ui.controllers import live_class

    monkeypatch.setenv("RECEVAL_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("RECEVAL_CLASSROOM_URL", raising=False)
    live_class.store.clear()
    following = followed_fragments(monkeypatch)
    try:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        at.switch_page("pages/19_Live_class.py")
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        at.text_input(key="live_join_question").input("Student number")
        at.selectbox(key="homework_lesson").select("topn")
        today = datetime.datetime.now(datetime.timezone.utc).date()
        at.date_input(key="homework_new_date").set_value(today)
        at.time_input(key="homework_new_time").set_value(datetime.time(0, 0))  # already past, in UTC
        at.button(key="homework_start").click().run()
        assert any("future" in e.value for e in at.error)  # a deadline in the past is refused, said why
        tomorrow = datetime.datetime.now(datetime.timezone.utc).date() + datetime.timedelta(days=1)
        at.date_input(key="homework_new_date").set_value(tomorrow)
        at.button(key="homework_start").click().run()
        assert not at.exception, [e.value for e in at.exception]
        teacher = at.session_state[live_class.TEACHER]
        code = teacher["code"]
        store = live_class.store()
        info = homework.info(store, code)
        assert info["lesson"] == "topn" and info["join_question"] == "Student number"
        # The report follows the students by itself while the homework is open (no reload), and says so.
        assert following[-1] == ("ui.controllers.live_homework", 10)
        assert any("updates by itself every 10 seconds" in c.value for c in at.caption)
        assert any(deadline_text_of(info) + " (UTC)" in m.value for m in at.markdown)
        assert any(f"/homework/{code}?lang=" in c.value for c in at.code)  # the link (and the QR code beside it)
        ann = store.join(code, "Ann", identifier="S-1")
        bob = store.join(code, "Bob", identifier="S-2")
        homework.answer(store, code, ann, "topn:2", live_step("topn", 2).right_answer)
        homework.answer(store, code, bob, "topn:4", live_step("topn", 4).options[0].label
                        if live_step("topn", 4).options[0].label != live_step("topn", 4).right_answer
                        else live_step("topn", 4).options[1].label)
        at.run()
        questions = at.dataframe[0].value
        assert list(questions.iloc[:, 0])[0].startswith("5.")  # topn:4, missed by both, first
        students = at.dataframe[1].value
        assert list(students.iloc[:, 1]) == ["Ann", "Bob"] and students.iloc[1, -1].startswith("✗")
        assert students.columns[0] == "Student number"  # the teacher's join question, as in the gradebook
        homework.close(store, code, teacher["key"])
        at.run()
        assert following[-1] == ("ui.controllers.live_homework", None)  # closed: drawn once, nothing polls
        assert not any("updates by itself" in c.value for c in at.caption)
        at.button(key="homework_run_live").click().run()
        assert not at.exception, [e.value for e in at.exception]
        live = at.session_state[live_class.TEACHER]["code"]
        assert live != code and store.current(live)["step"] == 4 and not store.current(live)["homework"]
        assert any("5." in i.value for i in at.info)
    finally:
        live_class.store.clear()


def followed_fragments(monkeypatch) -> list[tuple[str, float | None]]:
    """Every fragment the console draws, as (its module, how often it reruns by itself)."""
    import streamlit as st

    found, real = [], st.fragment

    def fragment(function=None, *, run_every=None):
        def wrap(body):
            found.append((body.__module__, run_every))
            return real(body, run_every=run_every)
        return wrap(function) if function is not None else wrap
    monkeypatch.setattr(st, "fragment", fragment)
    return found


def deadline_text_of(info: dict) -> str:
    return homework_web.deadline_text(info["closes_at"])


def test_the_phone_speaks_the_students_language(store, work):
    browser = joined(store, work)
    page = browser.get(f"/homework/{work.code}?lang=tr")
    assert "Adım 1 / 5" in page.text and "(UTC)" in page.text and "<html lang='tr'>" in page.text
    assert "第 1 步，共 5 步" in browser.get(f"/homework/{work.code}?lang=zh").text


# --------------------------------------------------------------------------- what the phone's screens show

def test_a_number_option_shows_in_the_students_notation_and_is_sent_as_written(store, work):
    """A value question's options are numbers the app checks against the metric: a Turkish phone writes 0,3333 (the
    label the file wrote, 0.3333, is what the form sends and the store keeps); a Chinese phone keeps the point."""
    browser = joined(store, work)
    page = browser.post(f"/homework/{work.code}/move?lang=tr", data={"step": str(VALUE)}).text
    assert ">0,3333</label>" in page and ">0,5</label>" in page and "value='0.3333'" in page
    assert ">0.3333</label>" in browser.get(f"/homework/{work.code}?lang=zh").text
    wrong = browser.post(f"/homework/{work.code}/answer?lang=tr",
                         data={"question_id": qid(store, work, VALUE), "value": "0.5"}).text
    assert "data-verdict='wrong'" in wrong and "<strong>0,3333</strong>" in wrong and "Yanıtınız: 0,5" in wrong
    assert homework.progress(store, work.code, homework.report(store, work.code, work.teacher_key)["students"][0][
        "student_id"])["answers"][qid(store, work, VALUE)].value == "0.5"


def test_a_right_typed_number_shows_the_exact_value_in_the_students_notation(store, work):
    """A typed number is right within the file's tolerance (two decimals here): the verdict says the exact value, as
    the own-list verdict does, with a Turkish comma."""
    browser = joined(store, work)
    browser.post(f"/homework/{work.code}/move?lang=tr", data={"step": str(NUMBER)})
    right = browser.post(f"/homework/{work.code}/answer?lang=tr",
                         data={"question_id": qid(store, work, NUMBER), "value": "0,504"}).text
    assert "data-verdict='right'" in right and "<strong>Doğru.</strong> Tam değer 0,5000 (= 1/2)." in right
    assert "精确值是 0.5000 (= 1/2)" in browser.get(f"/homework/{work.code}?lang=zh").text


def items_of(page: str, ident: str) -> list[str]:
    import re

    found = re.search(rf"<ol class='items' id='{ident}'>(.*?)</ol>", page)
    return re.findall(r"<li>(.*?)</li>", found.group(1)) if found else []


def test_a_step_shows_its_list_grades_and_k_on_the_phone_built_once_per_step_and_language(store, work, monkeypatch):
    """At home there is no projector: a step whose scenario is a list shows it (each relevant item with its grade, and
    K), as a list of one's own is shown; built once per step and language, whoever asks."""
    from classroom.web import screen

    built = []
    real = screen.scenario_lists
    monkeypatch.setattr(screen, "scenario_lists", lambda step: built.append(step.index) or real(step))
    homework_web._step_data_cache.clear()
    ann, bob = joined(store, work), joined(store, work, "Bob", "S-2")
    page = ann.get(f"/homework/{work.code}?lang=tr").text
    assert items_of(page, "step-list") == ["11", "12 (1)", "13", "14", "15 (1)"]
    assert "K = 3; ilgili öğeler ve dereceleri: 12 (1), 15 (1)" in page
    assert "uygulamada bir grafiği var" in page  # the note says the chart is left out, the data shown below
    assert items_of(bob.get(f"/homework/{work.code}?lang=tr").text, "step-list") == ["11", "12 (1)", "13", "14",
                                                                                     "15 (1)"]
    assert built == [0]  # once for both students
    assert "K = 3; relevant items and grades: 12 (1), 15 (1)" in ann.get(f"/homework/{work.code}?lang=en").text
    assert built == [0, 0]  # once more for English
    # A question's step shows it above the question; a list per student shows only the student's own.
    assert items_of(ann.post(f"/homework/{work.code}/move?lang=tr", data={"step": str(NUMBER)}).text, "step-list")
    variant = ann.post(f"/homework/{work.code}/move?lang=tr", data={"step": str(VARIANT)}).text
    assert not items_of(variant, "step-list") and len(items_of(variant, "own-list")) == 6


def test_a_step_list_is_shown_as_typed_and_a_compare_or_users_step_shows_each_list(store, clock):
    lesson = LESSON.replace("recommended = [11, 12, 13, 14, 15]\nground_truth = { 12 = 1, 15 = 1 }",
                            'recommended = ["<b>x</b>", "*a*", "c"]\nground_truth = { "*a*" = 2.5 }', 1)
    assert "<b>x</b>" in lesson
    room = homework.create(store, None, clock.now + DAY, lesson_text=lesson, join_question="Student number")
    page = joined(store, room).get(f"/homework/{room.code}?lang=tr").text
    assert items_of(page, "step-list") == ["&lt;b&gt;x&lt;/b&gt;", "*a* (2,5)", "c"] and "<b>x" not in page
    ndcg = homework.create(store, "ndcg", clock.now + DAY, join_question="Student number")  # step 3: A against B
    browser = joined(store, ndcg)
    compare = browser.post(f"/homework/{ndcg.code}/move?lang=en", data={"step": "2"}).text
    assert "<strong>List A</strong>: the recommended list" in compare and "<strong>List B</strong>" in compare
    assert items_of(compare, "step-list")[0] == "101 (1)" and items_of(compare, "step-list-2")[1] == "102 (1)"
    ap = homework.create(store, "ap", clock.now + DAY, join_question="Student number")  # step 6: one list per user
    browser = joined(store, ap)
    users = browser.post(f"/homework/{ap.code}/move?lang=zh", data={"step": "5"}).text
    assert "<strong>alice</strong>" in users and items_of(users, "step-list-3")[0] == "301"
    assert "399 (1)" in users  # carol's relevant item is not in her list: said in K's line
