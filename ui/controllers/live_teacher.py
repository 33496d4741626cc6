"""The teacher's side of the live class that outlives a Streamlit session: the browsers that are the
class's teacher (a device cookie, see classroom.web.teacher), "My classes", the phone as a remote, the
address phones can open, and the presenter view.
"""

from __future__ import annotations

import functools
import ipaddress
import os
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st
from streamlit import net_util

from classroom import Store
from classroom.teachers import DEVICE_COOKIE, TeacherDevices, is_device_id
from classroom.web.student import join_path
from classroom.web.teacher import CLAIM_PATH
from content.i18n import _
from content.lessons.file_reader import MAX_BYTES, read_lesson
from content.lessons.library import FOLDER_VARIABLE
from content.pages import live_teacher as words
from content import text

PUBLIC_URL = "RECEVAL_PUBLIC_URL"


@functools.lru_cache(maxsize=64)
def qr_svg(link: str) -> str:
    """Made once per link and process: the console draws the join code's on every rerun."""
    return segno.make(link, error="m").svg_inline(scale=6, border=2, dark="#000000", light="#ffffff")


@st.cache_resource(show_spinner=False)
def teachers(_store: Store) -> TeacherDevices:
    return TeacherDevices(_store.engine)


def device_id() -> str | None:
    """This browser's device id (the HttpOnly cookie the server set), or None when the app runs without it."""
    value = st.context.cookies.get(DEVICE_COOKIE)
    return value if is_device_id(value) else None


def remember(store: Store, code: str, key: str) -> None:
    """This browser is a teacher of the class: a reload, a restart or a new window brings the console back."""
    device = device_id()
    if device:
        teachers(store).bind(device, code, key)


def my_classes(store: Store) -> dict[str, str]:
    device = device_id()
    return teachers(store).classes(device) if device else {}


def resume(store: Store, code: str) -> dict | None:
    """The console of ``code`` if this browser is one of its teacher's, else None."""
    key = my_classes(store).get(code)
    return {"code": code, "key": key} if key else None


def my_lessons(store: Store) -> list[dict]:
    """My lessons: the lesson files this browser's teacher kept (the lessons page, the console)."""
    device = device_id()
    return teachers(store).my_lessons(device) if device else []


def save_lesson(store: Store | Callable[[], Store], text_of_file: str):
    """Keep a lesson file in My lessons (checked with the lessons page's loader); the loader's answer. Without a
    device cookie it is kept for this session only (the console's list reads both), and ``store`` (or the function
    that opens it) is not touched."""
    device = device_id()
    if device:
        loaded = teachers(store if isinstance(store, Store) else store()).save_lesson(device, text_of_file)
    else:
        loaded = read_lesson(text_of_file)
    if loaded.lesson is not None:
        st.session_state.setdefault("lessons_file_texts", {})[loaded.lesson.key] = (loaded.lesson.title, text_of_file)
    return loaded


def forget_lesson(store: Store, lesson_id: str) -> None:
    device = device_id()
    if device:
        teachers(store).forget_lesson(device, lesson_id)


@st.cache_data(ttl=30, show_spinner=False)
def _folder_lessons(folder: str) -> list[tuple[str, str]]:
    found = []
    for path in sorted(Path(folder).expanduser().glob("*.toml")) if folder and Path(folder).expanduser().is_dir() else []:
        try:
            if path.stat().st_size > MAX_BYTES:
                continue
            data = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        loaded = read_lesson(data)
        if loaded.lesson is not None:
            found.append((loaded.lesson.title, data))
    return found


def operator_lessons() -> list[tuple[str, str]]:
    """(title, text) of the operator's folder's lessons (``RECEVAL_LESSONS_DIR``), read again within 30 seconds."""
    return _folder_lessons(os.environ.get(FOLDER_VARIABLE, "").strip())


def record_marks(store: Store, found) -> list | None:
    """Add a class's marks to this teacher's gradebook; every mark of it, or None without a device cookie."""
    device = device_id()
    if not device:
        return None
    teachers(store).record_marks(device, found)
    return teachers(store).marks(device)


def classes_to_resume(store: Store, on_resume) -> None:
    """'My classes': the open classes this browser started or claimed, each one click from its console."""
    found = my_classes(store)
    if not found:
        return
    st.markdown("#### " + _(words.MY_CLASSES))
    for code in found:
        st.button(words.resume(code), key=f"live_resume_{code}", on_click=on_resume, args=(code,))


# --------------------------------------------------------------------------- the address phones open

def _is_loopback(host: str | None) -> bool:
    if not host or host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def join_base(page: str) -> tuple[str, str]:
    """(the page address phones can open, where it comes from): ``public`` (the operator's
    RECEVAL_PUBLIC_URL), ``page`` (the teacher's own address is not loopback), ``network`` (this
    machine's network address, Streamlit's "Network URL"), or ``loopback`` (none other devices reach)."""
    parts = urlsplit(page)
    public = os.environ.get(PUBLIC_URL, "").strip().rstrip("/")
    if urlsplit(public).scheme in ("http", "https") and urlsplit(public).netloc:
        return public + parts.path, "public"
    if not _is_loopback(parts.hostname):
        return page, "page"
    address = net_util.get_internal_ip()
    if address and not _is_loopback(address):
        host = f"[{address}]" if ":" in address else address
        return f"{parts.scheme}://{host}{f':{parts.port}' if parts.port else ''}{parts.path}", "network"
    return page, "loopback"


def phone_link(base: str, code: str, language: str) -> str:
    """What the join link and QR code carry: the phones' light view (classroom/web/student.py) at the same
    address as ``base``, so a phone costs one event stream, not a Streamlit session of its own."""
    parts = urlsplit(base)
    prefix = parts.path.rsplit("/", 1)[0]  # an operator's public address may serve the app under a path
    return f"{parts.scheme}://{parts.netloc}{prefix}{join_path(code, language)}"


def address_note(source: str, page: str) -> None:
    """Which address the join link uses, in words a teacher understands."""
    if source == "network":
        st.caption(words.uses_network(text.markdown(page)))
    elif source == "public":
        st.caption(_(words.USES_PUBLIC))
    elif source == "loopback":
        st.warning(_(words.NO_REACHABLE_ADDRESS))


# --------------------------------------------------------------------------- the phone as a remote

def remote(store: Store, code: str, key: str, base: str, language: str | None) -> None:
    """A one-time link (QR code) that opens the console on the teacher's phone, behind a click."""
    if not device_id():
        return
    shown = st.session_state.get("live_remote_shown") == code
    st.button(_(words.REMOTE_HIDE) if shown else _(words.REMOTE), key="live_remote",
              on_click=_toggle_remote, args=(code,), help=_(words.REMOTE_HELP))
    if shown:
        token = st.session_state.get("live_remote_token") or teachers(store).new_claim(code, key)
        st.session_state["live_remote_token"] = token
        root = base.rsplit("/", 1)[0]
        link = f"{root}{CLAIM_PATH}?{urlencode({'t': token, **({'lang': language} if language else {})})}"
        st.image(qr_svg(link), width=200, alt=_(words.REMOTE_QR))
        st.caption(_(words.REMOTE_TEXT))


def _toggle_remote(code: str) -> None:
    shown = st.session_state.get("live_remote_shown") == code
    st.session_state["live_remote_shown"] = None if shown else code
    st.session_state["live_remote_token"] = None  # a new one-time link each time it is shown


def claim_result() -> None:
    """The claim route came back without a class: say so, and leave nothing of it in the address bar."""
    if st.query_params.get("claim"):
        del st.query_params["claim"]
        st.error(_(words.CLAIM_INVALID))
