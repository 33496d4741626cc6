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
