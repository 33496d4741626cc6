"""The lessons a reader can open: the built-in ones, the operator's folder (``RECEVAL_LESSONS_DIR``) and the files a
teacher uploads in their session. No Streamlit.

``content.lessons`` reads a file and computes its answers; here each step is also drawn once as the page would
draw it (its view, its scenario as the views check it, its claims), so a file whose step cannot be shown is
refused with that step's line rather than failing in front of the class.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

from content import i18n
from content.lessons import LESSONS
from content.lessons import problems as say
from content.lessons.file_reader import Loaded, read_lesson
from content.lessons.file_writer import texts, to_toml
from content.lessons.library import Shelf, checked_id, operator_folder, teach
from content.lessons.problems import Problem, problem
from content.lessons.sheet import read_sheet
from content.lessons.schema import Lesson
from content.lessons.source_lines import SourceLines, field_name
from ui.controllers import lessons as engine

BUILT_IN = i18n.N_("a built-in lesson")


@dataclass(frozen=True)
class Uploaded:
    lesson: Lesson | None
    problems: tuple[Problem, ...]
    translations: dict[str, dict[str, str]] = field(default_factory=dict)


def _drawing_problem(step, path: tuple, where: SourceLines) -> Problem | None:
    """Why the page could not draw this step, or None. Protocol steps need trained models: checked by name only."""
    if step.kind == "quiz":  # a plain question: no scenario, nothing drawn but its words
        return None
    scenario_path = path + ("scenario",)
    try:
        engine.check_scenario(step.scenario)
        if step.question is not None and step.question.other is not None:
            engine.check_scenario(step.question.other)
    except (ValueError, KeyError, TypeError) as error:
        return problem(where.find(scenario_path), field_name(scenario_path), say.SCENARIO_REJECTED, error=error)
    if step.view not in engine.VIEW_KINDS:
        return problem(where.find(path + ("view",)), field_name(path + ("view",)), say.NOT_ONE_OF, value=step.view,
                       expected=", ".join(sorted(engine.VIEW_KINDS)))
    if engine.needs_data(step):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            frames = engine.claim_frames(step)
            if step.kind != "demonstrate":
                engine.step_view(step)
    except (ValueError, KeyError, TypeError, IndexError, ZeroDivisionError) as error:
        return problem(where.find(path), field_name(path), say.VIEW_PROBLEM, error=error)
    for number, claim in enumerate(step.claims):
        why = engine.claim_problem(claim, frames)
        if why:
            claim_path = path + ("claims", number)
            return problem(where.find(claim_path), field_name(claim_path), say.VIEW_PROBLEM, error=why)
    return None


def drawing_problems(lesson: Lesson, text: str) -> tuple[Problem, ...]:
    where = SourceLines(text)
    found = (_drawing_problem(step, ("steps", number), where) for number, step in enumerate(lesson.steps))
    return tuple(p for p in found if p is not None)


def read_upload(data: bytes, others: tuple[Lesson, ...]) -> Uploaded:
    """A teacher's file, checked as the page would show it; its id must differ from every lesson in ``others``."""
    loaded: Loaded = checked_id(read_lesson(data), data, {lesson.key: i18n._(BUILT_IN) for lesson in others})
    if loaded.lesson is None:
        return Uploaded(None, loaded.problems)
    found = drawing_problems(loaded.lesson, data.decode("utf-8"))
    if found:
        return Uploaded(None, found)
    teach(loaded.translations)
    return Uploaded(loaded.lesson, (), loaded.translations)


def read_sheet_upload(data: bytes, name: str, others: tuple[Lesson, ...]) -> tuple[Uploaded, str]:
    """A question sheet (``content.lessons.sheet``) as a lesson, its file written and checked like any upload; the
    problems are the sheet's (by row) or, should the written file not open, the file's."""
    imported = read_sheet(data, name)
    if imported.lesson is None:
        return Uploaded(None, imported.problems), ""
    written = to_toml(imported.lesson, imported.translations)
    return read_upload(written.encode(), others), written


def operator_shelf() -> Shelf:
    """The operator's folder, each lesson also checked as the page would show it."""
    return operator_folder({lesson.key: i18n._(BUILT_IN) for lesson in LESSONS}, drawing_problems)


def catalog_translations(lesson: Lesson) -> dict[str, dict[str, str]]:
    """A built-in lesson's translations from the catalogs, so its downloaded file carries every language."""
    found: dict[str, dict[str, str]] = {}
    for code in i18n.languages():
        if code == i18n.SOURCE:
            continue
        catalog = i18n.translation(code)
        said = {text: catalog.gettext(text) for text in texts(lesson)}
        found[code] = {text: translated for text, translated in said.items() if translated != text}
    return found


def lesson_file(lesson: Lesson, translations: dict[str, dict[str, str]] | None = None) -> str:
    """The lesson's .toml file to download: with its file's translations, or a built-in one's from the catalogs."""
    return to_toml(lesson, translations if translations is not None else catalog_translations(lesson))
