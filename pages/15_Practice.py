"""Practice: a seeded quiz from random scenarios, and goal challenges checked live on the shared scenario."""

import streamlit as st

from content.i18n import _
from content.pages import practice as words
from teaching import quiz_progress
from ui.controllers import practice_challenges as challenges
from ui.controllers import practice_quiz as quiz
from ui.widgets import page

page(_(words.TITLE), "🏋️", _(words.IDEA))
st.page_link("pages/20_Write_it_yourself.py", label=_(words.WRITE_IT_YOURSELF), icon="⌨️")

st.header(_(words.QUIZ_HEADER), divider="gray")
settings = quiz.settings()
questions, progress = quiz.questions_and_progress(settings)
if quiz_progress.finished(progress, questions):
    quiz.summary(questions, progress)
else:
    question = questions[progress["index"]]
    quiz.question(question, progress, len(questions))
    quiz.answer(question, progress, questions)

st.header(_(words.CHALLENGES_HEADER), divider="gray")
if (active := challenges.picker()) is not None:
    challenges.live_goal(active)
