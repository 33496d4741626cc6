"""One memory cap and one process cap on everything a sandboxed run starts, through cgroups.

rlimits are per process: six forked children each under a 1 GiB address-space limit still took
1.17 GB of the host. A cgroup counts the run's processes together, tmpfs pages they write included.

Where: cgroup v2 when it offers the ``memory`` and ``pids`` controllers (a pure-v2 machine), under
the app's own group if that can hand them down (a systemd unit with ``Delegate=yes``), else under
the hierarchy's root; otherwise cgroup v1's ``memory`` and ``pids`` hierarchies (this machine: v2
is mounted at /sys/fs/cgroup/unified without those controllers), under the app's own group, so a
cap an administrator put on the app also holds for its sandboxes.
Where neither is writable, :func:`backend` raises: the sandbox refuses to run rather than run
without a cap on the whole run (kata/sandbox.py turns that into the page's message).
"""

from __future__ import annotations

import itertools
import os
import signal
import time
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
GROUP = "receval-kata"


class CgroupsUnavailable(RuntimeError):
    pass


def _own(hierarchy: str) -> str:
    """The app's cgroup path in the v1 hierarchy named ``hierarchy``, or in v2 for ``""``."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        number, controllers, path = line.split(":", 2)
        if (hierarchy == "" and number == "0") or hierarchy in controllers.split(","):
            return path.lstrip("/")
    raise CgroupsUnavailable(f"this process is in no {hierarchy or 'v2'} cgroup")


def _v2_mount() -> Path | None:
    for line in Path("/proc/self/mounts").read_text().splitlines():
        fields = line.split()
        if fields[2] == "cgroup2":
            return Path(fields[1])
    return None


def _write(path: Path, value: str) -> None:
    path.write_text(value)


class V1:
    def __init__(self, root: Path = ROOT):
        self.memory = root / "memory" / _own("memory") / GROUP
        self.pids = root / "pids" / _own("pids") / GROUP
        for folder in (self.memory, self.pids):
            folder.mkdir(exist_ok=True)
            _sweep(folder)

    def create(self, name: str, memory_bytes: int, processes: int) -> list[Path]:
        memory, pids = self.memory / name, self.pids / name
        memory.mkdir()
        pids.mkdir()
        _write(memory / "memory.limit_in_bytes", str(memory_bytes))
        if (memory / "memory.memsw.limit_in_bytes").exists():  # swap counted with memory, where accounted
            _write(memory / "memory.memsw.limit_in_bytes", str(memory_bytes))
        _write(pids / "pids.max", str(processes))
        return [memory, pids]

    @staticmethod
    def at_cap(folders: list[Path]) -> int:
        """Non-zero when the group's memory reached its cap (a kill, or reclaiming its own pages until the clock
        ran out). memory.failcnt stays 0 on recent kernels, so the peak is compared with the cap instead."""
        folder = folders[0]
        kills = next((int(line.split()[1]) for line in (folder / "memory.oom_control").read_text().splitlines()
                      if line.startswith("oom_kill ")), 0)
        peak, cap = (int((folder / name).read_text())
                     for name in ("memory.max_usage_in_bytes", "memory.limit_in_bytes"))
        return kills + (peak >= cap)


class V2:
    def __init__(self, mount: Path):
        # Under the app's own group where it can hand the controllers down (delegated to it, nothing else
        # inside); else under the hierarchy's root, which the rule "no processes beside child groups" spares
        # (a pure-v2 Debian 12: the app's unit holds the app itself, so the kernel says EBUSY there).
        problems = []
        for parent in dict.fromkeys([mount / _own(""), mount]):
            try:
                if not {"memory", "pids"} <= set((parent / "cgroup.controllers").read_text().split()):
                    raise CgroupsUnavailable(f"{parent} does not offer the memory and pids controllers")
                _write(parent / "cgroup.subtree_control", "+memory +pids")
                self.base = parent / GROUP
                self.base.mkdir(exist_ok=True)
                _write(self.base / "cgroup.subtree_control", "+memory +pids")
            except (OSError, CgroupsUnavailable) as problem:
                problems.append(f"cgroup v2 at {parent}: {problem}")
                continue
            _sweep(self.base)
            return
        raise CgroupsUnavailable("; ".join(problems))

    def create(self, name: str, memory_bytes: int, processes: int) -> list[Path]:
        folder = self.base / name
        folder.mkdir()
        _write(folder / "memory.max", str(memory_bytes))
        _write(folder / "memory.swap.max", "0")
        _write(folder / "memory.oom.group", "1")  # the whole run dies together
        _write(folder / "pids.max", str(processes))
        return [folder]

    @staticmethod
    def at_cap(folders: list[Path]) -> int:
        events = dict(line.split() for line in (folders[0] / "memory.events").read_text().splitlines())
        return int(events.get("max", 0)) + int(events.get("oom_kill", 0))


def _sweep(folder: Path) -> None:
    """Remove the run groups an app process left when it died mid-run (its pid is in the name): never another's."""
    for run in folder.glob("run-*-*"):
        if not Path(f"/proc/{run.name.split('-')[1]}").exists():
            try:
                run.rmdir()
            except OSError:  # a process still inside: RunGroup.remove of a later run kills it, or it ends
                pass


_chosen: list = []


def backend() -> V1 | V2:
    """cgroup v2 where it can be used, else v1; raises :class:`CgroupsUnavailable` when neither is writable."""
    if _chosen:
        return _chosen[0]
    problems = []
    mount = _v2_mount()
    candidates = ([lambda: V2(mount)] if mount is not None else []) + [V1]
    for make in candidates:
        try:
            _chosen.append(make())
            return _chosen[0]
        except (OSError, CgroupsUnavailable, ValueError) as problem:
            problems.append(str(problem))
    raise CgroupsUnavailable("; ".join(problems) or "no cgroup hierarchy is mounted")


_names = itertools.count()


class RunGroup:
    """The cgroup(s) of one run: made with its caps, joined by the sandbox's first process, removed after."""

    def __init__(self, memory_bytes: int, processes: int):
        self.backend = backend()
        self.name = f"run-{os.getpid()}-{next(_names)}"
        self.folders = self.backend.create(self.name, memory_bytes, processes)

    def join(self) -> None:
        """Move the calling process in (called in the child before it drops root and starts bubblewrap)."""
        for folder in self.folders:
            with open(folder / "cgroup.procs", "w") as procs:
                procs.write(str(os.getpid()))

    def pids(self) -> list[int]:
        found: set[int] = set()
        for folder in self.folders:
            try:
                found.update(int(pid) for pid in (folder / "cgroup.procs").read_text().split())
            except OSError:
                continue
        return sorted(found)

    def memory_exceeded(self) -> bool:
        try:
            return self.backend.at_cap(self.folders) > 0
        except OSError:
            return False


    def remove(self, timeout: float = 10.0) -> None:
        """Kill whatever is left in the group, then remove it (the kernel refuses while a process is in).

        The verdict waits for this: a run must not outlive it, and its slot's uid is handed to the next run. A
        killed process can take seconds to finish exiting on a loaded machine (at a load of 14 on two cores a
        bubblewrap was still running 2 s after its SIGKILL), hence the generous clock; it is only spent then."""
        deadline = time.monotonic() + timeout
        pending = list(self.folders)
        while pending and time.monotonic() < deadline:
            for pid in self.pids():
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            for folder in list(pending):
                try:
                    folder.rmdir()
                    pending.remove(folder)
                except FileNotFoundError:
                    pending.remove(folder)
                except OSError:
                    pass
            if pending:
                time.sleep(0.005)
