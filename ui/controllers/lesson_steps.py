"""A lesson step on the lessons page: its title and text, then what its kind shows: a view (show), an animation
(demonstrate), a question (predict, quiz: ``lesson_questions``) or sliders and a goal (explore)."""

from __future__ import annotations

import streamlit as st

from content import i18n
from content.i18n import _
from content.lessons import protocols as protocol_words
from content.lessons.schema import Step
from content.lessons.text import control_label
from content.pages import lessons as words
from ui.controllers import lesson_questions as questions
from ui.controllers import lessons as engine
from ui.controllers.lesson_navigation import Place
from ui.controllers.lesson_screen import cards, data_table, formulas, show_view
from ui.figures.lesson_charts import SPEEDS
from ui.widgets import chart


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Step: repr})
def _demonstration(step: Step, speed: str, language: str):
    """A demonstration's figure and frames are the same for every learner of one language: build each once."""
    return engine.demonstration(step, speed)


def _show(here: Place) -> None:
    view = engine.step_view(here.step)
    show_view(view, here.step.focus or list(view.values), engine.previous_formulas(here.lesson.steps, here.index),
              here.chart_key)


def _speed_and_help() -> None:
    st.segmented_control(_(words.SPEED), list(SPEEDS), default="normal", key="lessons_speed",
                         format_func={speed: _(name) for speed, name in words.SPEED_NAMES.items()}.__getitem__)
    st.caption(_(words.PLAY_HELP))


def _demonstrate(here: Place) -> None:
    speed = st.session_state.get("lessons_speed") or "normal"
    view, first = _demonstration(here.step, speed, i18n.current())
    show_view(view, here.step.focus or list(view.values), first, here.chart_key, before_cards=_speed_and_help)


def _sliders(here: Place) -> list:
    """The step's sliders, their values as the reader left them, unless two rank sliders would show one rank: then
    the other item makes room, and a note says where it went."""
    step = here.step
    control_keys = [f"lessons_control_{here.tag}_{number}" for number in range(len(step.controls))]
    specs = [engine.slider_spec(step.scenario, control) for control in step.controls]
    wanted = [st.session_state.get(name, spec["value"]) for name, spec in zip(control_keys, specs, strict=True)]
    shown_before = (st.session_state.get(f"_lessons_shown_{here.tag}")
                    if all(name in st.session_state for name in control_keys) else None)
    settled, room_notes = engine.make_room(step.scenario, step.controls, wanted, shown_before)
    for name, value, spec in zip(control_keys, settled, specs, strict=True):
        if name in st.session_state:
            spec.pop("value")  # the slider shows its state, set here when it had to make room
            if st.session_state[name] != value:
                st.session_state[name] = value
    st.session_state[f"_lessons_shown_{here.tag}"] = settled
    chosen = [st.slider(control_label(control, step.scenario), key=name, **spec)
              for name, control, spec in zip(control_keys, step.controls, specs, strict=True)]
    for note in room_notes:
        st.info(note, icon="↔️")
    return chosen


def _explore(here: Place) -> None:
    step = here.step
    controls_side, chart_side = st.columns(2)
    with controls_side:
        st.info(words.goal(_(step.goal.text)))
        # The cards above the sliders (filled once the sliders are read): at 1280x720 they were below the fold.
        cards_area = st.container()
        view = engine.static_view(step.view, engine.with_controls(step.scenario, step.controls, _sliders(here)))
        # Red marks what the learner's last move changed, so a fresh visit to the step starts with none.
        previous = st.session_state.get("_lessons_last") if here.stayed else None
        st.session_state["_lessons_last"] = view.substituted
        if engine.goal_reached(step.goal, view.values):
            st.success(words.goal_reached(_(step.goal.reached)))
        else:
            st.caption(_(words.NOT_THERE_YET))
        with cards_area:
            cards(view.values, step.focus or list(view.values), view.k)
        formulas(view, step.focus or list(view.values), previous)
    with chart_side:
        chart(view.figure, key=here.chart_key)
        data_table(view)


_BY_KIND = {"show": _show, "demonstrate": _demonstrate, "predict": questions.predict,
            "quiz": questions.quiz, "explore": _explore}


def draw(here: Place) -> None:
    """The step's title and text, its data prepared (or a note that it is missing), then what its kind shows."""
    st.subheader(_(here.step.title))
    st.markdown(_(here.step.text))
    missing = engine.data_missing(here.step)
    if engine.needs_data(here.step) and not missing:
        with st.spinner(_(protocol_words.PREPARING)):
            engine.prepare(here.step)
    if missing:
        st.warning(_(protocol_words.DATA_MISSING), icon="🗄️")
    elif here.step.kind in _BY_KIND:
        _BY_KIND[here.step.kind](here)
