"""The Live class page in AppTest: one teacher session and several student sessions on one database."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT, texts
from classroom.steps import live_step
from content.lessons import LESSONS
from ui.controllers import live_class

PAGE = "pages/19_Live_class.py"

FIRST_LESSON_BOX = f"live_lesson_choice_{LESSONS[0].key}"  # the lesson box, keyed by what it shows


@pytest.fixture(autouse=True)
def live_database(tmp_path, monkeypatch):
    monkeypatch.setenv("RECEVAL_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("RECEVAL_CLASSROOM_URL", raising=False)
    live_class.store.clear()
    yield
    live_class.store.clear()


def opened(query_params: dict | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.switch_page(PAGE)
    for name, value in (query_params or {}).items():
        at.query_params[name] = value
    return ran(at)


def ran(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def teacher() -> tuple[AppTest, str, str]:
    at = opened()
    at.button(key="live_start").click()
    ran(at)
    state = at.session_state[live_class.TEACHER]
    return at, state["code"], state["key"]


def student(code: str, nickname: str) -> AppTest:
    at = opened({"room": code})
    at.text_input(key="live_nickname").input(nickname)
    at.button(key="live_join_submit").click()
    return ran(at)


def everything_sent(at: AppTest) -> str:
    """Every element the session drew, as text: what a browser of this session could read."""
    return "\n".join(str(node.proto) for node in at._tree.children.values() for node in _walk(node))


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def go_to_predict_step(at: AppTest) -> AppTest:
    """Teacher: Next twice, to the Recall@10 prediction (step 3 of the first lesson)."""
    at.button(key="live_next").click()
    ran(at)
    at.button(key="live_next").click()
    return ran(at)


def test_the_teacher_sees_a_join_code_qr_code_and_join_link():
    at, code, _ = teacher()
    assert any(code in str(h.proto) for h in at.get("html"))
    assert any("<svg" in str(i.proto) for i in at.get("imgs")) or "svg" in everything_sent(at)
    assert any(c.value.endswith(f"/class/{code}?lang=en") for c in at.code)  # the phones' light view


def test_a_class_through_a_predict_step_with_three_students():
    at, code, key = teacher()
    students = [student(code, name) for name in ("Ann", "**Bob** <b>x</b>", "")]
    for screen in students:
        assert "A recommender returned ten items" in texts(screen)
    go_to_predict_step(at)
    for screen in students:
        ran(screen)  # the poll's rerun
        assert "What is Recall@10?" in texts(screen)
    question = "live_answer_topn:2"
    students[0].radio(key=question).set_value("0.75")
    ran(students[0])
    students[1].radio(key=question).set_value("0.3")
    ran(students[1])
    students[2].radio(key=question).set_value("0.3")
    ran(students[2])
    students[2].radio(key=question).set_value("0.75")  # changed before the lock: the last one counts
    ran(students[2])
    ran(at)
    assert at.metric[-1].value == "3 of 3" or any(m.value == "3 of 3" for m in at.metric)
    at.button(key="live_reveal").click()
    ran(at)
    assert any(m.label == "Right" and m.value == "2 of 3" for m in at.metric)
    assert "That is Precision@10" in texts(at)  # the mistake, named
    for screen, right in zip(students, (True, False, True), strict=True):
        ran(screen)
        shown = texts(screen)
        assert ("Right." in shown) is right and ("Not quite." in shown) is (not right)
        assert "2 of 3 students got it right" in shown
    assert "**Bob** <b>x</b>" in texts(at)  # the roster shows the nickname literally


def test_a_student_after_the_lock_cannot_answer_and_sees_why():
    at, code, _ = teacher()
    ann = student(code, "Ann")
    go_to_predict_step(at)
    ran(ann)
    at.button(key="live_lock").click()
    ran(at)
    ran(ann)
    assert "The teacher locked the answers" in texts(ann)
    assert not [r for r in ann.radio if r.key == "live_answer_topn:2"]


def test_a_reload_comes_back_as_the_same_student_with_the_answer():
    at, code, _ = teacher()
    ann = student(code, "Ann")
    go_to_predict_step(at)
    ran(ann)
    ann.radio(key="live_answer_topn:2").set_value("0.75")
    ran(ann)
    student_id = ann.query_params["student"]
    student_id = student_id[0] if isinstance(student_id, list) else student_id
    reloaded = opened({"room": code, "student": student_id})
    assert "you are Ann" in texts(reloaded)
    assert reloaded.radio(key="live_answer_topn:2").value == "0.75"


def test_the_teacher_key_never_reaches_a_student():
    at, code, key = teacher()
    ann = student(code, "Ann")
    go_to_predict_step(at)
    at.button(key="live_reveal").click()
    ran(at)
    ran(ann)
    assert "you are Ann" in everything_sent(ann) and code in everything_sent(ann)  # the walk sees the page
    assert key not in everything_sent(ann)
    assert key not in str(ann.query_params)
    assert "teacher" not in ann.query_params


def test_a_wrong_code_says_so_and_many_are_slowed_down():
    at = opened({"room": "AAAAAA"})
    for attempt in range(7):
        at.text_input(key="live_code").input(f"AAAA{attempt}A")
        at.text_input(key="live_nickname").input("Eve")
        at.button(key="live_join_submit").click()
        ran(at)
    assert "Too many wrong class codes" in texts(at)


def test_a_taken_nickname_is_refused_and_kept_in_the_box():
    _, code, _ = teacher()
    student(code, "Ann")
    again = student(code, "Ann")
    assert "cannot be used in this class" in texts(again) and "Ann" not in texts(again).replace("you are Ann", "")
    assert again.text_input(key="live_nickname").value == "Ann"


def test_hiding_a_nickname_and_ending_the_class():
    at, code, _ = teacher()
    ann = student(code, "rude name")
    ran(at)
    hide = next(b for b in at.button if b.key and b.key.startswith("live_hide_"))
    student_id = ann.query_params["student"]
    assert (student_id[0] if isinstance(student_id, list) else student_id) not in everything_sent(at)
    hide.click()
    ran(at)
    assert "rude name" not in texts(at)
    ran(ann)
    assert "hidden by the teacher" in texts(ann)
    at.checkbox(key="live_end_sure").check()
    ran(at)
    at.button(key="live_end").click()
    ran(at)
    assert "The class has ended" in texts(at)
    ran(ann)
    assert "This class has ended" in texts(ann)


def test_the_playground_scenario_with_a_typed_number():
    at, code, _ = teacher()
    ann, bob = student(code, "Ann"), student(code, "Bob")
    at.selectbox(key=FIRST_LESSON_BOX).set_value(live_class.PLAYGROUND_CHOICE)
    ran(at)
    now = live_class.store().current(code)
    step = live_step(now["lesson"], 0)
    off_by_one = next(v for name, v in step.mistakes().items() if name.startswith("ranks counted from 0"))
    assert step.metric == "ndcg_at_k" and abs(step.exact_value - off_by_one) > 1e-3
    for screen, typed in ((ann, f"{step.exact_value:.4f}"), (bob, f"{off_by_one:.4f}")):
        ran(screen)
        box = next(t for t in screen.text_input if t.key and t.key.startswith("live_answer_playground"))
        box.input(typed)
        next(b for b in screen.button if b.key and "live_number_playground" in b.key).click()
        ran(screen)
    at.button(key="live_reveal").click()
    ran(at)
    assert any(m.label == "Right" and m.value == "1 of 2" for m in at.metric)
    assert "ranks counted from 0 in the discount" in texts(at)
    ran(bob)
    assert "Not quite." in texts(bob)



def test_a_step_box_the_browser_had_not_yet_redrawn_does_not_move_the_class_back():
    """On a busy server a rerun (the poll's, a second click) can leave the browser before the last run's
    answer arrived, carrying the step box's old value: that is not the teacher choosing the old step."""
    at, code, _ = teacher()
    at.button(key="live_next").click()
    ran(at)  # step 2
    before_next = at._tree.get_widget_states()  # what the browser holds while "Next" is still on its way
    at.button(key="live_next").click()
    ran(at)  # step 3
    at._run(widget_state=before_next)
    assert not at.exception, [e.value for e in at.exception]
    assert live_class.store().current(code)["step"] == 2
    assert "What is Recall@10?" in texts(at)


def test_the_step_box_and_the_lesson_box_still_move_the_class_and_an_old_lesson_box_does_not_undo_it():
    at, code, _ = teacher()
    at.selectbox(key=f"live_step_choice_{LESSONS[0].key}_0").set_value(4)
    ran(at)
    assert live_class.store().current(code)["step"] == 3
    before = at._tree.get_widget_states()
    at.selectbox(key=FIRST_LESSON_BOX).set_value(LESSONS[1].key)
    ran(at)
    assert (live_class.store().current(code)["lesson"], live_class.store().current(code)["step"]) == (LESSONS[1].key, 0)
    at._run(widget_state=before)
    assert (live_class.store().current(code)["lesson"], live_class.store().current(code)["step"]) == (LESSONS[1].key, 0)


def test_an_old_answer_replayed_after_the_class_moved_on_is_not_called_late_on_the_next_question():
    """Issue 32 item 4: the browser's poll can carry the last question's radio (its old value) after the
    reveal; Streamlit then fires that radio's callback, the store refuses the revealed question, and the
    refusal used to surface as "locked just before your choice" on the next, unanswered question."""
    at, code, _ = teacher()
    ann = student(code, "Ann")
    go_to_predict_step(at)
    ran(ann)
    ann.radio(key="live_answer_topn:2").set_value("0.75")
    ran(ann)
    still_in_the_browser = ann._tree.get_widget_states()
    at.button(key="live_reveal").click()
    ran(at)
    ran(ann)
    for _click in range(2):  # Next twice: to the next question (HR@K for a shorter window)
        at.button(key="live_next").click()
        ran(at)
    ann._run(widget_state=still_in_the_browser)
    assert not ann.exception, [e.value for e in ann.exception]
    assert "shorter window" in texts(ann) or "HR@" in texts(ann)
    assert "locked the answers just before" not in texts(ann)
    assert live_class.store().my_answer(code, ann.query_params["student"][0] if isinstance(
        ann.query_params["student"], list) else ann.query_params["student"], "topn:2") == "0.75"


def test_wrong_codes_spread_over_reloads_are_counted_against_the_address(monkeypatch):
    """Issue 32 item 9: the limit was keyed on the XSRF cookie, new on every load, so seven wrong codes over
    seven reloads were seven first tries. Each reload here is a new session from one address."""
    monkeypatch.setattr(live_class, "peer_address", lambda: "203.0.113.50")
    monkeypatch.setattr(live_class.store(), "clock", lambda: 1_000_000.0)  # a slow machine's reloads take seconds
    shown = []
    for attempt in range(7):
        at = opened({"room": "AAAAAA"})
        at.text_input(key="live_code").input(f"AAAA{attempt}A")
        at.text_input(key="live_nickname").input("Eve")
        at.button(key="live_join_submit").click()
        shown.append(texts(ran(at)))
    assert all("No class has the code" in page for page in shown[:5])
    assert all("Too many wrong class codes from this address: wait" in page for page in shown[5:])
    assert not any("wait 0 s" in page for page in shown)


def test_a_look_alike_nickname_is_refused_on_the_page():
    _, code, _ = teacher()
    student(code, "Ann")
    for look_alike in ("Ann ", "ANN", "Ann\u200d"):
        again = student(code, look_alike)
        assert "live_answer" not in str(again.query_params) and "student" not in again.query_params
        assert again.error, look_alike


def test_the_teacher_removes_a_student_who_then_leaves_the_count():
    at, code, _ = teacher()
    ann, bob = student(code, "Ann"), student(code, "rude name")
    go_to_predict_step(at)
    for screen in (ann, bob):
        ran(screen)
        screen.radio(key="live_answer_topn:2").set_value("0.75")
        ran(screen)
    ran(at)
    assert any(m.value == "2 of 2" for m in at.metric)
    remove = [b for b in at.button if b.key and b.key.startswith("live_remove_")]
    assert len(remove) == 2
    remove[1].click()
    ran(at)
    assert any(m.value == "1 of 1" for m in at.metric)
    assert "rude name" not in texts(at)
    ran(bob)
    assert "not part of this class" in texts(bob)


def test_the_teachers_download_names_the_question_and_runs_no_formula():
    import csv
    import io

    at, code, key = teacher()
    eve = student(code, "=1+2")
    go_to_predict_step(at)
    ran(eve)
    eve.radio(key="live_answer_topn:2").set_value("0.3")
    ran(eve)
    cells = list(csv.reader(io.StringIO(live_class.export_csv(code, key))))
    assert cells[1][cells[0].index("nickname")] == "'=1+2"
    assert "What is Recall@10?" in cells[1][cells[0].index("question")]
    assert not any(cell.startswith(("=", "+", "-", "@")) for line in cells for cell in line)


def test_the_same_number_written_with_a_point_and_a_comma_is_the_same_answer():
    """Issue 32 item 11: "0.8278" and "0,8278" were both right, and each student was told that 0 others
    gave the same answer."""
    at, code, _ = teacher()
    ann, bob = student(code, "Ann"), student(code, "Bob")
    at.selectbox(key=FIRST_LESSON_BOX).set_value(live_class.PLAYGROUND_CHOICE)
    ran(at)
    step = live_step(live_class.store().current(code)["lesson"], 0)
    point = f"{step.exact_value:.4f}"
    for screen, typed in ((ann, point), (bob, point.replace(".", ","))):
        ran(screen)
        next(t for t in screen.text_input if t.key and t.key.startswith("live_answer_playground")).input(typed)
        next(b for b in screen.button if b.key and "live_number_playground" in b.key).click()
        ran(screen)
    at.button(key="live_reveal").click()
    ran(at)
    for screen in (ann, bob):
        ran(screen)
        assert "2 of 2 students got it right; 1 other student gave the same answer as you." in texts(screen)


def test_the_database_is_where_the_readme_says(monkeypatch):
    """Issue 32 item 13: the README said ./.receval-data/, the app wrote ui/.receval-data/live_class.db.
    The sentence now lives in docs/live-class.md, the manual's page on the live class."""
    monkeypatch.delenv("RECEVAL_DATA_DIR")
    monkeypatch.chdir(ROOT / "tests")  # started from another folder: the same file
    path = live_class.database_url().removeprefix("sqlite:///")
    assert path == str(ROOT / ".receval-data" / "live_class.db")
    assert "`.receval-data/live_class.db` at the repository root" in (ROOT / "docs" / "live-class.md").read_text()


def test_a_timer_locks_the_answers_on_every_screen_when_it_runs_out():
    at, code, _ = teacher()
    ann = student(code, "Ann")
    go_to_predict_step(at)
    at.number_input(key="live_timer_seconds_topn:2").set_value(20)
    at.button(key="live_timer_topn:2").click()
    ran(at)
    ran(ann)
    assert re.search(r"Answers lock in (1\d|20) seconds", texts(ann)), texts(ann)
    real = live_class.store().clock
    live_class.store().clock = lambda: real() + 21
    try:
        ran(ann)
        ran(at)
        assert "The teacher locked the answers" in texts(ann)
        assert not [r for r in ann.radio if r.key == "live_answer_topn:2"]
        assert "Answers are locked" in texts(at)
    finally:
        live_class.store().clock = real


def test_a_question_asked_again_is_answered_afresh_and_the_rounds_are_compared():
    at, code, _ = teacher()
    ann = student(code, "Ann")
    go_to_predict_step(at)
    ran(ann)
    ann.radio(key="live_answer_topn:2").set_value("0.3")
    ran(ann)
    at.button(key="live_reveal").click()
    ran(at)
    at.button(key="live_again_topn:2").click()
    ran(at)
    ran(ann)
    again = ann.radio(key="live_answer_topn:2#2")
    assert again.value is None
    again.set_value("0.75")
    ran(ann)
    at.button(key="live_reveal").click()
    ran(at)
    shown = texts(at)
    assert "Round 1:** 0 of 1 student got it right" in shown and "Round 2:** 1 of 1 student got it right" in shown


def test_at_the_end_of_the_lesson_each_student_sees_their_answers_and_the_projector_can_hide_names():
    at, code, _ = teacher()
    ann = student(code, "Ann")
    go_to_predict_step(at)
    ran(ann)
    ann.radio(key="live_answer_topn:2").set_value("0.3")
    ran(ann)
    at.button(key="live_anonymous").click()
    ran(at)
    assert "Ann" not in texts(at)
    at.button(key="live_finish").click()
    ran(at)
    ran(ann)
    assert "Your answers" in texts(ann)
    assert "What is Recall@10?**  \nYours: '0.3' · right answer: 0.75 ✗" in texts(ann)


def test_the_teacher_sees_who_answered_in_order_and_anonymous_mode_hides_the_names():
    """Issue 32: the teacher sees who has answered (folded, not on the projector), names hidden in anonymous
    mode and for a hidden nickname; the count moves without them."""
    at, code, key = teacher()
    ann, bob = student(code, "Ann"), student(code, "**Bob**")
    go_to_predict_step(at)
    for screen, value in ((bob, "0.3"), (ann, "0.75")):
        ran(screen)
        screen.radio(key="live_answer_topn:2").set_value(value)
        ran(screen)
    ran(at)
    who = next(e for e in at.expander if e.label == "Who answered")
    assert [m.value for m in who.markdown] == [r"\*\*Bob\*\*, Ann"]  # in the order they answered, as typed
    at.button(key="live_anonymous").click()
    ran(at)
    who = next(e for e in at.expander if e.label == "Who answered")
    assert [m.value for m in who.markdown] == ["2 hidden names"]


def test_the_teacher_locks_the_class_sees_the_refused_joins_and_unlocks_it():
    """Issue 41: once everyone is in the teacher locks the class; a join after it is refused with the reason
    (the nickname kept in the box), counted on the console, and lets in again after the unlock."""
    at, code, _ = teacher()
    student(code, "Ann")
    at.button(key="live_lock_room_False").click()
    ran(at)
    assert [m.label for m in at.metric if m.label.startswith("Joined")] == ["Joined · locked"]
    late = student(code, "Bob")
    assert "The teacher has locked this class: no one new can join." in texts(late)
    assert late.text_input(key="live_nickname").value == "Bob" and "student" not in late.query_params
    ran(at)
    assert "1 join refused in the last 10 minutes.  \n1 came after you locked the class." in texts(at)
    at.button(key="live_lock_room_True").click()
    ran(at)
    assert [m.label for m in at.metric if m.label.startswith("Joined")] == ["Joined"]
    late.button(key="live_join_submit").click()
    ran(late)
    assert "student" in late.query_params
# --------------------------------------------------------------------------- a large class on the console

def _class_of(size: int) -> tuple[AppTest, str, str]:
    """A teacher on the Recall@10 question, ``size`` students joined through the store, all answered."""
    at, code, key = teacher()
    store = live_class.store()
    ids = [store.join(code, f"Student {n:04d}") for n in range(size)]
    go_to_predict_step(at)
    for student_id in ids:
        store.answer(code, student_id, "topn:2", "0.75")
    return ran(at), code, key


def _statements_of_a_rerun(at: AppTest) -> list[str]:
    from sqlalchemy import event

    statements: list[str] = []

    def seen(_connection, _cursor, statement, *_args):
        statements.append(statement)
    engine = live_class.store().engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        ran(at)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    return statements


def _reads_every_row(statement: str) -> bool:
    """A SELECT of students or answers that neither aggregates nor stops at a LIMIT: its rows grow with the class."""
    text = statement.lower()
    reads_students = "from live_students" in text or "from live_answers" in text
    return reads_students and not any(word in text for word in ("count(", "max(", "sum(", " limit "))


def test_what_the_console_reads_and_draws_on_a_rerun_does_not_grow_with_the_class():
    """Issue 41: the console read every student's row on every rerun and every second (the roster twice, who
    answered once) and drew a row of widgets per student. Now: counts as aggregates, a page of the roster."""
    drawn, statements = {}, {}
    for size in (60, 300):
        at, _code, _key = _class_of(size)
        statements[size] = _statements_of_a_rerun(at)
        assert not [s for s in statements[size] if _reads_every_row(s)], statements[size]
        drawn[size] = len(everything_sent(at).splitlines())
        assert f"{size} of {size}" in [m.value for m in at.metric]
        assert len([b for b in at.button if b.key and b.key.startswith("live_hide_")]) == live_class.ROSTER_PAGE
        live_class.store.clear()
    assert len(statements[60]) == len(statements[300])
    assert drawn[60] == drawn[300]


def test_the_roster_of_a_large_class_is_paged_and_found_by_nickname():
    at, code, _key = _class_of(120)
    live_class.store().join(code, "Ｒｕｄｅ Name")
    ran(at)

    def names() -> list[str]:
        return [m.value for m in at.markdown if ", " not in m.value  # not "Who answered"'s list
                and (m.value.startswith("Student ") or "Name" in m.value)]
    assert "Students 1–50 of 121" in texts(at) and names()[:2] == ["Student 0000", "Student 0001"]
    at.button(key="live_roster_later").click()
    ran(at)
    assert "Students 51–100 of 121" in texts(at) and names()[0] == "Student 0050"
    at.button(key="live_roster_later").click()
    ran(at)
    assert "Students 101–121 of 121" in texts(at) and names()[-1] == "Ｒｕｄｅ Name"
    assert at.button(key="live_roster_later").disabled
    at.text_input(key="live_roster_search").input("rude")
    ran(at)
    assert "Students 1–1 of 1" in texts(at) and names() == ["Ｒｕｄｅ Name"]
    next(b for b in at.button if b.key and b.key.startswith("live_hide_")).click()
    ran(at)
    assert "Ｒｕｄｅ Name" not in texts(at)
    at.text_input(key="live_roster_search").input("nobody like this")
    ran(at)
    assert "No nickname in the class contains that." in texts(at)


def test_who_answered_lists_the_first_names_and_counts_the_rest(monkeypatch):
    monkeypatch.setattr(live_class, "WHO_SHOWN", 2)
    at, code, key = _class_of(5)
    who = next(e for e in at.expander if e.label == "Who answered")
    assert [m.value for m in who.markdown] == ["Student 0000, Student 0001, 3 more after them"]


def test_who_answered_is_read_again_only_when_an_answer_or_a_name_changed():
    at, code, key = _class_of(3)

    def reads_names(statements: list[str]) -> bool:
        return any("order by live_answers.answered_at" in s.lower() for s in statements)
    assert not reads_names(_statements_of_a_rerun(at))  # nothing changed: the list drawn last time
    late = live_class.store().join(code, "Late Lee")
    live_class.store().answer(code, late, "topn:2", "0.3")
    assert reads_names(_statements_of_a_rerun(at))
    who = next(e for e in at.expander if e.label == "Who answered")
    assert [m.value for m in who.markdown] == ["Student 0000, Student 0001, Student 0002, Late Lee"]
    live_class.store().hide(code, key, late)
    assert reads_names(_statements_of_a_rerun(at))
    who = next(e for e in at.expander if e.label == "Who answered")
    assert [m.value for m in who.markdown] == ["Student 0000, Student 0001, Student 0002, 1 hidden name"]
