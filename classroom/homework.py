"""Homework: a lesson each student goes through at their own pace until a deadline, with the live class's screens.

A homework is a room of the live-class store (``live_rooms.homework``), so everything a live class has holds for it:
the join (the same limits, the cap, the lock, the join question for the gradebook), the student's secret id, the
variants drawn per student, the judging of options and typed numbers (``store.verdict``), the export and the
gradebook. What differs:

- Every question of the lesson is asked at once when the homework is made, each with the homework's deadline as its
  timer (``live_questions.deadline``): after it the store refuses answers (:class:`AnswersClosed`, state ``locked``)
  in every process, exactly as a live class's timer does.
- Each student has their own step (``live_students.step``): a reload, another phone with the same cookie, or a
  restart resumes there.
- A student answers each question once and sees its verdict at once (there is no teacher's reveal); a second answer
  is refused (:class:`AlreadyAnswered`), so a verdict cannot be used to try again.
- Only the teacher's key moves the deadline (:func:`set_deadline`, :func:`close`); no student call touches it.
- The room is kept until ``HOMEWORK_KEEP`` after the deadline (``live_rooms.expires_at``), not the live class's 12 h.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, exists, insert, select, update

from classroom.schema import answers, questions, room_lessons, rooms, students
from classroom.steps import lesson_of, live_step
from classroom.store import (AnswersClosed, QuestionNotFound, Room, RoomNotFound, Store, _check_answer, _present,
                             _upsert, verdict)

HOMEWORK_KEEP = 14 * 24 * 3600    # the answers stay for the teacher's report this long after the deadline
MOST_AHEAD = 92 * 24 * 3600       # a deadline at most about three months ahead
TOO_MANY_LIVE = 6                 # "Run these live": more missed questions than this open the lesson at the worst one


class AlreadyAnswered(AnswersClosed):
    """A homework question is answered once: its verdict was shown, so it cannot be answered again."""

    def __init__(self):
        PermissionError.__init__(self, "You already answered this question: a homework answer is final.")
        self.state = "answered"


class NotHomework(LookupError):
    """The code names a live class, not a homework."""


@dataclass(frozen=True)
class Answered:
    question_id: str
    value: str
    right: bool | None
    scenario: str | None       # a variant question: the student's own list (``variants.describe``)
    right_value: str | None    # a variant question: the student's own right value


def _check_deadline(store: Store, closes_at: float) -> float:
    closes_at = float(closes_at)
    if not store.clock() < closes_at <= store.clock() + MOST_AHEAD:
        raise ValueError("A homework's deadline is in the future, at most 92 days ahead.")
    return closes_at


def create(store: Store, lesson: str | None, closes_at: float, *, lesson_text: str | None = None,
           join_question: str | None = None) -> Room:
    """A new homework on a built-in lesson (``lesson``, its key) or a lesson file (``lesson_text``), open until
    ``closes_at`` (epoch seconds). Every question of the lesson is asked at once with the deadline as its timer."""
    closes_at = _check_deadline(store, closes_at)
    if lesson_text is None and lesson_of(lesson) is None:
        raise ValueError(f"No lesson {lesson!r}.")
    room = store.create_room(None, join_question=join_question)
    if lesson_text is not None:
        lesson = store.use_lesson(room.code, room.teacher_key, lesson_text)
    count = len(lesson_of(lesson).steps)

    def work(connection):
        row = store._teacher_room(connection, room.code, room.teacher_key)
        for index in range(count):
            step = live_step(lesson, index)
            if step.question_id is not None:
                connection.execute(insert(questions).values(
                    room=row.code, question_id=step.question_id, right_answer=step.right_answer, state="open",
                    lesson=lesson, step=index, deadline=closes_at, asked_at=store.clock() + index * 1e-6))
        connection.execute(update(rooms).where(rooms.c.code == row.code).values(
            homework=True, closes_at=closes_at, expires_at=closes_at + HOMEWORK_KEEP, lesson=lesson, step=0,
            version=rooms.c.version + 1))
    store._call(True, work)
    return room


def _homework_room(store: Store, connection, code: str, teacher_key: str | None = None):
    row = (store._room(connection, code) if teacher_key is None
           else store._teacher_room(connection, code, teacher_key))
    if not row.homework:
        raise NotHomework(f"The class {row.code!r} is not a homework.")
    store._know(connection, row.code, row.lesson)
    return row


def info(store: Store, code: str) -> dict:
    """What anyone with the code may know: the lesson, its steps, the deadline, whether answers are closed, and the
    join question."""
    def work(connection):
        row = _homework_room(store, connection, code)
        return {"code": row.code, "lesson": row.lesson, "steps": len(lesson_of(row.lesson).steps),
                "closes_at": row.closes_at, "closed": row.closes_at <= store.clock(),
                "join_question": row.join_question, "seed": row.seed or row.code}
    return store._call(False, work)


def set_deadline(store: Store, code: str, teacher_key: str, closes_at: float) -> None:
    """Move the deadline (the teacher's key only): every question of the homework closes at the new one."""
    closes_at = _check_deadline(store, closes_at)
    _move_deadline(store, code, teacher_key, closes_at)


def close(store: Store, code: str, teacher_key: str) -> None:
    """Close the answers now, before the deadline (the teacher's key only)."""
    _move_deadline(store, code, teacher_key, store.clock())


def _move_deadline(store: Store, code: str, teacher_key: str, closes_at: float) -> None:
    def work(connection):
        row = _homework_room(store, connection, code, teacher_key)
        connection.execute(update(questions).where(questions.c.room == row.code).values(deadline=closes_at))
        connection.execute(update(rooms).where(rooms.c.code == row.code).values(
            closes_at=closes_at, expires_at=closes_at + HOMEWORK_KEEP, version=rooms.c.version + 1))
    store._call(True, work)


def _me(connection, room: str, student_id: str):
    found = connection.execute(select(students.c.step).where(
        students.c.room == room, students.c.student_id == str(student_id), _present())).first()
    if found is None:
        raise LookupError("This student is not in this class.")
    return found


def progress(store: Store, code: str, student_id: str) -> dict:
    """One student's own place: ``step`` (where a reload resumes) and ``answers`` {question id: Answered}, judged
    (a homework's verdict is shown at once). Only this student's answers."""
    def work(connection):
        row = _homework_room(store, connection, code)
        me = _me(connection, row.code, student_id)
        found = connection.execute(select(answers.c.question_id, answers.c.value).where(
            answers.c.room == row.code, answers.c.student_id == str(student_id))).all()
        return row, me.step or 0, found
    row, step, found = store._call(False, work)
    seed = row.seed or row.code
    mine = {}
    for question_id, value in found:
        index = int(question_id.rpartition(":")[2])
        right, scenario, right_value = verdict(row.lesson, index, question_id, str(student_id), value, None, seed)
        mine[question_id] = Answered(question_id, value, right, scenario, right_value)
    return {"step": step, "answers": mine, "closed": row.closes_at <= store.clock()}


def move(store: Store, code: str, student_id: str, step: int) -> int:
    """Take this student to ``step`` (kept within the lesson); returns the step. Allowed after the deadline too
    (to read the lesson and their verdicts)."""
    def work(connection):
        row = _homework_room(store, connection, code)
        _me(connection, row.code, student_id)
        index = max(0, min(int(step), len(lesson_of(row.lesson).steps) - 1))
        connection.execute(update(students).where(students.c.room == row.code,
                                                  students.c.student_id == str(student_id)).values(step=index))
        return index
    return store._call(True, work)


def answer(store: Store, code: str, student_id: str, question_id: str, value: str) -> Answered:
    """Record this student's one answer to a question of the homework and judge it at once (against their own list
    for a variant question). Raises :class:`AnswersClosed` after the deadline, :class:`AlreadyAnswered` for a
    second answer, :class:`QuestionNotFound` for a question the homework does not ask, ``LookupError`` for a
    student not in it, ``ValueError`` for an empty or overlong answer."""
    value = _check_answer(value)

    def work(connection):
        row = _homework_room(store, connection, code)
        found = store._question(connection, row.code, question_id)
        if store._state(found, store.clock()) != "open":
            raise AnswersClosed(store._state(found, store.clock()))
        _me(connection, row.code, student_id)
        key = {"room": row.code, "question_id": str(question_id), "student_id": str(student_id)}
        if connection.execute(select(exists().where(*[answers.c[k] == v for k, v in key.items()]))).scalar():
            raise AlreadyAnswered()
        connection.execute(_upsert(connection)(answers).values(**key, value=value, answered_at=store.clock())
                           .on_conflict_do_nothing(index_elements=list(key)))
        return row, found
    row, found = store._call(True, work)
    right, scenario, right_value = verdict(row.lesson, found.step, question_id, str(student_id), value,
                                           found.right_answer, row.seed or row.code)
    return Answered(str(question_id), value, right, scenario, right_value)


def report(store: Store, code: str, teacher_key: str) -> dict:
    """The teacher's report: ``questions`` most-missed first (question id, step, answered, right, missed: every
    student in the homework who did not answer it right), and ``students`` in the order they joined, each with their
    step and {question id: (answer, right)}."""
    frame = store.export(code, teacher_key)
    roster = store.roster(code, teacher_key)

    def work(connection):
        row = _homework_room(store, connection, code, teacher_key)
        asked = connection.execute(select(questions.c.question_id, questions.c.step).where(
            questions.c.room == row.code).order_by(questions.c.step)).all()
        steps = dict(connection.execute(select(students.c.student_id, students.c.step).where(
            students.c.room == row.code, _present())).all())
        ids = dict(connection.execute(select(students.c.student_id, students.c.identifier).where(
            students.c.room == row.code, _present())).all())
        return row, asked, steps, ids
    row, asked, steps, ids = store._call(False, work)
    by_student: dict[str, dict] = {}
    nick_to_id = dict(zip(roster["nickname"], roster["student_id"]))
    for r in frame.itertuples(index=False):
        sid = nick_to_id.get(r.nickname)
        if sid is not None:
            by_student.setdefault(sid, {})[r.question] = (r.answer, None if r.right is None else bool(r.right))
    total = len(roster)
    found = []
    for question_id, step in asked:
        given = [by_student.get(sid, {}).get(question_id) for sid in roster["student_id"]]
        answered = sum(1 for g in given if g is not None)
        right = sum(1 for g in given if g is not None and g[1])
        found.append({"question_id": question_id, "step": int(step), "answered": answered, "right": right,
                      "wrong": answered - right, "missed": total - right})
    found.sort(key=lambda q: (-q["missed"], -q["wrong"], q["step"]))
    people = [{"student_id": sid, "nickname": nick, "hidden": bool(hidden), "identifier": ids.get(sid),
               "step": steps.get(sid) or 0, "answers": by_student.get(sid, {})}
              for sid, nick, hidden in roster.itertuples(index=False)]
    return {"lesson": row.lesson, "closes_at": row.closes_at, "closed": row.closes_at <= store.clock(),
            "students": people, "questions": found}


def run_live(store: Store, code: str, teacher_key: str, missed: list[dict],
             join_question: str | None = None) -> tuple[Room, list[int]]:
    """A live class on the homework's lesson for the questions most missed (``report()["questions"]``, those with
    any miss): it opens at the most-missed question's step, and returns the steps to go through, most missed first
    (at most ``TOO_MANY_LIVE``; the console's Go to step reaches them). A live class runs a whole lesson, so the
    other steps stay reachable too."""
    def work(connection):
        row = _homework_room(store, connection, code, teacher_key)
        text = connection.execute(select(room_lessons.c.text).where(
            and_(room_lessons.c.room == row.code, room_lessons.c.lesson == row.lesson))).scalar()
        return row.lesson, text
    lesson, text = store._call(False, work)
    steps = [q["step"] for q in missed if q["missed"] > 0][:TOO_MANY_LIVE] or [0]
    room = store.create_room(None, join_question=join_question)
    if text is not None:
        lesson = store.use_lesson(room.code, room.teacher_key, text)
    step = live_step(lesson, steps[0])
    store.set_step(room.code, room.teacher_key, lesson, steps[0], step.question_id, step.right_answer)
    return room, steps


__all__ = ["AlreadyAnswered", "Answered", "HOMEWORK_KEEP", "NotHomework", "QuestionNotFound", "RoomNotFound",
           "answer", "close", "create", "info", "move", "progress", "report", "run_live", "set_deadline"]
