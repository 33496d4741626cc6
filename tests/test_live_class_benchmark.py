"""benchmarks/live_class.py never crashes: a server that does not answer gives counted errors and a summary."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_benchmark_against_a_port_nobody_listens_on_reports_errors_and_exits_cleanly(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    out = subprocess.run([sys.executable, "benchmarks/live_class.py", "--port", str(port), "--students", "3",
                          "--timeout", "1", "--idle", "0", "--runs", "2", "--database",
                          f"sqlite:///{tmp_path / 'live.db'}"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "Traceback" not in out.stderr + out.stdout, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("3 students") and "0 screens" in lines[0] and "idle class: not measured" in lines[0]
    assert "stream: ConnectionRefusedError" in out.stdout
    assert lines[-1].startswith("median of 2 runs")
