"""Guided lessons: one idea per step, demonstrated, predicted, then explored. The step is in the URL."""

import streamlit as st

from content.lessons import BY_KEY, LESSONS
from metrics import registry
from ui import lessons as engine
from ui import text
from ui.lesson_charts import SPEEDS
from ui.navigation import TOPIC_PAGES
from ui.widgets import choice as pick
from ui.widgets import delta_colour, page, sources_link

SMALL = r"\small "
KIND_BADGES = {"show": ":blue-badge[Look]", "demonstrate": ":orange-badge[Watch]",
               "predict": ":violet-badge[Predict]", "explore": ":green-badge[Explore]"}

page("Guided lessons", "🎓", "One idea per step: watch a metric move, predict before the numbers appear, then take "
     "the controls.")
# A projector needs the width more than the menu; the sidebar stays one click away.
st.set_page_config(initial_sidebar_state="collapsed")
# Less empty space above the title, so a step's chart and its Play button fit a 1280x720 projector.
st.html("<style>[data-testid='stMainBlockContainer'] {padding-top: 2rem}</style>")


@st.cache_data(max_entries=64, show_spinner=False)
def demonstration(lesson_key: str, index: int, speed: str):
    """A demonstration's figure and frames are the same for every learner: build each once."""
    return engine.demonstration(BY_KEY[lesson_key].steps[index], speed)


def presenter_mode() -> None:
    """Large type, and Space for Next: the arrow keys are the buttons' own shortcuts (see below)."""
    st.html(PRESENTER_STYLE)
    st.html(SPACE_FOR_NEXT, unsafe_allow_javascript=True)


PRESENTER_STYLE = """<style>
html {font-size: 20px}  /* Streamlit sizes text in rem: everything grows, the layout keeps its shape */
[data-testid='stMainBlockContainer'] {max-width: none; padding-left: 2rem; padding-right: 2rem}
/* The picture stays in view while the cards and formulas beside it scroll. */
[data-testid='stMain'] [data-testid='stHorizontalBlock']:has(.js-plotly-plot) > [data-testid='stColumn']:has(.js-plotly-plot) {
  position: sticky; top: 0.5rem; align-self: flex-start}
</style>"""

# Space moves to the next step unless the focus is on something Space already means something to.
SPACE_FOR_NEXT = """<script>
if (!window.recevalSpaceForNext) {
  window.recevalSpaceForNext = true;
  document.addEventListener('keydown', (event) => {
    if (event.code !== 'Space' || event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest('input, textarea, select, button, [role=slider], [role=radio], '
        + '[role=switch], [role=checkbox], [role=option], [contenteditable=true]')) return;
    const next = document.querySelector('.st-key-lessons_next button');
    if (!next || next.disabled || !document.querySelector('.st-key-lessons_presenter input:checked')) return;
    event.preventDefault();
    next.click();
  });
}
</script>"""


def read_url() -> tuple[str, int]:
    """The lesson and step (0-based) in the URL; anything unusable is replaced and said so."""
    params = st.query_params
    key = params.get("lesson", LESSONS[0].key)
    if key not in BY_KEY:
        st.warning(f"There is no lesson called “{text.markdown(key)}”, so the first lesson is shown.")
        key = LESSONS[0].key
    raw = params.get("step", "1")
    count = len(BY_KEY[key].steps)
    try:
        number = int(raw)
    except ValueError:
        number = 0
    if not 1 <= number <= count:
        st.warning(f"Step “{text.markdown(raw)}” does not exist in this lesson (steps 1 to {count}), so step "
                   f"{min(max(number, 1), count)} is shown.")
        number = min(max(number, 1), count)
    if params.get("lesson") != key or params.get("step") != str(number):
        st.query_params.update({"lesson": key, "step": str(number)})
    return key, number - 1


def go(key: str, index: int) -> None:
    st.query_params.update({"lesson": key, "step": str(index + 1)})


def choose_lesson() -> None:
    go(st.session_state["lessons_choice"], 0)


def cards(values: dict, keys, k=None, deltas: dict | None = None) -> None:
    shown = [key for key in keys if key in values]
    for column, key in zip(st.columns(max(len(shown), 1)), shown, strict=False):
        value, delta = engine.card_text(values[key], (deltas or {}).get(key))
        colour = delta_colour(registry.BY_KEY.get(key), (deltas or {}).get(key), values[key])
        column.metric(engine.label(key, k), value, delta=delta, border=True, delta_color=colour)


def formulas(view: engine.View, keys, previous: dict[str, str] | None) -> None:
    """General formula, then the one with numbers: numbers changed since ``previous`` in red."""
    for key in keys:
        if key not in view.general:
            continue
        st.latex(SMALL + engine.stacked(view.general[key]))
        if key in view.substituted:
            st.latex(SMALL + engine.highlight(view.substituted[key], (previous or {}).get(key)))


def data_table(view: engine.View) -> None:
    """The step's data, so each number the text states can be counted by hand."""
    if view.left_out:
        st.warning(view.left_out, icon="👤")
    if view.data is not None:
        st.dataframe(view.data, hide_index=True, width="stretch", placeholder="—")
        st.caption(view.data_caption)


def show_view(view: engine.View, keys, previous, chart_key: str, deltas=None, before_cards=None) -> None:
    """Numbers and formulas on the left, the chart on the right: one projector screen."""
    left, right = st.columns(2)
    with left:
        if before_cards:
            before_cards()
        cards(view.values, keys, view.k, deltas)
        formulas(view, keys, previous)
    with right:
        st.plotly_chart(view.figure, key=chart_key)
        data_table(view)


key, index = read_url()
arrived_from = st.session_state.get("_lessons_visit")  # the step of the previous run
st.session_state["_lessons_visit"] = (key, index)
lesson = BY_KEY[key]
step = lesson.steps[index]
keys = step.focus or None

presenting = bool(st.session_state.get("lessons_presenter"))
if presenting:
    presenter_mode()
# In presenter mode the arrow keys step through the lesson (Streamlit's own button shortcuts; they stay
# quiet while a slider or a box has the focus, so a slider still moves with the arrows).
back_keys, next_keys = ({"shortcut": "Left"}, {"shortcut": "Right"}) if presenting else ({}, {})

top = st.columns([4, 3, 1.2, 1.7], vertical_alignment="bottom")
st.session_state["lessons_choice"] = key
top[0].selectbox("Lesson", [lesson.key for lesson in LESSONS], key="lessons_choice", on_change=choose_lesson,
                 format_func=lambda k: f"{BY_KEY[k].icon} {BY_KEY[k].title}")
with top[1]:
    st.markdown(f"**Step {index + 1} of {len(lesson.steps)}** {KIND_BADGES[step.kind]}")
    st.progress((index + 1) / len(lesson.steps))

def step_buttons(back_cell, next_cell, suffix: str = "", **shortcuts) -> None:
    """Back and Next (or Next lesson at the last step); the same pair heads and ends a step."""
    back_cell.button("◀ Back", key=f"lessons_back{suffix}", disabled=index == 0, on_click=go, args=(key, index - 1),
                     width="stretch", **shortcuts.get("back", {}))
    if index + 1 < len(lesson.steps):
        next_cell.button("Next ▶", key=f"lessons_next{suffix}", on_click=go, args=(key, index + 1), type="primary",
                         width="stretch", **shortcuts.get("next", {}))
    else:
        following = LESSONS[(LESSONS.index(lesson) + 1) % len(LESSONS)]
        next_cell.button("Next lesson ▶", key=f"lessons_next{suffix}", on_click=go, args=(following.key, 0),
                         type="primary", width="stretch", help=f"{following.icon} {following.title}",
                         **shortcuts.get("next", {}))


step_buttons(top[2], top[3], back=back_keys, next=next_keys)

st.subheader(step.title)
st.markdown(step.text)
chart_key = f"lessons_chart_{key}_{index}"

if step.kind == "show":
    view = engine.step_view(step)
    show_view(view, keys or list(view.values), engine.previous_formulas(lesson.steps, index), chart_key)

elif step.kind == "demonstrate":
    speed = st.session_state.get("lessons_speed") or "normal"
    view, first = demonstration(key, index, speed)

    def speed_and_help() -> None:
        st.segmented_control("Speed", list(SPEEDS), default="normal", key="lessons_speed")
        st.caption("Press ▶ Play under the chart, or drag its slider. Each frame's numbers are in the chart's "
                   "title; the cards and formula show the last frame, red where it differs from the first.")

    show_view(view, keys or list(view.values), first, chart_key, before_cards=speed_and_help)

elif step.kind == "predict":
    question = step.question
    metric_keys = [question.metric] + ([question.other_metric] if question.other_metric else [])
    asking, data = st.columns(2)
    with asking:
        st.markdown(f"**{question.prompt}**")
        choice = pick(st.radio, "Your answer", [o.label for o in question.options], f"lessons_answer_{key}_{index}",
                      index=None, horizontal=True)
    if choice is None:
        with asking:
            st.caption("Choose an answer to reveal the numbers.")
            general = engine.step_view(step).general
            for metric_key in metric_keys:
                if metric_key in general:
                    st.latex(SMALL + engine.stacked(general[metric_key]))
        puzzles = [step.scenario] + ([question.other] if question.other else [])
        with data:
            for number, scenario in enumerate(puzzles):
                if len(puzzles) > 1:
                    st.caption("List A" if number == 0 else "List B")
                st.plotly_chart(engine.puzzle_figure(scenario), key=f"{chart_key}_puzzle_{number}")
    else:
        result = engine.reveal(step)
        chosen = next(o for o in question.options if o.label == choice)
        with data:
            if choice == result.answer:
                st.success(f"**Right.** {chosen.explanation}")
            else:
                st.error(f"**Not quite.** {chosen.explanation} The answer is **{result.answer}**.")
        st.info(question.why)
        if len(result.shown) == 1:
            show_view(result.shown[0][1], metric_keys, None, chart_key)
        else:
            (first_caption, first), (second_caption, second) = result.shown
            columns = st.columns(2)
            for column, caption, view, previous, deltas in (
                    (columns[0], first_caption, first, None, None),
                    (columns[1], second_caption, second, first.substituted, first.values)):
                with column:
                    st.markdown(f"**{caption}**")
                    cards(view.values, metric_keys, view.k, deltas)
                    formulas(view, metric_keys, previous)
                    st.plotly_chart(view.figure, key=f"{chart_key}_{caption}")
                    data_table(view)

elif step.kind == "explore":
    controls_side, chart_side = st.columns(2)
    with controls_side:
        st.info(f"🎯 **Goal:** {step.goal.text}")
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
        chosen = [st.slider(control.label, key=name, **spec)
                  for name, control, spec in zip(control_keys, step.controls, specs, strict=True)]
        for note in room_notes:
            st.info(note, icon="↔️")
        view = engine.static_view(step.view, engine.with_controls(step.scenario, step.controls, chosen))
        # Red marks what the learner's last move changed, so a fresh visit to the step starts with none.
        previous = st.session_state.get("_lessons_last") if arrived_from == (key, index) else None
        st.session_state["_lessons_last"] = view.substituted
        if engine.goal_reached(step.goal, view.values):
            st.success(f"**Goal reached.** {step.goal.reached}")
        else:
            st.caption("Not there yet: the red numbers in the formula are the ones your last move changed.")
        with cards_area:
            cards(view.values, keys or list(view.values), view.k)
        formulas(view, keys or list(view.values), previous)
    with chart_side:
        st.plotly_chart(view.figure, key=chart_key)
        data_table(view)

# The same buttons at the end of the step: on a phone the top ones are a long scroll away.
bottom = st.columns([5.2, 1.2, 1.7], vertical_alignment="center")
bottom[0].toggle("Presenter mode", key="lessons_presenter",
                 help="For a projector: large type, the cards kept beside the picture, ← → or Space for Back and "
                      "Next, and the full link of the step to copy.")
step_buttons(bottom[1], bottom[2], "_bottom")
if index + 1 == len(lesson.steps):
    st.page_link(TOPIC_PAGES[lesson.topic], label=f"Everything about {lesson.title} on one page, with your own data",
                 icon="📖")
    st.page_link(TOPIC_PAGES["which_metric"], label="Which metric when: every question a team asks, on one page",
                 icon="🧭")
st.caption(f"Link to this step: `?lesson={key}&step={index + 1}`")
if presenting:
    st.container(key="lessons_step_link").code(engine.step_link(st.context.url, key, index + 1), language=None,
                                               wrap_lines=True)
sources_link()
