"""The live class's light view and the server entry that mounts it (Starlette's TestClient, no browser)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from streamlit.web.server.app_discovery import discover_asgi_app

ROOT = Path(__file__).resolve().parents[1]


def test_streamlit_run_app_py_serves_the_st_app_with_the_class_routes():
    found = discover_asgi_app(ROOT / "app.py")
    assert (found.is_asgi_app, found.import_string) == (True, "app:app")
    # Imported as a module (as uvicorn does), app.py builds the App on itself and draws nothing.
    probe = ("import app, classroom.web as web; "
             "print(app.app.script_path, app.app._user_routes == web.ROUTES, hasattr(app, 'values'))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["app.py", "True", "False"]
