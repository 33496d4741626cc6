"""Where the reader is in the lessons and how they move on: the lesson and step in the URL, the lesson picker,
Back and Next at the head and the end of a step, the presenter switch, and the links a step ends with."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from content import text
from content.i18n import _
from content.lessons.schema import Lesson, Step
from content.pages import lessons as words
from ui.controllers import lessons as engine
from ui.controllers.lesson_files import SessionLessons
from ui.navigation import TOPIC_PAGES
from ui.presenter import presenter_mode


@dataclass(frozen=True)
class Place:
    """A step of a lesson (``index`` 0-based); ``stayed``: the previous run showed this step too."""
    lesson: Lesson
    index: int
    stayed: bool

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.index]

    @property
    def tag(self) -> str:
        """The step's part of its widgets' keys."""
        return f"{self.lesson.key}_{self.index}"

    @property
    def chart_key(self) -> str:
        return f"lessons_chart_{self.tag}"


def read_url(lessons: SessionLessons) -> Place:
    """The lesson and step in the URL; anything unusable is replaced and said so."""
    params = st.query_params
    key = params.get("lesson", lessons.all[0].key)
    if key not in lessons.by_key:
        st.warning(words.no_such_lesson(text.markdown(key)))
        key = lessons.all[0].key
    raw = params.get("step", "1")
    count = len(lessons.by_key[key].steps)
    try:
        number = int(raw)
    except ValueError:
        number = 0
    if not 1 <= number <= count:
        st.warning(words.no_such_step(text.markdown(raw), count, min(max(number, 1), count)))
        number = min(max(number, 1), count)
    if params.get("lesson") != key or params.get("step") != str(number):
        st.query_params.update({"lesson": key, "step": str(number)})
    stayed = st.session_state.get("_lessons_visit") == (key, number - 1)
    st.session_state["_lessons_visit"] = (key, number - 1)
    return Place(lessons.by_key[key], number - 1, stayed)


def presenting() -> bool:
    """Whether the presenter switch (at the step's end) is on; if so, large type and Space for Next."""
    on = bool(st.session_state.get("lessons_presenter"))
    if on:
        presenter_mode()
    return on


def _go(key: str, index: int) -> None:
    st.query_params.update({"lesson": key, "step": str(index + 1)})


def _choose_lesson() -> None:
    _go(st.session_state["lessons_choice"], 0)


def _step_buttons(back_cell, next_cell, here: Place, lessons: SessionLessons, suffix: str = "", **shortcuts) -> None:
    """Back and Next (or Next lesson at the last step); the same pair heads and ends a step."""
    key, index, steps = here.lesson.key, here.index, here.lesson.steps
    back_cell.button(_(words.BACK), key=f"lessons_back{suffix}", disabled=index == 0, on_click=_go,
                     args=(key, index - 1), width="stretch", **shortcuts.get("back", {}))
    if index + 1 < len(steps):
        next_cell.button(_(words.NEXT), key=f"lessons_next{suffix}", on_click=_go, args=(key, index + 1),
                         type="primary", width="stretch", **shortcuts.get("next", {}))
    else:
        following = lessons.all[(lessons.all.index(here.lesson) + 1) % len(lessons.all)]
        next_cell.button(_(words.NEXT_LESSON), key=f"lessons_next{suffix}", on_click=_go, args=(following.key, 0),
                         type="primary", width="stretch", help=f"{following.icon} {_(following.title)}",
                         **shortcuts.get("next", {}))


def head(here: Place, lessons: SessionLessons, presenting: bool) -> None:
    """The lesson picker, which step of how many and what kind, then Back and Next."""
    # The format_func looks its labels up in a dict made during this run: the labels are then in this run's
    # language even where they are formatted later, outside the run (AppTest does so).
    top = st.columns([4, 3, 1.2, 1.7], vertical_alignment="bottom")
    st.session_state["lessons_choice"] = here.lesson.key
    top[0].selectbox(_(words.LESSON), [lesson.key for lesson in lessons.all], key="lessons_choice",
                     on_change=_choose_lesson,
                     format_func={k: f"{lesson.icon} {_(lesson.title)}" for k, lesson in lessons.by_key.items()}
                     .__getitem__)
    with top[1]:
        st.markdown(f"{words.step_of(here.index + 1, len(here.lesson.steps))} {_(words.KIND_BADGES[here.step.kind])}")
        st.progress((here.index + 1) / len(here.lesson.steps))
    # In presenter mode the arrow keys step through the lesson (Streamlit's own button shortcuts; they stay
    # quiet while a slider or a box has the focus, so a slider still moves with the arrows).
    arrows = {"back": {"shortcut": "Left"}, "next": {"shortcut": "Right"}} if presenting else {}
    _step_buttons(top[2], top[3], here, lessons, **arrows)


def foot(here: Place, lessons: SessionLessons) -> None:
    """The presenter switch, and the same buttons again: on a phone the top ones are a long scroll away."""
    bottom = st.columns([5.2, 1.2, 1.7], vertical_alignment="center")
    bottom[0].toggle(_(words.PRESENTER), key="lessons_presenter", help=_(words.PRESENTER_HELP))
    _step_buttons(bottom[1], bottom[2], here, lessons, "_bottom")


def links(here: Place, presenting: bool) -> None:
    """After a lesson's last step its topic page and Which metric when; under every step its own link, in full
    for the class to copy in presenter mode."""
    lesson, number = here.lesson, here.index + 1
    if number == len(lesson.steps):
        if lesson.topic in TOPIC_PAGES:
            st.page_link(TOPIC_PAGES[lesson.topic], label=words.topic_link(_(lesson.title)), icon="📖")
        st.page_link(TOPIC_PAGES["which_metric"], label=_(words.WHICH_METRIC_LINK), icon="🧭")
    st.caption(words.step_link(f"?lesson={lesson.key}&step={number}"))
    if presenting:
        st.container(key="lessons_step_link").code(engine.step_link(st.context.url, lesson.key, number),
                                                   language=None, wrap_lines=True)
