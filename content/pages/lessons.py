"""The sentences of the guided-lessons page (pages/10_Lessons.py). The lessons themselves are in
lesson files (``content/lessons/builtin/*.toml``); this file holds the page's frame: buttons, notes, captions.

Constants are marked ``N_`` and translated where shown (``_(TITLE)``); sentences with a number are
small functions that fill a template.
"""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

TITLE = N_("Guided lessons")
IDEA = N_("One idea per step: watch a metric move, predict before the numbers appear, then take the controls.")

# What kind of step this is, on the badge beside the step counter (key: the step's kind).
# TRANSLATORS: keep the badge markup (:colour-badge[...]); translate only the word in the brackets.
KIND_BADGES = {"show": N_(":blue-badge[Look]"), "demonstrate": N_(":orange-badge[Watch]"),
               "predict": N_(":violet-badge[Predict]"), "explore": N_(":green-badge[Explore]"),
               "quiz": N_(":red-badge[Quiz]")}
SPEED_NAMES = {"slow": N_("slow"), "normal": N_("normal"), "fast": N_("fast")}

LESSON = N_("Lesson")
BACK = N_("◀ Back")
NEXT = N_("Next ▶")
NEXT_LESSON = N_("Next lesson ▶")
SPEED = N_("Speed")
PLAY_HELP = N_("Press ▶ Play under the chart, or drag its slider. Each frame's numbers are in the chart's title; "
               "the cards and formula show the last frame, red where it differs from the first.")
YOUR_ANSWER = N_("Your answer")
CHOOSE_TO_REVEAL = N_("Choose an answer to reveal the numbers.")
LIST_A = N_("List A")
LIST_B = N_("List B")
# The captions of the two views shown side by side after an answer (key: ui.controllers.lessons.reveal's caption).
REVEAL_CAPTIONS = {"before": N_("before"), "after": N_("after"), "A": N_("A"), "B": N_("B")}
NOT_THERE_YET = N_("Not there yet: the red numbers in the formula are the ones your last move changed.")
PRESENTER = N_("Presenter mode")
PRESENTER_HELP = N_("For a projector: large type, the cards kept beside the picture, ← → or Space for Back and Next, "
                    "and the full link of the step to copy.")
WHICH_METRIC_LINK = N_("Which metric when: every question a team asks, on one page")


def no_such_lesson(key: str) -> str:
    return _("There is no lesson called “{key}”, so the first lesson is shown.").format(key=key)


def no_such_step(raw: str, count: int, shown: int) -> str:
    return _("Step “{step}” does not exist in this lesson (steps 1 to {count}), so step {shown} is shown.").format(
        step=raw, count=numbers.integer(count), shown=numbers.integer(shown))


def step_of(number: int, count: int) -> str:
    return _("**Step {number} of {count}**").format(number=numbers.integer(number), count=numbers.integer(count))


def right(explanation: str) -> str:
    return _("**Right.** {explanation}").format(explanation=explanation)


def not_quite(explanation: str, answer: str) -> str:
    return _("**Not quite.** {explanation} The answer is **{answer}**.").format(explanation=explanation, answer=answer)


def goal(text: str) -> str:
    return _("🎯 **Goal:** {goal}").format(goal=text)


def goal_reached(text: str) -> str:
    return _("**Goal reached.** {reached}").format(reached=text)


def topic_link(title: str) -> str:
    return _("Everything about {lesson} on one page, with your own data").format(lesson=title)


def step_link(query: str) -> str:
    return _("Link to this step: `{query}`").format(query=query)


# --------------------------------------------------------------------------- lesson files and number questions
VARIANT_HERE = N_("In a live class each student answers this for a list of their own; here it is asked on the "
                  "list below.")
YOUR_LESSONS = N_("Lesson files: open your own, download this one")
UPLOAD = N_("Open a lesson file (.toml)")
UPLOAD_HELP = N_("A lesson you wrote or downloaded. It stays in this browser session only; docs/lesson-files.md "
                 "describes the format.")
DOWNLOAD = N_("Download this lesson as a file")
FOLDER_PROBLEMS = N_("Some lesson files of the server's folder were not loaded:")
TYPE_ANSWER = N_("Type your answer")
TYPE_TO_REVEAL = N_("Type a number to reveal the numbers.")


def refused(name: str, problems: list[str]) -> str:
    """A refused file and its problems, one per line; ``name`` and ``problems`` already escaped as Markdown."""
    lines = "\n".join(f"- {problem}" for problem in problems)
    return _("**{name}** was not loaded:").format(name=name) + "\n\n" + lines


def uploaded(title: str) -> str:
    return _("**{title}** is open, and in the list of lessons for this session.").format(title=title)


def tolerance(kind: str, amount: float) -> str:
    """What a typed number must be within, as the student reads it."""
    if kind == "decimals":
        return _("Give it to {places} decimal places.").format(places=numbers.integer(int(amount)))
    if kind == "absolute":
        return _("Right within ±{amount} of the exact value.").format(amount=numbers.general(amount))
    return _("Right within {share} of the exact value.").format(share=numbers.percent(amount, 1))


def number_right(value: str) -> str:
    return _("**Right.** The exact value is {value}.").format(value=value)


def number_wrong(typed: str, value: str) -> str:
    return _("**Not quite.** You typed {typed}; the exact value is **{value}**.").format(typed=typed, value=value)


# --------------------------------------------------------------------------- question sheets and quiz steps
SHEET_UPLOAD = N_("Import a question sheet (.csv or .xlsx, laid out like Kahoot's template)")
SHEET_HELP = N_("Columns: Question, Answer 1 to Answer 4, Time limit (sec), and Correct answer(s) as answer numbers "
                "(2, or 1,3). At most 40 questions; a question has at most 120 characters, an answer 75. "
                "docs/lesson-files.md describes the sheet.")
SHEET_DOWNLOAD = N_("Download the imported lesson as a file (.toml)")
QUIZ_RIGHT = N_("**Right.**")


def time_limit(seconds: int) -> str:
    return _("Time limit: {seconds} s").format(seconds=numbers.integer(seconds))


def quiz_not_quite(answers: str) -> str:
    """``answers``: the right options, already escaped as Markdown and joined."""
    return _("**Not quite.** The answer is **{answer}**.").format(answer=answers)
