"""Guided lessons: one idea per step, demonstrated, predicted, then explored. The step is in the URL."""

import streamlit as st

from content import i18n, numbers
from content.i18n import _
from content.lessons.schema import Step
from content.lessons import protocols as protocol_words
from content.lessons.text import control_label, option_label
from content.pages import lessons as words
from metrics import registry
from ui.controllers import lesson_files as files
from ui.controllers import lesson_navigation as navigation
from ui.controllers import lessons as engine
from content import text
from ui.figures.lesson_charts import SPEEDS
from ui.widgets import choice as pick
from ui.widgets import chart, delta_colour, page, sources_link

SMALL = r"\small "
page(_(words.TITLE), "🎓", _(words.IDEA))
# A projector needs the width more than the menu; the sidebar stays one click away.
st.set_page_config(initial_sidebar_state="collapsed")
# Less empty space above the title, so a step's chart and its Play button fit a 1280x720 projector.
st.html("<style>[data-testid='stMainBlockContainer'] {padding-top: 2rem}</style>")


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={Step: repr})
def demonstration(step: Step, speed: str, language: str):
    """A demonstration's figure and frames are the same for every learner of one language: build each once."""
    return engine.demonstration(step, speed)


lessons = files.session_lessons()


def typed_number(name: str, tolerance) -> float | None:
    """A number question's box: the number typed in the reader's notation, or None (nothing, or not a number)."""
    typed = st.text_input(_(words.TYPE_ANSWER), key=name)
    st.caption(words.tolerance(tolerance.kind, tolerance.amount))
    if not typed.strip():
        return None
    try:
        return numbers.parse(typed)
    except numbers.NumberError as error:
        st.error(numbers.parse_error_message(error))
        return None


def cards(values: dict, keys, k=None, deltas: dict | None = None) -> None:
    shown = [key for key in keys if key in values]
    for column, key in zip(st.columns(max(len(shown), 1)), shown, strict=False):
        value, delta = engine.card_text(values[key], (deltas or {}).get(key))
        colour = delta_colour(registry.BY_KEY.get(key), (deltas or {}).get(key), values[key])
        column.metric(engine.label(key, k), value, delta=delta, border=True, delta_color=colour)


def formulas(view: engine.View, keys, previous: dict[str, str] | None) -> None:
    """General formula, then the one with numbers: numbers changed since ``previous`` in red. A general formula
    the key before showed (one metric of two models) is not repeated."""
    shown = None
    for key in keys:
        if key not in view.general:
            continue
        if view.general[key] != shown:
            st.latex(SMALL + engine.stacked(view.general[key]))
            shown = view.general[key]
        if key in view.substituted:
            st.latex(SMALL + engine.highlight(view.substituted[key], (previous or {}).get(key)))


def data_table(view: engine.View) -> None:
    """The step's data, so each number the text states can be counted by hand."""
    if view.left_out:
        st.warning(view.left_out, icon="👤")
    if view.data is not None:
        st.dataframe(engine.data_for_reader(view.data), hide_index=True, width="stretch", placeholder="—")
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
        chart(view.figure, key=chart_key)
        data_table(view)


here = navigation.read_url(lessons)
key, index, lesson, step = here.lesson.key, here.index, here.lesson, here.step
keys = step.focus or None
presenting = navigation.presenting()
navigation.head(here, lessons, presenting)

st.subheader(_(step.title))
st.markdown(_(step.text))
chart_key = f"lessons_chart_{key}_{index}"
missing = engine.data_missing(step)
if engine.needs_data(step) and not missing:
    with st.spinner(_(protocol_words.PREPARING)):
        engine.prepare(step)

if missing:
    st.warning(_(protocol_words.DATA_MISSING), icon="🗄️")

elif step.kind == "show":
    view = engine.step_view(step)
    show_view(view, keys or list(view.values), engine.previous_formulas(lesson.steps, index), chart_key)

elif step.kind == "demonstrate":
    speed = st.session_state.get("lessons_speed") or "normal"
    view, first = demonstration(step, speed, i18n.current())

    def speed_and_help() -> None:
        st.segmented_control(_(words.SPEED), list(SPEEDS), default="normal", key="lessons_speed",
                             format_func={speed: _(name) for speed, name in words.SPEED_NAMES.items()}.__getitem__)
        st.caption(_(words.PLAY_HELP))

    show_view(view, keys or list(view.values), first, chart_key, before_cards=speed_and_help)

elif step.kind == "predict":
    question = step.question
    metric_keys = [question.metric] + ([question.other_metric] if question.other_metric else [])
    asking, data = st.columns(2)
    with asking:
        st.markdown(f"**{_(question.prompt)}**")
        if question.variant is not None:
            st.caption(_(words.VARIANT_HERE))
        if question.kind == "number":
            choice = typed_number(f"lessons_answer_{key}_{index}", question.tolerance)
        else:
            choice = pick(st.radio, _(words.YOUR_ANSWER), [o.label for o in question.options],
                          f"lessons_answer_{key}_{index}", index=None, horizontal=True,
                          format_func={o.label: option_label(o.label) for o in question.options}.__getitem__)
    if choice is None:
        with asking:
            hint = words.TYPE_TO_REVEAL if question.kind == "number" else words.CHOOSE_TO_REVEAL
            st.caption(_(hint))
            general = engine.step_view(step).general
            for formula in dict.fromkeys(general[key] for key in metric_keys if key in general):  # each once
                st.latex(SMALL + engine.stacked(formula))
        puzzles = [step.scenario] + ([question.other] if question.other else [])
        with data:
            for number, scenario in enumerate(puzzles):
                if len(puzzles) > 1:
                    st.caption(_(words.LIST_A) if number == 0 else _(words.LIST_B))
                chart(engine.puzzle_figure(scenario), key=f"{chart_key}_puzzle_{number}")
    else:
        result = engine.reveal(step)
        chosen = next((o for o in question.options if o.label == choice), None)
        with data:
            if question.kind == "number":
                exact = numbers.number(float(result.answer), len(result.answer.partition(".")[2]))
                if engine.typed_right(step, choice):
                    st.success(words.number_right(exact))
                else:
                    st.error(words.number_wrong(numbers.general(choice), exact))
            elif choice == result.answer:
                st.success(words.right(_(chosen.explanation)))
            else:
                st.error(words.not_quite(_(chosen.explanation), option_label(result.answer)))
        st.info(_(question.why))
        if len(result.shown) == 1:
            show_view(result.shown[0][1], metric_keys, None, chart_key)
        else:
            (first_caption, first), (second_caption, second) = result.shown
            columns = st.columns(2)
            for column, caption, view, previous, deltas in (
                    (columns[0], first_caption, first, None, None),
                    (columns[1], second_caption, second, first.substituted, first.values)):
                with column:
                    st.markdown(f"**{_(words.REVEAL_CAPTIONS[caption])}**")
                    cards(view.values, metric_keys, view.k, deltas)
                    formulas(view, metric_keys, previous)
                    chart(view.figure, key=f"{chart_key}_{caption}")
                    data_table(view)

elif step.kind == "quiz":
    # A plain question (a question sheet's): its prompt and options are shown as typed, never as Markdown.
    question = step.question
    st.markdown(f"**{text.markdown(question.prompt)}**")
    if question.time_limit:
        st.caption(words.time_limit(question.time_limit))
    choice = pick(st.radio, _(words.YOUR_ANSWER), [o.label for o in question.options], f"lessons_answer_{key}_{index}",
                  index=None, format_func={o.label: text.markdown(o.label) for o in question.options}.__getitem__)
    if choice is not None:
        chosen = next(o for o in question.options if o.label == choice)
        explanation = f" {_(chosen.explanation)}" if chosen.explanation else ""
        if chosen.correct:
            st.success(_(words.QUIZ_RIGHT) + explanation)
        else:
            right_ones = ", ".join(text.markdown(o.label) for o in question.options if o.correct)
            st.error(words.quiz_not_quite(right_ones) + explanation)

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
            cards(view.values, keys or list(view.values), view.k)
        formulas(view, keys or list(view.values), previous)
    with chart_side:
        chart(view.figure, key=chart_key)
        data_table(view)

navigation.foot(here, lessons)
files.lesson_files(lesson, lessons)
navigation.links(here, presenting)
sources_link()
