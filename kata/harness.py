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


def _is_bool(value) -> bool:
    """Python's bool or numpy's (numpy.bool_ is no numbers.Real, so it is named here)."""
    kind = type(value)
    return isinstance(value, bool) or (kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_"))


def _encode_result(value):
    if _is_bool(value):  # a bool is the number 0 or 1 (HR@K of one user is one): judged as such
        return {"kind": "number", "value": "1.0" if value else "0.0", "type": _text(type(value).__name__, 40)}
    if isinstance(value, numbers.Real):
        try:
            number = float(value)
        except Exception:  # a hostile __float__ is the candidate's problem, not the judge's
            return {"kind": "other", "type": type(value).__name__, "repr": "?"}
        text = "nan" if math.isnan(number) else repr(number)
        return {"kind": "number", "value": text, "type": _text(type(value).__name__, 40)}
    return {"kind": "other", "type": _text(type(value).__name__, 40), "repr": _text(value, 300, repr)}


def _text(value, limit: int, convert=str) -> str:
    """``convert(value)`` cut to ``limit``: a hostile __str__ or __repr__ (raising, not a str) gives a note."""
    try:
        text = convert(value)
        if type(text) is not str:
            raise TypeError(f"{convert.__name__}() gave a {type(text).__name__}")
        return text[:limit]
    except BaseException as exc:  # noqa: BLE001 - the candidate's object can raise anything
        return f"<{convert.__name__}() of this object raised {type(exc).__name__}>"


def _candidate_lines(tb) -> list:
    """The candidate's own frames only: the judge's frames and numpy's are left out."""
    lines = []
    for frame in traceback.extract_tb(tb):
        if frame.filename == FILENAME:
            lines.append({"line": frame.lineno, "function": _text(frame.name, 100),
                          "code": _text((frame.line or "").strip(), 200)})
    return lines


def _exception(exc) -> dict:
    try:
        frames = _candidate_lines(exc.__traceback__)[-20:]
    except BaseException:  # noqa: BLE001 - a traceback the candidate tampered with
        frames = []
    return {"type": _text(type(exc).__name__, 100), "message": _text(exc, 500), "frames": frames}


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
    harness = os.getpid()
    setup = json.loads(requests.readline())
    _send(channel, {"loading": True})  # the app times loading from here, as it times each call
    candidate, error = _load(setup["source"], setup["function"])
    if os.getpid() != harness:
        os._exit(0)
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
            if os.getpid() != harness:  # a child the candidate forked came back here: it neither answers nor reads
                os._exit(0)
            try:
                sys.stdout.flush()
            except BaseException:  # noqa: BLE001 - the candidate may have replaced or closed stdout
                pass
            _send(channel, answer)
        _send(channel, {"batch_done": True})


if __name__ == "__main__":
    try:
        main()
    except BaseException:  # noqa: BLE001 - the candidate broke the harness (closed its pipe, patched json...):
        os._exit(70)  # no harness traceback among the candidate's output; the app reports the broken channel
