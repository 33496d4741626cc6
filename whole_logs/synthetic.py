"""A synthetic recommendation log: a model of chosen quality recommending to many users.

Used by the "Your data" page (to try the batch engine without a file) and by the benchmark.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from metrics._validation import check_k


def _prime_at_least(n: int) -> int:
    def is_prime(m: int) -> bool:
        return m >= 2 and all(m % d for d in range(2, int(m**0.5) + 1))

    while not is_prime(n):
        n += 1
    return n


def _rounded(values: np.ndarray, decimals: int | None) -> np.ndarray:
    return values if decimals is None else np.round(values, decimals)


def synthetic_log(users: int = 1000, list_length: int = 20, relevant: int = 5, quality: float = 0.5,
                  seed: int = 0, *, max_grade: int = 3, decimals: int | None = 6) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Recommendations (``user, item, score``) and graded ground truth (``user, item, relevance``).

    Each user has ``relevant`` items graded 1..``max_grade`` and ``list_length`` other candidate
    items, all distinct. The model scores every candidate ``4 * quality * grade / max_grade``
    plus standard normal noise and recommends the ``list_length`` best: quality 0 ranks at
    random, quality 1 puts most relevant items, best graded first, at the top. Some relevant
    items are never recommended, as in real logs. Rows come sorted by user, then score
    descending, as a model writes them; ids are integers. Scores are rounded to ``decimals``
    (so a few users get tied scores, as real logs do); None keeps them all distinct.

    Examples
    --------
    >>> recs, truth = synthetic_log(users=3, list_length=4, relevant=2, seed=1)
    >>> len(recs), len(truth), list(recs.columns), list(truth.columns)
    (12, 6, ['user', 'item', 'score'], ['user', 'item', 'relevance'])
    """
    users, list_length, relevant, max_grade = (check_k(v, name) for v, name in (
        (users, "users"), (list_length, "list_length"), (relevant, "relevant"), (max_grade, "max_grade")))
    if not 0 <= quality <= 1:
        raise ValueError(f"quality must be in [0, 1], got {quality!r}")
    rng = np.random.default_rng(seed)
    candidates = list_length + relevant
    catalogue = _prime_at_least(max(10 * candidates, 1000))
    # start + j * step (mod a prime) gives every user `candidates` distinct items without a loop.
    start = rng.integers(0, catalogue, users)
    step = rng.integers(1, catalogue, users)
    slot = (start[:, None] + np.arange(candidates)[None, :] * step[:, None]) % catalogue
    items = rng.permutation(catalogue)[slot] + 1
    grades = np.zeros((users, candidates))
    grades[:, :relevant] = rng.integers(1, max_grade + 1, (users, relevant))
    scores = 4 * quality * grades / max_grade + rng.standard_normal((users, candidates))
    best = np.argsort(-scores, axis=1, kind="stable")[:, :list_length]
    user_ids = np.arange(1, users + 1)
    recommendations = pd.DataFrame({
        "user": np.repeat(user_ids, list_length),
        "item": np.take_along_axis(items, best, axis=1).ravel(),
        "score": _rounded(np.take_along_axis(scores, best, axis=1).ravel(), decimals),
    })
    ground_truth = pd.DataFrame({
        "user": np.repeat(user_ids, relevant),
        "item": items[:, :relevant].ravel(),
        "relevance": grades[:, :relevant].ravel().astype(np.int64),
    })
    return recommendations, ground_truth
