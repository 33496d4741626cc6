"""Which browsers are a class's teacher: the teacher keeps the class across reloads, restarts and devices.

A browser is known by a random device id in an HttpOnly cookie (``classroom.web.teacher`` sets it);
the database keeps the id's digest and, per class, the teacher key sealed with the id, so neither the
database alone nor the cookie of another browser opens a console. A phone becomes a remote through a
one-time claim token (minutes long), whose row holds the key sealed with the token the same way.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable

from sqlalchemy import (Boolean, Column, Float, MetaData, PrimaryKeyConstraint, String, Table, Text, delete, insert,
                        select)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.schema import CreateTable

from classroom import codes
from classroom.gradebook import Mark
from classroom.schema import rooms
from content.lessons.file_reader import Loaded, read_lesson
from content.lessons.library import checked_id
from content.lessons import BY_KEY

CLAIM_SECONDS = 5 * 60
MOST_LESSONS = 50            # lesson files one teacher keeps ("My lessons")
MARKS_DAYS = 180             # a gradebook's marks are kept this long (a term and its resits), then deleted
DEVICE_COOKIE = "receval_device"
DEVICE_DAYS = 30

_metadata = MetaData()
devices = Table(
    "live_teacher_devices", _metadata,
    Column("device_digest", String(64), nullable=False),
    Column("room", String(8), nullable=False),
    Column("sealed_key", Text, nullable=False),
    Column("bound_at", Float, nullable=False),
    PrimaryKeyConstraint("device_digest", "room"),
)
claims = Table(
    "live_teacher_claims", _metadata,
    Column("token_digest", String(64), primary_key=True),
    Column("room", String(8), nullable=False),
    Column("sealed_key", Text, nullable=False),
    Column("expires_at", Float, nullable=False),
)

# "My lessons": the lesson files a teacher opened, kept per teacher as "My classes" is (by the device's digest).
lessons = Table(
    "live_teacher_lessons", _metadata,
    Column("device_digest", String(64), nullable=False),
    Column("lesson_id", String(64), nullable=False),
    Column("title", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("saved_at", Float, nullable=False),
    PrimaryKeyConstraint("device_digest", "lesson_id"),
)
# The gradebook: one mark per student row and question, across the teacher's classes (classroom.gradebook).
marks = Table(
    "live_teacher_marks", _metadata,
    Column("device_digest", String(64), nullable=False),
    Column("row_key", Text, nullable=False),
    Column("column_key", Text, nullable=False),
    Column("label", Text, nullable=False),
    Column("identifier", Text, nullable=False),
    Column("nickname", Text, nullable=False),
    Column("answer", Text, nullable=False),
    Column("right", Boolean),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("device_digest", "row_key", "column_key"),
)


def new_device_id() -> str:
    return secrets.token_urlsafe(32)


def is_device_id(value: object) -> bool:
    """A cookie value that could be one of ours (43 URL-safe characters), not whatever a client sent."""
    return isinstance(value, str) and len(value) == 43 and all(c.isalnum() or c in "-_" for c in value)


def _seal(secret: str, key: str) -> str:
    """``key`` XOR a pad drawn from ``secret`` (SHAKE-256), hex: undone by the same call's inverse."""
    data = key.encode()
    pad = hashlib.shake_256(b"receval-teacher:" + secret.encode()).digest(len(data))
    return bytes(a ^ b for a, b in zip(data, pad, strict=True)).hex()


def _unseal(secret: str, sealed: str) -> str:
    data = bytes.fromhex(sealed)
    pad = hashlib.shake_256(b"receval-teacher:" + secret.encode()).digest(len(data))
    return bytes(a ^ b for a, b in zip(data, pad, strict=True)).decode()


class TeacherDevices:
    """The teacher's browsers and one-time claim links, in the live class's own database."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time):
        self.engine, self.clock = engine, clock
        with engine.begin() as connection:
            for table in _metadata.sorted_tables:
                connection.execute(CreateTable(table, if_not_exists=True))

    def bind(self, device: str, code: str, teacher_key: str) -> None:
        """This browser is now a teacher of the class (again: binding twice is harmless)."""
        if not is_device_id(device):
            return
        try:
            with self.engine.begin() as connection:
                connection.execute(delete(devices).where(devices.c.device_digest == codes.digest(device),
                                                         devices.c.room == code))
                connection.execute(insert(devices).values(device_digest=codes.digest(device), room=code,
                                                          sealed_key=_seal(device, teacher_key), bound_at=self.clock()))
        except IntegrityError:  # the same browser bound the class twice at the same moment
            pass

    def classes(self, device: str) -> dict[str, str]:
        """{code: teacher key} of this browser's classes that are still open, newest first."""
        if not is_device_id(device):
            return {}
        with self.engine.begin() as connection:
            # A class that ended or expired leaves its rows here: they go as soon as they are seen.
            connection.execute(delete(devices).where(devices.c.room.not_in(select(rooms.c.code))))
            found = connection.execute(select(devices.c.room, devices.c.sealed_key).where(
                devices.c.device_digest == codes.digest(device)).order_by(devices.c.bound_at.desc())).all()
        return {row.room: _unseal(device, row.sealed_key) for row in found}

    def forget(self, device: str, code: str) -> None:
        if is_device_id(device):
            with self.engine.begin() as connection:
                connection.execute(delete(devices).where(devices.c.device_digest == codes.digest(device),
                                                         devices.c.room == code))

    def new_claim(self, code: str, teacher_key: str) -> str:
        """A one-time token that makes the browser opening it a teacher of the class, for CLAIM_SECONDS."""
        token = secrets.token_urlsafe(32)
        with self.engine.begin() as connection:
            connection.execute(delete(claims).where(claims.c.expires_at <= self.clock()))
            connection.execute(insert(claims).values(token_digest=codes.digest(token), room=code,
                                                     sealed_key=_seal(token, teacher_key),
                                                     expires_at=self.clock() + CLAIM_SECONDS))
        return token

    def claim(self, token: str, device: str) -> str | None:
        """Use a claim token once: bind ``device`` to its class and return the class code; None if it is
        unknown, used or expired, or its class has ended."""
        if not isinstance(token, str) or len(token) > 100 or not is_device_id(device):
            return None
        with self.engine.begin() as connection:
            row = connection.execute(select(claims).where(claims.c.token_digest == codes.digest(token))).first()
            if row is None:
                return None
            # Two phones opening one link at once: only the one whose DELETE removed the row goes on.
            if not connection.execute(delete(claims).where(claims.c.token_digest == row.token_digest)).rowcount:
                return None
            alive = connection.execute(select(rooms.c.code).where(rooms.c.code == row.room)).first()
            if row.expires_at <= self.clock() or alive is None:
                return None
            key = _unseal(token, row.sealed_key)
        self.bind(device, row.room, key)
        return row.room

    # ------------------------------------------------------------------ My lessons

    def save_lesson(self, device: str, text: str) -> Loaded:
        """Keep a lesson file's text for this teacher, checked with the lessons page's loader first (a built-in
        lesson's id is refused as there); saving a lesson with the same id again replaces it. Returns what the
        loader said: ``lesson`` None and its problems when it was not kept."""
        loaded = checked_id(read_lesson(text), text.encode("utf-8"), {key: "a built-in lesson" for key in BY_KEY})
        if loaded.lesson is None or not is_device_id(device):
            return loaded
        digest = codes.digest(device)
        with self.engine.begin() as connection:
            connection.execute(delete(lessons).where(lessons.c.device_digest == digest,
                                                     lessons.c.lesson_id == loaded.lesson.key))
            kept = connection.execute(select(lessons.c.lesson_id).where(lessons.c.device_digest == digest)
                                      .order_by(lessons.c.saved_at.desc())).scalars().all()
            if len(kept) >= MOST_LESSONS:  # the oldest go: a teacher's shelf, not an archive
                connection.execute(delete(lessons).where(lessons.c.device_digest == digest,
                                                         lessons.c.lesson_id.in_(kept[MOST_LESSONS - 1:])))
            connection.execute(insert(lessons).values(device_digest=digest, lesson_id=loaded.lesson.key,
                                                      title=loaded.lesson.title, text=text, saved_at=self.clock()))
        return loaded

    def my_lessons(self, device: str) -> list[dict]:
        """[{"id", "title", "text"}] of this teacher's lessons, newest first."""
        if not is_device_id(device):
            return []
        with self.engine.connect() as connection:
            found = connection.execute(select(lessons.c.lesson_id, lessons.c.title, lessons.c.text).where(
                lessons.c.device_digest == codes.digest(device)).order_by(lessons.c.saved_at.desc())).all()
        return [{"id": row.lesson_id, "title": row.title, "text": row.text} for row in found]

    def forget_lesson(self, device: str, lesson_id: str) -> None:
        if is_device_id(device):
            with self.engine.begin() as connection:
                connection.execute(delete(lessons).where(lessons.c.device_digest == codes.digest(device),
                                                         lessons.c.lesson_id == lesson_id))

    # ------------------------------------------------------------------ the gradebook

    def record_marks(self, device: str, found: list[Mark]) -> None:
        """Add (or update) one class's marks to this teacher's gradebook; marks older than MARKS_DAYS go."""
        if not is_device_id(device):
            return
        digest = codes.digest(device)
        with self.engine.begin() as connection:
            connection.execute(delete(marks).where(marks.c.at < self.clock() - MARKS_DAYS * 86400))
            for mark in found:
                connection.execute(delete(marks).where(marks.c.device_digest == digest, marks.c.row_key == mark.row,
                                                       marks.c.column_key == mark.column))
                connection.execute(insert(marks).values(
                    device_digest=digest, row_key=mark.row, column_key=mark.column, label=mark.label,
                    identifier=mark.identifier, nickname=mark.nickname, answer=mark.answer, right=mark.right,
                    at=mark.at))

    def marks(self, device: str) -> list[Mark]:
        """Every mark of this teacher's gradebook, from every class they recorded."""
        if not is_device_id(device):
            return []
        with self.engine.connect() as connection:
            found = connection.execute(select(marks).where(marks.c.device_digest == codes.digest(device))).all()
        return [Mark(r.row_key, r.identifier, r.nickname, r.column_key, r.label, r.answer, r.right, r.at)
                for r in found]
