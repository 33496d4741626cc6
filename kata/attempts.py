"""Attempts kept on the server, one file per attempt, keyed by a random id the browser holds.

The page puts the id in its address (``?attempt=...``), so a reload or a bookmark reopens the
code and the verdict. The id is 128 random bits: no student can guess another's. Only the
holder of the address sees the code; sharing the address shares it (the page says so).
Code is capped (:data:`MAX_CODE`) and the store is pruned of its oldest files (:data:`MAX_FILES`).

Fairness lives here, not in a tab: each problem's ``state`` says whether its model solution may be shown
("passed" or "given_up"), and an open interview is bound to the browser (every tab of it), so a second
tab opens the interview instead of a fresh attempt. Changes go through :func:`update`, under a lock, so
two tabs on one attempt never lose each other's runs.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import secrets
import tempfile
from collections.abc import Callable
from contextlib import contextmanager
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


@contextmanager
def _locked(store: Path):
    store.mkdir(parents=True, exist_ok=True, mode=0o700)
    with open(store / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def update(attempt_id: str, change: Callable[[dict], None], store: Path = STORE) -> dict:
    """Load the attempt, apply ``change`` to it and save it, under the store's lock; returns it."""
    with _locked(store):
        attempt = load(attempt_id, store)
        change(attempt)
        save(attempt_id, attempt, store)
        return attempt


def model_visible(attempt: dict, problem: str) -> bool:
    """The model solution only after a passing run or an explicit give-up, never during an interview."""
    interview = attempt.get("interview", {}).get(problem)
    if interview is not None and interview.get("finished") is None:
        return False
    return attempt.get("state", {}).get(problem) in ("passed", "given_up")


def start_interview(attempt: dict, problem: str, now: float) -> None:
    """A timer from ``now``, no hints; the model solution hidden until a passing run or a give-up."""
    attempt.setdefault("problem", problem)
    attempt.setdefault("interview", {})[problem] = {"started": now, "finished": None, "runs": []}
    attempt.setdefault("state", {})[problem] = "open"


def finish_interview(attempt: dict, problem: str, now: float) -> None:
    interview = attempt.get("interview", {}).get(problem)
    if interview is not None and interview.get("finished") is None:
        interview["finished"] = now


def give_up(attempt: dict, problem: str, now: float) -> None:
    """Show the model solution; an open interview ends, its review saying so."""
    interview = attempt.get("interview", {}).get(problem)
    if interview is not None and interview.get("finished") is None:
        interview.update(finished=now, gave_up=True)
    attempt.setdefault("state", {})[problem] = "given_up"


def record_run(attempt: dict, problem: str, verdict: dict, now: float) -> None:
    """Keep a run's verdict: a passing run shows the model solution; an open interview lists every run,
    whichever tab of its browser it came from."""
    attempt.setdefault("verdicts", {})[problem] = verdict
    runs = attempt.setdefault("runs", {})
    runs[problem] = runs.get(problem, 0) + 1
    if verdict.get("ok"):
        attempt.setdefault("state", {})[problem] = "passed"
    interview = attempt.get("interview", {}).get(problem)
    if interview is not None and interview.get("finished") is None:
        interview.setdefault("runs", []).append({
            "second": max(int(now - interview["started"]), 0), "passed": verdict["passed"], "total": verdict["total"],
            "error": bool(verdict.get("error")), "seed": verdict.get("seed")})


def verdict_record(result, at: str) -> dict:
    """What a judge's ``result`` leaves in the attempt at ``at`` (an ISO time): the counts, the error, the
    printout and the failing case, its inputs as their repr (JSON holds no tuple)."""
    failure = result.failure
    return {"passed": result.passed, "total": result.total, "error": result.error, "stdout": result.stdout,
            "at": at, "seed": result.seed, "ok": result.ok,
            "failure": None if failure is None else {
                "inputs": repr(failure.inputs), "expected": failure.expected, "got": failure.got,
                "matches": failure.matches, "shrunk_from": failure.shrunk_from}}


def minutes_and_seconds(seconds: float) -> tuple[int, int]:
    """A timer's whole minutes and the seconds left over (the fraction dropped, as a clock does)."""
    return divmod(int(seconds), 60)


def _browser_path(browser: str, store: Path) -> Path:
    # The browser's key is a cookie: only its hash is written down.
    return store / f"browser-{hashlib.sha256(browser.encode()).hexdigest()[:32]}.json"


def open_interview(browser: str, store: Path = STORE) -> str | None:
    """The attempt whose interview is open in this browser, if one is."""
    try:
        attempt_id = json.loads(_browser_path(browser, store).read_text(encoding="utf-8")).get("attempt")
    except (ValueError, OSError, AttributeError):
        return None
    if not valid_id(attempt_id):
        return None
    interviews = load(attempt_id, store).get("interview", {}).values()
    return attempt_id if any(i.get("finished") is None for i in interviews) else None


def bind_interview(browser: str, attempt_id: str, store: Path = STORE) -> None:
    """Every tab of this browser opens ``attempt_id`` until its interview ends."""
    with _locked(store):
        _browser_path(browser, store).write_text(json.dumps({"attempt": attempt_id}), encoding="utf-8")
