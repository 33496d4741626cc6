"""A live class under load: one teacher, N students on Streamlit's WebSocket protocol, 5 predict steps.

Run from the project root:

    python benchmarks/live_class.py --students 60                          # one process, SQLite
    python benchmarks/live_class.py --students 120 --apps 2                # two behind nginx, SQLite
    python benchmarks/live_class.py --students 120 --apps 2 --postgres     # the same on PostgreSQL
    python benchmarks/live_class.py --students 60 --idle 30                # + server CPU of an idle class

Each student is a browser of ``benchmarks/classroom_load.py`` (its protocol code, imported): it loads
``/Live_class?room=CODE&student=ID``, runs the page, and sends the page's polling fragment a rerun
every second as the frontend's timer does. The teacher moves the class with ``Store.set_step``
(what the Next button's callback does) to each of 5 predict steps; each student, 0.5-4 s (seeded)
after its screen shows the step's title, picks an option (the radio's widget state, as a click
sends it). Measured: the time from the teacher's Next to each student's screen showing the step;
from a student's answer to the teacher's count (``Store.tally``, what the teacher's fragment
reads every second) including it; errors; and, at the end of each step, the tally against what the
students sent (last answer each): answers lost or counted twice. With ``--idle``, the server CPU
while the class sits on one step. Students join through the Store (the join form is AppTest's
and the browser test's business), so all of their traffic here is the live page's.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from classroom_load import Browser, cpu_seconds, load_average, percentile  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

import classroom  # noqa: E402
from classroom.steps import live_step  # noqa: E402
from deploy import postgres  # noqa: E402
from deploy.serve import AppProcess, Layout  # noqa: E402
from content.lessons import LESSONS  # noqa: E402

POLL = 1.0
FRAGMENT_ENDS = {ForwardMsg.ScriptFinishedStatus.Value("FINISHED_FRAGMENT_RUN_SUCCESSFULLY"),
                 ForwardMsg.ScriptFinishedStatus.Value("FINISHED_EARLY_FOR_RERUN")}


def predict_steps(count: int = 5) -> list:
    found = [live_step(lesson.key, i) for lesson in LESSONS for i, step in enumerate(lesson.steps)
             if step.kind == "predict"]
    return found[:count]


class LiveBrowser(Browser):
    """A Browser that also reads headings and markdown, keeps radio ids, and follows the page's fragment."""

    def __init__(self, base_url: str, query: str):
        super().__init__(base_url)
        self.query = query
        self.fragment_id = ""
        self.seen: dict[str, float] = {}      # text watched for -> when it first arrived
        self.watch: set[str] = set()
        self.radios: dict[str, str] = {}      # widget id -> the fragment it is drawn in
        self.live_page_hash = ""

    def _handle(self, msg) -> None:
        kind = msg.WhichOneof("type")
        if kind == "script_finished" and msg.script_finished in FRAGMENT_ENDS:
            return  # the poll's own run, not the rerun a student is waiting for
        super()._handle(msg)
        if kind == "ref_hash":
            msg = self.cache.get(msg.ref_hash, msg)
            kind = msg.WhichOneof("type")
        if kind == "auto_rerun":
            self.fragment_id = msg.auto_rerun.fragment_id
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            element_type = element.WhichOneof("type")
            body = ""
            if element_type in ("markdown", "heading"):
                body = getattr(element, element_type).body
            elif element_type == "radio":
                self.radios[element.radio.id] = msg.delta.fragment_id
            now = time.perf_counter()
            for wanted in self.watch:
                if wanted in body and wanted not in self.seen:
                    self.seen[wanted] = now


@dataclass
class Tally:
    follow: list[float] = field(default_factory=list)
    counted: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lost: int = 0
    doubled: int = 0
    sent: int = 0


async def open_student(base_url: str, code: str, student_id: str) -> LiveBrowser:
    query = urlencode({"room": code, "student": student_id})
    browser = LiveBrowser(base_url, query)
    await asyncio.to_thread(browser.load_page, f"/Live_class?{query}")
    await browser.connect()
    await browser.rerun(timeout=120, query_string=query)  # the entry page: learns the pages' hashes
    browser.live_page_hash = browser.pages["Live_class"]
    await browser.rerun(page_hash=browser.live_page_hash, timeout=120, query_string=query)
    return browser


async def keep_polling(browser: LiveBrowser, stop: asyncio.Event) -> None:
    """What the frontend's fragment timer does: a fragment rerun every POLL seconds."""
    while not stop.is_set():
        await asyncio.sleep(POLL)
        if browser.fragment_id:
            try:
                await browser.send_rerun(page_hash=browser.live_page_hash, query_string=browser.query,
                                         fragment_id=browser.fragment_id)
            except Exception:  # noqa: BLE001 - a closed socket ends the poll; the step checks report it
                return


def radio_state(browser: LiveBrowser, question_id: str, label: str) -> tuple[WidgetState, str]:
    """A click on an option (Streamlit 1.67's radio sends the option's text), and the fragment to rerun."""
    widget_id = next(w for w in browser.radios if f"live_answer_{question_id}" in w)
    return WidgetState(id=widget_id, string_value=label), browser.radios[widget_id]


async def run_class(base_url: str, store: classroom.Store, students: int, seed: int, idle: float,
                    pids: list[int], step_timeout: float) -> dict:
    rng = random.Random(seed)
    room = store.create_room()
    steps = predict_steps()
    ids = [store.join(room.code, f"student {n}") for n in range(students)]
    store.set_step(room.code, room.teacher_key, LESSONS[0].key, 0)
    began = time.perf_counter()
    browsers = []
    for start in range(0, students, 10):  # the class opens the page over a few seconds
        browsers += await asyncio.gather(*(open_student(base_url, room.code, sid) for sid in ids[start:start + 10]))
    connect_seconds = time.perf_counter() - began
    stop = asyncio.Event()
    pollers = [asyncio.create_task(keep_polling(b, stop)) for b in browsers]
    result = Tally()
    idle_cpu = None
    if idle:
        await asyncio.sleep(2)
        cpu_before, wall_before = cpu_seconds(pids), time.perf_counter()
        await asyncio.sleep(idle)
        idle_cpu = (cpu_seconds(pids) - cpu_before) / (time.perf_counter() - wall_before) * 100
    for step in steps:
        await one_step(store, room, step, browsers, rng, result, step_timeout)
    stop.set()
    await asyncio.gather(*pollers, return_exceptions=True)
    for browser in browsers:
        await browser.close()
    store.end_room(room.code, room.teacher_key)
    return {"students": students, "processes": len(pids), "load": load_average(), "connect_s": connect_seconds,
            "follow": result.follow, "counted": result.counted, "errors": result.errors, "lost": result.lost,
            "doubled": result.doubled, "sent": result.sent, "idle_cpu": idle_cpu}


async def one_step(store, room, step, browsers, rng, result: Tally, timeout: float) -> None:
    for browser in browsers:
        browser.watch = {step.title}
        browser.seen = {}
    started = time.perf_counter()
    store.set_step(room.code, room.teacher_key, step.lesson, step.index, step.question_id, step.right_answer)
    last_answer: dict[int, str] = {}
    counted_at: list[tuple[float, int]] = []  # (send time, how many answers the tally must then hold)

    async def student(number: int, browser: LiveBrowser) -> None:
        deadline = started + timeout
        while step.title not in browser.seen and time.perf_counter() < deadline:
            await asyncio.sleep(0.02)
        if step.title not in browser.seen:
            result.errors.append(f"student {number} did not see {step.title!r} within {timeout:.0f} s")
            return
        result.follow.append(browser.seen[step.title] - started)
        await asyncio.sleep(rng.uniform(0.5, 4.0))
        index = rng.randrange(len(step.options))
        while not any(f"live_answer_{step.question_id}" in w for w in browser.radios) and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)  # the title arrived; the options are on their way
        try:
            state, fragment = radio_state(browser, step.question_id, step.options[index].label)
            last_answer[number] = step.options[index].label  # sent: whatever happens next, the tally must say so
            sent = time.perf_counter()
            # As the frontend does: a widget inside a fragment reruns only that fragment. Not awaited:
            # whether it counted is what the tally check says.
            await browser.send_rerun([state], page_hash=browser.live_page_hash, query_string=browser.query,
                                     fragment_id=fragment, auto=False)
        except Exception as problem:  # noqa: BLE001 - every failure is counted and reported
            result.errors.append(f"student {number} answering: {type(problem).__name__}: {problem}")
            return
        result.sent += 1
        counted_at.append((sent, number))

    async def teacher_count() -> None:
        """What the teacher's fragment reads: when does the tally first include each answer?"""
        pending: list[float] = []
        counted = 0
        while True:
            pending += [sent for sent, _ in counted_at]
            counted_at.clear()
            pending.sort()
            total = sum((await asyncio.to_thread(store.tally, room.code, room.teacher_key, step.question_id)).values())
            now = time.perf_counter()
            while counted < total and pending:
                result.counted.append(now - pending.pop(0))
                counted += 1
            if done.is_set() and not pending and not counted_at:
                return
            await asyncio.sleep(0.1)

    done = asyncio.Event()
    counter = asyncio.create_task(teacher_count())
    await asyncio.gather(*(student(n, b) for n, b in enumerate(browsers)))
    done.set()
    await asyncio.wait_for(counter, 30)
    store.lock(room.code, room.teacher_key, step.question_id)
    tally = store.tally(room.code, room.teacher_key, step.question_id)
    expected = Counter(last_answer.values())
    for label in set(tally) | set(expected):
        difference = tally.get(label, 0) - expected.get(label, 0)
        result.doubled += max(0, difference)
        result.lost += max(0, -difference)


def summary_line(row: dict, database: str) -> str:
    ms = lambda values, q: percentile(values, q) * 1000  # noqa: E731
    idle = f"; idle class: server CPU {row['idle_cpu']:.0f}% of one core" if row["idle_cpu"] is not None else ""
    return (f"{row['students']} students, {row['processes']} process(es), {database}, load {row['load']}: "
            f"Next -> student screen p50 {ms(row['follow'], .5):.0f} / p95 {ms(row['follow'], .95):.0f} / "
            f"max {max(row['follow'], default=float('nan')) * 1000:.0f} ms ({len(row['follow'])} screens); "
            f"answer -> teacher's count p50 {ms(row['counted'], .5):.0f} / p95 {ms(row['counted'], .95):.0f} / "
            f"max {max(row['counted'], default=float('nan')) * 1000:.0f} ms; {row['sent']} answers sent, "
            f"{row['lost']} lost, {row['doubled']} counted twice; {len(row['errors'])} errors{idle}; "
            f"all connected in {row['connect_s']:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--apps", type=int, default=1, help="app processes; more than 1 puts nginx in front")
    parser.add_argument("--postgres", action="store_true", help="a private PostgreSQL cluster instead of SQLite")
    parser.add_argument("--idle", type=float, default=0, help="seconds of an idle class to measure server CPU")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--step-timeout", type=float, default=30)
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="receval-live-bench-"))  # its own folder: postgres must reach it
    if args.postgres:
        url = postgres.start(scratch)
    else:
        url = f"sqlite:///{scratch / 'live_class.db'}"
    os.environ["RECEVAL_CLASSROOM_URL"] = url  # the app processes inherit it
    server = Layout(args.apps) if args.apps > 1 else AppProcess(name="live-benchmark")
    store = classroom.Store(url)
    try:
        server.start()
        if args.apps == 1:
            server.wait_ready()
        base_url = server.url
        pids = server.app_pids if args.apps > 1 else [server.pid]
        outcome: dict = {}
        # The event loop runs in a thread of its own (as in classroom_load's tests).
        worker = threading.Thread(target=lambda: outcome.update(asyncio.run(
            run_class(base_url, store, args.students, args.seed, args.idle, pids, args.step_timeout))))
        worker.start()
        worker.join()
        print(summary_line(outcome, "PostgreSQL" if args.postgres else "SQLite"))
        for problem in outcome["errors"][:5]:
            print("   error:", problem)
    finally:
        server.stop()
        store.engine.dispose()
        if args.postgres:
            postgres.stop(scratch)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
