"""Run the judge harness in a bubblewrap sandbox, one fresh process per run.

Why bubblewrap: it is a maintained, packaged (Debian ``bubblewrap``) front end to the kernel's
namespaces that needs no daemon and no setuid helper; nsjail is not packaged, firejail is a
much larger setuid program, and in-process "sandboxes" (RestrictedPython) are not sandboxes.

What a run gets (measured on this machine, tests/test_kata_sandbox.py and test_kata_escapes.py check each):

- its own uid (one per pool slot, never root: the kernel does not apply RLIMIT_NPROC to root,
  so a fork bomb would escape), no groups, no capabilities, dropped before bubblewrap starts;
- one cgroup for the whole run (:mod:`kata.cgroups`): memory, tmpfs pages included, and the
  process count are capped for all its processes together; no cgroup, no run;
- new user, pid, network, ipc, uts and cgroup namespaces (``--unshare-all``), no further user
  namespaces (``--disable-userns``) and a seccomp filter (:mod:`kata.syscalls`): no network at
  all, not even the host's loopback; ``--die-with-parent`` and ``--new-session``;
- a read-only root holding only the Python prefix (a world-readable copy, see
  :func:`python_copy`), numpy, the system libraries they load and the harness; a private 16 MB
  /tmp, a 1 MB /dev/shm, a read-only /dev;
- an empty environment: bubblewrap itself is started with ``env={}``, because its pid-1
  helper keeps the environment it was started with (readable at /proc/1/environ);
- rlimits set in the child: CPU seconds, address space, processes, file size, open files;
  two clocks (one call, the whole run) kill the whole process group; output is read with a cap;
  every line on the answers pipe is checked (:mod:`kata.channel`).
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

from threadpoolctl import threadpool_limits

from kata import cgroups, syscalls
from kata.cgroups import RunGroup
from kata.channel import LINE_CAP, Expected, Tampered

# A sandbox starts with a fork (Popen's preexec_fn), from a server whose other threads compute. OpenBLAS's fork
# handler waits for its worker threads: a fork while another thread's matrix call (EASE's inverse, on the protocol
# lab or Logged feedback) holds them hung both threads for good (seen in the tests). With one BLAS thread per call
# no call holds them, so the process that forks sandboxes runs BLAS on the calling thread alone.
threadpool_limits(1, user_api="blas")

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
# Compiled modules left out of the copy: terminals, X11 (Tk), NIS (Kerberos), the interpreter's own tests. What
# is left needs a few system libraries, copied next to it; nothing of the host's /usr/lib is mounted.
_SKIP_DYNLOAD = ("_tkinter", "_curses", "_curses_panel", "readline", "nis", "ossaudiodev", "spwd", "_test",
                 "_ctypes_test", "xxlimited", "_xx")
LAYOUT = 2  # bump when the copy's layout changes: a new copy is made beside the old one


class SandboxUnavailable(RuntimeError):
    """No usable sandbox: code is never run unconfined instead."""


@dataclass(frozen=True)
class Limits:
    # Two clocks. One call of the candidate's function gets 1 s: every model solution answers a case in
    # under 10 ms, so a call over 1 s is an endless loop or hopeless, and the slot is freed at once rather
    # than held for the whole run. All calls together (200 cases, then shrinking) get 10 s, so code that is
    # correct but slow (30 ms a call: 6 s for 200 cases) still passes on a busy machine.
    case_seconds: float = 1.0
    wall_seconds: float = 10.0
    cpu_seconds: int = 10
    # Every process of the run together (a cgroup): memory, tmpfs pages included, and the process count.
    memory_bytes: int = 256 * 1024 * 1024
    processes: int = 16
    # Per process (rlimits): file size, open files, and address space at twice the memory cap (numpy maps
    # 140 MB to use 35), so one huge allocation is a MemoryError on the candidate's line, not a kill.
    file_bytes: int = 1024 * 1024
    open_files: int = 64
    output_bytes: int = OUTPUT_CAP
    tmp_bytes: int = 16 * 1024 * 1024
    shm_bytes: int = 1024 * 1024

    def __post_init__(self):
        if self.wall_seconds > 10:
            raise ValueError("the wall-clock limit is at most 10 s")
        if self.case_seconds > self.wall_seconds:
            raise ValueError("one call cannot have longer than the whole run")


@dataclass
class Outcome:
    """What came back from one sandboxed process."""

    messages: list
    stdout: str
    output_exceeded: bool
    timed_out: str | None
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


def _needed(binary: Path) -> tuple[dict[str, str], str | None]:
    """``ldd``'s answer for ``binary``: {soname: host path}, and the dynamic loader's path."""
    listing = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=False).stdout
    libraries, loader = {}, None
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[1] == "=>" and fields[2].startswith("/"):
            libraries[fields[0]] = fields[2]
        elif fields and fields[0].startswith("/"):
            loader = fields[0]
    return libraries, loader


def _copy_system_libraries(work: Path) -> None:
    """The host libraries the copied interpreter and modules load, into ``work/syslib``; the loader as ``ld.so``.

    Only these are visible in the sandbox: not the host's /usr/lib (its PostgreSQL, Chromium, JVM, its
    Python's dist-packages). libgcc_s is loaded by glibc at run time (a thread's exit), not named by ldd.
    """
    syslib = work / "syslib"
    syslib.mkdir()
    found: dict[str, str] = {}
    loader = None
    for binary in [work / "bin" / "python3", *work.rglob("*.so"), *work.rglob("*.so.*")]:
        libraries, binary_loader = _needed(binary)
        loader = loader or binary_loader
        found.update({name: path for name, path in libraries.items()  # libpython is in the copy's lib already
                      if not Path(path).is_relative_to(work) and not name.startswith("libpython")})
    if loader is None:
        raise OSError("ldd named no dynamic loader for the interpreter")
    libc_folder = Path(found["libc.so.6"]).parent
    if (libc_folder / "libgcc_s.so.1").exists():
        found.setdefault("libgcc_s.so.1", str(libc_folder / "libgcc_s.so.1"))
    for name, path in found.items():
        shutil.copy2(Path(path).resolve(), syslib / name)
    shutil.copy2(Path(loader).resolve(), work / "ld.so")
    (work / "loader-path").write_text(loader)


def python_copy() -> Path:
    """A world-readable copy of this Python (interpreter, stdlib, numpy), made once.

    The interpreter may live under a mode-700 home (/root/.pyenv here) that the sandbox's
    unprivileged uid cannot reach, and bubblewrap binds as that uid. Files are hard links where
    possible, so the copy costs no space; the sandbox binds it read-only.
    """
    prefix = Path(sys.base_prefix)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    import numpy
    key = hashlib.sha256(f"{prefix}|{sys.version}|{_numpy_dirs()[0]}|{numpy.__version__}|{LAYOUT}".encode()
                         ).hexdigest()[:12]
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
               ignore=lambda d, names: [n for n in names if n in _SKIP_STDLIB or n.startswith("config-")
                                        or (d.endswith("lib-dynload") and n.split(".")[0].startswith(_SKIP_DYNLOAD))])
    for directory in _numpy_dirs():
        _copy_tree(directory, work / "site-packages" / directory.name,
                   ignore=shutil.ignore_patterns("tests", "testing"))
    _copy_system_libraries(work)
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


def bwrap_argv(copy: Path, answers_fd: int, seccomp_fd: int, limits: Limits) -> list[str]:
    prefix = str(Path(sys.base_prefix))
    loader = (copy / "loader-path").read_text()
    # --disable-userns needs --unshare-user named (--unshare-all only tries it).
    return [BWRAP, "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session",
            "--cap-drop", "ALL",
            "--seccomp", str(seccomp_fd),
            "--ro-bind", str(copy), prefix,
            "--ro-bind", str(copy / "ld.so"), loader,
            "--ro-bind", str(copy / "site-packages"), "/opt/kata/site-packages",
            "--ro-bind", str(copy / "harness.py"), "/opt/kata/harness.py",
            "--proc", "/proc",
            # bubblewrap's /dev (null, zero, full, random, urandom, tty) is a tmpfs as large as half the
            # host's memory: it is made read-only, and /dev/shm and /tmp are small tmpfs of their own.
            "--dev", "/dev",
            "--size", str(limits.shm_bytes), "--tmpfs", "/dev/shm",
            "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp",
            "--remount-ro", "/dev",
            "--chdir", "/tmp", "--remount-ro", "/",
            "--setenv", "PATH", "/nonexistent", "--setenv", "HOME", "/tmp",
            "--setenv", "LD_LIBRARY_PATH", f"{prefix}/lib:{prefix}/syslib",
            "--setenv", "OPENBLAS_NUM_THREADS", "1", "--setenv", "OMP_NUM_THREADS", "1",
            "--setenv", "PYTHONDONTWRITEBYTECODE", "1", "--setenv", "PYTHONHASHSEED", "0",
            "--", f"{prefix}/bin/python3", "-I", "-B", "/opt/kata/harness.py", str(answers_fd)]


def _enter(group: RunGroup, uid: int, limits: Limits):
    """In the child, as root: join the run's cgroup, set the rlimits, then drop to the slot's uid for good."""
    def apply():
        group.join()
        # CPU: SIGXCPU at the soft limit (the verdict names it), SIGKILL a second later if ignored.
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        for which, value in ((resource.RLIMIT_AS, 2 * limits.memory_bytes),
                             (resource.RLIMIT_NPROC, limits.processes), (resource.RLIMIT_FSIZE, limits.file_bytes),
                             (resource.RLIMIT_NOFILE, limits.open_files), (resource.RLIMIT_CORE, 0)):
            resource.setrlimit(which, (value, value))
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
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
        cgroups.backend()
    except cgroups.CgroupsUnavailable as problem:
        raise SandboxUnavailable("The code sandbox caps each run's memory and processes together with cgroups, and "
                                 f"none can be used here ({problem}). Start the app as root on a machine with cgroup "
                                 "v1 memory and pids, or in a cgroup v2 group that delegates them.") from None
    try:
        syscalls.bpf_program()
    except (ImportError, OSError, RuntimeError) as problem:
        raise SandboxUnavailable(f"The code sandbox's system-call filter needs libseccomp ({problem}): run "
                                 "`apt-get install -y libseccomp2` and `pip install -r requirements.txt`.") from None
    try:
        python_copy()
    except OSError as problem:
        raise SandboxUnavailable(f"The sandbox's copy of Python could not be made in {CACHE} ({problem}).") from None


_checked: list[bool] = []


def ensure_available() -> None:
    if not _checked:
        check_available()
        _checked.append(True)


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


class Session:
    """One sandboxed harness process: send requests, read its answers, with every limit on.

    Every descriptor it opens and the process it starts are given back by :meth:`close`, whatever happened
    (the judge calls it in a ``finally``); :meth:`close` can be called more than once.
    """

    def __init__(self, uid: int, limits: Limits):
        ensure_available()
        self.uid = uid
        self.limits = limits
        copy = python_copy()
        _harness_current(copy)
        self.expected = Expected()
        self.tampered: str | None = None
        self.timed_out: str | None = None  # "case" (one call too long) or "total" (every call together)
        self.loaded = False
        self.output_exceeded = False
        self.messages: list = []
        self._output = bytearray()
        self._pending = b""
        self._closed_streams: set = set()
        self._outcome: Outcome | None = None
        self._memory_exceeded: bool | None = None
        self.group = RunGroup(limits.memory_bytes, limits.processes)
        opened: list[int] = []
        try:
            requests_read, self._requests = os.pipe()
            opened += [requests_read, self._requests]
            self._answers, answers_write = os.pipe()
            opened += [self._answers, answers_write]
            seccomp = syscalls.program_fd()
            opened.append(seccomp)
            os.set_inheritable(answers_write, True)
            self.started = time.monotonic()
            self._call_started: float | None = None
            self.process = subprocess.Popen(
                bwrap_argv(copy, answers_write, seccomp, limits), env={}, stdin=requests_read,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, pass_fds=(answers_write, seccomp),
                start_new_session=True, preexec_fn=_enter(self.group, uid, limits), close_fds=True, cwd="/")
        except BaseException:
            for fd in opened:
                os.close(fd)
            self.group.remove()
            raise
        for fd in (requests_read, answers_write, seccomp):
            os.close(fd)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ, "out")
        self._selector.register(self._answers, selectors.EVENT_READ, "answers")

    def send(self, message: dict) -> None:
        if "source" in message:
            self.expected.setup_sent()
        elif "cases" in message:
            self.expected.cases_sent([case["id"] for case in message["cases"]])
        data = (json.dumps(message) + "\n").encode()
        try:
            while data:
                written = os.write(self._requests, data)
                data = data[written:]
        except OSError:
            pass

    def _read_answers(self, chunk: bytes) -> list:
        self._pending += chunk
        *lines, self._pending = self._pending.split(b"\n")
        new = []
        try:
            if len(self._pending) > LINE_CAP:
                raise Tampered(f"a line of more than {LINE_CAP} bytes")
            for line in lines:
                message = self.expected.read(line)
                new.append(message)
                # Loading (numpy's import: over 1 s on a busy machine) has only the whole run's clock.
                self._call_started = time.monotonic() if "start" in message else None
                self.loaded = self.loaded or "loaded" in message
        except Tampered as problem:
            self.tampered = str(problem)
            self.kill()
        return new

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
            elif self.tampered is None:
                new += self._read_answers(chunk)
        self.messages += new
        return new

    def _deadline(self) -> tuple[float, str]:
        total = self.started + self.limits.wall_seconds
        if self._call_started is not None and self._call_started + self.limits.case_seconds < total:
            return self._call_started + self.limits.case_seconds, "case"
        return total, "total"

    def wait_for(self, predicate) -> dict | None:
        """Read until a message satisfies ``predicate``; None when the process ended or a limit hit."""
        while True:
            if "answers" in self._closed_streams or self.output_exceeded or self.tampered:
                return None
            deadline, clock = self._deadline()
            remaining = deadline - time.monotonic()
            new = self._pump(min(max(remaining, 0), 0.5))
            for message in new:
                if predicate(message):
                    return message
            # Past the deadline with nothing more to read: the candidate's code is still running. (Answers
            # already waiting are read first: a busy app process must not blame the candidate for its delay.)
            if remaining <= 0 and not new:
                self.timed_out = clock
                self.kill()
                return None

    def kill(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    @property
    def memory_exceeded(self) -> bool:
        """Whether the kernel killed one of the run's processes at the memory cap (read before the group goes)."""
        if self._memory_exceeded is None:
            self._memory_exceeded = self.group.memory_exceeded()
        return self._memory_exceeded

    def close(self) -> Outcome:
        if self._outcome is not None:
            return self._outcome
        try:
            self.send({"quit": True})
            try:
                os.close(self._requests)
            except OSError:
                pass
            deadline = self.started + self.limits.wall_seconds
            while self._selector.get_map() and time.monotonic() < deadline and not self.output_exceeded:
                self._pump(min(0.2, max(deadline - time.monotonic(), 0.01)))
            if self._selector.get_map() and not (self.output_exceeded or self.tampered or self.timed_out):
                self.timed_out = "total"
        finally:
            self.kill()
            returncode = self.process.wait()
            self.memory_exceeded  # noqa: B018 - read while the group exists
            self.group.remove()
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
        self._outcome = Outcome(self.messages, self._output.decode(errors="replace"), self.output_exceeded,
                                self.timed_out, returncode, name, time.monotonic() - self.started)
        return self._outcome
