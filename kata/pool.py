"""A bounded pool of sandbox slots with a first-come queue whose positions can be shown.

Each slot owns a uid of its own, so one run's processes never count against another's
process limit and no two runs share files or signals.
"""

from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Callable
from contextlib import contextmanager

from kata.sandbox import FIRST_UID


class Ticket:
    """One submission: its place in the queue, then its result (or the exception it raised)."""

    def __init__(self, pool: Pool):
        self._pool = pool
        self.number = next(pool._numbers)
        self.done = threading.Event()
        self.result = None
        self.exception: BaseException | None = None

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
        self.uids = [first_uid + i for i in range(slots)]
        self._free = list(self.uids)
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
            while self._waiting[0] is not ticket or not self._free:
                self._condition.wait()
            self._waiting.popleft()
            uid = self._free.pop(0)
            self._condition.notify_all()
        try:
            yield uid
        finally:
            with self._condition:
                self._free.append(uid)
                self._condition.notify_all()

    def submit(self, work: Callable[[int], object]) -> Ticket:
        """Run ``work(uid)`` in a thread of its own once a slot is free; return its ticket at once."""
        ticket = Ticket(self)
        with self._condition:
            self._waiting.append(ticket)

        threading.Thread(target=self._run_in_turn, args=(ticket, work), daemon=True).start()
        return ticket

    def _run_in_turn(self, ticket: Ticket, work):
        try:
            with self._condition:
                while self._waiting[0] is not ticket or not self._free:
                    self._condition.wait()
                self._waiting.popleft()
                uid = self._free.pop(0)
                self._condition.notify_all()
            try:
                ticket.result = work(uid)
            finally:
                with self._condition:
                    self._free.append(uid)
                    self._condition.notify_all()
        except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the ticket
            ticket.exception = exc
        finally:
            ticket.done.set()


DEFAULT = Pool(2)
"""The app's pool: two runs at a time (the machine has two cores), everyone else queues."""
