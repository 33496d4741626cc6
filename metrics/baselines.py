r"""How a random ranker and a perfect ranker score: the yardsticks a single number needs.

A ranking of the *candidates* C (the N items to be ranked) is scored against a ground truth;
``Rel`` is the set of items with a grade > 0, relevant candidates or not, and m = |Rel ∩ C|.
Relevant items that are not candidates count exactly as in the per-list metrics: they cap
Recall (they stay in its denominator), enter the ideal DCG, and enter AP's ``min``/``relevant``
denominators. L = min(K, N) is the number of slots of the top K that a candidate can fill.

:func:`random_expectation` gives the exact mean over all N! orderings (closed forms, derived in
its docstring), :func:`random_distribution` samples orderings (vectorised), :func:`percentile`
places a score among them, and :func:`perfect_scores` / :func:`chance_corrected` give the
other end of the scale.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from metrics import ndcg, ranked_metrics, topn_metrics
from metrics._validation import check_choice, check_grades, check_k, check_ranking

KEYS = ("precision_at_k", "recall_at_k", "hit_rate_at_k", "average_precision_at_k", "reciprocal_rank", "ndcg_at_k")
"""The metrics scored here, in this order, with the names of their functions in ``metrics``."""


def metric_values(recommended, ground_truth, k, *, gain="linear", denominator="min") -> dict[str, float]:
    """Every metric of :data:`KEYS` for one ranked list, from the per-list functions of ``metrics``.

    ``ndcg_at_k`` is graded when ``ground_truth`` is a dict of grades, binary when it is a set.

    Examples
    --------
    >>> v = metric_values([101, 102, 103, 104], {101, 104}, 4)
    >>> v["precision_at_k"], v["average_precision_at_k"], v["reciprocal_rank"]
    (0.5, 0.75, 1.0)
    """
    return {
        "precision_at_k": topn_metrics.precision_at_k(recommended, ground_truth, k),
        "recall_at_k": topn_metrics.recall_at_k(recommended, ground_truth, k),
        "hit_rate_at_k": topn_metrics.hit_rate_at_k(recommended, ground_truth, k),
        "average_precision_at_k": ranked_metrics.average_precision_at_k(
            recommended, ground_truth, k, denominator=denominator),
        "reciprocal_rank": ranked_metrics.reciprocal_rank(recommended, ground_truth),
        "ndcg_at_k": ndcg.ndcg_at_k(recommended, ground_truth, k, gain=gain),
    }


def _setup(candidates, ground_truth, k, gain, denominator):
    """Checked inputs: candidates, grades, k, L, the relevance mask, gains, |Rel| and IDCG@K."""
    k = check_k(k)
    check_choice(denominator, "denominator", ranked_metrics.AP_DENOMINATORS)
    items = check_ranking(candidates, "candidates")
    grades = check_grades(ground_truth)
    relevant = np.array([grades.get(i, 0.0) > 0 for i in items], dtype=bool)
    gains = ndcg.gain_of([grades.get(i, 0.0) for i in items], gain)
    n_relevant = sum(1 for g in grades.values() if g > 0)
    idcg = ndcg.dcg_at_k(sorted(grades.values(), reverse=True), k, gain=gain)
    return items, k, min(k, len(items)), relevant, gains, n_relevant, idcg


def relevant_candidates(candidates, ground_truth) -> int:
    """m = |Rel ∩ C|: how many candidates have a grade > 0.

    Examples
    --------
    >>> relevant_candidates(["a", "b", "c"], {"a": 1, "c": 0, "z": 2})
    1
    """
    grades = check_grades(ground_truth)
    return sum(1 for item in check_ranking(candidates, "candidates") if grades.get(item, 0.0) > 0)


def _hypergeometric(h: int, m: int, n: int, draws: int) -> float:
    """P(h relevant among ``draws`` slots) when m of n items are relevant; exact big-int ratio."""
    return math.comb(m, h) * math.comb(n - m, draws - h) / math.comb(n, draws)


def random_expectation(candidates, ground_truth, k, *, gain="linear", denominator="min") -> dict[str, float]:
    r"""The exact expected value of each metric when the candidates are put in a uniformly random order.

    Parameters
    ----------
    candidates : sequence of hashable
        The N items to be ranked, no repeated item (their order does not matter).
    ground_truth : set or dict
        Relevant items, or ``{item: grade}`` (grade > 0 is relevant); items outside the
        candidates count as they do in the per-list metrics.
    k : int
        Cut-off, a positive integer (it may exceed N).
    gain : {"linear", "exponential"}, keyword-only
        NDCG gain, as :func:`metrics.ndcg.ndcg_at_k`.
    denominator : {"min", "relevant", "hits"}, keyword-only
        AP@K denominator, as :func:`metrics.ranked_metrics.average_precision_at_k`.

    Returns
    -------
    dict
        One value per key of :data:`KEYS`.

    Notes
    -----
    Let H be the number of hits in the top K, L = min(K, N), R = |Rel| and m = |Rel ∩ C|. In a
    uniformly random order each slot holds a given candidate with probability 1/N, so
    P(slot i holds a relevant item) = m/N, and two distinct slots both hold one with probability
    m(m-1) / (N(N-1)).

    - **P@K** = H/K with E[H] = L m/N (linearity over the L slots), so E[P@K] = m L / (N K).
    - **R@K** = H/R, so E[R@K] = m L / (N R) (0 when R = 0).
    - **HR@K** = 1[H > 0]; H is hypergeometric (L draws from N items, m of them relevant), so
      E[HR@K] = 1 - C(N-m, L) / C(N, L).
    - **AP@K** with a fixed denominator D (``min``: min(R, K); ``relevant``: R) is
      (1/D) Σ_{i<=L} rel_i · hits_i / i, where hits_i = Σ_{j<=i} rel_j. By linearity
      E[rel_i hits_i] = E[rel_i] + Σ_{j<i} E[rel_i rel_j] = m/N + (i-1) m(m-1)/(N(N-1)), so
      E[AP@K] = (1/D) Σ_{i=1}^{L} [m/N + (i-1) m(m-1)/(N(N-1))] / i.
    - **AP@K** with ``denominator="hits"`` divides by H itself, so linearity does not apply.
      Conditioned on H = h, the h hits occupy a uniformly random h-subset of the L slots: slot i
      is a hit with probability h/L and, given that, holds 1 + (h-1)(i-1)/(L-1) hits so far in
      expectation (the other h-1 hits spread over the other L-1 slots). Hence
      E[AP@K] = Σ_{h=1}^{min(m,L)} P(H=h) · (1/h) · (h/L) Σ_{i=1}^{L} [1 + (h-1)(i-1)/(L-1)] / i,
      an exact finite sum over the number of hits (the term with L = 1 has h = 1 and no (L-1)).
    - **RR** has no cut-off: the first relevant rank F takes value r when the r-1 items above it
      are non-relevant, P(F = r) = C(N-r, m-1) / C(N, m) for r = 1..N-m+1, and
      E[RR] = Σ_r P(F = r) / r (0 when m = 0).
    - **NDCG@K** = DCG@K / IDCG@K with IDCG from the whole ground truth (fixed). Slot i holds
      each candidate with probability 1/N, so E[gain at slot i] = ḡ, the mean gain of the
      candidates (0 for candidates without a grade), and E[NDCG@K] = ḡ Σ_{i=1}^{L} 1/log2(i+1) / IDCG@K
      (0 when IDCG = 0).

    Examples
    --------
    >>> e = random_expectation([1, 2, 3, 4], {1, 9}, k=2)
    >>> e["precision_at_k"], e["recall_at_k"], e["hit_rate_at_k"]
    (0.25, 0.25, 0.5)
    >>> round(e["reciprocal_rank"], 6)  # (1 + 1/2 + 1/3 + 1/4) / 4
    0.520833
    """
    items, k, L, relevant, gains, n_rel, idcg = _setup(candidates, ground_truth, k, gain, denominator)
    n, m = len(items), int(relevant.sum())
    if n == 0 or m == 0:
        # No relevant candidate: every ordering scores 0 on every metric.
        return dict.fromkeys(KEYS, 0.0)
    ranks = np.arange(1, L + 1)
    pair = m * (m - 1) / (n * (n - 1)) if n > 1 else 0.0
    if denominator == "hits":
        per_h = [
            _hypergeometric(h, m, n, L) / L
            * float(np.sum((1 + ((h - 1) * (ranks - 1) / (L - 1) if L > 1 else 0.0)) / ranks))
            for h in range(1, min(m, L) + 1)
        ]
        ap = math.fsum(per_h)
    else:
        d = ranked_metrics.ap_denominator(n_rel, k, 0, denominator)
        ap = float(np.sum((m / n + (ranks - 1) * pair) / ranks)) / d if d else 0.0
    first = np.arange(1, n - m + 2)
    rr = math.fsum(math.comb(n - r, m - 1) / math.comb(n, m) / r for r in first.tolist())
    return {
        "precision_at_k": m * L / (n * k),
        "recall_at_k": m * L / (n * n_rel) if n_rel else 0.0,
        "hit_rate_at_k": 1.0 - math.comb(n - m, L) / math.comb(n, L),
        "average_precision_at_k": ap,
        "reciprocal_rank": rr,
        "ndcg_at_k": float(gains.mean() * ndcg.discounts(L).sum() / idcg) if idcg > 0 else 0.0,
    }


def _permutations(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """``rows`` independent uniform permutations of 0..n-1, one per row."""
    return rng.permuted(np.broadcast_to(np.arange(n), (rows, n)), axis=1)


def random_distribution(candidates, ground_truth, k, *, n=10_000, seed=0, gain="linear",
                        denominator="min") -> pd.DataFrame:
    """Each metric of :data:`KEYS` for ``n`` uniformly random orderings of the candidates.

    Vectorised: the orderings are drawn as a matrix of permutations (in blocks of about two
    million cells, so memory stays bounded) and every metric is a row-wise array operation.

    Parameters
    ----------
    candidates, ground_truth, k, gain, denominator
        As in :func:`random_expectation`.
    n : int, keyword-only
        Number of random orderings.
    seed : int or None, keyword-only
        Seed of ``numpy.random.default_rng``; the same seed gives the same table.

    Returns
    -------
    pandas.DataFrame
        One row per ordering, one column per key of :data:`KEYS`.

    Examples
    --------
    >>> table = random_distribution([1, 2, 3, 4], {1}, 1, n=4000, seed=1)
    >>> list(table.columns) == list(KEYS), len(table)
    (True, 4000)
    >>> bool(abs(table["precision_at_k"].mean() - 0.25) < 0.03)
    True
    """
    n = check_k(n, "n")
    items, k, L, relevant, gains, n_rel, idcg = _setup(candidates, ground_truth, k, gain, denominator)
    size = len(items)
    if size == 0:
        return pd.DataFrame(0.0, index=range(n), columns=list(KEYS))
    rng = np.random.default_rng(seed)
    ranks = np.arange(1, L + 1)
    discount = ndcg.discounts(L)
    block = max(1, 2_000_000 // size)
    parts = []
    for start in range(0, n, block):
        order = _permutations(rng, min(block, n - start), size)
        hit = relevant[order]
        top = hit[:, :L]
        hits = top.sum(axis=1)
        precision_sum = (np.cumsum(top, axis=1) / ranks * top).sum(axis=1)
        if denominator == "hits":
            divide_by = hits
        else:
            divide_by = np.full(hits.shape, ranked_metrics.ap_denominator(n_rel, k, 0, denominator))
        first = hit.argmax(axis=1)
        parts.append(np.column_stack([
            hits / k,
            hits / n_rel if n_rel else np.zeros(hits.shape),
            (hits > 0).astype(float),
            np.divide(precision_sum, divide_by, out=np.zeros(hits.shape), where=divide_by > 0),
            np.where(hit.any(axis=1), 1.0 / (first + 1), 0.0),
            gains[order[:, :L]] @ discount / idcg if idcg > 0 else np.zeros(hits.shape),
        ]))
    return pd.DataFrame(np.vstack(parts), columns=list(KEYS))


def percentile(value: float, samples) -> float:
    """The share of ``samples`` that ``value`` beats, ties counted half, in [0, 1].

    Two numbers within 1e-12 count as a tie, so a value computed by the per-list functions ties
    with the same value computed in a different order of floating-point operations.

    Examples
    --------
    >>> percentile(0.5, [0.0, 0.5, 1.0, 0.25])
    0.625
    """
    samples = np.asarray(samples, dtype=float)
    if samples.size == 0:
        raise ValueError("samples is empty: there is nothing to compare the value with")
    tied = np.abs(samples - value) <= 1e-12
    return float((np.count_nonzero((samples < value) & ~tied) + 0.5 * np.count_nonzero(tied)) / samples.size)


def perfect_order(candidates, ground_truth) -> list:
    """The candidates sorted by grade, best first (ties keep the given order): the ideal ranking.

    Examples
    --------
    >>> perfect_order(["a", "b", "c"], {"c": 2, "b": 1})
    ['c', 'b', 'a']
    """
    items = check_ranking(candidates, "candidates")
    grades = check_grades(ground_truth)
    return sorted(items, key=lambda item: -grades.get(item, 0.0))


def perfect_scores(candidates, ground_truth, k, *, gain="linear", denominator="min") -> dict[str, float]:
    """Every metric of :data:`KEYS` for :func:`perfect_order`: the best any ordering of the candidates scores.

    Examples
    --------
    >>> perfect_scores([1, 2, 3], {3, 999}, 2)["recall_at_k"]  # 999 was never a candidate
    0.5
    """
    return metric_values(perfect_order(candidates, ground_truth), ground_truth, k, gain=gain, denominator=denominator)


def chance_corrected(value: float, expected: float, perfect: float) -> float:
    r"""(value - E[random]) / (perfect - E[random]): 0 at chance, 1 at the best ordering.

    NaN when the perfect ordering scores no better than chance (every ordering then scores
    alike, so there is nothing to correct).

    Examples
    --------
    >>> chance_corrected(0.5, 0.25, 0.75)
    0.5
    """
    spread = perfect - expected
    return (value - expected) / spread if spread > 1e-12 else float("nan")


def baseline_table(recommended, ground_truth, k, samples: pd.DataFrame, *, gain="linear", denominator="min") -> pd.DataFrame:
    """For one ranked list: its score, E[random], the perfect score, the share of ``samples`` (random
    orderings of the same items, from :func:`random_distribution`) it beats and the chance-corrected
    score, one row per key of :data:`KEYS`.

    The candidates are the recommended items themselves, reordered.

    Examples
    --------
    >>> samples = random_distribution([101, 102, 103, 104], {101}, 2, n=200)
    >>> t = baseline_table([101, 102, 103, 104], {101}, 2, samples)
    >>> row = t.set_index("metric").loc["precision_at_k"]
    >>> row[["value", "expected", "perfect", "chance_corrected"]].tolist()  # half the orderings hit
    [0.5, 0.25, 0.5, 1.0]
    >>> bool(0.7 < row["beats"] < 0.8)  # ties (the other hits) count half: about 0.5 * 1 + 0.5 * 0.5
    True
    """
    value = metric_values(recommended, ground_truth, k, gain=gain, denominator=denominator)
    expected = random_expectation(recommended, ground_truth, k, gain=gain, denominator=denominator)
    perfect = perfect_scores(recommended, ground_truth, k, gain=gain, denominator=denominator)
    return pd.DataFrame([
        {"metric": key, "value": value[key], "expected": expected[key], "perfect": perfect[key],
         "beats": percentile(value[key], samples[key]),
         "chance_corrected": chance_corrected(value[key], expected[key], perfect[key])}
        for key in KEYS
    ])
