"""The student's light view of a live class: a small HTML page, a server-sent-events stream, answers by POST.

    GET  /class/{code}          the join form, or the class once this browser joined
    POST /class/{code}/join     join with a nickname (the store's rules); sets the student's cookie
    GET  /class/{code}/events   the class's screens as they change (``event: screen``), for a joined student;
                                ``event: notice`` when a screen could not be built (the phone keeps its last);
                                ``event: timer`` after a screen whose question has a timer running
    POST /class/{code}/answer   {"question_id", "value"} as JSON, for a joined student
    GET  /class/{code}/mine     ?question=ID: a variant question's part of this student alone (their own list,
                                a value question's choices, after the reveal their verdict), as JSON

A phone costs the server no Streamlit session: it holds one idle stream, and a step change is one
screen built per language and written to every stream (:mod:`classroom.web.hub`). The student's id,
the secret that answers for them, lives only in an HttpOnly, SameSite=Strict cookie scoped to the
class's path: no script, other site or other class sees it. Nothing here acts for the teacher.
"""

from __future__ import annotations

import asyncio
import html
import json
import time
from collections import Counter, OrderedDict
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from classroom import RoomNotFound, clients, codes
from classroom.limits import JoinThrottled
from classroom import variants
from classroom.steps import asked_question, is_known, live_step
from classroom.store import AnswersClosed, ClassFull, QuestionNotFound, RoomLocked, base_question
from classroom.web import screen
from classroom.web.hub import Hub
from content import classroom as class_texts
from content import i18n
from content.i18n import _
from content.pages import live as words
from content.pages import live_phone
from teaching import practice
from content import text

COOKIE = "receval_student"
KEEPALIVE_SECONDS = 15.0
STREAMS_PER_STUDENT = 3  # a phone, a reload's overlap, a second tab: more is a script holding connections
STATIC = Path(__file__).with_name("static")


def join_path(code: str, language: str) -> str:
    """The light view's address for a class (what the join link and QR code should carry)."""
    return f"/class/{codes.normal_code(code)}?lang={language}"


class Throttle:
    """At most ``burst`` answers at once per cookie, refilled at ``per_second``: a script re-sending
    answers in a loop gets 429 and costs no database write. Bounded: the oldest keys are forgotten."""

    def __init__(self, burst: float = 5, per_second: float = 1, most_keys: int = 20_000):
        self.burst, self.per_second, self.most_keys = burst, per_second, most_keys
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        tokens, then = self.buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.per_second)
        self.buckets[key] = (tokens - 1, now) if tokens >= 1 else (tokens, now)
        while len(self.buckets) > self.most_keys:
            self.buckets.popitem(last=False)
        return tokens >= 1


def language_of(request: Request) -> str:
    """``?lang=`` when it is one of ours, else the browser's first language we have, else English."""
    known = i18n.languages()
    asked = request.query_params.get("lang") or ""
    if asked in known:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        prefix = part.split(";")[0].strip().split("-")[0].lower()
        if prefix in known:
            return prefix
    return i18n.SOURCE


def client_key(request: Request) -> str | None:
    """Who is joining, for the store's limits on joins and wrong codes (classroom.clients): the client's
    address, behind deploy/'s nginx on loopback the one nginx appends to X-Forwarded-For (a client cannot
    forge the last entry); None for a client on this machine, which the store does not limit."""
    return clients.client_address(request.client.host if request.client else None,
                                  request.headers.get("x-forwarded-for"))


def routes(hub: Hub, throttle: Throttle | None = None) -> list[Route]:
    store = lambda: hub.store  # noqa: E731 - built on first use, in the serving process
    throttle = throttle or Throttle()
    own_throttle = Throttle(burst=10, per_second=2)  # a phone asks twice a question; a loop is refused unread
    streams: Counter[str] = Counter()  # open event streams per student id, in this process

    async def page(request: Request) -> Response:
        code, language = codes.normal_code(request.path_params["code"]), language_of(request)
        if await run_in_threadpool(_is_homework, store(), code):  # a homework's code typed as a class's
            return RedirectResponse(f"/homework/{code}?lang={language}", status_code=303)
        student_id = request.cookies.get(COOKIE)
        if student_id:
            try:
                await run_in_threadpool(store().student, code, student_id)
                return _page(language, code, _class_body(code, language))
            except RoomNotFound:
                return _page(language, code, _notice(_in(language, words.ENDED_FOR_STUDENT)), status=404)
            except LookupError:
                pass  # an old cookie of an ended class with the same code, or another class's: join again
        return _page(language, code, _join_form(code, language, asked=await run_in_threadpool(_join_question, store(),
                                                                                                code)))

    async def join(request: Request) -> Response:
        code, language = codes.normal_code(request.path_params["code"]), language_of(request)
        form = await request.form()
        nickname = str(form.get("nickname", ""))[:codes.MAX_NICKNAME * 4]
        identifier = str(form.get("identifier", ""))[:codes.MAX_NICKNAME * 4]
        problem = await run_in_threadpool(_join, store(), code, nickname, client_key(request), language, identifier)
        if isinstance(problem, str):
            asked = await run_in_threadpool(_join_question, store(), code)
            return _page(language, code, _join_form(code, language, nickname, problem, asked, identifier), status=400)
        response = RedirectResponse(f"/class/{code}?lang={language}", status_code=303)
        response.set_cookie(COOKIE, problem["student_id"], max_age=int(store().max_age), path=f"/class/{code}",
                            httponly=True, samesite="strict", secure=request.url.scheme == "https"
                            or request.headers.get("x-forwarded-proto") == "https")
        return response

    async def events(request: Request) -> Response:
        code, language = codes.normal_code(request.path_params["code"]), language_of(request)
        student_id = request.cookies.get(COOKIE, "")
        try:
            await run_in_threadpool(store().student, code, student_id)
        except RoomNotFound:
            return Response("event: ended\ndata: {}\n\n", media_type="text/event-stream")
        except LookupError:
            return JSONResponse({"error": "not a student of this class"}, status_code=403)
        if streams[student_id] >= STREAMS_PER_STUDENT:
            return JSONResponse({"error": "too many open streams"}, status_code=429)

        async def stream():
            # Counted from inside the generator: its finally runs whenever it started, however it ends.
            streams[student_id] += 1
            feed = None
            try:
                feed = await hub.watch(code)
                mine = await run_in_threadpool(_mine, store(), code, student_id, feed.now, language)
                yield f"event: mine\ndata: {json.dumps(mine, ensure_ascii=False)}\n\n".encode()
                while feed.now is not None:
                    changed, now = feed.changed, feed.now
                    try:
                        built = await hub.screen(feed, language)
                    except RoomNotFound:  # the class ended on the way: the phone is told below
                        raise
                    except Exception:  # noqa: BLE001 - logged by the hub; the stream waits for the next change
                        yield _notice_event(now["version"], language)
                    else:
                        yield b"event: screen\ndata: " + built + b"\n\n"
                        if now["deadline"] is not None:
                            yield _timer_event(now, hub.store.clock())
                    while not changed.is_set():
                        try:
                            await asyncio.wait_for(changed.wait(), KEEPALIVE_SECONDS)
                        except TimeoutError:
                            yield b": keep-alive\n\n"
                yield b"event: ended\ndata: {}\n\n"
            except LookupError:  # the class ended (or the student left it) on the way
                yield b"event: ended\ndata: {}\n\n"
            finally:
                if feed is not None:
                    hub.leave(code, feed)
                streams[student_id] -= 1
                if streams[student_id] <= 0:
                    del streams[student_id]

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def answer(request: Request) -> Response:
        code, language = codes.normal_code(request.path_params["code"]), language_of(request)
        # JSON only: a form another site posts cannot set this type without the browser asking first.
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"error": "send JSON"}, status_code=415)
        try:
            sent = await request.json()
            question_id, value = str(sent["question_id"]), str(sent["value"]).strip()
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": "send {question_id, value}"}, status_code=400)
        if not throttle.allow(request.cookies.get(COOKIE, "")):
            return JSONResponse({"error": "too many answers: wait a second"}, status_code=429)
        status, body = await run_in_threadpool(_answer, store(), code, request.cookies.get(COOKIE, ""), question_id,
                                               value, language)
        return JSONResponse(body, status_code=status)

    async def own(request: Request) -> Response:
        """A variant question's part of one phone: its own list (and choices), its verdict after the reveal."""
        code, language = codes.normal_code(request.path_params["code"]), language_of(request)
        if not own_throttle.allow(request.cookies.get(COOKIE, "")):  # the phone asks again when it is told
            return JSONResponse({"error": "too many requests: wait a second"}, status_code=429,
                                headers={"Retry-After": "1"})
        feed = hub.feeds.get(code)  # the room as this process's event streams hold it, when they follow it
        status, body = await run_in_threadpool(_own, store(), code, request.cookies.get(COOKIE, ""),
                                               request.query_params.get("question", ""), language,
                                               feed.now if feed is not None else None)
        return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})

    async def script(_request: Request) -> Response:
        return FileResponse(STATIC / "student.js", media_type="text/javascript",
                            headers={"Cache-Control": "public, max-age=300"})

    return [Route("/class/static/student.js", script), Route("/class/{code}", page),
            Route("/class/{code}/join", join, methods=["POST"]), Route("/class/{code}/events", events),
            Route("/class/{code}/answer", answer, methods=["POST"]), Route("/class/{code}/mine", own)]


def _notice_event(version: int, language: str) -> bytes:
    """What a phone gets instead of a screen that could not be built: a sentence for its status line, no
    detail of the error; its last screen stays until the next one."""
    notice = {"version": version, "notice": _in(language, live_phone.SCREEN_FAILED)}
    return f"event: notice\ndata: {json.dumps(notice, ensure_ascii=False)}\n\n".encode()


def _timer_event(now: dict, at: float) -> bytes:
    """The seconds left on the question's timer, counted when this phone is sent it: the screen is shared
    (built once per version) and a phone's clock is not the server's, so the phone counts down from here
    and closes its answer form itself when they are gone (the hub's next poll sends the locked screen)."""
    timer = {"version": now["version"], "question_id": now["question_id"],
             "seconds_left": round(max(now["deadline"] - at, 0.0), 3)}
    return f"event: timer\ndata: {json.dumps(timer)}\n\n".encode()


# --------------------------------------------------------------------------- the store's calls, in a thread

def _join_question(store, code: str) -> str | None:
    """The class's join question (the gradebook's), or None (no such class: the join says so)."""
    try:
        return store.current(code)["join_question"]
    except RoomNotFound:
        return None


def _is_homework(store, code: str) -> bool:
    try:
        return store.current(code)["homework"]
    except RoomNotFound:
        return False


def _join(store, code: str, nickname: str, client: str | None, language: str, identifier: str = "") -> dict | str:
    """{"student_id"}, or what is wrong in the student's language: every rule (the limits, the cap, look-alike
    names) is the store's, as on the Streamlit page; this only says what it answered."""
    with i18n.speaking(language):
        try:
            return {"student_id": store.join(code, nickname if nickname.strip() else None, client=client,
                                             anonymous=_(words.ANONYMOUS),
                                             identifier=identifier if identifier.strip() else None)}
        except JoinThrottled as problem:
            return class_texts.join_throttled(problem.reason, problem.seconds)
        except RoomNotFound:  # the store counted it as a wrong code
            return words.no_such_class(text.quoted(code))
        except RoomLocked:
            return _(class_texts.ROOM_LOCKED)
        except ClassFull as problem:
            return class_texts.class_full(problem.most)
        except ValueError as problem:  # the nickname: taken, too long, invisible characters
            return class_texts.nickname_problem(problem)


def _mine(store, code: str, student_id: str, now: dict | None, language: str) -> dict:
    """What is this student's own: the caption with their nickname (unless the teacher hid it) and their
    answer to the question on screen (a reload or a new phone shows it again)."""
    me = store.student(code, student_id)
    with i18n.speaking(language):
        nickname = _(words.HIDDEN_NICKNAME) if me["hidden"] else text.markdown(me["nickname"])
        found = {"caption": screen.inline(words.student_caption(code, nickname)), "answers": {}}
    step = live_step(now["lesson"], now["step"]) if now else None
    question_id = asked_question(step, now) if step is not None else None
    if question_id is not None:
        value = store.my_answer(code, student_id, question_id)
        if value is not None:
            found["answers"][question_id] = value
    return found


def _own(store, code: str, student_id: str, question_id: str, language: str,
         known: dict | None = None) -> tuple[int, dict]:
    """The phone's own list for the class's variant question (its first round's list for every round). One read
    (``Store.own_part``): the student checked, their answer, and the room unless ``known`` (the hub's) is current."""
    try:
        now, answered = store.own_part(code, student_id, question_id, known)
    except RoomNotFound:
        return 404, {"error": "the class has ended"}
    except LookupError:
        return 403, {"error": "not a student of this class"}
    step = live_step(now["lesson"], now["step"])
    if step is None or step.variant is None or asked_question(step, now) != question_id:
        return 409, {"error": "not the class's question now"}
    state = now["state"] if question_id == now["question_id"] else "open"
    scenario = variants.draw(step.lesson_step, now["seed"], student_id, base_question(question_id))
    mine = answered if state == "revealed" else None
    with i18n.speaking(language):
        return 200, screen.own(step, scenario, state, mine, question_id)


def _answer(store, code: str, student_id: str, question_id: str, value: str, language: str) -> tuple[int, dict]:
    """One transaction (the store's): the room, the student and the question's state are checked there."""
    with i18n.speaking(language):
        lesson = base_question(question_id).rpartition(":")[0]
        if not is_known(lesson):  # a lesson file this process has not read yet: reading the room reads it
            try:
                store.current(code)
            except RoomNotFound:
                return 404, {"error": screen.inline(_(words.ENDED_FOR_STUDENT))}
        step = _lesson_step(question_id)
        if step is not None and value not in {o.label for o in step.options}:
            return 400, {"error": "not one of the options"}
        if step is None:
            try:
                practice.parse_answer(value)
            except ValueError:
                return 400, {"error": screen.inline(words.not_a_number(text.quoted(value)))}
        try:
            store.answer(code, student_id, question_id, value)
        except RoomNotFound:
            return 404, {"error": screen.inline(_(words.ENDED_FOR_STUDENT))}
        except (AnswersClosed, QuestionNotFound) as closed:
            return 409, {"error": screen.inline(class_texts.answers_closed(getattr(closed, "state", "locked")))}
        except LookupError:
            return 403, {"error": screen.inline(_(words.NOT_IN_CLASS))}
        except ValueError as problem:
            return 400, {"error": screen.inline(text.markdown(str(problem)))}
        return 200, {"question_id": question_id, "value": value}


def _lesson_step(question_id: str):
    """The lesson step a question id names (``lesson:index``, see ``LiveStep.question_id``, or a later
    round of it, ``lesson:index#2``); None for a playground question, whose answer is a number."""
    lesson, _colon, index = base_question(question_id).rpartition(":")
    step = live_step(lesson, int(index)) if index.isdigit() and not lesson.startswith("playground") else None
    return step if step is not None and step.options and step.variant is None else None


# --------------------------------------------------------------------------- the page

def _in(language: str, message: str) -> str:
    with i18n.speaking(language):
        return screen.inline(_(message))


def _page(language: str, code: str, body: str, status: int = 200) -> HTMLResponse:
    title = f"{_in(language, words.TITLE)} · {html.escape(code)}"
    tag = i18n.html_lang(language)
    document = (f"<!doctype html><html lang='{tag}'><head><meta charset='utf-8'>"
                "<meta name='viewport' content='width=device-width, initial-scale=1'>"
                f"<title>{title}</title><style>{_STYLE}</style></head><body><main>{body}</main></body></html>")
    return HTMLResponse(document, status_code=status, headers={
        "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
                                   "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"})


def _notice(message_html: str) -> str:
    return f"<p role='status'>{message_html}</p>"


def _join_form(code: str, language: str, nickname: str = "", problem: str = "", asked: str | None = None,
               identifier: str = "", action: str | None = None) -> str:
    with i18n.speaking(language):
        error = (f"<p id='problem' role='alert' class='error'>{screen.inline(problem)}</p>" if problem else "")
        described = " aria-invalid='true' aria-describedby='problem'" if problem else ""
        # The teacher's own words (e.g. "Student number"), shown as text.
        ask = (f"<label for='identifier'>{html.escape(asked)}</label>"
               f"<input id='identifier' name='identifier' maxlength='{codes.MAX_NICKNAME}' autocomplete='off' required "
               f"value='{html.escape(identifier, quote=True)}'>" if asked else "")
        return (f"<h1>{screen.inline(_(words.JOIN_HEADING))}</h1>"
                f"<p>{screen.inline(_(words.CODE_LABEL))}: <span class='code'>{html.escape(code)}</span></p>"
                f"<form method='post' action='{action or f'/class/{html.escape(code)}/join?lang={language}'}'>"
                f"{error}{ask}"
                f"<label for='nickname'>{screen.inline(_(words.NICKNAME_LABEL))}</label>"
                f"<input id='nickname' name='nickname' maxlength='{codes.MAX_NICKNAME}' autocomplete='nickname' "
                f"value='{html.escape(nickname, quote=True)}'{'' if asked else ' autofocus'}{described}>"
                f"<button type='submit'>{screen.inline(_(words.JOIN))}</button></form>")


def _class_body(code: str, language: str) -> str:
    config = {"events": f"/class/{code}/events?lang={language}", "answer": f"/class/{code}/answer?lang={language}",
              "own": f"/class/{code}/mine?lang={language}",
              "phrases": screen.phrases(language), "slot": screen.ANSWER_SLOT}
    # JSON inside a script element: "<" escaped, so no text can close the element.
    data = json.dumps(config, ensure_ascii=False).replace("<", "\\u003c")
    return (f"<p id='caption'></p><p id='status' role='status'>{screen.phrases(language)['connecting']}</p>"
            "<div id='screen' aria-live='polite'></div>"
            f"<script type='application/json' id='config'>{data}</script>"
            "<script src='/class/static/student.js' defer></script>")


_STYLE = """
:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.5}
body{margin:0}main{max-width:40rem;margin:0 auto;padding:1rem}
h1,h2{line-height:1.25}h2{font-size:1.35rem}
label,legend{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text],input:not([type]){font-size:1.1rem;padding:.6rem;width:100%;box-sizing:border-box}
button{font-size:1.1rem;padding:.6rem 1.2rem;margin-top:.75rem;min-height:44px}
fieldset{border:0;padding:0;margin:0}
.choice{display:flex;align-items:center;gap:.6rem;min-height:44px;font-size:1.1rem}
.choice input{width:1.4rem;height:1.4rem}
:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.error{color:#b91c1c}@media (prefers-color-scheme:dark){.error{color:#fca5a5}}
.code{font-family:monospace;font-size:1.2rem}
ol.items li{margin:.15rem 0}.mine{font-weight:700}.note{opacity:.85;font-size:.95rem}
"""
