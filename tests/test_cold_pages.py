"""Every page as the first run of a fresh process (``streamlit run`` just started, a deep link its
first visitor): none of the app's modules imported and nothing cached yet, so a page that works only after another
page has run fails here; then a new session's first run in the same process. The browser opens every page on a
shared server (tests/e2e/test_every_page_browser.py).

Each page runs in a process of its own, forked from a server process that has imported the libraries alone (numpy,
pandas, plotly, scipy, pyarrow, Streamlit) and none of the app: the same fresh start for the app's code, without
paying Python's start and those imports 23 times (they were half of each run's CPU)."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from tests import cold_page_run
from ui.navigation import PAGES

LIBRARIES = ["numpy", "pandas", "pyarrow", "scipy.special", "plotly.graph_objects", "streamlit",
             "streamlit.testing.v1"]


@pytest.fixture(scope="module")
def fresh_process():
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(LIBRARIES)
    with ProcessPoolExecutor(1, mp_context=context, max_tasks_per_child=1) as processes:
        yield processes


def test_the_forked_process_holds_the_libraries_and_none_of_the_app(fresh_process):
    imported = fresh_process.submit(cold_page_run.imported).result(timeout=300)
    assert "streamlit" in imported and "pandas" in imported
    assert not [m for m in imported if m.split(".")[0] in ("ui", "content", "metrics", "classroom", "teaching")]


@pytest.mark.parametrize("path", [p.path for p in PAGES], ids=[p.topic for p in PAGES])
def test_every_page_runs_first_in_a_fresh_process(fresh_process, path):
    # benchmarks/page_rerun.py's first_runs: the page's first run, then a new session's, each asserting that no
    # exception reached the page (an AssertionError raised there is raised here, with the page's exceptions).
    first, new_session = fresh_process.submit(cold_page_run.first_runs, path).result(timeout=300)
    assert first > 0 and new_session > 0

