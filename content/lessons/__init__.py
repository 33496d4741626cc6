"""Guided lessons as plain data: what each step says, shows, asks and unlocks.

No Streamlit and no drawing here: ``ui.controllers.lessons`` turns a step into numbers (from ``metrics``),
formulas and figures, and ``pages/10_Lessons.py`` shows them. The built-in lessons are lesson files,
``content/lessons/builtin/*.toml`` (docs/lesson-files.md): a teacher adds a step by adding a ``[[steps]]`` table.
"""

from content.lessons.library import builtin
from content.lessons.schema import Control, Goal, Lesson, Option, Question, Step

LESSONS: tuple[Lesson, ...] = builtin()
BY_KEY = {lesson.key: lesson for lesson in LESSONS}

__all__ = ["BY_KEY", "LESSONS", "Control", "Goal", "Lesson", "Option", "Question", "Step"]
