"""Turn what the user typed into the editors into metric inputs, plus plain-language problems.

No Streamlit here. A row that cannot be used is left out of the computation and named in a
problem message; the editor keeps showing it exactly as typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd


@dataclass
class Parsed:
    """Clean columns for the metrics, and one message per row left out."""

    columns: dict[str, list] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)  # the editor row (from 1) of each kept row


def apply_edits(base: pd.DataFrame, edits: dict | None) -> pd.DataFrame:
    """Apply a data editor's edit state (edited_rows, added_rows, deleted_rows) to its base table."""
    table = base.reset_index(drop=True).astype(object)
    edits = edits or {}
    for position, changes in (edits.get("edited_rows") or {}).items():
        for column, value in changes.items():
            if column in table.columns:
                table.at[int(position), column] = value
    added = [{c: row.get(c) for c in table.columns} for row in edits.get("added_rows") or []]
    if added:
        table = pd.concat([table, pd.DataFrame(added, columns=table.columns, dtype=object)], ignore_index=True)
    deleted = [int(p) for p in edits.get("deleted_rows") or []]
    return table.drop(index=deleted).reset_index(drop=True)


def _text(value) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _number(value) -> float | None:
    """The value as a finite float, or None if it is not one."""
    if isinstance(value, bool):
        return None
    try:
        number = float(_text(value)) if isinstance(value, str) else float(value)
    except (TypeError, ValueError):
        return None
    return number if np.isfinite(number) else None


def order_by_rank(table: pd.DataFrame) -> pd.DataFrame:
    """Sort the recommended list by its rank column and renumber it 1..n.

    A row whose rank was changed goes before the row that already had that rank, so typing 2
    moves an item to rank 2. Rows with no rank (just added) go last, in the order added.
    """
    table = table.reset_index(drop=True)
    ranks = [_number(r) for r in table["rank"]]
    keys = [
        (rank if rank is not None else np.inf, 0 if rank is not None and rank != position + 1 else 1, position)
        for position, rank in enumerate(ranks)
    ]
    order = sorted(range(len(table)), key=keys.__getitem__)
    ordered = table.iloc[order].reset_index(drop=True)
    ordered["rank"] = range(1, len(ordered) + 1)
    return ordered


def parse_recommended(table: pd.DataFrame) -> Parsed:
    """The recommended list from a (rank, item) table, in rank order; blanks and repeats left out."""
    ordered = order_by_rank(table)
    items, problems, first_rank = [], [], {}
    for rank, raw in zip(ordered["rank"], ordered["item"], strict=True):
        item = _text(raw)
        if not item:
            problems.append(f"Recommended list, rank {rank}: the item name is empty, so that row is left out.")
        elif item in first_rank:
            problems.append(
                f"Recommended list: item '{item}' appears twice, at ranks {first_rank[item]} and {rank}. "
                f"An item can be recommended once, so rank {rank} is left out until you rename or delete it."
            )
        else:
            first_rank[item] = rank
            items.append(item)
    return Parsed({"recommended": items}, problems)


def parse_ground_truth(table: pd.DataFrame) -> Parsed:
    """``{item: grade}`` from an (item, grade) table; bad grades and repeats left out."""
    grades, problems = {}, []
    for row, (raw_item, raw_grade) in enumerate(zip(table["item"], table["grade"], strict=True), start=1):
        item, grade = _text(raw_item), _number(raw_grade)
        where = f"Ground truth, row {row}"
        if not item:
            if _text(raw_grade):
                problems.append(f"{where}: the item name is empty, so that row is left out.")
        elif grade is None:
            problems.append(f"{where}: the grade of item '{item}' is '{_text(raw_grade)}', not a number, so that row is left out.")
        elif grade < 0:
            problems.append(f"{where}: the grade of item '{item}' is {grade:g}; grades must be 0 or more, so that row is left out.")
        elif item in grades:
            problems.append(f"{where}: item '{item}' is listed twice; the first grade ({grades[item]:g}) is used.")
        else:
            grades[item] = grade
    return Parsed({"ground_truth": grades}, problems)


def _rule_label(rule: str) -> str:
    return {"number": "a number", "grade": "a grade (a number 0 or more)", "label": "0 or 1",
            "probability": "a probability in [0, 1]"}[rule]


def _valid(value, rule: str) -> float | None:
    number = _number(value)
    if number is None:
        return None
    if rule == "label" and number not in (0, 1):
        return None
    if rule == "probability" and not 0 <= number <= 1:
        return None
    if rule == "grade" and number < 0:
        return None
    return number


def parse_numeric_rows(table: pd.DataFrame, rules: dict[str, str], where: str) -> Parsed:
    """Columns of numbers, each checked by its rule ("number", "grade", "label", "probability", "text").

    A row with any bad cell is left out whole, so the columns stay aligned; ``rows`` says which
    editor row each kept value came from.
    """
    columns = {name: [] for name in rules}
    problems, kept_rows = [], []
    for row, record in enumerate(table[list(rules)].itertuples(index=False), start=1):
        values, bad = {}, []
        for name, raw in zip(rules, record, strict=True):
            if rules[name] == "text":
                values[name] = _text(raw)
                if not values[name]:
                    bad.append(f"{name} is empty")
                continue
            values[name] = _valid(raw, rules[name])
            if values[name] is None:
                shown = _text(raw) or "empty"
                bad.append(f"{name} is {shown}, not {_rule_label(rules[name])}")
        if all(not _text(v) for v in record):
            continue  # a fully blank row (just added) is not a mistake yet
        if bad:
            problems.append(f"{where}, row {row}: {'; '.join(bad)}, so that row is left out.")
            continue
        kept_rows.append(row)
        for name, value in values.items():
            columns[name].append(int(value) if rules[name] == "label" else value)
    return Parsed(columns, problems, kept_rows)


def parse_items(text) -> list[str]:
    """A comma-separated item list, as typed in a one-cell-per-user table."""
    return [part.strip() for part in _text(text).split(",") if part.strip()]


def parse_users(table: pd.DataFrame) -> Parsed:
    """Per-user recommended lists and relevant sets from (user, recommended, relevant) text cells."""
    users, recommended, relevant, problems = [], [], [], []
    for row, (user, rec, rel) in enumerate(zip(table["user"], table["recommended"], table["relevant"], strict=True), start=1):
        name, items = _text(user) or f"user {row}", parse_items(rec)
        repeated = sorted({i for i in items if items.count(i) > 1})
        if not _text(user) and not items and not parse_items(rel):
            continue
        if repeated:
            ranks = [r for r, i in enumerate(items, start=1) if i == repeated[0]]
            problems.append(
                f"Users, row {row} ({name}): item '{repeated[0]}' is recommended twice "
                f"(ranks {ranks[0]} and {ranks[1]}), so that user is left out."
            )
            continue
        users.append(name)
        recommended.append(items)
        relevant.append(set(parse_items(rel)))
    return Parsed({"user": users, "recommended": recommended, "relevant": relevant}, problems)
