"""The lessons a session can open, and the lessons page's “Lesson files” expander: the built-in lessons, the
operator's folder (``RECEVAL_LESSONS_DIR``) and the files this reader opened; open a lesson file or a question
sheet, download the lesson on screen. Reading, checking and writing the files is ``lesson_library``'s."""

from __future__ import annotations

import os
from dataclasses import dataclass

import streamlit as st

from content import text
from content.i18n import _
from content.lessons import LESSONS as BUILT_IN
from content.lessons.library import FOLDER_VARIABLE, Shelf
from content.lessons.schema import Lesson
from content.pages import lessons as words
from ui.controllers import lesson_library as library

SESSION_FILES = "lessons_files"
"""This session's opened files: id -> (lesson, its file's translations); ``ui.question_editor`` adds to it too."""


@dataclass(frozen=True)
class SessionLessons:
    shelf: Shelf                                   # the operator's folder
    files: dict[str, tuple[Lesson, dict]]          # the session's own dict: an opened file is put in it
    all: tuple[Lesson, ...]                        # built in, the operator's folder, then the opened files
    by_key: dict[str, Lesson]

    def others(self) -> tuple[Lesson, ...]:
        """The lessons an opened file's id must differ from: a file opened again may replace itself."""
        return tuple(lesson for lesson in self.all if lesson.key not in self.files)

    def translations(self, lesson: Lesson) -> dict | None:
        """The translations of ``lesson``'s file; None for a built-in lesson (the catalogs have them)."""
        return self.files[lesson.key][1] if lesson.key in self.files else self.shelf.translations.get(lesson.key)


@st.cache_data(ttl=30, show_spinner=False)
def _operator_shelf(folder: str) -> Shelf:
    """The operator's folder (``folder`` only keys the cache), read again at most every 30 seconds."""
    return library.operator_shelf()


def session_lessons() -> SessionLessons:
    shelf = _operator_shelf(os.environ.get(FOLDER_VARIABLE, ""))
    files = st.session_state.setdefault(SESSION_FILES, {})
    every = (*BUILT_IN, *shelf.lessons, *(lesson for lesson, _said in files.values()))
    return SessionLessons(shelf, files, every, {lesson.key: lesson for lesson in every})


def _refusal(name: str, problems) -> str:
    return words.refused(text.markdown(name), [text.markdown(p.text()) for p in problems])


def _is_new(opened: library.Uploaded, lessons: SessionLessons) -> bool:
    """Put an opened lesson among this session's; True if it was not there as it is now (the list needs a rerun)."""
    if lessons.files.get(opened.lesson.key, (None,))[0] == opened.lesson:
        return False
    lessons.files[opened.lesson.key] = (opened.lesson, opened.translations)
    return True


def _open_lesson_file(lessons: SessionLessons) -> None:
    upload = st.file_uploader(_(words.UPLOAD), type=["toml"], key="lessons_upload", help=_(words.UPLOAD_HELP))
    if upload is None:
        return
    opened = library.read_upload(upload.getvalue(), lessons.others())
    if opened.lesson is None:
        st.error(_refusal(upload.name, opened.problems))
        return
    if _is_new(opened, lessons):
        keep_for_live_class(upload.getvalue(), opened.lesson)
        st.rerun()  # the new lesson joins the list above
    st.success(words.uploaded(text.markdown(_(opened.lesson.title))))


def _open_question_sheet(lessons: SessionLessons) -> None:
    """A sheet becomes a lesson file: opened as one, and offered for download as one."""
    upload = st.file_uploader(_(words.SHEET_UPLOAD), type=["csv", "xlsx"], key="lessons_sheet_upload",
                              help=_(words.SHEET_HELP))
    if upload is None:
        return
    opened, written = library.read_sheet_upload(upload.getvalue(), upload.name, lessons.others())
    if opened.lesson is None:
        st.error(_refusal(upload.name, opened.problems))
        return
    if _is_new(opened, lessons):
        st.rerun()  # the new lesson joins the list above
    st.success(words.uploaded(text.markdown(_(opened.lesson.title))))
    st.download_button(_(words.SHEET_DOWNLOAD), written, file_name=f"{opened.lesson.key}.toml",
                       mime="application/toml", key="lessons_sheet_download", icon="⬇️", on_click="ignore")


def lesson_files(lesson: Lesson, lessons: SessionLessons) -> None:
    """Open a teacher's lesson file (checked; its problems listed with line and field) and download this lesson."""
    refused = lessons.shelf.refused
    with st.expander(_(words.YOUR_LESSONS), expanded=bool(refused)):
        if refused:
            st.warning(_(words.FOLDER_PROBLEMS))
            for file in refused:
                st.markdown(_refusal(file.name, file.problems))
        _open_lesson_file(lessons)
        _open_question_sheet(lessons)
        st.download_button(_(words.DOWNLOAD), library.lesson_file(lesson, lessons.translations(lesson)),
                           file_name=f"{lesson.key}.toml", mime="application/toml", key="lessons_download", icon="⬇️")


def keep_for_live_class(data: bytes, lesson: Lesson) -> None:
    """An opened file is also one of the teacher's lessons in the live class: My lessons on this browser (the class
    database), and this session's files either way."""
    # Imported here: the lessons page loads the live class's modules only when a file is opened.
    from ui.controllers import live_class, live_teacher
    source = data.decode("utf-8")
    st.session_state.setdefault("lessons_file_texts", {})[lesson.key] = (lesson.title, source)
    try:
        live_teacher.save_lesson(live_class.store, source)
    except Exception:  # noqa: BLE001 - the class database is optional: the lesson is open in this session anyway
        pass
