"""A real Streamlit server and Debian's Chromium, driven by Playwright.

Every test fails on any browser console error, page error or failed request, except the two
probes Streamlit's frontend makes on a deep link to find its base URL (they 404 by design).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from urllib.parse import urlparse
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
PROBE_SUFFIXES = ("/_stcore/health", "/_stcore/host-config")

if not Path(CHROMIUM).exists():
    pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium); .ci/run installs it",
                allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

# Every expect waits up to 15 s, not Playwright's 5 s: a page's first draw on a busy 2-core machine
# can take longer, and a wait that ends as soon as the condition holds costs nothing when it is fast.
expect.set_options(timeout=15_000)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``streamlit run app.py`` on a free loopback port, output to a log file; ``env``: variables for it alone."""

    def __init__(self, name: str, *extra_args: str, env: dict[str, str] | None = None):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.log_path = ARTIFACTS / f"streamlit-{name}.log"
        self._log = self.log_path.open("w")
        env = {**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false", **(env or {})}
        self.process = subprocess.Popen(  # noqa: S603
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(self.port),
             "--server.address", "127.0.0.1", "--server.headless", "true",
             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none", *extra_args],
            cwd=ROOT, stdout=self._log, stderr=subprocess.STDOUT, env=env,
        )

    def wait_healthy(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"streamlit exited: {self.log_path.read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"streamlit did not become healthy in {timeout}s: {self.log_path.read_text()}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._log.close()


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    running = Server("shared")
    running.wait_healthy()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def dark_server() -> Iterator[Server]:
    """A server whose theme is Streamlit's dark one, as a user who picked it in the settings sees it."""
    running = Server("dark", "--theme.base", "dark")
    try:
        running.wait_healthy()
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def class_server(tmp_path_factory) -> Iterator[Server]:
    """The app as its st.App entry serves it (the teacher's routes, the phones' light view), with its own data
    folder: the live class's tests share one per worker, and their classes stay out of the checkout's."""
    running = Server("live-class", env={"RECEVAL_DATA_DIR": str(tmp_path_factory.mktemp("live"))})
    try:
        running.wait_healthy()
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def shared_context(browser):
    """The browser profile the plain ``page`` tabs of a worker share, as one person's browser opens tab after tab: the
    scripts, styles and fonts a page loads come from its cache (a new context starts empty, about half a second of
    CPU more a page). What a test leaves in it (cookies, local and session storage, other tabs) is cleared after it."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    yield context
    context.close()


@pytest.fixture
def page(shared_context) -> Iterator[Page]:
    """A new browser tab; the test fails on any console error, page error or failed request."""
    try:
        yield from _watched(shared_context.new_page())
    finally:
        for tab in shared_context.pages:
            try:
                tab.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            except Exception:  # noqa: BLE001 - a closed, crashed or about:blank tab has nothing to clear
                pass
            tab.close()
        shared_context.clear_cookies()
        shared_context.clear_permissions()


def watched_tab(browser, **context_options) -> Iterator[Page]:
    """A new tab in a new context (``locale="tr-TR"``: a browser set to Turkish); fails on any problem, as ``page``."""
    context = browser.new_context(**{"viewport": {"width": 1400, "height": 1000}, **context_options})
    try:
        yield from _watched(context.new_page())
    finally:
        context.close()


def _watched(tab: Page) -> Iterator[Page]:
    tab.set_default_timeout(20_000)
    problems: list[str] = []
    tab.on("console", lambda m: m.type == "error" and not _is_probe_404(m) and problems.append(f"console: {m.text}"))
    tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    tab.on("response", lambda r: r.status >= 400 and not r.url.endswith(PROBE_SUFFIXES)
           and problems.append(f"HTTP {r.status}: {r.url}"))
    # net::ERR_ABORTED is the page cancelling its own request (a component's frame unmounted by a rerun or a
    # navigation while it loads); a server that fails answers with a status (above) or another net:: error.
    tab.on("requestfailed", lambda r: r.failure != "net::ERR_ABORTED"
           and problems.append(f"request failed: {r.url} ({r.failure})"))
    # The page must not reach the internet (fonts, icons, telemetry): every request stays on loopback.
    tab.on("request", lambda r: _leaves_the_machine(r.url) and problems.append(f"external request: {r.url}"))
    yield tab
    assert not problems, problems


def _leaves_the_machine(url: str) -> bool:
    host = urlparse(url).hostname
    return url.startswith(("http:", "https:", "ws:", "wss:")) and host not in ("127.0.0.1", "localhost")


def _is_probe_404(message) -> bool:
    """Streamlit's deep-link base-URL probes show up as 'Failed to load resource' console errors."""
    location = (message.location or {}).get("url", "")
    return "Failed to load resource" in message.text and location.endswith(PROBE_SUFFIXES)
