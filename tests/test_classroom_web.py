"""The live class's light view and the server entry that mounts it (Starlette's TestClient, no browser)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from streamlit.web.server.app_discovery import discover_asgi_app

ROOT = Path(__file__).resolve().parents[1]


def test_streamlit_run_app_py_serves_the_st_app_with_the_class_routes():
    found = discover_asgi_app(ROOT / "app.py")
    assert (found.is_asgi_app, found.import_string) == (True, "app:app")
    # Imported as a module (as uvicorn does), app.py builds the App on itself and draws nothing.
    probe = ("import app, classroom.web as web; "
             "print(app.app.script_path, app.app._user_routes == web.ROUTES, hasattr(app, 'values'))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["app.py", "True", "False"]


# --------------------------------------------------------------------------- the student's light view

import json  # noqa: E402
import socket  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import httpx  # noqa: E402
import pytest  # noqa: E402
import uvicorn  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

import classroom  # noqa: E402
from classroom import clients  # noqa: E402
from classroom.steps import live_step  # noqa: E402
from classroom.web import screen as screens  # noqa: E402
from classroom.web import student  # noqa: E402
from classroom.web.hub import Hub  # noqa: E402
from content.lessons import LESSONS  # noqa: E402

PREDICT = [live_step(lesson.key, i) for lesson in LESSONS for i, step in enumerate(lesson.steps)
           if step.kind == "predict" and step.question.options][:2]


@pytest.fixture
def store(tmp_path):
    return classroom.Store(f"sqlite:///{tmp_path / 'live.db'}")


@pytest.fixture
def room(store):
    made = store.create_room()
    show(store, made, PREDICT[0])
    return made


def show(store, room, step):
    return store.set_step(room.code, room.teacher_key, step.lesson, step.index, step.question_id, step.right_answer)


def client(store, **hub_options) -> TestClient:
    return TestClient(Starlette(routes=student.routes(Hub(store, **hub_options))))


def joined(store, room, nickname="Ann", lang="en") -> TestClient:
    browser = client(store)
    response = browser.post(f"/class/{room.code}/join?lang={lang}", data={"nickname": nickname},
                            follow_redirects=False)
    assert response.status_code == 303, response.text
    return browser


def test_joining_sets_an_httponly_strict_cookie_scoped_to_the_class_and_never_shows_the_id(store, room):
    browser = client(store)
    response = browser.post(f"/class/{room.code.lower()}/join?lang=tr", data={"nickname": "Ann"},
                            follow_redirects=False)
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and f"Path=/class/{room.code}" in cookie
    assert response.headers["location"] == f"/class/{room.code}?lang=tr"
    student_id = browser.cookies[student.COOKIE]
    assert list(store.roster(room.code, room.teacher_key).student_id) == [student_id]
    page = browser.get(f"/class/{room.code}?lang=tr")
    assert "<html lang='tr'>" in page.text and student_id not in page.text and "Ann" not in page.text


def test_a_refused_nickname_comes_back_as_typed_escaped_with_the_reason_in_the_readers_language(store, room):
    joined(store, room, "<b>Ann</b>")
    again = client(store).post(f"/class/{room.code}/join?lang=tr", data={"nickname": "<b>Ann</b>"})
    assert again.status_code == 400
    assert "value='&lt;b&gt;Ann&lt;/b&gt;'" in again.text and "<b>Ann</b>" not in again.text
    assert "role='alert'" in again.text and "aria-invalid='true'" in again.text
    assert "<html lang='tr'>" in again.text and "Join" not in again.text


def test_a_wrong_code_is_refused_and_counted_against_the_client_address(store):
    browser = client(store)
    for _attempt in range(6):
        response = browser.post("/class/AAAAAA/join", data={"nickname": "Ann"})
        assert response.status_code == 400
    assert "wait" in response.text  # the store's limit, keyed on the address, not on a cookie the client drops
    assert store.join_wait(clients.client_address("testclient")) > 0


def test_a_join_after_the_lock_is_refused_in_the_readers_language_and_unlocking_lets_it_in(store, room):
    joined(store, room, "Ann")
    store.lock_room(room.code, room.teacher_key)
    phone = client(store)
    refused = phone.post(f"/class/{room.code}/join?lang=tr", data={"nickname": "Zeynep <3"}, follow_redirects=False)
    assert refused.status_code == 400 and student.COOKIE not in phone.cookies
    assert "Öğretmen bu dersi kilitledi: kimse yeni katılamaz." in refused.text and "role='alert'" in refused.text
    assert "value='Zeynep &lt;3'" in refused.text and "Zeynep <3" not in refused.text  # kept as typed, as text
    assert store.join_status(room.code, room.teacher_key)["refused"]["locked"] == 1
    store.lock_room(room.code, room.teacher_key, False)
    again = phone.post(f"/class/{room.code}/join?lang=tr", data={"nickname": "Zeynep <3"}, follow_redirects=False)
    assert again.status_code == 303 and phone.cookies[student.COOKIE]
    assert list(store.roster(room.code, room.teacher_key).nickname) == ["Ann", "Zeynep <3"]


def test_a_script_joining_past_the_cap_is_told_the_class_is_full_and_the_teacher_sees_it(tmp_path):
    store = classroom.Store(f"sqlite:///{tmp_path / 'live.db'}", max_students=3)
    room = store.create_room()
    script = client(store)
    answers = [script.post(f"/class/{room.code}/join?lang=zh", data={"nickname": f"bot{n}"}, follow_redirects=False)
               for n in range(5)]
    assert [a.status_code for a in answers] == [303, 303, 303, 400, 400]
    assert "本课堂已满（3 名学生）。" in answers[-1].text and "value='bot4'" in answers[-1].text
    assert store.join_status(room.code, room.teacher_key)["refused"] == {"address": 0, "full": 2, "locked": 0}


def test_answers_need_the_students_own_cookie_and_json(store, room):
    question = PREDICT[0].question_id
    right = PREDICT[0].right_answer
    anonymous = client(store)
    assert anonymous.post(f"/class/{room.code}/answer", json={"question_id": question, "value": right}).status_code == 403
    forged = client(store)
    forged.cookies.set(student.COOKIE, classroom.codes.new_student_id())
    assert forged.post(f"/class/{room.code}/answer", json={"question_id": question, "value": right}).status_code == 403
    ann = joined(store, room)
    form = ann.post(f"/class/{room.code}/answer", data={"question_id": question, "value": right})
    assert form.status_code == 415  # a form another site could post without asking is refused
    sent = ann.post(f"/class/{room.code}/answer", json={"question_id": question, "value": right})
    assert sent.status_code == 200
    assert store.tally(room.code, room.teacher_key, question) == {right: 1}


def test_a_student_of_another_class_cannot_answer_in_this_one(store, room):
    other = store.create_room()
    show(store, other, PREDICT[0])
    bob = joined(store, other, "Bob")
    bob.cookies.set(student.COOKIE, bob.cookies[student.COOKIE], path=f"/class/{room.code}")
    response = bob.post(f"/class/{room.code}/answer", json={"question_id": PREDICT[0].question_id,
                                                             "value": PREDICT[0].right_answer})
    assert response.status_code == 403
    assert store.tally(room.code, room.teacher_key, PREDICT[0].question_id) == {}


def test_no_student_route_acts_for_the_teacher(store, room):
    ann = joined(store, room)
    before = store.current(room.code)
    for action in ("lock", "reveal", "reset", "end", "next", "step", "tally", "roster", "export", "hide"):
        for method in ("get", "post"):
            assert getattr(ann, method)(f"/class/{room.code}/{action}").status_code in (404, 405), action
    assert store.current(room.code) == before


def test_an_answer_to_a_question_not_on_screen_or_not_an_option_is_refused(store, room):
    ann = joined(store, room)
    assert ann.post(f"/class/{room.code}/answer",
                    json={"question_id": PREDICT[1].question_id, "value": PREDICT[1].right_answer}).status_code == 409
    assert ann.post(f"/class/{room.code}/answer",
                    json={"question_id": PREDICT[0].question_id, "value": "=1+2"}).status_code == 400


def test_a_student_sending_answers_in_a_loop_is_throttled_and_the_class_is_not(store, room):
    question, right = PREDICT[0].question_id, PREDICT[0].right_answer
    flooder, other = joined(store, room, "Flood"), joined(store, room, "Calm")
    statuses = [flooder.post(f"/class/{room.code}/answer", json={"question_id": question, "value": value}).status_code
                for value in ["0.3", "1.0"] * 10]
    assert statuses[:5] == [200] * 5 and statuses.count(429) >= 10
    assert other.post(f"/class/{room.code}/answer", json={"question_id": question, "value": right}).status_code == 200
    tally = store.tally(room.code, room.teacher_key, question)
    assert sum(tally.values()) == 2 and tally[right] == 1


def test_the_throttle_refills_and_forgets_the_oldest_keys():
    throttle = student.Throttle(burst=2, per_second=1, most_keys=3)
    assert [throttle.allow("a", 0), throttle.allow("a", 0), throttle.allow("a", 0)] == [True, True, False]
    assert throttle.allow("a", 1.0)
    for key in "bcd":
        throttle.allow(key, 1.0)
    assert list(throttle.buckets) == ["b", "c", "d"]


def _all_text(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def test_a_screen_holds_no_nickname_and_no_right_answer_before_the_reveal(store, room):
    step = PREDICT[0]
    joined(store, room, "Zelda").post(f"/class/{room.code}/answer",
                                      json={"question_id": step.question_id, "value": step.right_answer})
    for state in ("open", "locked"):
        if state == "locked":
            store.lock(room.code, room.teacher_key, step.question_id)
        shown = screens.build(store.current(room.code), lambda q: pytest.fail("read the answers before the reveal"),
                              "en")
        assert "reveal" not in shown["question"] and "Zelda" not in _all_text(shown)
        explanations = [option.explanation for option in step.options]
        assert not any(e and e in _all_text(shown) for e in explanations)
    store.reveal(room.code, room.teacher_key, step.question_id)
    revealed = screens.build(store.current(room.code), lambda q: store.distribution(room.code, q), "en")
    assert "Zelda" not in _all_text(revealed)
    assert [c["right"] for c in revealed["question"]["reveal"]["counts"]] == [True]


def test_a_revealed_typed_answer_is_shown_as_typed_never_as_markup(store):
    room = store.create_room()
    from classroom.steps import playground_lesson
    from metrics.registry import RankingCase

    step = live_step(playground_lesson(RankingCase(["a", "b", "c"], {"a": 1.0}, 2), "precision_at_k"), 0)
    show(store, room, step)
    for n, typed in enumerate(["**0.5**", "<img src=x onerror=alert(1)>", "0.5"]):
        student_id = store.join(room.code, f"s{n}")
        store.answer(room.code, student_id, step.question_id, typed)
    store.reveal(room.code, room.teacher_key, step.question_id)
    revealed = screens.build(store.current(room.code), lambda q: store.distribution(room.code, q), "en")
    reveal = revealed["question"]["reveal"]  # the HTML the page inserts (values are only lookup keys)
    shown = _all_text([[c["answer"] for c in reveal["counts"]], list(reveal["verdicts"].values()), reveal["none"],
                       reveal["right"], reveal["mistakes"], reveal["why"]])
    assert "<img" not in shown and "<strong>0.5</strong>" not in shown and "&lt;img src=x" in shown
    assert "**0.5**" in shown


# --------------------------------------------------------------------------- the stream, on a real server

class LiveServer:
    """The student routes on uvicorn in a thread (a TestClient buffers a whole response: no stream)."""

    def __init__(self, hub: Hub):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(Starlette(routes=student.routes(hub)), port=self.port,
                                                    log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def servers(store):
    made = []
    yield lambda hub: made.append(LiveServer(hub)) or made[-1]
    for server in made:
        server.stop()


def join_live(base: str, code: str, nickname: str) -> httpx.Client:
    browser = httpx.Client(base_url=base, timeout=10)
    assert browser.post(f"/class/{code}/join", data={"nickname": nickname}).status_code == 303
    return browser


def read_events(browser: httpx.Client, code: str, wanted: int, lang: str = "en", act=None) -> list[tuple[str, dict]]:
    """The first ``wanted`` events of the stream; ``act()`` runs once the first screen arrived."""
    found = []
    with browser.stream("GET", f"/class/{code}/events?lang={lang}", timeout=10) as response:
        for kind, data in sse_events(response):
            found.append((kind, data))
            if kind == "screen" and act and sum(k == "screen" for k, _ in found) == 1:
                act()
            if len(found) >= wanted or kind == "ended":
                return found
    return found


def sse_events(response):
    """Each (event, data) of a server-sent event stream, as the phone's script reads them."""
    kind = None
    for line in response.iter_lines():
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            yield kind, json.loads(line[6:])


def test_every_phone_gets_each_step_once_built_per_language_and_across_processes(store, room, servers, monkeypatch):
    built = []
    real_build = screens.build
    monkeypatch.setattr(screens, "build", lambda now, dist, lang, *_more: built.append((now["version"], lang))
                        or real_build(now, dist, lang))
    first = servers(Hub(store, poll_seconds=0.05))
    second = servers(Hub(classroom.Store(str(store.engine.url)), poll_seconds=0.05))  # another process's
    phones = [join_live(server.url, room.code, f"S{n}") for n, server in enumerate([first, second] * 3)]
    results = [None] * len(phones)
    ready = threading.Barrier(len(phones) + 1)

    def follow(n):
        results[n] = read_events(phones[n], room.code, 3, "tr" if n == 0 else "en",
                                 act=lambda: ready.wait(10))

    threads = [threading.Thread(target=follow, args=(n,)) for n in range(len(phones))]
    for thread in threads:
        thread.start()
    ready.wait(10)
    version = show(store, room, PREDICT[1])
    for thread in threads:
        thread.join(15)
    for n, events in enumerate(results):
        assert [m for m in range(len(phones)) if f"S{m}" in _all_text(events)] == [n]  # its own name only
        kinds = [kind for kind, _ in events]
        assert kinds == ["mine", "screen", "screen"]
        assert events[2][1]["version"] == version and events[2][1]["question"]["id"] == PREDICT[1].question_id
    # once per process and language: the Turkish phone's process built Turkish too
    assert sorted(b for b in built if b[0] == version) == sorted([(version, "en"), (version, "en"), (version, "tr")])


def test_a_reloaded_phone_gets_its_own_answer_back_and_an_ended_class_ends_the_stream(store, room, servers):
    server = servers(Hub(store, poll_seconds=0.05))
    ann = join_live(server.url, room.code, "Ann")
    ann.post(f"/class/{room.code}/answer", json={"question_id": PREDICT[0].question_id,
                                                  "value": PREDICT[0].right_answer})
    events = read_events(ann, room.code, 10, act=lambda: store.end_room(room.code, room.teacher_key))
    assert events[0] == ("mine", {"caption": f"Class {room.code} · you are Ann",
                                  "answers": {PREDICT[0].question_id: PREDICT[0].right_answer}})
    assert events[-1][0] == "ended"


def test_one_student_cannot_hold_more_than_a_few_streams_open(store, room, servers):
    import contextlib

    server = servers(Hub(store, poll_seconds=0.05))
    ann = join_live(server.url, room.code, "Ann")
    with contextlib.ExitStack() as held:
        statuses = [held.enter_context(ann.stream("GET", f"/class/{room.code}/events")).status_code
                    for _stream in range(student.STREAMS_PER_STUDENT + 1)]
    assert statuses == [200] * student.STREAMS_PER_STUDENT + [429]
    for _poll in range(50):  # closed ones are given back, once the server saw them close
        with ann.stream("GET", f"/class/{room.code}/events") as again:
            if again.status_code == 200:
                break
        time.sleep(0.1)
    assert again.status_code == 200


def test_the_class_database_is_where_the_readme_says_for_the_page_and_the_light_view(monkeypatch):
    from classroom.engine import database_url
    from ui.controllers import live_class

    monkeypatch.delenv("RECEVAL_CLASSROOM_URL", raising=False)
    monkeypatch.delenv("RECEVAL_DATA_DIR", raising=False)
    assert live_class.database_url() == database_url() == f"sqlite:///{ROOT / '.receval-data' / 'live_class.db'}"


# --------------------------------------------------------------------------- the reveal, each kind of answer

from content import i18n  # noqa: E402
from content.i18n import _  # noqa: E402
from content import text  # noqa: E402
from content import classroom as class_texts  # noqa: E402

QUESTIONS = [live_step(lesson.key, i) for lesson in LESSONS for i, step in enumerate(lesson.steps)
             if step.question and step.question.options]


def wrong_explained(step) -> list:
    return [o for o in step.options if o.label != step.right_answer and o.explanation]


def revealed_screen(store, room, language="en") -> dict:
    return screens.build(store.current(room.code), lambda q: store.distribution(room.code, q), language)


def page_mistakes(step, tally: dict[str, int], language: str, monkeypatch) -> list[str]:
    """The mistake sentences the Live class page's reveal (``draw_summary``) shows, rendered as the light
    view renders its own: the two views must say the same."""
    from types import SimpleNamespace

    from ui.controllers import live_class

    said = []
    page = SimpleNamespace(info=lambda *a, **k: None, warning=said.append, metric=lambda *a, **k: None)
    monkeypatch.setattr(live_class, "st", page)
    monkeypatch.setattr(live_class, "chart", lambda *a, **k: None)
    monkeypatch.setattr(live_class, "live_charts", SimpleNamespace(answers_bars=lambda *a: None,
                                                                   answers_histogram=lambda *a: None))
    with i18n.speaking(language):
        live_class.draw_summary(step, tally, None, "probe")
    return [screens.inline(sentence) for sentence in said]


def names_option(mistake: str, option, language: str) -> bool:
    with i18n.speaking(language):
        return (screens.inline(text.markdown(class_texts.option_text(option.label))) in mistake
                and screens.inline(text.markdown(_(option.explanation))) in mistake)


@pytest.mark.parametrize("step", QUESTIONS, ids=[s.question_id for s in QUESTIONS])
def test_every_explained_wrong_option_of_every_lesson_question_is_named_with_its_explanation(step, store,
                                                                                           monkeypatch):
    """Issue 41: a reveal with an explained wrong option raised TypeError in the screen build."""
    assert wrong_explained(step), "a lesson question without an explained wrong option"
    for option in wrong_explained(step):
        room = store.create_room()
        show(store, room, step)
        store.answer(room.code, store.join(room.code, "Ann"), step.question_id, option.label)
        store.reveal(room.code, room.teacher_key, step.question_id)
        for language in ("en", "tr", "zh"):
            mistakes = revealed_screen(store, room, language)["question"]["reveal"]["mistakes"]
            assert len(mistakes) == 1 and names_option(mistakes[0], option, language), (option.label, language)
            assert mistakes == page_mistakes(step, {option.label: 1}, language, monkeypatch)


def test_a_right_and_a_wrong_option_revealed_reach_the_phone_through_the_stream(store, room, servers):
    step = PREDICT[0]
    wrong = wrong_explained(step)[0]
    server = servers(Hub(store, poll_seconds=0.05))
    ann = join_live(server.url, room.code, "Ann")
    assert ann.post(f"/class/{room.code}/answer", json={"question_id": step.question_id,
                                                         "value": step.right_answer}).status_code == 200
    store.answer(room.code, store.join(room.code, "Bob"), step.question_id, wrong.label)
    events = read_events(ann, room.code, 3, act=lambda: store.reveal(room.code, room.teacher_key, step.question_id))
    assert [kind for kind, _data in events] == ["mine", "screen", "screen"]
    question = events[2][1]["question"]
    assert question["state"] == "revealed" and "Bob" not in _all_text(events)
    reveal = question["reveal"]
    right = next(o for o in step.options if o.label == step.right_answer)
    assert reveal["verdicts"][step.right_answer].startswith(f"<p><strong>Right.</strong> {right.explanation}")
    assert reveal["verdicts"][wrong.label].startswith("<p><strong>Not quite.</strong>")
    assert [(c["value"], c["students"], c["right"]) for c in reveal["counts"]] == [
        (o.label, 1, o.label == step.right_answer) for o in step.options if o in (right, wrong)]
    assert reveal["right"] == "Right: 1 of 2"
    assert len(reveal["mistakes"]) == 1 and names_option(reveal["mistakes"][0], wrong, "en")
    assert reveal["mistakes"][0].startswith("<strong>1 student chose ")


def test_a_typed_number_that_a_named_mistake_gives_is_named_as_on_the_page(store, monkeypatch):
    from classroom.steps import playground_lesson
    from metrics.registry import RankingCase

    room = store.create_room()
    step = live_step(playground_lesson(RankingCase(["a", "b", "c", "d"], {"b": 2.0, "d": 1.0}, 3), "ndcg_at_k"), 0)
    show(store, room, step)
    name, value = next((n, v) for n, v in step.mistakes().items() if abs(v - step.exact_value) > 1e-3)
    typed = f"{value:.4f}"
    store.answer(room.code, store.join(room.code, "Ann"), step.question_id, typed)
    store.reveal(room.code, room.teacher_key, step.question_id)
    for language in ("en", "tr"):
        reveal = revealed_screen(store, room, language)["question"]["reveal"]
        with i18n.speaking(language):
            named = screens.inline(text.markdown(_(name)))
        assert len(reveal["mistakes"]) == 1 and named in reveal["mistakes"][0]
        assert reveal["mistakes"] == page_mistakes(step, {typed: 1}, language, monkeypatch)
        assert named in reveal["verdicts"][typed]
    assert "is what you get with" in revealed_screen(store, room)["question"]["reveal"]["verdicts"][typed]


def test_a_right_typed_number_is_told_the_exact_value_on_the_phone_and_on_the_page(store, monkeypatch):
    """Typed within the tolerance, a right number's verdict says the exact value, in the reader's notation, on the light
    view and on the Live class page's student screen alike."""
    from types import SimpleNamespace

    from classroom.steps import playground_lesson
    from metrics.registry import RankingCase
    from ui.controllers import live_class

    room = store.create_room()
    step = live_step(playground_lesson(RankingCase(["a", "b", "c"], {"a": 1.0, "c": 1.0}, 3), "ap_at_k"), 0)
    show(store, room, step)
    typed = f"{step.exact_value:.4f}"
    assert typed == "0.8333"
    store.answer(room.code, store.join(room.code, "Ann"), step.question_id, typed)
    store.reveal(room.code, room.teacher_key, step.question_id)
    for language, said in (("en", "<strong>Right.</strong> The exact value is 0.8333 (= 5/6)."),
                           ("tr", "<strong>Doğru.</strong> Tam değer 0,8333 (= 5/6).")):
        assert revealed_screen(store, room, language)["question"]["reveal"]["verdicts"][typed].startswith(
            f"<p>{said}</p>")
        shown = []
        page = SimpleNamespace(success=shown.append, error=shown.append, info=lambda *a, **k: None,
                               markdown=lambda *a, **k: None)
        monkeypatch.setattr(live_class, "st", page)
        monkeypatch.setattr(live_class, "draw_summary", lambda *a, **k: None)
        monkeypatch.setattr(live_class, "store", lambda: store)
        with i18n.speaking(language):
            live_class._after_answers(room.code, step, "revealed", step.question_id, typed)
        assert [screens.inline(s) for s in shown] == [said]


def test_a_number_with_too_few_decimals_is_told_so_and_names_no_mistake(store):
    from classroom.steps import playground_lesson
    from metrics.registry import RankingCase

    room = store.create_room()
    step = live_step(playground_lesson(RankingCase(["a", "b", "c"], {"a": 1.0, "c": 1.0}, 3), "ap_at_k"), 0)
    show(store, room, step)
    typed = f"{step.exact_value:.1f}"
    store.answer(room.code, store.join(room.code, "Ann"), step.question_id, typed)
    store.reveal(room.code, room.teacher_key, step.question_id)
    reveal = revealed_screen(store, room)["question"]["reveal"]
    assert "has too few decimals to be checked" in reveal["verdicts"][typed]
    assert reveal["mistakes"] == [] and [(c["value"], c["right"]) for c in reveal["counts"]] == [(typed, False)]


def test_a_number_option_is_written_with_the_readers_decimal_mark_on_the_phone_and_sent_as_written(store):
    """A value question's options are numbers the app checks against the metric: a Turkish phone writes 0,3333 in its
    choices, its reveal and its verdict, as the Live class page does; the value sent and counted stays the label."""
    step = live_step("rr", 2)
    wrong = wrong_explained(step)[0]
    assert step.right_answer == "0.3333" and wrong.label == "0.2917"
    room = store.create_room()
    show(store, room, step)
    choices = screens.build(store.current(room.code), lambda q: {}, "tr")["question"]["options"]
    assert [(o["value"], o["text"]) for o in choices] == [(o.label, o.label.replace(".", ",")) for o in step.options]
    store.answer(room.code, store.join(room.code, "Ann"), step.question_id, wrong.label)
    store.reveal(room.code, room.teacher_key, step.question_id)
    reveal = revealed_screen(store, room, "tr")["question"]["reveal"]
    assert [(c["value"], c["answer"]) for c in reveal["counts"]] == [("0.2917", "0,2917")]
    assert "<strong>0,3333</strong>" in reveal["verdicts"]["0.2917"] and "0,2917" in reveal["mistakes"][0]
    assert "<strong>0.3333</strong>" in revealed_screen(store, room, "zh")["question"]["reveal"]["verdicts"]["0.2917"]


def test_a_question_nobody_answered_is_revealed_as_such(store, room, monkeypatch):
    step = PREDICT[0]
    store.reveal(room.code, room.teacher_key, step.question_id)
    question = revealed_screen(store, room)["question"]
    reveal = question["reveal"]
    assert question["state"] == "revealed" and reveal["right"] == "Nobody answered this question."
    assert (reveal["counts"], reveal["mistakes"], reveal["verdicts"]) == ([], [], {})
    assert "You did not answer" in reveal["none"]
    assert page_mistakes(step, {}, "en", monkeypatch) == []


def test_anonymous_students_in_anonymous_mode_see_the_reveal_and_no_name(store, room, servers):
    step = PREDICT[0]
    first, second = wrong_explained(step)[:2]
    server = servers(Hub(store, poll_seconds=0.05))
    phone = httpx.Client(base_url=server.url, timeout=10)
    assert phone.post(f"/class/{room.code}/join", data={"nickname": ""}).status_code == 303
    assert phone.post(f"/class/{room.code}/answer", json={"question_id": step.question_id,
                                                           "value": first.label}).status_code == 200
    store.answer(room.code, store.join(room.code, None), step.question_id, second.label)
    store.set_anonymous(room.code, room.teacher_key, True)
    names = list(store.roster(room.code, room.teacher_key).nickname)
    events = read_events(phone, room.code, 3, act=lambda: store.reveal(room.code, room.teacher_key, step.question_id))
    assert [kind for kind, _data in events] == ["mine", "screen", "screen"]
    reveal = events[2][1]["question"]["reveal"]
    assert len(reveal["mistakes"]) == 2
    for option in (first, second):
        assert sum(names_option(m, option, "en") for m in reveal["mistakes"]) == 1, option.label
    assert not any(name in _all_text(events[1:]) for name in names)



def test_a_second_round_is_answered_and_revealed_on_the_phone(store, room, servers):
    step = PREDICT[0]
    first, second = wrong_explained(step)[:2]
    server = servers(Hub(store, poll_seconds=0.05))
    ann = join_live(server.url, room.code, "Ann")
    bob = store.join(room.code, "Bob")
    store.answer(room.code, bob, step.question_id, first.label)
    store.reveal(room.code, room.teacher_key, step.question_id)
    again = store.ask_again(room.code, room.teacher_key, step.question_id)
    mine, shown = read_events(ann, room.code, 2)
    assert mine[1]["answers"] == {} and (shown[1]["question"]["id"], shown[1]["question"]["state"]) == (again, "open")
    assert ann.post(f"/class/{room.code}/answer", json={"question_id": again, "value": "0.5"}).status_code == 400
    assert ann.post(f"/class/{room.code}/answer", json={"question_id": again,
                                                         "value": step.right_answer}).status_code == 200
    store.answer(room.code, bob, again, second.label)
    events = read_events(ann, room.code, 3, act=lambda: store.reveal(room.code, room.teacher_key, again))
    assert events[0][1]["answers"] == {again: step.right_answer}
    question = events[2][1]["question"]
    assert (question["id"], question["state"]) == (again, "revealed")
    reveal = question["reveal"]
    assert sorted(c["value"] for c in reveal["counts"]) == sorted([step.right_answer, second.label])
    assert len(reveal["mistakes"]) == 1 and names_option(reveal["mistakes"][0], second, "en")
    assert reveal["verdicts"][step.right_answer].startswith("<p><strong>Right.</strong>")


@pytest.mark.parametrize("fault", [TypeError, KeyError])  # issue 41's fault; a KeyError is no ended class either
def test_a_screen_that_fails_to_build_is_logged_and_the_phones_keep_their_stream_and_last_screen(
        fault, store, room, servers, monkeypatch, caplog):
    import logging

    from content.pages import live_phone

    real_build, broken = screens.build, store.current(room.code)["version"] + 1

    def build(now, distribution, language, by_student=None):
        if now["version"] == broken:
            raise fault("a fault in the screen <b>")
        return real_build(now, distribution, language, by_student)

    monkeypatch.setattr(screens, "build", build)
    caplog.set_level(logging.ERROR, logger="classroom.web.hub")
    server = servers(Hub(store, poll_seconds=0.05))
    phone = join_live(server.url, room.code, "Ann")
    found, locked = [], []
    with phone.stream("GET", f"/class/{room.code}/events?lang=tr", timeout=10) as response:
        for kind, data in sse_events(response):
            found.append((kind, data))
            if len(found) == 2:
                assert show(store, room, PREDICT[1]) == broken
            elif kind == "notice":  # the stream is still open: the teacher's next move reaches the phone
                locked.append(store.lock(room.code, room.teacher_key, PREDICT[1].question_id))
            elif len(found) == 4:
                break
    assert [kind for kind, _data in found] == ["mine", "screen", "notice", "screen"]
    with i18n.speaking("tr"):
        notice = screens.inline(_(live_phone.SCREEN_FAILED))
    assert found[2][1] == {"version": broken, "notice": notice} and notice != live_phone.SCREEN_FAILED
    assert "fault" not in _all_text(found) and "Traceback" not in _all_text(found)
    question = found[3][1]["question"]
    assert (found[3][1]["version"], question["id"], question["state"]) == (locked[0], PREDICT[1].question_id, "locked")
    [record] = [r for r in caplog.records if r.name == "classroom.web.hub"]
    assert record.levelno == logging.ERROR and record.exc_info[0] is fault
    logged = record.getMessage()
    assert room.code in logged and f"lesson {PREDICT[1].lesson}, step {PREDICT[1].index}" in logged


# --------------------------------------------------------------------------- a timer running out

def test_a_timer_running_out_locks_every_phone_once_without_a_teacher_move(tmp_path, servers, monkeypatch):
    """The store's clock passes the deadline and nothing else happens (no version move): every phone's stream
    gets the locked screen; the process read the room once and built the screen once, not once per phone.
    Each phone was told, with its open screen, the seconds left when it was sent (its script counts them down)."""
    clock = [1_000_000.0]
    store = classroom.Store(f"sqlite:///{tmp_path / 'timer.db'}", clock=lambda: clock[0])
    room = store.create_room()
    step = PREDICT[0]
    show(store, room, step)
    version = store.start_timer(room.code, room.teacher_key, step.question_id, 30)
    clock[0] += 10  # the phones open the class 10 s into the timer
    reads, built = [], []
    real_current, real_build = store.current, screens.build
    monkeypatch.setattr(store, "current", lambda code: reads.append(clock[0]) or real_current(code))
    monkeypatch.setattr(screens, "build", lambda now, dist, lang, *_more: built.append(now["state"])
                        or real_build(now, dist, lang))
    server = servers(Hub(store, poll_seconds=0.05))
    phones = [join_live(server.url, room.code, name) for name in ("Ann", "Bob", "Cem")]
    results = [None] * len(phones)
    ready = threading.Barrier(len(phones) + 1)

    def follow(n):
        results[n] = read_events(phones[n], room.code, 4, act=lambda: ready.wait(10))

    threads = [threading.Thread(target=follow, args=(n,)) for n in range(len(phones))]
    for thread in threads:
        thread.start()
    ready.wait(10)
    reads.clear()  # the phones' first watches read the room (at once, maybe more than once)
    clock[0] += 19.9  # not yet: nothing moves
    time.sleep(0.3)  # six polls
    assert real_current(room.code)["state"] == "open" and reads == []
    clock[0] += 0.1  # the deadline
    for thread in threads:
        thread.join(15)
    assert all(results), "a phone's stream timed out before all its events came"
    for events in results:
        kinds = [kind for kind, _data in events]
        assert kinds == ["mine", "screen", "timer", "screen"], kinds
        opened, timer, locked = events[1][1], events[2][1], events[3][1]
        assert timer == {"version": version, "question_id": step.question_id, "seconds_left": 20.0}
        assert (opened["version"], opened["question"]["state"]) == (version, "open")
        assert (locked["version"], locked["question"]["state"]) == (version, "locked")  # the same version
    assert len(reads) == 1 and built == ["open", "locked"]  # once for the room, not once per phone
    refused = phones[0].post(f"/class/{room.code}/answer", json={"question_id": step.question_id,
                                                                 "value": step.right_answer})
    assert refused.status_code == 409


def test_the_phones_script_is_told_the_timer_sentence_with_a_slot_for_the_time_in_each_language():
    for language, sentence in (("en", "⏱ Answers lock in {}."), ("tr", "⏱ Cevaplar {} sonra kilitlenecek."),
                               ("zh", "⏱ 答案将在 {} 后锁定。")):
        assert screens.phrases(language)["timer"] == sentence.format(screens.ANSWER_SLOT)
