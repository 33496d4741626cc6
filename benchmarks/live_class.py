"""A live class under load: one teacher, N phones on the light view.

Run from the project root:

    python benchmarks/live_class.py --teacher console --students 300 --runs 3 # the teacher in Chromium
    python benchmarks/live_class.py --students 300 --runs 3                   # the teacher as Store calls
    python benchmarks/live_class.py --students 1000 --apps 4 --postgres       # four behind nginx, PostgreSQL
    python benchmarks/live_class.py --port 8501 --students 100                # a server already running
                                                                              # (its database: --database)

``--teacher console`` is the real path, what the README's table reports: the teacher is Chromium
(Playwright, 1280x720) on the Live class page, pressing its own Start, Next, Lock, Reveal and Back as a
teacher does, through the first lesson; every phone joins through the join route (``POST
/class/CODE/join``) from an address of its own (127.0.x.y: Linux routes all of 127.0.0.0/8 to
loopback, and the join limits count per address) and follows the real event stream. Measured: each
button's click to its change committed in the database; Next (and Back, Lock) to each phone's screen;
Reveal to each phone's reveal; the last answer to the console's "N of N" on screen; the server's CPU
while the class sits on a question with the console open; and that the reveal every phone received
counts exactly the answers the server confirmed (none lost, none counted twice).

``--teacher store`` (the default) measures the light view alone, at the protocol level:
each student is what a phone's browser does on ``/class/{code}`` (``classroom/web/student.py``): one
server-sent-events stream held open, and an answer POSTed as JSON with its own cookie. Students join
through the Store (the join route's limits are the tests' business, and 300 joins from one address
would meet them). The teacher moves the class with ``Store.set_step`` (what Next does) to each of 5
questions; each student, 0.5-4 s (seeded) after its screen showed the question, sends an option.
Measured: from the teacher's Next to each student's screen holding the question; from an answer's
POST to the teacher's count (``Store.tally``, polled every 0.1 s) including it; errors and timeouts
(counted, never raised); answers lost or counted twice, checked against what was sent; the server's
CPU while the class sits on a step (``--idle`` seconds). ``--runs`` repeats the class on the same
server and prints the medians.

Both modes end on a question with a list per student (a ``variant``, ``classroom/variants.py``): the lesson
``benchmarks/lessons/variant-recall.toml``, step 2, a value question on Recall@3 over each phone's own list of 8.
No built-in lesson has one, so the benchmark's server gets ``benchmarks/lessons/`` as its operator folder
(``RECEVAL_LESSONS_DIR``): with ``--teacher console`` the teacher picks that lesson in the console's "What the class
sees" box (a server the benchmark did not start must have the same folder, else the lesson is counted as not
offered and the question skipped), then presses Next and, once the console counts every answer, Reveal; with
``--teacher store`` the class keeps the file (``Store.use_lesson``) and the teacher goes to the step with
``Store.set_step``, then Lock and ``Store.reveal``. The screen of that step is one per language, as for any step;
each phone does what student.js does with it: when the step's screen arrives it asks ``GET /class/CODE/mine`` (its
cookie says who it is) for its own list and choices, once for the question (Lock asks nothing more), and once more
after the reveal for its own verdict. The phone reads its list as shown ("31 (1)": item 31, grade 1), computes
Recall@3 on it with the metric's own code (``teaching.practice.QUIZ_METRICS``, not the server's verdict), checks the
list is the one the class's seed and the student give (``variants.draw``) and sends the option with that value (one
phone in 5 sends another option on purpose); after the reveal it checks its verdict says "Right." exactly when it
sent its right value and names that value. Counted, never raised: verdicts not right for the phone's own list,
answers in the database not the ones sent, revealed screens whose "right: N of M" is not the database's answers
judged by the phones. Printed on a row of its own: Next -> the step's screen on each phone (p50/p95/max), the
``mine`` request alone (p50/p95), Next -> the phone holding its list, Reveal -> its verdict, and the server's CPU
from Next until every phone holds its list and over the whole step (the console's own reruns included in console
mode). The class's other rows count that step too (its Next, Reveal and answers).
"""

from __future__ import annotations

import argparse
import asyncio
import html
import urllib.parse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from classroom_load import cpu_seconds, load_average, percentile  # noqa: E402

import classroom  # noqa: E402
from classroom import variants  # noqa: E402
from classroom.engine import database_url  # noqa: E402
from classroom.steps import file_lesson_key, know_file_lesson, live_step  # noqa: E402
from classroom.store import base_question  # noqa: E402
from classroom.web.student import COOKIE  # noqa: E402
from content.lessons import LESSONS  # noqa: E402
from content.lessons.library import FOLDER_VARIABLE  # noqa: E402
from deploy import postgres  # noqa: E402
from deploy.serve import AppProcess, Layout  # noqa: E402
from metrics.registry import RankingCase  # noqa: E402
from teaching.practice import QUIZ_METRICS  # noqa: E402

HOST = "127.0.0.1"
CHROMIUM = "/usr/bin/chromium"
VARIANT_LESSON = ROOT / "benchmarks" / "lessons" / "variant-recall.toml"  # the folder: the server's RECEVAL_LESSONS_DIR
VARIANT_STEP = 1       # its question with a list per student (step 0 shows what comes)
WRONG_EVERY = 5        # one phone in 5 sends a wrong option on it: its verdict must say so


def questions(count: int = 5) -> list:
    found = [live_step(lesson.key, i) for lesson in LESSONS for i, step in enumerate(lesson.steps)
             if step.kind == "predict" and step.question.options]
    return found[:count]


def variant_lesson():
    """The benchmark's lesson with a list per student: (its title, its text, its ``lesson`` key, the variant step),
    read into this process as a server process reads a room's lesson file."""
    text = VARIANT_LESSON.read_text("utf-8")
    key = file_lesson_key(text)
    lesson = know_file_lesson(key, text)
    return lesson.title, text, key, live_step(key, VARIANT_STEP)


@dataclass
class Variant:
    """The class's question with a list per student (``variant``), on its own."""
    asked: bool = False
    follow: list[float] = field(default_factory=list)     # Next -> the step's screen on a phone
    listed: list[float] = field(default_factory=list)     # Next -> the phone holds its own list (screen, then /mine)
    mine: list[float] = field(default_factory=list)       # GET /class/CODE/mine for the list, alone
    verdict: list[float] = field(default_factory=list)    # Reveal -> the phone holds its own verdict
    mine_after: list[float] = field(default_factory=list)  # GET /mine after the reveal (the verdict), alone
    checked: int = 0         # phones whose verdict was checked against their own list
    wrong: int = 0           # phones whose list, choices or verdict were not right for their own list
    sent_wrong: int = 0      # phones that sent a wrong option on purpose (their verdict must say "not quite")
    db_differs: int = 0      # phones whose answer in the database is not the one they sent
    reveal_differs: int = 0  # phones whose revealed screen's "right: N of M" is not the class's
    problems: list[str] = field(default_factory=list)     # the first few of the above, for the report
    cpu_change: tuple[float, float] | None = None   # (server CPU seconds, wall seconds): Next -> every phone's list
    cpu_step: tuple[float, float] | None = None     # the same, Next -> every phone's own verdict

    def fault(self, what: str) -> None:
        self.wrong += 1
        if len(self.problems) < 5:
            self.problems.append(what)


@dataclass
class Result:
    follow: list[float] = field(default_factory=list)    # Next -> screen, seconds
    counted: list[float] = field(default_factory=list)   # answer -> teacher's count, seconds
    errors: list[str] = field(default_factory=list)
    sent: int = 0
    lost: int = 0
    doubled: int = 0
    idle_cpu: float | None = None
    connect_s: float = float("nan")
    committed: list[float] = field(default_factory=list)   # a console button's click -> its change in the database
    revealed: list[float] = field(default_factory=list)    # Reveal -> a phone's reveal
    console_count: list[float] = field(default_factory=list)  # the last answer -> "N of N" on the console
    reveal_differs: int = 0   # phones whose reveal did not count exactly the answers sent
    clicks: list[tuple[str, float]] = field(default_factory=list)  # (button, click -> committed), in order
    variant: Variant = field(default_factory=Variant)


class Phone:
    """One student's browser: its event stream, the screens it got and when."""

    def __init__(self, port: int, code: str, student_id: str = "", local: str | None = None):
        self.port, self.code, self.cookie, self.student_id = port, code, f"{COOKIE}={student_id}", student_id
        self.local = (local, 0) if local else None  # the phone's own address
        self.arrived: dict[str, float] = {}  # question id -> when its screen first arrived
        self.screens: list[tuple[int, float, dict]] = []  # (version, when it arrived, screen), in order
        self.newest = self.newest_revealed = 0  # the versions of the last screen, and of the last revealed one
        self.task: asyncio.Task | None = None
        self.problem: str | None = None
        self.joined = bool(student_id)
        self.changed = asyncio.Event()  # set (and replaced) on every screen, and when the stream ends

    async def join(self, nickname: str, timeout: float) -> None:
        """What the join form does: POST the nickname, keep the student cookie of the 303's Set-Cookie."""
        body = urllib.parse.urlencode({"nickname": nickname}).encode()
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, self.port, local_addr=self.local),
                                                timeout)
        try:
            writer.write(f"POST /class/{self.code}/join?lang=en HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                         f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
                         "Connection: close\r\n\r\n".encode() + body)
            await writer.drain()
            head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)).decode(errors="replace")
        finally:
            writer.close()
        found = re.search(rf"(?im)^set-cookie: {COOKIE}=([^;\r\n]+)", head)
        if " 303 " not in head.split("\r\n", 1)[0] or not found:
            raise RuntimeError(f"join refused: {head.splitlines()[0] if head else 'no answer'}")
        self.cookie, self.student_id, self.joined = f"{COOKIE}={found.group(1)}", found.group(1), True

    def after(self, version: int, revealed: bool = False) -> tuple[float, dict] | None:
        """When the first screen newer than ``version`` arrived (with the question revealed, if asked), and it."""
        for number, when, screen in self.screens:
            if number > version and (not revealed or (screen.get("question") or {}).get("state") == "revealed"):
                return when, screen
        return None

    async def follow(self, connected: asyncio.Event) -> None:
        try:
            reader, writer = await asyncio.open_connection(HOST, self.port, limit=1 << 22, local_addr=self.local)
            writer.write(f"GET /class/{self.code}/events HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                         f"Cookie: {self.cookie}\r\nAccept: text/event-stream\r\n\r\n".encode())
            await writer.drain()
            status = await reader.readline()
            if b" 200 " not in status:
                raise RuntimeError(status.decode(errors="replace").strip())
            chunked = False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                chunked |= line.lower().startswith(b"transfer-encoding: chunked")
            connected.set()
            buffer = b""
            while True:
                if chunked:
                    size = int((await reader.readline()).strip() or b"0", 16)
                    if size == 0:
                        break
                    data = await reader.readexactly(size + 2)
                    buffer += data[:-2]
                else:
                    data = await reader.read(65536)
                    if not data:
                        break
                    buffer += data
                while b"\n\n" in buffer:
                    event, buffer = buffer.split(b"\n\n", 1)
                    self._event(event)
            writer.close()
        except asyncio.CancelledError:
            raise
        except Exception as problem:  # noqa: BLE001 - counted and reported, never raised
            self.problem = f"{type(problem).__name__}: {problem}"
            connected.set()
        finally:
            self._changed()

    def _changed(self) -> None:
        woken, self.changed = self.changed, asyncio.Event()
        woken.set()

    async def until(self, condition, deadline: float) -> bool:
        """Wait (until ``deadline``, perf_counter) for ``condition()`` to hold after a screen; whether it does."""
        while not condition():
            left = deadline - time.perf_counter()
            if left <= 0 or self.task is None or self.task.done():
                return condition()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                pass
        return True

    def _event(self, event: bytes) -> None:
        if not event.startswith(b"event: screen\n"):
            return
        screen = json.loads(event.split(b"data: ", 1)[1])
        self.screens.append((screen.get("version", 0), time.perf_counter(), screen))
        self.newest = max(self.newest, screen.get("version", 0))
        if (screen.get("question") or {}).get("state") == "revealed":
            self.newest_revealed = max(self.newest_revealed, screen.get("version", 0))
        question = (screen.get("question") or {}).get("id")
        if question and question not in self.arrived:
            self.arrived[question] = time.perf_counter()
        self._changed()

    async def answer(self, question_id: str, value: str, timeout: float) -> int:
        body = json.dumps({"question_id": question_id, "value": value}).encode()
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, self.port, local_addr=self.local),
                                                timeout)
        try:
            writer.write(f"POST /class/{self.code}/answer HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                         f"Cookie: {self.cookie}\r\nContent-Type: application/json\r\n"
                         f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
            await writer.drain()
            status = await asyncio.wait_for(reader.readline(), timeout)
            return int(status.split()[1])
        finally:
            writer.close()

    async def own(self, question_id: str, timeout: float) -> tuple[int, dict | None]:
        """What student.js's ``fetchOwn`` asks on a variant question: ``GET /class/CODE/mine?lang=en&question=ID``
        with the phone's cookie; (the status, the JSON when 200)."""
        path = f"/class/{self.code}/mine?lang=en&question={urllib.parse.quote(question_id, safe='')}"
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, self.port, local_addr=self.local),
                                                timeout)
        try:
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\nCookie: {self.cookie}\r\n"
                         "Connection: close\r\n\r\n".encode())
            await writer.drain()
            raw = await asyncio.wait_for(reader.read(), timeout)  # to the end: the server closes
        finally:
            writer.close()
        head, _, body = raw.partition(b"\r\n\r\n")
        status = int(head.split(None, 2)[1])
        if re.search(rb"(?im)^transfer-encoding: *chunked", head):
            body = dechunk(body)
        return status, json.loads(body) if status == 200 else None


def dechunk(body: bytes) -> bytes:
    out = b""
    while body:
        size, _, body = body.partition(b"\r\n")
        size = int(size.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out, body = out + body[:size], body[size + 2:]
    return out


# --------------------------------------------------------------------------- a question with a list per student

def plain(markup: str) -> str:
    """The text of a server sentence (HTML), as a student reads it."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup or "")).strip()


def close(a: float, b: float) -> bool:
    return abs(a - b) <= 5e-5  # a variant's options and verdicts carry four decimals


@dataclass
class OwnList:
    """What one phone made of its own list on a variant question."""
    shown: tuple | None = None    # (items, {item: grade}, K) as the phone shows them
    value: float | None = None    # the right value for that list, computed here with the metric's own code
    tried: str | None = None      # the option it sent
    sent: str | None = None       # the same, once the server confirmed it

    def read(self, body: dict, step, seed: str, student_id: str) -> str | None:
        """Read the list ``GET /mine`` returned as the phone shows it ("31 (1)": item 31, grade 1; "K = 3" in the
        facts) and compute the step's metric on it; the problem, or None. The list must be the one the class's seed
        and the student give (``classroom.variants.draw``), and the same at every ask."""
        try:
            items, truth = [], {}
            for shown in body["items"]:
                item, grade = re.fullmatch(r"(.+?)(?: \(([^()]+)\))?", plain(shown)).groups()
                items.append(item)
                if grade is not None:
                    truth[item] = float(grade)
            k = int(re.search(r"K = (\d+)", plain(body["facts"])).group(1))
        except (KeyError, TypeError, AttributeError, ValueError) as problem:
            return f"its list could not be read: {type(problem).__name__}: {problem}"
        if self.shown is not None:
            return None if self.shown == (items, truth, k) else "its list changed between two asks"
        self.shown = items, truth, k
        self.value = float(QUIZ_METRICS[step.lesson_step.question.metric].compute(
            RankingCase(items, truth, k, step.lesson_step.scenario.get("gain", "linear"))))
        drawn = variants.draw(step.lesson_step, seed, student_id, base_question(step.question_id))
        if ([str(i) for i in drawn["recommended"]], {str(i): float(g) for i, g in drawn["ground_truth"].items()},
                drawn["k"]) != self.shown:
            return "its list is not the one the class's seed and the student give"
        return None


def verdict_problem(sent: str | None, value: float, body: dict | None) -> str | None:
    """Whether a phone's own verdict after the reveal (``GET /mine``'s ``verdict``, in English) is right for its own
    list, whose right value the phone computed (``value``): "Right." exactly when it sent that value, and that value
    the one the verdict names. None when it is; else what is wrong."""
    said = plain((body or {}).get("verdict") or "")
    if not said:
        return "no verdict"
    right = sent is not None and close(float(sent), value)
    if said.startswith("Right.") != right:
        return f"verdict {said!r} for {sent!r}, its right value {value:.4f}"
    named = re.findall(r"-?\d+\.\d+", said)
    if not named or not close(float(named[-1]), value):
        return f"verdict {said!r} does not name its right value {value:.4f}"
    return None


class StepWatch:
    """The server's CPU over a variant step: from before the teacher's Next to the last phone holding its own list
    (the step change: one screen per language, a /mine per phone), and to the last phone holding its verdict."""

    def __init__(self, pids: list[int], phones: int):
        self.pids, self.left = pids, phones
        self.cpu, self.at = cpu_seconds(pids), time.perf_counter()
        self.listed_at: tuple[float, float] | None = None

    def listed(self) -> None:
        """One phone is done asking for its list (it has it, or gave up)."""
        self.left -= 1
        if self.left == 0:
            self.listed_at = cpu_seconds(self.pids), time.perf_counter()

    def finish(self, variant: Variant) -> None:
        if not self.pids:
            return
        if self.listed_at is not None:
            variant.cpu_change = self.listed_at[0] - self.cpu, self.listed_at[1] - self.at
        variant.cpu_step = cpu_seconds(self.pids) - self.cpu, time.perf_counter() - self.at


def own_plans(phones: list[Phone], rng: random.Random) -> list[tuple[float, float | None]]:
    """Each phone's (seconds it thinks after its list arrived, where among its wrong options it picks, or None for
    the right one), seeded; one phone in ``WRONG_EVERY`` (the third, the eighth, ...) picks a wrong one."""
    return [(rng.uniform(0.5, 4.0), rng.random() if n % WRONG_EVERY == 2 else None) for n in range(len(phones))]


async def ask_own(phone: Phone, number: int, step, started: float, plan: tuple[float, float | None], seed: str,
                  own: OwnList, watch: StepWatch, timeout: float, result: Result, confirmed: Counter,
                  unsure: Counter) -> float | None:
    """One phone on a variant question, as student.js does: once the step's screen arrived (timed from ``started``,
    the teacher's Next), ``GET /mine`` for its own list (once: the lock does not ask again), the right value for it
    computed here, and ``plan``'s option sent after its thinking time. Returns when it was sent (None: not
    confirmed)."""
    variant = result.variant
    try:
        if not await phone.until(lambda: step.question_id in phone.arrived, started + timeout):
            return None  # counted by the caller
        variant.follow.append(phone.arrived[step.question_id] - started)
        asked = time.perf_counter()
        try:
            status, body = await phone.own(step.question_id, timeout)
        except Exception as problem:  # noqa: BLE001 - a timeout or a dropped connection: counted
            result.errors.append(f"student {number} asking for its list: {type(problem).__name__}: {problem}")
            return None
        got = time.perf_counter()
        if status != 200:
            result.errors.append(f"student {number} asking for its list: HTTP {status}")
            return None
        variant.mine.append(got - asked)
        variant.listed.append(got - started)
    finally:
        watch.listed()
    problem = own.read(body, step, seed, phone.student_id)
    options = [option["value"] for option in body.get("options") or []]
    right = [label for label in options if own.value is not None and close(float(label), own.value)]
    if problem or len(right) != 1:
        variant.fault(f"student {number}: {problem or f'{len(right)} of its options {options} are its right value'}")
        return None
    others = [label for label in options if label != right[0]]
    value = others[int(plan[1] * len(others))] if plan[1] is not None and others else right[0]
    variant.sent_wrong += value != right[0]
    await asyncio.sleep(max(0.0, got + plan[0] - time.perf_counter()))
    own.tried = value
    sent = await send_answer(phone, number, step.question_id, value, timeout, result, confirmed, unsure)
    if sent is not None:
        own.sent = value
    return sent


async def own_verdicts(phones: list[Phone], step, before: int, revealed: float, owns: list[OwnList], seed: str,
                       timeout: float, result: Result, count_missing: bool) -> None:
    """After the Reveal (version ``before`` and earlier were not revealed; ``revealed``: when it was pressed), each
    phone asks ``GET /mine`` again once its revealed screen arrived, as student.js does, and checks the verdict
    against the right value it computed for its own list. Phones that never got the reveal are counted as errors
    here only when ``count_missing`` (the console's ``phones_after`` counts them)."""
    variant = result.variant

    async def one(number: int, phone: Phone, own: OwnList) -> None:
        if not phone.joined:
            return
        if not await phone.until(lambda: phone.newest_revealed > before, revealed + timeout):
            if count_missing:
                result.errors.append(f"student {number} did not get the reveal within {timeout:.0f} s")
            return
        asked = time.perf_counter()
        try:
            status, body = await phone.own(step.question_id, timeout)
        except Exception as problem:  # noqa: BLE001 - counted
            result.errors.append(f"student {number} asking for its verdict: {type(problem).__name__}: {problem}")
            return
        if status != 200:
            result.errors.append(f"student {number} asking for its verdict: HTTP {status}")
            return
        got = time.perf_counter()
        variant.mine_after.append(got - asked)
        variant.verdict.append(got - revealed)
        if own.tried is not None and own.sent is None:
            return  # its answer's reply never came: recorded or not, its verdict cannot be checked
        variant.checked += 1
        problem = own.read(body, step, seed, phone.student_id)  # the list again (the first ask may have failed)
        if not problem and own.value is not None:
            problem = verdict_problem(own.sent, own.value, body)
        if problem:
            variant.fault(f"student {number}: {problem}")

    await asyncio.gather(*(one(n, p, o) for n, (p, o) in enumerate(zip(phones, owns, strict=True))))


def answers_by_student(engine, code: str, question_id: str) -> dict[str, str]:
    from sqlalchemy import select

    from classroom.schema import answers
    with engine.connect() as connection:
        return dict(connection.execute(select(answers.c.student_id, answers.c.value).where(
            answers.c.room == code, answers.c.question_id == question_id)).all())


def check_own(engine, code: str, step, phones: list[Phone], owns: list[OwnList], before: int,
              result: Result) -> None:
    """The database's answers against what each phone sent, and each phone's revealed screen's "right: N of M"
    against the answers in the database judged by the phones' own right values."""
    variant = result.variant
    stored = answers_by_student(engine, code, step.question_id)
    for phone, own in zip(phones, owns, strict=True):
        if (own.sent is not None and stored.get(phone.student_id) != own.sent) or (
                own.tried is None and phone.student_id in stored):
            variant.db_differs += 1
    values = {phone.student_id: own.value for phone, own in zip(phones, owns, strict=True)}
    if any(values.get(student) is None for student in stored):
        return  # a phone that never read its list: the class's count cannot be judged here
    expected = (sum(close(float(value), values[student]) for student, value in stored.items()), len(stored))
    for phone in phones:
        got = phone.after(before, revealed=True)
        if got is None:
            continue
        said = plain(((got[1].get("question") or {}).get("reveal") or {}).get("right") or "").replace(",", "")
        found = re.search(r"(\d+) of (\d+)", said)
        if (tuple(int(n) for n in found.groups()) if found else (0, 0)) != expected:
            variant.reveal_differs += 1
            result.reveal_differs += 1


async def run_class(port: int, store: classroom.Store, students: int, seed: int, idle: float, pids: list[int],
                    timeout: float) -> Result:
    result = Result()
    rng = random.Random(seed)
    room = store.create_room()
    phones = [Phone(port, room.code, store.join(room.code, f"student {n}")) for n in range(students)]
    store.set_step(room.code, room.teacher_key, LESSONS[0].key, 0)
    began = time.perf_counter()
    for start in range(0, students, 50):  # a class opens the page over a few seconds
        batch = phones[start:start + 50]
        ready = [asyncio.Event() for _ in batch]
        for phone, event in zip(batch, ready):
            phone.task = asyncio.create_task(phone.follow(event))
        try:
            await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), timeout)
        except TimeoutError:
            result.errors.append(f"phones {start}-{start + len(batch)} not connected within {timeout:.0f} s")
    result.connect_s = time.perf_counter() - began
    result.errors += [f"stream: {p.problem}" for p in phones if p.problem]
    try:
        if idle:
            await asyncio.sleep(2)
            before, wall = cpu_seconds(pids), time.perf_counter()
            await asyncio.sleep(idle)
            result.idle_cpu = (cpu_seconds(pids) - before) / (time.perf_counter() - wall) * 100
        for step in questions():
            await one_step(store, room, step, phones, rng, result, timeout)
        # Then the question with a list per student: the lesson file kept with the class, as the console does.
        text = VARIANT_LESSON.read_text("utf-8")
        lesson = await asyncio.to_thread(store.use_lesson, room.code, room.teacher_key, text)
        await one_step(store, room, live_step(lesson, VARIANT_STEP), phones, rng, result, timeout, pids)
    finally:
        for phone in phones:
            phone.task.cancel()
        await asyncio.gather(*(p.task for p in phones), return_exceptions=True)
        store.end_room(room.code, room.teacher_key)
    return result


async def one_step(store, room, step, phones: list[Phone], rng: random.Random, result: Result, timeout: float,
                   pids: list[int] = ()):
    """The teacher's Next to ``step``, every phone answering, the teacher's count, Lock; on a question with a list
    per student (``step.variant``) each phone first asks for its own list and answers for it, then Reveal and
    each phone's own verdict, checked."""
    own = step.variant is not None
    if own:
        result.variant.asked = True
        plans, owns, watch = own_plans(phones, rng), [OwnList() for _ in phones], StepWatch(pids, len(phones))
    started = time.perf_counter()
    await asyncio.to_thread(store.set_step, room.code, room.teacher_key, step.lesson, step.index, step.question_id,
                            step.right_answer)
    seed = (await asyncio.to_thread(store.current, room.code))["seed"] if own else ""
    confirmed: Counter = Counter()   # answers the server said it recorded
    unsure: Counter = Counter()      # answers sent whose reply never came (recorded or not)
    sent_at: list[float] = []

    async def student(number: int, phone: Phone) -> None:
        if own:
            sent = await ask_own(phone, number, step, started, plans[number], seed, owns[number], watch, timeout,
                                 result, confirmed, unsure)
            if step.question_id not in phone.arrived:
                result.errors.append(f"student {number} did not see the question within {timeout:.0f} s")
                return
            result.follow.append(phone.arrived[step.question_id] - started)
            if sent is not None:
                sent_at.append(sent)
            return
        deadline = started + timeout
        while step.question_id not in phone.arrived and time.perf_counter() < deadline and not phone.task.done():
            await asyncio.sleep(0.02)
        if step.question_id not in phone.arrived:
            result.errors.append(f"student {number} did not see the question within {timeout:.0f} s")
            return
        result.follow.append(phone.arrived[step.question_id] - started)
        await asyncio.sleep(rng.uniform(0.5, 4.0))
        value = rng.choice(step.options).label
        sent = await send_answer(phone, number, step.question_id, value, timeout, result, confirmed, unsure)
        if sent is not None:
            sent_at.append(sent)

    async def teacher_count() -> None:
        counted, pending = 0, []
        while True:
            pending += sent_at
            sent_at.clear()
            pending.sort()
            total = sum((await asyncio.to_thread(store.tally, room.code, room.teacher_key, step.question_id)).values())
            now = time.perf_counter()
            while counted < total and pending:
                result.counted.append(now - pending.pop(0))
                counted += 1
            if done.is_set() and not sent_at and (not pending or time.perf_counter() > stop_at):
                return
            await asyncio.sleep(0.1)

    done = asyncio.Event()
    stop_at = float("inf")
    counter = asyncio.create_task(teacher_count())
    await asyncio.gather(*(student(n, p) for n, p in enumerate(phones)))
    stop_at = time.perf_counter() + timeout
    done.set()
    try:
        await asyncio.wait_for(counter, timeout + 5)
    except TimeoutError:
        result.errors.append("the teacher's count never caught up")
    await asyncio.to_thread(store.lock, room.code, room.teacher_key, step.question_id)
    tally = await asyncio.to_thread(store.tally, room.code, room.teacher_key, step.question_id)
    check_tally(tally, confirmed, unsure, result)
    if own:
        revealed = time.perf_counter()
        before = await asyncio.to_thread(store.reveal, room.code, room.teacher_key, step.question_id) - 1
        await own_verdicts(phones, step, before, revealed, owns, seed, timeout, result, count_missing=True)
        watch.finish(result.variant)
        await asyncio.to_thread(check_own, store.engine, room.code, step, phones, owns, before, result)


def check_tally(tally: dict[str, int], confirmed: Counter, unsure: Counter, result: Result) -> None:
    """The answers counted against those the server confirmed (lost) and those sent (counted twice)."""
    for label in set(tally) | set(confirmed) | set(unsure):
        result.lost += max(0, confirmed[label] - tally.get(label, 0))
        result.doubled += max(0, tally.get(label, 0) - confirmed[label] - unsure[label])


# --------------------------------------------------------------------------- the teacher in a browser

def phone_address(number: int) -> str:
    """Phone ``number``'s own loopback address: 127.0.1.1, 127.0.1.2, ... (never 127.0.0.x, the machine's own)."""
    return f"127.0.{1 + number // 250}.{1 + number % 250}"


class Console:
    """The teacher's Chromium on the Live class page, and the database the benchmark reads to time commits."""

    def __init__(self, page, engine, timeout: float):
        self.page, self.engine, self.timeout = page, engine, timeout
        self.code = ""

    async def start(self, port: int) -> str:
        await self.page.goto(f"http://{HOST}:{port}/Live_class", timeout=self.timeout * 1000)
        await self.page.locator(".st-key-live_start button").click(timeout=self.timeout * 1000)
        found = self.page.get_by_test_id("live-code")
        await found.wait_for(timeout=self.timeout * 1000)
        self.code = (await found.inner_text()).strip()
        return self.code

    def version(self) -> int:
        from sqlalchemy import select

        from classroom.schema import rooms
        with self.engine.connect() as connection:
            return connection.execute(select(rooms.c.version).where(rooms.c.code == self.code)).scalar_one()

    def _committed_after(self, before: int, deadline: float) -> float | None:
        while time.perf_counter() < deadline:
            if self.version() > before:
                return time.perf_counter()
            time.sleep(0.005)
        return None

    async def press(self, key: str, result: Result) -> tuple[int, float] | None:
        """Click the console's button ``key`` as a teacher does; (the version before, when clicked), the
        commit timed into ``result.committed``; None (an error counted) when it never committed."""
        before = await asyncio.to_thread(self.version)
        button = self.page.locator(f".st-key-{key} button")
        try:
            await button.hover(timeout=self.timeout * 1000)  # the pointer is on the button: timed from the click
            clicked = time.perf_counter()
            await button.click(timeout=self.timeout * 1000)
        except Exception as problem:  # noqa: BLE001 - counted, never raised
            result.errors.append(f"console: {key} not pressed: {type(problem).__name__}: {str(problem)[:120]}")
            return None
        committed = await asyncio.to_thread(self._committed_after, before, clicked + self.timeout)
        if committed is None:
            result.errors.append(f"console: {key} not committed within {self.timeout:.0f} s")
            return None
        result.committed.append(committed - clicked)
        result.clicks.append((key.removeprefix("live_"), committed - clicked))
        return before, clicked

    async def choose(self, title: str, result: Result) -> tuple[int, float] | None:
        """Pick the lesson ``title`` in the console's "What the class sees" box as a teacher does (it opens at its
        first step); timed as :meth:`press` is, under the name "lesson"."""
        before = await asyncio.to_thread(self.version)
        try:
            await self.page.get_by_role("combobox", name="What the class sees").click(timeout=self.timeout * 1000)
            option = self.page.get_by_role("option", name=re.compile(re.escape(title)))
            if not await option.count():
                result.errors.append(f"console: the lesson {title!r} is not offered in What the class sees (a server "
                                     f"the benchmark did not start needs {FOLDER_VARIABLE}={VARIANT_LESSON.parent})")
                await self.page.keyboard.press("Escape")
                return None
            await option.first.hover(timeout=self.timeout * 1000)
            clicked = time.perf_counter()
            await option.first.click(timeout=self.timeout * 1000)
        except Exception as problem:  # noqa: BLE001 - counted, never raised
            result.errors.append(f"console: lesson not chosen: {type(problem).__name__}: {str(problem)[:120]}")
            return None
        committed = await asyncio.to_thread(self._committed_after, before, clicked + self.timeout)
        if committed is None:
            result.errors.append(f"console: the lesson not committed within {self.timeout:.0f} s")
            return None
        result.committed.append(committed - clicked)
        result.clicks.append(("lesson", committed - clicked))
        return before, clicked

    async def shows_count(self, answered: int, joined: int, since: float, result: Result) -> None:
        """Wait for the console's Answered card to read "answered of joined"; time it from ``since``."""
        from content import numbers
        text = f"{numbers.integer(answered)} of {numbers.integer(joined)}"
        card = self.page.get_by_test_id("stMetricValue").filter(has_text=re.compile(rf"^\s*{re.escape(text)}\s*$"))
        try:
            await card.first.wait_for(timeout=self.timeout * 1000)
        except Exception:  # noqa: BLE001 - counted, never raised
            result.errors.append(f"console: never showed {text!r} within {self.timeout:.0f} s")
            return
        result.console_count.append(time.perf_counter() - since)


async def phones_after(phones: list[Phone], before: int, clicked: float, timeout: float, result: Result,
                       times: list[float], what: str, revealed: bool = False) -> None:
    """Wait until every phone holds a screen newer than ``before``; each one's delay from the click into ``times``."""
    deadline = clicked + timeout
    waiting = phones
    while waiting and time.perf_counter() < deadline:  # cheap each round: 1,000 phones share the cores with the server
        waiting = [p for p in waiting if (p.newest_revealed if revealed else p.newest) <= before and not p.task.done()]
        if waiting:
            await asyncio.sleep(0.05)
    for phone in phones:
        got = phone.after(before, revealed)
        if got is not None:
            times.append(got[0] - clicked)
    if waiting:
        result.errors.append(f"{len(waiting)} phones did not get the {what} within {timeout:.0f} s")


def answers_in_database(engine, code: str, question_id: str) -> Counter:
    from sqlalchemy import func, select

    from classroom.schema import answers
    with engine.connect() as connection:
        return Counter(dict(connection.execute(select(answers.c.value, func.count()).where(
            answers.c.room == code, answers.c.question_id == question_id).group_by(answers.c.value)).all()))


async def console_class(port: int, url: str, students: int, seed: int, idle: float, pids: list[int],
                        timeout: float, store: classroom.Store | None = None) -> Result:
    """One class with the teacher in Chromium, through the first lesson, then the benchmark's lesson with a list per
    student (see the module's docstring); ``store`` reads the class's seed (each phone checks its list is its own)."""
    from playwright.async_api import async_playwright

    from classroom.engine import make_engine

    result, rng = Result(), random.Random(seed)
    engine = make_engine(url)
    phones: list[Phone] = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = await browser.new_page(viewport={"width": 1280, "height": 720})
            console = Console(page, engine, timeout)
            try:
                code = await console.start(port)
            except Exception as problem:  # noqa: BLE001 - counted, never raised
                result.errors.append(f"console: no class started: {type(problem).__name__}: {str(problem)[:160]}")
                return result
            phones = [Phone(port, code, local=phone_address(n)) for n in range(students)]
            began = time.perf_counter()
            for start in range(0, students, 50):  # a class joins over a few seconds
                batch = phones[start:start + 50]
                joined = await asyncio.gather(*(p.join(f"student {start + n}", timeout) for n, p in enumerate(batch)),
                                              return_exceptions=True)
                result.errors += [f"join: {type(j).__name__}: {j}" for j in joined if isinstance(j, BaseException)]
                ready = [asyncio.Event() for _ in batch]
                for phone, event, problem in zip(batch, ready, joined, strict=True):
                    phone.task = asyncio.create_task(asyncio.sleep(0) if isinstance(problem, BaseException)
                                                     else phone.follow(event))
                    if isinstance(problem, BaseException):
                        event.set()
                try:
                    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready)), timeout)
                except TimeoutError:
                    result.errors.append(f"phones {start}-{start + len(batch)} not connected within {timeout:.0f} s")
            await phones_after(phones, 0, began, timeout, result, [], "first screen")
            result.connect_s = time.perf_counter() - began
            result.errors += [f"stream: {p.problem}" for p in phones if p.problem]
            await teach(console, phones, rng, result, idle, pids, timeout)
            await teach_variant(console, store or classroom.Store(url), phones, rng, result, pids, timeout)
        finally:
            for phone in phones:
                if phone.task is not None:
                    phone.task.cancel()
            await asyncio.gather(*(p.task for p in phones if p.task is not None), return_exceptions=True)
            if console.code:  # the teacher ends the class as a teacher does: nothing of it stays
                try:
                    tools = page.get_by_text("Students, answers and ending the class")
                    await tools.click(timeout=timeout * 1000)
                    await page.locator(".st-key-live_end_sure label").click(timeout=timeout * 1000)
                    await page.locator(".st-key-live_end button").click(timeout=timeout * 1000)
                    await page.get_by_text("The class has ended").wait_for(timeout=timeout * 1000)
                except Exception as problem:  # noqa: BLE001 - counted, never raised
                    result.errors.append(f"console: the class did not end: {type(problem).__name__}")
            await browser.close()
            engine.dispose()
    return result


async def teach(console: Console, phones: list[Phone], rng: random.Random, result: Result, idle: float,
                pids: list[int], timeout: float) -> None:
    """Next through the first lesson; on each question the phones answer, then Reveal (Lock first from the
    second question on); Back once at the end. The server's CPU is measured on the first question, idle."""
    lesson = LESSONS[0]
    asked = 0
    for index in range(1, len(lesson.steps)):
        await asyncio.sleep(1.0)  # a teacher's pause; the console's last rerun settles
        pressed = await console.press("live_next", result)
        if pressed is None:
            continue
        await phones_after(phones, *pressed, timeout, result, result.follow, "next step")
        step = live_step(lesson.key, index)
        if step.question_id is None or not step.options:
            continue
        if asked == 0 and idle:
            await asyncio.sleep(2)
            before, wall = cpu_seconds(pids), time.perf_counter()
            await asyncio.sleep(idle)
            result.idle_cpu = (cpu_seconds(pids) - before) / (time.perf_counter() - wall) * 100
        asked += 1
        confirmed, unsure = await answer_all(phones, step, rng, result, timeout, console)
        if asked > 1:
            locked = await console.press("live_lock", result)
            if locked is not None:
                await phones_after(phones, *locked, timeout, result, result.follow, "lock")
        revealed = await console.press("live_reveal", result)
        if revealed is None:
            continue
        await phones_after(phones, *revealed, timeout, result, result.revealed, "reveal", revealed=True)
        check_reveal(console, phones, step, revealed[0], confirmed, unsure, result)
    await asyncio.sleep(1.0)
    back = await console.press("live_back", result)
    if back is not None:
        await phones_after(phones, *back, timeout, result, result.follow, "step back")


async def teach_variant(console: Console, store: classroom.Store, phones: list[Phone], rng: random.Random,
                        result: Result, pids: list[int], timeout: float) -> None:
    """The benchmark's lesson (benchmarks/lessons/, the server's operator folder) picked in the console's box, Next
    to its question with a list per student: each phone asks for its own list once its screen arrived and answers
    for it (``ask_own``); the console's count; Reveal; each phone asks for its own verdict and checks it."""
    title, _text, _key, step = variant_lesson()
    await asyncio.sleep(1.0)
    chosen = await console.choose(title, result)
    if chosen is None:
        return
    await phones_after(phones, *chosen, timeout, result, result.follow, "lesson's first step")
    await asyncio.sleep(1.0)
    result.variant.asked = True
    plans, owns, watch = own_plans(phones, rng), [OwnList() for _ in phones], StepWatch(pids, len(phones))
    pressed = await console.press("live_next", result)
    if pressed is None:
        return
    seed = (await asyncio.to_thread(store.current, console.code))["seed"]
    confirmed: Counter = Counter()
    unsure: Counter = Counter()
    sent = await asyncio.gather(
        phones_after(phones, *pressed, timeout, result, result.follow, "step with a list per student"),
        *(ask_own(phone, n, step, pressed[1], plans[n], seed, owns[n], watch, timeout, result, confirmed, unsure)
          for n, phone in enumerate(phones)))
    last_sent = max((when for when in sent[1:] if when is not None), default=None)
    if last_sent is not None:
        await console.shows_count(sum(confirmed.values()) + sum(unsure.values()), sum(p.joined for p in phones),
                                  last_sent, result)
    revealed = await console.press("live_reveal", result)
    if revealed is None:
        return
    await asyncio.gather(
        phones_after(phones, *revealed, timeout, result, result.revealed, "reveal", revealed=True),
        own_verdicts(phones, step, revealed[0], revealed[1], owns, seed, timeout, result, count_missing=False))
    watch.finish(result.variant)
    check_tally(await asyncio.to_thread(answers_in_database, console.engine, console.code, step.question_id),
                confirmed, unsure, result)
    await asyncio.to_thread(check_own, console.engine, console.code, step, phones, owns, revealed[0], result)


async def send_answer(phone, number: int, question_id: str, value: str, timeout: float, result,
                      confirmed: Counter, unsure: Counter) -> float | None:
    """One phone's answer, counted in ``confirmed`` when the server says it recorded it, in ``unsure`` when no
    reply came (recorded or not); returns when it was sent, or None when it was not confirmed."""
    result.sent += 1
    sent = time.perf_counter()
    try:
        status = await phone.answer(question_id, value, timeout)
    except Exception as problem:  # noqa: BLE001 - a timeout or a dropped connection: counted
        unsure[value] += 1
        result.errors.append(f"student {number} answering: {type(problem).__name__}: {problem}")
        return None
    if status != 200:
        result.errors.append(f"student {number} answering: HTTP {status}")
        return None
    confirmed[value] += 1
    return sent


async def answer_all(phones: list[Phone], step, rng: random.Random, result: Result, timeout: float,
                     console: Console) -> tuple[Counter, Counter]:
    """Each phone answers 0.5-4 s (seeded) after its screen showed the question; then the console's count."""
    confirmed: Counter = Counter()   # answers the server said it recorded
    unsure: Counter = Counter()      # answers sent whose reply never came (recorded or not)
    last_sent = [0.0]
    plan = [(rng.uniform(0.5, 4.0), rng.choice(step.options).label) for _ in phones]

    async def student(number: int, phone: Phone) -> None:
        if step.question_id not in phone.arrived:
            return  # counted by phones_after
        await asyncio.sleep(plan[number][0])
        value = plan[number][1]
        sent = await send_answer(phone, number, step.question_id, value, timeout, result, confirmed, unsure)
        if sent is not None:
            last_sent[0] = max(last_sent[0], sent)

    await asyncio.gather(*(student(n, p) for n, p in enumerate(phones)))
    joined = sum(phone.joined for phone in phones)
    if confirmed:
        await console.shows_count(sum(confirmed.values()) + sum(unsure.values()), joined, last_sent[0], result)
    return confirmed, unsure


def check_reveal(console: Console, phones: list[Phone], step, before: int, confirmed: Counter, unsure: Counter,
                 result: Result) -> None:
    """The database's tally against what the server confirmed, and each phone's reveal against it."""
    tally = answers_in_database(console.engine, console.code, step.question_id)
    check_tally(tally, confirmed, unsure, result)
    for phone in phones:
        got = phone.after(before, revealed=True)
        if got is None:
            continue
        counts = ((got[1].get("question") or {}).get("reveal") or {}).get("counts") or []
        if Counter({c["value"]: c["students"] for c in counts}) != tally:
            result.reveal_differs += 1


def console_line(result: Result, students: int, processes: int, database: str) -> str:
    idle = f"{result.idle_cpu:.1f}% of one core" if result.idle_cpu is not None else "not measured"
    return (f"{students} students, teacher in Chromium, {processes} process(es), {database}, load {load_average()}: "
            f"click -> committed p50 {ms(result.committed, .5):.0f} / p95 {ms(result.committed, .95):.0f} / max "
            f"{max(result.committed, default=float('nan')) * 1000:.0f} ms ({len(result.committed)} clicks); "
            f"Next -> screen p50 {ms(result.follow, .5):.0f} / p95 {ms(result.follow, .95):.0f} ms "
            f"({len(result.follow)} screens); Reveal -> screen p50 {ms(result.revealed, .5):.0f} / p95 "
            f"{ms(result.revealed, .95):.0f} ms ({len(result.revealed)}); last answer -> console count "
            f"{' / '.join(f'{v * 1000:.0f}' for v in result.console_count) or 'never'} ms; "
            f"{result.sent} sent, {result.lost} lost, {result.doubled} counted twice, {result.reveal_differs} phones' "
            f"reveal differed; {len(result.errors)} errors; idle class, console open: {idle}; "
            f"joined and connected in {result.connect_s:.1f} s; clicks in order (ms): "
            + ", ".join(f"{key} {seconds * 1000:.0f}" for key, seconds in result.clicks))


def console_medians(results: list[Result]) -> str:
    idle = median([r.idle_cpu for r in results if r.idle_cpu is not None])
    return (f"median of {len(results)} runs (teacher in Chromium): click -> committed p95 "
            f"{median([ms(r.committed, .95) for r in results]):.0f} ms; Next -> screen p50 "
            f"{median([ms(r.follow, .5) for r in results]):.0f} / p95 "
            f"{median([ms(r.follow, .95) for r in results]):.0f}"
            f" ms; Reveal -> screen p50 {median([ms(r.revealed, .5) for r in results]):.0f} / p95 "
            f"{median([ms(r.revealed, .95) for r in results]):.0f} ms; last answer -> console count "
            f"{median([max(r.console_count, default=float('nan')) * 1000 for r in results]):.0f} ms (the slower of "
            f"each run's); idle {idle:.1f}% of one core; lost {sum(r.lost for r in results)}, twice "
            f"{sum(r.doubled for r in results)}, reveals differing {sum(r.reveal_differs for r in results)}, errors "
            f"{sum(len(r.errors) for r in results)} in all")


def cpu_text(measured: tuple[float, float] | None) -> str:
    if measured is None:
        return "not measured"
    used, wall = measured
    return f"{used:.2f} s in {wall:.1f} s ({used / wall * 100 if wall else float('nan'):.0f}% of one core)"


def variant_line(result: Result, students: int) -> str:
    """The question with a list per student, on its own row."""
    v = result.variant
    return (f"list per student, {students} phones: Next -> screen p50 {ms(v.follow, .5):.0f} / p95 "
            f"{ms(v.follow, .95):.0f} / max {max(v.follow, default=float('nan')) * 1000:.0f} ms ({len(v.follow)} "
            f"screens); GET mine (own list) p50 {ms(v.mine, .5):.0f} / p95 {ms(v.mine, .95):.0f} ms ({len(v.mine)}); "
            f"Next -> own list p50 {ms(v.listed, .5):.0f} / p95 {ms(v.listed, .95):.0f} ms; Reveal -> own verdict "
            f"p50 {ms(v.verdict, .5):.0f} / p95 {ms(v.verdict, .95):.0f} ms ({len(v.verdict)}; GET mine p50 "
            f"{ms(v.mine_after, .5):.0f} / p95 {ms(v.mine_after, .95):.0f} ms); {v.checked} verdicts checked "
            f"({v.sent_wrong} sent a wrong option), {v.wrong} not right for the phone's own list, {v.db_differs} "
            f"answers in the database differing, {v.reveal_differs} reveals' count differing; server CPU Next -> "
            f"every list: {cpu_text(v.cpu_change)}, the whole step: {cpu_text(v.cpu_step)}")


def median(values) -> float:
    """The median of the values that are numbers (a run that measured nothing gives NaN, skipped)."""
    values = [v for v in values if v == v]
    return statistics.median(values) if values else float("nan")


def variant_medians(results: list[Result]) -> str:
    asked = [r.variant for r in results if r.variant.asked]
    change = median([v.cpu_change[0] / v.cpu_change[1] * 100 for v in asked if v.cpu_change and v.cpu_change[1]])
    step = median([v.cpu_step[0] / v.cpu_step[1] * 100 for v in asked if v.cpu_step and v.cpu_step[1]])
    return (f"list per student, median of {len(asked)} runs: Next -> screen p50 "
            f"{median([ms(v.follow, .5) for v in asked]):.0f} / p95 {median([ms(v.follow, .95) for v in asked]):.0f} "
            f"/ max {median([max(v.follow, default=float('nan')) * 1000 for v in asked]):.0f} ms; GET mine p50 "
            f"{median([ms(v.mine, .5) for v in asked]):.0f} / p95 {median([ms(v.mine, .95) for v in asked]):.0f} ms; "
            f"Next -> own list p95 {median([ms(v.listed, .95) for v in asked]):.0f} ms; Reveal -> own verdict p95 "
            f"{median([ms(v.verdict, .95) for v in asked]):.0f} ms; server CPU Next -> every list {change:.0f}%, "
            f"the whole step {step:.0f}% of one core; not right {sum(v.wrong for v in asked)} of "
            f"{sum(v.checked for v in asked)} verdicts, database differing {sum(v.db_differs for v in asked)} in all")


def wait_quiet(pids: list[int], most: float = 180, below: float = 10.0) -> float:
    """Wait (at most ``most`` s) until the server's CPU over 2 s is under ``below``% of a core: a fresh app
    process trains the protocol lab's presets in the background for 20 s or more (deploy/warm.py), which
    would count as the class's idle CPU. Returns the seconds waited."""
    began = time.perf_counter()
    while pids and time.perf_counter() - began < most:
        before, wall = cpu_seconds(pids), time.perf_counter()
        time.sleep(2)
        if (cpu_seconds(pids) - before) / (time.perf_counter() - wall) * 100 < below:
            break
    return time.perf_counter() - began


def listening_pids(port: int) -> list[int]:
    """The processes listening on ``port`` (for a server this benchmark did not start)."""
    try:
        out = subprocess.run(["ss", "-Hltnp", f"sport = :{port}"], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted({int(pid) for pid in re.findall(r"pid=(\d+)", out)})


def ms(values: list[float], q: float) -> float:
    return percentile(values, q) * 1000


def summary_line(result: Result, students: int, processes: int, database: str) -> str:
    idle = f"{result.idle_cpu:.1f}% of one core" if result.idle_cpu is not None else "not measured"
    return (f"{students} students, {processes} process(es), {database}, load {load_average()}: "
            f"Next -> screen p50 {ms(result.follow, .5):.0f} / p95 {ms(result.follow, .95):.0f} / max "
            f"{max(result.follow, default=float('nan')) * 1000:.0f} ms ({len(result.follow)} screens); "
            f"answer -> count p50 {ms(result.counted, .5):.0f} / p95 {ms(result.counted, .95):.0f} ms; "
            f"{result.sent} sent, {result.lost} lost, {result.doubled} counted twice; {len(result.errors)} errors; "
            f"idle class: {idle}; connected in {result.connect_s:.1f} s")


def medians_line(results: list[Result]) -> str:
    idle = median([r.idle_cpu for r in results if r.idle_cpu is not None])
    return (f"median of {len(results)} runs: Next -> screen p50 {median([ms(r.follow, .5) for r in results]):.0f} / "
            f"p95 {median([ms(r.follow, .95) for r in results]):.0f} ms; answer -> count p50 "
            f"{median([ms(r.counted, .5) for r in results]):.0f} / "
            f"p95 {median([ms(r.counted, .95) for r in results]):.0f} ms; idle {idle:.1f}% of one core; lost "
            f"{sum(r.lost for r in results)}, twice "
            f"{sum(r.doubled for r in results)}, errors {sum(len(r.errors) for r in results)} in all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--teacher", choices=("store", "console"), default="store",
                        help="console: the teacher in Chromium on the Live class page, phones through the join "
                             "route from addresses of their own (the README's figure); store: Store calls")
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--apps", type=int, default=1, help="app processes; more than 1 puts nginx in front")
    parser.add_argument("--postgres", action="store_true", help="a private PostgreSQL cluster instead of SQLite")
    parser.add_argument("--port", type=int, help="benchmark a server already listening here (not started)")
    parser.add_argument("--database", help="that server's class database URL (default: the app's own)")
    parser.add_argument("--idle", type=float, default=10, help="seconds of an idle class to measure server CPU")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=float, default=30, help="seconds before a screen or answer counts as lost")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="receval-live-bench-"))  # its own folder: postgres must reach it
    server = None
    try:
        if args.port:
            url = args.database or database_url()
            port, pids = args.port, listening_pids(args.port)
        else:
            url = postgres.start(scratch) if args.postgres else f"sqlite:///{scratch / 'live_class.db'}"
            os.environ["RECEVAL_CLASSROOM_URL"] = url  # the app processes inherit it
            os.environ[FOLDER_VARIABLE] = str(VARIANT_LESSON.parent)  # the console's box offers its lesson
            server = Layout(args.apps, run_dir=scratch / "run") if args.apps > 1 else AppProcess(
                name="live-benchmark", log_dir=scratch)
            server.start()
            if args.apps == 1:
                server.wait_ready()
            port = server.port
            pids = server.app_pids if args.apps > 1 else [server.pid]
        store = classroom.Store(url)
        database = "PostgreSQL" if url.startswith("postgres") else "SQLite"
        if args.idle:
            wait_quiet(pids)
        results = []
        for run in range(args.runs):
            try:
                if args.teacher == "console":
                    result = asyncio.run(console_class(port, url, args.students, args.seed + run, args.idle, pids,
                                                       args.timeout, store))
                else:
                    result = asyncio.run(run_class(port, store, args.students, args.seed + run, args.idle, pids,
                                                   args.timeout))
            except Exception as problem:  # noqa: BLE001 - a run that failed as a whole is reported, not raised
                result = Result(errors=[f"the run failed: {type(problem).__name__}: {problem}"])
            results.append(result)
            line = console_line if args.teacher == "console" else summary_line
            print(line(result, args.students, len(pids), database), flush=True)
            if result.variant.asked:
                print(variant_line(result, args.students), flush=True)
            for problem in result.errors[:5]:
                print("   error:", problem)
            for problem in result.variant.problems:
                print("   not right for its own list:", problem)
        if len(results) > 1:
            if any(r.variant.asked for r in results):
                print(variant_medians(results))
            print(console_medians(results) if args.teacher == "console" else medians_line(results))
        store.engine.dispose()
    except Exception as problem:  # noqa: BLE001 - e.g. the server did not start: say so, no traceback
        print(f"benchmark could not run: {type(problem).__name__}: {problem}")
    finally:
        if server is not None:
            server.stop()
        if args.postgres and not args.port:
            postgres.stop(scratch)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
