"""The live class engine's messages in the reader's language, keyed by the engine's codes and fields.

``classroom/`` keeps its English texts (Python users, the tests); the page translates here: a
nickname refused (``NicknameError.code``), taken (``NicknameTaken``), an answer too late
(``AnswersClosed.state``), where a student stands, and the teacher's playground question.
"""

from __future__ import annotations

import re

from content import numbers
from content.i18n import N_, _, ngettext

NUMBER_OPTION = re.compile(r"-?\d+\.\d+")

PLAYGROUND_TITLE = N_("Predict from the teacher's list")
PLAYGROUND_TEXT = N_("The teacher's scenario: the list, the relevant items and K are below. Work it out, then answer.")
REMOVE = N_("Remove")
TIMER_SECONDS = N_("Seconds to answer")
START_TIMER = N_("⏱ Start the timer")
ASK_AGAIN = N_("↻ Ask again")
ASK_AGAIN_HELP = N_("Ask this question once more (after explaining it, say) and compare the rounds; the first "
                    "round's answers are kept.")
HIDE_NAMES = N_("Hide every name (anonymous mode)")
SHOW_NAMES = N_("Show the names again")
FINISH = N_("End of lesson: show each student their answers")
FINISH_HELP = N_("Locks every open question; each student sees their own answers against the right ones until "
                 "you end the class.")
YOUR_ANSWERS = N_("Your answers")
NO_ANSWERS = N_("You did not answer any question.")

LOCK_ROOM = N_("🔐 Lock the class")
UNLOCK_ROOM = N_("🔓 Unlock the class")
JOINED_LOCKED = N_("Joined · locked")
LOCK_ROOM_HELP = N_("Once everyone is in: the students in the class stay and answer as before, and no one new can "
                    "join until you unlock it.")
ROOM_LOCKED = N_("The teacher has locked this class: no one new can join. If you should be in it, ask the teacher "
                 "to unlock it, then join again.")
LOCK_IF_ALL_IN = N_("If everyone is in, lock the class: the students in it stay.")

DIVIDED_BY_K = N_("dividing the hits by K instead of the number of relevant items (that is Precision@K)")
DIVIDED_BY_RELEVANT = N_("dividing the hits by the number of relevant items instead of K (that is Recall@K)")

KEEP_ANSWERS = N_("Keep the answers of a student I remove")
KEEP_ANSWERS_HELP = N_("Kept answers still count in the results and the download; otherwise they are deleted with "
                       "the student.")


def nickname_problem(error: ValueError) -> str:
    """Why a nickname was refused."""
    code, fields = getattr(error, "code", None), getattr(error, "fields", {})
    if code == "not_text":
        return _("A nickname must be text.")
    if code == "empty":
        return _("Type a nickname, or choose to stay anonymous.")
    if code == "identifier_empty":
        return _("Answer the teacher's question above the nickname to join.")
    if code == "too_long":
        return ngettext("That nickname is {length} character long; at most {most}.",
                        "That nickname is {length} characters long; at most {most}.", fields["length"]).format(
            length=numbers.integer(fields["length"]), most=numbers.integer(fields["most"]))
    if code == "control":
        return _("A nickname cannot hold control or invisible characters (found {character}).").format(
            character=fields["character"])
    if code == "invisible":
        return _("A nickname cannot hold invisible characters such as zero-width joiners or direction marks "
                 "(found {character}).").format(character=fields["character"])
    if hasattr(error, "nickname"):  # NicknameTaken: says nothing of who is in the class
        return _("That nickname cannot be used in this class: choose another one.")
    return str(error)


def join_throttled(reason: str, seconds: int) -> str:
    """classroom.limits.JoinThrottled: whole seconds, at least 1."""
    if reason == "wrong_codes":
        return ngettext("Too many wrong class codes from this address: wait {seconds} s, then try again.",
                        "Too many wrong class codes from this address: wait {seconds} s, then try again.",
                        seconds).format(seconds=numbers.integer(seconds))
    return ngettext("Too many joins from this address: wait {seconds} s, then try again.",
                    "Too many joins from this address: wait {seconds} s, then try again.",
                    seconds).format(seconds=numbers.integer(seconds))


def class_full(most: int) -> str:
    return ngettext("This class is full ({most} student).", "This class is full ({most} students).", most).format(
        most=numbers.integer(most))


def refused_joins(refused: dict[str, int], minutes: int) -> list[str]:
    """The joins the class refused lately (``Store.join_status``): a headline, then one sentence per reason
    that refused any; empty when none was refused."""
    total = sum(refused.values())
    if not total:
        return []
    lines = [ngettext("{count} join refused in the last {minutes} minutes.",
                      "{count} joins refused in the last {minutes} minutes.", total).format(
        count=numbers.integer(total), minutes=numbers.integer(minutes))]
    if refused.get("address"):
        lines.append(ngettext(
            "{count} came from an address that had just joined many students (a script, or several classes "
            "behind one address).",
            "{count} came from an address that had just joined many students (a script, or several classes "
            "behind one address).", refused["address"]).format(count=numbers.integer(refused["address"])))
    if refused.get("locked"):
        lines.append(ngettext("{count} came after you locked the class.", "{count} came after you locked the class.",
                              refused["locked"]).format(count=numbers.integer(refused["locked"])))
    if refused.get("full"):
        lines.append(ngettext("{count} came when the class was full.", "{count} came when the class was full.",
                              refused["full"]).format(count=numbers.integer(refused["full"])))
    return lines


def option_text(label: str) -> str:
    """A lesson's option as the reader reads it: a number with the reader's decimal mark (Turkish 0,75, as
    the cards write it), any other option through the catalogs. The stored answer stays the label."""
    if NUMBER_OPTION.fullmatch(label):
        return label.replace(".", numbers.decimal_mark())
    return _(label)


def answers_closed(state: str) -> str:
    if state == "revealed":
        return _("Answers to this question are revealed: yours was not recorded.")
    return _("Answers to this question are locked: yours was not recorded.")


def right_of(right: int, answered: int) -> str:
    """'{right} of {answered} students got it right'."""
    return ngettext("{right} of {answered} student got it right", "{right} of {answered} students got it right",
                    answered).format(right=numbers.integer(right), answered=numbers.integer(answered))


def standing(summary, my_answer: str | None) -> str:
    """Where one student stands, in a sentence (no one else's name or answer)."""
    if my_answer is None:
        return ngettext("You did not answer; {right} of {answered} student got it right.",
                        "You did not answer; {right} of {answered} students got it right.", summary.answered).format(
            right=numbers.integer(summary.right), answered=numbers.integer(summary.answered))
    others = summary.same_as(my_answer) - 1
    return ngettext("{share}; {others} other student gave the same answer as you.",
                    "{share}; {others} other students gave the same answer as you.", others).format(
        share=right_of(summary.right, summary.answered), others=numbers.integer(others))


# The gradebook: the teacher's question each student answers to join, and its download.
JOIN_QUESTION = N_("Gradebook: a question each student answers on entering (optional)")
JOIN_QUESTION_HELP = N_("For the gradebook, e.g. “Student number”: each student's row is their answer, compared as "
                        "nicknames are, and joined across the rounds and meetings of your classes.")
GRADEBOOK = N_("⬇️ Download the gradebook (CSV)")
GRADEBOOK_HELP = N_("One row per student and two columns per question (points 1 or 0, and the answer), the format "
                    "a learning platform's gradebook imports; rows joined across your classes by the join question.")
GRADEBOOK_COLUMNS = {"identifier": N_("identifier"), "nickname": N_("nickname"), "total": N_("total"),
                     "points": N_("points"), "answer": N_("answer")}
MY_LESSONS = N_("My lessons")
FORGET_LESSON = N_("Forget")
ADD_LESSON = N_("Add a lesson file (.toml)")
ADD_LESSON_HELP = N_("Kept as one of your lessons on this browser (My lessons) and offered in the list above; the "
                     "lessons page's format (docs/lesson-files.md).")
LESSON_SAVED = N_("Saved in My lessons: {title}")
LESSON_REFUSED = N_("This file is not a lesson:")


def too_many_lessons(most: int) -> str:
    return ngettext("A class runs at most {most} lesson file: start a new class for another one.",
                    "A class runs at most {most} lesson files: start a new class for another one.", most).format(
        most=numbers.integer(most))


def standing_none(answer: str) -> str:
    """A student who did not answer a question asked on a list of their own."""
    return _("You did not answer; for your list the answer is **{answer}**.").format(answer=answer)


def playground_prompt(metric_label: str) -> str:
    return _("Predict {metric} of this list.").format(metric=metric_label)


def playground_why(value: str) -> str:
    return _("The exact value is {value}.").format(value=value)


EXPORT_COLUMNS = {"answered_at": N_("answered at (UTC)"), "step": N_("step"), "question": N_("question"),
                  "round": N_("round"), "nickname": N_("nickname"), "hidden": N_("hidden"), "answer": N_("answer"),
                  "right": N_("right"), "identifier": N_("identifier"), "scenario": N_("the student's list"),
                  "right_value": N_("the student's right value")}


def export_columns() -> dict[str, str]:
    """The CSV export's column names in the teacher's language (classroom.export.COLUMNS in English)."""
    return {key: _(name) for key, name in EXPORT_COLUMNS.items()}


def seconds_left(seconds: int) -> str:
    return ngettext("⏱ Answers lock in {seconds} second.", "⏱ Answers lock in {seconds} seconds.", seconds).format(
        seconds=numbers.integer(seconds))


def round_result(number: int, right: int, answered: int) -> str:
    """One round of a question asked again: '**Round 2:** 5 of 7 students got it right'."""
    return _("**Round {number}:** {share}").format(number=numbers.integer(number), share=right_of(right, answered))


def own_answer(yours: str | None, right: str | None, is_right: bool | None) -> str:
    """One question at the end of the lesson: the student's answer against the right one."""
    mark = {True: "✓", False: "✗"}.get(is_right, "")
    if yours is None:
        yours = _("no answer")
    if right is None:
        return _("Yours: {yours}").format(yours=yours)
    return _("Yours: {yours} · right answer: {right} {mark}").format(yours=yours, right=right, mark=mark).strip()


# Homework: a lesson each student goes through at their own pace until a deadline (classroom/homework.py).
HOMEWORK = N_("Homework")
HOMEWORK_TEXT = N_("Give a lesson as homework: each student goes through it on their phone at their own pace, sees "
                   "each verdict at once, and the answers close at the deadline.")
HOMEWORK_LESSON = N_("Lesson for the homework")
HOMEWORK_DATE = N_("Deadline: date (UTC)")
HOMEWORK_TIME = N_("Deadline: time (UTC)")
HOMEWORK_UTC = N_("The deadline is in UTC (Coordinated Universal Time), the same for every student wherever they are.")
HOMEWORK_START = N_("📝 Give as homework")
HOMEWORK_PAST = N_("Choose a deadline in the future, at most three months ahead.")
HOMEWORK_CLOSE = N_("Close the answers now")
HOMEWORK_CLOSE_SURE = N_("Yes, close the answers before the deadline")
HOMEWORK_EXTEND = N_("Move the deadline")
HOMEWORK_REPORT = N_("Report")
HOMEWORK_NO_STUDENTS = N_("No student has opened the homework yet.")
HOMEWORK_MOST_MISSED = N_("Questions, most missed first")
HOMEWORK_BY_STUDENT = N_("Answers by student")
HOMEWORK_COLUMNS = {"student": N_("Student"), "step": N_("Step"), "question": N_("Question"),
                    "answered": N_("Answered"), "right": N_("Right"), "missed": N_("Missed or not answered")}
RUN_LIVE = N_("▶ Run these live")
RUN_LIVE_HELP = N_("Starts a live class on this lesson at the most-missed question's step; the other missed steps "
                   "are listed, most missed first, for Go to step.")
RUN_LIVE_STEPS = N_("Go through these steps, most missed first: {steps}")
NOTHING_MISSED = N_("No question was missed: nothing to run live.")
HOMEWORK_NO_CHART = N_("This step has a chart in the app; the homework shows its text.")
HOMEWORK_DATA_BELOW = N_("This step has a chart in the app; the homework shows its text and its data, below.")
HOMEWORK_ALREADY = N_("You already answered this question: a homework answer is final.")
HOMEWORK_CLOSED = N_("The deadline has passed: answers are closed. You can still read the lesson and your verdicts.")
HOMEWORK_ENDED = N_("This homework has ended (or its code is wrong).")
HOMEWORK_RESUMED = N_("Your place is kept: come back with this browser and you continue where you were.")


def homework_closes(when: str) -> str:
    return _("Answers close on {when} (UTC).").format(when=when)


def homework_step(number: int, total: int) -> str:
    return _("Step {number} of {total}").format(number=numbers.integer(number), total=numbers.integer(total))


def homework_yours(answer: str) -> str:
    return _("Your answer: {answer}").format(answer=answer)


def homework_done(answered: int, total: int, right: int) -> str:
    return ngettext("You answered {answered} of {total} question; {right} right.",
                    "You answered {answered} of {total} questions; {right} right.", total).format(
        answered=numbers.integer(answered), total=numbers.integer(total), right=numbers.integer(right))


def report_follows(seconds: int) -> str:
    """Under an open homework's report, which re-reads itself."""
    return ngettext("The report updates by itself every {seconds} second while the homework is open.",
                    "The report updates by itself every {seconds} seconds while the homework is open.",
                    seconds).format(seconds=numbers.integer(seconds))


def homework_status(closes: str, closed: bool, students: int) -> str:
    """The console's line under the homework's link."""
    said = _("Closed on {when} (UTC).") if closed else _("Open until {when} (UTC).")
    return said.format(when=closes) + " " + ngettext("{count} student", "{count} students", students).format(
        count=numbers.integer(students))
