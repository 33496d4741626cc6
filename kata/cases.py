"""How a case is built, drawn at random and shrunk, for each kind of input a problem takes.

A case is a dict keyed by parameter name with plain Python values (lists, sets, dicts, ints,
floats). Shrinking proposes strictly smaller cases, the way hypothesis does: fewer items, a
smaller K, smaller grades, simpler numbers. The judge keeps the first proposal that still fails.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from metrics.seed_examples import GT_GRADED, GT_RANKED, GT_TOPN, RECOMMENDED, TEXT_PRED, TEXT_TRUE

CATALOGUE = 30


def _items(value) -> int:
    """Entries of a list, set or dict, and of the lists and sets inside it (several users' lists)."""
    return len(value) + sum(len(v) for v in value if isinstance(v, (list, set, dict))) if isinstance(value, list) \
        else len(value)


def size(case: dict) -> tuple:
    """A case's size, compared to choose the smallest failing case: items first, then K, then grades."""
    items = sum(_items(v) for v in case.values() if isinstance(v, (list, set, dict)))
    grades = sum(sum(v.values()) for v in case.values() if isinstance(v, dict))
    grades += sum(abs(x) for v in case.values() if isinstance(v, list) for x in v if isinstance(x, (int, float)))
    return items, case.get("k", 0), grades


# --------------------------------------------------------------------------- random cases


def _ranking(rng) -> tuple[list, set]:
    length = int(rng.integers(0, 13))
    recommended = [int(i) for i in rng.choice(np.arange(1, CATALOGUE + 1), size=length, replace=False)]
    relevant = {int(i) for i in rng.choice(np.arange(1, CATALOGUE + 1), size=int(rng.integers(0, 7)), replace=False)}
    if recommended and relevant and rng.random() < 0.6:  # make hits likely
        relevant |= {int(i) for i in rng.choice(recommended, size=min(len(recommended), int(rng.integers(1, 4))),
                                                  replace=False)}
    return recommended, relevant


def random_ranking(rng) -> dict:
    recommended, relevant = _ranking(rng)
    return {"recommended": recommended, "relevant": relevant, "k": int(rng.integers(1, 16))}


def random_ranking_no_k(rng) -> dict:
    recommended, relevant = _ranking(rng)
    return {"recommended": recommended, "relevant": relevant}


def random_graded(rng) -> dict:
    recommended, relevant = _ranking(rng)
    judged = relevant | {int(i) for i in rng.choice(np.arange(1, CATALOGUE + 1), size=int(rng.integers(0, 3)))}
    relevance = {item: int(rng.integers(0, 4)) if item not in relevant else int(rng.integers(1, 6)) for item in judged}
    return {"recommended": recommended, "relevance": relevance, "k": int(rng.integers(1, 16))}


def random_relevances(rng) -> dict:
    n = int(rng.integers(0, 12))
    grades = rng.integers(0, 4, size=n).astype(float)
    if rng.random() < 0.3:
        grades = np.round(rng.random(n) * 3, 2)
    return {"relevances": [float(g) for g in grades], "k": int(rng.integers(1, 14))}


def _labels_scores(rng, n: int) -> tuple[list, list]:
    labels = [int(x) for x in rng.integers(0, 2, size=n)]
    # Scores from a coarse grid so ties between a positive and a negative are common.
    levels = int(rng.choice([3, 5, 10, 1000]))
    scores = [float(x) for x in np.round(rng.integers(0, levels, size=n) / levels, 3)]
    return labels, scores


def random_scores(rng) -> dict:
    y_true, y_score = _labels_scores(rng, int(rng.integers(2, 16)))
    return {"y_true": y_true, "y_score": y_score}


def random_groups(rng) -> dict:
    n = int(rng.integers(2, 18))
    users = [f"u{int(u)}" for u in rng.integers(1, int(rng.integers(2, 6)), size=n)]
    y_true, y_score = _labels_scores(rng, n)
    return {"user_ids": users, "y_true": y_true, "y_score": y_score}


def random_probabilities(rng) -> dict:
    n = int(rng.integers(1, 12))
    probs = [float(x) for x in np.round(rng.random(n), 3)]
    if rng.random() < 0.4:
        probs[int(rng.integers(0, n))] = float(rng.choice([0.0, 1.0]))
    return {"y_true": [int(x) for x in rng.integers(0, 2, size=n)], "y_prob": probs}


def random_ratings(rng) -> dict:
    n = int(rng.integers(1, 12))
    actuals = [float(x) for x in rng.integers(1, 6, size=n)]
    predictions = [float(x) for x in np.round(rng.uniform(0.5, 5.5, size=n), 2)]
    return {"predictions": predictions, "actuals": actuals}


def _users(rng) -> dict:
    pairs = [_ranking(rng) for _ in range(int(rng.integers(1, 6)))]
    return {"all_recommended": [r for r, _ in pairs], "all_ground_truth": [g for _, g in pairs]}


def random_users(rng) -> dict:
    return {**_users(rng), "k": int(rng.integers(1, 16))}


def random_users_no_k(rng) -> dict:
    return _users(rng)


RANDOM = {"ranking": random_ranking, "ranking_no_k": random_ranking_no_k, "graded": random_graded,
          "relevances": random_relevances, "scores": random_scores, "groups": random_groups,
          "probabilities": random_probabilities, "ratings": random_ratings, "users": random_users,
          "users_no_k": random_users_no_k}


# --------------------------------------------------------------------------- examples and edge cases

_NO_HIT = {"recommended": [1, 2, 3], "relevant": {7, 8}}
_RANKING_EDGES = [
    {"recommended": [1, 2, 3], "relevant": set(), "k": 3},            # empty ground truth
    {"recommended": [1, 2, 3], "relevant": {2, 3, 9}, "k": 10},        # K larger than the list
    {"recommended": [1, 2, 3], "relevant": {2}, "k": 1},               # K = 1, hit below it
    {"recommended": [1, 2, 3], "relevant": {1}, "k": 1},               # K = 1, hit at it
    {**_NO_HIT, "k": 3},                                               # no hit
    {"recommended": [1, 2, 3, 4], "relevant": {1, 2, 3, 4}, "k": 4},   # every item relevant
    {"recommended": [1, 2, 3, 4], "relevant": {1, 2, 3, 4, 5, 6, 7}, "k": 3},  # |Rel| > K
    {"recommended": [], "relevant": {1}, "k": 5},                      # empty list
    {"recommended": [4, 1, 2], "relevant": {2, 9}, "k": 2},           # relevant never recommended
]

_USERS_EDGES = [
    {"all_recommended": [[1, 2, 3], [1, 2, 3]], "all_ground_truth": [{2}, set()], "k": 3},  # a user, no relevant item
    {"all_recommended": [[4, 1, 2]], "all_ground_truth": [{2, 9}], "k": 2},                 # one user
    {"all_recommended": [[1], [2]], "all_ground_truth": [set(), set()], "k": 1},            # nobody has a relevant item
    {"all_recommended": [[1, 2], [3]], "all_ground_truth": [{2, 5}, {3}], "k": 10},          # K larger than the lists
    {"all_recommended": [[], [1, 2]], "all_ground_truth": [{1}, {2}], "k": 2},              # an empty list
    {"all_recommended": [[1, 2, 3, 4]], "all_ground_truth": [{1, 2, 3, 4, 5, 6}], "k": 3},  # |Rel| > K
    {"all_recommended": [[1, 2, 3], [4, 5]], "all_ground_truth": [{9}, {5}], "k": 3},       # a user with no hit
    {"all_recommended": [[7, 8], [1, 2, 3]], "all_ground_truth": [{7}, {3}], "k": 3},       # first-rank hit, later hit
]

EXAMPLES = {
    "users": [{"all_recommended": [RECOMMENDED, RECOMMENDED], "all_ground_truth": [set(GT_RANKED), set(GT_TOPN)],
               "k": 10},
              {"all_recommended": [[1, 2], [3, 4]], "all_ground_truth": [{1}, {4}], "k": 2}],
    "users_no_k": [{"all_recommended": [RECOMMENDED, RECOMMENDED], "all_ground_truth": [set(GT_RANKED), set(GT_TOPN)]},
                   {"all_recommended": [[1, 2], [3, 4]], "all_ground_truth": [{1}, {4}]}],
    "ranking": [{"recommended": RECOMMENDED, "relevant": set(GT_TOPN), "k": 10},
                {"recommended": RECOMMENDED, "relevant": set(GT_RANKED), "k": 10},
                {"recommended": [1, 2, 3, 4, 5], "relevant": {2, 6, 7, 8, 9}, "k": 5}],
    "ranking_no_k": [{"recommended": RECOMMENDED, "relevant": set(GT_RANKED)},
                     {"recommended": RECOMMENDED, "relevant": set(GT_TOPN)}],
    "graded": [{"recommended": RECOMMENDED, "relevance": dict.fromkeys(GT_RANKED, 1), "k": 10},
               {"recommended": RECOMMENDED, "relevance": dict(GT_GRADED), "k": 10},
               {"recommended": ["A", "B", "C", "D", "E"], "relevance": {"A": 3, "B": 2, "C": 3, "E": 1}, "k": 5}],
    "relevances": [{"relevances": [1.0, 0, 0, 1, 0, 0, 1, 0, 0, 0], "k": 10},
                   {"relevances": [3.0, 2, 3, 0, 1], "k": 5},
                   {"relevances": [5.0, 0, 0, 4, 0, 0, 3, 0, 0, 0], "k": 10}],
    "scores": [{"y_true": [1, 1, 0, 0, 1, 0], "y_score": [0.9, 0.8, 0.1, 0.4, 0.95, 0.6]},
               {"y_true": [1, 1, 0, 0, 1, 1, 0, 0], "y_score": [0.9, 0.8, 0.5, 0.4, 0.7, 0.6, 0.3, 0.2]}],
    "groups": [{"user_ids": ["user1"] * 4 + ["user2"] * 4, "y_true": [1, 1, 0, 0, 1, 1, 0, 0],
                "y_score": [0.9, 0.8, 0.5, 0.4, 0.7, 0.6, 0.3, 0.2]}],
    "probabilities": [{"y_true": [1, 1, 0], "y_prob": [0.8, 0.6, 0.3]},
                      {"y_true": TEXT_TRUE[:20], "y_prob": [0.9 if p else 0.2 for p in TEXT_PRED[:20]]}],
    "ratings": [{"predictions": [3.0, 4.0, 5.0], "actuals": [3.0, 4.0, 2.0]},
                {"predictions": [3.5, 4.0, 2.0, 5.0], "actuals": [4.0, 4.0, 1.0, 1.0]}],
}
"""The source documents' own examples (see metrics/seed_examples.py), run first."""

EDGES = {
    "users": _USERS_EDGES,
    "users_no_k": [{k: v for k, v in case.items() if k != "k"} for case in _USERS_EDGES],
    "ranking": _RANKING_EDGES,
    "ranking_no_k": [{k: v for k, v in case.items() if k != "k"} for case in _RANKING_EDGES[::2]]
    + [{"recommended": [5, 6, 7, 8], "relevant": {8}}, {"recommended": [5, 6], "relevant": {5, 6}},
       {"recommended": list(range(1, 13)), "relevant": {12}}],  # the first hit below rank 10
    "graded": [
        {"recommended": [1, 2, 3], "relevance": {}, "k": 3},
        {"recommended": [1, 2, 3], "relevance": {1: 0, 2: 0}, "k": 3},
        {"recommended": [1, 2], "relevance": {2: 1, 9: 3}, "k": 2},      # graded item never recommended
        {"recommended": [1, 2, 3], "relevance": {3: 2, 1: 1}, "k": 10},  # K larger than the list
        {"recommended": [1, 2, 3], "relevance": {2: 3}, "k": 1},
        {"recommended": [1, 2, 3], "relevance": {1: 1, 2: 1, 3: 1}, "k": 3},
        {"recommended": [1, 2, 3], "relevance": {3: 3, 2: 2, 1: 1}, "k": 3},
    ],
    "relevances": [{"relevances": [], "k": 3}, {"relevances": [0.0, 0.0], "k": 2}, {"relevances": [2.0, 1.0], "k": 1},
                   {"relevances": [1.0, 1.0, 1.0], "k": 10}, {"relevances": [0.5, 2.5], "k": 2}],
    "scores": [{"y_true": [1, 0], "y_score": [0.5, 0.5]}, {"y_true": [1, 1, 0], "y_score": [0.4, 0.4, 0.4]},
               {"y_true": [1, 1, 1], "y_score": [0.1, 0.2, 0.3]}, {"y_true": [0, 0], "y_score": [0.1, 0.2]},
               {"y_true": [0, 1], "y_score": [0.9, 0.1]}, {"y_true": [1, 0, 1, 0], "y_score": [0.7, 0.7, 0.2, 0.1]}],
    "groups": [{"user_ids": ["a", "a", "b", "b", "c"], "y_true": [1, 0, 1, 0, 1], "y_score": [0.9, 0.1, 0.2, 0.8, 0.5]},
               {"user_ids": ["a", "b"], "y_true": [1, 0], "y_score": [0.3, 0.4]},
               {"user_ids": ["a", "a", "a", "b", "b"], "y_true": [1, 0, 0, 1, 0], "y_score": [0.5, 0.5, 0.1, 0.9, 0.2]},
               {"user_ids": ["a", "b", "a", "b"], "y_true": [1, 1, 0, 0], "y_score": [0.8, 0.2, 0.3, 0.6]}],
    "probabilities": [{"y_true": [1, 0], "y_prob": [1.0, 0.0]}, {"y_true": [1, 0], "y_prob": [0.0, 1.0]},
                      {"y_true": [1], "y_prob": [0.5]}, {"y_true": [0, 0, 1], "y_prob": [0.0, 0.2, 1.0]}],
    "ratings": [{"predictions": [2.0], "actuals": [5.0]}, {"predictions": [3.0, 3.0], "actuals": [3.0, 3.0]},
                {"predictions": [1.0, 5.0], "actuals": [5.0, 1.0]}],
}
"""Edge cases, run after the examples: each one a classic place to get a metric wrong."""


# --------------------------------------------------------------------------- shrinking


def _without(sequence: list, index: int) -> list:
    return sequence[:index] + sequence[index + 1:]


def _simpler_number(x: float) -> Iterator[float]:
    if x != int(x):
        yield float(round(x))
    if x > 1:
        yield float(int(x) - 1)


def shrink(case: dict) -> Iterator[dict]:
    """Strictly smaller variants of ``case``, smallest-first where it is cheap to say."""
    if "all_recommended" in case:
        yield from _shrink_users(case)
    parallel = [name for name in ("user_ids", "y_true", "y_score", "y_prob", "predictions", "actuals")
                if name in case]
    if parallel:
        n = len(case[parallel[0]])
        for i in range(n):
            yield {**case, **{name: _without(case[name], i) for name in parallel}}
    for name in ("recommended", "relevances"):
        if name in case:
            for i in range(len(case[name])):
                yield {**case, name: _without(case[name], i)}
    if "relevant" in case:
        for item in sorted(case["relevant"], key=repr):
            yield {**case, "relevant": case["relevant"] - {item}}
    if "relevance" in case:
        for item in list(case["relevance"]):
            yield {**case, "relevance": {k: v for k, v in case["relevance"].items() if k != item}}
        for item, grade in case["relevance"].items():
            for smaller in _simpler_number(float(grade)):
                yield {**case, "relevance": {**case["relevance"], item: int(smaller)}}
    if case.get("k", 1) > 1:
        yield {**case, "k": 1}
        yield {**case, "k": case["k"] - 1}
    for name in ("relevances", "y_score", "y_prob", "predictions", "actuals"):
        for i, x in enumerate(case.get(name, [])):
            for smaller in _simpler_number(float(x)):
                yield {**case, name: case[name][:i] + [smaller] + case[name][i + 1:]}


def _shrink_users(case: dict) -> Iterator[dict]:
    """Fewer users (one at least), then a shorter list or fewer relevant items for one user."""
    lists, truths = case["all_recommended"], case["all_ground_truth"]
    if len(lists) > 1:
        for i in range(len(lists)):
            yield {**case, "all_recommended": _without(lists, i), "all_ground_truth": _without(truths, i)}
    for i, (recommended, relevant) in enumerate(zip(lists, truths)):
        for j in range(len(recommended)):
            yield {**case, "all_recommended": lists[:i] + [_without(recommended, j)] + lists[i + 1:]}
        for item in sorted(relevant, key=repr):
            yield {**case, "all_ground_truth": truths[:i] + [relevant - {item}] + truths[i + 1:]}


MAX_STEPS = 30
_PARALLEL = ("user_ids", "y_true", "y_score", "y_prob", "predictions", "actuals")


def prefixes(case: dict) -> list[dict]:
    """The case cut after row 1, 2, ...: the list's first i items (K and the ground truth kept),
    or the first i samples. The metric on each shows where a running total first goes wrong."""
    if "all_recommended" in case:  # the first i users
        lists, truths = case["all_recommended"], case["all_ground_truth"]
        return [{**case, "all_recommended": lists[:i], "all_ground_truth": truths[:i]}
                for i in range(1, min(len(lists), MAX_STEPS) + 1)]
    if "recommended" in case or "relevances" in case:
        name = "recommended" if "recommended" in case else "relevances"
        return [{**case, name: case[name][:i]} for i in range(1, min(len(case[name]), MAX_STEPS) + 1)]
    names = [name for name in _PARALLEL if name in case]
    n = min(len(case[names[0]]), MAX_STEPS)
    return [{**case, **{name: case[name][:i] for name in names}} for i in range(1, n + 1)]
