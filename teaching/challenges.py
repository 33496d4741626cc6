"""Goal challenges: a starting list and a goal, checked against the learner's edited list after every edit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from metrics.ndcg import ndcg_at_k
from metrics.ranked_metrics import average_precision_at_k
from metrics.topn_metrics import precision_at_k


def swap_distance(start: list, current: list) -> int | None:
    """The fewest swaps of two items that turn ``start`` into ``current``; None if not a reordering.

    Examples
    --------
    >>> swap_distance([1, 2, 3, 4], [2, 1, 4, 3]), swap_distance([1, 2, 3], [2, 3, 1]), swap_distance([1, 2], [1, 3])
    (2, 2, None)
    """
    if len(start) != len(current) or sorted(map(str, start)) != sorted(map(str, current)) or len(set(start)) != len(start):
        return None
    position = {item: index for index, item in enumerate(start)}
    target = [position[item] for item in current]
    seen, cycles = set(), 0
    for index in range(len(target)):
        if index not in seen:
            cycles += 1
            while index not in seen:
                seen.add(index)
                index = target[index]
    return len(target) - cycles


@dataclass(frozen=True)
class Status:
    met: bool
    message: str  # in English; the UI words ``code`` and ``fields`` in the reader's language (content/practice.py)
    code: str = ""
    fields: dict = field(default_factory=dict, compare=False)


NDCG_TARGET, MAX_SWAPS, CHALLENGE_K = 0.9, 2, 5


def halfway_through_a_swap(start: list, current: list) -> Status | None:
    """What to do next when ``current`` is ``start`` halfway through a typed swap: one item typed over
    another, so it appears twice (the second copy is left out of the list) and the other is missing."""
    named = [str(i) for i in current]
    missing = [str(i) for i in start if str(i) not in set(named)]
    if len(named) == len(start) - 1 and len(missing) == 1 and set(named) <= {str(i) for i in start}:
        return Status(False, f"Halfway through a swap: {missing[0]} is missing, because another item now appears "
                             f"twice. Type {missing[0]} over the second copy to finish the swap.", "halfway",
                      {"missing": missing[0]})
    return None


def ndcg_with_few_swaps(start: list, current: list, ground_truth: dict) -> Status:
    """Goal: NDCG@5 >= 0.9 reached from ``start`` with at most two swaps."""
    swaps = swap_distance(start, current)
    if swaps is None:
        halfway = halfway_through_a_swap(start, current)
        if halfway:
            return halfway
        return Status(False, "Only reorder the starting list: keep the same items (move them by changing their rank).",
                      "same_items")
    value = ndcg_at_k(current, ground_truth, CHALLENGE_K)
    text = f"NDCG@{CHALLENGE_K} = {value:.4f} after {swaps} swap{'s' * (swaps != 1)}."
    fields = {"k": CHALLENGE_K, "value": value, "swaps": swaps, "most": MAX_SWAPS, "target": NDCG_TARGET}
    if value >= NDCG_TARGET and swaps <= MAX_SWAPS:
        return Status(True, f"Goal met: {text}", "ndcg_met", fields)
    if swaps > MAX_SWAPS:
        return Status(False, f"{text} That is more than {MAX_SWAPS} swaps: undo one.", "ndcg_too_many", fields)
    return Status(False, f"{text} Not yet {NDCG_TARGET}.", "ndcg_not_yet", fields)


def precision_and_ap_disagree(start: list, current: list, ground_truth: dict) -> Status:
    """Goal: the edited list and the starting list are ordered one way by P@5 and the other way by AP@5."""
    halfway = halfway_through_a_swap(start, current)
    if halfway:
        return halfway
    p_start, p_now = (precision_at_k(x, ground_truth, CHALLENGE_K) for x in (start, current))
    ap_start, ap_now = (average_precision_at_k(x, ground_truth, CHALLENGE_K) for x in (start, current))
    text = (f"P@{CHALLENGE_K}: yours {p_now:.4f} vs start {p_start:.4f}; "
            f"AP@{CHALLENGE_K}: yours {ap_now:.4f} vs start {ap_start:.4f}.")
    fields = {"k": CHALLENGE_K, "p_now": p_now, "p_start": p_start, "ap_now": ap_now, "ap_start": ap_start}
    if (p_now - p_start) * (ap_now - ap_start) < -1e-15:
        return Status(True, f"Goal met: {text} The two metrics disagree on which list is better.", "disagree_met", fields)
    return Status(False, f"{text} They do not yet disagree: one must prefer your list and the other the start.",
                  "disagree_not_yet", fields)


@dataclass(frozen=True)
class Challenge:
    key: str
    title: str
    recommended: tuple
    ground_truth: dict
    check: Callable[[list, list, dict], Status] = field(repr=False)


CHALLENGES: dict[str, Challenge] = {c.key: c for c in (
    Challenge("ndcg_two_swaps", f"Reach NDCG@{CHALLENGE_K} ≥ {NDCG_TARGET} with at most {MAX_SWAPS} swaps",
              tuple(range(101, 111)), {103: 3.0, 106: 2.0, 101: 1.0, 108: 1.0}, ndcg_with_few_swaps),
    Challenge("p_ap_disagree", f"Make P@{CHALLENGE_K} and AP@{CHALLENGE_K} disagree on which list is better",
              tuple(range(101, 111)), {101: 1.0, 104: 1.0, 107: 1.0}, precision_and_ap_disagree),
)}
