"""The classroom load benchmark in its small mode, and the nginx layout with two app processes.

No timing is asserted here (timings live in benchmarks/classroom_load.py's output); these tests
check that simulated students get every rerun served, that each rerun really re-ran the script
with the K they sent, and that behind the proxy every student stays on one process, even across a
WebSocket reconnect.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import shutil
import stat
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.classroom_load import SMALL, Browser, RerunFailed, check_k, classroom, set_k  # noqa: E402
import streamlit  # noqa: E402

from deploy.serve import ROOT, RUN, AppProcess, Layout, prepare_static  # noqa: E402

pytestmark = pytest.mark.timeout(180)


def run(coroutine):
    """``asyncio.run`` in a thread of its own: in the full suite the browser tests' Playwright
    keeps an event loop running in the main thread, where ``asyncio.run`` refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture(scope="module")
def app_process(tmp_path_factory):
    app = AppProcess(name="classroom-test", log_dir=tmp_path_factory.mktemp("classroom"))
    app.start()
    try:
        app.wait_ready()
        yield app
    finally:
        app.stop()


def test_small_class_gets_every_rerun_served_with_the_k_it_sent(app_process):
    row = run(classroom(app_process.url, [app_process.pid], SMALL["students"], SMALL["duration"],
                                seed=1, ramp=0.5, rerun_timeout=30, max_reruns=5))
    assert row["errors"] == 0, row["error_samples"]
    assert row["reruns"] >= SMALL["students"], row  # each student moved K at least once in 5 s
    assert row["sticky_failures"] == [], row["sticky_failures"]
    assert row["cpu_ms_per_rerun"] > 0 and row["rss_mb_total"] > 50


def test_a_rerun_that_does_not_follow_k_is_caught(app_process):
    """The check is real: after K = 4, a rerun without the slider's state still shows @4, and
    checking it against the K a student meant to send (7) fails."""
    async def scenario():
        browser = Browser(app_process.url)
        await asyncio.to_thread(browser.load_page)
        await browser.connect()
        try:
            await browser.rerun()
            assert await set_k(browser, 4, timeout=30) > 0
            run, _ = await browser.rerun()  # no widget states: the session keeps K = 4
            check_k(run, 4)
            with pytest.raises(RerunFailed, match=r"K set to 7 but the cards say \[4\]"):
                check_k(run, 7)
        finally:
            await browser.close()

    run(scenario())


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed (apt-get install nginx-light); .ci/run installs it")
def test_two_processes_behind_nginx_keep_each_student_on_one(tmp_path):
    with Layout(apps=2, run_dir=tmp_path) as layout:
        # New browsers (no cookie yet) are spread over both processes ...
        served = set()
        for _ in range(20):
            with urllib.request.urlopen(f"{layout.url}/_stcore/health") as response:
                served.add(response.headers["X-RecEval-App"])
        assert served == {f"127.0.0.1:{app.port}" for app in layout.apps}
        # ... static files come compressed from the proxy ...
        request = urllib.request.Request(f"{layout.url}/", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request) as response:
            page = response.read()
            assert response.headers["Content-Encoding"] == "gzip"
        script = next((RUN / f"static-{streamlit.__version__}" / "static" / "js").glob("index.*.js"))
        request = urllib.request.Request(f"{layout.url}/static/js/{script.name}", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request) as response:
            assert response.headers["Content-Encoding"] == "gzip" and len(response.read()) < script.stat().st_size / 2
        assert page
        # ... a class of simulated students each stays on one process (page load and WebSocket) ...
        row = run(classroom(layout.url, layout.app_pids, 6, SMALL["duration"],
                                    seed=2, ramp=0.5, rerun_timeout=30, max_reruns=5))
        # ... and a student whose WebSocket drops comes back to its own session, K and all.
        run(reconnect_keeps_k(layout.url))
    assert row["errors"] == 0, row["error_samples"]
    assert row["reruns"] >= 6
    assert row["sticky_failures"] == [], row["sticky_failures"]
    assert sum(row["students_per_process"].values()) == 6  # one process per student, no one counted twice


async def reconnect_keeps_k(url: str) -> None:
    browser = Browser(url)
    await asyncio.to_thread(browser.load_page)
    await browser.connect()
    try:
        await browser.rerun()
        await set_k(browser, 6, timeout=30)
        session = browser.session_id
        await browser.close()
        await asyncio.sleep(1.0)  # the browser's back-off before it reconnects
        await browser.connect()
        run, _ = await browser.rerun()
        check_k(run, 6)
        assert browser.session_id == session and len(browser.served_by) == 1, browser.served_by
    finally:
        await browser.close()


def test_what_nginx_serves_lives_outside_the_checkout_where_its_workers_can_enter():
    """A checkout under a private folder (a 0700 home, mktemp -d) must still serve its static files:
    they are copied to a per-user run folder that every user can enter, not into the checkout."""
    static = prepare_static()
    assert ROOT not in static.parents
    for folder in [static, *static.parents]:
        assert folder.stat().st_mode & stat.S_IXOTH, folder
    assert (RUN.stat().st_uid, stat.S_IMODE(RUN.stat().st_mode)) == (os.getuid(), 0o755)


@pytest.mark.skipif(os.geteuid() != 0, reason="as another user, nginx's workers run as that user: nothing to refuse")
@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed; .ci/run installs it")
def test_a_layout_nginx_workers_could_not_read_is_refused_before_anything_starts(tmp_path):
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    layout = Layout(apps=1, run_dir=tmp_path, nginx_dir=private / "run")
    with pytest.raises(RuntimeError, match=r"nginx's workers \(user nobody\) cannot enter .*private \(mode drwx------\)"):
        layout.start()
    assert layout.apps[0].process is None and layout.proxy is None
