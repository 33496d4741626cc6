"""Run on my input: a hand-written input is parsed as literals or refused with the reason, and the
candidate's code runs in the judge's sandbox on the examples and that input."""

import pytest

import kata
from kata import tryout

PRECISION = kata.PROBLEMS["precision_at_k"]


def test_an_input_is_read_as_literals_in_the_signatures_order():
    case = tryout.parse_input(PRECISION, "k=2, relevant={2, 'a'}, recommended=[1, 2, 'a']")
    assert case == {"recommended": [1, 2, "a"], "relevant": {2, "a"}, "k": 2}
    assert list(case) == ["recommended", "relevant", "k"]


@pytest.mark.parametrize(("text", "code", "says"), [
    ("recommended=[1, 2], relevant={2}", "arguments", "must be recommended, relevant, k"),
    ("recommended=[1, 2], relevant={2}, k=0", "refused", "k must be a positive integer"),
    ("recommended=[1, 2], relevant={2}, k=__import__('os').getpid()", "literal", "k: only literals"),
    ("recommended=[1, 2, relevant={2}, k=1", "not_python", "not Python"),
    ("[1, 2], {2}, 1", "keywords", "name=value"),
    ("recommended=[1, 1], relevant={2}, k=2", "refused", "duplicate item 1"),
    ("recommended=[1], relevant={1}, k=1, " + "x" * tryout.MAX_INPUT, "too_long", "at most 2,000"),
], ids=["missing", "bad_k", "call", "syntax", "positional", "duplicate", "too_long"])
def test_an_input_that_cannot_run_is_refused_with_the_reason(text, code, says):
    with pytest.raises(tryout.InputError, match=says) as refused:
        tryout.parse_input(PRECISION, text)
    assert refused.value.code == code


def test_the_code_runs_on_the_examples_then_the_input_in_the_sandbox():
    source = "def precision_at_k(recommended, relevant, k):\n    print('k is', k)\n" \
             "    return len(recommended[:k]) and sum(i in relevant for i in recommended[:k]) / len(recommended[:k])\n"
    own = tryout.parse_input(PRECISION, "recommended=[1, 2], relevant={2}, k=5")
    outcome = tryout.submit("precision_at_k", source, own).wait(60)
    assert outcome.error is None and len(outcome.rows) == len(tryout.examples(PRECISION)) + 1
    last = outcome.rows[-1]
    assert (last.case, last.expected, last.got) == (own, 0.2, 0.5)
    assert outcome.stdout.startswith("k is 10\n")


def test_a_syntax_error_and_an_exception_come_back_as_the_judge_says_them():
    broken = tryout.submit("precision_at_k", "def precision_at_k(recommended, relevant, k)\n    return 0\n", None)
    assert broken.wait(60).error.startswith("SyntaxError") and broken.wait(60).rows == ()
    raising = tryout.submit("precision_at_k", "def precision_at_k(recommended, relevant, k):\n    return 1 / 0\n", None)
    rows = raising.wait(60).rows
    assert all(row.got is None and row.error.startswith("ZeroDivisionError") for row in rows)
