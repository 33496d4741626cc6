"""The Live class page's sentences: the landing (join or teach), the student's phone, the teacher's
console, the reveal's summary and its charts. Lesson step texts come from the lessons; the engine's
messages from content.classroom.
"""

from __future__ import annotations


from content import numbers
from content.i18n import N_, _, ngettext

TITLE = N_("Live class")
INTRO = N_("The teacher starts a class and moves through a lesson; students join with the code on their phones, "
           "see each step as the teacher shows it, and predict. Answers stay hidden until the teacher reveals them.")

# --------------------------------------------------------------------------- landing and join form
JOIN_HEADING = N_("Join a class")
TEACH_HEADING = N_("Teach")
TEACH_TEXT = N_("Start a class: students join with a code, you move through a lesson, and everyone's answers come "
                "together on your screen.")
START = N_("Start a class")
CODE_LABEL = N_("Class code")
CODE_PLACEHOLDER = N_("e.g. 7KXQ4M")
CODE_HELP = N_("The six letters and digits on the teacher's screen; spaces, dashes and lower case are fine.")
NICKNAME_LABEL = N_("Nickname (leave empty to stay anonymous)")
JOIN = N_("Join")
ANONYMOUS = N_("Student {tag}")


def no_such_class(typed: str) -> str:
    return _("No class has the code {code}: check it with your teacher.").format(code=typed)


# --------------------------------------------------------------------------- the student's screen
ENDED_FOR_STUDENT = N_("This class has ended (or its code is wrong). Thank you for taking part!")
NOT_IN_CLASS = N_("This browser's student link is not part of this class: join again.")
HIDDEN_NICKNAME = N_("your nickname is hidden by the teacher")
WAITING = N_("Waiting for the teacher to show the first step…")
YOUR_ANSWER = N_("Your answer")
YOUR_NUMBER = N_("Your answer (a number such as {example} or 9/14)")
SEND = N_("Send")
LATE = N_("The teacher locked the answers just before your choice: it was not recorded.")
RIGHT_VERDICT = N_("**Right.** {explanation}")
NOT_QUITE = N_("**Not quite.** {explanation} The answer is **{answer}**.")


def what_you_get(typed: str, mistake: str) -> str:
    return _("{typed} is what you get with {mistake}.").format(typed=typed, mistake=mistake)


def too_few_decimals(typed: str, decimals: int) -> str:
    return ngettext("{typed} has too few decimals to be checked: give at least {n} decimal, or the exact fraction.",
                    "{typed} has too few decimals to be checked: give at least {n} decimals, or the exact fraction.",
                    decimals).format(typed=typed, n=numbers.integer(decimals))


def you_typed(typed: str) -> str:
    return _("You typed {typed}.").format(typed=typed)


def you_chose(option: str) -> str:
    """A wrong option the student chose (a list of their own's value question: the phone offers options only)."""
    return _("You chose {option}.").format(option=option)


def student_caption(code: str, nickname: str) -> str:
    return _("Class {code} · you are {nickname}").format(code=code, nickname=nickname)


def not_a_number(typed: str) -> str:
    return _("{typed} is not a number: type a number such as {example}, a fraction such as 9/14, or a percentage."
             ).format(typed=typed, example=numbers.number(0.6429, 4))


def answer_in(typed: str) -> str:
    return _("Your answer {answer} is in. You can change it until the teacher locks it.").format(answer=typed)


def locked_yours(typed: str | None) -> str:
    if typed is None:
        return _("The teacher locked the answers. You did not answer.")
    return _("The teacher locked the answers. Yours: {answer}.").format(answer=typed)


# --------------------------------------------------------------------------- the teacher's console
ENDED_FOR_TEACHER = N_("The class has ended or expired: its answers and nicknames are deleted.")
START_NEW = N_("Start a new class")
JOIN_AT = N_("Join at")
NOTHING_SHOWN = N_("Choose a lesson or push the playground's scenario.")
TEACHER_LINK = N_("Teacher link: open this class on another device (shown once)")
TEACHER_LINK_WARNING = N_("Anyone with this link can run your class. Do not project it; copy it somewhere private "
                          "now: it is not shown again.")
BAD_TEACHER_LINK = N_("That teacher link is not valid for this class.")
CLASS_GONE = N_("That class has ended or expired.")
WHAT_THE_CLASS_SEES = N_("What the class sees")
PLAYGROUND_CHOICE = N_("🎯 The playground's scenario, with a question")
METRIC_TO_PREDICT = N_("Metric to predict")
PUSH_AGAIN = N_("Push the playground's list again")
GO_TO_STEP = N_("Go to step")
BACK = N_("◀ Back")
NEXT = N_("Next ▶")
ANSWERED = N_("Answered")
WHO_ANSWERED = N_("Who answered")
LOCK = N_("🔒 Lock")
REVEAL = N_("👁 Reveal")
RESET = N_("↺ Reset")
RESET_HELP = N_("Delete this question's answers and open it again.")
LOCKED_CAPTION = N_("Answers are locked: press Reveal to show how the class answered.")
CLASS_TOOLS = N_("Students, answers and ending the class")
NOBODY_YET = N_("Nobody has joined yet.")
FIND_STUDENT = N_("Find a student by nickname")
NO_NICKNAME_MATCHES = N_("No nickname in the class contains that.")
EARLIER_PAGE = N_("◀ Earlier")
LATER_PAGE = N_("Later ▶")
HIDDEN = N_("*(hidden)*")
SHOW = N_("Show")
HIDE = N_("Hide")
DOWNLOAD = N_("Download every answer (CSV)")
END_SURE = N_("Delete every answer and nickname now")
END = N_("End the class")
ENDED = N_("The class has ended: every answer and nickname is deleted.")


def step_option(number: int, title: str) -> str:
    return _("{number}. {title}").format(number=number, title=title)


def joined_count(answered: int, joined: int) -> str:
    """'{answered} of {joined}' on the Answered card."""
    return ngettext("{answered} of {joined}", "{answered} of {joined}", joined).format(
        answered=numbers.integer(answered), joined=numbers.integer(joined))


# --------------------------------------------------------------------------- the reveal
LIST_A = N_("List A")
LIST_B = N_("List B")
NOBODY_ANSWERED = N_("Nobody answered this question.")
RIGHT = N_("Right")


def right_count(right: int, answered: int) -> str:
    return ngettext("{right} of {answered}", "{right} of {answered}", answered).format(
        right=numbers.integer(right), answered=numbers.integer(answered))


def share_right(share: float) -> str:
    return _("{share} of the answers are right.").format(share=numbers.percent(share))


def students(n: int) -> str:
    return ngettext("{n} student", "{n} students", n).format(n=numbers.integer(n))


def chose_mistake(n: int, option: str, explanation: str) -> str:
    """Students who chose a wrong option, which one, and why it is wrong."""
    return ngettext("**{who} chose {option}:** {explanation}", "**{who} chose {option}:** {explanation}", n).format(
        who=students(n), option=option, explanation=explanation)


def used_mistake(n: int, mistake: str) -> str:
    """Students whose typed number is what a named mistake gives."""
    return _("**{who}** used {mistake}.").format(who=students(n), mistake=mistake)


def playground_facts(k: int, grades: str) -> str:
    return _("K = {k}; relevant items and grades: {grades}").format(k=numbers.integer(k), grades=grades)


# --------------------------------------------------------------------------- the charts
BARS_TITLE = N_("How the class answered (green = right)")
HISTOGRAM_TITLE = N_("How the class answered, against the true value")
STUDENTS_AXIS = N_("students")
ANSWER_AXIS = N_("answer")
RIGHT_ANSWER = N_("right answer")
WRONG_ANSWER = N_("wrong answer")
HOVER = N_("%{x}: %{y} students")
YOU = N_("you")


def true_value(value: float) -> str:
    return _("true {value}").format(value=numbers.number(value, 4))


def who_answered(names: list[str], hidden: int, more: int = 0) -> str:
    """The teacher's list of who answered, in the order they did (``names`` already escaped); a hidden name
    (Hide, or anonymous mode) is only counted; ``more``: those who answered after the ones listed."""
    if not names and not hidden and not more:
        return _("Nobody has answered yet.")
    parts = list(names)
    if hidden:
        parts.append(ngettext("{count} hidden name", "{count} hidden names", hidden).format(
            count=numbers.integer(hidden)))
    if more:
        parts.append(ngettext("{count} more after them", "{count} more after them", more).format(
            count=numbers.integer(more)))
    return _(", ").join(parts)


def roster_range(first: int, last: int, total: int) -> str:
    """Which students of the roster this page shows."""
    return ngettext("Students {first}–{last} of {total}", "Students {first}–{last} of {total}", total).format(
        first=numbers.integer(first), last=numbers.integer(last), total=numbers.integer(total))
