"""Results computed once per process and shared by every reader: a reader asking for one while another's
computation of it is under way waits for that one instead of starting a second (thirty students pressing
Run together train a model once)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable


class OncePerKey:
    """``get(key, compute)``: the kept value of ``key``, else ``compute()`` run once and kept; at most ``most``
    values are kept (the oldest dropped first), all of them when ``most`` is None."""

    def __init__(self, most: int | None = None):
        self.most = most
        self._values: dict = {}
        self._locks: dict = {}
        self._guard = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], object]):
        with self._guard:
            if key in self._values:
                return self._values[key]
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            with self._guard:
                if key in self._values:  # computed by the reader this one waited for
                    return self._values[key]
            value = compute()
            with self._guard:
                self._values[key] = value
                self._locks.pop(key, None)
                while self.most is not None and len(self._values) > self.most:
                    self._values.pop(next(iter(self._values)))
            return value
