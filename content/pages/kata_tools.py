"""The Write-it-yourself page's tools in words: the code editor, Run on my input, the history of runs."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _, ngettext

EDITOR_LABEL = N_("**Your code** (Python: numpy and the standard library)")
EDITOR_PLACEHOLDER = N_("Write your function here")
KEYBOARD = N_("Tab indents and Enter keeps the indentation. With the keyboard alone: Tab to the editor, Enter to "
              "start typing, Esc to stop, then Tab to move on. Your code is sent when you leave the editor or press "
              "Ctrl+Enter.")


def too_long(length: int, limit: int) -> str:
    return _("**Your code is {length} characters long, over the limit of {limit}.** It was not saved or run; it "
             "is still in the editor: shorten it there.").format(length=numbers.integer(length),
                                                                   limit=numbers.integer(limit))


# --------------------------------------------------------------------------- Run on my input

TRY = N_("Run on my input")
TRY_HELP = N_("Runs your code on the examples and on your input below, in the sandbox, and shows each value beside "
              "the right one. Nothing is judged or recorded.")
INPUT_EXPANDER = N_("Your input for Run on my input")
INPUT_LABEL = N_("Your input (Python literals, one name=value per argument)")
TRY_HEADING = N_("**Run on my input**: your values beside the right ones (the model solution's).")
TRY_COLUMNS = {"input": N_("input"), "right": N_("right value"), "yours": N_("your value"), "same": N_("same?")}
EXAMPLE = N_("example {n}")
YOUR_INPUT = N_("your input")
SAME = N_("yes")
DIFFERENT = N_("no")
NOT_RUN = N_("not run (the process had ended)")


def input_refused(code: str, fields: dict) -> str:
    """Why a hand-written input cannot run; a metric's own refusal stays as Python wrote it."""
    if code == "too_long":
        text = _("it is {length} characters long; at most {limit}.").format(
            length=numbers.integer(fields["length"]), limit=numbers.integer(fields["limit"]))
    elif code == "not_python":
        text = _("it is not Python: {message} (column {column}).").format(**fields)
    elif code == "keywords":
        text = _("write every argument as name=value, separated by commas.")
    elif code == "arguments":
        text = _("the arguments must be {wanted}; you gave {given}.").format(
            wanted=", ".join(fields["wanted"]), given=", ".join(fields["given"]) or "—")
    elif code == "literal":
        text = _("{name} must be a literal (numbers, strings, lists, sets, dicts).").format(name=fields["name"])
    else:
        text = _("the metric refuses it: {message}").format(message=fields["message"])
    return _("**Your input cannot run:** {why} Nothing was run.").format(why=text)


# --------------------------------------------------------------------------- the history of runs

HISTORY = N_("Your runs of this problem in this session")
HISTORY_COLUMNS = {"run": N_("run"), "at": N_("time (UTC)"), "verdict": N_("verdict"), "passed": N_("passed")}
VERDICTS = {"passed": N_("✅ all passed"), "wrong": N_("❌ a wrong value"), "error": N_("⚠️ an error or a limit")}
DIFF_FROM = N_("Compare run")
DIFF_TO = N_("with run")
NO_CHANGE = N_("The two runs' code is the same.")


def run_label(number: int) -> str:
    return _("run {n}").format(n=numbers.integer(number))


def passed_of(passed: int, total: int) -> str:
    return ngettext("{passed} of {total}", "{passed} of {total}", total).format(
        passed=numbers.integer(passed), total=numbers.integer(total))
