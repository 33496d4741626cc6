"""The live-class store on SQLite and PostgreSQL: the class's life, permissions, isolation, deletion, load."""

from __future__ import annotations

import datetime
import multiprocessing
import re
import sqlite3
import threading
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import func, select

import classroom
from classroom import codes, schema
from classroom import engine as engine_module
from classroom import limits
from classroom.limits import JoinThrottled
from classroom.store import ClassFull, QuestionNotFound
from tests.conftest import new_postgres_database

Q1, Q2 = "topn:3", "topn:5"


@pytest.fixture
def store(database_url):
    made = classroom.Store(database_url)
    yield made
    made.engine.dispose()


@pytest.fixture
def room(store):
    return store.create_room("topn")


def asked(store, room, question=Q1, right="0.75", step=2):
    store.set_step(room.code, room.teacher_key, "topn", step, question, right)


def rows(store, table) -> int:
    with store.engine.connect() as connection:
        return connection.execute(select(func.count()).select_from(table)).scalar_one()


# ---------------------------------------------------------------------------- codes and keys

def test_code_has_six_characters_of_one_case_without_look_alikes(store):
    made = [store.create_room().code for _ in range(30)]
    assert all(re.fullmatch(f"[{classroom.ALPHABET}]{{6}}", code) for code in made), made
    assert not set("0O1IlL2Z5S8B") & set(classroom.ALPHABET)
    assert len(set(made)) == 30


def test_teacher_key_has_at_least_128_bits_and_only_its_digest_is_stored(store, room):
    assert len(room.teacher_key) >= 43  # token_urlsafe: 6 bits a character
    assert room.teacher_key not in repr(room)
    with store.engine.connect() as connection:
        stored = [str(v) for row in connection.execute(select(schema.rooms)) for v in row]
    assert room.teacher_key not in " ".join(stored)
    assert codes.digest(room.teacher_key) in stored


def test_a_typed_code_in_lower_case_with_spaces_finds_the_room(store, room):
    spaced = f"{room.code[:3].lower()} {room.code[3:].lower()}"
    assert store.current(spaced)["code"] == room.code


# ---------------------------------------------------------------------------- a class's life

def test_every_change_the_screens_follow_raises_the_version(store, room):
    versions = [store.current(room.code)["version"]]
    asked(store, room)
    versions.append(store.current(room.code)["version"])
    store.set_step(room.code, room.teacher_key, "topn", 3)
    versions.append(store.current(room.code)["version"])
    store.set_step(room.code, room.teacher_key, "topn", 2, Q1)  # Back
    versions.append(store.current(room.code)["version"])
    for change in (store.lock, store.reveal, store.reset):
        change(room.code, room.teacher_key, Q1)
        versions.append(store.current(room.code)["version"])
    assert versions == sorted(set(versions)) and len(versions) == 7, versions


def test_current_says_lesson_step_question_and_state(store, room):
    asked(store, room)
    now = store.current(room.code)
    assert {k: now[k] for k in ("lesson", "step", "question_id", "state")} == \
        {"lesson": "topn", "step": 2, "question_id": Q1, "state": "open"}
    assert now["right_answer"] is None  # not before the reveal
    store.lock(room.code, room.teacher_key, Q1)
    assert store.current(room.code)["state"] == "locked"
    store.reveal(room.code, room.teacher_key, Q1)
    assert store.current(room.code)["state"] == "revealed"
    assert store.current(room.code)["right_answer"] == "0.75"


def test_the_last_answer_before_the_lock_counts(store, room):
    asked(store, room)
    ann, bob = store.join(room.code, "Ann"), store.join(room.code, "Bob")
    store.answer(room.code, ann, Q1, "0.3")
    store.answer(room.code, bob, Q1, "0.3")
    store.answer(room.code, ann, Q1, "0.75")
    assert store.tally(room.code, room.teacher_key, Q1) == {"0.3": 1, "0.75": 1}
    assert store.my_answer(room.code, ann, Q1) == "0.75"
    store.lock(room.code, room.teacher_key, Q1)
    with pytest.raises(PermissionError):
        store.answer(room.code, bob, Q1, "0.75")
    assert store.tally(room.code, room.teacher_key, Q1) == {"0.3": 1, "0.75": 1}


def test_a_slow_answer_to_the_previous_question_counts_until_it_is_locked(store, room):
    asked(store, room, Q1)
    asked(store, room, Q2, "down", step=4)
    ann = store.join(room.code, "Ann")
    store.answer(room.code, ann, Q1, "0.75")
    assert store.tally(room.code, room.teacher_key, Q1) == {"0.75": 1}
    store.lock(room.code, room.teacher_key, Q1)
    with pytest.raises(PermissionError):
        store.answer(room.code, ann, Q1, "0.3")
    store.answer(room.code, ann, Q2, "down")  # the other question is still open


def test_reveal_stops_answers_and_lock_after_reveal_keeps_it_revealed(store, room):
    asked(store, room)
    ann = store.join(room.code, "Ann")
    store.reveal(room.code, room.teacher_key, Q1)
    with pytest.raises(PermissionError):
        store.answer(room.code, ann, Q1, "0.75")
    store.lock(room.code, room.teacher_key, Q1)
    assert store.current(room.code)["state"] == "revealed"


def test_reset_opens_the_question_again_without_answers(store, room):
    asked(store, room)
    ann = store.join(room.code, "Ann")
    store.answer(room.code, ann, Q1, "0.3")
    store.reveal(room.code, room.teacher_key, Q1)
    store.reset(room.code, room.teacher_key, Q1)
    assert store.current(room.code)["state"] == "open"
    assert store.tally(room.code, room.teacher_key, Q1) == {}
    store.answer(room.code, ann, Q1, "0.75")
    assert store.tally(room.code, room.teacher_key, Q1) == {"0.75": 1}


def test_students_see_the_distribution_only_after_the_reveal(store, room):
    asked(store, room)
    ann, bob = store.join(room.code, "Ann"), store.join(room.code, "Bob")
    store.answer(room.code, ann, Q1, "0.3")
    store.answer(room.code, bob, Q1, "0.75")
    with pytest.raises(PermissionError):
        store.distribution(room.code, Q1)
    assert store.question(room.code, Q1)["right_answer"] is None
    store.reveal(room.code, room.teacher_key, Q1)
    assert store.distribution(room.code, Q1) == {"0.3": 1, "0.75": 1}
    assert store.question(room.code, Q1) == {"question_id": Q1, "state": "revealed", "right_answer": "0.75"}


def test_nothing_a_student_call_returns_holds_another_student_or_the_key(store, room):
    asked(store, room)
    ann, bob = store.join(room.code, "Ann the first"), store.join(room.code, "Bob the second")
    store.answer(room.code, bob, Q1, "bobs-answer-0.3")
    returned = [store.current(room.code), store.student(room.code, ann), store.my_answer(room.code, ann, Q1),
                store.question(room.code, Q1)]
    seen = repr(returned)
    for secret in ("Bob the second", "bobs-answer", bob, room.teacher_key, codes.digest(room.teacher_key)):
        assert secret not in seen


def test_unknown_question_is_refused(store, room):
    ann = store.join(room.code, "Ann")
    with pytest.raises(QuestionNotFound):
        store.answer(room.code, ann, "nope", "1")
    with pytest.raises(QuestionNotFound):
        store.lock(room.code, room.teacher_key, "nope")


def test_export_has_one_row_per_student_and_question_with_the_last_answer(store, room):
    asked(store, room, Q1, "0.75")
    store.set_step(room.code, room.teacher_key, "topn", 3, "free", None)
    ann, bob = store.join(room.code, "Ann"), store.join(room.code, "<b>Bob</b>")
    store.answer(room.code, ann, Q1, "0.3")
    store.answer(room.code, ann, Q1, "3/4")
    store.answer(room.code, bob, Q1, "0.3")
    store.answer(room.code, bob, "free", "anything")
    table = store.export(room.code, room.teacher_key)
    assert list(table.columns[:1]) == ["answered_at"]  # a log of the lesson, in time order
    assert {"nickname", "question", "answer", "right", "answered_at"} <= set(table.columns)
    got = {(r.nickname, r.question): (r.answer, r.right) for r in table.itertuples()}
    assert got == {("Ann", Q1): ("3/4", True), ("<b>Bob</b>", Q1): ("0.3", False), ("<b>Bob</b>", "free"): ("anything", None)}
    assert str(table["answered_at"].dt.tz) == "UTC"
    assert (table["answered_at"] > pd.Timestamp.now(tz="UTC") - pd.Timedelta(minutes=5)).all()


# ---------------------------------------------------------------------------- nicknames

@pytest.mark.parametrize("nickname", ["  Ann  ", "**bold** [link](http://x.io)", "<script>x</script>", "🧑🏽 Zoë ❤️",
                                      "x" * 40, "$\\frac{1}{2}$"], ids=["spaces", "markdown", "html", "emoji", "forty", "latex"])
def test_a_nickname_is_kept_literally(store, room, nickname):
    student = store.join(room.code, nickname)
    assert store.student(room.code, student)["nickname"] == nickname
    assert store.roster(room.code, room.teacher_key)["nickname"].tolist() == [nickname]


@pytest.mark.parametrize("nickname, message", [("x" * 41, "41 characters"), ("a\nb", "control"), ("a\x00b", "control"),
                                               ("a\u202eb", "U\\+202E"), ("   ", "Type a nickname"), ("", "Type a nickname")],
                         ids=["41", "newline", "nul", "rtl-override", "blank", "empty"])
def test_a_bad_nickname_is_refused_with_the_reason(store, room, nickname, message):
    with pytest.raises(ValueError, match=message):
        store.join(room.code, nickname)
    assert store.roster(room.code, room.teacher_key).empty


def test_a_nickname_is_unique_within_a_room_only(store, room):
    store.join(room.code, "Ann")
    with pytest.raises(classroom.NicknameTaken):
        store.join(room.code, "Ann")
    assert issubclass(classroom.NicknameTaken, ValueError)
    other = store.create_room()
    store.join(other.code, "Ann")


def test_hiding_a_nickname_keeps_the_answers(store, room):
    asked(store, room)
    ann = store.join(room.code, "rude name")
    store.answer(room.code, ann, Q1, "0.3")
    store.hide(room.code, room.teacher_key, ann)
    assert store.roster(room.code, room.teacher_key)["hidden"].tolist() == [True]
    assert store.student(room.code, ann)["hidden"] is True
    assert store.tally(room.code, room.teacher_key, Q1) == {"0.3": 1}


# ---------------------------------------------------------------------------- permissions

def _teacher_calls(store, room, key):
    return {
        "set_step": lambda: store.set_step(room.code, key, "topn", 4, Q2, "down"),
        "lock": lambda: store.lock(room.code, key, Q1),
        "reveal": lambda: store.reveal(room.code, key, Q1),
        "reset": lambda: store.reset(room.code, key, Q1),
        "tally": lambda: store.tally(room.code, key, Q1),
        "export": lambda: store.export(room.code, key),
        "roster": lambda: store.roster(room.code, key),
        "hide": lambda: store.hide(room.code, key, "someone"),
        "end_room": lambda: store.end_room(room.code, key),
        "remove": lambda: store.remove(room.code, key, "someone"),
        "counts": lambda: store.counts(room.code, key, Q1),
        "who_answered": lambda: store.who_answered(room.code, key, Q1),
        "start_timer": lambda: store.start_timer(room.code, key, Q1, 30),
        "set_anonymous": lambda: store.set_anonymous(room.code, key, True),
        "ask_again": lambda: store.ask_again(room.code, key, Q1),
        "rounds": lambda: store.rounds(room.code, key, Q1),
        "finish": lambda: store.finish(room.code, key),
        "lock_room": lambda: store.lock_room(room.code, key),
        "join_status": lambda: store.join_status(room.code, key),
    }


TEACHER_CALLS = ["set_step", "lock", "reveal", "reset", "tally", "export", "roster", "hide", "end_room", "remove",
                 "counts", "who_answered", "start_timer", "set_anonymous", "ask_again", "rounds", "finish",
                 "lock_room", "join_status"]


def _snapshot(store, room):
    return (store.current(room.code), store.tally(room.code, room.teacher_key, Q1),
            store.export(room.code, room.teacher_key).to_dict(), store.roster(room.code, room.teacher_key).to_dict(),
            store.join_status(room.code, room.teacher_key))


@pytest.mark.parametrize("call", TEACHER_CALLS)
@pytest.mark.parametrize("wrong_key", ["", "x", "other room's key", "right key with a typo"])
def test_every_teacher_call_with_a_wrong_key_is_refused_and_changes_nothing(store, room, call, wrong_key):
    asked(store, room)
    ann = store.join(room.code, "Ann")
    store.answer(room.code, ann, Q1, "0.3")
    key = {"other room's key": store.create_room().teacher_key, "right key with a typo": room.teacher_key[:-1] + "!"
           }.get(wrong_key, wrong_key)
    before = _snapshot(store, room)
    with pytest.raises(PermissionError):
        _teacher_calls(store, room, key)[call]()
    assert _snapshot(store, room) == before


def _student_calls(store, code, student, question):
    return {
        "join": lambda: store.join(code, "Newcomer"),
        "current": lambda: store.current(code),
        "student": lambda: store.student(code, student),
        "answer": lambda: store.answer(code, student, question, "0.75"),
        "my_answer": lambda: store.my_answer(code, student, question),
        "question": lambda: store.question(code, question),
        "distribution": lambda: store.distribution(code, question),
        "my_answers": lambda: store.my_answers(code, student),
    }


STUDENT_CALLS = ["join", "current", "student", "answer", "my_answer", "question", "distribution", "my_answers"]


@pytest.mark.parametrize("call", STUDENT_CALLS + TEACHER_CALLS)
def test_every_call_after_the_end_raises_room_not_found(store, room, call):
    asked(store, room)
    ann = store.join(room.code, "Ann")
    store.end_room(room.code, room.teacher_key)
    calls = {**_student_calls(store, room.code, ann, Q1), **_teacher_calls(store, room, room.teacher_key)}
    with pytest.raises(classroom.RoomNotFound):
        calls[call]()
    assert issubclass(classroom.RoomNotFound, LookupError)


@pytest.mark.parametrize("call", STUDENT_CALLS)
def test_an_unknown_code_raises_room_not_found(store, call):
    with pytest.raises(classroom.RoomNotFound):
        _student_calls(store, "AAAAAA", "nobody", Q1)[call]()


@pytest.mark.parametrize("state", ["lock", "reveal"])
def test_an_answer_after_lock_or_reveal_is_refused_and_not_counted(store, room, state):
    asked(store, room)
    ann = store.join(room.code, "Ann")
    store.answer(room.code, ann, Q1, "0.3")
    getattr(store, state)(room.code, room.teacher_key, Q1)
    with pytest.raises(PermissionError):
        store.answer(room.code, ann, Q1, "0.75")
    assert store.my_answer(room.code, ann, Q1) == "0.3"


# ---------------------------------------------------------------------------- isolation

def test_rooms_are_isolated(store, room):
    other = store.create_room("ap")
    asked(store, room)
    asked(store, other)
    ann, olga = store.join(room.code, "Ann"), store.join(other.code, "Olga")
    store.answer(room.code, ann, Q1, "0.3")
    store.answer(other.code, olga, Q1, "0.75")
    assert store.tally(room.code, room.teacher_key, Q1) == {"0.3": 1}
    assert store.tally(other.code, other.teacher_key, Q1) == {"0.75": 1}
    with pytest.raises(LookupError):
        store.answer(other.code, ann, Q1, "1.0")  # a student of one room cannot answer in another
    with pytest.raises(LookupError):
        store.student(other.code, ann)
    with pytest.raises(PermissionError):
        store.tally(other.code, room.teacher_key, Q1)
    store.reveal(room.code, room.teacher_key, Q1)
    assert store.current(other.code)["state"] == "open"
    store.end_room(room.code, room.teacher_key)
    assert store.tally(other.code, other.teacher_key, Q1) == {"0.75": 1}
    assert store.roster(other.code, other.teacher_key)["nickname"].tolist() == ["Olga"]


# ---------------------------------------------------------------------------- deletion

def test_end_deletes_every_row_of_the_room(store, room):
    other = store.create_room()
    asked(store, room)
    store.answer(room.code, store.join(room.code, "Ann"), Q1, "0.3")
    store.join(other.code, "Olga")
    store.lock_room(room.code, room.teacher_key)
    with pytest.raises(classroom.RoomLocked):
        store.join(room.code, "Late")
    store.end_room(room.code, room.teacher_key)
    assert rows(store, schema.rooms) == 1
    assert rows(store, schema.students) == 1
    assert rows(store, schema.answers) == rows(store, schema.questions) == rows(store, schema.refused_joins) == 0


def _file_bytes(database_url: str) -> bytes:
    path = Path(database_url.removeprefix("sqlite:///"))
    return b"".join(p.read_bytes() for p in sorted(path.parent.glob(path.name + "*")))


def test_on_sqlite_the_ended_room_cannot_be_read_back_from_the_files(tmp_path):
    url = f"sqlite:///{tmp_path / 'live.db'}"
    store = classroom.Store(url)
    room = store.create_room()
    asked(store, room)
    nickname, answer = "Zephyrine-Quokka", "answer-Xylophone-42"
    store.answer(room.code, store.join(room.code, nickname), Q1, answer)
    assert nickname.encode() in _file_bytes(url)  # the check can fail: the nickname is there before
    store.end_room(room.code, room.teacher_key)
    data = _file_bytes(url)
    assert nickname.encode() not in data and answer.encode() not in data
    assert room.code.encode() not in data
    store.engine.dispose()


def test_on_postgresql_the_ended_room_is_vacuumed_out_of_the_table_files(postgres_server):
    store = classroom.Store(new_postgres_database(postgres_server))
    room = store.create_room()
    store.join(room.code, "Zephyrine-Quokka")
    store.end_room(room.code, room.teacher_key)
    with store.engine.connect() as connection:
        # VACUUM FULL gave the table a new, empty file; the dead row's old file is gone.
        pages = connection.exec_driver_sql("SELECT pg_relation_size('live_students')").scalar()
    assert pages == 0
    store.engine.dispose()


def test_a_room_older_than_max_age_is_deleted_with_its_data(database_url):
    now = [1_000_000.0]
    store = classroom.Store(database_url, max_age=datetime.timedelta(hours=2), clock=lambda: now[0])
    room = store.create_room()
    asked(store, room)
    store.answer(room.code, store.join(room.code, "Ann"), Q1, "0.3")
    now[0] += 2 * 3600 - 1
    assert store.current(room.code)["question_id"] == Q1
    fresh = store.create_room()
    now[0] += 1
    with pytest.raises(classroom.RoomNotFound):
        store.current(room.code)
    assert rows(store, schema.students) == rows(store, schema.answers) == rows(store, schema.questions) == 0
    assert rows(store, schema.rooms) == 1  # the younger room stays
    assert store.current(fresh.code)["version"] == 1
    store.engine.dispose()


def test_expired_rooms_are_purged_by_the_next_new_room(database_url):
    now = [1_000_000.0]
    store = classroom.Store(database_url, clock=lambda: now[0])
    old = store.create_room()
    store.join(old.code, "Ann")
    now[0] += 12 * 3600
    store.create_room()
    assert rows(store, schema.rooms) == 1 and rows(store, schema.students) == 0
    store.engine.dispose()


def test_the_code_of_an_ended_room_is_not_given_again_the_same_day(database_url, monkeypatch):
    now = [1_000_000.0]  # 1970-01-12 13:46 UTC
    store = classroom.Store(database_url, clock=lambda: now[0])
    drawn = iter(["AAAAAA", "AAAAAA", "CCCCCC", "AAAAAA"])
    monkeypatch.setattr(codes, "new_code", lambda: next(drawn))
    first = store.create_room()
    store.end_room(first.code, first.teacher_key)
    assert store.create_room().code == "CCCCCC"
    now[0] += 86_400  # the next day the code may come back
    assert store.create_room().code == "AAAAAA"
    store.engine.dispose()


# ---------------------------------------------------------------------------- wrong codes

def test_wrong_codes_from_one_browser_get_slower(store):
    for _ in range(5):
        assert store.join_wait("browser-1") == 0
        store.wrong_code("browser-1")
    assert store.join_wait("browser-1") > 0
    store.wrong_code("browser-1")
    assert store.join_wait("browser-1") > 1
    assert store.join_wait("browser-2") == 0


# ---------------------------------------------------------------------------- processes and threads

def _open_store(url, start, results):
    start.wait()
    try:
        classroom.Store(url).engine.dispose()
        results.put("ok")
    except Exception as problem:  # noqa: BLE001 - sent back to the test
        results.put(f"{type(problem).__name__}: {problem}")


def _six_processes_open(url) -> list[str]:
    context = multiprocessing.get_context("fork")
    start, results = context.Event(), context.Queue()
    workers = [context.Process(target=_open_store, args=(url, start, results)) for _ in range(6)]
    for worker in workers:
        worker.start()
    start.set()
    outcomes = [results.get(timeout=60) for _ in workers]
    for worker in workers:
        worker.join(30)
    return outcomes


def test_several_processes_create_the_schema_at_once(database_url):
    assert _six_processes_open(database_url) == ["ok"] * 6


def test_new_sqlite_class_databases_opened_by_six_processes_at_once_all_open(tmp_path):
    # Switching a new file to WAL raced: about one round in 40 said "database is locked" at once.
    for round_ in range(30):
        assert _six_processes_open(f"sqlite:///{tmp_path / f'class_{round_}.db'}") == ["ok"] * 6, f"round {round_}"


class _LockedCursor:
    """Says "database is locked" to the first two WAL switches, as a connection mid-switch makes it."""

    def __init__(self):
        self.tries = 0

    def execute(self, _sql):
        self.tries += 1
        if self.tries <= 2:
            raise sqlite3.OperationalError("database is locked")
        return self

    def fetchone(self):
        return ("wal",)


def test_the_switch_to_write_ahead_log_waits_out_a_lock_instead_of_failing():
    cursor = _LockedCursor()
    engine_module._use_write_ahead_log(cursor)
    assert cursor.tries == 3


def _students_answer(url, code, first, count, start, results):
    store = classroom.Store(url)
    start.wait()
    try:
        for number in range(first, first + count):
            student = store.join(code, f"student {number}")
            store.answer(code, student, Q1, str(number % 3))
            store.answer(code, student, Q1, str(number % 4))  # the last answer counts
        results.put("ok")
    except Exception as problem:  # noqa: BLE001
        results.put(f"{type(problem).__name__}: {problem}")
    finally:
        store.engine.dispose()


def test_several_processes_answering_at_once_are_counted_exactly(store, room, database_url):
    asked(store, room)
    context = multiprocessing.get_context("fork")
    start, results = context.Event(), context.Queue()
    processes, each = 4, 15
    workers = [context.Process(target=_students_answer, args=(database_url, room.code, p * each, each, start, results))
               for p in range(processes)]
    for worker in workers:
        worker.start()
    start.set()
    outcomes = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(30)
    assert outcomes == ["ok"] * processes
    expected = pd.Series([str(n % 4) for n in range(processes * each)]).value_counts().to_dict()
    assert store.tally(room.code, room.teacher_key, Q1) == expected
    assert len(store.roster(room.code, room.teacher_key)) == processes * each


def test_one_store_is_safe_from_several_threads(store, room):
    asked(store, room)
    problems = []

    def answer(number):
        try:
            student = store.join(room.code, f"thread {number}")
            store.answer(room.code, student, Q1, "0.75" if number % 2 else "0.3")
            store.current(room.code)
        except Exception as problem:  # noqa: BLE001
            problems.append(problem)

    threads = [threading.Thread(target=answer, args=(n,)) for n in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not problems
    assert store.tally(room.code, room.teacher_key, Q1) == {"0.3": 12, "0.75": 12}


# ---------------------------------------------------------------------------- issue 32: identity

@pytest.mark.parametrize("look_alike", ["Ann ", " Ann", "ANN", "ann", "Ａｎｎ", "Ann\ufe0f", "Ann\u00a0", "A\u200anN"],
                         ids=["trailing", "leading", "upper", "lower", "full-width", "variation", "nbsp", "hair-space"])
def test_a_nickname_that_looks_like_one_in_the_class_is_refused(store, room, look_alike):
    store.join(room.code, "Ann")
    with pytest.raises(classroom.NicknameTaken):
        store.join(room.code, look_alike)
    assert store.roster(room.code, room.teacher_key)["nickname"].tolist() == ["Ann"]


@pytest.mark.parametrize("invisible", ["Ann\u200d", "An\u200bn", "\u2066Ann", "Ann\u200e", "Ann\u3164", "\U000e0041Ann"],
                         ids=["zwj", "zero-width-space", "bidi-isolate", "lrm", "hangul-filler", "tag"])
def test_a_nickname_with_an_invisible_character_is_refused_with_the_reason(store, room, invisible):
    with pytest.raises(ValueError, match="invisible") as refused:
        store.join(room.code, invisible)
    assert refused.value.code in ("invisible", "control")
    assert store.roster(room.code, room.teacher_key).empty


def test_a_taken_nickname_is_refused_without_saying_who_is_in_the_class(store, room):
    store.join(room.code, "Zephyrine")
    with pytest.raises(classroom.NicknameTaken) as refused:
        store.join(room.code, "zephyrine ")
    assert "Zephyrine" not in str(refused.value) and "zephyrine" not in str(refused.value)
    assert "already" not in str(refused.value)


# ---------------------------------------------------------------------------- issue 32: limits

def test_a_class_takes_at_most_its_cap_and_a_removed_student_frees_a_place(database_url):
    store = classroom.Store(database_url, max_students=3)
    room = store.create_room("topn")
    first = [store.join(room.code, f"s{n}") for n in range(3)]
    with pytest.raises(ClassFull):
        store.join(room.code, "one too many")
    store.remove(room.code, room.teacher_key, first[0])
    store.join(room.code, "now there is room")
    assert len(store.roster(room.code, room.teacher_key)) == 3
    store.engine.dispose()


def test_joins_from_one_address_are_limited_across_processes_and_reloads(database_url):
    now = [1_000_000.0]
    store = classroom.Store(database_url, clock=lambda: now[0])
    room = store.create_room("topn")
    for n in range(limits.JOIN_BURST):
        store.join(room.code, f"fake {n}", client="203.0.113.7")
    another_process = classroom.Store(database_url, clock=lambda: now[0])  # a reload, another process
    with pytest.raises(JoinThrottled) as refused:
        another_process.join(room.code, "one more", client="203.0.113.7")
    assert refused.value.reason == "joins" and refused.value.seconds == limits.JOIN_EVERY
    store.join(room.code, "a classmate", client="203.0.113.8")  # another phone is not held back
    now[0] += limits.JOIN_EVERY - 0.5
    with pytest.raises(JoinThrottled) as refused:
        store.join(room.code, "one more", client="203.0.113.7")
    assert refused.value.seconds == 1  # 0.5 s left is "wait 1 s", never "wait 0 s"
    now[0] += 0.5
    store.join(room.code, "one more", client="203.0.113.7")
    assert len(store.roster(room.code, room.teacher_key)) == limits.JOIN_BURST + 2
    store.engine.dispose()
    another_process.engine.dispose()


def test_a_room_of_300_behind_one_address_joins_within_a_minute(database_url):
    """Issue 41: a whole class behind a school's NAT joins at once, not one student every 10 s."""
    now = [1_000_000.0]
    store = classroom.Store(database_url, clock=lambda: now[0])
    room = store.create_room("topn")
    for n in range(300):
        store.join(room.code, f"student {n}", client="203.0.113.7")
        now[0] += 0.2  # 300 joins over 60 s of the store's clock
    assert len(store.roster(room.code, room.teacher_key)) == 300
    assert store.join_status(room.code, room.teacher_key)["refused"] == {"address": 0, "full": 0, "locked": 0}
    store.engine.dispose()


def test_a_script_joining_past_the_cap_is_refused_and_the_teacher_sees_how_many_and_why(database_url):
    now = [1_000_000.0]
    store = classroom.Store(database_url, clock=lambda: now[0], max_students=20)
    room = store.create_room("topn")
    for n in range(20):
        store.join(room.code, f"bot {n}", client="198.51.100.9")
    for n in range(7):
        with pytest.raises(ClassFull) as refused:
            store.join(room.code, f"bot {20 + n}", client="198.51.100.9")
    assert refused.value.most == 20 and "full (20 students)" in str(refused.value)
    assert len(store.roster(room.code, room.teacher_key)) == 20
    assert store.join_status(room.code, room.teacher_key) == {
        "locked": False, "refused": {"address": 0, "full": 7, "locked": 0}}
    now[0] += 60 * limits.REFUSED_MINUTES  # the warning fades once the flood stops
    assert store.join_status(room.code, room.teacher_key)["refused"]["full"] == 0
    store.create_room()  # purges what no one can see any more
    assert rows(store, schema.refused_joins) == 0
    store.engine.dispose()


def test_joins_past_the_address_budget_are_refused_and_counted_for_the_teacher(database_url):
    now = [1_000_000.0]
    store = classroom.Store(database_url, clock=lambda: now[0], join_burst=4, join_every=2.0)
    room = store.create_room("topn")
    for n in range(4):
        store.join(room.code, f"bot {n}", client="198.51.100.9")
    for n in range(3):
        with pytest.raises(JoinThrottled):
            store.join(room.code, f"more {n}", client="198.51.100.9")
    assert store.join_status(room.code, room.teacher_key)["refused"] == {"address": 3, "full": 0, "locked": 0}
    store.engine.dispose()


def test_the_budget_of_one_address_is_far_above_a_room_and_refills_within_a_break():
    assert limits.JOIN_BURST >= 300 + 50  # a lecture hall behind one NAT, and some retries
    assert limits.JOIN_BURST * limits.JOIN_EVERY <= 15 * 60  # full again before the next class
    assert classroom.store.MAX_STUDENTS == 1000


def test_a_locked_room_refuses_new_students_keeps_the_others_and_unlocks(store, room):
    asked(store, room)
    ann = store.join(room.code, "Ann", client="203.0.113.7")
    store.lock_room(room.code, room.teacher_key)
    assert store.join_status(room.code, room.teacher_key)["locked"] is True
    for client in ("203.0.113.7", "203.0.113.8", None):  # any address, this machine too
        with pytest.raises(classroom.RoomLocked) as refused:
            store.join(room.code, "Bob", client=client)
    assert "locked" in str(refused.value) and isinstance(refused.value, PermissionError)
    store.answer(room.code, ann, Q1, "0.75")  # the students in it go on as before
    assert store.student(room.code, ann)["nickname"] == "Ann"
    assert list(store.roster(room.code, room.teacher_key).nickname) == ["Ann"]
    assert store.join_status(room.code, room.teacher_key)["refused"] == {"address": 0, "full": 0, "locked": 3}
    other = store.create_room()
    store.join(other.code, "Bob")  # another class is not locked
    store.lock_room(room.code, room.teacher_key, False)
    store.join(room.code, "Bob", client="203.0.113.8")
    assert list(store.roster(room.code, room.teacher_key).nickname) == ["Ann", "Bob"]


def test_wrong_codes_are_counted_by_address_and_the_wait_is_whole_seconds(database_url):
    now = [1_000_000.0]
    store = classroom.Store(database_url, clock=lambda: now[0])
    room = store.create_room("topn")
    for attempt in range(limits.FREE_WRONG_CODES):
        with pytest.raises(classroom.RoomNotFound):
            store.join(f"AAAA{attempt}A", "Eve", client="198.51.100.4")
    with pytest.raises(JoinThrottled) as refused:
        store.join(room.code, "Eve", client="198.51.100.4")  # even the right code waits
    assert refused.value.reason == "wrong_codes" and refused.value.seconds == 5
    now[0] += 4.7
    assert store.join_wait("198.51.100.4") == 1
    store.join(room.code, "Eve", client="198.51.100.5")
    now[0] += 0.3
    store.join(room.code, "Eve again", client="198.51.100.4")
    store.engine.dispose()


def test_the_client_address_is_the_peer_or_the_loopback_proxys_forwarded_address():
    from classroom.clients import client_address

    assert client_address("203.0.113.7", "10.9.9.9") == "203.0.113.7"  # a far client cannot choose its address
    assert client_address(None, "10.9.9.9, 198.51.100.4") == "198.51.100.4"  # nginx appended the last one
    assert client_address("127.0.0.1", "198.51.100.4") == "198.51.100.4"
    assert client_address(None, None) is None  # this machine: not limited
    assert client_address("2001:db8:1:2:3:4:5:6") == client_address("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert client_address("::ffff:198.51.100.4") == "198.51.100.4"


@pytest.mark.parametrize("keep", [True, False], ids=["answers-stay", "answers-go"])
def test_a_removed_student_leaves_the_counts_and_cannot_answer(store, room, keep):
    asked(store, room)
    ann, bob = store.join(room.code, "Ann"), store.join(room.code, "rude name")
    store.answer(room.code, ann, Q1, "0.75")
    store.answer(room.code, bob, Q1, "0.3")
    store.hide(room.code, room.teacher_key, bob)
    assert store.counts(room.code, room.teacher_key, Q1) == {"joined": 2, "answered": 2}  # hidden still counts
    store.remove(room.code, room.teacher_key, bob, keep_answers=keep)
    assert store.counts(room.code, room.teacher_key, Q1) == {"joined": 1, "answered": 1}
    assert store.roster(room.code, room.teacher_key)["nickname"].tolist() == ["Ann"]
    assert store.tally(room.code, room.teacher_key, Q1) == ({"0.75": 1, "0.3": 1} if keep else {"0.75": 1})
    with pytest.raises(LookupError):
        store.student(room.code, bob)
    with pytest.raises(LookupError):
        store.answer(room.code, bob, Q1, "0.75")
    assert ("rude name" in store.export(room.code, room.teacher_key)["nickname"].tolist()) is keep


# ---------------------------------------------------------------------------- issue 32: the export

def _as_a_spreadsheet_reads(text: str) -> list[list[str]]:
    import csv
    import io

    return list(csv.reader(io.StringIO(text)))


def test_the_csv_export_is_safe_in_a_spreadsheet_and_says_the_question_in_time_order(database_url):
    from classroom.export import csv_text

    now = [1_000_000.0]
    store = classroom.Store(database_url, clock=lambda: now[0])
    room = store.create_room("topn")
    asked(store, room, Q1, "0.75", step=2)
    hostile = ["=1+2", "+SUM(A1)", "-2+3", "@cmd", "＝SUM(1)", "=HYPERLINK(\"http://x\")", "Ann"]
    ids = [store.join(room.code, name) for name in hostile]
    store.set_step(room.code, room.teacher_key, "topn", 4, "topn:4", "down")
    for n, student in enumerate(reversed(ids)):  # answers in the reverse order of joining
        now[0] += 1
        store.answer(room.code, student, Q1 if n % 2 else "topn:4", "-1" if n == 0 else "0.75")
    cells = _as_a_spreadsheet_reads(csv_text(store.export(room.code, room.teacher_key)))
    header, body = cells[0], cells[1:]
    for cell in (c for line in cells for c in line):
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r", "＝")), cell
    column = {name: [line[header.index(name)] for line in body] for name in header}
    assert column["nickname"] == [name if name == "Ann" else "'" + name for name in reversed(hostile)]  # in order
    assert column["answered at (UTC)"] == sorted(column["answered at (UTC)"])
    assert set(column["question"]) == {"Three of the four relevant items are in the top 10. What is Recall@10?",
                                       "K shrinks from 10 to 2. What happens to HR@K?"}
    assert set(column["step"]) == {"3. Predict Recall@10", "5. Predict HR@K for a shorter window"}
    assert column["answer"][0] == "'-1" and column["right"][0] == "False"
    assert column["right"][1:] == ["True" if n % 2 else "False" for n in range(1, len(hostile))]
    store.engine.dispose()


@pytest.mark.parametrize("cell", ["=1", "+1", "-1", "@SUM(1)", "\tx", "\rx", "＝1", "＠x"])
def test_a_cell_a_spreadsheet_would_run_gets_an_apostrophe(cell):
    from classroom.export import safe_cell

    assert safe_cell(cell) == "'" + cell and safe_cell("Ann") == "Ann" and safe_cell(None) == ""


# ---------------------------------------------------------------------------- issue 32: classroom features

def test_a_timer_locks_the_answers_for_every_process_when_it_runs_out(database_url):
    now = [1_000_000.0]
    store = classroom.Store(database_url, clock=lambda: now[0])
    other_process = classroom.Store(database_url, clock=lambda: now[0])
    room = store.create_room("topn")
    asked(store, room)
    ann = store.join(room.code, "Ann")
    version = store.current(room.code)["version"]
    assert store.start_timer(room.code, room.teacher_key, Q1, 30) > version
    now[0] += 29.5
    seen = other_process.current(room.code)
    assert seen["state"] == "open" and seen["seconds_left"] == 1 and seen["deadline"] == 1_000_030.0
    other_process.answer(room.code, ann, Q1, "0.75")
    now[0] += 0.5
    assert other_process.current(room.code)["state"] == store.question(room.code, Q1)["state"] == "locked"
    assert store.current(room.code)["seconds_left"] is None
    with pytest.raises(classroom.store.AnswersClosed):
        store.answer(room.code, ann, Q1, "0.3")
    assert store.tally(room.code, room.teacher_key, Q1) == {"0.75": 1}
    with pytest.raises(classroom.store.AnswersClosed):
        store.start_timer(room.code, room.teacher_key, Q1, 30)  # a locked question has no timer to start
    store.reset(room.code, room.teacher_key, Q1)  # open again, without the timer
    assert store.current(room.code)["state"] == "open" and store.current(room.code)["deadline"] is None
    for wrong in (0, -5, 3601):
        with pytest.raises(ValueError):
            store.start_timer(room.code, room.teacher_key, Q1, wrong)
    store.engine.dispose()
    other_process.engine.dispose()


def test_anonymous_mode_hides_every_name_of_who_answered(store, room):
    asked(store, room)
    ann, bob = store.join(room.code, "Ann"), store.join(room.code, "Bob")
    store.answer(room.code, bob, Q1, "0.3")
    store.answer(room.code, ann, Q1, "0.75")
    store.hide(room.code, room.teacher_key, bob)
    assert store.who_answered(room.code, room.teacher_key, Q1) == [None, "Ann"]
    store.set_anonymous(room.code, room.teacher_key, True)
    assert store.current(room.code)["anonymous"] is True
    assert store.who_answered(room.code, room.teacher_key, Q1) == [None, None]
    store.set_anonymous(room.code, room.teacher_key, False)
    assert store.current(room.code)["anonymous"] is False


def test_asking_a_question_again_keeps_the_first_rounds_answers_to_compare(store, room):
    asked(store, room)
    ann, bob = store.join(room.code, "Ann"), store.join(room.code, "Bob")
    store.answer(room.code, ann, Q1, "0.3")
    store.answer(room.code, bob, Q1, "0.3")
    store.reveal(room.code, room.teacher_key, Q1)
    again = store.ask_again(room.code, room.teacher_key, Q1)
    assert again == Q1 + "#2"
    now = store.current(room.code)
    assert (now["question_id"], now["base_question"], now["round"], now["state"]) == (again, Q1, 2, "open")
    store.answer(room.code, ann, again, "0.75")
    store.answer(room.code, bob, again, "0.75")
    rounds = store.rounds(room.code, room.teacher_key, Q1)
    assert [(r["round"], r["state"], r["tally"]) for r in rounds] == [(1, "revealed", {"0.3": 2}), (2, "open", {"0.75": 2})]
    store.set_step(room.code, room.teacher_key, "topn", 3)
    asked(store, room)  # Back to the question's step: its last round, not the first
    assert store.current(room.code)["question_id"] == again
    assert store.ask_again(room.code, room.teacher_key, again) == Q1 + "#3"
    exported = store.export(room.code, room.teacher_key)
    assert sorted(exported["round"].tolist()) == [1, 1, 2, 2]


def test_at_the_end_each_student_sees_their_own_answers_against_the_right_ones(store, room):
    asked(store, room, Q1, "0.75", step=2)
    ann, bob = store.join(room.code, "Ann"), store.join(room.code, "Bob")
    store.answer(room.code, ann, Q1, "0.3")
    store.answer(room.code, bob, Q1, "bobs-answer")
    store.set_step(room.code, room.teacher_key, "topn", 4, Q2, "down")
    store.answer(room.code, ann, Q2, "down")
    before = store.my_answers(room.code, ann)
    assert [(a["question_id"], a["answer"], a["right_answer"], a["right"]) for a in before] == \
        [(Q1, "0.3", None, None), (Q2, "down", None, None)]  # nothing before the reveal
    store.finish(room.code, room.teacher_key)
    assert store.current(room.code)["finished"] is True
    with pytest.raises(classroom.store.AnswersClosed):
        store.answer(room.code, bob, Q2, "up")  # the lesson is over: open questions locked
    mine = store.my_answers(room.code, ann)
    assert [(a["question_id"], a["step"], a["answer"], a["right_answer"], a["right"]) for a in mine] == \
        [(Q1, 2, "0.3", "0.75", False), (Q2, 4, "down", "down", True)]
    assert "bobs-answer" not in repr(mine) and "Bob" not in repr(mine)
    assert [a["answer"] for a in store.my_answers(room.code, bob)] == ["bobs-answer", None]
    with pytest.raises(LookupError):
        store.my_answers(room.code, "forged-student-id")


def test_a_database_made_before_these_columns_gets_them_when_a_store_opens_it(database_url):
    from sqlalchemy import text

    old = classroom.Store(database_url)
    with old.engine.begin() as connection:  # the tables as the previous version made them
        connection.execute(text("DROP INDEX live_students_nickname_key"))
        connection.execute(text("DROP TABLE live_refused_joins"))
        for table, column in (("live_rooms", "anonymous"), ("live_rooms", "finished"), ("live_rooms", "locked"),
                              ("live_questions", "deadline"),
                              ("live_questions", "lesson"), ("live_students", "nickname_key"),
                              ("live_students", "removed")):
            connection.execute(text(f"ALTER TABLE {table} DROP COLUMN {column}"))
    old.engine.dispose()
    store = classroom.Store(database_url)
    room = store.create_room("topn")
    asked(store, room)
    store.join(room.code, "Ann")
    with pytest.raises(classroom.NicknameTaken):
        store.join(room.code, "ANN")
    store.start_timer(room.code, room.teacher_key, Q1, 30)
    assert store.current(room.code)["anonymous"] is False and store.current(room.code)["seconds_left"] == 30
    assert store.join_status(room.code, room.teacher_key)["locked"] is False  # NULL: a room from before is open
    store.lock_room(room.code, room.teacher_key)
    with pytest.raises(classroom.RoomLocked):
        store.join(room.code, "Bob")
    assert store.join_status(room.code, room.teacher_key)["refused"]["locked"] == 1
    store.engine.dispose()


# ---------------------------------------------------------------------------- a large class on the console

def test_the_roster_comes_a_page_at_a_time_in_join_order_and_is_searched_by_any_part_of_a_nickname(store, room):
    for n in range(120):
        store.join(room.code, f"Student {n:03d}")
    ann = store.join(room.code, "ＡＮＮ Lee")
    page, total = store.roster_page(room.code, room.teacher_key)
    assert total == 121 and len(page) == 50
    assert page["nickname"].tolist() == [f"Student {n:03d}" for n in range(50)]
    last, _total = store.roster_page(room.code, room.teacher_key, offset=100)
    assert last["nickname"].tolist()[-1] == "ＡＮＮ Lee" and len(last) == 21
    for typed in ("ann", "Ann L", "nnle", "LEE"):
        found, total = store.roster_page(room.code, room.teacher_key, search=typed)
        assert (found["student_id"].tolist(), total) == ([ann], 1), typed
    found, total = store.roster_page(room.code, room.teacher_key, search="student 11")
    assert total == 10 and found["nickname"].tolist()[0] == "Student 110"
    assert store.roster_page(room.code, room.teacher_key, search="100%_")[1] == 0  # LIKE's wildcards are letters
    store.remove(room.code, room.teacher_key, ann)
    assert store.roster_page(room.code, room.teacher_key, search="ann")[1] == 0
    with pytest.raises(PermissionError):
        store.roster_page(room.code, "not the key")


def test_the_consoles_pulse_counts_with_aggregates_and_moves_when_who_answered_would(store, room):
    asked(store, room)
    ann, bob, eve = (store.join(room.code, name) for name in ("Ann", "Bob", "Eve"))
    first = store.pulse(room.code, room.teacher_key, Q1)
    assert (first["joined"], first["answered"], first["last_answer"], first["hidden_answered"]) == (3, 0, None, 0)
    assert {k: first[k] for k in store.current(room.code)} == store.current(room.code)
    store.answer(room.code, ann, Q1, "0.75")
    store.answer(room.code, bob, Q1, "0.3")
    second = store.pulse(room.code, room.teacher_key, Q1)
    assert (second["answered"], second["hidden_answered"]) == (2, 0) and second["last_answer"] is not None
    store.hide(room.code, room.teacher_key, bob)
    assert store.pulse(room.code, room.teacher_key, Q1)["hidden_answered"] == 1
    store.remove(room.code, room.teacher_key, eve)
    assert store.pulse(room.code, room.teacher_key, Q1)["joined"] == 2
    assert store.pulse(room.code, room.teacher_key)["answered"] == 0
    assert store.who_answered(room.code, room.teacher_key, Q1, limit=1) == ["Ann"]
    with pytest.raises(PermissionError):
        store.pulse(room.code, "not the key", Q1)
