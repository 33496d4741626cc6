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


def test_the_console_mode_against_a_port_nobody_listens_on_reports_errors_and_exits_cleanly(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = subprocess.run([sys.executable, "benchmarks/live_class.py", "--teacher", "console", "--port", str(port),
                          "--students", "3", "--timeout", "2", "--idle", "0", "--database",
                          f"sqlite:///{tmp_path / 'live.db'}"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "Traceback" not in out.stderr + out.stdout, out.stderr
    assert out.stdout.startswith("3 students, teacher in Chromium") and "console: no class started" in out.stdout


def test_a_small_class_with_the_teacher_in_chromium_loses_nothing(tmp_path):
    """The README's mode end to end: Chromium presses Start, Next, Lock, Reveal and Back; three phones join
    through the join route from addresses of their own and follow the event stream (6 Next, 1 Lock and 1 Back:
    8 screens a phone; 2 reveals)."""
    out = subprocess.run([sys.executable, "benchmarks/live_class.py", "--teacher", "console", "--students", "3",
                          "--timeout", "30", "--idle", "0"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0 and "Traceback" not in out.stderr + out.stdout, out.stderr
    line = out.stdout.splitlines()[0]
    assert line.startswith("3 students, teacher in Chromium, 1 process(es), SQLite"), out.stdout
    assert "(10 clicks)" in line and "(24 screens)" in line and "Reveal -> screen" in line and "(6)" in line, line
    assert "6 sent, 0 lost, 0 counted twice, 0 phones' reveal differed; 0 errors" in line, out.stdout
    assert "last answer -> console count never" not in line
