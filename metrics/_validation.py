"""Input checks shared by every metric.

Each check raises :class:`InputError` (a ``ValueError``) whose English message names the argument
and the offending value; its ``code`` and ``fields`` let the app say the same in the reader's
language (``content.messages.INPUT`` holds one template per code, with the same placeholders).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from numbers import Integral, Real

import numpy as np

# The English message of each code (content.messages.INPUT translates the same templates).
TEMPLATES = {
    "k": "{name} must be a positive integer, got {value}",
    "choice": "{name} must be one of {choices}, got {value}",
    "duplicate": "{name} has duplicate item {item} at ranks {first} and {second}",
    "grade": "{name} grade of item {item} must be a finite number >= 0, got {value}",
    "not_numbers": "{name} must contain numbers only, got {value}",
    "not_1d": "{name} must be one-dimensional, got shape {shape}",
    "empty": "{name} is empty",
    "not_finite": "{name} must be finite, got {value} at position {position}",
    "lengths": "inputs must have the same length: {lengths}",
    "binary": "{name} must contain only 0 and 1, got {value:g} at position {position}",
    "probabilities": "{name} must be probabilities in [0, 1], got {value:g} at position {position}",
}


class InputError(ValueError):
    """An input a metric cannot use: ``code`` names the problem, ``fields`` its facts, ``str()`` says it in English.

    ``fields`` hold text (the argument's name, a repr of the value) and numbers (ranks, positions),
    so a translation can write the numbers in the reader's notation.
    """

    def __init__(self, code: str, **fields):
        self.code, self.fields = code, fields
        super().__init__(TEMPLATES[code].format(**fields))


def check_k(k: object, name: str = "k") -> int:
    """Return ``k`` as an int, or raise if it is not a positive integer."""
    if isinstance(k, bool) or not isinstance(k, Integral) or k < 1:
        raise InputError("k", name=name, value=repr(k))
    return int(k)


def check_choice(value: object, name: str, choices: Sequence[str]) -> str:
    if value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise InputError("choice", name=name, choices=options, value=repr(value))
    return value  # type: ignore[return-value]


def check_ranking(recommended: Iterable[Hashable], name: str = "recommended") -> list:
    """Return the ranked list as a list; a repeated item is an error (ranks are 1-based)."""
    items = list(recommended)
    first_rank: dict = {}
    for rank, item in enumerate(items, start=1):
        if item in first_rank:
            raise InputError("duplicate", name=name, item=repr(item), first=first_rank[item], second=rank)
        first_rank[item] = rank
    return items


def check_grades(ground_truth: Mapping | Iterable, name: str = "ground_truth") -> dict:
    """Return ground truth as ``{item: grade}``; a set or list means grade 1 for each item."""
    if not isinstance(ground_truth, Mapping):
        return {item: 1.0 for item in ground_truth}
    grades = {}
    for item, grade in ground_truth.items():
        if isinstance(grade, bool) or not isinstance(grade, Real) or not np.isfinite(grade) or grade < 0:
            raise InputError("grade", name=name, item=repr(item), value=repr(grade))
        grades[item] = float(grade)
    return grades


def relevant_items(ground_truth: Mapping | Iterable, name: str = "ground_truth") -> set:
    """The items that count as relevant: grade > 0 (trec_eval's default relevance level)."""
    return {item for item, grade in check_grades(ground_truth, name).items() if grade > 0}


def as_finite_array(values: object, name: str) -> np.ndarray:
    """A non-empty 1-D float array with no NaN or infinity."""
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise InputError("not_numbers", name=name, value=repr(values)) from None
    if array.ndim != 1:
        raise InputError("not_1d", name=name, shape=str(array.shape))
    if array.size == 0:
        raise InputError("empty", name=name)
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        raise InputError("not_finite", name=name, value=str(array[bad[0]]), position=int(bad[0]))
    return array


def check_same_length(**arrays: np.ndarray) -> None:
    lengths = {name: len(array) for name, array in arrays.items()}
    if len(set(lengths.values())) > 1:
        described = " and ".join(f"{name} has {n}" for name, n in lengths.items())
        raise InputError("lengths", lengths=described, lengths_by_name=lengths)


def as_binary_labels(values: object, name: str) -> np.ndarray:
    """Labels in {0, 1} as an int array."""
    array = as_finite_array(values, name)
    bad = np.flatnonzero((array != 0) & (array != 1))
    if bad.size:
        raise InputError("binary", name=name, value=float(array[bad[0]]), position=int(bad[0]))
    return array.astype(int)


def as_probabilities(values: object, name: str) -> np.ndarray:
    """Probabilities in [0, 1]."""
    array = as_finite_array(values, name)
    bad = np.flatnonzero((array < 0) | (array > 1))
    if bad.size:
        raise InputError("probabilities", name=name, value=float(array[bad[0]]), position=int(bad[0]))
    return array
