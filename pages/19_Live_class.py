"""Live class: the teacher paces a lesson on every student's phone; the class predicts; the reveal shows how it thought."""

import streamlit as st

from ui import live_class
from ui.widgets import page

page("Live class", "📡", "The teacher starts a class and moves through a lesson; students join with the code on "
     "their phones, see each step as the teacher shows it, and predict. Answers stay hidden until the teacher "
     "reveals them.", scenario_link=False)
st.set_page_config(initial_sidebar_state="collapsed")
live_class.main()
