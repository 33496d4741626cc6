"""Escape attempts: each is contained with a clear verdict, and the app is unharmed.

Every attempt is written as a candidate's `rmse` that tries something, prints what happened,
then returns a correct value, so a verdict of "passed" means the attempt changed nothing.
Limits are lowered here (2-3 s) to keep the suite fast.
"""

import os
import signal
import socket
from pathlib import Path

import pytest

import kata
from kata.pool import Pool
from kata.sandbox import Limits
from tests.kata_samples import sandbox_processes, worker_uids

REPO = Path(__file__).resolve().parents[1]
FAST = Limits(wall_seconds=3, cpu_seconds=2, memory_bytes=512 * 1024 * 1024, processes=16)
POOL = Pool(2, first_uid=worker_uids(61100))
RMSE = "\n    import math\n    return math.sqrt(sum((p - a) ** 2 for p, a in zip(predictions, actuals)) / len(actuals))\n"


def attempt(body: str, *, cases: int = 5, limits: Limits = FAST) -> kata.Result:
    source = "def rmse(predictions, actuals):\n" + "\n".join("    " + line for line in body.strip().splitlines()) + RMSE
    return kata.run("rmse", source, cases=cases, limits=limits, pool=POOL)


def left_running() -> list[str]:
    return sandbox_processes(POOL.uids)


@pytest.fixture(autouse=True)
def nothing_left_behind():
    yield
    assert left_running() == []


def test_cannot_read_the_apps_files():
    result = attempt(f"""
import os
for path in [{str(REPO / 'kata' / 'judge.py')!r}, {str(REPO / 'README.md')!r}, '/root/.bashrc', '/etc/passwd',
             '/proc/1/root/etc/passwd']:
    try:
        open(path).read(); print('READ', path)
    except OSError as exc:
        print('blocked', type(exc).__name__)
for d in ['/work', '/root', '/etc', '/home']:
    print(d, os.path.exists(d) and os.listdir(d))
print(sorted(os.listdir('/')))
""", cases=1)
    assert result.passed == 1
    assert "READ" not in result.stdout
    assert "/work False" in result.stdout and "/etc False" in result.stdout
    # /root exists only as the mount point of the Python copy: its listing holds nothing else.
    assert "'.bashrc'" not in result.stdout


def test_cannot_see_the_apps_environment(monkeypatch):
    monkeypatch.setenv("RECEVAL_SECRET", "hunter2-do-not-leak")
    result = attempt("""
import os
print(dict(os.environ))
print('self', open('/proc/self/environ').read())
print('pid1', repr(open('/proc/1/environ').read()))
""", cases=1)
    assert result.passed == 1
    assert "hunter2" not in result.stdout
    assert "pid1 ''" in result.stdout


def test_cannot_write_outside_its_private_tmp(tmp_path):
    marker = Path("/tmp/kata-escape-probe")
    marker.unlink(missing_ok=True)
    result = attempt(f"""
for path in ['/kata-x', '/usr/lib/kata-x', '/opt/kata/harness.py', {str(REPO / 'kata' / 'x.py')!r}, '/tmp/kata-escape-probe']:
    try:
        open(path, 'w').write('x'); print('WROTE', path)
    except OSError as exc:
        print('blocked', path, type(exc).__name__)
""", cases=1)
    assert result.passed == 1
    assert result.stdout.count("WROTE") == 1 and "WROTE /tmp/kata-escape-probe" in result.stdout
    assert not marker.exists()  # its /tmp is its own
    assert not (REPO / "kata" / "x.py").exists()


def test_file_size_and_tmp_space_are_limited():
    result = attempt("open('/tmp/big', 'wb').write(b'x' * 8 * 1024 * 1024)", cases=1)
    # Python ignores SIGXFSZ, so the write fails with EFBIG instead of killing the process.
    assert result.error.startswith("OSError: [Errno 27] File too large")
    many = attempt("for i in range(40):\n    open(f'/tmp/f{i}', 'wb').write(b'x' * 1000 * 1000)", cases=1)
    assert many.error.startswith("OSError: [Errno 28] No space left on device")  # the 16 MB /tmp


def test_open_files_are_limited():
    result = attempt("handles = [open('/dev/null') for _ in range(200)]", cases=1)
    assert result.error.startswith("OSError: [Errno 24] Too many open files")


def test_no_network_not_even_the_apps_own_port():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    result = attempt(f"""
import socket
for host in [('127.0.0.1', {port}), ('1.1.1.1', 80)]:
    try:
        socket.create_connection(host, timeout=1); print('CONNECTED', host)
    except OSError as exc:
        print('blocked', type(exc).__name__)
""", cases=1)
    assert result.passed == 1 and "CONNECTED" not in result.stdout
    with pytest.raises(TimeoutError):
        listener.accept()
    listener.close()


def test_cannot_kill_the_parent_or_the_app():
    result = attempt(f"""
import os, signal
for pid in [os.getppid(), 1, {os.getpid()}]:
    try:
        os.kill(pid, signal.SIGKILL); print('sent', pid)
    except OSError as exc:
        print('blocked', pid, type(exc).__name__)
""", cases=1)
    assert f"blocked {os.getpid()} ProcessLookupError" in result.stdout
    assert result.passed == 1  # the judge carried on: the sandbox's pid 1 ignores signals from inside


def test_fork_bomb_is_contained():
    result = attempt("""
import os
while True:
    os.fork()
""", cases=1)
    assert result.passed == 0
    assert result.error.startswith("BlockingIOError") or result.error.startswith("Time limit")


def test_memory_bomb_is_contained():
    result = attempt("x = bytearray(8 * 1024 ** 3)", cases=1)
    assert result.error.startswith("MemoryError")
    assert "line 2, in rmse: x = bytearray(8 * 1024 ** 3)" in result.error


def test_infinite_loop_hits_a_limit():
    result = attempt("while True:\n    pass", cases=1)
    assert result.error.startswith(("Time limit", "CPU limit"))
    assert result.failure.inputs == {"predictions": [3.0, 4.0, 5.0], "actuals": [3.0, 4.0, 2.0]}


def test_cpu_limit_holds_before_the_wall_clock():
    result = attempt("while True:\n    pass", cases=1, limits=Limits(case_seconds=8, wall_seconds=8, cpu_seconds=1))
    assert result.error == "CPU limit: your code used more than 1 s of CPU time."  # not the 8 s clocks


def test_sleeping_an_hour_hits_the_wall_clock():
    result = attempt("import time\ntime.sleep(3600)", cases=1)
    assert result.error == ("Time limit: one call of your function ran longer than 1 s (an endless loop, or far too "
                            "slow for this case).")
    assert result.seconds < 5


def test_a_hundred_megabytes_of_output_is_cut_at_64_kb():
    result = attempt("import sys\nfor _ in range(100):\n    sys.stdout.write('x' * 1024 * 1024)", cases=1)
    assert result.error == "Output limit: your code printed more than 64 KB."
    assert len(result.stdout) <= 64 * 1024


def test_crashing_the_interpreter_with_ctypes_is_a_verdict():
    result = attempt("import ctypes\nctypes.string_at(0)", cases=1)
    assert result.error == "Your code crashed the Python interpreter (SIGSEGV)."


def test_recursion_depth_is_an_exception_with_the_candidates_line():
    result = attempt("def deeper(n):\n    return deeper(n + 1)\ndeeper(0)", cases=1)
    assert result.error.startswith("RecursionError")
    assert "in deeper: return deeper(n + 1)" in result.error


def test_raising_the_recursion_limit_crashes_only_the_sandbox():
    result = attempt("import sys\nsys.setrecursionlimit(10 ** 7)\ndef deeper(n):\n    return deeper(n + 1)\ndeeper(0)",
                     cases=1)
    # CPython 3.11 keeps Python frames off the C stack, so this grows until a limit stops it.
    assert result.error.startswith(("Your code crashed", "RecursionError", "MemoryError", "Time limit", "CPU limit",
                                    "Memory limit"))


@pytest.mark.parametrize("module", ["pandas", "metrics", "kata", "streamlit", "scipy"])
def test_importing_a_module_not_allowed_says_so(module):
    result = kata.run("rmse", f"import {module}\ndef rmse(predictions, actuals):\n    return 0.0\n", pool=POOL)
    assert result.error.startswith(f"ModuleNotFoundError: import {module}: only numpy and the Python standard "
                                   "library are available here")
    assert "line 1, in <module>: import " + module in result.error


def test_numpy_and_the_standard_library_are_allowed():
    result = attempt("import numpy, statistics, collections, json\nassert numpy.arange(3).sum() == 3", cases=3)
    assert result.passed == 3


def test_the_candidate_runs_as_an_unprivileged_uid_without_capabilities():
    result = attempt("""
import os
print('uid', os.getuid(), os.getgid(), os.getgroups())
print([l for l in open('/proc/self/status') if l.startswith('CapEff')])
""", cases=1)
    uid = int(result.stdout.split()[1])
    assert uid in POOL.uids and "CapEff:\\t0000000000000000" in result.stdout


def test_the_app_still_judges_after_every_attack():
    assert kata.run("rmse", kata.PROBLEMS["rmse"].numpy_solution, pool=POOL).passed == 200


def test_signal_from_the_app_kills_the_whole_sandbox():
    """The wall clock kills the process group: nothing the candidate forked survives."""
    result = attempt("import os, time\nif os.fork() == 0:\n    time.sleep(3600)\ntime.sleep(3600)", cases=1)
    assert result.error.startswith("Time limit")
    assert signal.SIGKILL  # the autouse fixture checks no process of the slot's uid is left


def test_many_runs_in_a_row_never_hit_the_process_limit_with_leftover_zombies():
    # Each run leaves bubblewrap's pid-1 helper as a zombie until init reaps it (seconds here); on one
    # uid, 16 runs in a row filled its process limit and the next could not fork ("Can't fork for pid 1").
    source = kata.PROBLEMS["reciprocal_rank"].loop_solution
    results = [kata.run("reciprocal_rank", source, cases=5) for _ in range(40)]
    assert [(r.error, r.passed) for r in results] == [(None, 5)] * 40
