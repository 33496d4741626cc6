"""Shared AppTest helpers: run a page, edit a table, read cards and charts."""

from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path

import pandas as pd
import pytest
from streamlit.components.v2 import manifest_scanner
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest, app_test

ROOT = Path(__file__).resolve().parents[1]

# Every Spark JVM the tests start (the tests' session, the command line's, spark-shell) runs for seconds: with the
# JIT's first tier only, its compile threads no longer take 40 % of its CPU for code that would never pay them back.
# The numbers are the JVM's either way; the command line users run keeps the JVM's defaults.
os.environ.setdefault("SPARK_SUBMIT_OPTS", "-XX:TieredStopAtLevel=1")

# Every new AppTest scans the metadata of every installed distribution for Streamlit components (about 1 s, most
# of a page test's time); the installed packages do not change while the tests run, so one scan per process.
_scan_once = functools.cache(manifest_scanner.scan_component_manifests)
manifest_scanner.scan_component_manifests = lambda *args, **kwargs: list(_scan_once(*args, **kwargs))
# Every AppTest run also compiles its pages anew (parse, Streamlit's "magic" rewrite, compile); the page files do
# not change while the tests run either, so the compiled pages are shared by the process.
_compiled_pages = ScriptCache()
app_test.ScriptCache = lambda: _compiled_pages


def run_page(path: str = "app.py", *, query_params: dict | None = None, **state) -> AppTest:
    """Run one page first, as a deep link on a fresh server does, and fail on any exception it shows.

    Each ``state`` entry is put in the session before that first run, as loading a seed example leaves it;
    ``query_params`` are in the address the page is opened with (a lesson link).
    """
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    if path != "app.py":
        at.switch_page(path)
    for name, value in state.items():
        at.session_state[name] = value
    for key, value in (query_params or {}).items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def editor_key(at: AppTest, table: str) -> str:
    """The current key of the editor of scenario table ``table`` (keys carry a version)."""
    keys = [e.key for e in at.data_editor if e.key and e.key.startswith(f"{table}_editor_")]
    assert len(keys) == 1, f"expected one editor for {table!r}, found {keys}"
    return keys[0]


def edit(at: AppTest, table: str, *, edited_rows=None, added_rows=None, deleted_rows=None) -> AppTest:
    """Edit a scenario table the way the browser's data editor reports an edit, then rerun."""
    at.session_state[editor_key(at, table)] = {
        "edited_rows": edited_rows or {}, "added_rows": added_rows or [], "deleted_rows": deleted_rows or [],
    }
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def card(at: AppTest, label: str) -> str:
    """The shown value of the metric card with this label."""
    values = [m.value for m in at.metric if m.label == label]
    assert len(values) == 1, f"expected one card {label!r}, found {[m.label for m in at.metric]}"
    return values[0]


def chart_specs(at: AppTest) -> list[dict]:
    """The Plotly specs of every chart on the page, in page order."""
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def chart_titled(at: AppTest, title_start: str) -> dict:
    """The Plotly spec of the one chart whose title starts with ``title_start``."""
    specs = chart_specs(at)
    matching = [s for s in specs if s["layout"]["title"]["text"].startswith(title_start)]
    assert len(matching) == 1, [s["layout"]["title"]["text"] for s in specs]
    return matching[0]


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    """The first table on the page that has this column."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def latex(at: AppTest) -> str:
    """All formulas on the page, as one string."""
    return "\n".join(str(e.value) for e in at.latex)


def texts(at: AppTest) -> str:
    """All markdown, captions, warnings, infos and errors on the page, as one string.

    Markdown backslash escapes and the invisible word joiners that stop autolinks (typed names and
    messages carry them) are read as what they show; the formulas are kept as written.
    """
    parts = []
    for kind in ("markdown", "caption", "warning", "info", "error", "success"):
        parts += [re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", str(e.value)).replace("\u2060", "") for e in at.get(kind)]
    parts += [str(e.value) for e in at.get("latex")]
    return "\n".join(parts)


def warm_protocol_lesson() -> None:
    """Train the protocol lesson's presets on ML-100K in this process before a page shows the lesson: AppTest runs
    the page here, so it finds them trained instead of spending its timeout on the first step."""
    from ui.controllers import lesson_protocols
    from protocols import presets

    for key in lesson_protocols.LESSON_PRESETS:
        presets.measured(key)


@pytest.fixture
def home() -> AppTest:
    return run_page("app.py")


def plotly_array(values) -> list:
    """A Plotly spec array as a list: Plotly 7 sends numeric arrays as base64 ``bdata``."""
    import base64

    import numpy as np

    if isinstance(values, dict) and "bdata" in values:
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]).tolist()
    return list(values)


# ---------------------------------------------------------------------------- live-class databases

@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server URL: RECEVAL_TEST_POSTGRES_URL (set by .ci/run), else a private cluster
    started here from Debian's binaries. In CI (CI=true) a missing PostgreSQL fails the tests."""
    import os
    import shutil
    import tempfile

    from deploy import postgres

    given = os.environ.get("RECEVAL_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    if postgres.binaries() is None:
        message = "PostgreSQL is not installed (apt-get install postgresql); .ci/run installs it"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    directory = Path(tempfile.mkdtemp(prefix="receval-test-pg-"))
    try:
        yield postgres.start(directory)
    finally:
        postgres.stop(directory)
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    """A fresh, empty live-class database of each kind: a file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'live.db'}"
    return new_postgres_database(request.getfixturevalue("postgres_server"))


def new_postgres_database(server: str) -> str:
    import uuid

    from sqlalchemy import create_engine, text

    name = f"live_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return server.rsplit("/", 1)[0] + f"/{name}"
