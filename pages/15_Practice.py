"""Practice: a seeded quiz from random scenarios, and goal challenges checked live on the shared scenario."""

import secrets

import pandas as pd
import streamlit as st

from metrics import practice, practice_data
from metrics.challenges import CHALLENGE_K, CHALLENGES
from metrics.practice import QUIZ_METRICS, QuizSettings, make_quiz
from metrics.topn_metrics import top_k_table
from ui import charts, text, worked_view
from ui.scenario import ranking_scenario
from ui.state import ground_truth_table, recommended_table, reset_editor
from ui.widgets import choice, page, show_table

page(
    "Practice: quiz and goal challenges", "🏋️",
    "Test yourself. The **quiz** draws random lists from a quiz number: give the class the same number (or the "
    "lesson link in the sidebar) and everyone gets the same questions. The **goal challenges** ask you to "
    "edit a list until a goal is met; they are checked after every edit. The **Hide the answers** switch "
    "in the sidebar turns every other page into an exercise too.",
)


_quiz = st.cache_data(max_entries=64, show_spinner=False)(make_quiz)  # same settings, same questions


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
    verdict = practice.check(question, "" if typed is None else str(typed))
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
    st.markdown(f"**{title}** (best first; K = {case.k})")
    # One column per rank keeps a 15-item list on one screen of a projector.
    across = pd.DataFrame([table["item"].astype(str).tolist(), [f"{g:g}" for g in table["grade"]]],
                          index=["item", "grade"], columns=[f"#{r}" for r in table["rank"]])
    show_table(across, hide_index=False)
    _outside(case)
    st.plotly_chart(charts.top_k_window(table, case.k), key=key)


def _outside(case) -> None:
    outside = [item for item in case.ground_truth if item not in set(case.recommended)]
    if outside:
        st.caption("Relevant but never recommended: " +
                   ", ".join(f"{item} (grade {case.ground_truth[item]:g})" for item in outside))


def quiz() -> None:
    controls = st.columns([1, 1, 1, 1, 1], vertical_alignment="bottom")
    with controls[0]:
        _control(st.number_input, "Quiz number", "seed", min_value=0, max_value=2**32 - 1, step=1)
    with controls[1]:
        _control(st.slider, "List length", "length", min_value=3, max_value=15)
    with controls[2]:
        _control(st.slider, "K", "k", min_value=1, max_value=15)
    with controls[3]:
        _control(st.toggle, "Graded relevance", "graded")
    with controls[4]:
        st.button("🎲 New quiz", on_click=_new_seed, help="A new quiz number, drawn at random.")
    settings = _settings()
    questions = _quiz(settings)
    progress = _progress(settings)
    right, asked, missed = practice.summary(progress["results"])
    st.markdown(f"**Quiz code:** quiz {settings.seed} · {settings.length} items · "
                f"{'graded' if settings.graded else 'binary'} · K = {settings.k}. &nbsp; **Score:** {right} / {asked}")

    if progress["index"] >= len(questions):
        st.subheader("Quiz finished")
        st.markdown(f"You answered **{right} of {asked}** questions right.")
        if missed:
            st.markdown("Metrics to practise again: " + ", ".join(f"**{label}**" for label in missed) +
                        ". Their pages in the sidebar explain each step.")
        else:
            st.success("No metric missed.", icon="🏆")
        st.latex(QUIZ_METRICS["ndcg_at_k"].latex)
        last_list = next((q.case for q in reversed(questions) if q.kind != "data"), None)
        if last_list is not None:
            _show_list(last_list, "The last list of the quiz", "quiz_last_list")
        st.button("Start this quiz again", on_click=_restart, args=(progress,))
        return

    question = questions[progress["index"]]
    st.subheader(f"Question {progress['index'] + 1} of {len(questions)}")
    st.markdown(question.prompt)
    st.latex(question.latex if question.kind != "k_equal"
             else r"\mathrm{P@K}=\frac{\mathrm{hits}_K}{K}\quad \mathrm{R@K}=\frac{\mathrm{hits}_K}{\lvert\mathrm{Rel}\rvert}")
    if question.kind == "data":
        show_table(practice_data.data_table(question.case))
    elif question.kind == "compare":
        # One table, a row per rank, so neither list is cut at a half-width column's edge.
        st.markdown(f"**List A and list B** (best first; K = {question.case.k})")
        show_table(practice.two_lists_table(question.case, question.other))
        _outside(question.case)
        left, right_column = st.columns(2)
        for column, case, name in ((left, question.case, "a"), (right_column, question.other, "b")):
            with column:
                st.caption(f"List {name.upper()}")
                st.plotly_chart(charts.top_k_window(top_k_table(case.recommended, case.ground_truth, case.k), case.k),
                                key=f"quiz_list_{name}")
    else:
        _show_list(question.case, "The list", "quiz_list")

    answered = len(progress["results"]) > progress["index"]
    key = _answer_key(progress)
    # A form: Enter in the answer box checks the answer, as the Check button does.
    with st.form(f"_quiz_form_{progress['round']}_{progress['index']}", border=False, enter_to_submit=True):
        if question.options:
            choice(st.radio, "Your answer", question.options, key, index=None, disabled=answered)
        else:
            st.text_input("Your answer", key=key, disabled=answered,
                          placeholder="a whole number K" if question.kind == "k_equal" else "e.g. 0.643, 0.6429 or 9/14")
            if question.kind != "k_equal":
                st.caption(practice.ANSWER_RULE + " Press Enter or Check.")
        st.form_submit_button("Check", key="_quiz_check", on_click=_check, args=(question, progress),
                              disabled=answered, type="primary")
    st.button("Next question" if progress["index"] + 1 < len(questions) else "See the summary", key="_quiz_next",
              on_click=_next, args=(progress,), disabled=not answered)
    verdict = progress["verdict"]
    if verdict is not None:
        # The message quotes what was typed: escaped, so it shows as typed.
        (st.success if verdict.correct else st.error)(text.markdown(verdict.message),
                                                      icon="✅" if verdict.correct else "❌")
        worked_view.show(verdict.solution, f"_quiz_worked_{progress['round']}_{progress['index']}")


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
    st.markdown("Pick a goal and press **Start**: it loads a starting list into the shared scenario below. "
                "Edit the list until the goal is met. **To swap two items**, type each one's id over the other's "
                "in the Item column; typing a new rank moves an item and shifts the ones in between, which "
                "counts as several swaps.")
    keys = list(CHALLENGES)
    active = st.session_state["practice"]["challenge"]
    chosen = choice(st.radio, "Goal", keys, "_challenge_choice", format_func=lambda k: CHALLENGES[k].title,
                    index=keys.index(active) if active in keys else 0)
    st.button("Start" if active != chosen else "Start again", on_click=_start, args=(chosen,), key="_challenge_start")
    if active is None:
        return
    challenge = CHALLENGES[active]
    start = st.session_state["practice"]["challenge_start"] or []
    st.markdown(f"**Goal:** {challenge.title}. Starting list: {text.markdown(', '.join(start))}.")
    case, _, results = ranking_scenario(show_gain=False)
    status = challenge.check(start, [str(i) for i in case.recommended], dict(case.ground_truth))
    with results:
        (st.success if status.met else st.info)(status.message, icon="🏁" if status.met else "🎯")


st.page_link("pages/20_Write_it_yourself.py", label="Write it yourself: implement a metric from scratch, judged on "
             "hidden cases", icon="⌨️")
st.header("📝 Quiz", divider="gray")
quiz()
st.header("🎯 Goal challenges", divider="gray")
challenges()
