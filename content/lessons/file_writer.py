"""Write a lesson as its TOML file (docs/lesson-files.md): ``read_lesson(to_toml(lesson)).lesson == lesson``.

Long sentences are wrapped with TOML's line-ending backslash, so a teacher edits them as paragraphs; a sentence
with translations is written once per language (``title.en = ...``, ``title.tr = ...``).
"""

from __future__ import annotations

import json
import math
import re

from content.lessons.schema import SCENARIO_KINDS, Control, Lesson, Question, Step

HEADER = "# A RecEval Lab lesson. The format: docs/lesson-files.md. The right answers are computed, never written.\n"
QUIZ_HEADER = "# Quiz steps are plain questions (from a question sheet): they compute nothing, so they mark their right options.\n"
WIDTH = 100
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_NUMBER_LABEL = re.compile(r"-?\d+(\.\d+)?")
_CONTROL_DEFAULTS = {"minimum": Control.minimum, "maximum": Control.maximum, "step": Control.step}


def key(name) -> str:
    text = str(name)
    return text if _BARE.fullmatch(text) else json.dumps(text, ensure_ascii=False)


def value(data) -> str:
    if isinstance(data, bool):
        return "true" if data else "false"
    if isinstance(data, int):
        return str(data)
    if isinstance(data, float):
        if math.isnan(data):
            return "nan"
        return ("inf" if data > 0 else "-inf") if math.isinf(data) else repr(data)
    if isinstance(data, str):
        return json.dumps(data, ensure_ascii=False)
    if isinstance(data, (list, tuple)):
        return "[" + ", ".join(value(v) for v in data) + "]"
    if isinstance(data, dict):
        return "{ " + ", ".join(f"{key(k)} = {value(v)}" for k, v in data.items()) + " }" if data else "{}"
    raise TypeError(f"a lesson holds no {type(data).__name__}: {data!r}")


def string(text: str, indent: int) -> str:
    """A short string on its line; a long one as a multi-line string wrapped at spaces (the backslash ending a
    line drops the line break and the next line's indentation, so the text is unchanged)."""
    escaped = json.dumps(text, ensure_ascii=False)[1:-1]
    if indent + len(escaped) + 2 <= WIDTH:
        return f'"{escaped}"'
    lines, line = [], ""
    for word in re.split(r"(?<=[^ ] )(?=[^ ])", escaped):
        if line and len(line) + len(word) > WIDTH - 4:
            lines.append(line + "\\")
            line = ""
        line += word
    lines.append(line + '"""')
    return '"""\\\n' + "\n".join("  " + part for part in lines)


class _Writer:
    def __init__(self, translations: dict[str, dict[str, str]] | None):
        self.translations = translations or {}
        self.lines: list[str] = []

    def put(self, name: str, data) -> None:
        if data is not None:
            self.lines.append(f"{key(name)} = {value(data)}")

    def text(self, name: str, text: str) -> None:
        if not text:
            return
        given = {language: said[text] for language, said in sorted(self.translations.items())
                 if said.get(text) and said[text] != text}
        if not given:
            self.lines.append(f"{key(name)} = {string(text, len(name) + 3)}")
            return
        for language, said in {"en": text, **given}.items():
            self.lines.append(f"{key(name)}.{language} = {string(said, len(name) + 6)}")

    def table(self, header: str, data: dict) -> None:
        self.lines += ["", header]
        for name, item in data.items():
            self.put(name, item)

    def scenario(self, header: str, scenario: dict) -> None:
        """The scenario's fields in the order the format lists them, whatever order the dict has."""
        first = ("kind", *SCENARIO_KINDS.get(scenario.get("kind"), ()))
        self.table(header, {**{name: scenario[name] for name in first if name in scenario}, **scenario})

    def claims(self, step: Step) -> None:
        if not step.claims:
            return
        self.lines.append("claims = [")
        for claim in step.claims:
            fields = {"value": claim.value, "direction": claim.direction, "frames": claim.frames, "at": claim.at,
                      "than": claim.than}
            self.lines.append("  " + value({k: v for k, v in fields.items() if v is not None}) + ",")
        self.lines.append("]")

    def question(self, question: Question) -> None:
        self.lines += ["", "[steps.question]"]
        self.text("prompt", question.prompt)
        self.put("kind", question.kind)
        self.put("metric", question.metric or None)
        self.put("time_limit", question.time_limit)
        self.put("other_metric", question.other_metric)
        self.put("change", question.change)
        if question.tolerance is not None:
            self.put("tolerance", {question.tolerance.kind: question.tolerance.amount})
        if question.variant is not None:
            self.put("variant", question.variant)
        self.text("why", question.why)
        if question.other is not None:
            self.scenario("[steps.question.other]", question.other)
        for option in question.options:
            self.lines += ["", "[[steps.question.options]]"]
            self.text("label", option.label)
            self.put("value", option.value)
            if option.correct:
                self.put("correct", True)
            self.text("explanation", option.explanation)

    def control(self, control: Control) -> None:
        self.lines += ["", "[[steps.controls]]"]
        self.put("kind", control.kind)
        self.text("label", control.label)
        for name in ("item", "field", "index"):
            self.put(name, getattr(control, name))
        for name, default in _CONTROL_DEFAULTS.items():
            given = getattr(control, name)
            if not (given == default and type(given) is type(default)):
                self.put(name, given)

    def step(self, step: Step) -> None:
        self.lines += ["", "[[steps]]"]
        self.text("title", step.title)
        self.put("kind", step.kind)
        self.put("view", step.view)
        if step.focus:
            self.put("focus", list(step.focus))
        self.put("animation", step.animation)
        self.claims(step)
        self.text("text", step.text)
        if step.scenario is not None:
            self.scenario("[steps.scenario]", step.scenario)
        if step.question is not None:
            self.question(step.question)
        for control in step.controls:
            self.control(control)
        if step.goal is not None:
            self.lines += ["", "[steps.goal]"]
            self.text("text", step.goal.text)
            self.lines.append("conditions = [" + ", ".join(value(list(c)) for c in step.goal.conditions) + "]")
            self.text("reached", step.goal.reached)

    def lesson(self, lesson: Lesson) -> str:
        self.lines.append(HEADER.rstrip("\n"))
        if any(step.kind == "quiz" for step in lesson.steps):
            self.lines.append(QUIZ_HEADER.rstrip("\n"))
        self.put("id", lesson.key)
        self.text("title", lesson.title)
        self.put("icon", lesson.icon)
        if lesson.topic:
            self.put("topic", lesson.topic)
        self.text("summary", lesson.summary)
        for step in lesson.steps:
            self.step(step)
        return "\n".join(self.lines) + "\n"


def to_toml(lesson: Lesson, translations: dict[str, dict[str, str]] | None = None) -> str:
    """The lesson's file; ``translations`` (language -> {English: translated}) are written beside each sentence."""
    return _Writer(translations).lesson(lesson)


def texts(lesson: Lesson) -> list[str]:
    """Every sentence of a lesson a reader sees: what a catalog or a file's translations translate."""
    found = [lesson.title, lesson.summary]
    for step in lesson.steps:
        found += [step.title, step.text]
        if step.question is not None:
            found += [step.question.prompt, step.question.why]
            # A number label reads the same in every language (content.lessons.text.option_label writes its mark).
            found += [option.label for option in step.question.options if not _NUMBER_LABEL.fullmatch(option.label)]
            found += [option.explanation for option in step.question.options]
        found += [control.label for control in step.controls]
        if step.goal is not None:
            found += [step.goal.text, step.goal.reached]
    return [text for text in dict.fromkeys(found) if text]
