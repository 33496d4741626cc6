"""Results computed once per machine and kept on disk: every app process behind nginx reads what one of them
computed, and a restart reads it again instead of computing it.

:func:`get` keeps each value in ``<folder>/<name>-<fingerprint digest>.pickle`` next to the fingerprint it was
computed under (everything that decides the value: the data's digest, the parameters and seeds, the code and
the libraries' versions). A file that does not unpickle, or holds another fingerprint, is ignored and
computed again. One process computes while the others wait on an exclusive ``fcntl.flock`` of
``<folder>/<name>.lock``, then read its file.

:func:`run_niced` computes in a child process at the lowest CPU priority (``os.nice``), so the work takes
only the CPU a live class leaves over; the child's own threads (BLAS's pool too) inherit the priority,
which no thread of the app process could give them.

The folder is the app's own, like the class database: a pickle runs code when read, so no other user may
write there.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NICE = 19  # the lowest priority: the class's requests go first on a busy machine, an idle one lends it all


def default_folder() -> Path:
    """``RECEVAL_DATA_DIR`` (else the checkout's ``.receval-data``, where the class database lives) / ``cache``."""
    return Path(os.environ.get("RECEVAL_DATA_DIR") or ROOT / ".receval-data") / "cache"


def digest(fingerprint: dict) -> str:
    return hashlib.sha256(json.dumps(fingerprint, sort_keys=True, default=str).encode()).hexdigest()


def get(folder: Path, name: str, fingerprint: dict, build: Callable[[Path], None]):
    """The value kept for ``name`` under ``fingerprint``, else ``build(path)`` (which writes it with
    :func:`write`) run by this process while every other waits, then read. Raises OSError when the folder
    cannot be made or locked (the caller computes in memory instead)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-{digest(fingerprint)[:32]}.pickle"
    found = read(path, fingerprint)
    if found is not None:
        return found[0]
    with open(folder / f"{name}.lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or when the process dies
        found = read(path, fingerprint)  # computed by the process this one waited for
        if found is None:
            build(path)
            found = read(path, fingerprint)
            if found is None:
                raise RuntimeError(f"{name}: the computation wrote no readable result to {path}")
            for old in folder.glob(f"{name}-*.pickle"):
                if old != path:  # computed under an older fingerprint: never read again
                    with contextlib.suppress(OSError):
                        old.unlink()
    return found[0]


def read(path: Path, fingerprint: dict) -> tuple[object] | None:
    """(value,) when ``path`` holds a value computed under ``fingerprint``; None for a missing, damaged or
    stale file."""
    try:
        with open(path, "rb") as file:
            kept = pickle.load(file)
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - a truncated or foreign file is computed again, whatever broke reading it
        return None
    if not isinstance(kept, dict) or kept.get("fingerprint") != json.loads(json.dumps(fingerprint, default=str)):
        return None
    return (kept.get("value"),)


def write(path: Path, fingerprint: dict, value) -> None:
    """Keep ``value`` at ``path`` atomically: a reader sees the whole file or none."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".part")
    try:
        with os.fdopen(handle, "wb") as file:
            pickle.dump({"fingerprint": json.loads(json.dumps(fingerprint, default=str)), "value": value}, file,
                        protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def run_niced(target: str, args: list, path: Path, fingerprint: dict, timeout: float = 3600) -> None:
    """Run ``target`` (``module:function``) on ``args`` (JSON values) in a child process at priority
    :data:`NICE` and keep its value at ``path`` (:func:`write`). Raises RuntimeError when the child fails."""
    command = [sys.executable, "-c", _LAUNCH, target, json.dumps(args), str(path), json.dumps(fingerprint, default=str)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{target}{tuple(args)} failed in its child process: {done.stderr[-2000:]}")


# The priority is lowered before anything is imported: threads numpy or a model library starts inherit it.
_LAUNCH = f"import os, sys; os.nice({NICE}); from protocols.machine_once import _child; _child(sys.argv[1:])"


def _child(argv: list[str]) -> None:
    target, args, path, fingerprint = argv
    module, _, function = target.partition(":")
    value = getattr(importlib.import_module(module), function)(*json.loads(args))
    write(Path(path), json.loads(fingerprint), value)
