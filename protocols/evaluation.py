r"""Scoring a trained model under a protocol: the full catalogue, or each held-out item against N sampled
negatives, with the exact expectation of the sampled metric and Krichene and Rendle's corrected estimate.

Full catalogue
    Every item of the training catalogue is ranked for every test user, the items the user trained on left
    out; ties are broken by item id ascending, as everywhere in the app. The top K go to the app's own
    :func:`whole_logs.batch.evaluate` against the user's held-out items.

Sampled negatives (Krichene and Rendle, KDD 2020)
    Each held-out item is ranked against its own N negatives, drawn from the catalogue items the user never
    interacted with (neither in training nor in the test): ``uniform`` draws them without replacement,
    ``popular`` with replacement in proportion to their training popularity (RecBole's ``uniN`` and
    ``popN``). Its sampled rank is 1 + the number of its negatives ranked above it.

    Given the item's rank r among the M candidates of the full ranking (the user's unseen items: r - 1 of
    them above it), the sampled rank is exactly distributed: 1 + Hypergeometric(M - 1, r - 1, N) for
    uniform, 1 + Binomial(N, w_above / w_all) for popular, so the expected sampled HR@K and NDCG@K of every
    held-out item are exact sums, not simulations.

    The corrected estimate replaces the metric on sampled ranks with the values m(1..N+1) that minimise
    Krichene and Rendle's bias-variance objective over full ranks r = 1..M taken as equally likely:
    :math:`\sum_r (E[m(\tilde r)\mid r] - \mathrm{metric}(r))^2 + \gamma\,\mathrm{Var}[m(\tilde r)\mid r]`,
    with gamma = 0.1, solved in closed form for each catalogue size (users are grouped into at most
    eight sizes, the median of each group standing for it; uniform sampling only).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import special, stats

from whole_logs import batch
from metrics.errors import DataError

CHUNK = 1024  # users ranked at a time: bounds the dense score block at 1024 x items floats
GAMMA = 0.1
SIZE_GROUPS = 8


@dataclass(frozen=True)
class Encoded:
    """A split's ids as codes: the catalogue is the training items, the users the training users."""

    train_users: np.ndarray
    train_items: np.ndarray
    users: pd.Index
    items: pd.Index
    test: pd.DataFrame

    @classmethod
    def of(cls, train: pd.DataFrame, test: pd.DataFrame) -> "Encoded":
        users = pd.Index(pd.unique(train["user"]))
        items = pd.Index(np.sort(pd.unique(train["item"])))
        return cls(users.get_indexer(train["user"]), items.get_indexer(train["item"]), users, items,
                   test.assign(user_code=users.get_indexer(test["user"]), item_code=items.get_indexer(test["item"])))

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.users), len(self.items)


def _seen(encoded: Encoded):
    from protocols.models import interaction_matrix

    return interaction_matrix(encoded.train_users, encoded.train_items, *encoded.shape)


def _top_positions(scores: np.ndarray, k: int) -> np.ndarray:
    """Each row's ``k`` highest scores' columns, best first, equal scores by column ascending: exactly the first
    ``k`` of a stable sort of ``-scores``, without sorting whole rows (a partition, then a sort of ``k``)."""
    k = min(k, scores.shape[1])
    top = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    kth = np.take_along_axis(scores, top, axis=1).min(axis=1, keepdims=True)
    # A row whose k-th value is shared by columns left outside the partition is ambiguous there: sort it whole.
    ambiguous = (scores >= kth).sum(axis=1) > k
    values = np.take_along_axis(scores, top, axis=1)
    order = np.lexsort((top, -values), axis=1)
    top = np.take_along_axis(top, order, axis=1)
    if ambiguous.any():
        top[ambiguous] = np.argsort(-scores[ambiguous], axis=1, kind="stable")[:, :k]
    return top


def top_k(model, encoded: Encoded, k: int) -> pd.DataFrame:
    """Each test user's top ``k`` catalogue items the user did not train on: columns user, item, rank."""
    seen = _seen(encoded)
    test_users = np.unique(encoded.test["user_code"].to_numpy())
    parts = []
    for users, scores in _score_blocks(model, test_users):
        block = seen[users].tocoo()
        scores[block.row, block.col] = -np.inf
        order = _top_positions(scores, k)
        kept = np.isfinite(np.take_along_axis(scores, order, axis=1))
        rows = np.repeat(users, order.shape[1]).reshape(order.shape)
        ranks = np.broadcast_to(np.arange(1, order.shape[1] + 1), order.shape)
        parts.append(pd.DataFrame({"user": encoded.users[rows[kept]], "item": encoded.items[order[kept]],
                                   "rank": ranks[kept]}))
    return pd.concat(parts, ignore_index=True)


def full_catalogue(model, encoded: Encoded, k: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The app's per-user metrics at ``k`` on the full catalogue, and the recommendations they came from."""
    recommendations = top_k(model, encoded, k)
    truth = encoded.test[["user", "item"]].drop_duplicates()
    return batch.evaluate(recommendations, truth, k), recommendations


# ---------------------------------------------------------------- sampled negatives


def _log_choose(n, k):
    return special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1)


def hypergeom_pmf(population, successes, draws, j) -> np.ndarray:
    """P(j of ``draws`` drawn without replacement from ``population`` are among its ``successes``), broadcast;
    scipy's ``hypergeom.pmf`` gives the same numbers (the tests check it) about a hundred times slower."""
    population, successes, draws, j = np.broadcast_arrays(*(np.asarray(a, dtype=np.float64)
                                                          for a in (population, successes, draws, j)))
    possible = (j >= 0) & (j <= successes) & (draws - j >= 0) & (draws - j <= population - successes)
    safe = np.where(possible, j, 0.0)
    failures = np.where(possible, population - successes, draws)
    log_p = (_log_choose(np.where(possible, successes, 0.0), safe) + _log_choose(failures, draws - safe)
             - _log_choose(population, draws))
    return np.where(possible, np.exp(log_p), 0.0)


def _ndcg_of_rank(rank, k: int):
    rank = np.asarray(rank, dtype=float)
    return np.where(rank <= k, 1.0 / np.log2(rank + 1.0), 0.0)


def _per_user_mean(pairs: pd.DataFrame, column: str) -> float:
    return float(pairs.groupby("user", sort=False)[column].mean().mean())


def allowed_negatives(encoded: Encoded) -> np.ndarray:
    """users x items: True where the item may be drawn as the user's negative (in the catalogue, and neither
    in the user's training nor in their test rows). Made once per protocol and shared by every model."""
    allowed = np.ones(encoded.shape, dtype=bool)
    allowed[encoded.train_users, encoded.train_items] = False
    test = encoded.test[encoded.test["item_code"] >= 0]
    allowed[test["user_code"].to_numpy(), test["item_code"].to_numpy()] = False
    return allowed


def _held_out(encoded: Encoded) -> pd.DataFrame:
    return encoded.test[encoded.test["item_code"] >= 0]


def sample_negatives(encoded: Encoded, allowed: np.ndarray, n: int, how: str, seed: int,
                     popularity: np.ndarray) -> dict:
    """Each held-out (user, item) pair's N negatives, as a dict of pair index -> item codes; drawn once per
    protocol so every model is scored on the same candidates."""
    if how not in ("uniform", "popular"):
        raise DataError("unknown_sampling", f"unknown sampling {how!r}; choose uniform or popular", name=how)
    rng = np.random.default_rng(seed)
    drawn = {}
    test = _held_out(encoded)
    for index, user in zip(test.index, test["user_code"].to_numpy()):
        pool = np.flatnonzero(allowed[user])
        if how == "uniform":
            drawn[index] = rng.choice(pool, size=min(n, len(pool)), replace=False)
        else:
            weights = popularity[pool] + 1.0  # +1: an item nobody trained on can still be drawn
            drawn[index] = rng.choice(pool, size=n, replace=True, p=weights / weights.sum())
    return drawn


def _above(scores: np.ndarray, target: int, candidates: np.ndarray) -> np.ndarray:
    """Which candidates rank above the target: a higher score, or an equal score and a smaller item id."""
    return (scores[candidates] > scores[target]) | ((scores[candidates] == scores[target]) & (candidates < target))


def _score_blocks(model, users: np.ndarray):
    """(users of the block, their scores), CHUNK users at a time."""
    for start in range(0, len(users), CHUNK):
        block = users[start:start + CHUNK]
        yield block, np.asarray(model.scores(block), dtype=np.float64)


def sampled_ranks(model, encoded: Encoded, allowed: np.ndarray, negatives: dict, how: str,
                  popularity: np.ndarray) -> pd.DataFrame:
    """Per held-out pair: full rank among the user's unseen items, their number plus one (M), the share of
    their popularity weight above it (``popular``), and the rank among its sampled negatives."""
    test = _held_out(encoded)
    pairs_of = {user: (group.index.to_numpy(), group["item_code"].to_numpy())
                for user, group in test.groupby("user_code", sort=True)}
    rows = []
    for users, block in _score_blocks(model, np.fromiter(pairs_of, dtype=np.int64)):
        for user, scores in zip(users, block):
            pool = np.flatnonzero(allowed[user])
            indices, items = pairs_of[user]
            above = _above(scores, items[:, None], pool[None, :])  # held-out items x pool
            if how == "popular":
                weights = popularity[pool] + 1.0
                shares = above @ weights / weights.sum()
            else:
                shares = np.full(len(items), np.nan)
            for row, (index, item) in enumerate(zip(indices, items)):
                sampled = 1 + int(_above(scores, item, negatives[index]).sum())
                rows.append((encoded.users[user], encoded.items[item], 1 + int(above[row].sum()), len(pool) + 1,
                             shares[row], sampled, len(negatives[index])))
    return pd.DataFrame(rows, columns=["user", "item", "full_rank", "candidates", "share_above", "sampled_rank",
                                       "negatives"])


def expected_metrics(pairs: pd.DataFrame, k: int, how: str) -> pd.DataFrame:
    """The exact expectation of each pair's sampled HR@K and NDCG@K given its full rank."""
    j = np.arange(k)  # sampled rank - 1 within the top K
    if how == "uniform":
        pmf = hypergeom_pmf(pairs["candidates"].to_numpy()[:, None] - 1, pairs["full_rank"].to_numpy()[:, None] - 1,
                            pairs["negatives"].to_numpy()[:, None], j[None, :])
    else:
        pmf = stats.binom(pairs["negatives"].to_numpy()[:, None], pairs["share_above"].to_numpy()[:, None]).pmf(j[None, :])
    return pd.DataFrame({"hit_rate": pmf.sum(axis=1), "ndcg": pmf @ (1.0 / np.log2(j + 2.0))}, index=pairs.index)


def expected_mean(pairs: pd.DataFrame, k: int, n: int, metric: str = "hit_rate") -> float:
    """The exact expected sampled ``metric`` at K (``hit_rate`` or ``ndcg``) with ``n`` uniform negatives per
    held-out item (all of a user's unseen items if fewer), averaged as the table averages: per user, then over
    users. Needs only each pair's full rank, so one run gives it for every ``n``."""
    if n < 1:
        raise DataError("bad_candidates", f"the number of sampled negatives must be at least 1, got {n}", value=n)
    drawn = pairs.assign(negatives=np.minimum(n, pairs["candidates"] - 1))
    return _per_user_mean(pairs.assign(value=expected_metrics(drawn, k, "uniform")[metric]), "value")


@lru_cache(maxsize=16)
def _sampling_matrix(size: int, n: int) -> np.ndarray:
    """p(sampled rank - 1 = j | full rank r) for r = 1..size, j = 0..n (uniform, without replacement)."""
    return hypergeom_pmf(size - 1, np.arange(size)[:, None], n, np.arange(n + 1)[None, :])


@lru_cache(maxsize=16)
def _corrector(size: int, n: int, gamma: float = GAMMA) -> tuple[np.ndarray, np.ndarray]:
    """The bias-variance normal equations' matrix and A^T, for ``size`` candidates and n negatives."""
    A = _sampling_matrix(size, n)
    return (1 - gamma) * A.T @ A + gamma * np.diag(A.sum(axis=0)), A.T


def corrected_metric(size: int, n: int, k: int, metric: str, gamma: float = GAMMA) -> np.ndarray:
    """m(sampled rank 1..n+1) minimising the bias-variance objective for ``size`` candidates (uniform)."""
    lhs, At = _corrector(size, n, gamma)
    full = np.arange(1, size + 1)
    target = (full <= k).astype(float) if metric == "hit_rate" else _ndcg_of_rank(full, k)
    return np.linalg.solve(lhs, At @ target)


def corrected_values(pairs: pd.DataFrame, k: int, n: int) -> pd.DataFrame:
    sizes = pairs["candidates"].to_numpy()
    groups = pd.qcut(sizes, q=min(SIZE_GROUPS, len(np.unique(sizes))), labels=False, duplicates="drop")
    out = {"hit_rate": np.empty(len(pairs)), "ndcg": np.empty(len(pairs))}
    for group in np.unique(groups):
        members = groups == group
        # a round median: neighbouring protocols and models share the cached matrices
        size = int(np.median(sizes[members]))
        for metric in out:
            values = corrected_metric(size, min(n, size - 1), k, metric)
            out[metric][members] = values[np.minimum(pairs["sampled_rank"].to_numpy()[members] - 1, len(values) - 1)]
    return pd.DataFrame(out, index=pairs.index)


def sampled_per_user(pairs: pd.DataFrame, k: int, n: int, how: str) -> pd.DataFrame:
    """Each user's full (one held-out item at a time), sampled, expected and (uniform) corrected HR@K and
    NDCG@K: the mean over the user's held-out pairs, indexed by user. ``expected_*`` is the exact expectation
    of the sampled metric over the draws of the negatives given the pair's full rank (:func:`expected_metrics`),
    ``corrected_*`` Krichene and Rendle's estimate of the full metric from the sampled rank."""
    table = pairs.assign(full_hit_rate=(pairs["full_rank"] <= k).astype(float),
                         full_ndcg=_ndcg_of_rank(pairs["full_rank"], k),
                         sampled_hit_rate=(pairs["sampled_rank"] <= k).astype(float),
                         sampled_ndcg=_ndcg_of_rank(pairs["sampled_rank"], k))
    expected = expected_metrics(pairs, k, how)
    table["expected_hit_rate"], table["expected_ndcg"] = expected["hit_rate"], expected["ndcg"]
    if how == "uniform":
        corrected = corrected_values(pairs, k, n)
        table["corrected_hit_rate"], table["corrected_ndcg"] = corrected["hit_rate"], corrected["ndcg"]
    columns = [c for c in table.columns if c.startswith(("full_", "sampled_", "expected_", "corrected_"))
               and not c.endswith("_rank")]
    return table.groupby("user", sort=False)[columns].mean()


def sampled_summary(pairs: pd.DataFrame, k: int, n: int, how: str) -> pd.Series:
    """Full (one held-out item at a time), sampled, expected and (uniform) corrected HR@K and NDCG@K, averaged
    per user, then over users (:func:`sampled_per_user`)."""
    return sampled_per_user(pairs, k, n, how).mean()
