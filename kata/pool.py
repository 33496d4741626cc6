"""A bounded pool of sandbox slots with a first-come queue whose positions can be shown.

Each running slot holds a uid of its own, so one run's processes never count against another's
process limit and no two runs share files or signals. The uid is claimed with an exclusive lock
file, so several app processes (deploy/ runs several) never hand the same uid to two runs.
"""

from __future__ import annotations

import fcntl
import itertools
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import contextmanager

from kata.sandbox import CACHE, FIRST_UID, owners

UID_RANGE = 64


_rotation = itertools.count()


def _in_turn(uids: range) -> list[int]:
    """The uids from the next one in rotation, those without a single process (zombies too) first.

    Each run leaves the sandbox's pid-1 helper as a zombie until the system's init reaps it, and a
    zombie counts against the uid's process limit: reusing the same uid run after run (a class
    submitting at once, the test suite) filled that limit and bubblewrap could not fork.
    """
    start = next(_rotation) % len(uids)
    ordered = [*uids[start:], *uids[:start]]
    busy = owners()
    return sorted(ordered, key=lambda uid: uid in busy)


class _Claim:
    """An exclusive lock on one uid of the range, held while a run uses it."""

    def __init__(self, uids: range):
        folder = CACHE / "slots"
        folder.mkdir(parents=True, exist_ok=True)
        for uid in _in_turn(uids):
            handle = os.open(folder / f"{uid}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(handle)
                continue
            self.uid, self._handle = uid, handle
            return
        raise RuntimeError(f"every sandbox uid from {uids.start} to {uids.stop - 1} is in use")

    def release(self) -> None:
        os.close(self._handle)  # closing drops the lock


class Ticket:
    """One submission: its place in the queue, then its result (or the exception it raised)."""

    def __init__(self, pool: Pool):
        self._pool = pool
        self.number = next(pool._numbers)
        self.done = threading.Event()
        self.result = None
        self.exception: BaseException | None = None
        self.finished: float | None = None
        """time.perf_counter() when the verdict was ready (a watcher polling ``done`` may see it late)."""

    @property
    def position(self) -> int:
        """1 for the next in line, 2 behind it, ...; 0 once it runs or has finished."""
        return self._pool.position(self)

    def wait(self, timeout: float | None = None):
        self.done.wait(timeout)
        if self.exception is not None:
            raise self.exception
        return self.result


class Pool:
    def __init__(self, slots: int = 2, first_uid: int = FIRST_UID):
        self.slots = slots
        self.uids = range(first_uid, first_uid + UID_RANGE)
        self._free = slots
        self._waiting: deque[Ticket] = deque()
        self._condition = threading.Condition()
        self._numbers = itertools.count(1)

    def position(self, ticket: Ticket) -> int:
        with self._condition:
            try:
                return self._waiting.index(ticket) + 1
            except ValueError:
                return 0

    @property
    def queued(self) -> int:
        with self._condition:
            return len(self._waiting)

    @contextmanager
    def slot(self, ticket: Ticket | None = None):
        """Wait for a free slot in turn, yield its uid, give it back afterwards."""
        ticket = ticket or Ticket(self)
        with self._condition:
            self._waiting.append(ticket)
        with self._held(ticket) as uid:
            yield uid

    @contextmanager
    def _held(self, ticket: Ticket):
        """Wait until ``ticket``, already in the queue, is first and a slot is free; hold the slot meanwhile."""
        with self._condition:
            while self._waiting[0] is not ticket or not self._free:
                self._condition.wait()
            self._waiting.popleft()
            self._free -= 1
            self._condition.notify_all()
        try:
            claim = _Claim(self.uids)
            try:
                yield claim.uid
            finally:
                claim.release()
        finally:
            with self._condition:
                self._free += 1
                self._condition.notify_all()

    def submit(self, work: Callable[[int], object]) -> Ticket:
        """Run ``work(uid)`` in a thread of its own once a slot is free; return its ticket at once."""
        ticket = Ticket(self)
        with self._condition:
            self._waiting.append(ticket)  # queued now, so its position is known before the thread starts
        threading.Thread(target=self._run_in_turn, args=(ticket, work), daemon=True).start()
        return ticket

    def _run_in_turn(self, ticket: Ticket, work):
        try:
            with self._held(ticket) as uid:
                ticket.result = work(uid)
        except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the ticket
            ticket.exception = exc
        finally:
            ticket.finished = time.perf_counter()
            ticket.done.set()


DEFAULT = Pool(4 * (os.cpu_count() or 1))
"""The app's pool: four runs per core at a time, everyone else queues. A run waits as much as it computes
(a sleeping or stuck call waits out its 1 s clock, the pipe goes back and forth 200 times), and each run's
cgroup caps its memory and processes, so more slots than cores keep a class's correct submissions from
queueing behind the wrong ones at no risk to the host (benchmarks/kata_load.py, 30 at once: p95 7.5 s with 2
slots, 4.4 s with 8)."""
