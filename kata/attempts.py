"""Attempts kept on the server, one file per attempt, keyed by a random id the browser holds.

The page puts the id in its address (``?attempt=...``), so a reload or a bookmark reopens the
code and the verdict. The id is 128 random bits: no student can guess another's. Only the
holder of the address sees the code; sharing the address shares it (the page says so).
Code is capped (:data:`MAX_CODE`) and the store is pruned of its oldest files (:data:`MAX_FILES`).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
from pathlib import Path

STORE = Path(os.environ.get("RECEVAL_KATA_ATTEMPTS", Path(tempfile.gettempdir()) / "receval-kata-attempts"))
MAX_CODE = 20_000
MAX_FILES = 5_000
_ID = re.compile(r"^[A-Za-z0-9_-]{22}$")


def new_id() -> str:
    return secrets.token_urlsafe(16)


def valid_id(attempt_id) -> bool:
    return isinstance(attempt_id, str) and bool(_ID.match(attempt_id))


def _path(attempt_id: str, store: Path) -> Path:
    if not valid_id(attempt_id):
        raise ValueError("not an attempt id")
    return store / f"{attempt_id}.json"


def load(attempt_id: str, store: Path = STORE) -> dict:
    """The attempt saved under ``attempt_id``, or an empty one (unknown or malformed id, unreadable file)."""
    try:
        data = json.loads(_path(attempt_id, store).read_text(encoding="utf-8"))
    except (ValueError, OSError):
        return {}
    return data if isinstance(data, dict) else {}


def save(attempt_id: str, attempt: dict, store: Path = STORE) -> None:
    """Write atomically (a reader never sees half a file); code longer than MAX_CODE is refused."""
    for code in attempt.get("code", {}).values():
        if len(code) > MAX_CODE:
            raise ValueError(f"the code is longer than {MAX_CODE:,} characters")
    store.mkdir(parents=True, exist_ok=True, mode=0o700)
    target = _path(attempt_id, store)
    handle, temporary = tempfile.mkstemp(dir=store, prefix=".", suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        json.dump(attempt, out)
    os.replace(temporary, target)
    _prune(store)


def _prune(store: Path) -> None:
    files = list(store.glob("*.json"))
    if len(files) <= MAX_FILES:
        return
    for old in sorted(files, key=lambda p: p.stat().st_mtime)[: len(files) - MAX_FILES]:
        old.unlink(missing_ok=True)
