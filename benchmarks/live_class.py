"""A live class under load at the protocol level: one teacher, N phones on the light view, 5 questions.

Run from the project root:

    python benchmarks/live_class.py --students 300 --runs 3                   # one process, SQLite
    python benchmarks/live_class.py --students 1000 --apps 4 --postgres       # four behind nginx, PostgreSQL
    python benchmarks/live_class.py --port 8501 --students 100                # a server already running
                                                                              # (its database: --database)

Each student is what a phone's browser does on ``/class/{code}`` (``classroom/web/student.py``): one
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


class Phone:
    """One student's browser: its event stream, the screens it got and when."""

    def __init__(self, port: int, code: str, student_id: str):
        self.port, self.code, self.cookie = port, code, f"{COOKIE}={student_id}"
        self.arrived: dict[str, float] = {}  # question id -> when its screen first arrived
        self.task: asyncio.Task | None = None
        self.problem: str | None = None

    async def follow(self, connected: asyncio.Event) -> None:
        try:
            reader, writer = await asyncio.open_connection(HOST, self.port, limit=1 << 22)
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
        question = (screen.get("question") or {}).get("id")
        if question and question not in self.arrived:
            self.arrived[question] = time.perf_counter()

    async def answer(self, question_id: str, value: str, timeout: float) -> int:
        body = json.dumps({"question_id": question_id, "value": value}).encode()
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, self.port), timeout)
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
        sent = time.perf_counter()
        result.sent += 1
        try:
            status = await phone.answer(step.question_id, value, timeout)
        except Exception as problem:  # noqa: BLE001 - a timeout or a dropped connection: counted
            unsure[value] += 1
            result.errors.append(f"student {number} answering: {type(problem).__name__}: {problem}")
            return
        if status != 200:
            result.errors.append(f"student {number} answering: HTTP {status}")
            return
        confirmed[value] += 1
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
        results = []
        for run in range(args.runs):
            try:
                result = asyncio.run(run_class(port, store, args.students, args.seed + run, args.idle, pids,
                                               args.timeout))
            except Exception as problem:  # noqa: BLE001 - a run that failed as a whole is reported, not raised
                result = Result(errors=[f"the run failed: {type(problem).__name__}: {problem}"])
            results.append(result)
            print(summary_line(result, args.students, len(pids), database), flush=True)
            for problem in result.errors[:5]:
                print("   error:", problem)
        if len(results) > 1:
            print(medians_line(results))
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
