"""Judge a candidate's function: hidden cases in the sandbox, tolerance comparison, shrinking.

Expected values are computed here, by ``metrics/``, and never leave the app: the sandbox only
receives the inputs, and the comparison happens outside it.
"""

from __future__ import annotations

import functools
import itertools
import math
import numbers
import secrets
import statistics
import threading
import time
from dataclasses import dataclass, field, replace

import numpy as np

from kata import cases as case_kinds
from kata.pool import DEFAULT, Pool, Ticket
from kata.problems import PROBLEMS, Problem
from kata.sandbox import Limits, Outcome, SandboxUnavailable, Session

TOLERANCE = 1e-9
SHRINK_ROUNDS = 40
SHRINK_BATCH = 8
MODEL_TIMING_RUNS = 3


@dataclass(frozen=True)
class Failure:
    inputs: dict
    expected: float
    got: object
    matches: str | None
    shrunk_from: int
    steps: tuple = ()
    """(row, right value, the candidate's value) on the case cut after each row; () after an error."""


@dataclass(frozen=True)
class CaseRun:
    """One case as it ran: its kind, the right value and the candidate's."""

    kind: str
    """``example``, ``edge`` or ``random`` (:data:`KINDS`)."""
    inputs: dict
    expected: float
    got: object
    """The candidate's number, a JudgeMessage (not a number) or None (it raised, or never ran)."""
    error: str | None
    passed: bool


KINDS = ("example", "edge", "random")


@dataclass(frozen=True)
class Result:
    passed: int
    total: int
    error: str | None
    failure: Failure | None
    """The first case whose value is wrong (shrunk, its mistake named when one reproduces every wrong value);
    else the case that raised, or the case running when a limit hit."""
    stdout: str
    seconds: float = field(default=0.0, compare=False)
    raised: Failure | None = None
    """The (shrunk) case on which the code raised ``error``, whenever any case raised; ``shrunk_from`` counts them."""
    seed: int | None = None
    """The random cases' seed, drawn afresh for each submission: ``run(..., seed=seed)`` reproduces the verdict."""
    cases: tuple = field(default=(), compare=False)
    """Every case as it ran (:class:`CaseRun`), in order: the examples, the edge cases, the random ones."""
    call_seconds: float | None = field(default=None, compare=False)
    """The candidate's mean time per case (the whole batch's time over its cases, the judge's own overhead included)."""
    model_call_seconds: float | None = field(default=None, compare=False)
    """The same for the model solution (plain loop) on the same cases in the same sandbox, after a passing run."""

    @property
    def ok(self) -> bool:
        return self.error is None and self.failure is None and self.passed == self.total


def close(expected, got) -> bool:
    """Equal within 1e-9 (relative or absolute); NaN equals NaN; infinities equal themselves."""
    if got is None or isinstance(got, str) or expected is None:
        return False
    expected, got = float(expected), float(got)
    if math.isnan(expected) or math.isnan(got):
        return math.isnan(expected) and math.isnan(got)
    if math.isinf(expected) or math.isinf(got):
        return expected == got
    return math.isclose(expected, got, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


# --------------------------------------------------------------------------- cases


def _expected(problem: Problem, case: dict):
    try:
        return float(problem.reference(**case))
    except ValueError:
        return None


def fresh_seed() -> int:
    """A secret, unpredictable seed for one submission's random cases (never derived from anything public)."""
    return secrets.randbits(64)


def kinds_of(problem: Problem, count: int) -> list[str]:
    """The kind of each of ``build_cases``'s cases: the examples, then the edge cases, then the random ones."""
    examples, edges = _fixed_counts(problem.key)
    kinds = ["example"] * examples + ["edge"] * edges
    return (kinds + ["random"] * max(count - len(kinds), 0))[:count]


@functools.lru_cache(maxsize=None)
def _fixed_counts(key: str) -> tuple[int, int]:
    problem = PROBLEMS[key]
    kept = [sum(_expected(problem, case) is not None for case in group)
            for group in (case_kinds.EXAMPLES[problem.kind], case_kinds.EDGES[problem.kind])]
    return kept[0], kept[1]


def build_cases(problem: Problem, seed: int, count: int) -> list[tuple[dict, float]]:
    """The documents' examples, then the edge cases, then random cases from ``seed``: ``count`` in all.

    Cached (the same problem, seed and count always give the same cases); callers never mutate them.
    """
    return _build_cases(problem.key, seed, count)


@functools.lru_cache(maxsize=64)
def _build_cases(key: str, seed: int, count: int) -> list[tuple[dict, float]]:
    problem = PROBLEMS[key]
    chosen = []
    for case in case_kinds.EXAMPLES[problem.kind] + case_kinds.EDGES[problem.kind]:
        expected = _expected(problem, case)
        if expected is not None:
            chosen.append((case, expected))
    rng = np.random.default_rng(seed)
    draw = case_kinds.RANDOM[problem.kind]
    attempts = 0
    while len(chosen) < count and attempts < count * 20:
        attempts += 1
        case = draw(rng)
        expected = _expected(problem, case)
        if expected is not None:
            chosen.append((case, expected))
    return chosen[:count]


def _encode(value):
    if isinstance(value, set):
        return {"__set__": [_encode(v) for v in sorted(value, key=repr)]}
    if isinstance(value, dict):
        return {"__dict__": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    return value


def _plain(case: dict) -> dict:
    """The case with plain Python values (sets sorted for a stable display)."""
    return {name: (set(sorted(v, key=repr)) if isinstance(v, set) else v) for name, v in case.items()}


# --------------------------------------------------------------------------- what came back


class JudgeMessage(str):
    """A message of the judge: its English text (``str``), plus a ``code`` and ``fields`` that a UI
    translates (codes: ``not_a_number``, ``syntax_error``, ``missing_function``, ``exception``,
    ``output_limit``, ``load_time_limit``, ``case_time_limit``, ``time_limit``, ``memory_limit``, ``cpu_limit``, ``file_limit``,
    ``crashed``, ``exited``, ``channel``)."""

    code: str
    fields: dict

    def __new__(cls, text: str, code: str, /, **fields):
        message = super().__new__(cls, text)
        message.code, message.fields = code, fields
        return message

    def __reduce__(self):  # pickles (and copies) keep the code and the fields
        return (_judge_message, (str(self), self.code, self.fields))


def _judge_message(text: str, code: str, fields: dict) -> JudgeMessage:
    return JudgeMessage(text, code, **fields)


def _got(answer: dict):
    result = answer["result"]
    if result["kind"] == "number":
        return float(result["value"])
    return JudgeMessage(f"{result['repr']} (a {result['type']}, not a number)", "not_a_number",
                        repr=result["repr"], type=result["type"])


def format_error(error: dict) -> str:
    """The candidate's own error: the exception and their lines only, never the judge's."""
    kind, message = error.get("type", "Error"), error.get("message", "")
    if kind == "SyntaxError" or "column" in error:
        where = f"line {error.get('line')}, column {error.get('column')}"
        return JudgeMessage(f"{kind}: {message} ({where})\n    {error.get('code', '')}", "syntax_error", kind=kind,
                            message=message, line=error.get("line"), column=error.get("column"),
                            code=error.get("code", ""))
    if kind == "MissingFunction":
        return JudgeMessage(f"No function to call: {message}.", "missing_function", message=message,
                            function=error.get("function"))
    lines = [f"{kind}: {message}" if message else kind]
    frames = [dict(frame) for frame in error.get("frames", [])]
    for frame in frames:
        lines.append(f"  line {frame['line']}, in {frame['function']}: {frame['code']}")
    return JudgeMessage("\n".join(lines), "exception", kind=kind, message=message, frames=frames)


def _limit_error(session: Session, outcome_signal: str | None, limits: Limits) -> str:
    if session.tampered:
        return JudgeMessage(f"Your code wrote to the judge's channel ({session.tampered}): the run was stopped.",
                            "channel", detail=session.tampered)
    if session.output_exceeded:
        kb = limits.output_bytes // 1024
        return JudgeMessage(f"Output limit: your code printed more than {kb} KB.", "output_limit", kb=kb)
    if session.memory_exceeded:
        mb = limits.memory_bytes // (1024 * 1024)
        return JudgeMessage(f"Memory limit: your code (all its processes together) reached the {mb} MB cap.",
                            "memory_limit", mb=mb)
    if session.timed_out == "case":
        return JudgeMessage(f"Time limit: one call of your function ran longer than {limits.case_seconds:g} s (an "
                            "endless loop, or far too slow for this case).", "case_time_limit",
                            seconds=limits.case_seconds)
    if session.timed_out and not session.loaded:
        return JudgeMessage(f"Time limit: loading your code (its imports and top-level statements) took longer than "
                            f"{limits.wall_seconds:g} s.", "load_time_limit", seconds=limits.wall_seconds)
    if session.timed_out:
        return JudgeMessage("Time limit: every call finished, but all of them together took longer than "
                            f"{limits.wall_seconds:g} s (correct code, too slow overall).", "time_limit",
                            seconds=limits.wall_seconds)
    if outcome_signal in ("SIGXCPU", "SIGKILL"):  # SIGKILL that the app did not send: the CPU hard limit
        return JudgeMessage(f"CPU limit: your code used more than {limits.cpu_seconds} s of CPU time.", "cpu_limit",
                            seconds=limits.cpu_seconds)
    if outcome_signal == "SIGXFSZ":
        kb = limits.file_bytes // 1024
        return JudgeMessage(f"File size limit: your code wrote a file larger than {kb} KB.", "file_limit", kb=kb)
    if outcome_signal:
        return JudgeMessage(f"Your code crashed the Python interpreter ({outcome_signal}).", "crashed",
                            signal=outcome_signal)
    return JudgeMessage("Your code ended the judge's process (it exited) before every case had run.", "exited")


# --------------------------------------------------------------------------- matching and shrinking


def _matches(problem: Problem, case: dict, expected: float, got) -> list[str]:
    if isinstance(got, str):
        return []
    found = []
    for mistake in problem.mistakes:
        try:
            value = mistake.compute(case)
        except (ValueError, ZeroDivisionError, KeyError):
            continue
        if value is not None and close(value, got) and not close(value, expected):
            found.append(mistake.says)
    return found


def _verdict(problem, case, expected, answer) -> tuple[bool, object, str | None]:
    """(passed, got, error text) for one answer."""
    if not answer["ok"]:
        return False, None, format_error(answer["error"])
    got = _got(answer)
    return close(expected, got), got, None


class _Judging:
    def __init__(self, problem: Problem, session: Session):
        self.problem, self.session = problem, session
        self.next_id = 0

    def ask(self, batch: list[dict]) -> list[dict] | None:
        """Run a batch of cases; answers in order, or None where the process died first."""
        ids = list(range(self.next_id, self.next_id + len(batch)))
        self.next_id += len(batch)
        self.session.send({"cases": [{"id": i, "args": _encode(case)} for i, case in zip(ids, batch)]})
        self.session.wait_for(lambda m: m.get("batch_done"))
        if self.session.tampered:  # even answers read before the forged line are not trusted
            return [None] * len(ids)
        answers = {m["id"]: m for m in self.session.messages if "id" in m and m["id"] in set(ids)}
        return [answers.get(i) for i in ids]

    def running_case(self):
        started = [m["start"] for m in self.session.messages if "start" in m]
        answered = {m["id"] for m in self.session.messages if "id" in m}
        pending = [i for i in started if i not in answered]
        return pending[0] if pending else None


def _shrink(judging: _Judging, problem: Problem, case, expected, got, error, matched: str | None):
    """Greedy shrinking: keep the first smaller case that fails the same way; stop when none does."""
    for _ in range(SHRINK_ROUNDS):
        better = _first_failing_alike(judging, problem, _smaller_cases(problem, case), error, matched)
        if better is None:
            break
        case, expected, got, error = better
    return case, expected, got, error


def _smaller_cases(problem: Problem, case):
    """(smaller case, its right value), in shrinking order, computed only as far as they are asked for."""
    for smaller in case_kinds.shrink(case):
        if case_kinds.size(smaller) < case_kinds.size(case):
            value = _expected(problem, smaller)
            if value is not None:
                yield smaller, value


def _first_failing_alike(judging: _Judging, problem: Problem, proposals, error, matched: str | None):
    """The first proposal that fails as the case did (the same exception type, or the same named mistake), or
    None. Asked in small batches, doubling: usually one of the first few qualifies, and asking for every
    proposal of a round at once computed every right value and ran every case for nothing (a wrong GAUC
    run's own work in the app: 0.12 CPU-s, now 0.06)."""
    size = SHRINK_BATCH
    while batch := list(itertools.islice(proposals, size)):
        for (smaller, value), answer in zip(batch, judging.ask([p[0] for p in batch])):
            if answer is None:  # the process died: what was found so far stands
                return None
            passed, new_got, new_error = _verdict(problem, smaller, value, answer)
            if passed or (error is None) != (new_error is None):
                continue
            if error is not None and new_error.split(":")[0] != error.split(":")[0]:
                continue
            if matched is not None and matched not in _matches(problem, smaller, value, new_got):
                continue
            return smaller, value, new_got, new_error
        size *= 2
    return None


def _steps(judging: _Judging, problem: Problem, case: dict) -> tuple:
    cut = case_kinds.prefixes(case)
    answers = judging.ask(cut)
    steps = []
    for row, (prefix, answer) in enumerate(zip(cut, answers), start=1):
        if answer is None:
            break
        got = _got(answer) if answer["ok"] else None
        steps.append((row, _expected(problem, prefix), got))
    return tuple(steps)


def _reproduces(mistake, case: dict, got) -> bool | None:
    """Whether the mistake's value on ``case`` is ``got``; None where the mistake has no value there."""
    try:
        value = mistake.compute(case)
    except (ValueError, ZeroDivisionError, KeyError):
        return None
    return None if value is None else close(value, got)


def _claim(problem: Problem, runs: list[CaseRun]) -> str | None:
    """The mistake that explains the candidate's values, or None (no known convention).

    Claimed only when its value is the candidate's on EVERY case that returned a wrong number, and
    agrees with every number they returned on a passing case where it has a value: a coincidence on
    the shrunk case is not their mistake. A case that raised or returned a non-number is not claimed.
    """
    wrong = [r for r in runs if not r.passed and is_number(r.got)]
    right = [r for r in runs if r.passed]
    for mistake in problem.mistakes if wrong else ():
        if all(_reproduces(mistake, r.inputs, r.got) is True for r in wrong) and \
                all(_reproduces(mistake, r.inputs, r.got) is not False for r in right):
            return mistake.says
    return None


_MODEL_SECONDS: dict[str, float] = {}
"""Each problem's model-solution time per call, measured once per app process: a second sandbox for every
passing run doubled the class's load (benchmarks/kata_load.py), and the cases of every run come from the
same generators, so one measurement stands for all."""


def _timed_model(problem: Problem, chosen, uid: int, limits: Limits) -> float | None:
    """The model solution's (plain loop) mean time per case, in a sandbox like the candidate's: remembered for
    the problem, else measured on this passing run's cases (before :func:`time_models` reached it)."""
    if problem.key in _MODEL_SECONDS:
        return _MODEL_SECONDS[problem.key]
    seconds = _measure_model(problem, chosen, uid, limits)
    if seconds is not None:
        _MODEL_SECONDS[problem.key] = seconds
    return seconds


def time_models(pool: Pool | None = None) -> threading.Thread:
    """Measure every problem's model time in the background, one sandbox at a time, queued like any run.

    The page starts this when the sandbox is first found usable: a class opens the page before anyone
    presses Run, so the first passing run of each problem no longer waits for a second sandbox, which made a
    class's first burst of runs a third slower (benchmarks/kata_load.py). Each time is the median of
    :data:`MODEL_TIMING_RUNS` rounds over every problem, seconds apart: the first round runs while the page is
    first drawn, and alone it made the model solution look 1.25 times slower than the same code submitted
    later. The median, not the least: a candidate's run is one sample, so the model's is a typical one.
    Returns the thread."""
    def measure_each():
        measured: dict[str, list[float]] = {}
        for _ in range(MODEL_TIMING_RUNS):
            for problem in PROBLEMS.values():
                if problem.key in _MODEL_SECONDS and problem.key not in measured:
                    continue  # a passing run measured it first
                try:
                    with (pool or DEFAULT).slot() as uid:
                        seconds = _measure_model(problem, build_cases(problem, fresh_seed(), 200), uid, Limits())
                except (SandboxUnavailable, RuntimeError, OSError):
                    return  # measured on a passing run instead, as before; the page says why the sandbox failed
                if seconds is not None:
                    measured.setdefault(problem.key, []).append(seconds)
                    _MODEL_SECONDS[problem.key] = statistics.median(measured[problem.key])
    thread = threading.Thread(target=measure_each, name="kata-model-times", daemon=True)
    thread.start()
    return thread


def loaded_session(problem: Problem, source: str, uid: int,
                   limits: Limits) -> tuple[Session, str | None, Outcome | None]:
    """A sandbox running the harness with ``source`` loaded: (the session, None, None), or, when the code did
    not load, (the closed session, what is wrong in the candidate's words, its outcome). Raises
    SandboxUnavailable when the harness never began: bubblewrap or Python failed, not the candidate."""
    session = Session(uid, limits)
    try:
        session.send({"source": source, "function": problem.function})
        loaded = session.wait_for(lambda m: "loaded" in m)
        if loaded is not None and loaded.get("loaded"):
            return session, None, None
        outcome = session.close()
        if not session.messages:
            raise SandboxUnavailable("The code sandbox did not start: " + (outcome.stdout.strip()[:300]
                                                                         or f"exit status {outcome.returncode}"))
        error = format_error(loaded["error"]) if loaded else _limit_error(session, outcome.signal_name, limits)
        return session, error, outcome
    except BaseException:
        session.kill()
        raise


def _measure_model(problem: Problem, chosen, uid: int, limits: Limits) -> float | None:
    session, error, _ = loaded_session(problem, problem.loop_solution, uid, limits)
    try:
        if error is not None:
            return None
        started = time.perf_counter()
        answers = _Judging(problem, session).ask([case for case, _ in chosen])
        seconds = time.perf_counter() - started
        session.close()
        return None if not answers or answers[-1] is None else seconds / len(answers)
    finally:
        session.kill()


def _judge(problem: Problem, source: str, chosen, uid: int, limits: Limits) -> Result:
    session, error, outcome = loaded_session(problem, source, uid, limits)
    try:
        if error is not None:
            return Result(0, len(chosen), error, None, outcome.stdout, outcome.seconds)
        judging = _Judging(problem, session)
        started = time.perf_counter()
        answers = judging.ask([case for case, _ in chosen])
        batch_seconds = time.perf_counter() - started
        died = answers[-1] is None if answers else False
        running = judging.running_case() if died else None
        runs = []
        for (case, expected), answer, kind in zip(chosen, answers, kinds_of(problem, len(chosen))):
            ok, got, error = _verdict(problem, case, expected, answer) if answer else (False, None, None)
            runs.append(CaseRun(kind, case, expected, got, error, ok))
        passed = sum(r.passed for r in runs)
        wrong = [r for r in runs if not r.passed and r.got is not None]
        raising = [r for r in runs if r.error is not None]
        shown = tuple(CaseRun(r.kind, _plain(r.inputs), r.expected, r.got, r.error, r.passed) for r in runs)
        if died and not wrong and not raising:
            # The process died (time, memory, output, crash) on a case that never answered.
            outcome = session.close()
            failure = None
            if running is not None and running < len(chosen):
                case, expected = chosen[running]
                failure = Failure(_plain(case), expected, None, None, 1)
            return Result(passed, len(chosen), _limit_error(session, outcome.signal_name, limits), failure,
                          outcome.stdout, outcome.seconds, cases=shown)
        failure = raised = error_text = None
        if wrong:
            matched = _claim(problem, runs)
            first = wrong[0]
            case, expected, got = first.inputs, first.expected, first.got
            if not died:
                case, expected, got, _ = _shrink(judging, problem, case, expected, got, None, matched)
            steps = () if died else _steps(judging, problem, case)
            failure = Failure(_plain(case), expected, got, matched, len(wrong), steps)
        if raising:
            # Never hidden behind a named mistake: which case raised, and what.
            first = raising[0]
            case, expected, error_text = first.inputs, first.expected, first.error
            if not died:
                case, expected, _, error_text = _shrink(judging, problem, case, expected, None, error_text, None)
            raised = Failure(_plain(case), expected, None, None, len(raising))
        outcome = session.close()
        if (died and error_text is None) or session.tampered:  # a line forged after the last answer counts too
            error_text = _limit_error(session, outcome.signal_name, limits)
        model = _timed_model(problem, chosen, uid, limits) if passed == len(chosen) else None
        return Result(passed, len(chosen), error_text, failure or raised, outcome.stdout, outcome.seconds, raised,
                      cases=shown, call_seconds=None if died else batch_seconds / max(len(chosen), 1),
                      model_call_seconds=model)
    finally:
        session.close()  # the process reaped, its cgroup removed, every descriptor closed, whatever happened


def run(problem_key: str, source: str, *, seed: int | None = None, cases: int = 200, limits: Limits | None = None,
        pool: Pool | None = None, ticket: Ticket | None = None) -> Result:
    """Judge ``source`` on problem ``problem_key``: raises SandboxUnavailable rather than run unconfined.

    Without ``seed`` the random cases come from a fresh secret seed (:attr:`Result.seed` records it)."""
    if problem_key not in PROBLEMS:
        raise ValueError(f"no problem named {problem_key!r}; choose one of {', '.join(PROBLEMS)}")
    problem = PROBLEMS[problem_key]
    seed = fresh_seed() if seed is None else seed
    chosen = build_cases(problem, seed, cases)
    limits = limits or Limits()
    with (pool or DEFAULT).slot(ticket) as uid:
        return replace(_judge(problem, source, chosen, uid, limits), seed=seed)


def submit(problem_key: str, source: str, *, seed: int | None = None, cases: int = 200,
           pool: Pool | None = None) -> Ticket:
    """Queue a run and return its ticket at once (the page shows ``ticket.position``); a fresh secret seed
    unless ``seed`` is given."""
    pool = pool or DEFAULT
    if problem_key not in PROBLEMS:
        raise ValueError(f"no problem named {problem_key!r}")
    problem = PROBLEMS[problem_key]
    seed = fresh_seed() if seed is None else seed
    chosen = build_cases(problem, seed, cases)
    return pool.submit(lambda uid: replace(_judge(problem, source, chosen, uid, Limits()), seed=seed))


def is_number(value) -> bool:
    return isinstance(value, numbers.Real)
