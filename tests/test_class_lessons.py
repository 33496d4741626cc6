"""Issue 43: a teacher's lesson files run live, typed-number questions judged to their tolerance, a list of their own
per student (a question's ``variant``), and the gradebook joined across a teacher's classes."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

import classroom
from classroom import gradebook, steps, variants
from classroom.export import csv_text
from classroom.steps import file_lesson_key, live_step
from classroom.summary import summarize, variant_summary
from classroom.teachers import TeacherDevices, new_device_id
from classroom.web import screen as screens
from classroom.web import student
from classroom.web.hub import Hub
from content.lessons.file_reader import read_lesson
from content.lessons.file_writer import to_toml

LESSON = (Path(__file__).parent / "data" / "ders-recall.toml").read_text("utf-8")
NUMBER, VARIANT, VALUE = 1, 2, 3  # the steps of the Turkish lesson file


@pytest.fixture
def store(database_url):  # SQLite and PostgreSQL (tests/conftest.py)
    made = classroom.Store(database_url)
    yield made
    made.engine.dispose()


def go(store, room, lesson, index):
    step = live_step(lesson, index)
    store.set_step(room.code, room.teacher_key, lesson, index, step.question_id, step.right_answer)
    return step


def forget_file_lessons():
    steps._file_lessons.clear()


# --------------------------------------------------------------------------- lesson files in the class

def test_a_lesson_file_runs_live_and_another_process_reads_it_from_the_database(store, database_url):
    room = store.create_room()
    lesson = store.use_lesson(room.code, room.teacher_key, LESSON)
    assert lesson == file_lesson_key(LESSON) and lesson.startswith("file:")
    step = go(store, room, lesson, NUMBER)
    assert step.question_id == f"{lesson}:{NUMBER}" and step.prompt == "Recall@3 kaçtır? Yazın."
    forget_file_lessons()  # another process: it knows nothing of the file until it reads the room
    assert live_step(lesson, NUMBER) is None
    other = classroom.Store(database_url)
    assert other.current(room.code)["lesson"] == lesson
    assert live_step(lesson, NUMBER).title == "Recall@3 yazın"
    other.engine.dispose()


def test_a_file_that_is_not_a_lesson_is_refused_with_the_loaders_problems(store):
    room = store.create_room()
    with pytest.raises(ValueError, match="line"):
        store.use_lesson(room.code, room.teacher_key, LESSON.replace('kind = "number"', 'kind = "numbr"', 1))
    with pytest.raises(PermissionError):
        store.use_lesson(room.code, "not the key", LESSON)


def test_ending_the_class_deletes_its_lesson_file(store):
    room = store.create_room()
    store.use_lesson(room.code, room.teacher_key, LESSON)
    store.end_room(room.code, room.teacher_key)
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT count(*) FROM live_room_lessons").scalar() == 0
    with pytest.raises(classroom.RoomNotFound):
        store.current(room.code)


def test_my_lessons_are_kept_per_teacher_checked_with_the_same_loader(store):
    teachers = TeacherDevices(store.engine)
    mine, theirs = new_device_id(), new_device_id()
    assert teachers.save_lesson(mine, LESSON).lesson.key == "ders-recall"
    assert [item["id"] for item in teachers.my_lessons(mine)] == ["ders-recall"]
    assert teachers.my_lessons(theirs) == []
    refused = teachers.save_lesson(mine, LESSON.replace('id = "ders-recall"', 'id = "topn"'))
    assert refused.lesson is None and "topn" in refused.problems[0].text()  # a built-in lesson's id
    broken = teachers.save_lesson(mine, LESSON + "\n[[steps]]\ntitle = 3\n")
    assert broken.lesson is None and broken.problems
    assert teachers.save_lesson(mine, LESSON.replace("Beş öğelik", "Altı öğelik")).lesson is not None
    assert [item["title"] for item in teachers.my_lessons(mine)] == ["Altı öğelik listede Recall"]  # replaced
    teachers.forget_lesson(mine, "ders-recall")
    assert teachers.my_lessons(mine) == []


# --------------------------------------------------------------------------- the variant in the lesson format

def test_a_variant_is_read_checked_and_written_back():
    loaded = read_lesson(LESSON)
    variant = loaded.lesson.steps[VARIANT].question.variant
    assert variant == {"length": 6, "relevant": 3, "grades": [1, 1], "k": 3, "seed": 7}
    assert read_lesson(to_toml(loaded.lesson)).lesson == loaded.lesson
    bad = LESSON.replace("variant = { length = 6, relevant = 3, grades = [1, 1], k = 3, seed = 7 }",
                         "variant = { length = 6, relevant = 9, grades = [2, 1], k = 3, colour = 1 }")
    problems = [(p.field, p.text()) for p in read_lesson(bad).problems]
    fields = {field for field, _text in problems}
    assert {"steps[3].question.variant.relevant", "steps[3].question.variant.grades",
            "steps[3].question.variant.colour"} <= fields, problems
    on_options = LESSON.replace('metric = "precision_at_k"\nwhy', 'metric = "precision_at_k"\n'
                                'variant = { length = 5, relevant = 2 }\nwhy')
    assert read_lesson(on_options).lesson is not None  # a value question may have one too
    on_auc = LESSON.replace('metric = "recall_at_k"\ntolerance = { absolute', 'metric = "auc"\ntolerance = { absolute')
    assert any("variant" in p.field for p in read_lesson(on_auc).problems)


# --------------------------------------------------------------------------- variants: stable, per student

def test_each_student_gets_a_list_of_their_own_stable_and_from_the_class_seed(store):
    room = store.create_room()
    lesson = store.use_lesson(room.code, room.teacher_key, LESSON)
    step = go(store, room, lesson, VARIANT)
    seed = store.current(room.code)["seed"]
    ann, bob = store.join(room.code, "Ann"), store.join(room.code, "Bob")
    first = variants.draw(step.lesson_step, seed, ann, step.question_id)
    assert first == variants.draw(step.lesson_step, seed, ann, step.question_id)  # a reload, another process
    assert len(first["recommended"]) == 6 and len(set(first["recommended"])) == 6 and first["k"] == 3
    assert len(first["ground_truth"]) == 3 and set(first["ground_truth"]) <= set(first["recommended"])
    lists = {tuple(variants.draw(step.lesson_step, seed, s, step.question_id)["recommended"])
             for s in (ann, bob, *(store.join(room.code, f"S{n}") for n in range(8)))}
    assert len(lists) == 10  # every student their own
    other_class = store.create_room()
    assert variants.draw(step.lesson_step, store.current(other_class.code)["seed"], ann,
                         step.question_id) != first


def right_and_wrong(step, scenario):
    value, named = variants.truth(step.lesson_step, scenario)
    return value, named


def test_verdicts_use_each_students_own_list_the_tolerance_and_name_the_mistake(store):
    room = store.create_room()
    lesson = store.use_lesson(room.code, room.teacher_key, LESSON)
    step = go(store, room, lesson, VARIANT)
    seed = store.current(room.code)["seed"]
    students = [store.join(room.code, name) for name in ("Ann", "Bob", "Cem", "Dan")]
    scenarios = {s: variants.draw(step.lesson_step, seed, s, step.question_id) for s in students}
    truths = {s: variants.truth(step.lesson_step, scenarios[s]) for s in students}
    ann, bob, cem, dan = students
    # Ann: her own value to the tolerance (absolute 0.01), in the Turkish notation
    store.answer(room.code, ann, step.question_id, f"{truths[ann][0] + 0.008:.4f}".replace(".", ","))
    # Bob: Precision@3 of his list (the named mistake) when it differs from his recall
    precision = float(variants.practice.QUIZ_METRICS["precision_at_k"].compute(variants._case(scenarios[bob])))
    store.answer(room.code, bob, step.question_id, f"{precision:.4f}")
    # Cem: Dan's right value, wrong for his own list unless the two happen to agree
    store.answer(room.code, cem, step.question_id, f"{truths[dan][0] + 0.02:.4f}")
    judged = {s: variants.judge(step.lesson_step, scenarios[s], store.my_answer(room.code, s, step.question_id))
              for s in (ann, bob, cem)}
    assert judged[ann].right is True
    if not variants.practice.close(precision, truths[bob][0]):
        assert judged[bob].right is False and judged[bob].mistake == variants.class_texts.DIVIDED_BY_K
    store.reveal(room.code, room.teacher_key, step.question_id)
    summary = variant_summary(step, seed, step.question_id, store.answers_by_student(room.code, step.question_id))
    assert summary.answered == 3 and summary.right == sum(bool(j.right) for j in judged.values())
    frame = store.export(room.code, room.teacher_key)
    mine = frame[frame.nickname == "Ann"].iloc[0]
    assert mine.right is True and mine.scenario == variants.describe(scenarios[ann])
    assert mine.right_value == f"{truths[ann][0]:.4f}"
    text = csv_text(frame)
    assert "the student's list" in text.splitlines()[0] and variants.describe(scenarios[ann]) in text


def test_a_typed_number_is_right_within_the_files_tolerance_not_four_decimals(store):
    room = store.create_room()
    lesson = store.use_lesson(room.code, room.teacher_key, LESSON)
    step = go(store, room, lesson, NUMBER)  # Recall@3 = 0.5, to 2 decimals
    assert step.exact_value == 0.5 and step.tolerance.kind == "decimals" and step.right_answer == "0.50"
    assert [step.judge(v) for v in ("0,5", "0.504", "0.51", "1/2", "0.3333", "yarım")] == \
        [True, True, False, True, False, False]
    tally = {"0,5": 2, "0.504": 1, "0.3333": 1}
    summary = summarize(step, tally)
    assert summary.right == 3 and summary.answered == 4 and summary.numbers


def test_the_variants_reveal_on_the_phones_screen_counts_right_and_names_mistakes_without_a_histogram(store):
    room = store.create_room()
    lesson = store.use_lesson(room.code, room.teacher_key, LESSON)
    step = go(store, room, lesson, VARIANT)
    ann = store.join(room.code, "Ann")
    seed = store.current(room.code)["seed"]
    truth = variants.truth(step.lesson_step, variants.draw(step.lesson_step, seed, ann, step.question_id))[0]
    store.answer(room.code, ann, step.question_id, f"{truth:.4f}")
    open_screen = screens.build(store.current(room.code), None, "tr")
    assert open_screen["question"]["variant"] == "number" and "items" not in open_screen  # no list in the shared screen
    assert "0,01" in open_screen["question"]["tolerance"]
    store.reveal(room.code, room.teacher_key, step.question_id)
    now = store.current(room.code)
    shown = screens.build(now, lambda q: store.distribution(room.code, q), "tr",
                          lambda q: store.answers_by_student(room.code, q))["question"]["reveal"]
    assert shown["variant"] and shown["counts"] == [] and shown["verdicts"] == {} and "1" in shown["right"]


# --------------------------------------------------------------------------- web routes: the phone's own list

def phone(store, code, nickname):
    browser = TestClient(Starlette(routes=student.routes(Hub(store))))
    response = browser.post(f"/class/{code}/join?lang=tr", data={"nickname": nickname}, follow_redirects=False)
    assert response.status_code == 303, response.text
    return browser


def test_each_phone_fetches_its_own_list_and_its_own_verdict(store):
    room = store.create_room()
    lesson = store.use_lesson(room.code, room.teacher_key, LESSON)
    step = go(store, room, lesson, VARIANT)
    ann, bob = phone(store, room.code, "Ann"), phone(store, room.code, "Bob")
    own = {name: b.get(f"/class/{room.code}/mine?lang=tr&question={step.question_id}").json()
           for name, b in (("Ann", ann), ("Bob", bob))}
    assert own["Ann"]["items"] != own["Bob"]["items"] and "verdict" not in own["Ann"]
    assert ann.get(f"/class/{room.code}/mine?question=other:1").status_code == 409
    assert TestClient(Starlette(routes=student.routes(Hub(store)))).get(
        f"/class/{room.code}/mine?question={step.question_id}").status_code == 403  # no cookie
    seed = store.current(room.code)["seed"]
    ann_id = ann.cookies[student.COOKIE]
    truth = variants.truth(step.lesson_step, variants.draw(step.lesson_step, seed, ann_id, step.question_id))[0]
    right = f"{truth:.2f}".replace(".", ",")
    sent = ann.post(f"/class/{room.code}/answer?lang=tr", json={"question_id": step.question_id, "value": right})
    assert sent.status_code == 200
    refused = bob.post(f"/class/{room.code}/answer?lang=tr", json={"question_id": step.question_id, "value": "yarım"})
    assert refused.status_code == 400 and "sayı değil" in refused.json()["error"]
    bob.post(f"/class/{room.code}/answer?lang=tr", json={"question_id": step.question_id, "value": right})
    store.reveal(room.code, room.teacher_key, step.question_id)
    verdict = ann.get(f"/class/{room.code}/mine?lang=tr&question={step.question_id}").json()["verdict"]
    assert "Doğru" in verdict
    bob_id = bob.cookies[student.COOKIE]
    bob_truth = variants.truth(step.lesson_step, variants.draw(step.lesson_step, seed, bob_id, step.question_id))[0]
    bob_verdict = bob.get(f"/class/{room.code}/mine?lang=tr&question={step.question_id}").json()["verdict"]
    assert ("Doğru" in bob_verdict) == (abs(bob_truth - truth) <= 0.01 + 0.005)


def test_a_variant_value_question_gives_each_phone_its_own_choices(store):
    text = LESSON.replace('metric = "precision_at_k"\nwhy', 'metric = "precision_at_k"\n'
                          'variant = { length = 5, relevant = 2 }\nwhy')
    room = store.create_room()
    lesson = store.use_lesson(room.code, room.teacher_key, text)
    step = go(store, room, lesson, VALUE)
    ann = phone(store, room.code, "Ann")
    options = ann.get(f"/class/{room.code}/mine?lang=tr&question={step.question_id}").json()["options"]
    assert len(options) >= 2 and all("," in o["text"] for o in options)  # shown in the Turkish notation
    seed = store.current(room.code)["seed"]
    scenario = variants.draw(step.lesson_step, seed, ann.cookies[student.COOKIE], step.question_id)
    right = f"{variants.truth(step.lesson_step, scenario)[0]:.4f}"
    assert right in [o["value"] for o in options]
    assert ann.post(f"/class/{room.code}/answer", json={"question_id": step.question_id,
                                                        "value": right}).status_code == 200


@pytest.mark.parametrize("language, chose, typed", [("en", "You chose 0.", "You typed '"),
                                                    ("tr", "0,", "yazdınız"), ("zh", "你选的是", "你输入的是")])
def test_a_wrong_verdict_says_chose_for_an_option_and_typed_for_a_typed_number(store, language, chose, typed):
    """A value question's phone offers options only: its verdict must not say the student typed one."""
    text = LESSON.replace('metric = "precision_at_k"\nwhy', 'metric = "precision_at_k"\n'
                          'variant = { length = 5, relevant = 2 }\nwhy')
    room = store.create_room()
    lesson = store.use_lesson(room.code, room.teacher_key, text)
    seed = store.current(room.code)["seed"]
    verdicts = {}
    for index, kind in ((VALUE, "value"), (VARIANT, "number")):
        step = go(store, room, lesson, index)
        ann = phone(store, room.code, f"Ann{index}")
        scenario = variants.draw(step.lesson_step, seed, ann.cookies[student.COOKIE], step.question_id)
        own = f"/class/{room.code}/mine?lang={language}&question={step.question_id}"
        options = [o["value"] for o in ann.get(own).json().get("options", [])]
        # A wrong value that names no mistake: one of the near misses offered, or a typed number none gives
        judged = {value: variants.judge(step.lesson_step, scenario, value) for value in options or ["0.123", "0.877"]}
        wrong = next(value for value, verdict in judged.items() if verdict.right is False and verdict.mistake is None)
        assert ann.post(f"/class/{room.code}/answer", json={"question_id": step.question_id,
                                                            "value": wrong}).status_code == 200
        store.reveal(room.code, room.teacher_key, step.question_id)
        verdicts[kind] = ann.get(own).json()["verdict"]
    assert chose in verdicts["value"] and typed not in verdicts["value"], verdicts["value"]
    assert typed in verdicts["number"] and wrong in verdicts["number"], verdicts["number"]  # as typed
    if language == "tr":
        assert "seçtiniz" in verdicts["value"]


def test_the_join_form_asks_the_teachers_question_and_keeps_what_was_typed(store):
    room = store.create_room(join_question="Öğrenci numarası")
    browser = TestClient(Starlette(routes=student.routes(Hub(store))))
    form = browser.get(f"/class/{room.code}?lang=tr").text
    assert "Öğrenci numarası" in form and "name='identifier'" in form
    refused = browser.post(f"/class/{room.code}/join?lang=tr", data={"nickname": "Ann"})
    assert refused.status_code == 400 and "value='Ann'" in refused.text
    joined = browser.post(f"/class/{room.code}/join?lang=tr", data={"nickname": "Ann", "identifier": " S-12 "},
                          follow_redirects=False)
    assert joined.status_code == 303
    assert store.export(room.code, room.teacher_key).empty


# --------------------------------------------------------------------------- the gradebook

def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_the_gradebook_joins_a_student_across_meetings_and_keeps_cells_safe(store):
    teachers, device = TeacherDevices(store.engine), new_device_id()
    describe = lambda step: f"{step.index + 1}. {step.title}"  # noqa: E731
    for meeting, (typed_id, answer) in enumerate([(" S-12 ", "0,5"), ("s-12", "=1+1")]):
        room = store.create_room(join_question="Student number")
        lesson = store.use_lesson(room.code, room.teacher_key, LESSON)
        step = go(store, room, lesson, NUMBER)
        s = store.join(room.code, f"Ann{meeting}", identifier=typed_id)
        other = store.join(room.code, f"@Bob{meeting}", identifier=f"+9{meeting}")
        store.answer(room.code, s, step.question_id, answer)
        store.answer(room.code, other, step.question_id, "0.25")
        if meeting == 1:
            store.ask_again(room.code, room.teacher_key, step.question_id)
            store.answer(room.code, s, step.question_id + "#2", "1/2")
        teachers.record_marks(device, gradebook.marks(store.export(room.code, room.teacher_key), room.code, describe))
    table = rows(gradebook.csv_text(teachers.marks(device), identifier="Student number"))
    header, body = table[0], table[1:]
    assert header[:3] == ["Student number", "nickname", "total"] and len(header) == 3 + 2 * 3
    assert all(" (points)" in h for h in header[3::2]) and all(" (answer)" in h for h in header[4::2])
    ann = [row for row in body if row[0].strip().casefold() == "s-12"]
    assert len(ann) == 1  # one row for both meetings: " S-12 " and "s-12" are one identifier
    assert ann[0][2] == "2" and "'=1+1" in ann[0] and "0,5" in ann[0]
    bobs = [row for row in body if row[1].startswith("'@Bob")]
    assert len(bobs) == 2 and {row[0] for row in bobs} == {"'+90", "'+91"}  # formula starts escaped
    assert teachers.marks(new_device_id()) == []


def test_a_class_without_a_join_question_has_rows_by_nickname_never_joined_to_another_class(store):
    describe = lambda step: step.title  # noqa: E731
    found = []
    for _meeting in range(2):
        room = store.create_room()
        lesson = store.use_lesson(room.code, room.teacher_key, LESSON)
        step = go(store, room, lesson, NUMBER)
        store.answer(room.code, store.join(room.code, "Ann"), step.question_id, "0.5")
        found += gradebook.marks(store.export(room.code, room.teacher_key), room.code, describe)
    body = rows(gradebook.csv_text(found))[1:]
    assert len(body) == 2 and all(row[1] == "Ann" and row[2] == "1" for row in body)


# --------------------------------------------------------------------------- the Live class page (AppTest)

def test_the_console_offers_this_sessions_lesson_file_runs_it_and_a_student_page_shows_their_own_list(
        tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ROOT
    from ui.controllers import live_class

    monkeypatch.setenv("RECEVAL_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("RECEVAL_CLASSROOM_URL", raising=False)
    live_class.store.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/19_Live_class.py")
    at.session_state["lessons_file_texts"] = {"ders-recall": ("Beş öğelik listede Recall", LESSON)}
    at.run()
    at.text_input(key="live_join_question").input("Öğrenci numarası")
    at.button(key="live_start").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    state = at.session_state[live_class.TEACHER]
    box = next(s for s in at.selectbox if s.key.startswith("live_lesson_choice_"))
    assert file_lesson_key(LESSON) in box.options or any("Beş öğelik" in o for o in box.options)
    box.set_value(file_lesson_key(LESSON)).run()
    assert not at.exception, [e.value for e in at.exception]
    now = live_class.store().current(state["code"])
    assert now["lesson"] == file_lesson_key(LESSON) and now["join_question"] == "Öğrenci numarası"
    assert "Download the gradebook (CSV)" in str([e.proto for e in at.get("download_button")])

    store = live_class.store()
    step = go(store, classroom.Room(state["code"], state["key"]), now["lesson"], VARIANT)
    ann = store.join(state["code"], "Ann", identifier="S-1")
    pupil = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    pupil.switch_page("pages/19_Live_class.py")
    pupil.query_params["room"], pupil.query_params["student"] = state["code"], ann
    pupil.run()
    assert not pupil.exception, [e.value for e in pupil.exception]
    scenario = variants.draw(step.lesson_step, now["seed"], ann, step.question_id)
    shown = "\n".join(m.value for m in pupil.markdown)
    assert f"1. {scenario['recommended'][0]}" in shown
    truth = variants.truth(step.lesson_step, scenario)[0]
    store.answer(state["code"], ann, step.question_id, f"{truth:.2f}")
    store.reveal(state["code"], state["key"], step.question_id)
    pupil.run()
    assert not pupil.exception, [e.value for e in pupil.exception]
    assert any("Right" in s.value for s in pupil.success)
    live_class.store.clear()


def test_the_own_list_reads_the_database_once_when_this_process_follows_the_room(store):
    """300 phones ask at once after a step change: each request is one read (the student, their answer), the room's
    step coming from what this process's event streams hold (the hub's feed), never a stale one."""
    from sqlalchemy import event

    from classroom.web.hub import Feed

    room = store.create_room()
    lesson = store.use_lesson(room.code, room.teacher_key, LESSON)
    step = go(store, room, lesson, VARIANT)
    hub = Hub(store)
    app = Starlette(routes=student.routes(hub))
    ann, bob = TestClient(app), TestClient(app)
    for browser, name in ((ann, "Ann"), (bob, "Bob")):
        assert browser.post(f"/class/{room.code}/join", data={"nickname": name}, follow_redirects=False).status_code \
            == 303
    ann_id, bob_id = ann.cookies[student.COOKIE], bob.cookies[student.COOKIE]
    own = f"/class/{room.code}/mine?lang=en&question={step.question_id}"
    seed = store.current(room.code)["seed"]

    def listed(student_id):
        return [screens.inline(str(i)) for i in variants.draw(step.lesson_step, seed, student_id, step.question_id)[
            "recommended"]]

    reads = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda *args: args[2].lstrip().upper().startswith("SELECT") and reads.append(args[2]))
    hub.feeds[room.code] = Feed(store.current(room.code))  # a phone of this process follows the class
    reads.clear()
    mine = ann.get(own).json()
    assert len(reads) == 1, reads
    assert [item.split(" (")[0] for item in mine["items"]] == listed(ann_id)  # her own list, not Bob's
    assert [item.split(" (")[0] for item in bob.get(own).json()["items"]] == listed(bob_id)

    # The teacher reveals; this process has not polled yet: the feed is older than the room, so the room is read.
    store.answer(room.code, ann_id, step.question_id, "0.123")  # wrong whatever her list
    store.reveal(room.code, room.teacher_key, step.question_id)
    assert "verdict" in ann.get(own).json()
    hub.feeds[room.code].move(store.current(room.code))
    reads.clear()
    assert "0.123" in ann.get(own).json()["verdict"] and len(reads) == 1, reads

    # A feed of another class once under this code (another seed) is not this one's.
    hub.feeds[room.code].move({**store.current(room.code), "seed": "another class"})
    assert [item.split(" (")[0] for item in ann.get(own).json()["items"]] == listed(ann_id)

    # Removed by the teacher (in any process): refused at once, whatever this process holds.
    store.remove(room.code, room.teacher_key, bob_id)
    hub.feeds[room.code].move(store.current(room.code))
    assert bob.get(own).status_code == 403
    assert TestClient(app).get(own).status_code == 403  # no cookie
    store.end_room(room.code, room.teacher_key)
    assert ann.get(own).status_code == 404


def test_a_phone_asking_for_its_list_in_a_loop_is_refused_before_the_database(store):
    room = store.create_room()
    lesson = store.use_lesson(room.code, room.teacher_key, LESSON)
    step = go(store, room, lesson, VARIANT)
    ann = phone(store, room.code, "Ann")
    answers = [ann.get(f"/class/{room.code}/mine?question={step.question_id}") for _ in range(14)]
    statuses = [answer.status_code for answer in answers]
    assert statuses[:10] == [200] * 10 and 429 in statuses[10:]
    # when to ask again (student.js waits that long before it does)
    assert all(a.headers["retry-after"] == "1" for a in answers if a.status_code == 429)


# --------------------------------------------------------------------------- one screen per language for every phone

from tests.test_classroom_web import join_live, read_events, servers  # noqa: E402,F401 - servers is a fixture


def test_a_variant_step_is_one_screen_per_language_for_every_phone_each_asking_for_its_own_list(
        store, servers, monkeypatch):
    import threading

    room = store.create_room()
    lesson = store.use_lesson(room.code, room.teacher_key, LESSON)
    go(store, room, lesson, NUMBER)
    built = []
    real_build = screens.build
    monkeypatch.setattr(screens, "build", lambda now, dist, lang, *more: built.append((now["version"], lang))
                        or real_build(now, dist, lang, *more))
    server = servers(Hub(store, poll_seconds=0.05))
    phones = [join_live(server.url, room.code, f"S{n}") for n in range(5)]
    results = [None] * len(phones)
    ready = threading.Barrier(len(phones) + 1)

    def follow(n):
        results[n] = read_events(phones[n], room.code, 3, act=lambda: ready.wait(10))

    threads = [threading.Thread(target=follow, args=(n,)) for n in range(len(phones))]
    for thread in threads:
        thread.start()
    ready.wait(10)
    step = go(store, room, lesson, VARIANT)
    version = store.current(room.code)["version"]
    for thread in threads:
        thread.join(15)
    screens_sent = [events[2][1] for events in results]
    assert all(s == screens_sent[0] for s in screens_sent)  # the same screen, nothing of any one student
    assert screens_sent[0]["question"]["variant"] == "number" and "items" not in screens_sent[0]
    assert [b for b in built if b[0] == version] == [(version, "en")]  # built once for five phones
    lists = {tuple(p.get(f"/class/{room.code}/mine?question={step.question_id}").json()["items"]) for p in phones}
    assert len(lists) == 5


def test_asking_a_variant_question_again_keeps_each_students_list_and_judges_each_round_on_it(store):
    room = store.create_room()
    lesson = store.use_lesson(room.code, room.teacher_key, LESSON)
    step = go(store, room, lesson, VARIANT)
    ann = store.join(room.code, "Ann")
    seed = store.current(room.code)["seed"]
    scenario = variants.draw(step.lesson_step, seed, ann, step.question_id)
    truth = variants.truth(step.lesson_step, scenario)[0]
    store.answer(room.code, ann, step.question_id, "7")
    store.reveal(room.code, room.teacher_key, step.question_id)
    again = store.ask_again(room.code, room.teacher_key, step.question_id)
    store.answer(room.code, ann, again, f"{truth:.3f}")
    assert classroom.store.base_question(again) == step.question_id
    rounds = [variant_summary(step, seed, classroom.store.base_question(q), store.answers_by_student(
        room.code, q, room.teacher_key)).right for q in (step.question_id, again)]
    assert rounds == [0, 1]
    frame = store.export(room.code, room.teacher_key)
    assert list(frame.scenario) == [variants.describe(scenario)] * 2 and list(frame.right) == [False, True]


def test_the_streamlit_join_form_asks_the_join_question_and_refuses_without_an_answer(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ROOT
    from ui.controllers import live_class

    monkeypatch.setenv("RECEVAL_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("RECEVAL_CLASSROOM_URL", raising=False)
    live_class.store.clear()
    room = live_class.store().create_room(join_question="Student number")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/19_Live_class.py")
    at.query_params["room"] = room.code
    at.run()
    assert at.text_input(key="live_identifier").label == "Student number"
    at.text_input(key="live_nickname").input("Ann")
    at.button(key="live_join_submit").click().run()
    assert any("Answer the teacher" in e.value for e in at.error), [e.value for e in at.error]
    at.text_input(key="live_identifier").input("S-12")
    at.button(key="live_join_submit").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert list(live_class.store().export(room.code, room.teacher_key).columns)  # the class is there
    with live_class.store().engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT identifier, identifier_key FROM live_students").all() == \
            [("S-12", "s-12")]
    live_class.store.clear()


def test_the_lessons_page_opens_a_variant_question_on_its_own_list_and_keeps_the_file_for_the_live_class():
    from tests.conftest import run_page
    from tests.test_page_lesson_files import open_file
    from tests.test_page_lessons import PAGE

    at = open_file(run_page(PAGE), "ders-recall.toml", LESSON)
    assert at.session_state["lessons_file_texts"]["ders-recall"] == ("Beş öğelik listede Recall", LESSON)
    at.query_params.update({"lesson": "ders-recall", "step": str(VARIANT + 1)})
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("list of their own" in c.value for c in at.caption)
    assert "Right within ±0.01 of the exact value." in [c.value for c in at.caption]


def test_a_class_keeps_at_most_twenty_lesson_files(store):
    room = store.create_room()
    for n in range(classroom.store.MAX_ROOM_LESSONS):
        store.use_lesson(room.code, room.teacher_key, LESSON + f"\n# copy {n}\n")
    store.use_lesson(room.code, room.teacher_key, LESSON + "\n# copy 0\n")  # one it has: still fine
    with pytest.raises(ValueError, match="at most 20"):
        store.use_lesson(room.code, room.teacher_key, LESSON + "\n# one more\n")
