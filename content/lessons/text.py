"""A lesson's sentences in the reader's language: the lesson files (``content/lessons/builtin``) hold them
in English (the keys options are chosen by, and the catalogs' msgids); these functions translate them where shown."""

from __future__ import annotations

import re

from content import numbers
from content.i18n import _


_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def option_label(label: str) -> str:
    """An answer option as the reader reads it: a number in their notation, words translated.

    The option's ``label`` itself (English) stays the key the answer is checked by.
    """
    if not _NUMBER.fullmatch(label):
        return _(label)
    return label.replace(".", numbers.decimal_mark())


def control_label(control, scenario: dict) -> str:
    """A slider's label, its template filled: ``{item}`` the item it moves, ``{number}`` the position
    (1-based) of the value it sets, ``{label}`` that position's label."""
    index = control.index if control.index is not None else 0
    labels = scenario.get("y_true") or []
    return _(control.label).format(item=control.item, number=numbers.integer(index + 1),
                                   label=labels[index] if index < len(labels) else "")
