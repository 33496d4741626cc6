"""Live class: the teacher paces a lesson on every student's phone; the class predicts; the reveal shows how it thought."""

import streamlit as st

from content.i18n import _
from content.pages import live as words
from ui.controllers import live_class, live_homework  # noqa: F401 - the homework's views
from ui.widgets import page

page(_(words.TITLE), "📡", live_class.intro(), scenario_link=False)
st.set_page_config(initial_sidebar_state="collapsed")
live_class.main()
