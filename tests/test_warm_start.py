"""deploy/warm.py: a server started by it has imported, before its first visitor, everything a
page's first run imports, so no first answer waits for an import (benchmarks/page_rerun.py --cold
measures the time; this pins the mechanism)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# After warm(): whether every language's catalog is compiled, then which modules of the app and of the heavy libraries
# a page's first run still imports.
PROBE = """
import json, logging, sys
logging.getLogger("streamlit").setLevel(logging.ERROR)
from deploy.warm import warm
from content import i18n
warm()
every_language_compiled = i18n.translation.cache_info().currsize == len(i18n.languages())
from streamlit.testing.v1 import AppTest
before = set(sys.modules)
at = AppTest.from_file("app.py", default_timeout=120)
at.switch_page(sys.argv[1])
at.run()
assert not at.exception, [e.value for e in at.exception]
watched = ("content", "metrics", "teaching", "whole_logs", "receval", "ui", "classroom", "kata", "pandas", "scipy", "plotly", "pyarrow", "jinja2")
print(json.dumps([every_language_compiled, sorted(m for m in set(sys.modules) - before if m.split(".")[0] in watched)]))
"""


@pytest.mark.parametrize("page", ["pages/18_Compare_two_models.py", "pages/17_Your_data.py", "pages/10_Lessons.py"])
def test_the_warm_start_compiles_every_language_and_a_page_run_after_it_imports_nothing_new(page):
    # One process per page both checks: a warm start is seconds of imports, not to be paid once more for the catalogs.
    result = subprocess.run([sys.executable, "-c", PROBE, page], capture_output=True, text=True, cwd=ROOT,
                            timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    every_language_compiled, imported_after = json.loads(result.stdout.strip().splitlines()[-1])
    assert every_language_compiled is True
    assert imported_after == []


def test_the_server_starts_training_every_protocol_preset_as_it_starts(monkeypatch):
    from streamlit.web import cli

    from deploy import warm as warm_start
    from protocols import presets

    asked, server_started, training_when_serving = [], threading.Event(), []

    def measured(key):
        server_started.wait(30)  # training goes on while the server runs
        asked.append(key)

    def serve(*_args, **_kwargs):
        training_when_serving.extend(t for t in threading.enumerate() if t.name == "receval-presets")
        server_started.set()

    monkeypatch.setattr(warm_start, "warm", lambda: None)
    monkeypatch.setattr(presets, "measured", measured)
    monkeypatch.setattr(cli, "main", serve)
    warm_start.main(["--server.headless", "true"])
    assert training_when_serving, "no preset training had started when the server started"
    training_when_serving[0].join(30)
    assert asked == list(presets.PRESETS)


def test_preset_training_without_movielens_ends_quietly(monkeypatch):
    from deploy import warm as warm_start
    from protocols import movielens, presets

    def unavailable(_key):
        raise movielens.DataUnavailable("ml100k_missing", "no ML-100K here")

    monkeypatch.setattr(presets, "measured", unavailable)
    errors = []
    monkeypatch.setattr(threading, "excepthook", errors.append)
    warm_start.train_presets().join(30)
    assert errors == []
