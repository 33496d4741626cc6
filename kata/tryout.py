"""Run on my input: the candidate's function on the visible examples and on an input they write, in the
same sandbox and pool as the judge, each value beside the right one (``metrics/``, which the model
solutions agree with). Nothing is judged or recorded, and no model solution's code is shown.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from kata import cases as case_kinds
from kata.judge import _expected, _got, _Judging, _limit_error, format_error, loaded_session
from kata.pool import DEFAULT, Pool, Ticket
from kata.problems import PROBLEMS, Problem
from kata.sandbox import Limits

MAX_INPUT = 2_000
"""Characters of a hand-written input: enough for a few users' lists, never a way to flood the sandbox."""


class InputError(ValueError):
    """A hand-written input that cannot be run: the message says what is wrong and where; ``code`` and
    ``fields`` let a UI say it in the reader's language (codes: too_long, not_python, keywords,
    arguments, literal, refused)."""

    def __init__(self, text: str, code: str, **fields):
        super().__init__(text)
        self.code, self.fields = code, fields


@dataclass(frozen=True)
class Row:
    case: dict
    expected: float
    got: object
    """A float, the judge's message for a value that is not a number, or None after an error."""
    error: str | None


@dataclass(frozen=True)
class Tryout:
    rows: tuple[Row, ...]
    error: str | None
    """The code's own failure to load (a syntax error, no such function) or a limit hit."""
    stdout: str


def parameters(problem: Problem) -> list[str]:
    return list(case_kinds.EXAMPLES[problem.kind][0])


def examples(problem: Problem) -> list[dict]:
    return [dict(case) for case in case_kinds.EXAMPLES[problem.kind]]


def parse_input(problem: Problem, text: str) -> dict:
    """``name=literal, ...`` with exactly the function's parameters, as Python literals; the right value
    must exist for it (the metric refuses what its statement excludes)."""
    if len(text) > MAX_INPUT:
        raise InputError(f"the input is {len(text):,} characters long; at most {MAX_INPUT:,}", "too_long",
                         length=len(text), limit=MAX_INPUT)
    try:
        call = ast.parse(f"f({text})", mode="eval").body
    except SyntaxError as problem_text:
        column = max((problem_text.offset or 3) - 2, 1)  # "f(" was put in front of the text
        raise InputError(f"not Python: {problem_text.msg} (column {column})", "not_python", message=problem_text.msg,
                         column=column) from None
    if not isinstance(call, ast.Call) or call.args or any(k.arg is None for k in call.keywords):
        raise InputError("write every argument as name=value, separated by commas", "keywords")
    wanted, given = parameters(problem), [k.arg for k in call.keywords]
    if sorted(given) != sorted(wanted):
        raise InputError(f"the arguments must be {', '.join(wanted)} (got {', '.join(given) or 'none'})", "arguments",
                         wanted=wanted, given=given)
    case = {}
    for keyword in call.keywords:
        try:
            case[keyword.arg] = ast.literal_eval(keyword.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise InputError(f"{keyword.arg}: only literals (numbers, strings, lists, sets, dicts)", "literal",
                             name=keyword.arg) from None
    case = {name: case[name] for name in wanted}
    try:
        problem.reference(**case)
    except Exception as refused:  # noqa: BLE001 - whatever the metric cannot take, the candidate hears why
        raise InputError(str(refused) or type(refused).__name__, "refused", message=str(refused)
                         or type(refused).__name__) from None
    return case


def _run(problem: Problem, source: str, chosen: list[dict], uid: int, limits: Limits) -> Tryout:
    session, error, outcome = loaded_session(problem, source, uid, limits)
    try:
        if error is not None:
            return Tryout((), error, outcome.stdout)
        answers = _Judging(problem, session).ask(chosen)
        rows = []
        for case, answer in zip(chosen, answers):
            if answer is None:
                rows.append(Row(case, _expected(problem, case), None, None))
            elif answer["ok"]:
                rows.append(Row(case, _expected(problem, case), _got(answer), None))
            else:
                rows.append(Row(case, _expected(problem, case), None, format_error(answer["error"])))
        outcome = session.close()
        died = any(answer is None for answer in answers)
        return Tryout(tuple(rows), _limit_error(session, outcome.signal_name, limits) if died else None,
                      outcome.stdout)
    finally:
        session.kill()


def submit(problem_key: str, source: str, own: dict | None, *, pool: Pool | None = None) -> Ticket:
    """Queue the examples, then ``own`` (an input from :func:`parse_input`) if any; return the ticket."""
    problem = PROBLEMS[problem_key]
    chosen = examples(problem) + ([own] if own is not None else [])
    return (pool or DEFAULT).submit(lambda uid: _run(problem, source, chosen, uid, Limits()))
