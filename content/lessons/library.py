"""Where lessons come from: the built-in files, the operator's folder (``RECEVAL_LESSONS_DIR``) and files a teacher
uploads. A broken file never hides the others: a folder gives its good lessons and, for each refused file, its
problems."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from content import i18n
from content.lessons import problems as say
from content.lessons.file_reader import MAX_BYTES, Loaded, read_lesson
from content.lessons.problems import Problem, problem
from content.lessons.schema import Lesson
from content.lessons.source_lines import SourceLines

BUILTIN = Path(__file__).parent / "builtin"
FOLDER_VARIABLE = "RECEVAL_LESSONS_DIR"
NOT_A_FOLDER = i18n.N_("{variable} names {folder}, which is not a folder")
UNREADABLE = i18n.N_("the file cannot be read: {error}")


@dataclass(frozen=True)
class Refused:
    name: str                       # the file's name, as the operator or teacher wrote it
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class Shelf:
    lessons: tuple[Lesson, ...]
    refused: tuple[Refused, ...]
    translations: dict[str, dict[str, str]]   # every accepted lesson's, by its id: {id: {language: {text: said}}}


def checked_id(loaded: Loaded, data: bytes, taken: dict[str, str]) -> Loaded:
    """``loaded`` refused if another lesson already has its id (``taken``: id -> where it comes from)."""
    if loaded.lesson is None or loaded.lesson.key not in taken:
        return loaded
    line = SourceLines(data.decode("utf-8")).find(("id",))
    return Loaded(None, (problem(line, "id", say.ID_TAKEN, value=loaded.lesson.key, other=taken[loaded.lesson.key]),))


Check = Callable[[Lesson, str], tuple[Problem, ...]]
"""A further check of a read lesson against its file's text (the page's: can each step be drawn)."""


def read_folder(folder: Path, taken: dict[str, str] | None = None, check: Check | None = None) -> Shelf:
    """Every ``*.toml`` lesson of ``folder``, in the order of their names."""
    taken = dict(taken or {})
    lessons, refused, translations = [], [], {}
    for path in sorted(folder.glob("*.toml")):
        try:
            if path.stat().st_size > MAX_BYTES:  # refused unread: the limit is also what a server reads
                refused.append(Refused(path.name, (problem(None, "", say.TOO_BIG, size=path.stat().st_size,
                                                           limit=MAX_BYTES),)))
                continue
            data = path.read_bytes()
        except OSError as error:
            refused.append(Refused(path.name, (problem(None, "", UNREADABLE, error=error.strerror or error),)))
            continue
        loaded = checked_id(read_lesson(data), data, taken)
        if loaded.lesson is not None and check is not None:
            found = check(loaded.lesson, data.decode("utf-8"))
            loaded = Loaded(None, found) if found else loaded
        if loaded.lesson is None:
            refused.append(Refused(path.name, loaded.problems))
            continue
        lessons.append(loaded.lesson)
        translations[loaded.lesson.key] = loaded.translations
        taken[loaded.lesson.key] = path.name
    return Shelf(tuple(lessons), tuple(refused), translations)


def builtin() -> tuple[Lesson, ...]:
    """The app's own lessons; a built-in file with a problem is a bug, so it raises."""
    shelf = read_folder(BUILTIN)
    if shelf.refused:
        raise ValueError("; ".join(f"{r.name}: {p.text()}" for r in shelf.refused for p in r.problems))
    return shelf.lessons


def operator_folder(taken: dict[str, str], check: Check | None = None) -> Shelf:
    """The lessons of the folder ``RECEVAL_LESSONS_DIR`` names (none if it is not set)."""
    named = os.environ.get(FOLDER_VARIABLE, "").strip()
    if not named:
        return Shelf((), (), {})
    folder = Path(named).expanduser()
    if not folder.is_dir():
        return Shelf((), (Refused(named, (problem(None, "", NOT_A_FOLDER, variable=FOLDER_VARIABLE, folder=named),)),),
                     {})
    shelf = read_folder(folder, taken, check)
    for said in shelf.translations.values():
        teach(said)
    return shelf


def teach(translations: dict[str, dict[str, str]]) -> None:
    """Make a lesson file's own translations known to ``_`` (the catalogs keep precedence)."""
    for language, messages in translations.items():
        i18n.add_translations(language, messages)
