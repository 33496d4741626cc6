"""Your data: a whole model's log evaluated, its traps, its spread and its worst users."""

import streamlit as st

from content.i18n import _
from content.pages import your_data as words
from content.your_data import IDEA, PITFALLS
from ui.controllers import your_data_log as the_log
from ui.controllers import your_data_results as results
from ui.controllers import your_data_worst_users as worst
from ui.widgets import page, pitfalls

page(_(words.TITLE), "🗂️", _(IDEA))
stale_notice = st.container()  # above the old numbers: says when they are not those of the files just chosen
formula_area = st.container()
overview_area = st.container()  # the summary and the main histogram, filled once the log is evaluated
the_log.open_with_a_synthetic_log()

st.subheader(_(words.THE_LOG))
source = the_log.source()
progress = st.empty()
if source == words.LAB:
    st.info(_(words.HANDED), icon="🧫")
elif source == words.SYNTHETIC:
    the_log.generator(progress)
else:
    the_log.files(progress, stale_notice)
log = the_log.shown()

evaluation = results.evaluated(log, results.settings(), progress)
with formula_area:
    results.mean_formula(evaluation)
st.subheader(_(words.TRAP_SCAN))
results.traps(evaluation)
with overview_area:
    results.overview(evaluation)
st.subheader(_(words.SPREAD))
results.spread(evaluation)
st.subheader(_(words.MEAN_AGAINST_K))
results.mean_against_k(evaluation)

st.subheader(_(words.WORST_USERS))
worst.worst_users(log, evaluation)
worst.download(evaluation)
pitfalls(*[_(line) for line in PITFALLS])
