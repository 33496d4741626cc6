"""Turn what the user typed into the editors into metric inputs, plus plain-language problems.

No Streamlit here. A row that cannot be used is left out of the computation and named in a
problem message; the editor keeps showing it exactly as typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from content import i18n, numbers
from content.i18n import _


@dataclass
class Parsed:
    """Clean columns for the metrics, and one message per row left out."""

    columns: dict[str, list] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)  # the editor row (from 1) of each kept row


class RejectedEdit(ValueError):
    """An editor state the app cannot apply; the message says what is wrong, for the user (in their language)."""


def _not_an_edit() -> RejectedEdit:
    return RejectedEdit(_("the editor sent something that is not a table edit"))


_INT64 = 2**63
MAX_GRADE = 1000
"""The largest usable grade: 2^1000 − 1 still fits a float64 with room for sums (2^1024 does not)."""


def _check_value(value, column: str) -> None:
    if value is None or isinstance(value, str):
        return
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise RejectedEdit(_("column '{column}' received {kind} {value}, which is not text or a number").format(
            column=column, kind=type(value).__name__, value=f"{value!r:.40}"))
    if isinstance(value, (int, np.integer)) and not -_INT64 <= int(value) < _INT64:
        raise RejectedEdit(_("column '{column}' received a number too large to store ({start}...)").format(
            column=column, start=str(value)[:20]))


def _position(raw, size: int, deletion: bool) -> int:
    try:
        position = int(raw)
    except (TypeError, ValueError):
        message = (_("a deletion names row {row}, which is not a row number") if deletion
                   else _("an edit names row {row}, which is not a row number"))
        raise RejectedEdit(message.format(row=f"{raw!r:.20}")) from None
    if isinstance(raw, (bool, float)) or not 0 <= position < size:
        message = (_("a deletion names row {row}, but the table has rows 1 to {size} only") if deletion
                   else _("an edit names row {row}, but the table has rows 1 to {size} only"))
        raise RejectedEdit(message.format(row=f"{raw!r:.20}", size=numbers.integer(size)))
    return position


def apply_edits(base: pd.DataFrame, edits, text_columns=(), number_columns=(), language: str | None = None
                ) -> pd.DataFrame:
    """Apply a data editor's edit state (edited_rows, added_rows, deleted_rows) to its base table.

    Raises ``RejectedEdit`` for a state the browser's editor never sends (a row that does not
    exist, an unknown column, a list or a boolean as a value, an integer beyond 64 bits), so the
    caller can keep the last good table instead. A number sent into one of ``text_columns`` is kept
    as its text (3.0 as "3"), as the grid would have sent it: a text column holding only numbers
    makes Streamlit refuse the whole editor. Text typed into one of ``number_columns`` is kept as the
    number it reads as in ``language``, the one the editor was shown in (``stored_number``), so the
    table means the same in every language; text that reads as no number stays as typed, for the page
    to name.
    """
    table = base.reset_index(drop=True).astype(object)
    if edits is None:
        return table
    if not isinstance(edits, dict) or not set(edits) <= {"edited_rows", "added_rows", "deleted_rows"}:
        raise _not_an_edit()
    edited, added, deleted = (edits.get(part) or kind() for part, kind in
                              (("edited_rows", dict), ("added_rows", list), ("deleted_rows", list)))
    if not isinstance(edited, dict) or not isinstance(added, list) or not isinstance(deleted, list):
        raise _not_an_edit()
    for raw_position, changes in edited.items():
        position = _position(raw_position, len(table), deletion=False)
        if not isinstance(changes, dict):
            raise _not_an_edit()
        for column, value in changes.items():
            if column not in table.columns:
                raise RejectedEdit(_("an edit names column {column}, which this table does not have").format(
                    column=f"{column!r:.40}"))
            _check_value(value, column)
            table.at[position, column] = (stored_number(value, language) if column in number_columns
                                          else _as_cell(value, column in text_columns))
    rows = []
    for row in added:
        if not isinstance(row, dict) or not set(row) - {"_index"} <= set(table.columns):
            raise RejectedEdit(_("an added row names a column this table does not have"))
        for column, value in row.items():
            _check_value(value, column)
        rows.append({c: stored_number(row.get(c), language) if c in number_columns else _as_cell(row.get(c), c in text_columns)
                     for c in table.columns})
    drop = sorted({_position(p, len(table), deletion=True) for p in deleted})
    table = table.drop(index=drop)
    if rows:
        table = pd.concat([table, pd.DataFrame(rows, columns=table.columns, dtype=object)], ignore_index=True)
    return table.reset_index(drop=True)


def stored_number(value, language: str | None = None):
    """A cell of a number column as the scenario keeps it: typed text that reads as one number in
    ``language`` (the reader's by default) becomes that number ("3,5" in Turkish is 3.5); anything else
    stays as typed."""
    if not isinstance(value, str):
        return value
    try:
        return numbers.parse(value, language=language)
    except numbers.NumberError:
        return value


def shown_numbers(table: pd.DataFrame, columns) -> pd.DataFrame:
    """The table an editor shows: each number in ``columns`` written in the reader's notation with every
    digit it has (3.5 as "3,5" in Turkish), read back by ``stored_number``; text stays as typed."""
    table = table.copy()
    language = i18n.current()  # read once, not from the session for every cell
    for column in columns:
        table[column] = pd.Series([_text(v) if v is None or isinstance(v, str) or (isinstance(v, float) and np.isnan(v))
                                   else numbers.editable(v, language=language) for v in table[column]],
                                  index=table.index, dtype=object)
    return table


def _as_cell(value, text: bool):
    return _text(value) if text and isinstance(value, (int, float, np.integer, np.floating)) and not (
        isinstance(value, float) and np.isnan(value)) else value


def as_text(table: pd.DataFrame, columns) -> pd.DataFrame:
    """The table with every float in ``columns`` written as text (2.0 as "2"), which the grid refuses in a
    text column; the table itself when there is none (a table from a file or a link may hold floats)."""
    # Only floats: the grid shows whole numbers in a text column, and a table left as it is keeps its
    # identity (a converted copy is a new table to the grid).
    numbers = [c for c in columns if c in table.columns
               and any(isinstance(v, (float, np.floating)) and not np.isnan(v) for v in table[c])]
    if not numbers:
        return table
    table = table.copy()
    for column in numbers:
        table[column] = pd.Series([v if v is None or isinstance(v, str) or (isinstance(v, float) and np.isnan(v))
                                   else _text(v) for v in table[column]], index=table.index, dtype=object)
    return table


def _text(value) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _number(value) -> float | None:
    """The value as a finite float, or None if it is not one.

    Typed text is read in the reader's notation (``content.numbers.parse``: "0,5" is 0.5 in Turkish;
    in English it is refused, never read as 5).
    """
    if isinstance(value, bool):
        return None
    try:
        number = numbers.parse(_text(value)) if isinstance(value, str) else float(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an int beyond any float; NumberError is a ValueError
        return None
    return number if np.isfinite(number) else None


def unreadable(value) -> str | None:
    """Why typed text cannot be read as one number in the reader's language (a comma, two readings),
    or None when it reads or is plainly not a number (the caller's own message says so)."""
    if not isinstance(value, str):
        return None
    try:
        numbers.parse(_text(value))
    except numbers.NumberError as refused:
        return None if refused.code == "not_a_number" else numbers.parse_error_message(refused)
    return None


def typed_rank(value) -> int | None:
    """A rank typed as a whole number 1 or more (``7``, ``"7"``, ``7.0``), else None.

    Text such as ``"abc"``, ``"-3"``, ``"2.5"``, ``"1e1"`` or ``"0"`` is not a rank: the caller
    leaves the item where it was and says so, instead of guessing what was meant.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, (float, np.floating)):
        return int(value) if np.isfinite(value) and float(value).is_integer() and value >= 1 else None
    if isinstance(value, (int, np.integer)):
        return int(value) if value >= 1 else None
    text = _text(value)
    digits = text.lstrip("0") if re.fullmatch(r"[0-9]+", text) else None
    if digits is None or len(digits) > MAX_RANK_DIGITS:
        return None  # int() of thousands of digits raises (zeros in front count too); no list is that long
    return int(digits) if digits else None


MAX_RANK_DIGITS = 18
"""A typed rank has at most this many digits (a 64-bit number); a longer one is refused, not read."""


def _rank_problem(row: int, typed: str, item: str, rank: int) -> str:
    fields = {"row": numbers.integer(row), "typed": shown(typed), "item": item, "rank": numbers.integer(rank)}
    if re.fullmatch(r"[0-9]+", typed) and len(typed.lstrip("0")) > MAX_RANK_DIGITS:
        return _("Recommended list, row {row}: the rank '{typed}' is a number of {digits} digits, too large to be a "
                 "rank, so item '{item}' stays at rank {rank}. Type a rank such as 2 to move it.").format(
            digits=numbers.integer(len(typed.lstrip("0"))), **fields)
    return _("Recommended list, row {row}: the rank '{typed}' is not a whole number 1 or more, so item '{item}' "
             "stays at rank {rank}. Type a rank such as 2 to move it.").format(**fields)


def shown(value, limit: int = 40) -> str:
    """What the user typed, as a message quotes it: in full when short, else its start, its end and its length."""
    text = _text(value)
    if len(text) <= limit:
        return text
    return _("{start}…{end} ({length} characters)").format(start=text[:limit - 12], end=text[-8:],
                                                            length=numbers.integer(len(text)))


def _rank_order(table: pd.DataFrame) -> list[int]:
    """Row positions in rank order. A row whose typed rank differs from its place lands at that
    rank: moving up it goes before the row already there, moving down after it (the rows in
    between close up either way, so typing 5 puts the item at rank 5, not 4); a row with no usable
    rank keeps its place, and so does a row without an item yet."""
    keys = []
    for position, (raw, item) in enumerate(zip(table["rank"], table["item"], strict=True)):
        rank = typed_rank(raw) if _text(item) else None  # a row not yet named moves once it is
        place = position + 1
        side = 1 if rank is None or rank == place else (0 if rank < place else 2)
        keys.append((rank if rank is not None else place, side, position))
    return sorted(range(len(table)), key=keys.__getitem__)


def order_by_rank(table: pd.DataFrame) -> pd.DataFrame:
    """The recommended list sorted by its rank column and renumbered 1..n.

    A rank that is not a whole number 1 or more stays as typed (the warning names it) and its row
    keeps its place; an empty rank (a row just added) is filled in with the row's place.
    """
    table = table.reset_index(drop=True)
    ordered = table.iloc[_rank_order(table)].reset_index(drop=True).astype(object)
    # Kept as an object column, like every table an editor returns (pandas would infer "str"), so a
    # reorder does not change the table's type, and with it the scenario link, on the next rerun.
    ordered["rank"] = pd.Series([str(position) if typed_rank(raw) is not None or not _text(raw) else raw
                                 for position, raw in enumerate(ordered["rank"], start=1)], dtype=object)
    return ordered


def reorder_by_rank(table: pd.DataFrame) -> pd.DataFrame | None:
    """The table in its new order when a typed rank moves a row or names another place; else None.

    Only then must the editor start again from the re-sorted table: any other edit (a new row,
    an item name, a rank typo) keeps the editor, and with it the cursor, as it is.
    """
    table = table.reset_index(drop=True)
    moved = _rank_order(table) != list(range(len(table))) or any(
        typed_rank(raw) not in (None, position) and _text(item)
        for position, (raw, item) in enumerate(zip(table["rank"], table["item"], strict=True), start=1))
    return order_by_rank(table) if moved else None


def parse_recommended(table: pd.DataFrame) -> Parsed:
    """The recommended list from a (rank, item) table, in rank order; blanks, repeats and rank typos named."""
    table = table.reset_index(drop=True)
    order = _rank_order(table)
    items, problems, first_rank = [], [], {}
    for rank, position in enumerate(order, start=1):
        raw_rank, item = table.at[position, "rank"], _text(table.at[position, "item"])
        if _text(raw_rank) and typed_rank(raw_rank) is None:
            problems.append(_rank_problem(position + 1, _text(raw_rank), shown(item) or _("(empty)"), rank))
        if not item:
            if _text(raw_rank):
                problems.append(_("Recommended list, rank {rank}: the item name is empty, so that row is left out.")
                                .format(rank=numbers.integer(rank)))
            continue  # a fully empty row (just added) is not a mistake yet
        if item in first_rank:
            problems.append(
                _("Recommended list: item '{item}' appears twice, at ranks {first} and {rank}. An item can be "
                  "recommended once, so rank {rank} is left out until you rename or delete it.").format(
                    item=shown(item), first=numbers.integer(first_rank[item]), rank=numbers.integer(rank))
            )
        else:
            first_rank[item] = rank
            items.append(item)
    return Parsed({"recommended": items}, problems)


def parse_ground_truth(table: pd.DataFrame) -> Parsed:
    """``{item: grade}`` from an (item, grade) table; bad grades and repeats left out."""
    grades, problems = {}, []
    for row, (raw_item, raw_grade) in enumerate(zip(table["item"], table["grade"], strict=True), start=1):
        item, grade, name = _text(raw_item), _number(raw_grade), shown(raw_item)
        fields = {"row": numbers.integer(row), "item": name}
        if not item:
            if _text(raw_grade):
                problems.append(_("Ground truth, row {row}: the item name is empty, so that row is left out.")
                                .format(**fields))
        elif grade is None:
            problems.append(_("Ground truth, row {row}: the grade of item '{item}' is '{grade}', not a number, so that "
                              "row is left out.").format(grade=shown(raw_grade), **fields))
        elif grade < 0:
            problems.append(_("Ground truth, row {row}: the grade of item '{item}' is {grade}; grades must be 0 or "
                              "more, so that row is left out.").format(grade=numbers.general(grade), **fields))
        elif grade > MAX_GRADE:
            problems.append(_("Ground truth, row {row}: the grade of item '{item}' is {grade}; grades above {limit} "
                              "are left out, because the exponential gain 2^grade − 1 would be too large to compute.")
                            .format(grade=numbers.general(grade), limit=MAX_GRADE, **fields))
        elif item in grades:
            problems.append(_("Ground truth, row {row}: item '{item}' is listed twice; the first grade ({grade}) is "
                              "used.").format(grade=numbers.general(grades[item]), **fields))
        else:
            grades[item] = grade
    return Parsed({"ground_truth": grades}, problems)


def _rule_problem(name: str, typed: str, rule: str) -> str:
    """Why one cell is unusable: "probability is 2, not a probability in [0, 1]"."""
    if rule == "number":
        template = _("{column} is {typed}, not a number")
    elif rule == "grade":
        template = _("{column} is {typed}, not a grade (a number from 0 to {limit})")
    elif rule == "label":
        template = _("{column} is {typed}, not 0 or 1")
    else:
        template = _("{column} is {typed}, not a probability in [0, 1]")
    return template.format(column=name, typed=typed, limit=MAX_GRADE)


def _valid(value, rule: str) -> float | None:
    number = _number(value)
    if number is None:
        return None
    if rule == "label" and number not in (0, 1):
        return None
    if rule == "probability" and not 0 <= number <= 1:
        return None
    if rule == "grade" and not 0 <= number <= MAX_GRADE:
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
                    bad.append(_("{column} is empty").format(column=name))
                continue
            values[name] = _valid(raw, rules[name])
            if values[name] is None:
                why = unreadable(raw)
                bad.append(_("{column}: {why}").format(column=name, why=why.rstrip(".。")) if why else
                           _rule_problem(name, shown(raw) or _("empty"), rules[name]))
        if all(not _text(v) for v in record):
            continue  # a fully blank row (just added) is not a mistake yet
        if bad:
            problems.append(_("{table}, row {row}: {problems}, so that row is left out.").format(
                table=where, row=numbers.integer(row), problems=_("; ").join(bad)))
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
        name, items = shown(user) or _("user {row}").format(row=numbers.integer(row)), parse_items(rec)
        repeated = sorted({i for i in items if items.count(i) > 1})
        if not _text(user) and not items and not parse_items(rel):
            continue
        if repeated:
            ranks = [r for r, i in enumerate(items, start=1) if i == repeated[0]]
            problems.append(
                _("Users, row {row} ({user}): item '{item}' is recommended twice (ranks {first} and {second}), so "
                  "that user is left out.").format(row=numbers.integer(row), user=name, item=shown(repeated[0]),
                                                   first=numbers.integer(ranks[0]), second=numbers.integer(ranks[1]))
            )
            continue
        users.append(name)
        recommended.append(items)
        relevant.append(set(parse_items(rel)))
    return Parsed({"user": users, "recommended": recommended, "relevant": relevant}, problems)
