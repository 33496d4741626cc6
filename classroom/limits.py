"""Limits per client address, kept in the database so every process and every reload see the same count.

Joins: a bucket of ``JOIN_BURST`` tokens per address that refills one token every ``JOIN_EVERY`` seconds.
A whole class often shares one address (a school's NAT, campus Wi-Fi, a VPN), so the bucket holds more
than a lecture hall joining at once; what stops a script is the class's cap (``store.MAX_STUDENTS``),
the teacher's lock on the room, and the refused joins the teacher's console shows (``count_refused``).
Wrong codes: ``FREE_WRONG_CODES`` at full speed, then a wait of 5 s doubling with each further one, up to a
minute; forgotten after a quarter of an hour. Waits are whole seconds, rounded up (never "wait 0 s").
"""

from __future__ import annotations

import math

from sqlalchemy import case, func, select, update
from sqlalchemy.engine import Connection

from classroom import codes
from classroom.schema import join_failures, refused_joins, throttle

JOIN_BURST = 400   # 300 students behind one address join at once, with room for a few retries
JOIN_EVERY = 2.0   # 30 a minute after that; an emptied bucket is full again in under 14 minutes
FREE_WRONG_CODES = 5
MAX_JOIN_WAIT = 60.0
FORGET_FAILURES_AFTER = 15 * 60.0
REFUSED_MINUTES = 10  # the teacher sees the joins refused in this many last minutes
REFUSED = ("address", "full", "locked")


class JoinThrottled(PermissionError):
    """This client must wait ``seconds`` (a whole number, at least 1) before joining again; ``reason`` is
    ``wrong_codes`` (too many wrong class codes) or ``joins`` (too many students joined from this address)."""

    def __init__(self, reason: str, seconds: int):
        what = "wrong class codes" if reason == "wrong_codes" else "joins"
        super().__init__(f"Too many {what} from this address: wait {seconds} s, then try again.")
        self.reason, self.seconds = reason, seconds


def whole_seconds(wait: float) -> int:
    """A wait as the whole seconds to show: 0.2 s is 1 s, so a refused client is never told to wait 0 s."""
    return max(1, math.ceil(wait - 1e-9)) if wait > 0 else 0


def take_join_token(connection: Connection, upsert, client: str, now: float,
                    burst: int = JOIN_BURST, every: float = JOIN_EVERY) -> int:
    """Spend one of the address's join tokens; 0 when done, else the whole seconds until one is back."""
    key = {"kind": "join", "client_digest": codes.digest(client)}
    connection.execute(upsert(throttle).values(**key, tokens=float(burst), updated_at=now).on_conflict_do_nothing())
    row = connection.execute(select(throttle.c.tokens, throttle.c.updated_at).where(
        throttle.c.kind == "join", throttle.c.client_digest == key["client_digest"]).with_for_update()).one()
    tokens = min(float(burst), row.tokens + max(0.0, now - row.updated_at) / every)
    if tokens < 1.0:
        return whole_seconds((1.0 - tokens) * every)
    connection.execute(update(throttle).where(throttle.c.kind == "join",
                                              throttle.c.client_digest == key["client_digest"])
                       .values(tokens=tokens - 1.0, updated_at=now))
    return 0


def wrong_code_wait(connection: Connection, client: str, now: float) -> int:
    """Whole seconds this address must wait before its next join code is tried (0 at first)."""
    row = connection.execute(select(join_failures).where(
        join_failures.c.browser_digest == codes.digest(client))).first()
    if row is None or row.failures < FREE_WRONG_CODES or row.last_at < now - FORGET_FAILURES_AFTER:
        return 0
    wait = min(MAX_JOIN_WAIT, 5.0 * 2.0 ** (row.failures - FREE_WRONG_CODES))
    return whole_seconds(row.last_at + wait - now)


def count_wrong_code(connection: Connection, upsert, client: str, now: float) -> None:
    digest = codes.digest(client)
    statement = upsert(join_failures).values(browser_digest=digest, failures=1, last_at=now)
    connection.execute(statement.on_conflict_do_update(
        index_elements=["browser_digest"],
        set_={"failures": case((join_failures.c.last_at < now - FORGET_FAILURES_AFTER, 1),
                               else_=join_failures.c.failures + 1),
              "last_at": statement.excluded.last_at}))


def count_refused(connection: Connection, upsert, room: str, reason: str, now: float) -> None:
    """One more join the room refused for ``reason`` (one of ``REFUSED``), in this minute's row."""
    statement = upsert(refused_joins).values(room=room, reason=reason, minute=int(now // 60), refused=1)
    connection.execute(statement.on_conflict_do_update(
        index_elements=["room", "reason", "minute"], set_={"refused": refused_joins.c.refused + 1}))


def refused_since(connection: Connection, room: str, now: float, minutes: int = REFUSED_MINUTES) -> dict[str, int]:
    """Joins the room refused in the last ``minutes`` (this one counted whole), by reason; every reason present."""
    rows = connection.execute(select(refused_joins.c.reason, func.sum(refused_joins.c.refused)).where(
        refused_joins.c.room == room, refused_joins.c.minute > int(now // 60) - minutes)
        .group_by(refused_joins.c.reason)).all()
    found = dict.fromkeys(REFUSED, 0)
    found.update({reason: int(total) for reason, total in rows})
    return found
