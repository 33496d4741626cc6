"""The Live class page in AppTest: one teacher session and several student sessions on one database."""

from __future__ import annotations

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
    assert f"?room={code}" in texts(at) or any(f"room={code}" in c.value for c in at.code)


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
    assert "Too many wrong codes" in texts(at)


def test_a_taken_nickname_is_refused_and_kept_in_the_box():
    _, code, _ = teacher()
    student(code, "Ann")
    again = student(code, "Ann")
    assert "already called" in texts(again)
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
