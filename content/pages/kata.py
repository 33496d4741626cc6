"""The Write-it-yourself page's sentences: the picker, the task, the editor and Run, the verdict, the
failure explained, the attempt's history and the review. The problems' own words are in content.kata.
"""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _, ngettext

TITLE = N_("Write it yourself")
INTRO = N_("Interviews ask for a metric **from scratch**: AUC, AP@K, NDCG@K, MRR. Pick one, write the function, "
           "press **Run**. Your code runs in a sandbox on up to 200 hidden cases: the source documents' examples, "
           "then the edge cases where metrics usually go wrong, then random cases. Numbers are compared within "
           "1e-9, never as rounded strings. On a failure you get the **smallest case that still fails**, the step "
           "where your value first parts from the right one, and the library convention your value matches, if any.")

PROBLEM = N_("Problem")
INTERVIEW_CAPTION = N_("Interview mode: a timer, no hints, a review at the end.")
START_INTERVIEW = N_("Start an interview")
FINISH_INTERVIEW = N_("Finish and review")
LEAVE_INTERVIEW = N_("Leave interview mode")
HINTS = N_("Hints")
RUN = N_("Run")
RESET = N_("Reset to the signature")
RUNNING = N_("Running your code in the sandbox…")
RIGHT_VALUE = N_("Right value")
YOUR_VALUE = N_("Your value")
YOUR_ERROR = N_("**Your code's error** (your lines only):")
PRINTED = N_("What your code printed")
OPEN_CASE = N_("Open this case on the topic page")
DOWNLOAD = N_("Download your code and verdict")
REVIEW = N_("Review")
HINTS_NOT_SEEN = N_("Hints you did not see:")
MODEL_SOLUTIONS = N_("Model solutions")
PLAIN_LOOP = N_("Plain loop")
VECTORISED = N_("Vectorised numpy")
SOLUTIONS_LATER = N_("The model solutions (a plain loop and a vectorised one) appear after a passing run, or if you "
                     "give up.")
GIVE_UP = N_("Give up and see the model solutions")
GIVE_UP_EXPLAINED = N_("Giving up shows the model solutions and ends the interview, if one is open. It is recorded "
                       "in the review and cannot be undone.")
CONFIRM_GIVE_UP = N_("Yes, give up")
SENT_TO_INTERVIEW = N_("An interview is open in this browser: every tab of this page opens it until you finish it or "
                       "give up.")
NO_CONVENTION = N_("**Your value matches no known convention:** compare it with the right one step by step.")
NOT_RUN = N_("not run (the run stopped first)")
CASE_KINDS = {"example": N_("The documents' examples"), "edge": N_("Edge cases"),
              "random": N_("Random cases, drawn afresh for this run")}
CASE_COLUMNS = {"case": N_("case"), "call": N_("call"), "right": N_("right value"), "yours": N_("your value"),
                "verdict": N_("verdict")}
RUN_COLUMNS = {"run": N_("run"), "at": N_("time"), "verdict": N_("verdict")}
GAVE_UP = N_("You gave up on this problem.")
KEPT = N_("Your code is kept on the server under the random id in this page's address: reload or bookmark the page "
          "to come back to it. Anyone you give the address to sees your code; nobody else can.")
NO_VALUE = N_("no value (an error)")
UNDEFINED = N_("nan (undefined)")


def timer(minutes: int, seconds: int) -> str:
    return _("⏱️ **Interview mode** · {time} · hints hidden until you finish").format(
        time=f"{minutes:02d}:{seconds:02d}")


def task(function: str) -> str:
    return _("**The task.** Write `{function}` below; the docstring states the convention exactly.").format(
        function=function)


def not_saved(problem: str) -> str:
    return _("Your code could not be saved: {problem}").format(problem=problem)


def no_sandbox(problem: str, kept: bool) -> str:
    if kept:
        return _("**Code cannot run here: no sandbox.** {problem} Your code is kept; it is never run without the "
                 "sandbox.").format(problem=problem)
    return _("**Code cannot run here: no sandbox.** {problem}").format(problem=problem)


def judge_failed(problem: str) -> str:
    return _("**The judge could not run your code just now.** {problem} Your code is kept; press Run again in a "
             "moment.").format(problem=problem)


def queued(position: int) -> str:
    return _("In the queue: position {position}. Your code runs when a sandbox is free.").format(
        position=numbers.integer(position))


def _passed(passed: int, total: int) -> str:
    return ngettext("Passed {passed} of {total}.", "Passed {passed} of {total}.", total).format(
        passed=numbers.integer(passed), total=numbers.integer(total))


def passed_all(passed: int, total: int) -> str:
    return _("**{passed}** Every hidden case agrees within 1e-9.").format(passed=_passed(passed, total))


def passed_some(passed: int, total: int) -> str:
    return "**" + _passed(passed, total) + "**"


def smallest_case(shrunk_from: int) -> str:
    return ngettext("**The smallest failing case** (shrunk from {n} failing case):",
                    "**The smallest failing case** (shrunk from {n} failing cases):", shrunk_from).format(
        n=numbers.integer(shrunk_from))


def matches(convention: str) -> str:
    return _("**Your value matches a known convention:** {convention}.").format(convention=convention)


def step_by_step(first_row: int | None) -> str:
    if first_row is None:
        return _("**Step by step:** the metric on the case cut after each row, right and yours.")
    return _("**Step by step:** the metric on the case cut after each row, right and yours; they first part at row "
             "{row} (highlighted).").format(row=numbers.integer(first_row))


def breakdown_heading(title: str) -> str:
    return _("**{title}** (the right computation, as the topic page shows it)").format(title=title)


def last_run(at: str, passed: int, total: int) -> str:
    return ngettext("Last run ({at} UTC): passed {passed} of {total}. Press Run to see the details again.",
                    "Last run ({at} UTC): passed {passed} of {total}. Press Run to see the details again.",
                    total).format(at=at, passed=numbers.integer(passed), total=numbers.integer(total))


def download_header(title: str, passed: int, total: int, at: str) -> str:
    return _("# {title}: passed {passed} of {total} ({at} UTC)").format(title=title, passed=passed, total=total,
                                                                        at=at) + "\n"


def review(minutes: int, seconds: int, runs: int, verdict: str | None) -> str:
    last = verdict if verdict is not None else _("no run")
    return _("Time: **{minutes} min {seconds} s** · runs: **{runs}** · last verdict: {verdict}").format(
        minutes=minutes, seconds=seconds, runs=numbers.integer(runs), verdict=last)


def review_verdict(passed: int, total: int) -> str:
    return "**" + ngettext("{passed} of {total}", "{passed} of {total}", total).format(
        passed=numbers.integer(passed), total=numbers.integer(total)) + "**"


def last_failure(convention: str) -> str:
    return _("Your last failure matched: {convention}.").format(convention=convention)


def auc_timings(timings: dict) -> str:
    return _("**On {n} samples:** the pair loop (the offline-evaluation article's O(n²) method) takes about "
             "**{loop} s**; sort-and-count (the faster method it mentions) takes **{fast} ms**. The loop was timed "
             "on {loop_n} samples ({measured} s) and scaled by n², since it compares every pair.").format(
        n=numbers.integer(timings["n"]), loop=numbers.integer(round(timings["loop_seconds"])),
        fast=numbers.integer(round(timings["numpy_seconds"] * 1000)), loop_n=numbers.integer(timings["loop_n"]),
        measured=numbers.number(timings["loop_measured"], 2))


# The breakdown tables' headings (kata_views.breakdown) and the step table's row labels.
BREAKDOWN = {
    "ap": N_("AP@K, rank by rank"),
    "rr": N_("The first hit"),
    "topk": N_("The top K, rank by rank"),
    "dcg_list": N_("DCG of the list"),
    "dcg_ideal": N_("DCG of the ideal list (every graded item, best first)"),
    "dcg": N_("DCG, rank by rank"),
    "pairs": N_("Every positive/negative pair"),
    "gauc": N_("Each user's AUC and weight"),
    "logloss": N_("Each sample's loss"),
    "ratings": N_("Each rating's error"),
    "users": N_("Each user's AP@K and reciprocal rank (the mean over users is MAP@K and MRR)"),
}
STEP_COLUMNS = {"row": N_("row"), "right_so_far": N_("right so far"), "yours_so_far": N_("yours so far")}


def rank_item(row: int, item: str) -> str:
    return _("rank {rank}: item {item}").format(rank=row, item=item)


def rank_relevance(row: int, relevance: str) -> str:
    return _("rank {rank}: relevance {relevance}").format(rank=row, relevance=relevance)


def sample(row: int, values: str) -> str:
    return _("sample {row}: {values}").format(row=row, values=values)


def raised(count: int) -> str:
    return ngettext("**Your code raised an exception** on {n} case. The smallest case that raises it:",
                    "**Your code raised an exception** on {n} cases. The smallest case that raises it:",
                    count).format(n=numbers.integer(count))


def cases_heading(kind: str, passed: int, total: int) -> str:
    return ngettext("{kind}: {passed} of {total} passed", "{kind}: {passed} of {total} passed", total).format(
        kind=kind, passed=numbers.integer(passed), total=numbers.integer(total))


def first_failing(number: int) -> str:
    return _("**The first failing case** (case {number} here), as it ran:").format(number=numbers.integer(number))


def runtime(yours: float, model: float | None) -> str:
    """The mean time per call, in microseconds; the model solution's when it was measured (once per problem and
    app process, on random cases drawn the same way: kata.judge.time_models)."""
    if model is None:
        return _("**Runtime:** {yours} µs per call (the judge's own time to pass each case in and the answer out "
                 "included).").format(yours=numbers.number(yours * 1e6, 1))
    return _("**Runtime:** {yours} µs per call; the model solution (plain loop) {model} µs per call, on random "
             "cases drawn the same way in a sandbox like yours. Both include the judge's own time to pass each "
             "case in and the answer out, most of the time for a fast function, and both vary with the server's "
             "load: only a difference of several times says something.").format(yours=numbers.number(yours * 1e6, 1), model=numbers.number(model * 1e6, 1))


def run_verdict(passed: int, total: int, error: bool) -> str:
    verdict = ngettext("{passed} of {total}", "{passed} of {total}", total).format(
        passed=numbers.integer(passed), total=numbers.integer(total))
    return _("{verdict}, and an exception").format(verdict=verdict) if error else verdict
