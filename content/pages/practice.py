"""The words of the practice page (pages/15_Practice.py); the quiz's and challenges' own words are in
content/practice.py."""

from __future__ import annotations

from content.i18n import N_, _

TITLE = N_("Practice: quiz and goal challenges")
IDEA = N_("Test yourself. The **quiz** draws random lists from a quiz number: give the class the same number (or "
          "the lesson link in the sidebar) and everyone gets the same questions. The **goal challenges** ask you to "
          "edit a list until a goal is met; they are checked after every edit. The **Hide the answers** switch "
          "in the sidebar turns every other page into an exercise too.")
QUIZ_NUMBER = N_("Quiz number")
LIST_LENGTH = N_("List length")
GRADED = N_("Graded relevance")
NEW_QUIZ = N_("🎲 New quiz")
NEW_QUIZ_HELP = N_("A new quiz number, drawn at random.")
FINISHED = N_("Quiz finished")
NO_MISS = N_("No metric missed.")
LAST_LIST = N_("The last list of the quiz")
AGAIN = N_("Start this quiz again")
THE_LIST = N_("The list")
YOUR_ANSWER = N_("Your answer")
PRESS_ENTER = N_("Press Enter or Check.")
CHECK = N_("Check")
NEXT_QUESTION = N_("Next question")
SUMMARY = N_("See the summary")
HITS = N_("hits")  # in P@K = hits_K / K
CHALLENGES_INTRO = N_("Pick a goal and press **Start**: it loads a starting list into the shared scenario below. "
                      "Edit the list until the goal is met. **To swap two items**, type each one's id over the "
                      "other's in the Item column; typing a new rank moves an item and shifts the ones in between, "
                      "which counts as several swaps.")
GOAL = N_("Goal")
START = N_("Start")
START_AGAIN = N_("Start again")
WRITE_IT_YOURSELF = N_("Write it yourself: implement a metric from scratch, judged on hidden cases")
QUIZ_HEADER = N_("📝 Quiz")
CHALLENGES_HEADER = N_("🎯 Goal challenges")


def quiz_code(seed: int, length: int, graded: bool, k: int, right: int, asked: int) -> str:
    if graded:
        text = _("**Quiz code:** quiz {seed} · {length} items · graded · K = {k}. &nbsp; **Score:** {right} / {asked}")
    else:
        text = _("**Quiz code:** quiz {seed} · {length} items · binary · K = {k}. &nbsp; **Score:** {right} / {asked}")
    return text.format(seed=seed, length=length, k=k, right=right, asked=asked)


def answered(right: int, asked: int) -> str:
    return _("You answered **{right} of {asked}** questions right.").format(right=right, asked=asked)


def practise_again(labels: list[str]) -> str:
    return _("Metrics to practise again: {metrics}. Their pages in the sidebar explain each step.").format(
        metrics=_(", ").join(f"**{label}**" for label in labels))


def question_number(index: int, total: int) -> str:
    return _("Question {number} of {total}").format(number=index, total=total)


def list_title(title: str, k: int) -> str:
    return _("**{title}** (best first; K = {k})").format(title=title, k=k)


def both_lists(k: int) -> str:
    return _("**List A and list B** (best first; K = {k})").format(k=k)


def list_name(name: str) -> str:
    return _("List {name}").format(name=name)


def goal(title: str, start: str) -> str:
    return _("**Goal:** {title}. Starting list: {start}.").format(title=title, start=start)
