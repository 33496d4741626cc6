"""The student's light view of a homework: plain HTML pages and forms, no script, each step at the student's pace.

    GET  /homework/{code}          the join form, or this student's step (their answer and its verdict once given)
    POST /homework/{code}/join     join with a nickname (and the join question): the live class's rules and limits
    POST /homework/{code}/answer   question_id, value (a form): judged at once, final; refused after the deadline
    POST /homework/{code}/move     step: where this student goes (Back / Next); kept, so a reload resumes there

The screens and verdicts are the live class's (:mod:`classroom.web.screen`), built for this one student: their own
list on a variant question, their verdict as soon as they answer (there is no teacher's reveal). At home there is no
projector, so a step whose scenario is a list shows it (each relevant item with its grade, and K) as a list of one's
own is shown, built once per step and language (:func:`step_data`), not per student. The student's id
lives in an HttpOnly, SameSite=Strict cookie scoped to ``/homework/CODE``, as the live class's is to ``/class/CODE``:
a form another site posts arrives without it, and a cross-site request (``Sec-Fetch-Site``, ``Origin``) is refused
before it is read. Forms rather than JSON because a homework has no stream to follow: each click is one page.
Nothing here acts for the teacher; the deadline moves only with the teacher's key (``classroom.homework``).
"""

from __future__ import annotations

import datetime
import html as markup
import threading
from collections import OrderedDict

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from classroom import RoomNotFound, codes, homework, variants
from classroom.steps import lesson_of, live_step
from classroom.store import AnswersClosed, QuestionNotFound
from classroom.web import screen
from classroom.web.hub import Hub
from classroom.web.student import Throttle, _in, _join, _join_form, _page, client_key, language_of
from content import classroom as class_texts
from content import i18n, text
from content.i18n import _
from content.pages import live as words

COOKIE = "receval_homework"
MOST_STEP_DATA = 512  # steps' lists kept built (a lesson's steps x languages); one evicted is built again
_step_data_cache: OrderedDict[tuple[str, int, str], str] = OrderedDict()
_step_data_lock = threading.Lock()


def homework_path(code: str, language: str) -> str:
    """The homework's address for phones (what the console's link and QR code carry)."""
    return f"/homework/{codes.normal_code(code)}?lang={language}"


def deadline_text(closes_at: float) -> str:
    """The deadline as every screen writes it: in UTC, to the minute."""
    return datetime.datetime.fromtimestamp(closes_at, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")


def _cross_site(request: Request) -> bool:
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return True
    origin = request.headers.get("origin")
    return bool(origin) and origin != "null" and origin.split("://", 1)[-1] != request.headers.get("host", "")


def routes(hub: Hub, throttle: Throttle | None = None) -> list[Route]:
    store = lambda: hub.store  # noqa: E731 - built on first use, in the serving process
    throttle = throttle or Throttle()                      # answers: the live class's limit
    moves = Throttle(burst=20, per_second=4)                # Back / Next: a student paging quickly, not a loop

    async def page(request: Request) -> Response:
        code, language = codes.normal_code(request.path_params["code"]), language_of(request)
        status, body = await run_in_threadpool(_student_page, store(), code, request.cookies.get(COOKIE, ""),
                                               language)
        return _page(language, code, body, status=status)

    async def join(request: Request) -> Response:
        code, language = codes.normal_code(request.path_params["code"]), language_of(request)
        if _cross_site(request):
            return Response("cross-site request refused", status_code=403)
        form = await request.form()
        nickname = str(form.get("nickname", ""))[:codes.MAX_NICKNAME * 4]
        identifier = str(form.get("identifier", ""))[:codes.MAX_NICKNAME * 4]
        found = await run_in_threadpool(_info, store(), code)
        if found is None:
            return _page(language, code, f"<p role='status'>{_in(language, class_texts.HOMEWORK_ENDED)}</p>", 404)
        problem = await run_in_threadpool(_join, store(), code, nickname, client_key(request), language, identifier)
        if isinstance(problem, str):
            return _page(language, code, _join_box(code, language, nickname, problem, found["join_question"],
                                                   identifier), status=400)
        response = RedirectResponse(homework_path(code, language), status_code=303)
        response.set_cookie(COOKIE, problem["student_id"], max_age=int(found["closes_at"] + homework.HOMEWORK_KEEP
                                                                       - store().clock()),
                            path=f"/homework/{code}", httponly=True, samesite="strict",
                            secure=request.url.scheme == "https" or request.headers.get("x-forwarded-proto") == "https")
        return response

    def refused(request: Request, student_id: str, limiter, too_many: str) -> Response | None:
        """A student's form post from another site, without this homework's cookie, or too fast: refused."""
        if _cross_site(request) or not student_id:
            return Response("cross-site request refused", status_code=403)
        if not limiter.allow(student_id):
            return Response(too_many, status_code=429)
        return None

    async def answer(request: Request) -> Response:
        code, language = codes.normal_code(request.path_params["code"]), language_of(request)
        student_id = request.cookies.get(COOKIE, "")
        if (refusal := refused(request, student_id, throttle, "too many answers: wait a second")) is not None:
            return refusal
        form = await request.form()
        question_id, value = str(form.get("question_id", ""))[:200], str(form.get("value", "")).strip()[:400]
        status, problem = await run_in_threadpool(_answer, store(), code, student_id, question_id, value, language)
        if status == 303:
            return RedirectResponse(homework_path(code, language), status_code=303)
        _status, body = await run_in_threadpool(_student_page, store(), code, student_id, language, problem, value)
        return _page(language, code, body, status=status)

    async def move(request: Request) -> Response:
        code, language = codes.normal_code(request.path_params["code"]), language_of(request)
        student_id = request.cookies.get(COOKIE, "")
        if (refusal := refused(request, student_id, moves, "too many requests: wait a second")) is not None:
            return refusal
        form = await request.form()
        step = str(form.get("step", "0"))
        try:
            await run_in_threadpool(homework.move, store(), code, student_id, int(step) if step.isdigit() else 0)
        except (LookupError, ValueError):
            pass  # the page says what is wrong (an ended homework, a browser not in it)
        return RedirectResponse(homework_path(code, language), status_code=303)

    return [Route("/homework/{code}", page), Route("/homework/{code}/join", join, methods=["POST"]),
            Route("/homework/{code}/answer", answer, methods=["POST"]),
            Route("/homework/{code}/move", move, methods=["POST"])]


# --------------------------------------------------------------------------- the store's calls, in a thread

def _info(store, code: str) -> dict | None:
    try:
        return homework.info(store, code)
    except LookupError:  # no such class, or a live class: neither is a homework
        return None


def _answer(store, code: str, student_id: str, question_id: str, value: str, language: str) -> tuple[int, str]:
    """(303, "") when recorded, else the status and what is wrong in the student's language (Markdown)."""
    with i18n.speaking(language):
        found = _info(store, code)
        if found is None:
            return 404, _(class_texts.HOMEWORK_ENDED)
        lesson, _colon, index = question_id.rpartition(":")
        step = live_step(found["lesson"], int(index)) if lesson == found["lesson"] and index.isdigit() else None
        if step is None or step.question_id != question_id:
            return 400, _(class_texts.HOMEWORK_ENDED)
        if not value:
            return 400, words.not_a_number(text.quoted(value)) if step.is_number_question else _(words.YOUR_ANSWER)
        if step.variant is not None and step.lesson_step.question.kind == "value":
            scenario = variants.draw(step.lesson_step, found["seed"], student_id, question_id)
            allowed = set(variants.options(step.lesson_step, scenario))
        else:
            allowed = {o.label for o in step.options}
        if allowed and value not in allowed:
            return 400, "not one of the options"
        if not allowed and variants.as_number(value) is None:
            return 400, words.not_a_number(text.quoted(value))
        try:
            homework.answer(store, code, student_id, question_id, value)
        except RoomNotFound:
            return 404, _(class_texts.HOMEWORK_ENDED)
        except homework.AlreadyAnswered:
            return 409, _(class_texts.HOMEWORK_ALREADY)
        except (AnswersClosed, QuestionNotFound):
            return 409, _(class_texts.HOMEWORK_CLOSED)
        except LookupError:
            return 403, _(words.NOT_IN_CLASS)
        except ValueError as problem:
            return 400, text.markdown(str(problem))
        return 303, ""


def _student_page(store, code: str, student_id: str, language: str, problem: str = "",
                  typed: str = "") -> tuple[int, str]:
    """(status, the page's body): the join form without a student of this homework, else their step."""
    with i18n.speaking(language):
        found = _info(store, code)
        if found is None:
            return 404, f"<p role='status'>{screen.inline(_(class_texts.HOMEWORK_ENDED))}</p>"
        mine = None
        if student_id:
            try:
                mine = homework.progress(store, code, student_id)
            except LookupError:
                mine = None  # an old cookie, or another homework's: join again
        if mine is None:
            return (400 if problem else 200), _join_box(code, language, asked=found["join_question"])
        return (400 if problem else 200), _step_body(code, language, found, student_id, mine, problem, typed)


def _join_box(code: str, language: str, nickname: str = "", problem: str = "", asked: str | None = None,
              identifier: str = "") -> str:
    with i18n.speaking(language):
        heading = f"<p class='note'>{screen.inline(_(class_texts.HOMEWORK))}</p>"
        return heading + _join_form(code, language, nickname, problem, asked, identifier,
                                    action=f"/homework/{markup.escape(code)}/join?lang={language}")


def _step_body(code: str, language: str, found: dict, student_id: str, mine: dict, problem: str, typed: str) -> str:
    index, total, closed = mine["step"], found["steps"], found["closed"]
    step = live_step(found["lesson"], index)
    data = step_data(found["lesson"], index, language) if step.variant is None else ""
    shown = screen.content(step, class_texts.HOMEWORK_DATA_BELOW if data else class_texts.HOMEWORK_NO_CHART)
    deadline = deadline_text(found["closes_at"])
    said = _(class_texts.HOMEWORK_CLOSED) if closed else class_texts.homework_closes(deadline)
    parts = [f"<p class='note'>{screen.inline(_(class_texts.HOMEWORK))} · "
             f"{screen.inline(text.markdown(_(_lesson_title(found['lesson']))))}</p>",
             f"<p class='note' id='deadline'>{screen.inline(said)}</p>",
             f"<p id='where'>{screen.inline(class_texts.homework_step(index + 1, total))}</p>",
             f"<h1>{shown['title']}</h1>", shown["body"], data]
    question_id = step.question_id
    if question_id is not None:
        parts.append(_question(code, language, found, step, question_id, student_id, mine, closed, problem, typed))
    if index + 1 == total:
        questions = [live_step(found["lesson"], i).question_id for i in range(total)]
        asked = [q for q in questions if q is not None]
        given = [mine["answers"][q] for q in asked if q in mine["answers"]]
        done = class_texts.homework_done(len(given), len(asked), sum(1 for g in given if g.right))
        parts.append(f"<p id='done'><strong>{screen.inline(done)}</strong></p>")
    nav = []
    action = f"/homework/{markup.escape(code)}/move?lang={language}"
    if index > 0:
        nav.append(f"<form method='post' action='{action}' class='nav'><input type='hidden' name='step' "
                   f"value='{index - 1}'><button type='submit'>{screen.inline(_(words.BACK))}</button></form>")
    if index + 1 < total:
        nav.append(f"<form method='post' action='{action}' class='nav'><input type='hidden' name='step' "
                   f"value='{index + 1}'><button type='submit' id='next'>{screen.inline(_(words.NEXT))}</button>"
                   "</form>")
    parts.append(f"<nav style='display:flex;gap:1rem'>{''.join(nav)}</nav>")
    parts.append(f"<p class='note'>{screen.inline(_(class_texts.HOMEWORK_RESUMED))}</p>")
    return "".join(parts)


def step_data(lesson: str, index: int, language: str) -> str:
    """A step's lists (HTML), as a phone shows a list of its own: at home there is no projector to show them. Built
    once per step and language in this process, then the same text for every student (a lesson's ``lesson`` key
    names its content: a file lesson's is its text's hash)."""
    key = (lesson, index, language)
    with _step_data_lock:
        if key in _step_data_cache:
            _step_data_cache.move_to_end(key)
            return _step_data_cache[key]
    with i18n.speaking(language):
        step = live_step(lesson, index)
        if step is None:
            return ""  # not kept: a lesson this process has not read yet
        built = "".join(_list_html(found, "step-list" if n == 0 else f"step-list-{n + 1}")
                        for n, found in enumerate(screen.scenario_lists(step)))
    with _step_data_lock:
        _step_data_cache[key] = built
        while len(_step_data_cache) > MOST_STEP_DATA:
            _step_data_cache.popitem(last=False)
    return built


def _list_html(found: dict, ident: str) -> str:
    """A list built by ``screen.ranked_list`` (already HTML): its caption, the items best first, K and the grades."""
    items = "".join(f"<li>{item}</li>" for item in found["items"])
    return (f"<p>{found['list_caption']}</p><ol class='items' id='{ident}'>{items}</ol>"
            f"<p class='facts'>{found['facts']}</p>")


def _lesson_title(lesson: str) -> str:
    found = lesson_of(lesson)
    return found.title if found is not None else ""


def _question(code: str, language: str, found: dict, step, question_id: str, student_id: str, mine: dict,
              closed: bool, problem: str, typed: str) -> str:
    parts = [f"<h2 id='prompt'>{screen.inline(screen.prompt(step))}</h2>"]
    scenario = None
    if step.variant is not None:
        scenario = variants.draw(step.lesson_step, found["seed"], student_id, question_id)
        parts.append(_list_html(screen.own(step, scenario, "open", None, question_id), "own-list"))
    given = mine["answers"].get(question_id)
    error = f"<p id='problem' role='alert' class='error'>{screen.inline(problem)}</p>" if problem else ""
    if given is not None or closed:
        parts.append(error)
    if given is not None:
        shown = class_texts.option_text(given.value) if step.options else text.markdown(given.value)
        parts.append(f"<p id='yours'>{screen.inline(class_texts.homework_yours(shown))}</p>")
        if scenario is not None:
            verdict_html = screen.own(step, scenario, "revealed", given.value, question_id)["verdict"]
        else:
            verdict_html = screen.html(screen.verdict(step, given.value))
        mark = "right" if given.right else "wrong"
        parts.append(f"<div id='verdict' data-verdict='{mark}'>{verdict_html}</div>")
        if step.why:
            parts.append(f"<div class='note'>{screen.html(_(step.why))}</div>")
        return "".join(parts)
    if closed:
        if not problem:
            parts.append(f"<p role='status'>{screen.inline(_(class_texts.HOMEWORK_CLOSED))}</p>")
        return "".join(parts)
    form = screen.answer_form(step)
    fields = ""
    options = form.get("options")
    if scenario is not None and step.lesson_step.question.kind == "value":
        options = screen.own(step, scenario, "open", None, question_id).get("options")
    if options:
        fields = (f"<fieldset><legend>{form['label']}</legend>" + "".join(
            f"<label class='choice'><input type='radio' name='value' required "
            f"value='{markup.escape(o['value'], quote=True)}'>{o['text']}</label>" for o in options) + "</fieldset>")
    else:
        fields = (f"<label for='value'>{form['label']}</label><input id='value' name='value' inputmode='decimal' "
                  f"autocomplete='off' required maxlength='{form.get('max_length', 40)}' "
                  f"value='{markup.escape(typed, quote=True)}'>")
        if form.get("tolerance"):
            fields += f"<p class='note'>{form['tolerance']}</p>"
    parts.append(f"<form method='post' action='/homework/{markup.escape(code)}/answer?lang={language}'>{error}"
                 f"<input type='hidden' name='question_id' value='{markup.escape(question_id, quote=True)}'>"
                 f"{fields}<button type='submit' id='send'>{screen.inline(_(words.SEND))}</button></form>")
    return "".join(parts)
