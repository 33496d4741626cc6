"""Why libraries disagree: the same list scored the way ten libraries score it, and the setting behind each
difference."""

import streamlit as st

from content.i18n import _
from content.pages import lens as words
from metrics import conventions as conv
from ui.controllers import lens_every_library as every_library
from ui.controllers import lens_presets as presets
from ui.controllers import lens_up_close as up_close
from ui.scenario import ranking_scenario
from ui.widgets import page, pitfalls

page(_(words.TITLE), "🔭", _(words.INTRO))
formula_area = st.container()

st.markdown(_(words.CLASSICS))
presets.buttons()
case, problems, results = ranking_scenario(show_gain=False)
presets.story_while_on_screen(case)
comparison = conv.compare(case.recommended, case.ground_truth, case.k)

close = up_close.chosen(case, comparison)  # before its widgets below: the formula at the top shows it
with formula_area:
    up_close.formulas(case, close)
every_library.values(case, comparison, results)
every_library.mean_with_the_tutorial_user(case)

st.subheader(_(words.WHY_THEY_DIFFER))
every_library.differences(case, comparison)

st.subheader(_(words.ONE_LIBRARY))
close = up_close.pick(comparison, close)
up_close.settings(close)
up_close.step_by_step(case, comparison, close)
up_close.own_code(case, close)

pitfalls(*[_(line) for line in words.PITFALLS])
