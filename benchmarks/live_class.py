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
"""

from __future__ import annotations

import argparse
import asyncio
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
from classroom.engine import database_url  # noqa: E402
from classroom.steps import live_step  # noqa: E402
from classroom.web.student import COOKIE  # noqa: E402
from content.lessons import LESSONS  # noqa: E402
from deploy import postgres  # noqa: E402
from deploy.serve import AppProcess, Layout  # noqa: E402

HOST = "127.0.0.1"
CHROMIUM = "/usr/bin/chromium"


def questions(count: int = 5) -> list:
    found = [live_step(lesson.key, i) for lesson in LESSONS for i, step in enumerate(lesson.steps)
             if step.kind == "predict" and step.question.options]
    return found[:count]


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


class Phone:
    """One student's browser: its event stream, the screens it got and when."""

    def __init__(self, port: int, code: str, student_id: str = "", local: str | None = None):
        self.port, self.code, self.cookie = port, code, f"{COOKIE}={student_id}"
        self.local = (local, 0) if local else None  # the phone's own address
        self.arrived: dict[str, float] = {}  # question id -> when its screen first arrived
        self.screens: list[tuple[int, float, dict]] = []  # (version, when it arrived, screen), in order
        self.newest = self.newest_revealed = 0  # the versions of the last screen, and of the last revealed one
        self.task: asyncio.Task | None = None
        self.problem: str | None = None
        self.joined = bool(student_id)

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
        self.cookie, self.joined = f"{COOKIE}={found.group(1)}", True

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
    finally:
        for phone in phones:
            phone.task.cancel()
        await asyncio.gather(*(p.task for p in phones), return_exceptions=True)
        store.end_room(room.code, room.teacher_key)
    return result


async def one_step(store, room, step, phones: list[Phone], rng: random.Random, result: Result, timeout: float):
    started = time.perf_counter()
    await asyncio.to_thread(store.set_step, room.code, room.teacher_key, step.lesson, step.index, step.question_id,
                            step.right_answer)
    confirmed: Counter = Counter()   # answers the server said it recorded
    unsure: Counter = Counter()      # answers sent whose reply never came (recorded or not)
    sent_at: list[float] = []

    async def student(number: int, phone: Phone) -> None:
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
                        timeout: float) -> Result:
    """One class with the teacher in Chromium, through the first lesson (see the module's docstring)."""
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
    for label in set(tally) | set(confirmed) | set(unsure):
        result.lost += max(0, confirmed[label] - tally.get(label, 0))
        result.doubled += max(0, tally.get(label, 0) - confirmed[label] - unsure[label])
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
    def median(values):
        values = [v for v in values if v == v]
        return statistics.median(values) if values else float("nan")
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
    def median(values):
        values = [v for v in values if v == v]
        return statistics.median(values) if values else float("nan")
    idle = median([r.idle_cpu for r in results if r.idle_cpu is not None])
    return (f"median of {len(results)} runs: Next -> screen p50 {median([ms(r.follow, .5) for r in results]):.0f} / "
            f"p95 {median([ms(r.follow, .95) for r in results]):.0f} ms; answer -> count p50 "
            f"{median([ms(r.counted, .5) for r in results]):.0f} / "
            f"p95 {median([ms(r.counted, .95) for r in results]):.0f} ms; idle {idle:.1f}% of one core; lost {sum(r.lost for r in results)}, twice "
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
                                                       args.timeout))
                else:
                    result = asyncio.run(run_class(port, store, args.students, args.seed + run, args.idle, pids,
                                                   args.timeout))
            except Exception as problem:  # noqa: BLE001 - a run that failed as a whole is reported, not raised
                result = Result(errors=[f"the run failed: {type(problem).__name__}: {problem}"])
            results.append(result)
            line = console_line if args.teacher == "console" else summary_line
            print(line(result, args.students, len(pids), database), flush=True)
            for problem in result.errors[:5]:
                print("   error:", problem)
        if len(results) > 1:
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
