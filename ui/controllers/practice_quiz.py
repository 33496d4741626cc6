"""The practice page's quiz: its settings (kept in ``st.session_state["practice"]``, which the lesson link and the
sidebar read too), its progress through the questions, the question on screen, the answer box and the verdict."""

from __future__ import annotations

import secrets

import streamlit as st

from content import practice as quiz_words
from content import text
from content.i18n import _
from content.pages import practice as words
from metrics.topn_metrics import top_k_table
from teaching import practice, practice_data
from teaching import quiz_progress as progress_of
from teaching.practice import QUIZ_METRICS, QuizSettings, make_quiz
from ui.controllers import worked_view
from ui.figures import charts
from ui.integer_box import integer_box
from ui.widgets import chart, choice, show_table

_quiz = st.cache_data(max_entries=64, show_spinner=False)(make_quiz)  # same settings, same questions (no words)


def _set(field: str) -> None:
    st.session_state["practice"] = {**st.session_state["practice"], field: st.session_state[f"_quiz_{field}_widget"]}


def _control(widget, label: str, field: str, **kwargs):
    st.session_state[f"_quiz_{field}_widget"] = st.session_state["practice"][field]
    return widget(label, key=f"_quiz_{field}_widget", on_change=_set, args=(field,), **kwargs)


def _new_seed() -> None:
    st.session_state["practice"] = {**st.session_state["practice"], "seed": secrets.randbelow(10_000)}


def settings() -> QuizSettings:
    """The row of the quiz's settings, each synced with ``st.session_state["practice"]``, and New quiz."""
    controls = st.columns([1, 1, 1, 1, 1], vertical_alignment="bottom")
    with controls[0]:
        _control(integer_box, _(words.QUIZ_NUMBER), "seed", min_value=0, max_value=2**32 - 1)
    with controls[1]:
        _control(st.slider, _(words.LIST_LENGTH), "length", min_value=3, max_value=15)
    with controls[2]:
        _control(st.slider, "K", "k", min_value=1, max_value=15)
    with controls[3]:
        _control(st.toggle, _(words.GRADED), "graded")
    with controls[4]:
        st.button(_(words.NEW_QUIZ), on_click=_new_seed, help=_(words.NEW_QUIZ_HELP))
    return progress_of.settings_of(st.session_state["practice"])


def questions_and_progress(settings: QuizSettings) -> tuple[list, dict]:
    """This quiz's questions and how far the reader is (new settings start a new quiz), under its code and score."""
    questions = _quiz(settings)
    progress = progress_of.current(st.session_state.get("_quiz_progress"), settings)
    st.session_state["_quiz_progress"] = progress
    right, asked, _missed = practice.summary(progress["results"])
    st.markdown(words.quiz_code(settings.seed, settings.length, settings.graded, settings.k, right, asked))
    return questions, progress


def _outside(case) -> None:
    outside = quiz_words.outside(case)
    if outside:
        st.caption(outside)


def _show_list(case, title: str, key: str) -> None:
    table = top_k_table(case.recommended, case.ground_truth, case.k)
    st.markdown(words.list_title(title, case.k))
    # One column per rank keeps a 15-item list on one screen of a projector.
    show_table(quiz_words.list_table(table), hide_index=False)
    _outside(case)
    chart(charts.top_k_window(table, case.k), key=key)


def summary(questions: list, progress: dict) -> None:
    """The score, the metrics to practise again, the last list, and Start again."""
    right, asked, missed = practice.summary(progress["results"])
    st.subheader(_(words.FINISHED))
    st.markdown(words.answered(right, asked))
    if missed:
        st.markdown(words.practise_again(missed))
    else:
        st.success(_(words.NO_MISS), icon="🏆")
    st.latex(quiz_words.latex(QUIZ_METRICS["ndcg_at_k"].latex))
    last_list = next((q.case for q in reversed(questions) if q.kind != "data"), None)
    if last_list is not None:
        _show_list(last_list, _(words.LAST_LIST), "quiz_last_list")
    st.button(_(words.AGAIN), on_click=progress_of.restart, args=(progress,))


def question(question, progress: dict, count: int) -> None:
    """The question, its formula and its data: a table, both lists, or the list."""
    st.subheader(words.question_number(progress["index"] + 1, count))
    st.markdown(quiz_words.prompt(question))
    st.latex(quiz_words.question_latex(question))
    if question.kind == "data":
        data = practice_data.data_table(question.case)
        show_table(data, column_config=quiz_words.data_column_labels(data))
    elif question.kind == "compare":
        # One table, a row per rank, so neither list is cut at a half-width column's edge.
        st.markdown(words.both_lists(question.case.k))
        show_table(quiz_words.two_lists_table(question.case, question.other))
        _outside(question.case)
        left, right_column = st.columns(2)
        for column, case, name in ((left, question.case, "a"), (right_column, question.other, "b")):
            with column:
                st.caption(words.list_name(name.upper()))
                chart(charts.top_k_window(top_k_table(case.recommended, case.ground_truth, case.k), case.k),
                      key=f"quiz_list_{name}")
    else:
        _show_list(question.case, _(words.THE_LIST), "quiz_list")


def _check(question, progress: dict) -> None:
    typed = st.session_state.get(progress_of.answer_key(progress))
    typed = "" if typed is None else str(typed)
    progress_of.record(progress, question.label, typed, quiz_words.checked(question, typed))


def answer(question, progress: dict, questions: list) -> None:
    """The answer box and Check (a form: Enter checks too), then Next, then the verdict and its worked solution."""
    answered = progress_of.answered(progress)
    key = progress_of.answer_key(progress)
    with st.form(f"_quiz_form_{progress['round']}_{progress['index']}", border=False, enter_to_submit=True):
        if question.options:
            choice(st.radio, _(words.YOUR_ANSWER), question.options, key, index=None, disabled=answered,
                   format_func={o: quiz_words.option(o) for o in question.options}.__getitem__)
        else:
            st.text_input(_(words.YOUR_ANSWER), key=key, disabled=answered,
                          placeholder=quiz_words.answer_placeholder(question.kind == "k_equal"))
            if question.kind != "k_equal":
                st.caption(f"{quiz_words.answer_rule()} {_(words.PRESS_ENTER)}")
        st.form_submit_button(_(words.CHECK), key="_quiz_check", on_click=_check, args=(question, progress),
                              disabled=answered, type="primary")
    st.button(_(words.SUMMARY) if progress_of.is_last(progress, questions) else _(words.NEXT_QUESTION),
              key="_quiz_next", on_click=progress_of.next_question, args=(progress,), disabled=not answered)
    verdict = progress["verdict"]
    if verdict is not None:
        # The message quotes what was typed: escaped, so it shows as typed.
        shown = quiz_words.verdict_message(verdict, progress.get("typed")) if verdict.code else verdict.message
        (st.success if verdict.correct else st.error)(text.markdown(shown), icon="✅" if verdict.correct else "❌")
        worked_view.show(quiz_words.solutions(question, verdict),
                         f"_quiz_worked_{progress['round']}_{progress['index']}")
