"""``<html lang>`` says the language the page is written in, so a screen reader picks the right voice.

Streamlit writes ``<html lang="en">`` into its one HTML page whatever the page says (streamlit#15726). Two parts:

- :class:`DocumentLanguage`, a Starlette middleware on ``st.App``: the first HTML of a visit already carries the
  language the app will choose (a link's ``lang``, else the browser's first language), before any script runs.
- :func:`mark`, on every run: the page is one document for the whole visit, so a language picked in the
  sidebar (no reload) is written into ``document.documentElement.lang`` by a one-line script.
"""

from __future__ import annotations

import json

import streamlit as st
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from content import i18n

STREAMLIT_HTML = b'<html lang="en">'
UNCONDITIONAL = (b"accept-encoding", b"if-none-match", b"if-modified-since")
KEY = "document_language"  # the hidden container of the script (PAGE_CSS hides .st-key-document_language)


def from_request(request: Request) -> str:
    """The language the app will choose for this request: the link's ``lang``, else the browser's first."""
    asked = request.query_params.get("lang")
    if asked in i18n.languages():
        return asked
    first = request.headers.get("accept-language", "").split(",")[0].split(";")[0].strip()
    prefix = first.split("-")[0].split("_")[0].lower()
    return prefix if prefix in i18n.languages() else i18n.SOURCE


class DocumentLanguage:
    """Rewrite Streamlit's ``<html lang="en">`` in an HTML page to the language of the request."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET" or "text/html" not in Headers(scope=scope).get(
                "accept", ""):
            await self.app(scope, receive, send)
            return
        code = from_request(Request(scope))
        if code == i18n.SOURCE:
            await self.app(scope, receive, send)
            return
        # The page is about 2 KB: ask for it uncompressed rather than gunzip and gzip it again here; and in full,
        # never "not modified": the browser's copy may be the same file in another language.
        scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k not in UNCONDITIONAL]}
        tag = f'<html lang="{i18n.html_lang(code)}">'.encode()
        start: Message | None = None
        body = b""

        async def rewrite(message: Message) -> None:
            nonlocal start, body
            if message["type"] == "http.response.start":
                if "text/html" in Headers(raw=message["headers"]).get("content-type", ""):
                    start = message  # held until the body is whole: its length changes
                    return
                await send(message)
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            body += message.get("body", b"")
            if message.get("more_body", False):
                return
            body = body.replace(STREAMLIT_HTML, tag, 1)
            headers = MutableHeaders(scope=start)
            headers["content-length"] = str(len(body))
            for validator in ("etag", "last-modified"):
                del headers[validator]
            await send(start)
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, rewrite)


def mark(code: str) -> None:
    """Write the page's language into the open document (a language picked without a reload)."""
    with st.container(key=KEY):
        st.html(f"<script>document.documentElement.lang = {json.dumps(i18n.html_lang(code))};</script>",
                unsafe_allow_javascript=True)
