"""Practice: a seeded quiz from random scenarios, and goal challenges checked live on the shared scenario."""

import secrets

import streamlit as st

from teaching import practice, practice_data
from teaching.challenges import CHALLENGE_K, CHALLENGES
from teaching.practice import QUIZ_METRICS, QuizSettings, make_quiz
from metrics.topn_metrics import top_k_table
from content import numbers
from content import practice as quiz_words
from content.i18n import _
from content.pages import practice as words
from ui.controllers import worked_view
from ui.figures import charts
from ui.integer_box import integer_box
from content import text
from ui.scenario import ranking_scenario
from ui.state import ground_truth_table, recommended_table, reset_editor
from ui.widgets import chart, choice, page, show_table

page(_(words.TITLE), "🏋️", _(words.IDEA))


_quiz = st.cache_data(max_entries=64, show_spinner=False)(make_quiz)  # same settings, same questions (no words)


def _settings() -> QuizSettings:
    p = st.session_state["practice"]
    return QuizSettings(seed=p["seed"], length=p["length"], graded=p["graded"], k=min(p["k"], p["length"]))


def _set(field: str) -> None:
    st.session_state["practice"] = {**st.session_state["practice"], field: st.session_state[f"_quiz_{field}_widget"]}


def _control(widget, label: str, field: str, **kwargs):
    st.session_state[f"_quiz_{field}_widget"] = st.session_state["practice"][field]
    return widget(label, key=f"_quiz_{field}_widget", on_change=_set, args=(field,), **kwargs)


def _new_seed() -> None:
    st.session_state["practice"] = {**st.session_state["practice"], "seed": secrets.randbelow(10_000)}


def _progress(settings: QuizSettings) -> dict:
    """This quiz's progress; new settings start a new quiz."""
    progress = st.session_state.get("_quiz_progress")
    if progress is None or progress["settings"] != settings:
        progress = {"settings": settings, "index": 0, "results": [], "verdict": None,
                    "round": (progress or {}).get("round", 0) + 1}
        st.session_state["_quiz_progress"] = progress
    return progress


def _answer_key(progress: dict) -> str:
    """A fresh answer box for every question of every quiz (and every restart)."""
    return f"_quiz_answer_{progress['round']}_{progress['index']}"


def _check(question, progress: dict) -> None:
    typed = st.session_state.get(_answer_key(progress))
    typed = "" if typed is None else str(typed)
    progress["typed"] = typed
    if question.options:
        verdict = practice.check(question, typed)
    else:
        try:
            verdict = practice.check(question, quiz_words.for_the_engine(typed))
        except numbers.NumberError as refused:  # scored neither way: the reader writes it again
            verdict = practice.Verdict(False, numbers.parse_error_message(refused), unreadable=True)
    progress["verdict"] = verdict
    if not verdict.unreadable:  # a typo or no choice is not scored: the learner answers again
        progress["results"].append((question.label, verdict.correct))


def _next(progress: dict) -> None:
    progress["index"] += 1
    progress["verdict"] = None


def _restart(progress: dict) -> None:
    progress.update(index=0, results=[], verdict=None, round=progress["round"] + 1)


def _show_list(case, title: str, key: str) -> None:
    table = top_k_table(case.recommended, case.ground_truth, case.k)
    st.markdown(words.list_title(title, case.k))
    # One column per rank keeps a 15-item list on one screen of a projector.
    show_table(quiz_words.list_table(table), hide_index=False)
    _outside(case)
    chart(charts.top_k_window(table, case.k), key=key)


def _outside(case) -> None:
    outside = quiz_words.outside(case)
    if outside:
        st.caption(outside)


def quiz() -> None:
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
    settings = _settings()
    questions = _quiz(settings)
    progress = _progress(settings)
    right, asked, missed = practice.summary(progress["results"])
    st.markdown(words.quiz_code(settings.seed, settings.length, settings.graded, settings.k, right, asked))

    if progress["index"] >= len(questions):
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
        st.button(_(words.AGAIN), on_click=_restart, args=(progress,))
        return

    question = questions[progress["index"]]
    st.subheader(words.question_number(progress["index"] + 1, len(questions)))
    st.markdown(quiz_words.prompt(question))
    st.latex(quiz_words.latex(question.latex) if question.kind != "k_equal"
             else rf"\mathrm{{P@K}}=\frac{{\text{{{_(words.HITS)}}}_K}}{{K}}\quad "
                  rf"\mathrm{{R@K}}=\frac{{\text{{{_(words.HITS)}}}_K}}{{\lvert\mathrm{{Rel}}\rvert}}")
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

    answered = len(progress["results"]) > progress["index"]
    key = _answer_key(progress)
    # A form: Enter in the answer box checks the answer, as the Check button does.
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
    st.button(_(words.NEXT_QUESTION) if progress["index"] + 1 < len(questions) else _(words.SUMMARY), key="_quiz_next",
              on_click=_next, args=(progress,), disabled=not answered)
    verdict = progress["verdict"]
    if verdict is not None:
        # The message quotes what was typed: escaped, so it shows as typed.
        shown = quiz_words.verdict_message(verdict, progress.get("typed")) if verdict.code else verdict.message
        (st.success if verdict.correct else st.error)(text.markdown(shown),
                                                      icon="✅" if verdict.correct else "❌")
        worked_view.show(quiz_words.solutions(question, verdict), f"_quiz_worked_{progress['round']}_{progress['index']}")


def _start(key: str) -> None:
    challenge = CHALLENGES[key]
    items = [str(i) for i in challenge.recommended]
    st.session_state["recommended"] = recommended_table(items)
    st.session_state["ground_truth"] = ground_truth_table(challenge.ground_truth)
    for name in ("recommended", "ground_truth"):
        reset_editor(name)
    st.session_state["k"] = CHALLENGE_K
    st.session_state["loaded_example"] = None
    st.session_state["practice"] = {**st.session_state["practice"], "challenge": key, "challenge_start": items}


def challenges() -> None:
    st.markdown(_(words.CHALLENGES_INTRO))
    keys = list(CHALLENGES)
    active = st.session_state["practice"]["challenge"]
    chosen = choice(st.radio, _(words.GOAL), keys, "_challenge_choice", format_func={k: quiz_words.challenge_title(k) for k in keys}.__getitem__,
                    index=keys.index(active) if active in keys else 0)
    st.button(_(words.START) if active != chosen else _(words.START_AGAIN), on_click=_start, args=(chosen,), key="_challenge_start")
    if active is None:
        return
    challenge = CHALLENGES[active]
    start = st.session_state["practice"]["challenge_start"] or []
    st.markdown(words.goal(quiz_words.challenge_title(active), text.markdown(_(", ").join(start))))
    case, _tables, results = ranking_scenario(show_gain=False)
    status = challenge.check(start, [str(i) for i in case.recommended], dict(case.ground_truth))
    with results:
        (st.success if status.met else st.info)(quiz_words.status_message(status), icon="🏁" if status.met else "🎯")


st.page_link("pages/20_Write_it_yourself.py", label=_(words.WRITE_IT_YOURSELF), icon="⌨️")
st.header(_(words.QUIZ_HEADER), divider="gray")
quiz()
st.header(_(words.CHALLENGES_HEADER), divider="gray")
challenges()
