"""A quiz's progress as the practice page keeps it: the settings it was drawn with, the question shown, the
(label, correct) results so far, the last verdict and the round (a restart or new settings is a new round, so
every answer box is new). Plain dicts, changed in place, as the page's callbacks change them."""

from __future__ import annotations

from teaching.practice import QuizSettings, Verdict


def settings_of(chosen: dict) -> QuizSettings:
    """The quiz the controls chose; K never past the list's end."""
    return QuizSettings(seed=chosen["seed"], length=chosen["length"], graded=chosen["graded"],
                        k=min(chosen["k"], chosen["length"]))


def current(progress: dict | None, settings: QuizSettings) -> dict:
    """``progress`` if it is this quiz's; else a new quiz's, one round on."""
    if progress is not None and progress["settings"] == settings:
        return progress
    return {"settings": settings, "index": 0, "results": [], "verdict": None,
            "round": (progress or {}).get("round", 0) + 1}


def answer_key(progress: dict) -> str:
    """A fresh answer box for every question of every quiz (and every restart)."""
    return f"_quiz_answer_{progress['round']}_{progress['index']}"


def record(progress: dict, label: str, typed: str, verdict: Verdict) -> None:
    """Keep the answer and its verdict; an unreadable one (a typo, no choice) is not scored: it is answered again."""
    progress["typed"] = typed
    progress["verdict"] = verdict
    if not verdict.unreadable:
        progress["results"].append((label, verdict.correct))


def answered(progress: dict) -> bool:
    return len(progress["results"]) > progress["index"]


def finished(progress: dict, questions: list) -> bool:
    return progress["index"] >= len(questions)


def is_last(progress: dict, questions: list) -> bool:
    return progress["index"] + 1 >= len(questions)


def next_question(progress: dict) -> None:
    progress["index"] += 1
    progress["verdict"] = None


def restart(progress: dict) -> None:
    progress.update(index=0, results=[], verdict=None, round=progress["round"] + 1)
