"""The teacher's side of a homework on the Live class page: giving a lesson as homework with a deadline (UTC), its
link and QR code, moving or closing the deadline, the report (most-missed questions first, the answers by student),
"Run these live" and the gradebook. The students' side is ``classroom/web/homework.py``; the state is
``classroom/homework.py``. A homework's console is the live console's session entry (``live_class.TEACHER``), so a
reload and *My classes* bring it back as they bring a class back.
"""

from __future__ import annotations

import datetime
import time
from urllib.parse import urlsplit

import pandas as pd
import streamlit as st

from classroom import RoomNotFound, homework
from classroom.steps import lesson_of, live_step
from classroom.web.homework import deadline_text, homework_path
from content import classroom as class_texts
from content import i18n
from content.i18n import _
from content.lessons import BY_KEY, LESSONS
from content.pages import live as words
from content import text
from ui.controllers import live_class, live_teacher

DEFAULT_DAYS = 7
REPORT_SECONDS = 10  # while a homework is open its report re-reads itself this often: new students, new answers


def _utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


def _closes_at(day: datetime.date, moment: datetime.time) -> float:
    return datetime.datetime.combine(day, moment, tzinfo=datetime.timezone.utc).timestamp()


def deadline_inputs(prefix: str, default: datetime.datetime) -> None:
    """A date and a time, both in UTC, said so in their labels and in a caption."""
    day, moment = st.columns(2)
    day.date_input(_(class_texts.HOMEWORK_DATE), value=default.date(), key=f"{prefix}_date",
                   min_value=_utc_now().date())
    moment.time_input(_(class_texts.HOMEWORK_TIME), value=default.time().replace(second=0, microsecond=0),
                      key=f"{prefix}_time", step=datetime.timedelta(minutes=15))
    st.caption(_(class_texts.HOMEWORK_UTC))


def creation() -> None:
    """The landing page's homework box: a lesson, a deadline, and the button (the join question is the class's)."""
    with st.expander("📝 " + _(class_texts.HOMEWORK), key="homework_box"):
        st.markdown(_(class_texts.HOMEWORK_TEXT))
        files = live_class.file_lessons()
        choices = [lesson.key for lesson in LESSONS] + list(files)
        labels = {k: f"📄 {_(files[k][0])}" if k in files else f"{BY_KEY[k].icon} {_(BY_KEY[k].title)}"
                  for k in choices}
        st.session_state["homework_files"] = files
        st.selectbox(_(class_texts.HOMEWORK_LESSON), choices, key="homework_lesson",
                     format_func=live_class._labels(labels))
        default = (_utc_now() + datetime.timedelta(days=DEFAULT_DAYS)).replace(hour=23, minute=45)
        deadline_inputs("homework_new", default)
        problem = st.session_state.pop("homework_problem", None)
        if problem:
            st.error(problem)
        st.button(_(class_texts.HOMEWORK_START), key="homework_start", type="primary", on_click=start)


def start() -> None:
    state = st.session_state
    choice = state.get("homework_lesson") or LESSONS[0].key
    source = state.get("homework_files", {}).get(choice, ("", None))[1] if choice not in BY_KEY else None
    asked = str(state.get("live_join_question") or "").strip() or None
    try:
        closes_at = _closes_at(state["homework_new_date"], state["homework_new_time"])
        try:
            room = homework.create(live_class.store(), None if source else choice, closes_at, lesson_text=source,
                                   join_question=asked)
        except ValueError as problem:
            if "deadline" in str(problem) or asked is None:
                raise
            room = homework.create(live_class.store(), None if source else choice, closes_at, lesson_text=source)
    except ValueError:
        state["homework_problem"] = _(class_texts.HOMEWORK_PAST)
        return
    state[live_class.TEACHER] = {"code": room.code, "key": room.teacher_key}
    live_teacher.remember(live_class.store(), room.code, room.teacher_key)
    st.query_params.from_dict(live_class.with_language({"room": room.code}))


def link(base: str, code: str) -> str:
    parts = urlsplit(base)
    prefix = parts.path.rsplit("/", 1)[0]
    return f"{parts.scheme}://{parts.netloc}{prefix}{homework_path(code, i18n.current())}"


def console(code: str, key: str) -> None:
    """A homework's console: the link and QR code, the deadline, the report and its tools."""
    store = live_class.store()
    try:
        found = homework.report(store, code, key)
    except RoomNotFound:
        del st.session_state[live_class.TEACHER]
        st.info(_(words.ENDED_FOR_TEACHER))
        return
    lesson = lesson_of(found["lesson"])
    st.markdown(f"### 📝 {_(class_texts.HOMEWORK)} · {text.markdown(_(lesson.title))}")
    base, source = live_teacher.join_base(live_class.page_address())
    address = link(base, code)
    head = st.columns([2.2, 1, 4.4], vertical_alignment="center")
    head[0].html(f"<div style='font-size:clamp(32px,4.2vw,60px);font-weight:700;letter-spacing:0.12em;"
                 f"font-family:monospace' data-testid='live-code'>{code}</div>")
    head[1].image(live_teacher.qr_svg(address), width=120, alt=_(live_teacher.words.JOIN_QR))
    with head[2]:
        st.code(address, language=None, wrap_lines=True)
        live_teacher.address_note(source, live_class.page_address())
    follow_report(code, key, found)
    report_tools(code, key, found)
    deadline_tools(code, key, found)
    end_tools(code, key)


def follow_report(code: str, key: str, found: dict) -> None:
    """How many students and the report, re-read every ``REPORT_SECONDS`` while the homework is open (a fragment:
    only this part reruns, one report query, nothing else of the page); closed, it is drawn once. When what the rest
    of the console shows moves (the deadline passed, the class ended, a first question missed: Run these live), the
    whole page reruns once."""
    first = {"found": found}  # this run's report; a rerun of the fragment alone reads it again

    @st.fragment(run_every=None if found["closed"] else REPORT_SECONDS)
    def follow() -> None:
        try:
            now = first.pop("found", None) or homework.report(live_class.store(), code, key)
        except RoomNotFound:
            st.rerun(scope="app")
        if (now["closed"], _missed(now)) != (found["closed"], _missed(found)):
            st.rerun(scope="app")
        st.markdown(class_texts.homework_status(deadline_text(now["closes_at"]), now["closed"], len(now["students"])))
        report(code, key, now)
        if not now["closed"]:
            st.caption(class_texts.report_follows(REPORT_SECONDS))
    follow()


def _missed(found: dict) -> bool:
    return any(q["missed"] > 0 for q in found["questions"])


def deadline_tools(code: str, key: str, found: dict) -> None:
    with st.expander(_(class_texts.HOMEWORK_EXTEND), key="homework_deadline"):
        shown = datetime.datetime.fromtimestamp(max(found["closes_at"], time.time() + 3600), datetime.timezone.utc)
        deadline_inputs("homework_move", shown)
        problem = st.session_state.pop("homework_move_problem", None)
        if problem:
            st.error(problem)
        st.button(_(class_texts.HOMEWORK_EXTEND), key="homework_move", on_click=_move, args=(code, key))
        if not found["closed"]:
            sure = st.checkbox(_(class_texts.HOMEWORK_CLOSE_SURE), key="homework_close_sure")
            st.button(_(class_texts.HOMEWORK_CLOSE), key="homework_close", disabled=not sure,
                      on_click=homework.close, args=(live_class.store(), code, key))


def _move(code: str, key: str) -> None:
    state = st.session_state
    try:
        homework.set_deadline(live_class.store(), code, key,
                              _closes_at(state["homework_move_date"], state["homework_move_time"]))
    except ValueError:
        state["homework_move_problem"] = _(class_texts.HOMEWORK_PAST)


def _title(lesson: str, step: int) -> str:
    found = live_step(lesson, step)
    return words.step_option(step + 1, _(found.title)) if found is not None else str(step + 1)


def report(code: str, key: str, found: dict) -> None:
    """The questions most missed first, and the answers by student."""
    st.markdown("#### " + _(class_texts.HOMEWORK_REPORT))
    columns = {name: _(said) for name, said in class_texts.HOMEWORK_COLUMNS.items()}
    if not found["students"]:
        st.info(_(class_texts.HOMEWORK_NO_STUDENTS))
    st.markdown("**" + _(class_texts.HOMEWORK_MOST_MISSED) + "**")
    questions = pd.DataFrame({
        columns["question"]: [_title(found["lesson"], q["step"]) for q in found["questions"]],
        columns["answered"]: [q["answered"] for q in found["questions"]],
        columns["right"]: [q["right"] for q in found["questions"]],
        columns["missed"]: [q["missed"] for q in found["questions"]]})
    st.dataframe(questions, hide_index=True, key="homework_questions")
    if found["students"]:
        st.markdown("**" + _(class_texts.HOMEWORK_BY_STUDENT) + "**")
        order = sorted(found["questions"], key=lambda q: q["step"])
        # The join question heads its answers' column, in the teacher's own words, as in the gradebook.
        titles = {columns["student"], columns["step"], *(_title(found["lesson"], q["step"]) for q in order)}
        asked = _asked(code)
        heading = asked if asked and asked not in titles else _(class_texts.GRADEBOOK_COLUMNS["identifier"])
        rows = []
        for person in found["students"]:
            row = {columns["student"]: person["nickname"], columns["step"]: person["step"] + 1}
            if person["identifier"]:
                row = {heading: person["identifier"], **row}
            for q in order:
                given = person["answers"].get(q["question_id"])
                row[_title(found["lesson"], q["step"])] = "" if given is None else (
                    f"{'✓' if given[1] else '✗'} {given[0]}")
            rows.append(row)
        st.dataframe(pd.DataFrame(rows), hide_index=True, key="homework_students")


def report_tools(code: str, key: str, found: dict) -> None:
    """Run these live and the gradebook: each reads the homework when pressed, not the report drawn earlier."""
    missed = _missed(found)
    left, right = st.columns(2)
    left.button(_(class_texts.RUN_LIVE), key="homework_run_live", disabled=not missed,
                help=_(class_texts.RUN_LIVE_HELP), on_click=_run_live, args=(code, key), width="stretch")
    right.download_button(_(class_texts.GRADEBOOK), lambda: live_class.gradebook_csv(code, key, _asked(code)),
                          file_name=f"gradebook-{time.strftime('%Y-%m-%d')}.csv", mime="text/csv",
                          key="homework_gradebook", on_click="ignore", help=_(class_texts.GRADEBOOK_HELP),
                          width="stretch")
    if not missed:
        st.caption(_(class_texts.NOTHING_MISSED))


def end_tools(code: str, key: str) -> None:
    sure = st.checkbox(_(words.END_SURE), key="homework_end_sure")
    st.button(_(words.END), key="homework_end", disabled=not sure, on_click=live_class._end, args=(code, key))


def _asked(code: str) -> str | None:
    return homework.info(live_class.store(), code)["join_question"]


def _run_live(code: str, key: str) -> None:
    store = live_class.store()
    questions = homework.report(store, code, key)["questions"]  # as they are now: the report on screen follows them
    room, steps = homework.run_live(store, code, key, questions, join_question=_asked(code))
    lesson = store.current(room.code)["lesson"]
    st.session_state[live_class.TEACHER] = {"code": room.code, "key": room.teacher_key}
    live_teacher.remember(store, room.code, room.teacher_key)
    st.session_state["homework_live_steps"] = _(class_texts.RUN_LIVE_STEPS).format(
        steps=_(", ").join(_title(lesson, s) for s in steps))
    st.query_params.from_dict(live_class.with_language({"room": room.code}))


live_class.HOMEWORK_VIEWS.update(creation=creation, console=console)
