"""A page's first runs in the process this is called in: benchmarks/page_rerun.py's ``first_runs``, loaded from its
file. It imports none of the app's modules before that, so a process forked from one that holds only the libraries
runs the page as a fresh process would (tests/test_cold_pages.py)."""

from __future__ import annotations

import importlib.util
import logging
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "page_rerun.py"


def first_runs(path: str) -> tuple[float, float]:
    logging.getLogger("streamlit").setLevel(logging.ERROR)  # bare-mode warnings, printed into no test's output
    spec = importlib.util.spec_from_file_location("page_rerun", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.first_runs(path)


def imported() -> list[str]:
    """The modules this process holds, before any page ran."""
    return sorted(sys.modules)
