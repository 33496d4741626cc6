"""The teacher's HTTP side of the live class: a device cookie, and the one-time claim link a phone opens.

Mounted by the app's st.App entry (``routes`` and ``middleware``). The device cookie is HttpOnly
(no script on the page, the teacher's or an injected one, can read it), SameSite=Lax and lasts
``DEVICE_DAYS``; Streamlit reads it from the WebSocket handshake (``st.context.cookies``). A claim
link's token never stays in an address bar: the route answers with a redirect to the page without it.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from classroom.teachers import DEVICE_COOKIE, DEVICE_DAYS, TeacherDevices, is_device_id, new_device_id

CLAIM_PATH = "/class/teacher/claim"
PAGE_PATH = "/Live_class"


def device_cookie(value: str, path: str = "/") -> str:
    return (f"{DEVICE_COOKIE}={value}; Max-Age={DEVICE_DAYS * 24 * 3600}; Path={path}; HttpOnly; SameSite=Lax")


class DeviceCookieMiddleware:
    """Give every browser that opens a page a device id, once (pages only: Accept: text/html)."""

    def __init__(self, app: ASGIApp, path: str = "/"):
        self.app, self.path = app, path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        if is_device_id(request.cookies.get(DEVICE_COOKIE)) or "text/html" not in request.headers.get("accept", ""):
            await self.app(scope, receive, send)
            return
        cookie = device_cookie(new_device_id(), self.path)

        async def send_with_cookie(message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).append("set-cookie", cookie)
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def routes(teachers: Callable[[], TeacherDevices], page_path: str = PAGE_PATH) -> list[Route]:
    """GET CLAIM_PATH?t=TOKEN: this browser becomes a teacher of the token's class, then the console opens."""

    def claim(request: Request) -> RedirectResponse:
        device = request.cookies.get(DEVICE_COOKIE)
        fresh = not is_device_id(device)
        device = new_device_id() if fresh else device
        code = teachers().claim(request.query_params.get("t", ""), device)
        lang = request.query_params.get("lang", "")
        query = {"room": code} if code else {"claim": "invalid"}
        if lang.isalpha() and len(lang) <= 3:
            query["lang"] = lang
        response = RedirectResponse(f"{page_path}?{urlencode(query)}", status_code=303)
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"
        if fresh:
            response.headers.append("set-cookie", device_cookie(device))
        return response

    return [Route(CLAIM_PATH, claim, methods=["GET"])]


def middleware() -> list[Middleware]:
    return [Middleware(DeviceCookieMiddleware)]
