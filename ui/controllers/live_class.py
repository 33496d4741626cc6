"""The Live class page's Streamlit pieces: the teacher's console and the student's phone screen.

All class state is in the database (``classroom.Store``); the session keeps only who this browser
is: the teacher key (teacher) or the student id (student, also in the address bar, see
:func:`student_screen`). Screens poll the room's version once a second in a fragment and rerun the
page only when it changed, so an idle class costs one small SELECT per student a second.
"""

from __future__ import annotations

import time
from urllib.parse import urlencode, urlsplit

import plotly.graph_objects as go
import streamlit as st

from classroom import RoomNotFound, Store, clients, codes, limits
from classroom.engine import database_url
from classroom.export import csv_text
from classroom.limits import JoinThrottled
from classroom.store import AnswersClosed, ClassFull, RoomLocked, TooManyLessons
from classroom import gradebook, variants
from classroom.steps import (FILE, LiveStep, asked_question, file_lesson_key, lesson_of, live_step, playground_lesson,
                             step_count)
from classroom.store import base_question
from classroom.summary import summarize, variant_summary
from classroom.web.screen import own_explanation
from content import classroom as class_texts
from content import i18n, numbers
from content.i18n import _
from content.lessons import BY_KEY, LESSONS
from content.lessons import protocols as protocol_words
from content.pages import live as words
from content.pages import lessons as lesson_words
from content.pages import live_phone
from teaching import practice
from ui.controllers import lessons as engine
from ui.controllers import live_teacher
from ui.controllers.live_teacher import qr_svg
from ui.figures import live_charts
from ui.input import tables
from content import text
from ui.widgets import chart

POLL_SECONDS = 1.0
COUNT_SECONDS = 0.5  # the Answered card while answers come in: the last one shows within about a second
PLAYGROUND_CHOICE = "__playground__"
DEFAULT_PLAYGROUND_METRIC = "ndcg_at_k"
# No Plotly toolbar on a class's screens: on a 390 px phone it covers the chart's right edge, and
# nobody in a class zooms a projected chart (Streamlit's own fullscreen button stays).
CHART_CONFIG = {"displayModeBar": False}
TEACHER = "live_teacher"
ROSTER_PAGE = 50  # students on one page of the console's roster
WHO_SHOWN = 100   # names in "Who answered"; the others are counted
# The homework's console and its box on the landing page (ui/controllers/live_homework.py, which builds on this
# module and fills this in when imported: the page imports it).
HOMEWORK_VIEWS: dict = {}


@st.cache_resource(show_spinner=False)
def store() -> Store:
    """One Store (a connection pool) per process; the state itself is in the database."""
    return Store(database_url())


def page_address() -> str:
    """This page's address without its query (the join link's base)."""
    url = st.context.url or "http://localhost:8501/Live_class"
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


def client_key() -> str:
    """What the limits on joins and wrong codes are keyed on: the client's address (a cookie changes with
    every reload). A client on this machine without a proxy's address is keyed on its session."""
    address = clients.client_address(peer_address(), st.context.headers.get("X-Forwarded-For"))
    if address is not None:
        return address
    return "session:" + st.session_state.setdefault("live_browser", codes.new_student_id())


def peer_address() -> str | None:
    address = st.context.ip_address  # None on loopback (then the proxy's X-Forwarded-For is read)
    return address if isinstance(address, str) else None


# --------------------------------------------------------------------------- drawing a step

@st.cache_resource(max_entries=256, show_spinner=False)
def step_content(lesson: str, index: int, revealed: bool,
                 language: str = i18n.SOURCE) -> list[tuple[str, list, object]]:
    """(caption, cards, figure) of a lesson step, built once per process and language: a whole class
    shows the same step at the same moment, and building a figure is most of a rerun's cost. Never mutated."""
    return [(caption, cards, upright_item_numbers(figure))
            for caption, cards, figure in _step_content(live_step(lesson, index).lesson_step, revealed)]


def _step_content(lesson_step, revealed: bool) -> list[tuple[str, list, object]]:
    if lesson_step.kind == "demonstrate":
        return [("", [], engine.demonstration(lesson_step, "normal")[0].figure)]
    if lesson_step.kind == "predict" and not revealed:
        puzzles = [lesson_step.scenario] + ([lesson_step.question.other] if lesson_step.question.other else [])
        return [((_(words.LIST_A) if n == 0 else _(words.LIST_B)) if len(puzzles) > 1 else "", [],
                 engine.puzzle_figure(scenario))
                for n, scenario in enumerate(puzzles)]
    if lesson_step.kind == "predict":
        question = lesson_step.question
        keys = [question.metric] + ([question.other_metric] if question.other_metric else [])
        return [(caption, _cards(view, keys), view.figure) for caption, view in engine.reveal(lesson_step).shown]
    view = engine.step_view(lesson_step)  # show, explore: the step's locked view at its own scenario
    return [("", _cards(view, lesson_step.focus or list(view.values)), view.figure)]


def upright_item_numbers(figure):
    """Item numbers written inside bars, turned upright: on a 390 px phone ten bars are narrower than
    "103" at 14 px, and Plotly hides text that does not fit (the steps' text names those items)."""
    if figure is None:
        return figure
    turned = go.Figure(figure)
    inside = {"type": "bar", "textposition": "inside"}
    if list(turned.select_traces(selector=inside)):
        turned.update_traces(selector=inside, textangle=-90)
        # Upright, "103" is 14 px wide in a 19 px bar: shown at 14 px, never shrunk, not hidden for Plotly's padding.
        turned.update_layout(uniformtext={"minsize": turned.layout.uniformtext.minsize, "mode": "show"})
    return turned


def draw_step(step: LiveStep, state: str, key: str) -> None:
    """The step as the lessons page draws it, locked; predict steps show the numbers after the reveal."""
    if step.lesson_step is None:
        st.subheader(_(class_texts.PLAYGROUND_TITLE))
        st.markdown(_(class_texts.PLAYGROUND_TEXT))
        _draw_playground(step, state, key)
        return
    st.subheader(_(step.title))  # the lesson's own texts, through the catalogs (the lessons domain)
    st.markdown(_(step.text))
    if engine.data_missing(step.lesson_step):
        st.warning(_(protocol_words.DATA_MISSING), icon="🗄️")
        return
    if engine.needs_data(step.lesson_step):
        with st.spinner(_(protocol_words.PREPARING)):
            engine.prepare(step.lesson_step)
    revealed = state == "revealed"
    for number, (caption, cards, figure) in enumerate(step_content(step.lesson, step.index, revealed, i18n.current())):
        if caption:
            st.markdown(f"**{caption}**")
        for column, (label, value) in zip(st.columns(max(len(cards), 1)), cards, strict=False):
            column.metric(label, value, border=True)
        chart(figure, key=f"{key}_{number}", config=CHART_CONFIG)


def _cards(view, keys) -> list[tuple[str, str]]:
    return [(engine.label(k, view.k), engine.card_text(view.values[k])[0]) for k in keys if k in view.values]


def _draw_playground(step: LiveStep, state: str, key: str) -> None:
    case = step.case
    scenario = {"kind": "ranking", "recommended": case.recommended, "ground_truth": case.ground_truth, "k": case.k,
                "gain": case.gain}
    chart(engine.puzzle_figure(scenario), key=f"{key}_playground", config=CHART_CONFIG)
    grades = text.markdown(_(", ").join(f"{item} ({numbers.general(grade)})"
                                        for item, grade in case.ground_truth.items()))
    st.caption(words.playground_facts(case.k, grades))
    if state == "revealed":
        st.metric(practice.QUIZ_METRICS[step.metric].display_label(case.k), numbers.number(step.exact_value, 4),
                  border=True)


def describe(value: float) -> str:
    """0.6429 (= 9/14) when a small fraction is exact, else the four decimals, in the reader's notation."""
    fraction = practice.as_fraction(value)
    if fraction is not None and fraction.denominator > 1:
        return f"{numbers.number(value, 4)} (= {fraction})"
    return numbers.number(value, 4)


def prompt(step: LiveStep) -> str:
    if step.lesson_step is not None:
        return _(step.prompt) if step.prompt else step.prompt
    return class_texts.playground_prompt(practice.QUIZ_METRICS[step.metric].display_label(step.case.k))


def why(step: LiveStep) -> str | None:
    if step.lesson_step is not None:
        return _(step.why) if step.why else step.why
    return class_texts.playground_why(describe(step.exact_value))


def draw_summary(step: LiveStep, tally: dict[str, int], mine: str | None, key: str, beside=None) -> None:
    """The reveal: the distribution, the share right, and the mistakes by name (the share ``beside`` the
    chart, in that container, when given: the teacher's screen holds both at once)."""
    summary = summarize(step, tally)
    if not summary.answered:
        st.info(_(words.NOBODY_ANSWERED))
        return
    if step.variant is not None:  # each student against their own list: how many right, the room's mistakes
        return
    (beside or st).metric(_(words.RIGHT), words.right_count(summary.right, summary.answered), border=True,
                          help=words.share_right(summary.share_right))
    if step.options:
        chart(live_charts.answers_bars(summary.counts, mine), key=f"{key}_bars", config=CHART_CONFIG)
    else:
        mine_number = practice.parse_answer(mine) if mine and _is_number(mine) else None
        chart(live_charts.answers_histogram(summary.numbers, step.exact_value,
                                                      float(mine_number) if mine_number is not None else None),
                        key=f"{key}_histogram", config=CHART_CONFIG)
    chosen = {o.explanation: o.label for o in step.options}
    for explanation, students in summary.mistakes:
        st.warning(words.chose_mistake(students, text.markdown(class_texts.option_text(chosen[explanation])),
                                       text.markdown(_(explanation)))
                   if step.options else words.used_mistake(students, text.markdown(_(explanation))))


def _is_number(value: str) -> bool:
    try:
        practice.parse_answer(value)
        return True
    except ValueError:
        return False


# --------------------------------------------------------------------------- follow the teacher

def follow(code: str, seen_key: str) -> None:
    """Rerun the whole page when the room's version or state moved; else redraw only the timer, if any."""
    @st.fragment(run_every=POLL_SECONDS)
    def poll() -> None:
        try:
            now = store().current(code)
        except RoomNotFound:
            now = None
        if st.session_state.get(seen_key) != seen(now):
            st.rerun(scope="app")
        if now and now["seconds_left"]:
            st.markdown(f"**{class_texts.seconds_left(now['seconds_left'])}**")
    poll()


def seen(now: dict | None):
    """What a screen was drawn from: the version, and the state (a timer running out locks without a version)."""
    return None if now is None else (now["version"], now["state"])


# --------------------------------------------------------------------------- landing: teach or join

def landing() -> None:
    join_side, teach_side = st.columns(2, gap="large")
    with join_side:
        st.markdown("#### " + _(words.JOIN_HEADING))
        join_form(st.query_params.get("room", ""))
    with teach_side:
        st.markdown("#### " + _(words.TEACH_HEADING))
        st.markdown(_(words.TEACH_TEXT))
        st.text_input(_(class_texts.JOIN_QUESTION), key="live_join_question", max_chars=codes.MAX_NICKNAME,
                      help=_(class_texts.JOIN_QUESTION_HELP))
        st.button(_(words.START), type="primary", key="live_start", on_click=start_class)
        live_teacher.classes_to_resume(store(), resume_class)
        if "creation" in HOMEWORK_VIEWS:
            HOMEWORK_VIEWS["creation"]()


def with_language(params: dict) -> dict:
    """The page's own query parameters plus the reader's language, so the address keeps it."""
    language = st.session_state.get("lang")
    return {**params, "lang": language} if language else dict(params)


def start_class() -> None:
    asked = str(st.session_state.get("live_join_question") or "").strip()
    try:
        room = store().create_room(LESSONS[0].key, join_question=asked or None)
    except ValueError:  # a join question with invisible characters: the class opens without it
        room = store().create_room(LESSONS[0].key)
    step = live_step(LESSONS[0].key, 0)
    store().set_step(room.code, room.teacher_key, step.lesson, 0, step.question_id, step.right_answer)
    st.session_state[TEACHER] = {"code": room.code, "key": room.teacher_key}
    live_teacher.remember(store(), room.code, room.teacher_key)
    st.query_params.from_dict(with_language({"room": room.code}))


def resume_class(code: str) -> None:
    teacher = live_teacher.resume(store(), code)
    if teacher:
        st.session_state[TEACHER] = teacher
        st.query_params.from_dict(with_language({"room": code}))


def join_question(code: str) -> str | None:
    """The class's join question (the gradebook's), for the code in the address or the one typed last."""
    if not codes.normal_code(code or ""):
        return None
    try:
        return store().current(codes.normal_code(code))["join_question"]
    except (RoomNotFound, ValueError):
        return None


def join_form(code: str) -> None:
    asked = join_question(st.session_state.get("live_code") or code)
    with st.form("live_join", border=False):
        typed = st.text_input(_(words.CODE_LABEL), value=code, max_chars=12, key="live_code",
                              placeholder=_(words.CODE_PLACEHOLDER), help=_(words.CODE_HELP))
        # The teacher's own words ("Student number"), shown as text; a typed code's question shows after a try.
        identifier = st.text_input(text.markdown(asked), max_chars=codes.MAX_NICKNAME,
                                   key="live_identifier") if asked else ""
        nickname = st.text_input(_(words.NICKNAME_LABEL), max_chars=codes.MAX_NICKNAME, key="live_nickname")
        submitted = st.form_submit_button(_(words.JOIN), type="primary", key="live_join_submit")
    if not submitted:
        return
    code = codes.normal_code(typed)
    try:  # every rule (limits, cap, look-alike names) is the store's; the page only says what it answered
        student = store().join(code, nickname if nickname.strip() else None, client=client_key(),
                               anonymous=_(words.ANONYMOUS), identifier=identifier if identifier.strip() else None)
    except JoinThrottled as problem:
        st.error(class_texts.join_throttled(problem.reason, problem.seconds))
        return
    except RoomNotFound:
        st.error(words.no_such_class(text.quoted(typed)))
        return
    except RoomLocked:
        st.error(_(class_texts.ROOM_LOCKED))
        return
    except ClassFull as problem:
        st.error(class_texts.class_full(problem.most))
        return
    except ValueError as problem:  # the nickname: taken, too long, invisible characters
        st.error(text.markdown(class_texts.nickname_problem(problem)))
        return
    st.query_params.from_dict(with_language({"room": code, "student": student}))
    st.rerun()


# --------------------------------------------------------------------------- the student's screen

def student_screen(code: str, student_id: str) -> None:
    """The student's screen. The student id lives in the address bar: a reload or a dropped connection
    comes back as the same student (a Streamlit session does not survive a reload)."""
    try:
        me = store().student(code, student_id)
        now = store().current(code)
    except RoomNotFound:
        st.info(_(words.ENDED_FOR_STUDENT))
        st.query_params.from_dict(with_language({}))
        return
    except LookupError:
        st.warning(_(words.NOT_IN_CLASS))
        join_form(code)
        return
    st.session_state["live_seen"] = seen(now)
    follow(code, "live_seen")
    nickname = _(words.HIDDEN_NICKNAME) if me["hidden"] else text.markdown(me["nickname"])
    st.caption(words.student_caption(now["code"], nickname))
    if now["finished"]:
        my_answers_table(code, student_id)
    step = live_step(now["lesson"], now["step"])
    if step is None:
        st.info(_(words.WAITING))
        return
    question_id = asked_question(step, now)
    state = now["state"] if question_id == now["question_id"] else "open"
    if step.variant is not None:  # the step's own list would mislead: each student works on their own (below)
        st.subheader(_(step.title))
        st.markdown(_(step.text))
    else:
        draw_step(step, state, f"live_student_{now['version']}")
    if question_id is not None:
        _student_question(code, student_id, step, state, question_id)


def _student_question(code: str, student_id: str, step: LiveStep, state: str, question_id: str) -> None:
    if step.variant is not None:
        _student_variant(code, student_id, step, state, question_id)
        return
    st.markdown(f"**{text.markdown(prompt(step))}**")
    if state == "open":
        _answer_box(code, student_id, step, question_id)
        return
    mine = store().my_answer(code, student_id, question_id)
    _after_answers(code, step, state, question_id, mine)


@st.fragment
def _answer_box(code: str, student_id: str, step: LiveStep, question_id: str) -> None:
    """Answering reruns only this box, not the page: thirty phones answering at once stay cheap."""
    mine = store().my_answer(code, student_id, question_id)
    widget_key = f"live_answer_{question_id}"
    if step.options:
        labels = [o.label for o in step.options]  # the values stored: the same for every reader
        st.radio(_(words.YOUR_ANSWER), labels,
                 format_func=_labels({label: class_texts.option_text(label) for label in labels}),
                 index=labels.index(mine) if mine in labels else None, horizontal=True, key=widget_key,
                 on_change=_send_choice, args=(code, student_id, question_id, widget_key))
    else:
        with st.form(f"live_number_{question_id}", border=False):
            typed = st.text_input(_(words.YOUR_NUMBER).format(example=numbers.number(0.6429, 4)), value=mine or "",
                                  max_chars=practice.MAX_ANSWER_LENGTH, key=widget_key)
            if step.tolerance is not None:
                st.caption(lesson_words.tolerance(step.tolerance.kind, step.tolerance.amount))
            if st.form_submit_button(_(words.SEND), key=f"live_number_{question_id}_send"):
                try:
                    practice.parse_answer(typed)
                except ValueError:
                    st.error(text.markdown(words.not_a_number(text.quoted(typed.strip()))))
                else:
                    try:
                        store().answer(code, student_id, question_id, typed.strip())
                        mine = typed.strip()
                    except AnswersClosed as problem:
                        st.warning(class_texts.answers_closed(problem.state))
                    except ValueError as problem:
                        st.error(text.markdown(str(problem)))
                    except PermissionError as problem:
                        st.warning(text.markdown(str(problem)))
    if st.session_state.pop("live_late", None) == question_id:  # only this question's own refusal
        st.warning(_(words.LATE))
    elif mine is not None:
        st.success(words.answer_in(text.quoted(class_texts.option_text(mine) if step.options else mine)))


def _after_answers(code: str, step: LiveStep, state: str, question_id: str, mine: str | None) -> None:
    if state == "locked":
        st.info(words.locked_yours(text.quoted(class_texts.option_text(mine) if step.options else mine) if mine
                                   else None))
        return
    right = step.right_answer
    tally = store().distribution(code, question_id)
    verdict = summarize(step, {mine: 1}) if mine else None
    if verdict and verdict.right and not step.options:  # typed within a tolerance: the exact value too
        st.success(lesson_words.number_right(describe(step.exact_value)))
    elif verdict and verdict.right:
        chosen = next((_(o.explanation) for o in step.options if o.label == mine), "")
        st.success(_(words.RIGHT_VERDICT).format(explanation=chosen))
    elif mine is not None:
        chosen = next((_(o.explanation) for o in step.options if o.label == mine), "")
        if not step.options:
            chosen = _number_verdict(mine, step)
        answer = text.markdown(class_texts.option_text(right) if step.options else describe(step.exact_value))
        st.error(_(words.NOT_QUITE).format(explanation=chosen, answer=answer))
    if why(step):
        st.info(why(step))
    st.markdown(text.markdown(class_texts.standing(summarize(step, tally), mine)))
    draw_summary(step, tally, mine, f"live_student_summary_{question_id}")


def _student_variant(code: str, student_id: str, step: LiveStep, state: str, question_id: str) -> None:
    """A question on a list of the student's own (the light view's ``/mine``, on the Streamlit page): the list, the
    answer (typed, or the student's own choices), and after the reveal their verdict and the room's count."""
    now = store().current(code)
    scenario = variants.draw(step.lesson_step, now["seed"], student_id, base_question(question_id))
    mine = store().my_answer(code, student_id, question_id)
    grades = scenario["ground_truth"]
    st.markdown(_(live_phone.YOUR_LIST))
    st.markdown("\n".join(f"{n}. {item}" + (f" ({numbers.general(grades[item])})" if item in grades else "")
                           for n, item in enumerate(scenario["recommended"], 1)))
    st.caption(words.playground_facts(scenario["k"], _(", ").join(
        f"{item} ({numbers.general(grade)})" for item, grade in grades.items())))
    st.caption(_(live_phone.VARIANT_NOTE))
    st.markdown(f"**{text.markdown(prompt(step))}**")
    if state == "open":
        if step.lesson_step.question.kind == "value":
            labels = variants.options(step.lesson_step, scenario)
            widget_key = f"live_answer_{question_id}"
            st.radio(_(live_phone.YOUR_OPTIONS), labels,
                     format_func=_labels({v: numbers.number(float(v), 4) for v in labels}),
                     index=labels.index(mine) if mine in labels else None, horizontal=True, key=widget_key,
                     on_change=_send_choice, args=(code, student_id, question_id, widget_key))
        else:
            _answer_box(code, student_id, step, question_id)
        return
    if state == "locked":
        st.info(words.locked_yours(text.quoted(mine) if mine else None))
        return
    judged = variants.judge(step.lesson_step, scenario, mine)
    answer = numbers.number(judged.value, 4)
    if mine is None:
        st.info(class_texts.standing_none(answer))
    elif judged.right:
        st.success(lesson_words.number_right(answer))
    else:
        explanation = own_explanation(step, scenario, mine, judged.mistake)  # "You chose" an option, as the phone
        st.error(_(words.NOT_QUITE).format(explanation=explanation, answer=answer))
    summary = variant_summary(step, now["seed"], base_question(question_id),
                              store().answers_by_student(code, question_id))
    st.markdown(f"{_(words.RIGHT)}: {words.right_count(summary.right, summary.answered)}")
    if why(step):
        st.info(why(step))


def _number_verdict(mine: str, step: LiveStep) -> str:
    """Why a typed number is not the answer: the mistake that gives it, or too few decimals to tell."""
    if step.tolerance is not None:  # a lesson's typed number: judged to the file's tolerance
        typed = variants.as_number(mine)
        named = next((name for name, value in step.mistakes().items()
                      if typed is not None and variants.accepts(step.tolerance, typed, value)), None)
        return words.what_you_get(text.quoted(mine), _(named)) if named else words.you_typed(text.quoted(mine))
    verdict = practice.check_number(mine, step.exact_value, step.mistakes())
    if verdict.correct:
        return ""
    if verdict.mistake:  # a mistaken convention's name (teaching.practice), through the catalogs
        return words.what_you_get(text.quoted(mine), _(verdict.mistake))
    if verdict.unreadable:
        return words.too_few_decimals(text.quoted(mine), practice.MIN_DECIMALS)
    return words.you_typed(text.quoted(mine))


def _send_choice(code: str, student_id: str, question_id: str, widget_key: str) -> None:
    """A radio's choice. The browser can send a question's radio again after the class moved on (a poll
    that left before the new screen arrived): Streamlit then calls this with the old question's id. An
    unchanged answer is not sent again, and a refusal is remembered for its own question only, so it
    never shows as "too late" under the next question's box."""
    value = st.session_state.get(widget_key)
    if value is None:
        return
    try:
        if store().my_answer(code, student_id, question_id) == value:
            return
        store().answer(code, student_id, question_id, value)
    except PermissionError:
        st.session_state["live_late"] = question_id
    except LookupError:  # the class ended, or the student was removed
        pass


# --------------------------------------------------------------------------- the teacher's console

def teacher_from_link() -> None:
    """An old ?teacher=KEY link: the key leaves the address bar at once and opens nothing (a key in an
    address stays in the history and on a projected screen); the claim link replaced it."""
    code = codes.normal_code(st.query_params.get("room", ""))
    st.query_params.from_dict(with_language({"room": code} if code else {}))
    st.error(_(live_teacher.words.OLD_TEACHER_LINK))


def teacher_screen(present: bool = False) -> None:
    """The console; ``present``: the presenter view for the projector (no controls, no secrets)."""
    teacher = st.session_state[TEACHER]
    code, key = teacher["code"], teacher["key"]
    try:
        now = store().current(code)
    except RoomNotFound:
        del st.session_state[TEACHER]
        st.info(_(words.ENDED_FOR_TEACHER))
        if not present:
            st.button(_(words.START_NEW), key="live_restart", on_click=start_class)
        return
    if now["homework"] and "console" in HOMEWORK_VIEWS:
        HOMEWORK_VIEWS["console"](code, key)
        return
    steps = st.session_state.pop("homework_live_steps", None)  # "Run these live" from a homework's report
    if steps and not present:
        st.info(steps)
    st.session_state["live_teacher_seen"] = seen(now)  # the header's pulse reruns the console when it moves
    base, source = live_teacher.join_base(page_address())
    join_header(code, key, live_teacher.phone_link(base, code, i18n.current()), source)
    if not present:
        join_guard(code, key)
        step_controls(code, key, now)
    step = live_step(now["lesson"], now["step"])
    if step is None:
        st.info(_(words.NOTHING_SHOWN))
    else:
        question_id = asked_question(step, now)
        # The question, its counts, Lock/Reveal and the reveal's chart first: a projector's first screen.
        state = now["state"] if question_id == now["question_id"] else "open"
        if question_id:
            question_panel(code, key, step, state, question_id, controls=not present)
        draw_step(step, state, f"live_teacher_{now['version']}")
    if not present:
        class_tools(code, key, now)
        remote, presenter = st.columns(2)
        with remote:
            live_teacher.remote(store(), code, key, base, st.session_state.get("lang"))
        presenter.link_button(_(live_teacher.words.PRESENTER), help=_(live_teacher.words.PRESENTER_HELP),
                              url=f"{page_address()}?{urlencode(with_language({'room': code, 'view': 'present'}))}")


def join_header(code: str, key: str, join_link: str, source: str) -> None:
    """The join code, its QR code, the link phones open, and how many joined (moving by itself)."""
    # On a phone (the teacher's remote) the controls come first and the join code and QR code go last.
    st.html("<style>@media (max-width: 640px) {[data-testid=stLayoutWrapper]:has(> .st-key-live_join_header) "
            "{order: 1}}</style>")
    head = st.container(key="live_join_header").columns([2.2, 1, 3.2, 1.2], vertical_alignment="center")
    head[0].html(f"<div style='font-size:clamp(32px,4.2vw,60px);font-weight:700;letter-spacing:0.12em;"
                 f"font-family:monospace' data-testid='live-code'>{code}</div>")
    head[1].image(qr_svg(join_link), width=120, alt=_(live_teacher.words.JOIN_QR))
    with head[2]:
        st.code(join_link, language=None, wrap_lines=True)
        live_teacher.address_note(source, page_address())
    with head[3]:
        console_pulse(code, key)


@st.fragment(run_every=POLL_SECONDS)
def console_pulse(code: str, key: str) -> None:
    """The header's poll (besides the answer count and the refused joins): a read of a few aggregates
    (``Store.pulse``) that shows how many joined and reruns the whole console only when the class moved (another
    device of the teacher's, a timer running out). Nothing in it grows with the class."""
    try:
        now = store().pulse(code, key)
    except RoomNotFound:
        now = None
    if st.session_state.get("live_teacher_seen") != seen(now):
        st.rerun(scope="app")
    label = _(class_texts.JOINED_LOCKED) if now["locked"] else _(live_teacher.words.JOINED)
    st.metric(label, numbers.integer(now["joined"]), border=True)
    if now["seconds_left"]:
        st.markdown(f"**{class_texts.seconds_left(now['seconds_left'])}**")


@st.fragment(run_every=POLL_SECONDS)
def join_guard(code: str, key: str) -> None:
    """The joins the class refused lately and why, refreshed every second (not on the projector): a script
    flooding the class shows here at once. Nothing when none was refused."""
    try:
        status = store().join_status(code, key)
    except RoomNotFound:
        return
    lines = class_texts.refused_joins(status["refused"], limits.REFUSED_MINUTES)
    if lines:
        if status["refused"]["address"] and not status["locked"]:
            lines.append(_(class_texts.LOCK_IF_ALL_IN))
        st.warning("  \n".join(lines), icon="🚪")


def file_lessons() -> dict[str, tuple[str, str]]:
    """The lesson files this teacher can run live, by the ``lesson`` string a room keeps (``file:`` and a digest of
    the text): {lesson: (title, text)}. My lessons (this browser's, in the database), the files opened on the lessons
    page in this session, and the operator's folder; the same text from two places is one lesson."""
    found: dict[str, tuple[str, str]] = {}
    sources = [(item["title"], item["text"]) for item in live_teacher.my_lessons(store())]
    sources += list(st.session_state.get("lessons_file_texts", {}).values())
    sources += live_teacher.operator_lessons()
    for title, source in sources:
        found.setdefault(file_lesson_key(source), (title, source))
    return found


def step_controls(code: str, key: str, now: dict) -> None:
    files = file_lessons()
    choices = [lesson.key for lesson in LESSONS] + list(files) + [PLAYGROUND_CHOICE]
    shown_lesson = lesson_of(now["lesson"])
    if shown_lesson is not None and now["lesson"] not in choices:  # a lesson file run from another device
        choices.insert(len(LESSONS), now["lesson"])
        files[now["lesson"]] = (shown_lesson.title, "")
    current = now["lesson"] if now["lesson"] in choices else PLAYGROUND_CHOICE
    st.session_state["live_file_lessons"] = files
    # A rerun can leave the browser before the last run's answer reached it, carrying a box's old value.
    # Each box is keyed by what it shows and its callback ignores the value it was drawn with, so an old
    # box (Streamlit keeps its callback) never reads as the teacher choosing the step it showed.
    lesson_box = f"live_lesson_choice_{current}"
    row = st.columns([3, 3.4, 1, 1], vertical_alignment="bottom")  # the step box holds a whole step title
    labels = {k: _(words.PLAYGROUND_CHOICE) if k == PLAYGROUND_CHOICE
              else f"📄 {_(files[k][0])}" if k in files else f"{BY_KEY[k].icon} {_(BY_KEY[k].title)}" for k in choices}
    row[0].selectbox(_(words.WHAT_THE_CLASS_SEES), choices, index=choices.index(current), key=lesson_box,
                     on_change=_choose_lesson, args=(code, key, lesson_box, current),
                     format_func=_labels(labels))
    problem = st.session_state.pop("live_lesson_problem", None)
    if problem:
        st.error(problem)
    if current == PLAYGROUND_CHOICE:
        # The box shows the metric the students are asked, and choosing another asks it of the same list.
        step = live_step(now["lesson"], now["step"])
        shown = step.metric if step is not None and step.metric else DEFAULT_PLAYGROUND_METRIC
        metrics = list(practice.QUIZ_METRICS)
        metric_box = f"live_metric_{shown}"
        metric_row = st.columns([3, 2], vertical_alignment="bottom")
        metric_row[0].selectbox(_(words.METRIC_TO_PREDICT), metrics, index=metrics.index(shown), key=metric_box,
                                on_change=_choose_metric, args=(code, key, metric_box, shown),
                                format_func=_labels({m: practice.QUIZ_METRICS[m].label for m in metrics}))
        metric_row[1].button(_(words.PUSH_AGAIN), key="live_push", on_click=_push_playground,
                             args=(code, key, shown))
        return
    count = step_count(now["lesson"])
    step_box = f"live_step_choice_{now['lesson']}_{now['step']}"
    row[1].selectbox(_(words.GO_TO_STEP), list(range(1, count + 1)), index=now["step"], key=step_box,
                     on_change=_go_to, args=(code, key, now["lesson"], step_box, now["step"]),
                     format_func=_labels({n: words.step_option(n, _(shown_lesson.steps[n - 1].title))
                                          for n in range(1, count + 1)}))
    row[2].button(_(words.BACK), key="live_back", disabled=now["step"] == 0, on_click=_set, width="stretch",
                  args=(code, key, now["lesson"], now["step"] - 1))
    row[3].button(_(words.NEXT), key="live_next", type="primary", disabled=now["step"] + 1 >= count, width="stretch",
                  on_click=_set, args=(code, key, now["lesson"], now["step"] + 1))


def _labels(labels: dict):
    """A format_func from labels made in this run, in this reader's language (AppTest calls it outside the run)."""
    return lambda value: labels.get(value, str(value))


def _set(code: str, key: str, lesson: str, index: int) -> None:
    step = live_step(lesson, index)
    if step is not None:
        store().set_step(code, key, lesson, index, step.question_id, step.right_answer)


def _go_to(code: str, key: str, lesson: str, step_box: str, shown: int) -> None:
    index = int(st.session_state[step_box]) - 1
    if index != shown:
        _set(code, key, lesson, index)


def _choose_lesson(code: str, key: str, lesson_box: str, shown: str) -> None:
    choice = st.session_state[lesson_box]
    if choice == shown:
        return
    if choice == PLAYGROUND_CHOICE:
        _push_playground(code, key)
    elif choice.startswith(FILE):
        source = st.session_state.get("live_file_lessons", {}).get(choice, ("", ""))[1]
        if source:
            try:
                _set(code, key, store().use_lesson(code, key, source), 0)
            except TooManyLessons as problem:
                st.session_state["live_lesson_problem"] = class_texts.too_many_lessons(problem.most)
            except ValueError as problem:  # a file that no longer reads as a lesson (the loader's problems)
                st.session_state["live_lesson_problem"] = (_(class_texts.LESSON_REFUSED) + " "
                                                           + text.markdown(str(problem)))
    else:
        _set(code, key, choice, 0)


def _push_playground(code: str, key: str, metric: str = DEFAULT_PLAYGROUND_METRIC) -> None:
    from metrics.registry import RankingCase

    items = tables.parse_recommended(st.session_state["recommended"]).columns["recommended"]
    truth = tables.parse_ground_truth(st.session_state["ground_truth"]).columns["ground_truth"]
    case = RankingCase(items, truth, int(st.session_state["k"]), st.session_state["gain"],
                       st.session_state["ap_denominator"])
    _ask(code, key, playground_lesson(case, metric))


def _choose_metric(code: str, key: str, metric_box: str, shown: str) -> None:
    metric = st.session_state[metric_box]
    step = live_step(store().current(code)["lesson"], 0)
    if metric != shown and step is not None and step.case is not None:
        _ask(code, key, playground_lesson(step.case, metric))


def _ask(code: str, key: str, lesson: str) -> None:
    step = live_step(lesson, 0)
    store().set_step(code, key, step.lesson, 0, step.question_id, step.right_answer)


def question_panel(code: str, key: str, step: LiveStep, state: str, question_id: str, controls: bool = True) -> None:
    """Answers so far (refreshed every half second while open, else every second), lock, reveal, reset, the
    timer; the reveal's summary beside them and its rounds (``question_id`` is the round asked: ``topn:2#2``)."""
    @st.fragment(run_every=COUNT_SECONDS if state == "open" else POLL_SECONDS)
    def counts() -> None:
        try:
            counted = store().pulse(code, key, question_id)  # removed students are not counted
        except RoomNotFound:
            return
        st.metric(_(words.ANSWERED), words.joined_count(counted["answered"], counted["joined"]), border=True)
        if controls:  # folded: the console may be on the projector, and names are the teacher's to show
            with st.expander(_(words.WHO_ANSWERED)):
                st.markdown(who_answered(code, key, question_id, counted))

    left, right = st.columns([1, 1.6])
    with left:
        st.markdown(f"**{text.markdown(prompt(step))}**")
        counts()
        if controls:
            buttons = st.columns(3)
            buttons[0].button(_(words.LOCK), key="live_lock", disabled=state != "open", width="stretch",
                              on_click=store().lock, args=(code, key, question_id))
            buttons[1].button(_(words.REVEAL), key="live_reveal", type="primary", disabled=state == "revealed",
                              width="stretch", on_click=store().reveal, args=(code, key, question_id))
            buttons[2].button(_(words.RESET), key="live_reset", width="stretch", on_click=store().reset,
                              args=(code, key, question_id), help=_(words.RESET_HELP))
            if state == "open":
                timer_controls(code, key, question_id)
        if state == "locked":
            st.caption(_(words.LOCKED_CAPTION))
    if state == "revealed" and step.variant is not None:
        with right:
            variant_summary_panel(code, key, step, question_id, beside=left)
    elif state == "revealed":
        with right:
            draw_summary(step, store().tally(code, key, question_id), None,
                         f"live_teacher_summary_{question_id}", beside=left)
        if why(step):
            st.info(why(step))
        if controls:
            compare_rounds(code, key, step, question_id)


def variant_summary_panel(code: str, key: str, step: LiveStep, question_id: str, beside=None) -> None:
    """A variant question's reveal on the projector: how many were right, each against their own list, and the
    named mistakes the room's numbers match (no shared histogram: every student's right value differs)."""
    now = store().current(code)
    summary = variant_summary(step, now["seed"], base_question(question_id),
                              store().answers_by_student(code, question_id, key))
    if not summary.answered:
        st.info(_(words.NOBODY_ANSWERED))
        return
    (beside or st).metric(_(words.RIGHT), words.right_count(summary.right, summary.answered), border=True,
                          help=words.share_right(summary.share_right))
    st.caption(_(live_phone.VARIANT_NOTE))
    for name, students in summary.mistakes:
        st.warning(words.used_mistake(students, text.markdown(_(name))))


def who_answered(code: str, key: str, question_id: str, counted: dict) -> str:
    """The "Who answered" list: the first WHO_SHOWN names, read again only when the pulse says the list changed
    (a new or changed answer, a name hidden or shown, anonymous mode), not every second."""
    changed_when = (code, question_id, counted["answered"], counted["last_answer"], counted["hidden_answered"],
                    counted["anonymous"], i18n.current())
    kept = st.session_state.get("live_who_answered")
    if kept and kept[0] == changed_when:
        return kept[1]
    names = store().who_answered(code, key, question_id, limit=WHO_SHOWN)
    shown = words.who_answered([text.markdown(name) for name in names if name is not None],
                               sum(name is None for name in names), max(counted["answered"] - len(names), 0))
    st.session_state["live_who_answered"] = (changed_when, shown)
    return shown


def timer_controls(code: str, key: str, question_id: str) -> None:
    """Seconds, and a button that starts the timer: the store locks the answers when it runs out."""
    seconds, start = st.columns([1, 1], vertical_alignment="bottom")
    seconds.number_input(_(class_texts.TIMER_SECONDS), min_value=5, max_value=600, value=30, step=5,
                         key=f"live_timer_seconds_{question_id}")
    start.button(_(class_texts.START_TIMER), key=f"live_timer_{question_id}", on_click=_start_timer,
                 args=(code, key, question_id))


def _start_timer(code: str, key: str, question_id: str) -> None:
    try:
        store().start_timer(code, key, question_id, int(st.session_state[f"live_timer_seconds_{question_id}"]))
    except PermissionError:  # locked in the meantime (AnswersClosed)
        pass


def compare_rounds(code: str, key: str, step: LiveStep, question_id: str) -> None:
    """After the reveal: Ask again (a new round), and each round's share right, first to last."""
    st.button(_(class_texts.ASK_AGAIN), key=f"live_again_{question_id}", on_click=store().ask_again,
              args=(code, key, question_id), help=_(class_texts.ASK_AGAIN_HELP))
    rounds = store().rounds(code, key, question_id)
    if len(rounds) < 2:
        return
    seed = store().current(code)["seed"] if step.variant is not None else None
    for asked in rounds:
        summary = summarize(step, asked["tally"]) if step.variant is None else variant_summary(
            step, seed, base_question(asked["question_id"]),
            store().answers_by_student(code, asked["question_id"], key))
        st.markdown(class_texts.round_result(asked["round"], summary.right, summary.answered))


def class_tools(code: str, key: str, now: dict) -> None:
    # Widget keys reach the browser: a student's id (what answers for them) must not, so keys use its digest.
    with st.expander(_(words.CLASS_TOOLS), key="live_tools", on_change="rerun") as tools:
        class_features(code, key, now)
        roster_list(code, key, now["anonymous"], follow_joins=bool(tools.open))
        st.download_button(_(words.DOWNLOAD), lambda: export_csv(code, key),
                           file_name=f"live-class-{code}-{time.strftime('%Y-%m-%d')}.csv", mime="text/csv",
                           key="live_csv", on_click="ignore")
        st.download_button(_(class_texts.GRADEBOOK), lambda: gradebook_csv(code, key, now.get("join_question")),
                           file_name=f"gradebook-{time.strftime('%Y-%m-%d')}.csv", mime="text/csv",
                           key="live_gradebook", on_click="ignore", help=_(class_texts.GRADEBOOK_HELP))
        add_lesson()
        sure = st.checkbox(_(words.END_SURE), key="live_end_sure")
        st.button(_(words.END), key="live_end", disabled=not sure, on_click=_end, args=(code, key))


def gradebook_csv(code: str, key: str, asked: str | None) -> str:
    """This class's marks added to this teacher's gradebook (every class of theirs, joined on the join question),
    as CSV. Without a device cookie (no "My classes"), this class's marks alone."""
    found = class_marks(code, key)
    kept = live_teacher.record_marks(store(), found)
    columns = {name: _(said) for name, said in class_texts.GRADEBOOK_COLUMNS.items()}
    return gradebook.csv_text(kept if kept is not None else found, columns, asked)


def class_marks(code: str, key: str) -> list[gradebook.Mark]:
    """The class's marks for the gradebook, its columns named by step in the teacher's language."""
    def describe(step: LiveStep) -> str:
        return words.step_option(step.index + 1, _(step.title))
    return gradebook.marks(store().export(code, key), code, describe)


def add_lesson() -> None:
    """My lessons, each with a button that forgets it, and a file to add (checked as on the lessons page): the
    lessons join the list above."""
    kept = live_teacher.my_lessons(store())
    if kept:
        st.markdown("**" + _(class_texts.MY_LESSONS) + "**")
        for item in kept:
            name, forget = st.columns([4, 1], vertical_alignment="center")
            name.markdown(f"📄 {text.markdown(_(item['title']))}")
            forget.button(_(class_texts.FORGET_LESSON), key=f"live_forget_lesson_{item['id']}", width="stretch",
                          on_click=live_teacher.forget_lesson, args=(store(), item["id"]))
    upload = st.file_uploader(_(class_texts.ADD_LESSON), type=["toml"], key="live_add_lesson",
                              help=_(class_texts.ADD_LESSON_HELP))
    if upload is None:
        return
    loaded = live_teacher.save_lesson(store(), upload.getvalue().decode("utf-8", errors="replace"))
    if loaded.lesson is None:
        st.error(_(class_texts.LESSON_REFUSED) + "\n\n" + "\n".join(f"- {text.markdown(p.text())}"
                                                                    for p in loaded.problems))
    else:
        st.success(_(class_texts.LESSON_SAVED).format(title=text.markdown(_(loaded.lesson.title))))


def export_csv(code: str, key: str) -> str:
    """Every answer in time order with its step and question in the teacher's language, safe in a spreadsheet."""
    def describe(step: LiveStep) -> tuple[str, str]:
        return words.step_option(step.index + 1, _(step.title)), prompt(step)
    return csv_text(store().export(code, key), describe, class_texts.export_columns())


def class_features(code: str, key: str, now: dict) -> None:
    """Anonymous mode (buttons, not a toggle: a toggle's old value replayed would flip it back), locking the
    class once everyone is in, and the end of the lesson, where each student sees their own answers against
    the right ones."""
    left, middle, right = st.columns(3)
    left.button(_(class_texts.SHOW_NAMES) if now["anonymous"] else _(class_texts.HIDE_NAMES), key="live_anonymous",
                on_click=store().set_anonymous, args=(code, key, not now["anonymous"]), width="stretch")
    # Keyed by what it shows, its value fixed when drawn: an old click replayed cannot flip the lock back.
    locked = store().join_status(code, key)["locked"]
    middle.button(_(class_texts.UNLOCK_ROOM) if locked else _(class_texts.LOCK_ROOM), key=f"live_lock_room_{locked}",
                  on_click=store().lock_room, args=(code, key, not locked), help=_(class_texts.LOCK_ROOM_HELP),
                  width="stretch")
    right.button(_(class_texts.FINISH), key="live_finish", disabled=now["finished"], on_click=store().finish,
                 args=(code, key), help=_(class_texts.FINISH_HELP), width="stretch")


def my_answers_table(code: str, student_id: str) -> None:
    """The end of the lesson on a student's phone: each question, their answer, the right one (one line
    each, not a table: a 390 px phone cuts a table's last columns)."""
    st.markdown("#### " + _(class_texts.YOUR_ANSWERS))
    shown_any = False
    for mine in store().my_answers(code, student_id):
        step = live_step(mine["lesson"], mine["step"]) if mine["lesson"] else None
        if step is None or step.prompt is None:
            continue
        def shown(value):
            return class_texts.option_text(value) if step.options else value
        right = (shown(mine["right_answer"]) if step.options else describe(step.exact_value)) \
            if mine["right_answer"] is not None else None
        st.markdown(f"**{text.markdown(prompt(step))}**  \n" + class_texts.own_answer(
            text.quoted(shown(mine["answer"])) if mine["answer"] is not None else None,
            text.markdown(right) if right is not None else None, mine["right"]))
        shown_any = True
    if not shown_any:
        st.caption(_(class_texts.NO_ANSWERS))


def roster_row(code: str, key: str, row, anonymous: bool = False) -> None:
    """One student: the nickname (hidden, or every one in anonymous mode), Hide/Show, Remove (keeping the
    answers if the box says so)."""
    tag = codes.digest(row.student_id)[:16]
    name, hide, remove = st.columns([4, 1, 1], vertical_alignment="center")
    name.markdown(_(words.HIDDEN) if row.hidden or anonymous else text.markdown(row.nickname))
    hide.button(_(words.SHOW) if row.hidden else _(words.HIDE), key=f"live_hide_{tag}", on_click=store().hide,
                args=(code, key, row.student_id, not row.hidden))
    remove.button(_(class_texts.REMOVE), key=f"live_remove_{tag}", on_click=_remove, args=(code, key, row.student_id))


def _remove(code: str, key: str, student_id: str) -> None:
    store().remove(code, key, student_id, keep_answers=bool(st.session_state.get("live_keep_answers")))


def roster_list(code: str, key: str, anonymous: bool, follow_joins: bool = False) -> None:
    """Who joined, ROSTER_PAGE at a time in the order they joined, with a search box: a class of 1,000 draws
    one page. While the tools are open (``follow_joins``) it follows joins every second by itself; folded, it
    is drawn with the console and nothing polls it."""
    @st.fragment(run_every=POLL_SECONDS if follow_joins else None)
    def roster() -> None:
        search = st.text_input(_(words.FIND_STUDENT), key="live_roster_search", max_chars=codes.MAX_NICKNAME,
                               on_change=_roster_to, args=(0,))
        first = max(int(st.session_state.get("live_roster_first", 0)), 0)
        try:
            page, total = store().roster_page(code, key, search, first, ROSTER_PAGE)
            if page.empty and first:  # students left, or the search narrowed: back to the last page
                first = (max(total - 1, 0) // ROSTER_PAGE) * ROSTER_PAGE
                page, total = store().roster_page(code, key, search, first, ROSTER_PAGE)
        except RoomNotFound:
            return
        if not total:
            st.caption(_(words.NO_NICKNAME_MATCHES) if search.strip() else _(words.NOBODY_YET))
            return
        st.checkbox(_(class_texts.KEEP_ANSWERS), key="live_keep_answers", help=_(class_texts.KEEP_ANSWERS_HELP))
        st.caption(words.roster_range(first + 1, first + len(page), total))
        for row in page.itertuples():
            roster_row(code, key, row, anonymous)
        if total > ROSTER_PAGE:
            earlier, later = st.columns(2)
            earlier.button(_(words.EARLIER_PAGE), key="live_roster_earlier", disabled=first == 0, width="stretch",
                           on_click=_roster_to, args=(max(first - ROSTER_PAGE, 0),))
            later.button(_(words.LATER_PAGE), key="live_roster_later", disabled=first + ROSTER_PAGE >= total,
                         width="stretch", on_click=_roster_to, args=(first + ROSTER_PAGE,))
    roster()


def _roster_to(first: int) -> None:
    st.session_state["live_roster_first"] = first


def _end(code: str, key: str) -> None:
    # The class's marks go to this teacher's gradebook first: ending deletes every answer of the class.
    try:
        live_teacher.record_marks(store(), class_marks(code, key))
    except RoomNotFound:
        pass
    store().end_room(code, key)
    st.session_state.pop(TEACHER, None)
    st.session_state["live_ended"] = True
    st.query_params.from_dict(with_language({}))


def teaching() -> bool:
    """Whether this browser is the teacher of the class in its address (or of the session's class): a
    reload, a new window, a restart or the phone (a device cookie, see live_teacher) brings it back."""
    code = codes.normal_code(st.query_params.get("room", ""))
    if code and st.session_state.get(TEACHER, {}).get("code") != code:
        teacher = live_teacher.resume(store(), code)
        if teacher:
            st.session_state[TEACHER] = teacher
    return TEACHER in st.session_state


def intro() -> str:
    """The page's idea for a newcomer; the console and the presenter view give its room to the class."""
    return "" if teaching() else _(words.INTRO)


def main() -> None:
    params = st.query_params
    if "teacher" in params:
        teacher_from_link()
    live_teacher.claim_result()
    if st.session_state.pop("live_ended", False):
        st.success(_(words.ENDED))
    if teaching():
        teacher_screen(present=params.get("view") == "present")
    elif params.get("room") and params.get("student"):
        student_screen(codes.normal_code(params["room"]), params["student"])
    else:
        landing()
