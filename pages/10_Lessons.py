"""Guided lessons: one idea per step, demonstrated, predicted, then explored. The step is in the URL."""

from content.i18n import _
from content.pages import lessons as words
from ui.controllers import lesson_files as files
from ui.controllers import lesson_navigation as navigation
from ui.controllers import lesson_screen as screen
from ui.controllers import lesson_steps as steps
from ui.widgets import page, sources_link

page(_(words.TITLE), "🎓", _(words.IDEA))
screen.fit_a_projector()
lessons = files.session_lessons()
here = navigation.read_url(lessons)
presenting = navigation.presenting()
navigation.head(here, lessons, presenting)
steps.draw(here)
navigation.foot(here, lessons)
files.lesson_files(here.lesson, lessons)
navigation.links(here, presenting)
sources_link()
