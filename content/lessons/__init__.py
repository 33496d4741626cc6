"""Guided lessons as plain data: what each step says, shows, asks and unlocks.

No Streamlit and no arithmetic here: ``ui.controllers.lessons`` turns a step into numbers (from ``metrics``),
formulas and figures, and ``pages/10_Lessons.py`` shows them. A teacher adds a step by adding a
``Step`` to a lesson in ``content.lessons.content``.
"""

from content.lessons.content import BY_KEY, LESSONS
from content.lessons.schema import Control, Goal, Lesson, Option, Question, Step

__all__ = ["BY_KEY", "LESSONS", "Control", "Goal", "Lesson", "Option", "Question", "Step"]
