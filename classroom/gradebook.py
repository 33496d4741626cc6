"""The teacher's gradebook: one row per student, two columns per question (points 1 or 0, and the answer), the
CSV a learning platform's gradebook imports (Moodle, Canvas and the like map a column of numbers to a grade item).

A student's row is the answer they gave to the class's join question ("Student number"), compared as nicknames
are (``codes.nickname_key``: "S-12", "s-12 " and "Ｓ-12" are one row), so their marks from every round and every
meeting of the teacher's classes line up on one row. A class without a join question gives rows by nickname, never
joined to another class. Every cell goes through ``export.safe_cell`` (a cell starting with = + - @ is text).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from classroom import codes
from classroom.export import safe_cell
from classroom.steps import LiveStep, live_step

COLUMNS = {"identifier": "identifier", "nickname": "nickname", "total": "total", "points": "points",
           "answer": "answer"}


@dataclass(frozen=True)
class Mark:
    row: str            # who: "id:" + the join answer's key, or "nick:" + class code + the nickname's key
    identifier: str     # as the student typed it (empty without a join question)
    nickname: str
    column: str         # which question: the class's day, code and question id (sorts in the order asked)
    label: str          # the column's heading: day, class, step and question
    answer: str
    right: bool | None
    at: float


def marks(frame: pd.DataFrame, code: str, describe: Callable[[LiveStep], str]) -> list[Mark]:
    """The marks of one class from ``Store.export``'s frame (its last answer per student and question)."""
    found, labels = [], {}
    for row in frame.itertuples(index=False):
        identifier = row.identifier if isinstance(row.identifier, str) and row.identifier else ""
        who = f"id:{codes.nickname_key(identifier)}" if identifier else f"nick:{code}:{codes.nickname_key(row.nickname)}"
        day = row.answered_at.strftime("%Y-%m-%d")
        where = (row.lesson, row.step, row.round)
        if where not in labels:
            step = live_step(row.lesson, int(row.step)) if row.lesson is not None and pd.notna(row.step) else None
            said = describe(step) if step is not None else str(row.question)
            labels[where] = said + (f" #{row.round}" if row.round > 1 else "")
        found.append(Mark(who, identifier, str(row.nickname), f"{day} {code} {row.question}",
                          f"{day} {code} · {labels[where]}", str(row.answer),
                          None if row.right is None else bool(row.right), row.answered_at.timestamp()))
    return found


def csv_text(found: list[Mark], columns: dict[str, str] | None = None, identifier: str | None = None) -> str:
    """The gradebook as CSV text: ``columns`` are the headings' words (``COLUMNS`` in English), ``identifier`` the
    join question as the teacher wrote it (the first column's heading). Rows in the order of the identifiers."""
    words = {**COLUMNS, **(columns or {})}
    order = sorted({m.column: min(n.at for n in found if n.column == m.column) for m in found}.items(),
                   key=lambda c: (c[1], c[0]))
    labels = {m.column: m.label for m in found}
    rows: dict[str, dict] = {}
    for mark in sorted(found, key=lambda m: m.at):
        row = rows.setdefault(mark.row, {"identifier": "", "nickname": "", "marks": {}})
        row["identifier"] = mark.identifier or row["identifier"]
        row["nickname"] = mark.nickname
        row["marks"][mark.column] = mark
    header = [identifier or words["identifier"], words["nickname"], words["total"]]
    for column, _first in order:
        header += [f"{labels[column]} ({words['points']})", f"{labels[column]} ({words['answer']})"]
    table = []
    for row in sorted(rows.values(), key=lambda r: (r["identifier"] == "", r["identifier"].casefold(),
                                                     r["nickname"].casefold())):
        cells = [row["identifier"], row["nickname"],
                 sum(1 for m in row["marks"].values() if m.right)]
        for column, _first in order:
            mark = row["marks"].get(column)
            cells += ["" if mark is None or mark.right is None else int(mark.right), "" if mark is None else mark.answer]
        table.append([safe_cell(c) for c in cells])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([safe_cell(h) for h in header])
    writer.writerows(table)
    return out.getvalue()
