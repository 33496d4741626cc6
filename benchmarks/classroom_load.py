"""A classroom on one deployment: N simulated students on Streamlit's own WebSocket protocol.

Run from the project root:

    python benchmarks/classroom_load.py --students 30                 # one app process
    python benchmarks/classroom_load.py --students 120 --apps 2       # two processes behind nginx
    python benchmarks/classroom_load.py --pages                       # server CPU per rerun, every page
    python benchmarks/classroom_load.py --first-load --apps 2         # bytes a browser downloads

Each student does what a browser does: it loads the page through HTTP (which gives it the proxy's
sticky cookie), opens ``/_stcore/stream`` with the ``streamlit`` subprotocol, sends a
``rerun_script`` BackMsg, and reads the ForwardMsgs (deltas, cached-message references,
``script_finished``). Then, after a seeded think time of 2-4 s, it moves the K slider: a new
``rerun_script`` with the slider's widget state, its id read from the deltas it received. The
latency of a rerun is from sending that message to receiving ``script_finished``; a rerun counts
as an error unless the script finished successfully, showed no exception and every K-dependent
card label says the new K (so the script really re-ran with the new value). Behind the proxy, the
page load and the WebSocket of a student must be answered by the same process. With
``--reconnect``, each student also drops its WebSocket once, at a seeded moment, and comes back to
its session as a browser does after a network hiccup: its K must still be there.

Traffic goes only to the loopback server this script starts; the run stops by itself after
``--duration`` seconds (plus at most ``--rerun-timeout``). Server CPU is read from /proc for the
app processes only (not the students, not the proxy).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from deploy.serve import AppProcess, Layout  # noqa: E402
from ui.navigation import PAGES  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
K_LABEL = re.compile(r"@(\d+)\b")
FINISHED_OK = ForwardMsg.ScriptFinishedStatus.Value("FINISHED_SUCCESSFULLY")


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes (all their threads), from /proc."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICKS


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class RerunFailed(Exception):
    pass


@dataclass
class Run:
    """What one script run sent: element types, metric labels, widgets, errors."""

    metric_labels: list[str] = field(default_factory=list)
    widgets: dict[str, tuple[str, object]] = field(default_factory=dict)  # id -> (kind, proto)
    exceptions: list[str] = field(default_factory=list)
    status: int | None = None
    kinds: list[str] = field(default_factory=list)  # message types received, for debugging


class Browser:
    """One browser tab of RecEval Lab, speaking Streamlit's WebSocket protocol."""

    def __init__(self, base_url: str):
        self.base_url = base_url.rstrip("/")
        self.cookies: dict[str, str] = {}
        self.session_id = ""
        self.page_hash = ""
        self.main_hash = ""
        self.pages: dict[str, str] = {}  # url path name -> page script hash
        self.cache: dict[str, ForwardMsg] = {}  # the browser's cache of large messages, by hash
        self.served_by: set[str] = set()
        self.run = Run()
        self.first_message_at: float | None = None
        self._finished: asyncio.Future | None = None
        self._ws = None
        self._reader: asyncio.Task | None = None

    def load_page(self, path: str = "/") -> None:
        """GET the page shell, as the browser does first; keeps the cookies (the proxy's sticky one)."""
        url = urlparse(self.base_url)
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        try:
            connection.request("GET", path, headers={"Accept-Encoding": "gzip", **self._cookie_header()})
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                raise RerunFailed(f"GET {path}: HTTP {response.status}")
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            if response.headers.get("X-RecEval-App"):
                self.served_by.add(response.headers["X-RecEval-App"])
        finally:
            connection.close()

    def _cookie_header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}

    async def connect(self) -> None:
        """Open /_stcore/stream; on a reconnect, name the session as the browser does (3rd subprotocol)."""
        ws_url = self.base_url.replace("http", "ws", 1) + "/_stcore/stream"
        xsrf = self.cookies.get("_streamlit_xsrf") or "PLACEHOLDER_AUTH_TOKEN"
        protocols = ["streamlit", xsrf] + ([self.session_id] if self.session_id else [])
        self._ws = await websockets.connect(
            ws_url, subprotocols=protocols, max_size=None, open_timeout=30,
            additional_headers={"Origin": self.base_url, **self._cookie_header()},
        )
        served = self._ws.response.headers.get("X-RecEval-App")
        if served:
            self.served_by.add(served)
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)

    async def _read(self) -> None:
        try:
            async for data in self._ws:
                self._handle(ForwardMsg.FromString(data))
        except websockets.ConnectionClosed:
            pass
        finally:
            if self._finished and not self._finished.done():
                self._finished.set_exception(RerunFailed("connection closed during a rerun"))

    def _handle(self, msg: ForwardMsg) -> None:
        if self.first_message_at is None:
            self.first_message_at = time.perf_counter()
        kind = msg.WhichOneof("type")
        if kind == "ref_hash":  # the server says: you have this one cached
            if msg.ref_hash not in self.cache:
                self.run.exceptions.append(f"reference to a message not in the cache: {msg.ref_hash}")
                return
            msg = self.cache[msg.ref_hash]
            kind = msg.WhichOneof("type")
        elif msg.metadata.cacheable and msg.hash:
            self.cache[msg.hash] = msg
        self.run.kinds.append(kind if kind != "delta" else f"delta:{msg.delta.WhichOneof('type')}")
        if kind == "new_session":
            self.session_id = msg.new_session.initialize.session_id
            self.pages = {p.url_pathname: p.page_script_hash for p in msg.new_session.app_pages}
            self.page_hash = msg.new_session.page_script_hash
            self.main_hash = msg.new_session.main_script_hash
        elif kind == "navigation":
            self.pages.update({p.url_pathname: p.page_script_hash for p in msg.navigation.app_pages})
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            element_type = element.WhichOneof("type")
            if element_type == "metric":
                self.run.metric_labels.append(element.metric.label)
            elif element_type == "exception":
                self.run.exceptions.append(f"{element.exception.type}: {element.exception.message}")
            elif element_type in ("slider", "radio", "dataframe"):
                widget = getattr(element, element_type)
                if widget.id:
                    self.run.widgets[widget.id] = (element_type, widget)
        elif kind == "script_finished":
            self.run.status = msg.script_finished
            if self._finished and not self._finished.done():
                self._finished.set_result(self.run)

    async def send_rerun(self, states: list[WidgetState] = (), page_hash: str | None = None,
                         query_string: str = "", fragment_id: str = "", auto: bool = True) -> None:
        """Send a rerun_script BackMsg as the browser does (a fragment's timer sends one with its id)."""
        message = BackMsg()
        client_state = message.rerun_script
        client_state.query_string = query_string
        client_state.page_script_hash = page_hash if page_hash is not None else self.page_hash
        client_state.widget_states.widgets.extend(states)
        client_state.cached_message_hashes.extend(self.cache)
        if fragment_id:
            client_state.fragment_id = fragment_id
            client_state.is_auto_rerun = auto
        await self._ws.send(message.SerializeToString())

    async def rerun(self, states: list[WidgetState] = (), page_hash: str | None = None,
                    timeout: float = 60, query_string: str = "") -> tuple[Run, float]:
        """Send a rerun_script BackMsg as the browser does; wait for script_finished."""
        self.run = Run()
        self.first_message_at = None
        self._finished = asyncio.get_running_loop().create_future()
        started = time.perf_counter()
        await self.send_rerun(states, page_hash, query_string)
        try:
            run = await asyncio.wait_for(self._finished, timeout)
        except asyncio.TimeoutError as exc:
            if os.environ.get("CLASSROOM_DEBUG"):
                print(f"timeout; received meanwhile: {self.run.kinds[:30]}", file=sys.stderr)
            raise RerunFailed(f"no script_finished within {timeout} s") from exc
        elapsed = time.perf_counter() - started
        if page_hash:
            self.page_hash = page_hash
        if run.status != FINISHED_OK:
            raise RerunFailed(f"script finished with status {run.status}")
        if run.exceptions:
            raise RerunFailed("; ".join(run.exceptions))
        return run, elapsed

    def widget(self, kind: str, key_part: str) -> tuple[str, object]:
        """The id and proto of the widget of this kind whose id (which holds its key) contains ``key_part``."""
        for widget_id, (widget_kind, proto) in self.run.widgets.items():
            if widget_kind == kind and key_part in widget_id:
                return widget_id, proto
        raise RerunFailed(f"no {kind} widget with {key_part!r} in its id")


def slider_state(widget_id: str, value: float) -> WidgetState:
    state = WidgetState(id=widget_id)
    state.double_array_value.data.append(value)
    return state


def editor_state(widget_id: str, edited_rows: dict) -> WidgetState:
    """A data editor's state as the browser reports it: the edits since the editor was drawn."""
    return WidgetState(id=widget_id, string_value=json.dumps(
        {"edited_rows": {str(k): v for k, v in edited_rows.items()}, "added_rows": [], "deleted_rows": []}))


def k_labels(run: Run) -> set[int]:
    return {int(m) for label in run.metric_labels for m in K_LABEL.findall(label)}


async def set_k(browser: Browser, k: int, timeout: float) -> float:
    """Move the K slider to ``k``; check the cards now say @k; return the latency."""
    slider_id, _ = browser.widget("slider", "_k_widget")
    run, elapsed = await browser.rerun([slider_state(slider_id, k)], timeout=timeout)
    check_k(run, k)
    return elapsed


def check_k(run: Run, k: int) -> None:
    """Every K-dependent card label of this run says @k (and there are such cards)."""
    if k_labels(run) != {k}:
        raise RerunFailed(f"K set to {k} but the cards say {sorted(k_labels(run))}: the script did not re-run with it")


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sticky_failures: list[str] = field(default_factory=list)
    processes_used: dict[str, int] = field(default_factory=dict)
    reconnect_reruns: int = 0


async def student(index: int, base_url: str, seed: int, start_at: float, window: list[float],
                  rerun_timeout: float, max_reruns: int, result: Result, connected: asyncio.Event,
                  all_connected: asyncio.Event, reconnect: bool) -> None:
    rng = random.Random(seed * 100_003 + index)
    browser = Browser(base_url)
    k = None
    try:
        await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
        await asyncio.to_thread(browser.load_page)
        await browser.connect()
        await browser.rerun(timeout=rerun_timeout * 3)
        k = int(browser.widget("slider", "_k_widget")[1].value[0])
    except Exception as exc:  # noqa: BLE001 - every failure is counted and reported
        result.errors.append(f"student {index} could not open the app: {type(exc).__name__}: {exc}")
        return
    finally:
        connected.set()
    await all_connected.wait()
    reconnected = not reconnect
    # A seeded moment in the middle of the window, different for each student: browsers reconnect
    # one by one after network hiccups (a reconnect costs the server a walk over all modules).
    reconnect_at = rng.uniform(0.2, 0.8)
    reruns = 0
    try:
        while reruns < max_reruns:
            await asyncio.sleep(rng.uniform(2.0, 4.0))
            now = time.perf_counter()
            if now >= window[1]:
                break
            if not reconnected and now >= window[0] + reconnect_at * (window[1] - window[0]):
                reconnected = True
                try:
                    await reconnect_and_check(browser, k, rerun_timeout, result, index)
                except Exception as exc:  # noqa: BLE001
                    result.errors.append(f"student {index}, reconnecting: {type(exc).__name__}: {exc}")
                    break
            k = rng.choice([v for v in range(1, 11) if v != k])
            try:
                elapsed = await set_k(browser, k, rerun_timeout)
                reruns += 1
                result.latencies.append(elapsed)
                if elapsed > 5 and os.environ.get("CLASSROOM_DEBUG"):
                    print(f"slow rerun: student {index}, {elapsed:.1f} s at {now - window[0]:.1f} s into the window, "
                          f"first message after {browser.first_message_at - now:.1f} s", file=sys.stderr)
            except Exception as exc:  # noqa: BLE001
                result.errors.append(f"student {index}, K={k}: {type(exc).__name__}: {exc}")
                break
    finally:
        await browser.close()
        for process in browser.served_by:
            result.processes_used[process] = result.processes_used.get(process, 0) + 1
        if len(browser.served_by) > 1:
            result.sticky_failures.append(f"student {index} was served by {sorted(browser.served_by)}")


async def reconnect_and_check(browser: Browser, k: int, rerun_timeout: float, result: Result, index: int) -> None:
    """Drop the WebSocket and come back to the same session: K must be as the student left it."""
    await browser.close()
    # The browser retries after a back-off; reconnecting at once can race the server's own handling
    # of the disconnect (it stops the session's script runner) and lose the rerun.
    await asyncio.sleep(1.0)
    await browser.connect()
    run, _ = await browser.rerun(timeout=rerun_timeout)
    result.reconnect_reruns += 1
    if k_labels(run) != {k} and os.environ.get("CLASSROOM_DEBUG"):
        print(f"reconnect of student {index} got: {run.kinds[:40]}", file=sys.stderr)
    if k_labels(run) != {k}:
        result.sticky_failures.append(f"student {index}: after reconnecting the cards say "
                                      f"{sorted(k_labels(run))}, not K={k} (session lost)")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def first_page_seconds(base_url: str) -> float:
    """Open the home page once (warms the server as the teacher's own browser would)."""
    browser = Browser(base_url)
    started = time.perf_counter()
    await asyncio.to_thread(browser.load_page)
    await browser.connect()
    await browser.rerun(timeout=120)  # the first run imports the pages' modules
    elapsed = time.perf_counter() - started
    await browser.close()
    return elapsed


async def classroom(base_url: str, pids: list[int], students: int, duration: float, seed: int,
                    ramp: float, rerun_timeout: float, max_reruns: int, reconnect: bool = False,
                    warm_urls: list[str] | None = None) -> dict:
    # Every process runs the app once first (its first run imports the pages' libraries), so
    # the memory measured per session is the sessions', not the imports'.
    warm = [await first_page_seconds(url) for url in (warm_urls or [base_url])][0]
    rss_before = rss_mb(pids)
    result = Result()
    connected_events = [asyncio.Event() for _ in range(students)]
    all_connected = asyncio.Event()
    begin = time.perf_counter()
    # The class opens the app over ``ramp`` seconds; the measured window starts once all are in.
    window = [0.0, 0.0]
    tasks = []
    for i in range(students):
        start_at = begin + ramp * i / max(1, students)
        tasks.append(asyncio.create_task(student(i, base_url, seed, start_at, window, rerun_timeout,
                                                 max_reruns, result, connected_events[i], all_connected,
                                                 reconnect)))
    await asyncio.gather(*(e.wait() for e in connected_events))
    connect_seconds = time.perf_counter() - begin
    rss_after = rss_mb(pids)
    cpu_start, client_cpu_start, window[0] = cpu_seconds(pids), time.process_time(), time.perf_counter()
    window[1] = window[0] + duration
    all_connected.set()

    async def sample_memory() -> None:
        while time.perf_counter() < window[1]:
            await asyncio.sleep(duration / 6)
            rss_timeline.append(round(rss_mb(pids)))

    rss_timeline = [round(rss_after)]
    sampler = asyncio.create_task(sample_memory())
    await asyncio.wait_for(asyncio.gather(*tasks), duration + rerun_timeout + 30)
    sampler.cancel()
    wall = time.perf_counter() - window[0]
    cpu = cpu_seconds(pids) - cpu_start
    rss_end = rss_mb(pids)
    client_cpu = time.process_time() - client_cpu_start
    served = len(result.latencies)
    return {
        "students": students, "processes": len(pids), "load": load_average(), "duration": duration,
        "first_page_s": warm, "connect_all_s": connect_seconds,
        "reruns": served, "errors": len(result.errors), "error_samples": result.errors[:5],
        "p50_ms": percentile(result.latencies, 0.5) * 1000, "p95_ms": percentile(result.latencies, 0.95) * 1000,
        "max_ms": max(result.latencies, default=float("nan")) * 1000,
        # The reconnect reruns cost CPU too, so they count in the denominator.
        "cpu_ms_per_rerun": cpu / (served + result.reconnect_reruns) * 1000 if served else float("nan"),
        "cpu_percent_of_one_core": cpu / wall * 100,
        # The simulated students share the machine with the server: their CPU, for context.
        "client_cpu_percent": client_cpu / wall * 100,
        "rss_mb_total": rss_after, "rss_mb_end": rss_end, "rss_timeline_mb": rss_timeline, "rss_mb_per_session": (rss_after - rss_before) / max(1, students),
        "reconnects": result.reconnect_reruns, "sticky_failures": result.sticky_failures,
        "students_per_process": result.processes_used,
    }


# The test suite's mode: enough to exercise every step of the protocol, no timing claims.
SMALL = {"students": 4, "duration": 5.0}


# What each page's measured rerun changes: the K slider, or one scenario table edited back and forth.
PAGE_EDITS = {
    "rating": ("ratings", {0: {"prediction": 2.5}}, {0: {"prediction": 3.5}}),
    "classification": ("labels", {0: {"predicted": 1}}, {0: {"predicted": 0}}),
    "auc": ("scores", {0: {"score": 0.1}}, {0: {"score": 0.9}}),
    "logloss": ("probabilities", {0: {"probability": 0.3}}, {0: {"probability": 0.8}}),
}


async def page_costs(base_url: str, pids: list[int], repeats: int, topics: list[str] | None = None) -> list[dict]:
    """Server CPU per rerun of every page: one session, reruns one after another."""
    rows = []
    browser = Browser(base_url)
    await asyncio.to_thread(browser.load_page)
    await browser.connect()
    await browser.rerun(timeout=60)
    for page in PAGES:
        if topics and page.topic not in topics:
            continue
        path_name = re.sub(r"^\d+_", "", Path(page.path).stem)
        page_hash = browser.main_hash if page.path == "app.py" else browser.pages[path_name]
        await browser.rerun(page_hash=page_hash)
        await browser.rerun()  # the second visit, as after a first edit: caches warm
        timings, cpu_start = [], cpu_seconds(pids)
        for i in range(repeats):
            if page.topic in PAGE_EDITS:
                table, first, second = PAGE_EDITS[page.topic]
                editor_id, _ = browser.widget("dataframe", f"{table}_editor_")
                states = [editor_state(editor_id, first if i % 2 == 0 else second)]
            elif page.topic == "examples":
                states = []  # no editor: a plain rerun, as after the browser reconnects
            else:
                slider_id, _ = browser.widget("slider", "_k_widget")
                states = [slider_state(slider_id, 3 + i % 2 * 4)]
            _, elapsed = await browser.rerun(states)
            timings.append(elapsed)
        rows.append({"page": page.topic, "cpu_ms": (cpu_seconds(pids) - cpu_start) / repeats * 1000,
                     "wall_median_ms": statistics.median(timings) * 1000})
    await browser.close()
    return rows


def first_load_bytes(base_url: str) -> dict:
    """Bytes a fresh Chromium transfers to show the home page (HTTP bodies + headers, and the WebSocket)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            http_bytes: dict[str, int] = {}
            ws_bytes = [0]
            cdp.on("Network.loadingFinished", lambda e: http_bytes.__setitem__(e["requestId"], e["encodedDataLength"]))
            cdp.on("Network.webSocketFrameReceived",
                   lambda e: ws_bytes.__setitem__(0, ws_bytes[0] + len(e["response"]["payloadData"]) * 3 // 4))
            page.goto(base_url)
            page.wait_for_selector(".js-plotly-plot", timeout=60_000)
            page.wait_for_load_state("networkidle")
        finally:
            browser.close()
    return {"requests": len(http_bytes), "http_mb": sum(http_bytes.values()) / 1e6, "websocket_mb": ws_bytes[0] / 1e6}


def print_classroom(row: dict) -> None:
    print(f"{row['students']:>3} students on {row['processes']} process(es), load {row['load']}: "
          f"p50 {row['p50_ms']:.0f} ms, p95 {row['p95_ms']:.0f} ms, max {row['max_ms']:.0f} ms; "
          f"{row['reruns']} reruns, {row['errors']} errors; server CPU {row['cpu_ms_per_rerun']:.1f} ms/rerun "
          f"({row['cpu_percent_of_one_core']:.0f}% of one core); RSS {row['rss_mb_total']:.0f} MB "
          f"-> {row['rss_mb_end']:.0f} MB at the end (every {row['duration'] / 6:.0f} s: {row['rss_timeline_mb']}), "
          f"{row['rss_mb_per_session']:.2f} MB/session; all connected in {row['connect_all_s']:.1f} s; "
          f"the simulated students used {row['client_cpu_percent']:.0f}% of a core")
    for sample in row["error_samples"]:
        print("   error:", sample)
    if row["processes"] > 1 or row["sticky_failures"]:
        print(f"   students per process: {row['students_per_process']}; "
              f"stickiness failures: {len(row['sticky_failures'])} {row['sticky_failures'][:3]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, nargs="*", default=[10], help="class sizes to run, one after another")
    parser.add_argument("--apps", type=int, default=1, help="app processes; more than 1 puts nginx in front")
    parser.add_argument("--duration", type=float, default=30, help="measured seconds per class size")
    parser.add_argument("--ramp", type=float, default=None, help="seconds over which the class connects (default N/20)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--rerun-timeout", type=float, default=30)
    parser.add_argument("--max-reruns", type=int, default=100, help="per student")
    parser.add_argument("--pages", action="store_true", help="server CPU per rerun of every page instead")
    parser.add_argument("--repeats", type=int, default=30, help="reruns per page with --pages")
    parser.add_argument("--topics", nargs="*", help="with --pages: only these pages (topics of ui.navigation)")
    parser.add_argument("--first-load", action="store_true", help="bytes a fresh browser downloads instead")
    parser.add_argument("--json", action="store_true", help="print the results as JSON too")
    parser.add_argument("--streamlit-option", action="append", default=[], metavar="NAME=VALUE",
                        help="passed to `streamlit run` (e.g. runner.postScriptGC=true to compare)")
    parser.add_argument("--reconnect", action="store_true",
                        help="each student also drops its WebSocket once and comes back to its session")
    parser.add_argument("--small", action="store_true", help="a handful of students for a few seconds (the test suite's mode)")
    args = parser.parse_args()
    if args.small:
        args.students, args.duration = [SMALL["students"]], SMALL["duration"]

    extra = tuple(part for option in args.streamlit_option
                  for part in (f"--{option.split('=', 1)[0]}", option.split("=", 1)[1]))
    if args.apps > 1:
        server = Layout(args.apps, extra=extra)
        server.start()
        base_url, pids = server.url, server.app_pids
        cold = [app.ready_seconds for app in server.apps]
        warm_urls = [app.url for app in server.apps]
    else:
        server = AppProcess(name="benchmark", extra=extra)
        server.start()
        cold = [server.wait_ready()]
        base_url, pids, warm_urls = server.url, [server.pid], None
    try:
        print(f"cold start (process spawned -> answering): {', '.join(f'{c:.2f} s' for c in cold)}; "
              f"load {load_average()}")
        if args.first_load:
            result = first_load_bytes(base_url)
            print(f"first load through {'nginx' if args.apps > 1 else 'Streamlit directly'}: "
                  f"{result['http_mb']:.2f} MB over HTTP in {result['requests']} requests + "
                  f"{result['websocket_mb']:.2f} MB on the WebSocket")
            results = [result]
        elif args.pages:
            results = asyncio.run(page_costs(base_url, pids, args.repeats, args.topics))
            print(f"{'page':<16}{'server CPU ms/rerun':>20}{'wall median ms':>16}   load {load_average()}")
            for row in results:
                print(f"{row['page']:<16}{row['cpu_ms']:>20.1f}{row['wall_median_ms']:>16.0f}")
        else:
            results = []
            for students in args.students:
                ramp = args.ramp if args.ramp is not None else students / 20
                row = asyncio.run(classroom(base_url, pids, students, args.duration, args.seed, ramp,
                                            args.rerun_timeout, args.max_reruns, args.reconnect, warm_urls))
                row["cold_start_s"] = cold
                print(f"first page (warm-up session): {row['first_page_s'] * 1000:.0f} ms")
                print_classroom(row)
                results.append(row)
        if args.json:
            print(json.dumps(results, default=str))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
