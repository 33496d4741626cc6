"""Whether an answer is right: an option's label exactly, a number to the practice mode's tolerance."""

from __future__ import annotations

from teaching import practice


def as_number(value: str) -> float | None:
    try:
        return float(practice.parse_answer(value))
    except ValueError:
        return None


def is_right(value: str, right_answer: str | None) -> bool | None:
    """None without a right answer; numbers compare to four decimals (9/14 and 0.6429 are both right)."""
    if right_answer is None:
        return None
    if value == right_answer:
        return True
    typed, right = as_number(value), as_number(right_answer)
    if typed is None or right is None:
        return False
    return practice.close(typed, right)
