"""Guided lessons: one idea per step, demonstrated, predicted, then explored. The step is in the URL."""

import streamlit as st

from content import i18n
from content.i18n import _
from content.lessons.schema import Step
from content.lessons import protocols as protocol_words
from content.lessons.text import control_label
from content.pages import lessons as words
from ui.controllers import lesson_files as files
from ui.controllers import lesson_navigation as navigation
from ui.controllers import lesson_questions as questions
from ui.controllers import lesson_screen as screen
from ui.controllers import lessons as engine
from ui.figures.lesson_charts import SPEEDS
from ui.widgets import chart, page, sources_link

page(_(words.TITLE), "🎓", _(words.IDEA))
screen.fit_a_projector()


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Step: repr})
def demonstration(step: Step, speed: str, language: str):
    """A demonstration's figure and frames are the same for every learner of one language: build each once."""
    return engine.demonstration(step, speed)


lessons = files.session_lessons()


here = navigation.read_url(lessons)
key, index, lesson, step = here.lesson.key, here.index, here.lesson, here.step
keys = step.focus or None
presenting = navigation.presenting()
navigation.head(here, lessons, presenting)

st.subheader(_(step.title))
st.markdown(_(step.text))
chart_key = here.chart_key
missing = engine.data_missing(step)
if engine.needs_data(step) and not missing:
    with st.spinner(_(protocol_words.PREPARING)):
        engine.prepare(step)

if missing:
    st.warning(_(protocol_words.DATA_MISSING), icon="🗄️")

elif step.kind == "show":
    view = engine.step_view(step)
    screen.show_view(view, keys or list(view.values), engine.previous_formulas(lesson.steps, index), chart_key)

elif step.kind == "demonstrate":
    speed = st.session_state.get("lessons_speed") or "normal"
    view, first = demonstration(step, speed, i18n.current())

    def speed_and_help() -> None:
        st.segmented_control(_(words.SPEED), list(SPEEDS), default="normal", key="lessons_speed",
                             format_func={speed: _(name) for speed, name in words.SPEED_NAMES.items()}.__getitem__)
        st.caption(_(words.PLAY_HELP))

    screen.show_view(view, keys or list(view.values), first, chart_key, before_cards=speed_and_help)

elif step.kind == "predict":
    questions.predict(here)

elif step.kind == "quiz":
    questions.quiz(here)

elif step.kind == "explore":
    controls_side, chart_side = st.columns(2)
    with controls_side:
        st.info(words.goal(_(step.goal.text)))
        # The cards above the sliders (filled once the sliders are read): at 1280x720 they were below the fold.
        cards_area = st.container()
        control_keys = [f"lessons_control_{key}_{index}_{number}" for number in range(len(step.controls))]
        specs = [engine.slider_spec(step.scenario, control) for control in step.controls]
        # Two rank sliders never show one rank: the other item makes room, and a note says where it went.
        wanted = [st.session_state.get(name, spec["value"]) for name, spec in zip(control_keys, specs, strict=True)]
        shown_before = (st.session_state.get(f"_lessons_shown_{key}_{index}")
                        if all(name in st.session_state for name in control_keys) else None)
        settled, room_notes = engine.make_room(step.scenario, step.controls, wanted, shown_before)
        for name, value, spec in zip(control_keys, settled, specs, strict=True):
            if name in st.session_state:
                spec.pop("value")  # the slider shows its state, set here when it had to make room
                if st.session_state[name] != value:
                    st.session_state[name] = value
        st.session_state[f"_lessons_shown_{key}_{index}"] = settled
        chosen = [st.slider(control_label(control, step.scenario), key=name, **spec)
                  for name, control, spec in zip(control_keys, step.controls, specs, strict=True)]
        for note in room_notes:
            st.info(note, icon="↔️")
        view = engine.static_view(step.view, engine.with_controls(step.scenario, step.controls, chosen))
        # Red marks what the learner's last move changed, so a fresh visit to the step starts with none.
        previous = st.session_state.get("_lessons_last") if here.stayed else None
        st.session_state["_lessons_last"] = view.substituted
        if engine.goal_reached(step.goal, view.values):
            st.success(words.goal_reached(_(step.goal.reached)))
        else:
            st.caption(_(words.NOT_THERE_YET))
        with cards_area:
            screen.cards(view.values, keys or list(view.values), view.k)
        screen.formulas(view, keys or list(view.values), previous)
    with chart_side:
        chart(view.figure, key=chart_key)
        screen.data_table(view)

navigation.foot(here, lessons)
files.lesson_files(lesson, lessons)
navigation.links(here, presenting)
sources_link()
