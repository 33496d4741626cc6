"""Input checks shared by every metric.

Each check raises ``ValueError`` whose message names the argument and the offending value,
so the dashboard can show the message as it is.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from numbers import Integral, Real

import numpy as np


def check_k(k: object, name: str = "k") -> int:
    """Return ``k`` as an int, or raise if it is not a positive integer."""
    if isinstance(k, bool) or not isinstance(k, Integral) or k < 1:
        raise ValueError(f"{name} must be a positive integer, got {k!r}")
    return int(k)


def check_choice(value: object, name: str, choices: Sequence[str]) -> str:
    if value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {options}, got {value!r}")
    return value  # type: ignore[return-value]


def check_ranking(recommended: Iterable[Hashable], name: str = "recommended") -> list:
    """Return the ranked list as a list; a repeated item is an error (ranks are 1-based)."""
    items = list(recommended)
    first_rank: dict = {}
    for rank, item in enumerate(items, start=1):
        if item in first_rank:
            raise ValueError(
                f"{name} has duplicate item {item!r} at ranks {first_rank[item]} and {rank}"
            )
        first_rank[item] = rank
    return items


def check_grades(ground_truth: Mapping | Iterable, name: str = "ground_truth") -> dict:
    """Return ground truth as ``{item: grade}``; a set or list means grade 1 for each item."""
    if not isinstance(ground_truth, Mapping):
        return {item: 1.0 for item in ground_truth}
    grades = {}
    for item, grade in ground_truth.items():
        if isinstance(grade, bool) or not isinstance(grade, Real) or not np.isfinite(grade) or grade < 0:
            raise ValueError(
                f"{name} grade of item {item!r} must be a finite number >= 0, got {grade!r}"
            )
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
        raise ValueError(f"{name} must contain numbers only, got {values!r}") from None
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {array.shape}")
    if array.size == 0:
        raise ValueError(f"{name} is empty")
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        raise ValueError(
            f"{name} must be finite, got {array[bad[0]]} at position {bad[0]}"
        )
    return array


def check_same_length(**arrays: np.ndarray) -> None:
    lengths = {name: len(array) for name, array in arrays.items()}
    if len(set(lengths.values())) > 1:
        described = " and ".join(f"{name} has {n}" for name, n in lengths.items())
        raise ValueError(f"inputs must have the same length: {described}")


def as_binary_labels(values: object, name: str) -> np.ndarray:
    """Labels in {0, 1} as an int array."""
    array = as_finite_array(values, name)
    bad = np.flatnonzero((array != 0) & (array != 1))
    if bad.size:
        raise ValueError(
            f"{name} must contain only 0 and 1, got {array[bad[0]]:g} at position {bad[0]}"
        )
    return array.astype(int)


def as_probabilities(values: object, name: str) -> np.ndarray:
    """Probabilities in [0, 1]."""
    array = as_finite_array(values, name)
    bad = np.flatnonzero((array < 0) | (array > 1))
    if bad.size:
        raise ValueError(
            f"{name} must be probabilities in [0, 1], got {array[bad[0]]:g} at position {bad[0]}"
        )
    return array
