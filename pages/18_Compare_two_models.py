"""Compare two models honestly: paired tests, intervals, effect sizes, and where the difference comes from."""

import streamlit as st

from content.i18n import _
from content.pages import compare as words
from ui.controllers import compare_results as results
from ui.controllers import compare_sources as sources
from ui.widgets import page, pitfalls

page(_(words.TITLE), "📊", _(words.INTRO))
models = sources.chosen()
sources.warn_of_users_without_recommendations(models)
chosen = results.settings()
found = results.compared(models, chosen)

focus = results.focus(found, chosen.k)
difference = results.difference_and_verdict(found, focus, chosen.confidence)
results.table(found, chosen, difference.users)
results.charts(found, difference, focus)

st.subheader(_(words.WHERE_FROM))
results.where_from(found, models, focus)

st.subheader(_(words.HOW_MANY))
results.users_needed(found, difference, focus)

st.subheader(_(words.BEYOND))
results.beyond_accuracy_table(models, chosen.k)

pitfalls(*[_(line) for line in words.PITFALLS])
