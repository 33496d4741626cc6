"""The teacher keeps the class (device cookie, My classes, the phone as a remote) and the join link
phones can open. AppTest cannot send cookies: each test browser's device id is patched in."""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route
from starlette.testclient import TestClient
from streamlit.testing.v1 import AppTest

from classroom.teachers import TeacherDevices, new_device_id
from classroom.web import teacher as web
from tests.conftest import ROOT, texts
from tests.test_page_live_class import PAGE, everything_sent, go_to_predict_step, ran, teacher
from ui.controllers import live_class, live_teacher
from ui.figures import live_charts
from ui.figures.charts import HIT

LAPTOP, PHONE, STRANGER = new_device_id(), new_device_id(), new_device_id()
CURRENT = {"device": LAPTOP}


@pytest.fixture(autouse=True)
def live_database(tmp_path, monkeypatch):
    monkeypatch.setenv("RECEVAL_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("RECEVAL_CLASSROOM_URL", raising=False)
    monkeypatch.delenv(live_teacher.PUBLIC_URL, raising=False)
    monkeypatch.setattr(live_teacher, "device_id", lambda: CURRENT["device"])
    restart()
    browser(LAPTOP)
    yield
    restart()


def restart() -> None:
    """What an app restart leaves: the database, nothing in memory."""
    live_class.store.clear()
    live_teacher.teachers.clear()


def browser(device: str | None) -> None:
    """The browser the next AppTest runs are: its device cookie."""
    CURRENT["device"] = device


def opened(query_params: dict | None = None, url: str | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    if url:
        at.context = {"url": url}
    at.switch_page(PAGE)
    for name, value in (query_params or {}).items():
        at.query_params[name] = value
    return ran(at)


def is_console(at: AppTest) -> bool:
    return any(b.key == "live_next" for b in at.button)


def test_a_reload_a_new_window_and_a_restart_bring_the_console_back_to_the_teachers_browser_only():
    _, code, key = teacher()
    assert is_console(opened({"room": code}))  # a reload: a new session, the same cookie
    restart()
    reopened = opened({"room": code})
    assert is_console(reopened) and key not in everything_sent(reopened)
    browser(STRANGER)  # a student's browser with the same link joins, it does not teach
    stranger = opened({"room": code})
    assert not is_console(stranger) and any(t.key == "live_nickname" for t in stranger.text_input)


def test_my_classes_lists_the_open_classes_of_this_browser_and_resumes_one():
    at, code, _ = teacher()
    landing = opened()
    resume = landing.button(key=f"live_resume_{code}")
    assert code in resume.label
    resume.click()
    ran(landing)
    assert is_console(landing) and landing.query_params["room"] in (code, [code])
    at.checkbox(key="live_end_sure").check()
    ran(at)
    at.button(key="live_end").click()
    ran(at)
    assert not [b for b in opened().button if b.key == f"live_resume_{code}"]


def test_the_teacher_key_is_never_on_the_console_nor_in_its_address():
    at, code, key = teacher()
    for _click in range(2):
        assert key not in everything_sent(at) and key not in str(at.query_params)
        at.button(key="live_next").click()
        ran(at)


def test_an_old_teacher_link_opens_nothing_and_leaves_the_address_bar():
    _, code, key = teacher()
    browser(STRANGER)
    at = opened({"room": code, "teacher": key})
    assert not is_console(at) and "teacher" not in at.query_params
    assert "no longer used" in texts(at)


def test_the_phone_remote_is_a_one_time_link_that_opens_the_console_on_the_phone():
    at, code, key = teacher()
    assert not [i for i in at.get("imgs") if "svg" in str(i.proto)][1:]  # only the join QR before the click
    at.button(key="live_remote").click()
    ran(at)
    token = at.session_state["live_remote_token"]
    assert token and key not in everything_sent(at)
    client = TestClient(Starlette(routes=web.routes(lambda: live_teacher.teachers(live_class.store()))))
    answer = client.get(f"{web.CLAIM_PATH}?t={token}&lang=tr", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == f"/Live_class?room={code}&lang=tr"
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and token not in answer.headers["location"]
    phone = cookie.split(";")[0].split("=", 1)[1]
    browser(phone)
    assert is_console(opened({"room": code}))
    again = TestClient(Starlette(routes=web.routes(lambda: live_teacher.teachers(live_class.store()))))
    used = again.get(f"{web.CLAIM_PATH}?t={token}", follow_redirects=False)
    assert used.headers["location"] == "/Live_class?claim=invalid"
    browser(new_device_id())
    bad = opened({"claim": "invalid"})
    assert "already used or has expired" in texts(bad) and "claim" not in bad.query_params


def test_an_expired_claim_opens_nothing(tmp_path):
    store = live_class.store()
    room = store.create_room()
    now = [1000.0]
    devices = TeacherDevices(store.engine, clock=lambda: now[0])
    token = devices.new_claim(room.code, room.teacher_key)
    now[0] += 301
    assert devices.claim(token, PHONE) is None and devices.classes(PHONE) == {}
    token = devices.new_claim(room.code, room.teacher_key)
    assert devices.claim(token, PHONE) == room.code and devices.classes(PHONE) == {room.code: room.teacher_key}
    assert room.teacher_key not in str(store.engine.connect().exec_driver_sql(
        "SELECT * FROM live_teacher_devices").all())


def test_the_device_cookie_is_set_once_on_pages_only():
    async def html(_request):
        return HTMLResponse("<html></html>")
    client = TestClient(Starlette(routes=[Route("/Live_class", html), Route("/app.js", html)],
                                  middleware=web.middleware()))
    first = client.get("/Live_class", headers={"accept": "text/html"})
    assert "receval_device=" in first.headers["set-cookie"] and "HttpOnly" in first.headers["set-cookie"]
    assert "set-cookie" not in client.get("/Live_class", headers={"accept": "text/html"}).headers
    fresh = TestClient(client.app)
    assert "set-cookie" not in fresh.get("/app.js", headers={"accept": "*/*"}).headers


# --------------------------------------------------------------------------- the address phones open

def join_link(at: AppTest) -> str:
    return next(c.value for c in at.code if "/class/" in c.value)


def test_a_page_opened_at_localhost_gives_phones_the_network_address(monkeypatch):
    monkeypatch.setattr(live_teacher.net_util, "get_internal_ip", lambda: "192.168.1.23")
    at = opened(url="http://localhost:8501/Live_class")
    at.button(key="live_start").click()
    ran(at)
    assert join_link(at).startswith("http://192.168.1.23:8501/class/")  # the phones' light view
    assert "only this computer can open" in texts(at)


def test_the_operators_public_address_wins(monkeypatch):
    monkeypatch.setenv(live_teacher.PUBLIC_URL, "https://class.example.org/")
    at = opened(url="http://127.0.0.1:8501/Live_class")
    at.button(key="live_start").click()
    ran(at)
    assert join_link(at).startswith("https://class.example.org/class/")
    assert "public address" in texts(at)


def test_no_reachable_address_is_said_in_plain_words(monkeypatch):
    monkeypatch.setattr(live_teacher.net_util, "get_internal_ip", lambda: None)
    at = opened(url="http://localhost:8501/Live_class")
    at.button(key="live_start").click()
    ran(at)
    assert join_link(at).startswith("http://localhost:8501/class/")
    assert "Phones cannot open this link" in texts(at)


def test_a_page_opened_at_its_network_name_keeps_it():
    assert live_teacher.join_base("http://lab.example.org:8501/Live_class") == (
        "http://lab.example.org:8501/Live_class", "page")


# --------------------------------------------------------------------------- the playground's question

def test_the_metric_box_shows_what_the_students_are_asked_and_changing_it_asks_that():
    at, code, _ = teacher()
    browser(STRANGER)  # the student's phone (the teacher's session keeps its class)
    ann = opened({"room": code})
    ann.text_input(key="live_nickname").input("Ann")
    ann.button(key="live_join_submit").click()
    ran(ann)
    at.selectbox(key=f"live_lesson_choice_{live_class.LESSONS[0].key}").set_value(live_class.PLAYGROUND_CHOICE)
    ran(at)
    box = next(s for s in at.selectbox if s.key and s.key.startswith("live_metric"))
    ran(ann)
    assert box.value == "ndcg_at_k" and "Predict NDCG@" in texts(ann)
    box.set_value("precision_at_k")
    ran(at)
    assert next(s for s in at.selectbox if s.key and s.key.startswith("live_metric")).value == "precision_at_k"
    ran(ann)
    assert "Predict Precision@" in texts(ann) and "Predict NDCG@" not in texts(ann)


# --------------------------------------------------------------------------- what the class looks at

def test_the_reveal_names_the_option_each_mistake_chose_and_draws_no_plotly_toolbar():
    at, code, _ = teacher()
    browser(STRANGER)
    bob = opened({"room": code})
    bob.text_input(key="live_nickname").input("Bob")
    bob.button(key="live_join_submit").click()
    ran(bob)
    go_to_predict_step(at)
    ran(bob)
    bob.radio(key="live_answer_topn:2").set_value("0.3")
    ran(bob)
    at.button(key="live_reveal").click()
    ran(at)
    assert "**1 student chose 0.3:** That is Precision@10" in texts(at)
    charts = at.get("plotly_chart")
    assert charts and all('"displayModeBar": false' in c.proto.config.replace(":false", ": false") for c in charts)


def test_the_answers_chart_keeps_a_near_miss_apart_from_the_truth_and_counts_whole_students():
    fig = live_charts.answers_histogram([(0.8278, 1), (0.8538, 1), (0.82780, 1)], 0.8278)
    bars = fig.data[0]
    assert list(bars.x) == [0.8278, 0.8538] and list(bars.y) == [2, 1]
    assert bars.width < 0.8538 - 0.8278
    assert fig.layout.yaxis.tickformat == "d" and fig.layout.yaxis.dtick >= 1
    label = next(a for a in fig.layout.annotations if "0.8278" in a.text)
    assert label.font.color == HIT and label.yanchor == "bottom"  # above the plot, not over a bar


def test_item_numbers_inside_the_bars_stand_upright_so_a_phone_keeps_them():
    from content.lessons import LESSONS

    figures = [figure for _caption, _cards, figure in live_class.step_content(LESSONS[0].key, 0, False)]
    inside = [t for f in figures for t in f.data if t.type == "bar" and t.textposition == "inside"]
    assert inside and all(t.textangle == -90 for t in inside)
    assert all(f.layout.uniformtext.mode == "show" for f in figures if any(t in inside for t in f.data))


def test_the_presenter_view_has_no_controls_no_claim_code_and_no_roster():
    at, code, key = teacher()
    go_to_predict_step(at)
    at.button(key="live_remote").click()  # the claim code is on the console...
    ran(at)
    presenter = opened({"room": code, "view": "present"})
    assert any(code in str(h.proto) for h in presenter.get("html"))
    assert not [b for b in presenter.button if b.key and b.key.startswith("live_")]  # ...never here
    assert not [s for s in presenter.selectbox if s.key and s.key.startswith("live_")]
    assert not presenter.get("expandable")  # the roster and the end of the class stay on the console
    sent = everything_sent(presenter)
    assert key not in sent and at.session_state["live_remote_token"] not in sent
    assert "What is Recall@10?" in texts(presenter)
