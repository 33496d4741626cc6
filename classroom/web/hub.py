"""One process's view of the classes its phones follow: one database poll for all of them, one screen per step.

Every app process polls the versions of the rooms its phones watch in ONE query every
``POLL_SECONDS`` (not one per phone), so a class split over several processes behind nginx moves
together through the database. When a room's version moves, the process reads the room once and
builds each language's screen once (:mod:`classroom.web.screen`), however many phones wait for it.
A timer running out locks a question without moving the version: a room whose open question's deadline
has passed (the store's clock, checked once per room per poll, no query) is read again as if it moved.
A screen that fails to build is logged here, with the room and its step; the phones keep their last one.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable

from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from classroom.engine import database_url
from classroom.schema import rooms
from classroom.store import RoomNotFound, Store
from classroom.web import screen

POLL_SECONDS = 0.25

logger = logging.getLogger(__name__)


class Feed:
    """One room as this process last read it, and the event its phones wait on for the next change."""

    def __init__(self, now: dict):
        self.now: dict | None = now  # None once the room ended
        self.changed = asyncio.Event()
        self.listeners = 0
        self.screens: dict[tuple[int, str], asyncio.Future] = {}

    def move(self, now: dict | None) -> None:
        self.now, self.screens = now, {}
        woken, self.changed = self.changed, asyncio.Event()
        woken.set()


def ran_out(now: dict, at: float) -> bool:
    """Whether the timer of the room's open question (``Store.current``'s deadline) has run out at ``at``."""
    return now["deadline"] is not None and now["deadline"] <= at


class Hub:
    def __init__(self, store: Store | Callable[[], Store] | None = None, poll_seconds: float = POLL_SECONDS):
        self._store = store
        self.poll_seconds = poll_seconds
        self.feeds: dict[str, Feed] = {}
        self._poller: asyncio.Task | None = None

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(database_url())
        elif not isinstance(self._store, Store):
            self._store = self._store()
        return self._store

    async def watch(self, code: str) -> Feed:
        """The room's feed, counted as watched until :meth:`leave`; ``RoomNotFound`` for no such class."""
        feed = self.feeds.get(code)
        if feed is None:
            now = await run_in_threadpool(self.store.current, code)
            feed = self.feeds.setdefault(code, Feed(now))
        feed.listeners += 1
        if self._poller is None or self._poller.done():
            self._poller = asyncio.create_task(self._poll())
        return feed

    def leave(self, code: str, feed: Feed) -> None:
        feed.listeners -= 1
        if feed.listeners <= 0 and self.feeds.get(code) is feed:
            del self.feeds[code]

    async def screen(self, feed: Feed, language: str) -> bytes:
        """The room's screen in ``language`` as JSON, built once for every phone that asks."""
        now = feed.now
        key = (now["version"], language)
        built = feed.screens.get(key)
        if built is None:
            built = feed.screens[key] = asyncio.ensure_future(run_in_threadpool(self._build, now, language))
        try:
            return await asyncio.shield(built)
        except Exception:
            feed.screens.pop(key, None)  # the next phone builds it again
            raise

    def _build(self, now: dict, language: str) -> bytes:
        def distribution(question_id: str) -> dict[str, int]:
            return self.store.distribution(now["code"], question_id)

        def by_student(question_id: str) -> dict[str, str]:
            return self.store.answers_by_student(now["code"], question_id)
        try:
            built = screen.build(now, distribution, language, by_student)
        except RoomNotFound:  # the class ended while its screen was built: not a fault of the screen
            raise
        except Exception:
            logger.exception("The phones' screen of class %s (lesson %s, step %s, question %s, state %s, version %s, "
                             "language %s) could not be built", now["code"], now["lesson"], now["step"],
                             now["question_id"], now["state"], now["version"], language)
            raise
        return json.dumps(built, ensure_ascii=False, separators=(",", ":")).encode()

    async def _poll(self) -> None:
        while self.feeds:
            await asyncio.sleep(self.poll_seconds)
            watched = list(self.feeds)
            try:
                versions = await run_in_threadpool(self._versions, watched)
            except Exception:  # noqa: BLE001 - a database hiccup: the phones keep their screen, try again
                continue
            at = self.store.clock()
            for code in watched:
                feed = self.feeds.get(code)
                if feed is None or feed.now is None or (versions.get(code) == feed.now["version"]
                                                        and not ran_out(feed.now, at)):
                    continue
                try:
                    now = await run_in_threadpool(self.store.current, code)
                except RoomNotFound:
                    now = None
                except Exception:  # noqa: BLE001 - read it again at the next poll
                    continue
                feed.move(now)

    def _versions(self, codes: list[str]) -> dict[str, int]:
        with self.store.engine.connect().execution_options(receval_read_only=True) as connection:
            return dict(connection.execute(select(rooms.c.code, rooms.c.version).where(rooms.c.code.in_(codes))).all())
