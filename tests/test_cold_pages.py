"""Every page as the first run of a fresh process (``streamlit run`` just started, a deep link its
first visitor): nothing imported or cached yet, so a page that works only after another page has
run fails here. The browser opens every page on a shared server (tests/e2e/test_browser.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ui.navigation import PAGES

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("path", [p.path for p in PAGES], ids=[p.topic for p in PAGES])
def test_every_page_runs_first_in_a_fresh_process(path):
    # benchmarks/page_rerun.py --first-runs: the page's first run, then a new session's, each
    # asserting that no exception reached the page.
    result = subprocess.run([sys.executable, "benchmarks/page_rerun.py", "--first-runs", path], capture_output=True,
                            text=True, cwd=ROOT, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert len(result.stdout.split()) >= 2
