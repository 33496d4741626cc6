"""Logged feedback: off-policy estimators on simulated logs with a known truth, and on the Open Bandit Dataset."""

import streamlit as st

from content.i18n import _
from content.pages import logged_feedback as words
from ui.controllers import logged_feedback as view
from ui.widgets import page, pitfalls

page(_(words.TITLE), "🪵", _(words.IDEA))
if not view.data_available():
    st.warning(_(words.DATA_MISSING))
    st.stop()

# Labels made in this run (a dict, not a lambda calling _): a widget's options are formatted again outside the
# script run (AppTest), where the reader's language is not known.
labels = {"own": _(words.EXPLORE), **{key: _(title) for key, title in words.PRESETS.items()}}
choice = st.selectbox(_(words.PRESET), list(labels), key="logged_preset", format_func=labels.get)
if choice != "own":
    view.preset(choice)
elif st.toggle(_(words.OBD_SWITCH), key="logged_obd"):
    view.open_bandit_dataset()
else:
    view.own_settings()
pitfalls(*[_(line) for line in words.PITFALLS])
