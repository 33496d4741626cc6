"""How offline evaluation lies: the same models on MovieLens 100K change places with the protocol."""

import streamlit as st

from content.i18n import _
from content.pages import protocols as words
from ui.controllers import protocol_lab as lab_view
from ui.widgets import page, pitfalls

page(_(words.TITLE), "🧫", _(words.IDEA))
if not lab_view.data_available():
    st.warning(_(words.DATA_MISSING))
    st.stop()

# Labels made in this run (a dict, not a lambda calling _): a widget's options are formatted again outside the
# script run (AppTest), where the reader's language is not known.
labels = {**{key: _(title) for key, title in words.PRESETS.items()}, "own": _(words.OWN)}
choice = st.selectbox(_(words.PRESET), list(labels), key="protocol_preset", format_func=labels.get)
if choice == "own":
    lab_view.own_protocol()
else:
    lab_view.preset(choice)
pitfalls(*[_(line) for line in words.PITFALLS])
