"""The live-class store: rooms, students, questions and answers in SQLite or PostgreSQL.

Every call is one short transaction, so any number of app processes can serve one class. Teacher
calls take the teacher key and raise ``PermissionError`` on a wrong one before changing anything;
student calls take the student id that :meth:`Store.join` returned. A room that ended or expired
is gone: every call on it raises :class:`RoomNotFound`.
"""

from __future__ import annotations

import contextlib
import datetime
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
from sqlalchemy import and_, delete, exists, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from classroom import codes, schema
from classroom.engine import make_engine, reclaim_deleted
from classroom.judge import is_right
from classroom.schema import answers, join_failures, questions, retired_codes, rooms, students

STATES = ("open", "locked", "revealed")
MAX_ANSWER = 200
# Wrong join codes a browser may type at full speed; then 5 s, and each further one doubles it, up to a minute.
FREE_WRONG_CODES = 5
MAX_JOIN_WAIT = 60.0
FORGET_FAILURES_AFTER = 15 * 60.0


class RoomNotFound(LookupError):
    """No open class has this code (never existed, ended, or expired)."""


class NicknameTaken(ValueError):
    """Another student of this class already has this nickname (``.nickname``)."""

    def __init__(self, text: str, nickname: str = ""):
        super().__init__(text)
        self.nickname = nickname


class AnswersClosed(PermissionError):
    """The question is no longer open (``.state``: locked or revealed): the answer was not recorded."""

    def __init__(self, state: str):
        super().__init__(f"Answers to this question are {state}: yours was not recorded.")
        self.state = state


class QuestionNotFound(LookupError):
    """The teacher never showed a question with this id in this class."""


@dataclass(frozen=True)
class Room:
    code: str
    teacher_key: str

    def __repr__(self) -> str:  # the key must not land in a log by accident
        return f"Room(code={self.code!r}, teacher_key=<hidden>)"


class Store:
    """One database of live classes; safe to share between threads (each call takes its own connection)."""

    def __init__(self, url: str, *, max_age: datetime.timedelta = datetime.timedelta(hours=12),
                 clock: Callable[[], float] = time.time):
        self.engine: Engine = make_engine(url)
        self.max_age = max_age.total_seconds()
        self.clock = clock
        with self._write() as connection:
            schema.create(connection)

    # ------------------------------------------------------------------ transactions

    def _write(self):
        """A transaction that will write (SQLite: BEGIN IMMEDIATE, so it waits for the lock up front)."""
        return self.engine.begin()

    @contextlib.contextmanager
    def _read(self):
        with self.engine.connect().execution_options(receval_read_only=True) as connection, connection.begin():
            yield connection

    def _room(self, connection: Connection, code: str):
        row = connection.execute(select(rooms).where(rooms.c.code == codes.normal_code(code))).first()
        if row is None:
            raise RoomNotFound(f"No class has the code {code!r}.")
        if row.created_at + self.max_age <= self.clock():
            raise _Expired(row.code)
        return row

    def _teacher_room(self, connection: Connection, code: str, teacher_key: str):
        row = self._room(connection, code)
        if not codes.same_secret(teacher_key, row.teacher_key_digest):
            raise PermissionError("That is not the teacher key of this class.")
        return row

    def _call(self, write: bool, work: Callable[[Connection], object]):
        try:
            with self._write() if write else self._read() as connection:
                return work(connection)
        except _Expired as expired:
            self.purge_expired()
            raise RoomNotFound(f"The class {expired.code!r} has expired.") from None

    # ------------------------------------------------------------------ rooms

    def create_room(self, lesson: str | None = None) -> Room:
        self.purge_expired()
        today = self._today()
        for _ in range(20):
            code, key = codes.new_code(), codes.new_teacher_key()
            try:
                with self._write() as connection:
                    retired = connection.execute(select(retired_codes.c.day).where(
                        retired_codes.c.code_digest == codes.digest(code))).scalar()
                    if retired == today:
                        continue
                    connection.execute(insert(rooms).values(
                        code=code, teacher_key_digest=codes.digest(key), lesson=lesson, step=0,
                        question_id=None, version=1, created_at=self.clock()))
                return Room(code, key)
            except IntegrityError:  # a live room holds this code: draw again
                continue
        raise RuntimeError("Could not find a free join code in 20 draws.")

    def end_room(self, code: str, teacher_key: str) -> None:
        """Delete the class and everything in it, so no file of the database still holds it."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            self._delete_rooms(connection, [row.code])
        self._call(True, work)
        reclaim_deleted(self.engine)

    def purge_expired(self) -> int:
        """Delete every room older than ``max_age`` with its data; how many were deleted."""
        with self._write() as connection:
            old = connection.execute(select(rooms.c.code).where(
                rooms.c.created_at <= self.clock() - self.max_age)).scalars().all()
            if old:
                self._delete_rooms(connection, old)
            connection.execute(delete(retired_codes).where(retired_codes.c.day != self._today()))
            connection.execute(delete(join_failures).where(
                join_failures.c.last_at < self.clock() - FORGET_FAILURES_AFTER))
        if old:
            reclaim_deleted(self.engine)
        return len(old)

    def _delete_rooms(self, connection: Connection, room_codes: list[str]) -> None:
        for table in (answers, questions, students):
            connection.execute(delete(table).where(table.c.room.in_(room_codes)))
        connection.execute(delete(rooms).where(rooms.c.code.in_(room_codes)))
        today = self._today()
        for code in room_codes:
            digest = codes.digest(code)
            connection.execute(delete(retired_codes).where(retired_codes.c.code_digest == digest))
            connection.execute(insert(retired_codes).values(code_digest=digest, day=today))

    def _today(self) -> str:
        return datetime.datetime.fromtimestamp(self.clock(), datetime.timezone.utc).date().isoformat()

    # ------------------------------------------------------------------ students

    def join(self, code: str, nickname: str) -> str:
        """A new student of the class; returns the student id (a secret of the student's)."""
        nickname = codes.check_nickname(nickname)
        student_id = codes.new_student_id()

        def work(connection):
            row = self._room(connection, code)
            connection.execute(insert(students).values(student_id=student_id, room=row.code, nickname=nickname,
                                                       hidden=False, joined_at=self.clock()))
        try:
            self._call(True, work)
        except IntegrityError:
            raise NicknameTaken(f"Someone in this class is already called {nickname!r}: choose another nickname.",
                                nickname) from None
        return student_id

    def student(self, code: str, student_id: str) -> dict:
        """What a student may know of themself: nickname and whether the teacher hid it."""
        def work(connection):
            row = self._room(connection, code)
            found = connection.execute(select(students.c.nickname, students.c.hidden).where(
                students.c.room == row.code, students.c.student_id == str(student_id))).first()
            if found is None:
                raise LookupError("This student is not in this class.")
            return {"nickname": found.nickname, "hidden": bool(found.hidden)}
        return self._call(False, work)

    def roster(self, code: str, teacher_key: str) -> pd.DataFrame:
        """Every student of the class: id, nickname, hidden, joined in order."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            return connection.execute(select(students.c.student_id, students.c.nickname, students.c.hidden)
                                      .where(students.c.room == row.code)
                                      .order_by(students.c.joined_at, students.c.nickname)).all()
        return pd.DataFrame(self._call(False, work), columns=["student_id", "nickname", "hidden"])

    def hide(self, code: str, teacher_key: str, student_id: str, hidden: bool = True) -> None:
        """Hide a nickname from every screen; the student's answers still count."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            connection.execute(update(students).where(students.c.room == row.code, students.c.student_id == student_id)
                               .values(hidden=bool(hidden)))
        self._call(True, work)

    def join_wait(self, browser: str) -> float:
        """Seconds this browser must wait before its next join code is tried (0 at first)."""
        with self._read() as connection:
            row = connection.execute(select(join_failures).where(
                join_failures.c.browser_digest == codes.digest(browser))).first()
        if row is None or row.failures < FREE_WRONG_CODES or row.last_at < self.clock() - FORGET_FAILURES_AFTER:
            return 0.0
        wait = min(MAX_JOIN_WAIT, 5.0 * 2.0 ** (row.failures - FREE_WRONG_CODES))
        return max(0.0, row.last_at + wait - self.clock())

    def wrong_code(self, browser: str) -> None:
        digest = codes.digest(browser)
        with self._write() as connection:
            done = connection.execute(update(join_failures).where(join_failures.c.browser_digest == digest).values(
                failures=join_failures.c.failures + 1, last_at=self.clock())).rowcount
            if not done:
                connection.execute(insert(join_failures).values(browser_digest=digest, failures=1, last_at=self.clock()))

    # ------------------------------------------------------------------ steps and questions

    def set_step(self, code: str, teacher_key: str, lesson: str | None, step: int, question_id: str | None = None,
                 right_answer: str | None = None) -> int:
        """Show ``step`` of ``lesson`` on every screen; returns the new version."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            if question_id is not None:
                known = connection.execute(select(questions.c.state).where(
                    questions.c.room == row.code, questions.c.question_id == question_id)).first()
                if known is None:
                    connection.execute(insert(questions).values(room=row.code, question_id=question_id,
                                                                right_answer=right_answer, state="open"))
                elif right_answer is not None:
                    connection.execute(update(questions).where(
                        questions.c.room == row.code, questions.c.question_id == question_id).values(
                        right_answer=right_answer))
            return self._bump(connection, row.code, lesson=lesson, step=int(step), question_id=question_id)
        return self._call(True, work)

    def _bump(self, connection: Connection, code: str, **values) -> int:
        connection.execute(update(rooms).where(rooms.c.code == code).values(version=rooms.c.version + 1, **values))
        return connection.execute(select(rooms.c.version).where(rooms.c.code == code)).scalar_one()

    def current(self, code: str) -> dict:
        """What every screen shows now; ``right_answer`` only once the question is revealed."""
        def work(connection):
            row = self._room(connection, code)
            question = None
            if row.question_id is not None:
                question = connection.execute(select(questions.c.state, questions.c.right_answer).where(
                    questions.c.room == row.code, questions.c.question_id == row.question_id)).first()
            state = question.state if question else "open"
            return {"code": row.code, "lesson": row.lesson, "step": row.step, "question_id": row.question_id,
                    "version": row.version, "state": state,
                    "right_answer": question.right_answer if question and state == "revealed" else None}
        return self._call(False, work)

    def question(self, code: str, question_id: str) -> dict:
        """One question's state (and its right answer once revealed), for a student's screen."""
        def work(connection):
            row = self._room(connection, code)
            found = self._question(connection, row.code, question_id)
            return {"question_id": question_id, "state": found.state,
                    "right_answer": found.right_answer if found.state == "revealed" else None}
        return self._call(False, work)

    def _question(self, connection: Connection, room: str, question_id: str):
        found = connection.execute(select(questions).where(
            questions.c.room == room, questions.c.question_id == str(question_id))).first()
        if found is None:
            raise QuestionNotFound(f"This class has no question {question_id!r}.")
        return found

    def _set_state(self, code: str, teacher_key: str, question_id: str, state: str, clear: bool = False) -> int:
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            self._question(connection, row.code, question_id)
            where = and_(questions.c.room == row.code, questions.c.question_id == question_id)
            if clear:
                connection.execute(delete(answers).where(answers.c.room == row.code,
                                                         answers.c.question_id == question_id))
            if state == "locked":  # locking a revealed question leaves it revealed
                where = and_(where, questions.c.state == "open")
            connection.execute(update(questions).where(where).values(state=state))
            return self._bump(connection, row.code)
        return self._call(True, work)

    def lock(self, code: str, teacher_key: str, question_id: str) -> int:
        return self._set_state(code, teacher_key, question_id, "locked")

    def reveal(self, code: str, teacher_key: str, question_id: str) -> int:
        return self._set_state(code, teacher_key, question_id, "revealed")

    def reset(self, code: str, teacher_key: str, question_id: str) -> int:
        """Open the question again with no answers."""
        return self._set_state(code, teacher_key, question_id, "open", clear=True)

    # ------------------------------------------------------------------ answers

    def answer(self, code: str, student_id: str, question_id: str, value: str) -> None:
        """Record (or replace) a student's answer while the question is open."""
        value = _check_answer(value)

        def work(connection):
            row = self._room(connection, code)
            found = self._question(connection, row.code, question_id)
            if found.state != "open":
                raise AnswersClosed(found.state)
            if not connection.execute(select(exists().where(students.c.room == row.code,
                                                            students.c.student_id == str(student_id)))).scalar():
                raise LookupError("This student is not in this class.")
            key = {"room": row.code, "question_id": str(question_id), "student_id": str(student_id)}
            statement = _upsert(connection)(answers).values(**key, value=value, answered_at=self.clock())
            connection.execute(statement.on_conflict_do_update(
                index_elements=list(key), set_={"value": value, "answered_at": statement.excluded.answered_at}))
        self._call(True, work)

    def my_answer(self, code: str, student_id: str, question_id: str) -> str | None:
        def work(connection):
            row = self._room(connection, code)
            return connection.execute(select(answers.c.value).where(
                answers.c.room == row.code, answers.c.question_id == str(question_id),
                answers.c.student_id == str(student_id))).scalar()
        return self._call(False, work)

    def tally(self, code: str, teacher_key: str, question_id: str) -> dict[str, int]:
        """How many students gave each answer (their last one), most given first."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            return self._counts(connection, row.code, question_id)
        return self._call(False, work)

    def distribution(self, code: str, question_id: str) -> dict[str, int]:
        """The tally as students may see it: only after the teacher revealed the question."""
        def work(connection):
            row = self._room(connection, code)
            if self._question(connection, row.code, question_id).state != "revealed":
                raise PermissionError("The class's answers are shown only after the teacher reveals them.")
            return self._counts(connection, row.code, question_id)
        return self._call(False, work)

    def _counts(self, connection: Connection, room: str, question_id: str) -> dict[str, int]:
        count = func.count().label("n")
        rows = connection.execute(select(answers.c.value, count).where(
            answers.c.room == room, answers.c.question_id == str(question_id))
            .group_by(answers.c.value).order_by(count.desc(), answers.c.value)).all()
        return {value: n for value, n in rows}

    def export(self, code: str, teacher_key: str) -> pd.DataFrame:
        """One row per student and question with the last answer, whether it is right, and when."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            return connection.execute(
                select(students.c.nickname, students.c.hidden, answers.c.question_id, answers.c.value,
                       questions.c.right_answer, answers.c.answered_at)
                .join(students, students.c.student_id == answers.c.student_id)
                .join(questions, and_(questions.c.room == answers.c.room,
                                      questions.c.question_id == answers.c.question_id))
                .where(answers.c.room == row.code)
                .order_by(answers.c.question_id, answers.c.answered_at, students.c.nickname)).all()
        rows = self._call(False, work)
        frame = pd.DataFrame({
            "nickname": pd.Series([r.nickname for r in rows], dtype=object),
            "hidden": pd.Series([bool(r.hidden) for r in rows], dtype=bool),
            "question": pd.Series([r.question_id for r in rows], dtype=object),
            "answer": pd.Series([r.value for r in rows], dtype=object),
            "right": pd.Series([is_right(r.value, r.right_answer) for r in rows], dtype=object),
            "answered_at": pd.to_datetime(pd.Series([r.answered_at for r in rows], dtype=float), unit="s", utc=True),
        })
        return frame


class _Expired(Exception):
    def __init__(self, code: str):
        self.code = code


def _upsert(connection: Connection):
    if connection.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as upsert
    else:
        from sqlalchemy.dialects.sqlite import insert as upsert
    return upsert


def _check_answer(value: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("An answer must be non-empty text.")
    if len(value) > MAX_ANSWER:
        raise ValueError(f"That answer is {len(value)} characters long; at most {MAX_ANSWER}.")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in value):
        raise ValueError("An answer cannot hold control characters.")
    return value
