"""The lessons page's questions: a predict step (an option chosen or a number typed, then the numbers that decide
it) and a quiz step (a question sheet's plain question)."""

from __future__ import annotations

import streamlit as st

from content import numbers, text
from content.i18n import _
from content.lessons.schema import Step
from content.lessons.text import option_label
from content.pages import lessons as words
from ui.controllers import lessons as engine
from ui.controllers.lesson_navigation import Place
from ui.controllers.lesson_screen import cards, data_table, formulas, general_formulas, show_view
from ui.widgets import chart
from ui.widgets import choice as pick


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


def _verdict(step: Step, answer: str, choice) -> None:
    """Right or not, and why; a typed number is right within the question's tolerance."""
    question = step.question
    if question.kind == "number":
        exact = numbers.number(float(answer), len(answer.partition(".")[2]))  # to the answer's own decimals
        if engine.typed_right(step, choice):
            st.success(words.number_right(exact))
        else:
            st.error(words.number_wrong(numbers.general(choice), exact))
        return
    chosen = next(o for o in question.options if o.label == choice)
    if choice == answer:
        st.success(words.right(_(chosen.explanation)))
    else:
        st.error(words.not_quite(_(chosen.explanation), option_label(answer)))


def _puzzles(step: Step, chart_key: str) -> None:
    """The data without any metric (both lists when the question compares two)."""
    puzzles = [step.scenario] + ([step.question.other] if step.question.other else [])
    for number, scenario in enumerate(puzzles):
        if len(puzzles) > 1:
            st.caption(_(words.LIST_A) if number == 0 else _(words.LIST_B))
        chart(engine.puzzle_figure(scenario), key=f"{chart_key}_puzzle_{number}")


def _two_views(shown, metric_keys, chart_key: str) -> None:
    """Before and after side by side, the second's changes marked against the first."""
    (first_caption, first), (second_caption, second) = shown
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


def predict(here: Place) -> None:
    """The question and the data; once answered, the verdict, why, and the numbers that decide it."""
    step, question, chart_key = here.step, here.step.question, here.chart_key
    metric_keys = [question.metric] + ([question.other_metric] if question.other_metric else [])
    asking, data = st.columns(2)
    with asking:
        st.markdown(f"**{_(question.prompt)}**")
        if question.variant is not None:
            st.caption(_(words.VARIANT_HERE))
        if question.kind == "number":
            choice = typed_number(f"lessons_answer_{here.tag}", question.tolerance)
        else:
            choice = pick(st.radio, _(words.YOUR_ANSWER), [o.label for o in question.options],
                          f"lessons_answer_{here.tag}", index=None, horizontal=True,
                          format_func={o.label: option_label(o.label) for o in question.options}.__getitem__)
    if choice is None:
        hint = words.TYPE_TO_REVEAL if question.kind == "number" else words.CHOOSE_TO_REVEAL
        with asking:
            st.caption(_(hint))  # not _(a if "number" else b): the extractor would take "number" for a sentence
            general_formulas(engine.step_view(step).general, metric_keys)
        with data:
            _puzzles(step, chart_key)
        return
    result = engine.reveal(step)
    with data:
        _verdict(step, result.answer, choice)
    st.info(_(question.why))
    if len(result.shown) == 1:
        show_view(result.shown[0][1], metric_keys, None, chart_key)
    else:
        _two_views(result.shown, metric_keys, chart_key)


def quiz(here: Place) -> None:
    """A plain question (a question sheet's): its prompt and options are shown as typed, never as Markdown."""
    question = here.step.question
    st.markdown(f"**{text.markdown(question.prompt)}**")
    if question.time_limit:
        st.caption(words.time_limit(question.time_limit))
    choice = pick(st.radio, _(words.YOUR_ANSWER), [o.label for o in question.options], f"lessons_answer_{here.tag}",
                  index=None, format_func={o.label: text.markdown(o.label) for o in question.options}.__getitem__)
    if choice is None:
        return
    chosen = next(o for o in question.options if o.label == choice)
    explanation = f" {_(chosen.explanation)}" if chosen.explanation else ""
    if chosen.correct:
        st.success(_(words.QUIZ_RIGHT) + explanation)
    else:
        right_ones = ", ".join(text.markdown(o.label) for o in question.options if o.correct)
        st.error(words.quiz_not_quite(right_ones) + explanation)
