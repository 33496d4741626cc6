"""The live-class tables (SQLAlchemy Core), created race-free by however many processes start at once."""

from __future__ import annotations

from sqlalchemy import (Boolean, Column, Float, ForeignKeyConstraint, Index, Integer, MetaData,
                        PrimaryKeyConstraint, String, Table, Text, inspect, text)
from sqlalchemy.engine import Connection
from sqlalchemy.schema import CreateIndex, CreateTable

metadata = MetaData()

rooms = Table(
    "live_rooms", metadata,
    Column("code", String(8), primary_key=True),
    Column("teacher_key_digest", String(64), nullable=False),
    Column("lesson", Text),
    Column("step", Integer, nullable=False, default=0),
    Column("question_id", Text),
    Column("version", Integer, nullable=False, default=1),
    Column("created_at", Float, nullable=False),
    Column("anonymous", Boolean),  # names hidden on the projector (NULL: a room from before, not anonymous)
    Column("finished", Boolean),   # every student sees their own answers against the right ones
    Column("locked", Boolean),     # the teacher locked the room: no one new may join (NULL: open)
    Column("seed", String(32)),    # each student's variant of a question is drawn from this and the student (NULL: the code)
    Column("join_question", Text),  # what a student answers to join besides the nickname ("Student number"), for the gradebook
    Column("homework", Boolean),   # a homework: each student at their own pace until closes_at (NULL: a live class)
    Column("closes_at", Float),    # a homework's deadline (epoch seconds, UTC): answers close then
    Column("expires_at", Float),   # deleted at this time (NULL: created_at + the store's max_age, a live class)
)

# The lesson files a room runs (``lesson = "file:<digest>"``): every process reads the lesson from here.
room_lessons = Table(
    "live_room_lessons", metadata,
    Column("room", String(8), nullable=False),
    Column("lesson", String(40), nullable=False),
    Column("text", Text, nullable=False),
    PrimaryKeyConstraint("room", "lesson"),
    ForeignKeyConstraint(["room"], ["live_rooms.code"], ondelete="CASCADE"),
)

questions = Table(
    "live_questions", metadata,
    Column("room", String(8), nullable=False),
    Column("question_id", Text, nullable=False),
    Column("right_answer", Text),
    Column("state", String(8), nullable=False),  # open, locked, revealed
    Column("lesson", Text),        # what the question was asked on: its text and step for the export
    Column("step", Integer),
    Column("deadline", Float),     # the timer: answers lock at this time (epoch seconds), the same for every process
    Column("asked_at", Float),
    PrimaryKeyConstraint("room", "question_id"),
    ForeignKeyConstraint(["room"], ["live_rooms.code"], ondelete="CASCADE"),
)

students = Table(
    "live_students", metadata,
    Column("student_id", String(32), primary_key=True),
    Column("room", String(8), nullable=False),
    Column("nickname", Text, nullable=False),
    Column("hidden", Boolean, nullable=False, default=False),
    Column("joined_at", Float, nullable=False),
    Column("nickname_key", Text),  # codes.nickname_key: two names that look the same have the same key
    Column("removed", Boolean),    # removed by the teacher, answers kept
    Column("identifier", Text),    # the answer to the room's join question, as typed (the gradebook's row)
    Column("identifier_key", Text),  # codes.nickname_key of it: the same student across rounds and meetings
    Column("step", Integer),       # a homework: the step this student is on (NULL: the first)
    ForeignKeyConstraint(["room"], ["live_rooms.code"], ondelete="CASCADE"),
    Index("live_students_nickname", "room", "nickname", unique=True),
    Index("live_students_nickname_key", "room", "nickname_key", unique=True),
)

answers = Table(
    "live_answers", metadata,
    Column("room", String(8), nullable=False),
    Column("question_id", Text, nullable=False),
    Column("student_id", String(32), nullable=False),
    Column("value", Text, nullable=False),
    Column("answered_at", Float, nullable=False),
    PrimaryKeyConstraint("room", "question_id", "student_id"),
    ForeignKeyConstraint(["room"], ["live_rooms.code"], ondelete="CASCADE"),
)

# Codes of rooms that ended or expired today, by digest: not handed out again the same day.
retired_codes = Table(
    "live_retired_codes", metadata,
    Column("code_digest", String(64), primary_key=True),
    Column("day", String(10), nullable=False),
)

# Wrong join codes per client address (by digest), so guessing codes gets slower for everyone's processes.
join_failures = Table(
    "live_join_failures", metadata,
    Column("browser_digest", String(64), primary_key=True),
    Column("failures", Integer, nullable=False),
    Column("last_at", Float, nullable=False),
)

# Joins per client address (by digest): a bucket of tokens that refills with time, kept across reloads.
throttle = Table(
    "live_throttle", metadata,
    Column("kind", String(16), nullable=False),
    Column("client_digest", String(64), nullable=False),
    Column("tokens", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    PrimaryKeyConstraint("kind", "client_digest"),
)

# Joins a room refused, per reason and minute (epoch seconds // 60): the teacher sees a flood as it happens.
# One row per room, reason and minute however many joins a script sends, so a flood cannot fill the disk.
refused_joins = Table(
    "live_refused_joins", metadata,
    Column("room", String(8), nullable=False),
    Column("reason", String(16), nullable=False),  # locked, full, address
    Column("minute", Integer, nullable=False),
    Column("refused", Integer, nullable=False),
    PrimaryKeyConstraint("room", "reason", "minute"),
    ForeignKeyConstraint(["room"], ["live_rooms.code"], ondelete="CASCADE"),
)

SCHEMA_LOCK = 7_254_012  # any constant: PostgreSQL's advisory lock for creating the tables


def create(connection: Connection) -> None:
    """CREATE ... IF NOT EXISTS, inside the caller's transaction.

    On SQLite the caller's BEGIN IMMEDIATE serialises the processes; on PostgreSQL two concurrent
    CREATE TABLE IF NOT EXISTS can still collide on the catalogue, so an advisory lock orders them.
    """
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
    for table in metadata.sorted_tables:
        connection.execute(CreateTable(table, if_not_exists=True))
        _add_missing_columns(connection, table)
        for index in table.indexes:
            connection.execute(CreateIndex(index, if_not_exists=True))


def _add_missing_columns(connection: Connection, table: Table) -> None:
    """A database made by an earlier version gets the columns added since (all of them nullable)."""
    present = {column["name"] for column in inspect(connection).get_columns(table.name)}
    for column in table.columns:
        if column.name not in present:
            kind = column.type.compile(dialect=connection.dialect)
            connection.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"))
