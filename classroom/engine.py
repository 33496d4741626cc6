"""One SQLAlchemy engine for SQLite or PostgreSQL, set up for many processes and threads at once."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine, make_url

SQLITE_BUSY_MS = 30_000
ROOT = Path(__file__).resolve().parents[1]


def database_url() -> str:
    """RECEVAL_CLASSROOM_URL (e.g. postgresql://...), else SQLite under RECEVAL_DATA_DIR or the checkout's
    ./.receval-data (where docs/live-class.md says), so the Streamlit page and the light view share one class."""
    url = os.environ.get("RECEVAL_CLASSROOM_URL")
    if url:
        return url
    folder = Path(os.environ.get("RECEVAL_DATA_DIR") or ROOT / ".receval-data")
    return f"sqlite:///{folder.resolve() / 'live_class.db'}"


def make_engine(url: str) -> Engine:
    """``sqlite:///relative.db``, ``sqlite:////absolute.db`` or ``postgresql://user@host:port/db`` (psycopg 3)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg"):
        # Every app process holds its own pool: a few connections each keep PostgreSQL's 100 enough.
        return create_engine(parsed.set(drivername="postgresql+psycopg"), pool_size=5, max_overflow=10,
                             pool_pre_ping=True)
    if parsed.get_backend_name() != "sqlite":
        raise ValueError(f"A live-class database is sqlite:///... or postgresql://..., not {parsed.drivername}://")
    if not parsed.database or parsed.database == ":memory:":
        raise ValueError("A live class needs a database file (sqlite:///path/to/file.db): memory is one process's own.")
    Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(parsed, pool_size=5, max_overflow=15)
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection, _record) -> None:
    # SQLAlchemy emits BEGIN itself (below); the driver's own implicit BEGIN would be DEFERRED, and a
    # deferred transaction that later writes fails at once with "database is locked" instead of waiting.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_MS}")
    _use_write_ahead_log(cursor)  # readers never wait for the writer
    cursor.execute("PRAGMA synchronous = NORMAL")  # safe with WAL: a power cut loses at most the last commits
    cursor.execute("PRAGMA secure_delete = ON")  # deleted rows are overwritten with zeros, not left in free pages
    cursor.close()


def _use_write_ahead_log(cursor) -> None:
    # WAL is written into the file once and stays. Switching needs the file to itself, and a connection
    # that finds another one mid-switch gets "database is locked" at once, without the busy timeout
    # (six processes opening a new class database together hit it about once in 40 tries): wait here.
    deadline = time.monotonic() + SQLITE_BUSY_MS / 1000
    while True:
        try:
            mode = cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() == "wal":
                return
        except sqlite3.OperationalError as problem:
            if "locked" not in str(problem) or time.monotonic() > deadline:
                raise
            mode = "locked"
        if time.monotonic() > deadline:
            raise sqlite3.OperationalError(f"The live-class database stays in {mode} mode: it needs WAL (a local disk).")
        time.sleep(0.01)


def _sqlite_begin(connection) -> None:
    read_only = connection.get_execution_options().get("receval_read_only")
    connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")


def reclaim_deleted(engine: Engine) -> None:
    """Make deleted rows unreadable from the database's files, not only from SQL.

    SQLite: ``secure_delete`` zeroed them in the pages; a TRUNCATE checkpoint copies those pages into
    the main file and empties the write-ahead log, which still held the rows as first written.
    PostgreSQL: VACUUM FULL rewrites the tables into new files (the old ones are unlinked).
    """
    if engine.dialect.name == "sqlite":
        # The raw connection: the driver is in autocommit mode (see _sqlite_connect), and a checkpoint
        # cannot run inside the transaction SQLAlchemy would begin.
        raw = engine.raw_connection()
        try:
            for _ in range(50):
                busy, _log, _done = raw.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                if not busy:
                    break
        finally:
            raw.close()
        return
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        for table in ("live_answers", "live_students", "live_questions", "live_refused_joins", "live_room_lessons",
                      "live_rooms"):
            connection.execute(text(f"VACUUM FULL {table}"))
