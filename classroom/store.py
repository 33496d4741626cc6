"""The live-class store: rooms, students, questions and answers in SQLite or PostgreSQL.

Every call is one short transaction, so any number of app processes can serve one class. Teacher
calls take the teacher key and raise ``PermissionError`` on a wrong one before changing anything;
student calls take the student id that :meth:`Store.join` returned. A room that ended or expired
is gone: every call on it raises :class:`RoomNotFound`.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
from sqlalchemy import and_, bindparam, case, delete, exists, false, func, insert, or_, select, true, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from classroom import codes, limits, schema
from classroom.engine import make_engine, reclaim_deleted
from classroom.judge import is_right
from classroom.limits import JoinThrottled
from classroom.schema import (answers, join_failures, questions, refused_joins, retired_codes, room_lessons, rooms,
                              students, throttle)
from classroom.steps import file_lesson_key, is_known, know_file_lesson, live_step
from classroom import variants
from content.lessons.file_reader import read_lesson

STATES = ("open", "locked", "revealed")
MAX_ANSWER = 200
MAX_STUDENTS = 1000  # a lecture hall; a flood of joins stops here even from many addresses
MAX_TIMER = 3600
ANONYMOUS = "Student {tag}"
ROUND = "#"
MAX_ROOM_LESSONS = 20  # lesson files one class keeps (each up to 64 KB): a class's, not a library
ROSTER_PAGE = 50  # students on one page of the teacher's roster  # a question asked again: "<question id>#2", "#3", ...


class RoomNotFound(LookupError):
    """No open class has this code (never existed, ended, or expired)."""


class NicknameTaken(ValueError):
    """This nickname, or one that looks the same (``codes.nickname_key``), is in use in this class. The
    message says only that it cannot be used, not that someone of that name is in the class."""

    def __init__(self, text: str = "That nickname cannot be used in this class: choose another one.",
                 nickname: str = ""):
        super().__init__(text)
        self.nickname = nickname


class ClassFull(PermissionError):
    """The class has as many students as it may (``.most``)."""

    def __init__(self, most: int):
        super().__init__(f"This class is full ({most} students).")
        self.most = most


class RoomLocked(PermissionError):
    """The teacher locked the class: no one new may join until they unlock it."""

    def __init__(self):
        super().__init__("The teacher has locked this class: no one new can join.")


class AnswersClosed(PermissionError):
    """The question is no longer open (``.state``: locked or revealed): the answer was not recorded."""

    def __init__(self, state: str):
        super().__init__(f"Answers to this question are {state}: yours was not recorded.")
        self.state = state


class TooManyLessons(ValueError):
    """A class keeps at most ``most`` lesson files (``Store.use_lesson``)."""

    def __init__(self, most: int):
        super().__init__(f"A class runs at most {most} lesson files.")
        self.most = most


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
                 clock: Callable[[], float] = time.time, max_students: int = MAX_STUDENTS,
                 join_burst: int = limits.JOIN_BURST, join_every: float = limits.JOIN_EVERY):
        self.engine: Engine = make_engine(url)
        self.max_age = max_age.total_seconds()
        self.clock = clock
        self.max_students, self.join_burst, self.join_every = int(max_students), int(join_burst), float(join_every)
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

    def _room(self, connection: Connection, code: str, lock: bool = False):
        query = select(rooms).where(rooms.c.code == codes.normal_code(code))
        return self._alive(connection.execute(query.with_for_update() if lock else query).first(), code)

    def _alive(self, row, code: str):
        """A room's row, unless there is none (RoomNotFound) or it expired."""
        if row is None:
            raise RoomNotFound(f"No class has the code {code!r}.")
        if (row.expires_at if row.expires_at is not None else row.created_at + self.max_age) <= self.clock():
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

    def create_room(self, lesson: str | None = None, join_question: str | None = None) -> Room:
        """A new class. ``join_question`` (e.g. "Student number"): what each student answers when joining,
        besides the nickname; the gradebook's rows are joined on it (:meth:`gradebook`)."""
        if join_question is not None:
            join_question = codes.check_nickname(join_question) if join_question.strip() else None
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
                        question_id=None, version=1, created_at=self.clock(), seed=secrets.token_hex(8),
                        join_question=join_question))
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

    def use_lesson(self, code: str, teacher_key: str, text: str) -> str:
        """Keep a lesson file's text with the class, so every process shows its steps; returns the ``lesson``
        to pass to :meth:`set_step` (``file:`` and a digest of the text). Raises ``ValueError`` with the
        file's problems (the lessons page's loader) when it is not a lesson."""
        loaded = read_lesson(text)
        if loaded.lesson is None:
            raise ValueError("; ".join(p.text() for p in loaded.problems))
        key = file_lesson_key(text)

        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            kept = connection.execute(select(room_lessons.c.lesson)
                                      .where(room_lessons.c.room == row.code)).scalars().all()
            if key not in kept and len(kept) >= MAX_ROOM_LESSONS:
                raise TooManyLessons(MAX_ROOM_LESSONS)
            connection.execute(_upsert(connection)(room_lessons).values(room=row.code, lesson=key, text=text)
                               .on_conflict_do_nothing(index_elements=["room", "lesson"]))
        self._call(True, work)
        know_file_lesson(key, text)
        return key

    def _know(self, connection: Connection, room: str, lesson: str | None) -> None:
        """Read a room's lesson file into this process the first time one of its steps is needed."""
        if is_known(lesson):
            return
        text = connection.execute(select(room_lessons.c.text).where(room_lessons.c.room == room,
                                                                    room_lessons.c.lesson == lesson)).scalar()
        if text is not None:
            know_file_lesson(lesson, text)

    def purge_expired(self) -> int:
        """Delete every room older than ``max_age`` with its data; how many were deleted."""
        with self._write() as connection:
            old = connection.execute(select(rooms.c.code).where(or_(
                and_(rooms.c.expires_at.is_(None), rooms.c.created_at <= self.clock() - self.max_age),
                rooms.c.expires_at <= self.clock()))).scalars().all()
            if old:
                self._delete_rooms(connection, old)
            connection.execute(delete(retired_codes).where(retired_codes.c.day != self._today()))
            connection.execute(delete(join_failures).where(
                join_failures.c.last_at < self.clock() - limits.FORGET_FAILURES_AFTER))
            connection.execute(delete(throttle).where(  # a bucket this old is full again: the same as no row
                throttle.c.updated_at < self.clock() - self.join_burst * self.join_every))
            connection.execute(delete(refused_joins).where(
                refused_joins.c.minute <= int(self.clock() // 60) - limits.REFUSED_MINUTES))
        if old:
            reclaim_deleted(self.engine)
        return len(old)

    def _delete_rooms(self, connection: Connection, room_codes: list[str]) -> None:
        for table in (answers, questions, students, refused_joins, room_lessons):
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

    def join(self, code: str, nickname: str | None = None, *, client: str | None = None,
             anonymous: str = ANONYMOUS, identifier: str | None = None) -> str:
        """A new student of the class; returns the student id (a secret of the student's).

        ``nickname`` None draws an anonymous one from ``anonymous`` (its ``{tag}`` filled in, in the
        student's language). ``client`` is the address the limits are keyed on (classroom.clients); None
        (this machine, a test) is not limited. Raises, in this order: :class:`JoinThrottled` (wrong codes),
        ``NicknameError``, :class:`RoomNotFound` (counted as a wrong code), :class:`RoomLocked`,
        :class:`ClassFull`, :class:`JoinThrottled` (joins), :class:`NicknameTaken`. The room counts each
        refusal from :class:`RoomLocked` to :class:`JoinThrottled` (:meth:`join_status`): the teacher sees a flood.
        """
        if client is not None:
            wait = self.join_wait(client)
            if wait:
                raise JoinThrottled("wrong_codes", wait)
        if nickname is not None:
            nickname = codes.check_nickname(nickname)
        if identifier is not None:
            identifier = codes.check_nickname(identifier) if identifier.strip() else None
        student_id = codes.new_student_id()

        def work(connection):
            row = self._room(connection, code, lock=True)  # joins to one room one at a time: the cap holds
            if row.join_question and identifier is None:
                return codes.NicknameError("Answer the class's question to join.", "identifier_empty")
            if row.locked:
                return self._refuse(connection, row.code, "locked", RoomLocked())
            present = connection.execute(select(func.count()).select_from(students).where(
                students.c.room == row.code, _present())).scalar_one()
            if present >= self.max_students:
                return self._refuse(connection, row.code, "full", ClassFull(self.max_students))
            if client is not None:
                wait = limits.take_join_token(connection, _upsert(connection), client, self.clock(),
                                              self.join_burst, self.join_every)
                if wait:
                    return self._refuse(connection, row.code, "address", JoinThrottled("joins", wait))
            names = [nickname] if nickname is not None else [anonymous.format(tag=codes.anonymous_tag())
                                                             for _ in range(20)]
            for name in names:
                key = codes.nickname_key(name)
                taken = connection.execute(select(exists().where(
                    students.c.room == row.code, or_(students.c.nickname_key == key, students.c.nickname == name)))
                ).scalar()
                if not taken:
                    connection.execute(insert(students).values(
                        student_id=student_id, room=row.code, nickname=name, nickname_key=key, hidden=False,
                        removed=False, joined_at=self.clock(), identifier=identifier if row.join_question else None,
                        identifier_key=codes.nickname_key(identifier) if row.join_question and identifier else None))
                    return None
            return NicknameTaken(nickname=nickname or "")  # the spent join token stays spent: probing costs
        try:
            problem = self._call(True, work)
        except RoomNotFound:
            if client is not None:
                self.wrong_code(client)
            raise
        except IntegrityError:  # the same name in the same instant from another process
            raise NicknameTaken(nickname=nickname or "") from None
        if problem is not None:
            raise problem
        return student_id

    def _refuse(self, connection: Connection, room: str, reason: str, problem: Exception) -> Exception:
        limits.count_refused(connection, _upsert(connection), room, reason, self.clock())
        return problem

    def lock_room(self, code: str, teacher_key: str, locked: bool = True) -> None:
        """Lock the class once everyone is in (no one new may join: :class:`RoomLocked`), or unlock it.
        The students in it stay and answer as before; the screens do not change, so no version moves."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            connection.execute(update(rooms).where(rooms.c.code == row.code).values(locked=bool(locked)))
        self._call(True, work)

    def join_status(self, code: str, teacher_key: str) -> dict:
        """For the teacher: ``locked``, and ``refused``: the joins refused in the last
        ``limits.REFUSED_MINUTES`` minutes by reason (``address``: too many from one address, ``full``: past
        the cap, ``locked``: after the lock)."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            return {"locked": bool(row.locked), "refused": limits.refused_since(connection, row.code, self.clock())}
        return self._call(False, work)

    def student(self, code: str, student_id: str) -> dict:
        """What a student may know of themself: nickname and whether the teacher hid it."""
        def work(connection):
            row = self._room(connection, code)
            found = connection.execute(select(students.c.nickname, students.c.hidden).where(
                students.c.room == row.code, students.c.student_id == str(student_id), _present())).first()
            if found is None:
                raise LookupError("This student is not in this class.")
            return {"nickname": found.nickname, "hidden": bool(found.hidden)}
        return self._call(False, work)

    def roster(self, code: str, teacher_key: str) -> pd.DataFrame:
        """Every student in the class (not the removed): id, nickname, hidden, joined in order."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            return connection.execute(select(students.c.student_id, students.c.nickname, students.c.hidden)
                                      .where(students.c.room == row.code, _present())
                                      .order_by(students.c.joined_at, students.c.nickname)).all()
        return pd.DataFrame(self._call(False, work), columns=["student_id", "nickname", "hidden"])

    def roster_page(self, code: str, teacher_key: str, search: str = "", offset: int = 0,
                    limit: int = ROSTER_PAGE) -> tuple[pd.DataFrame, int]:
        """One page of :meth:`roster` (``limit`` students from ``offset``, in the order they joined) and how many
        students match: ``search`` finds a nickname by any part of it, compared as :func:`codes.nickname_key`
        compares names ("ann" finds "ANN" and "Ａｎｎ"). A console of 1,000 students reads a page, not 1,000 rows."""
        typed = str(search or "").strip()[:codes.MAX_NICKNAME * 4]

        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            where = [students.c.room == row.code, _present()]
            if typed:
                where.append(or_(students.c.nickname_key.contains(codes.nickname_key(typed), autoescape=True),
                                 students.c.nickname.contains(typed, autoescape=True)))
            total = connection.execute(select(func.count()).select_from(students).where(*where)).scalar_one()
            found = connection.execute(select(students.c.student_id, students.c.nickname, students.c.hidden)
                                       .where(*where).order_by(students.c.joined_at, students.c.nickname)
                                       .limit(max(int(limit), 0)).offset(max(int(offset), 0))).all()
            return found, total
        found, total = self._call(False, work)
        return pd.DataFrame(found, columns=["student_id", "nickname", "hidden"]), total

    def hide(self, code: str, teacher_key: str, student_id: str, hidden: bool = True) -> None:
        """Hide a nickname from every screen; the student's answers still count."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            connection.execute(update(students).where(students.c.room == row.code, students.c.student_id == student_id)
                               .values(hidden=bool(hidden)))
        self._call(True, work)

    def remove(self, code: str, teacher_key: str, student_id: str, keep_answers: bool = False) -> None:
        """Take a student out of the class: out of the roster and the counts, unable to answer or see the
        class as that student. ``keep_answers`` keeps their answers in the tallies and the export (and their
        nickname in use); otherwise the answers and the nickname are deleted."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            mine = and_(students.c.room == row.code, students.c.student_id == str(student_id))
            if keep_answers:
                connection.execute(update(students).where(mine).values(removed=True))
            else:
                connection.execute(delete(answers).where(answers.c.room == row.code,
                                                         answers.c.student_id == str(student_id)))
                connection.execute(delete(students).where(mine))
            return self._bump(connection, row.code)
        self._call(True, work)

    def join_wait(self, client: str) -> int:
        """Whole seconds this client address must wait before its next join code is tried (0 at first)."""
        with self._read() as connection:
            return limits.wrong_code_wait(connection, client, self.clock())

    def wrong_code(self, client: str) -> None:
        """Count a wrong join code against this client address (join counts its own)."""
        with self._write() as connection:
            limits.count_wrong_code(connection, _upsert(connection), client, self.clock())

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
                    connection.execute(insert(questions).values(
                        room=row.code, question_id=question_id, right_answer=right_answer, state="open",
                        lesson=lesson, step=int(step), asked_at=self.clock()))
                elif right_answer is not None:
                    connection.execute(update(questions).where(
                        questions.c.room == row.code, questions.c.question_id == question_id).values(
                        right_answer=right_answer))
                question = self._latest_round(connection, row.code, question_id)
            else:
                question = None
            return self._bump(connection, row.code, lesson=lesson, step=int(step), question_id=question)
        return self._call(True, work)

    def _latest_round(self, connection: Connection, room: str, question_id: str) -> str:
        """The last time this question was asked (``question_id`` or ``question_id#n``): coming back to its
        step shows the last round, not the first."""
        found = connection.execute(select(questions.c.question_id).where(
            questions.c.room == room, or_(questions.c.question_id == question_id,
                                          questions.c.question_id.startswith(question_id + ROUND, autoescape=True)))
        ).scalars().all()
        return max(found, key=round_number, default=question_id)

    def _bump(self, connection: Connection, code: str, **values) -> int:
        connection.execute(update(rooms).where(rooms.c.code == code).values(version=rooms.c.version + 1, **values))
        return connection.execute(select(rooms.c.version).where(rooms.c.code == code)).scalar_one()

    def current(self, code: str) -> dict:
        """What every screen shows now; ``right_answer`` only once the question is revealed."""
        def work(connection):
            return self._now(connection, self._room(connection, code))
        return self._call(False, work)

    def pulse(self, code: str, teacher_key: str, question_id: str | None = None) -> dict:
        """What the teacher's console polls every second, in one read of a few aggregates whatever the class's
        size: :meth:`current`, ``joined``, ``locked`` (:meth:`lock_room`) and, for ``question_id``, ``answered``
        (as :meth:`counts`), ``last_answer`` (when the latest of those answers came) and ``hidden_answered`` (how
        many of them have a hidden nickname). The last three change whenever the list of :meth:`who_answered` would."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            now = self._now(connection, row)
            now["joined"] = connection.execute(select(func.count()).select_from(students).where(
                students.c.room == row.code, _present())).scalar_one()
            now["locked"] = bool(row.locked)
            now["answered"], now["last_answer"], now["hidden_answered"] = 0, None, 0
            if question_id is not None:
                hidden = func.coalesce(func.sum(case((students.c.hidden == true(), 1), else_=0)), 0)
                answered, last, hidden_count = connection.execute(
                    select(func.count(), func.max(answers.c.answered_at), hidden)
                    .select_from(answers.join(students, students.c.student_id == answers.c.student_id))
                    .where(answers.c.room == row.code, answers.c.question_id == str(question_id), _present())).one()
                now["answered"], now["last_answer"], now["hidden_answered"] = answered, last, int(hidden_count)
            return now
        return self._call(False, work)

    def _now(self, connection: Connection, row) -> dict:
        self._know(connection, row.code, row.lesson)
        question = None
        if row.question_id is not None:
            question = connection.execute(select(questions.c.state, questions.c.right_answer,
                                                 questions.c.deadline).where(
                questions.c.room == row.code, questions.c.question_id == row.question_id)).first()
        now = self.clock()
        state = self._state(question, now) if question else "open"
        deadline = question.deadline if question and state == "open" else None
        return {"code": row.code, "lesson": row.lesson, "step": row.step, "question_id": row.question_id,
                "version": row.version, "state": state,
                "right_answer": question.right_answer if question and state == "revealed" else None,
                "base_question": base_question(row.question_id) if row.question_id else None,
                "round": round_number(row.question_id) if row.question_id else None,
                "deadline": deadline, "seconds_left": limits.whole_seconds(deadline - now) if deadline else None,
                "anonymous": bool(row.anonymous), "finished": bool(row.finished), "seed": row.seed or row.code,
                "join_question": row.join_question, "homework": bool(row.homework), "closes_at": row.closes_at}

    def question(self, code: str, question_id: str) -> dict:
        """One question's state (and its right answer once revealed), for a student's screen."""
        def work(connection):
            row = self._room(connection, code)
            found = self._question(connection, row.code, question_id)
            state = self._state(found, self.clock())
            return {"question_id": question_id, "state": state,
                    "right_answer": found.right_answer if state == "revealed" else None}
        return self._call(False, work)

    def _question(self, connection: Connection, room: str, question_id: str):
        found = connection.execute(select(questions).where(
            questions.c.room == room, questions.c.question_id == str(question_id))).first()
        if found is None:
            raise QuestionNotFound(f"This class has no question {question_id!r}.")
        return found

    @staticmethod
    def _state(question, now: float) -> str:
        """The question's state as every screen sees it: an open question whose timer ran out is locked."""
        if question.state == "open" and question.deadline is not None and question.deadline <= now:
            return "locked"
        return question.state

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
            connection.execute(update(questions).where(where).values(
                state=state, **({"deadline": None} if state == "open" else {})))
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
            if row.homework:  # a homework's answers are final and judged at once: only classroom.homework takes them
                raise AnswersClosed("locked")
            if self._state(found, self.clock()) != "open":
                raise AnswersClosed(self._state(found, self.clock()))
            if not connection.execute(select(exists().where(students.c.room == row.code, _present(),
                                                            students.c.student_id == str(student_id)))).scalar():
                raise LookupError("This student is not in this class.")
            key = {"room": row.code, "question_id": str(question_id), "student_id": str(student_id)}
            statement = _upsert(connection)(answers).values(**key, value=value, answered_at=self.clock())
            connection.execute(statement.on_conflict_do_update(
                index_elements=list(key), set_={"value": value, "answered_at": statement.excluded.answered_at}))
        self._call(True, work)

    def own_part(self, code: str, student_id: str, question_id: str,
                 known: dict | None = None) -> tuple[dict, str | None]:
        """For one student's own part of a question (a phone's ``/mine``), in one read: the room as :meth:`current`
        gives it, and their answer to ``question_id`` (None: none); ``LookupError`` if they are not in the class.
        ``known``: a :meth:`current` this process already holds (its event streams' feed), used only while the
        room is that one (its seed) at that version, else the room is read here. A step change, a lock and a reveal
        each move the version; a timer running out does not, so its ``state`` may still say open."""
        student_id, question_id = str(student_id), str(question_id)

        def work(connection):
            row = self._alive(connection.execute(_own_part_query(), {
                "code": codes.normal_code(code), "student": student_id, "question": question_id}).first(), code)
            if row.member is None:
                raise LookupError("This student is not in this class.")
            if known is not None and (known["code"], known["version"], known["seed"]) == (
                    row.code, row.version, row.seed or row.code):
                return known, row.mine
            return self._now(connection, row), row.mine
        return self._call(False, work)

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
            if self._state(self._question(connection, row.code, question_id), self.clock()) != "revealed":
                raise PermissionError("The class's answers are shown only after the teacher reveals them.")
            return self._counts(connection, row.code, question_id)
        return self._call(False, work)

    def _counts(self, connection: Connection, room: str, question_id: str) -> dict[str, int]:
        count = func.count().label("n")
        rows = connection.execute(select(answers.c.value, count).where(
            answers.c.room == room, answers.c.question_id == str(question_id))
            .group_by(answers.c.value).order_by(count.desc(), answers.c.value)).all()
        return {value: n for value, n in rows}

    def counts(self, code: str, teacher_key: str, question_id: str | None = None) -> dict:
        """``joined``: students in the class (hidden ones too, removed ones not); ``answered``: how many of
        them answered ``question_id`` (0 without one)."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            joined = connection.execute(select(func.count()).select_from(students).where(
                students.c.room == row.code, _present())).scalar_one()
            answered = 0 if question_id is None else connection.execute(
                select(func.count()).select_from(answers.join(students, students.c.student_id == answers.c.student_id))
                .where(answers.c.room == row.code, answers.c.question_id == str(question_id), _present())).scalar_one()
            return {"joined": joined, "answered": answered}
        return self._call(False, work)

    def who_answered(self, code: str, teacher_key: str, question_id: str, limit: int | None = None) -> list[str | None]:
        """The nicknames of the students in the class who answered, in the order they answered (the first
        ``limit`` of them when given); None for a hidden nickname, and for every one in anonymous mode (the
        count still shows)."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            found = connection.execute(select(students.c.nickname, students.c.hidden).select_from(
                answers.join(students, students.c.student_id == answers.c.student_id))
                .where(answers.c.room == row.code, answers.c.question_id == str(question_id), _present())
                .order_by(answers.c.answered_at, answers.c.student_id).limit(limit)).all()
            return [None if row.anonymous or hidden else nickname for nickname, hidden in found]
        return self._call(False, work)

    # ------------------------------------------------------------------ classroom features

    def start_timer(self, code: str, teacher_key: str, question_id: str, seconds: float | None) -> int:
        """Answers to ``question_id`` lock ``seconds`` from now (None: no timer). The deadline is in the
        database, so every process and every view lock at the same moment; :meth:`current` says what is left."""
        if seconds is not None and not 1 <= float(seconds) <= MAX_TIMER:
            raise ValueError(f"A timer runs 1 to {MAX_TIMER} seconds, not {seconds}.")

        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            found = self._question(connection, row.code, question_id)
            if self._state(found, self.clock()) != "open":
                raise AnswersClosed(self._state(found, self.clock()))
            connection.execute(update(questions).where(
                questions.c.room == row.code, questions.c.question_id == str(question_id)).values(
                deadline=None if seconds is None else self.clock() + float(seconds)))
            return self._bump(connection, row.code)
        return self._call(True, work)

    def set_anonymous(self, code: str, teacher_key: str, anonymous: bool = True) -> int:
        """Anonymous mode: no screen of the class shows a nickname (:meth:`who_answered` gives None)."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            return self._bump(connection, row.code, anonymous=bool(anonymous))
        return self._call(True, work)

    def ask_again(self, code: str, teacher_key: str, question_id: str) -> str:
        """Ask a question again (after teaching, to compare): a new round, open and empty, becomes the
        class's question; the earlier rounds keep their answers. Returns the new round's id."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            base = base_question(question_id)
            first = self._question(connection, row.code, base)
            latest = self._latest_round(connection, row.code, base)
            again = f"{base}{ROUND}{round_number(latest) + 1}"
            connection.execute(insert(questions).values(
                room=row.code, question_id=again, right_answer=first.right_answer, state="open", lesson=first.lesson,
                step=first.step, asked_at=self.clock()))
            self._bump(connection, row.code, question_id=again)
            return again
        return self._call(True, work)

    def rounds(self, code: str, teacher_key: str, question_id: str) -> list[dict]:
        """Every round of a question, first to last: id, round, state and tally, to compare before and after."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            base = base_question(question_id)
            found = connection.execute(select(questions.c.question_id, questions.c.state, questions.c.deadline).where(
                questions.c.room == row.code, or_(questions.c.question_id == base,
                                                  questions.c.question_id.startswith(base + ROUND, autoescape=True)))
            ).all()
            return [{"question_id": q.question_id, "round": round_number(q.question_id),
                     "state": self._state(q, self.clock()), "tally": self._counts(connection, row.code, q.question_id)}
                    for q in sorted(found, key=lambda q: round_number(q.question_id))]
        return self._call(False, work)

    def finish(self, code: str, teacher_key: str, finished: bool = True) -> int:
        """The end of the lesson: every open question locks, and each student sees their own answers
        against the right ones (:meth:`my_answers`), until the teacher ends the class."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            if finished:
                connection.execute(update(questions).where(questions.c.room == row.code, questions.c.state == "open")
                                   .values(state="locked"))
            return self._bump(connection, row.code, finished=bool(finished))
        return self._call(True, work)

    def my_answers(self, code: str, student_id: str) -> list[dict]:
        """One student's own answers, in the order the questions were asked: question id, lesson, step,
        round, the answer, and, once the question is revealed or the lesson finished, the right answer and
        whether theirs is right (None before). Questions they did not answer are listed with answer None."""
        def work(connection):
            row = self._room(connection, code)
            if not connection.execute(select(exists().where(students.c.room == row.code, _present(),
                                                            students.c.student_id == str(student_id)))).scalar():
                raise LookupError("This student is not in this class.")
            mine = answers.c.student_id == str(student_id)
            found = connection.execute(
                select(questions, answers.c.value)
                .select_from(questions.outerjoin(answers, and_(answers.c.room == questions.c.room,
                                                               answers.c.question_id == questions.c.question_id, mine)))
                .where(questions.c.room == row.code)).all()
            for lesson in {q.lesson for q in found}:
                self._know(connection, row.code, lesson)
            now, finished, seed = self.clock(), bool(row.finished), row.seed or row.code
            shown = []
            for q in sorted(found, key=lambda q: (q.asked_at or 0.0, q.question_id)):
                told = finished or self._state(q, now) == "revealed"
                shown.append({"question_id": q.question_id, "lesson": q.lesson, "step": q.step,
                              "round": round_number(q.question_id), "answer": q.value,
                              "right_answer": q.right_answer if told else None,
                              "right": verdict(q.lesson, q.step, q.question_id, str(student_id), q.value,
                                               q.right_answer, seed)[0] if told and q.value is not None else None})
            return shown
        return self._call(False, work)

    def export(self, code: str, teacher_key: str) -> pd.DataFrame:
        """One row per student and question with the last answer, in the order they were given: when, the
        question (id, lesson and step it was asked on), the nickname, the answer and whether it is right; for a
        variant question the student's own list (``scenario``) and their right value (``right_value``).
        ``classroom.export`` turns it into a CSV a spreadsheet opens safely."""
        def work(connection):
            row = self._teacher_room(connection, code, teacher_key)
            found = connection.execute(
                select(students.c.nickname, students.c.hidden, students.c.identifier, answers.c.student_id,
                       answers.c.question_id, answers.c.value, questions.c.right_answer, answers.c.answered_at,
                       questions.c.lesson, questions.c.step)
                .join(students, students.c.student_id == answers.c.student_id)
                .join(questions, and_(questions.c.room == answers.c.room,
                                      questions.c.question_id == answers.c.question_id))
                .where(answers.c.room == row.code)
                .order_by(answers.c.answered_at, answers.c.question_id, students.c.nickname)).all()
            for lesson in {r.lesson for r in found}:
                self._know(connection, row.code, lesson)
            return found, row.seed or row.code
        rows, seed = self._call(False, work)
        judged = [verdict(r.lesson, r.step, r.question_id, r.student_id, r.value, r.right_answer, seed) for r in rows]
        frame = pd.DataFrame({
            "answered_at": pd.to_datetime(pd.Series([r.answered_at for r in rows], dtype=float), unit="s", utc=True),
            "question": pd.Series([r.question_id for r in rows], dtype=object),
            "lesson": pd.Series([r.lesson for r in rows], dtype=object),
            "step": pd.Series([r.step for r in rows], dtype=object),
            "round": pd.Series([round_number(r.question_id) for r in rows], dtype=int),
            "nickname": pd.Series([r.nickname for r in rows], dtype=object),
            "identifier": pd.Series([r.identifier for r in rows], dtype=object),
            "hidden": pd.Series([bool(r.hidden) for r in rows], dtype=bool),
            "answer": pd.Series([r.value for r in rows], dtype=object),
            "right": pd.Series([j[0] for j in judged], dtype=object),
            "scenario": pd.Series([j[1] for j in judged], dtype=object),
            "right_value": pd.Series([j[2] for j in judged], dtype=object),
        })
        return frame

    # ------------------------------------------------------------------ variants and the gradebook

    def answers_by_student(self, code: str, question_id: str, teacher_key: str | None = None) -> dict[str, str]:
        """{student id: answer} of the students in the class: for the teacher's key at any time, else (a phone's
        screen, which judges each student against their own list) only once the question is revealed."""
        def work(connection):
            row = self._room(connection, code) if teacher_key is None else \
                self._teacher_room(connection, code, teacher_key)
            if teacher_key is None and self._state(self._question(connection, row.code, question_id),
                                                   self.clock()) != "revealed":
                raise PermissionError("The class's answers are shown only after the teacher reveals them.")
            return dict(connection.execute(select(answers.c.student_id, answers.c.value)
                                           .join(students, students.c.student_id == answers.c.student_id)
                                           .where(answers.c.room == row.code,
                                                  answers.c.question_id == str(question_id), _present())).all())
        return self._call(False, work)


def verdict(lesson: str | None, step_index: int | None, question_id: str, student_id: str, value: str | None,
            right_answer: str | None, seed: str) -> tuple[bool | None, str | None, str | None]:
    """(right, the student's own list, the student's right value) of one answer: a variant question judged
    against the student's list, a typed number to the question's tolerance, an option by its label."""
    step = live_step(lesson, int(step_index)) if lesson is not None and step_index is not None else None
    if value is None:
        return None, None, None
    if step is not None and step.variant is not None:
        scenario = variants.draw(step.lesson_step, seed, student_id, base_question(question_id))
        judged = variants.judge(step.lesson_step, scenario, value)
        return bool(judged.right), variants.describe(scenario), f"{judged.value:.4f}"
    if step is not None:
        return step.judge(value), None, None
    return is_right(value, right_answer), None, None


def _present():
    """Students still in the class (``removed`` is NULL in rooms made before students could be removed)."""
    return or_(students.c.removed.is_(None), students.c.removed == false())


@functools.cache
def _own_part_query():
    """:meth:`Store.own_part`'s one statement: the room's row, the student if present (``member``), their answer
    (``mine``). Built once: every phone asks at the same moment, and building it cost as much as running it."""
    student = bindparam("student")
    return (select(rooms, students.c.student_id.label("member"), answers.c.value.label("mine"))
            .select_from(rooms.outerjoin(students, and_(students.c.room == rooms.c.code, _present(),
                                                        students.c.student_id == student))
                         .outerjoin(answers, and_(answers.c.room == rooms.c.code, answers.c.student_id == student,
                                                  answers.c.question_id == bindparam("question"))))
            .where(rooms.c.code == bindparam("code")))


def base_question(question_id: str) -> str:
    """The question a round belongs to: ``topn:2#3`` -> ``topn:2``."""
    return re.sub(rf"{ROUND}\d+$", "", str(question_id))


def round_number(question_id: str) -> int:
    """1 for a question asked once, n for ``...#n``."""
    found = re.search(rf"{ROUND}(\d+)$", str(question_id))
    return int(found.group(1)) if found else 1


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
