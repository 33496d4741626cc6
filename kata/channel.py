"""What may come back on the answers pipe, checked before the judge reads a field of it.

The candidate's code runs in the harness's process, so it can write to the pipe too (its number is
in ``sys.argv``, and any secret the harness held would be readable from the same memory): the pipe
cannot be made unreachable, so nothing on it is trusted. Each line must be one of the harness's
messages, with the right keys, types and sizes, in the order the requests call for (``loading``,
``loaded``; then per case ``start`` and its answer; then ``batch_done``). Anything else is the
candidate's doing, and :class:`Tampered` says so; a forged answer still has to hold the right value,
since the expected values never enter the sandbox.
"""

from __future__ import annotations

import json
import math
from collections import deque

LINE_CAP = 16 * 1024
_TEXT_CAPS = {"type": 100, "message": 500, "repr": 300, "code": 200, "function": 100, "value": 40}


class Tampered(ValueError):
    """A line the harness would never write: the candidate's code wrote to the judge's channel."""


def _require(condition: bool, what: str) -> None:
    if not condition:
        raise Tampered(what)


def _text(message: dict, key: str) -> str:
    value = message.get(key)
    _require(type(value) is str and len(value) <= _TEXT_CAPS[key], f"{key!r} is not a short text")
    return value


def _line_number(value) -> None:
    _require(value is None or type(value) is int, "a line number is not a whole number")


def _keys(message: dict, *names: str) -> None:
    _require(set(message) == set(names), f"unexpected keys {sorted(message)}")


def _error(error) -> None:
    _require(type(error) is dict, "an error is not an object")
    if "frames" in error:
        _keys(error, "type", "message", "frames")
        frames = error["frames"]
        _require(type(frames) is list and len(frames) <= 20, "too many frames")
        for frame in frames:
            _require(type(frame) is dict, "a frame is not an object")
            _keys(frame, "line", "function", "code")
            _line_number(frame["line"])
            _text(frame, "function"), _text(frame, "code")
    elif "column" in error:
        _keys(error, "type", "message", "line", "column", "code")
        _line_number(error["line"]), _line_number(error["column"]), _text(error, "code")
    else:
        _keys(error, "type", "message")
    _text(error, "type"), _text(error, "message")


def _result(result) -> None:
    _require(type(result) is dict, "a result is not an object")
    if result.get("kind") == "number":
        _keys(result, "kind", "value", "type")
        try:
            number = float(_text(result, "value"))
        except ValueError:
            raise Tampered("a number that is not one") from None
        _require(repr(number) == result["value"] or (math.isnan(number) and result["value"] == "nan"),
                 "a number not written as the harness writes it")
        _text(result, "type")
    else:
        _require(result.get("kind") == "other", "a result of no known kind")
        _keys(result, "kind", "type", "repr")
        _text(result, "type"), _text(result, "repr")


def _check(message: dict, expected: tuple) -> None:
    kind, number = expected
    if kind == "loading":
        _require(message == {"loading": True}, "not the 'loading' the harness sends first")
    elif kind == "loaded":
        _keys(message, "loaded", "error")
        _require(type(message["loaded"]) is bool, "'loaded' is not true or false")
        if message["loaded"]:
            _require(message["error"] is None, "loaded with an error")
        else:
            _error(message["error"])
    elif kind == "start":
        _require(message == {"start": number} and type(message["start"]) is int, f"not the start of case {number}")
    elif kind == "answer":
        _require(message.get("id") == number and type(message["id"]) is int, f"not the answer to case {number}")
        if message.get("ok") is True:
            _keys(message, "id", "ok", "result")
            _result(message["result"])
        else:
            _require(message.get("ok") is False, "'ok' is not true or false")
            _keys(message, "id", "ok", "error")
            _error(message["error"])
    else:
        _require(message == {"batch_done": True}, "not the end of the batch")


class Expected:
    """The messages owed by the harness, in order: requests add to it, each line read takes one off."""

    def __init__(self):
        self._owed: deque[tuple] = deque()

    def setup_sent(self) -> None:
        self._owed += [("loading", None), ("loaded", None)]

    def cases_sent(self, ids: list[int]) -> None:
        for number in ids:
            self._owed += [("start", number), ("answer", number)]
        self._owed.append(("batch_done", None))

    def read(self, line: bytes) -> dict:
        """The message in ``line``, checked against the next one owed; raises :class:`Tampered` otherwise."""
        _require(len(line) <= LINE_CAP, f"a line of {len(line)} bytes")
        _require(bool(self._owed), "a message when none was owed")
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            raise Tampered("a line that is not JSON") from None
        _require(type(message) is dict, "a message that is not an object")
        expected = self._owed.popleft()
        _check(message, expected)
        if expected[0] == "loaded" and not message["loaded"]:
            self._owed.clear()  # the harness stops after a failed load
        return message
