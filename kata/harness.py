"""The judge's side inside the sandbox: load the candidate's code, call it on each case, report.

Standalone on purpose: it runs in the sandbox's own Python, which holds only the standard
library and numpy, so it imports nothing else (never the app's packages). It talks to the app
over two pipes: requests arrive on stdin, one JSON object a line; answers leave on the fd named by the first argument, one a
line. The candidate's prints go to fd 1 and 2, which the app reads with a cap. Only inputs come
in, never the expected values, so a candidate who forges answers learns nothing.
"""

import json
import math
import numbers
import os
import sys
import traceback

FILENAME = "solution.py"
SITE_PACKAGES = "/opt/kata/site-packages"
ALLOWED_EXTRA = {"numpy"}


class _Refuse:
    """Import hook: a module outside the standard library and numpy gets a clear message."""

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top in sys.stdlib_module_names or top in ALLOWED_EXTRA or top.startswith("_"):
            return None
        raise ModuleNotFoundError(
            f"import {top}: only numpy and the Python standard library are available here", name=top)


def _decode(value):
    if isinstance(value, dict):
        if "__set__" in value:
            return {_decode(v) for v in value["__set__"]}
        if "__dict__" in value:
            return {_decode(k): _decode(v) for k, v in value["__dict__"]}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def _encode_result(value):
    if isinstance(value, bool):
        return {"kind": "bool", "repr": repr(value)}
    if isinstance(value, numbers.Real):
        try:
            number = float(value)
        except Exception:  # a hostile __float__ is the candidate's problem, not the judge's
            return {"kind": "other", "type": type(value).__name__, "repr": "?"}
        text = "nan" if math.isnan(number) else repr(number)
        return {"kind": "number", "value": text, "type": type(value).__name__}
    try:
        text = repr(value)[:300]
    except Exception:
        text = "?"
    return {"kind": "other", "type": type(value).__name__, "repr": text}


def _candidate_lines(tb) -> list:
    """The candidate's own frames only: the judge's frames and numpy's are left out."""
    lines = []
    for frame in traceback.extract_tb(tb):
        if frame.filename == FILENAME:
            lines.append({"line": frame.lineno, "function": frame.name, "code": (frame.line or "").strip()})
    return lines


def _exception(exc) -> dict:
    return {"type": type(exc).__name__, "message": str(exc)[:500], "frames": _candidate_lines(exc.__traceback__)}


def _send(channel, message):
    channel.write(json.dumps(message) + "\n")
    channel.flush()


def _load(source: str, function: str):
    import linecache
    linecache.cache[FILENAME] = (len(source), None, source.splitlines(True), FILENAME)
    try:
        code = compile(source, FILENAME, "exec")
    except SyntaxError as exc:
        return None, {"type": type(exc).__name__, "message": exc.msg, "line": exc.lineno,
                      "column": exc.offset, "code": (exc.text or "").rstrip("\n")}
    namespace = {"__name__": "solution"}
    try:
        exec(code, namespace)
    except BaseException as exc:  # noqa: BLE001 - the candidate's module code can raise anything
        return None, _exception(exc)
    candidate = namespace.get(function)
    if not callable(candidate):
        return None, {"type": "MissingFunction", "message": f"define a function named {function}"}
    return candidate, None


def main():
    channel = os.fdopen(int(sys.argv[1]), "w")
    # The requests move off fd 0 so that a candidate reading stdin reads nothing.
    requests = os.fdopen(os.dup(0), "r")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    sys.path.insert(0, SITE_PACKAGES)
    sys.meta_path.insert(0, _Refuse())
    setup = json.loads(requests.readline())
    candidate, error = _load(setup["source"], setup["function"])
    _send(channel, {"loaded": candidate is not None, "error": error})
    if candidate is None:
        return
    for line in requests:
        request = json.loads(line)
        if request.get("quit"):
            return
        for case in request["cases"]:
            _send(channel, {"start": case["id"]})
            try:
                value = candidate(**_decode(case["args"]))
                answer = {"id": case["id"], "ok": True, "result": _encode_result(value)}
            except BaseException as exc:  # noqa: BLE001 - SystemExit and friends are verdicts too
                answer = {"id": case["id"], "ok": False, "error": _exception(exc)}
            sys.stdout.flush()
            _send(channel, answer)
        _send(channel, {"batch_done": True})


if __name__ == "__main__":
    main()
