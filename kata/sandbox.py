"""Run the judge harness in a bubblewrap sandbox, one fresh process per run.

Why bubblewrap: it is a maintained, packaged (Debian ``bubblewrap``) front end to the kernel's
namespaces that needs no daemon and no setuid helper; nsjail is not packaged, firejail is a
much larger setuid program, and in-process "sandboxes" (RestrictedPython) are not sandboxes.

What a run gets (measured on this machine, tests/test_kata_sandbox.py checks each):

- its own uid (one per pool slot, never root: the kernel does not apply RLIMIT_NPROC to root,
  so a fork bomb would escape), no groups, no capabilities, dropped before bubblewrap starts;
- new user, pid, network, ipc, uts and cgroup namespaces (``--unshare-all``): no network at
  all, not even the host's loopback; ``--die-with-parent`` and ``--new-session``;
- a read-only root holding only the Python prefix (a world-readable copy, see
  :func:`python_copy`), numpy, the system libraries and the harness; a private 16 MB /tmp;
- an empty environment: bubblewrap itself is started with ``env={}``, because its pid-1
  helper keeps the environment it was started with (readable at /proc/1/environ);
- rlimits set in the child: CPU seconds, address space, processes, file size, open files;
  a wall-clock deadline kills the whole process group; output is read with a cap.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import selectors
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

BWRAP = "/usr/bin/bwrap"
CACHE = Path(os.environ.get("RECEVAL_KATA_CACHE", "/var/cache/receval-kata"))
HARNESS = Path(__file__).with_name("harness.py")
INSTALL_HINT = ("The code sandbox needs bubblewrap: run `apt-get install -y bubblewrap` "
                "(Debian/Ubuntu) as root, then restart the app.")
FIRST_UID = 61000
PROBE_UID = 60999  # the availability probe's own uid: never one a run could be clearing
OUTPUT_CAP = 64 * 1024
_SKIP_STDLIB = {"site-packages", "test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3",
                "config-3.11-x86_64-linux-gnu", "__phello__"}


class SandboxUnavailable(RuntimeError):
    """No usable sandbox: code is never run unconfined instead."""


@dataclass(frozen=True)
class Limits:
    # 5 s, not the 10 s allowed: every model solution needs under 1 s, and a class's endless loops
    # hold a slot for the whole wall clock while everyone behind them waits (benchmarks/kata_load.py).
    wall_seconds: float = 5.0
    cpu_seconds: int = 4
    memory_bytes: int = 1024 * 1024 * 1024
    processes: int = 16
    file_bytes: int = 1024 * 1024
    open_files: int = 64
    output_bytes: int = OUTPUT_CAP

    def __post_init__(self):
        if self.wall_seconds > 10:
            raise ValueError("the wall-clock limit is at most 10 s")


@dataclass
class Outcome:
    """What came back from one sandboxed process."""

    messages: list
    stdout: str
    output_exceeded: bool
    timed_out: bool
    returncode: int | None
    signal_name: str | None
    seconds: float


def _numpy_dirs() -> list[Path]:
    import numpy
    package = Path(numpy.__file__).resolve().parent
    libs = package.parent / "numpy.libs"
    return [package] + ([libs] if libs.is_dir() else [])


def _copy_tree(source: Path, target: Path, ignore=None):
    def link_or_copy(src, dst):
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)
    shutil.copytree(source, target, symlinks=True, ignore=ignore, copy_function=link_or_copy)


def python_copy() -> Path:
    """A world-readable copy of this Python (interpreter, stdlib, numpy), made once.

    The interpreter may live under a mode-700 home (/root/.pyenv here) that the sandbox's
    unprivileged uid cannot reach, and bubblewrap binds as that uid. Files are hard links where
    possible, so the copy costs no space; the sandbox binds it read-only.
    """
    prefix = Path(sys.base_prefix)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    import numpy
    key = hashlib.sha256(f"{prefix}|{sys.version}|{_numpy_dirs()[0]}|{numpy.__version__}".encode()).hexdigest()[:12]
    target = CACHE / f"python-{key}"
    if (target / "ready").exists():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    os.chmod(CACHE, 0o755)
    work = CACHE / f"python-{key}.{os.getpid()}.tmp"
    shutil.rmtree(work, ignore_errors=True)
    (work / "bin").mkdir(parents=True)
    shutil.copy2(Path(sys.executable).resolve(), work / "bin" / "python3")
    (work / "lib").mkdir()
    for library in (prefix / "lib").glob("libpython*"):
        shutil.copy2(library, work / "lib" / library.name, follow_symlinks=False)
    _copy_tree(prefix / "lib" / version, work / "lib" / version,
               ignore=lambda d, names: [n for n in names if n in _SKIP_STDLIB or n.startswith("config-")])
    for directory in _numpy_dirs():
        _copy_tree(directory, work / "site-packages" / directory.name,
                   ignore=shutil.ignore_patterns("tests", "testing"))
    shutil.copy2(HARNESS, work / "harness.py")
    for path in [work, *work.rglob("*")]:
        if not path.is_symlink():
            os.chmod(path, (path.stat().st_mode | 0o444 | (0o111 if path.is_dir() else 0)) & 0o755)
    (work / "ready").write_text("ok\n")
    try:
        work.rename(target)
    except OSError:  # another process finished first
        shutil.rmtree(work, ignore_errors=True)
    return target


def _harness_current(copy: Path) -> Path:
    """The harness inside the copy, refreshed when the app's file changed (cheap, every run)."""
    inside = copy / "harness.py"
    if inside.read_bytes() != HARNESS.read_bytes():
        temporary = copy / f"harness.{os.getpid()}.tmp"
        shutil.copy2(HARNESS, temporary)
        os.chmod(temporary, 0o644)
        temporary.rename(inside)
    return inside


def bwrap_argv(copy: Path, answers_fd: int) -> list[str]:
    prefix = str(Path(sys.base_prefix))
    argv = [BWRAP, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--ro-bind", "/usr/lib", "/usr/lib"]
    for path in ("/usr/lib64", "/lib64", "/lib", "/usr/lib32"):
        if os.path.islink(path):
            argv += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path) and path != "/usr/lib":
            argv += ["--ro-bind", path, path]
    argv += ["--ro-bind", str(copy), prefix,
             "--ro-bind", str(copy / "site-packages"), "/opt/kata/site-packages",
             "--ro-bind", str(copy / "harness.py"), "/opt/kata/harness.py",
             "--proc", "/proc", "--dev", "/dev", "--size", str(16 * 1024 * 1024), "--tmpfs", "/tmp",
             "--chdir", "/tmp", "--remount-ro", "/",
             "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp",
             "--setenv", "LD_LIBRARY_PATH", f"{prefix}/lib",
             "--setenv", "OPENBLAS_NUM_THREADS", "1", "--setenv", "OMP_NUM_THREADS", "1",
             "--setenv", "PYTHONDONTWRITEBYTECODE", "1", "--setenv", "PYTHONHASHSEED", "0",
             "--", f"{prefix}/bin/python3", "-I", "-B", "/opt/kata/harness.py", str(answers_fd)]
    return argv


def _limit_child(limits: Limits):
    def apply():
        # CPU: SIGXCPU at the soft limit (the verdict names it), SIGKILL a second later if ignored.
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        for which, value in ((resource.RLIMIT_AS, limits.memory_bytes), (resource.RLIMIT_NPROC, limits.processes),
                             (resource.RLIMIT_FSIZE, limits.file_bytes), (resource.RLIMIT_NOFILE, limits.open_files),
                             (resource.RLIMIT_CORE, 0)):
            resource.setrlimit(which, (value, value))
    return apply


def check_available() -> None:
    """Raise :class:`SandboxUnavailable` (with how to install it) unless bubblewrap works here."""
    if not os.path.exists(BWRAP):
        raise SandboxUnavailable(INSTALL_HINT)
    if os.geteuid() != 0:
        raise SandboxUnavailable("The code sandbox runs each submission as a uid of its own, so the app must "
                                 "start as root (it drops to that uid before bubblewrap starts).")
    probe = subprocess.run([BWRAP, "--unshare-all", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib",
                            "--symlink", "usr/lib64", "/lib64", "--", "/usr/bin/true"],
                           env={}, capture_output=True, user=PROBE_UID, group=PROBE_UID, extra_groups=[],
                           timeout=10, check=False)
    if probe.returncode != 0:
        raise SandboxUnavailable("bubblewrap is installed but cannot create namespaces here ("
                                 + probe.stderr.decode(errors="replace").strip()[:200]
                                 + "). Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1).")
    try:
        python_copy()
    except OSError as problem:
        raise SandboxUnavailable(f"The sandbox's copy of Python could not be made in {CACHE} ({problem}).") from None


_checked: list[bool] = []


def ensure_available() -> None:
    if not _checked:
        check_available()
        _checked.append(True)


def processes_of(uid: int, *, zombies: bool = False) -> list[int]:
    """Pids whose uid is ``uid``, read from /proc. Zombies are left out unless asked for: they run
    nothing, and the system reaps the sandbox's orphaned pid-1 helper a little later (seconds, on a
    machine whose init reaps lazily), but until then they count against the uid's process limit."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid != uid:
                    continue
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    state = stat.read().rsplit(b")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if zombies or state not in (b"Z", b"X"):
                found.append(int(entry.name))
    return found


def owners() -> set[int]:
    """The uids of every process, zombies included, in one walk over /proc."""
    found = set()
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                found.add(entry.stat().st_uid)
            except OSError:
                continue
    return found


def clear_uid(uid: int, timeout: float = 2.0) -> None:
    """Before a slot is reused: kill anything still running as its uid, and wait until it is gone.

    Nothing should be left (the pid namespace dies with bubblewrap); this makes sure of it.
    """
    deadline = time.monotonic() + timeout
    while (pids := processes_of(uid)) and time.monotonic() < deadline:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.01)


class Session:
    """One sandboxed harness process: send requests, read its answers, with every limit on."""

    def __init__(self, uid: int, limits: Limits):
        ensure_available()
        self.uid = uid
        self.limits = limits
        copy = python_copy()
        _harness_current(copy)
        requests_read, self._requests = os.pipe()
        self._answers, answers_write = os.pipe()
        os.set_inheritable(answers_write, True)
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            bwrap_argv(copy, answers_write), env={}, stdin=requests_read, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            pass_fds=(answers_write,), user=uid, group=uid, extra_groups=[], start_new_session=True,
            preexec_fn=_limit_child(limits), close_fds=True, cwd="/",
        )
        os.close(requests_read)
        os.close(answers_write)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ, "out")
        self._selector.register(self._answers, selectors.EVENT_READ, "answers")
        self._output = bytearray()
        self._pending = b""
        self.messages: list = []
        self.output_exceeded = False
        self.timed_out = False
        self._closed_streams: set = set()

    def send(self, message: dict) -> None:
        data = (json.dumps(message) + "\n").encode()
        try:
            while data:
                written = os.write(self._requests, data)
                data = data[written:]
        except (BrokenPipeError, OSError):
            pass

    def _pump(self, timeout: float) -> list:
        """Read whatever is ready within ``timeout``; return the complete answer messages."""
        new = []
        for key, _ in self._selector.select(timeout):
            fd = key.fileobj if isinstance(key.fileobj, int) else key.fileobj.fileno()
            chunk = os.read(fd, 65536)
            if not chunk:
                self._selector.unregister(key.fileobj)
                self._closed_streams.add(key.data)
                continue
            if key.data == "out":
                room = self.limits.output_bytes - len(self._output)
                self._output += chunk[:max(room, 0)]
                if len(chunk) > room:
                    self.output_exceeded = True
                    self.kill()
            else:
                self._pending += chunk
                *lines, self._pending = self._pending.split(b"\n")
                for line in lines:
                    try:
                        new.append(json.loads(line))
                    except ValueError:
                        new.append({"garbled": True})
        self.messages += new
        return new

    def wait_for(self, predicate) -> dict | None:
        """Read until a message satisfies ``predicate``; None when the process ended or a limit hit."""
        deadline = self.started + self.limits.wall_seconds
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.timed_out = True
                self.kill()
                return None
            if "answers" in self._closed_streams or self.output_exceeded:
                return None
            for message in self._pump(min(remaining, 0.5)):
                if predicate(message):
                    return message

    def kill(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def close(self) -> Outcome:
        self.send({"quit": True})
        try:
            os.close(self._requests)
        except OSError:
            pass
        deadline = self.started + self.limits.wall_seconds
        while self._selector.get_map() and time.monotonic() < deadline and not self.output_exceeded:
            self._pump(min(0.2, max(deadline - time.monotonic(), 0.01)))
        if self._selector.get_map():
            self.timed_out = self.timed_out or not self.output_exceeded
            self.kill()
        self.kill()
        returncode = self.process.wait()
        clear_uid(self.uid)
        self._selector.close()
        self.process.stdout.close()
        os.close(self._answers)
        name = None
        if returncode is not None and returncode < 0:
            name = signal.Signals(-returncode).name
        elif returncode and returncode > 128:
            try:
                name = signal.Signals(returncode - 128).name
            except ValueError:
                name = None
        return Outcome(self.messages, self._output.decode(errors="replace"), self.output_exceeded,
                       self.timed_out, returncode, name, time.monotonic() - self.started)
