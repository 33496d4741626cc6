"""The class's answers as a CSV a spreadsheet opens safely: the question's step and text, the nickname, the
answer, right or wrong, in the order the answers were given.

A cell that starts with = + - @, a tab or a carriage return (or their full-width forms, which some
spreadsheets read the same) is a formula to Excel, LibreOffice and Google Sheets: such a cell gets a
leading apostrophe, which the spreadsheet shows as text and does not run (OWASP, "CSV Injection").
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from classroom.steps import LiveStep, live_step

FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
COLUMNS = {"answered_at": "answered at (UTC)", "step": "step", "question": "question", "round": "round",
           "nickname": "nickname", "identifier": "identifier", "hidden": "hidden", "answer": "answer", "right": "right",
           "scenario": "the student's list", "right_value": "the student's right value"}


def safe_cell(value) -> str:
    """``value`` as text a spreadsheet shows and never evaluates."""
    text = "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def english_question(step: LiveStep) -> tuple[str, str]:
    """(step, question) in English: "3. Predict Recall@10" and the question as asked."""
    return f"{step.index + 1}. {step.title}", step.prompt or ""


def csv_text(frame: pd.DataFrame, describe: Callable[[LiveStep], tuple[str, str]] = english_question,
             columns: dict[str, str] | None = None) -> str:
    """``Store.export``'s frame as CSV text: one row per answer in time order, every cell safe."""
    columns = {**COLUMNS, **(columns or {})}
    described: dict[tuple, tuple[str, str]] = {}
    rows = []
    for row in frame.itertuples(index=False):
        where = (row.lesson, row.step)
        if where not in described:
            step = live_step(row.lesson, int(row.step)) if row.lesson is not None and pd.notna(row.step) else None
            described[where] = describe(step) if step is not None else ("", row.question)
        step_text, question = described[where]
        rows.append({"answered_at": row.answered_at.strftime("%Y-%m-%d %H:%M:%S"), "step": step_text,
                     "question": question, "round": row.round, "nickname": row.nickname,
                     "identifier": getattr(row, "identifier", None), "hidden": row.hidden,
                     "answer": row.answer, "right": "" if row.right is None else row.right,
                     "scenario": getattr(row, "scenario", None), "right_value": getattr(row, "right_value", None)})
    table = pd.DataFrame(rows, columns=list(COLUMNS))
    table = table.map(safe_cell).rename(columns={k: safe_cell(v) for k, v in columns.items()})
    return table.to_csv(index=False, lineterminator="\r\n")
