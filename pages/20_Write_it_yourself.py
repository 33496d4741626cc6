"""Write it yourself: implement a metric as an interview asks, judged on hidden cases in a sandbox."""

import streamlit as st

from content.i18n import _
from content.pages import kata as words
from ui import kata_history
from ui.controllers import kata_attempt as attempts
from ui.controllers import kata_interview as interview
from ui.controllers import kata_run as running
from ui.controllers import kata_verdict as verdicts
from ui.widgets import page

page(_(words.TITLE), "⌨️", _(words.INTRO))
attempt = attempts.open_attempt()  # survives a reload: its id is in the address
problem = attempts.problem_box(attempt)
interview.mode(attempt, problem)
interview.task(attempt, problem)

code, too_long = running.editor(attempt, problem)
if running.buttons(attempt, problem, code, too_long):
    running.run(attempt, problem, code)

verdicts.verdict(attempt, problem, code)
kata_history.show(attempt.id, problem.key)
interview.review(attempt, problem)
verdicts.model_solutions(attempt, problem)
st.caption(_(words.KEPT))
