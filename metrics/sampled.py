r"""Sampled negatives: scoring each user's held-out item against n random items instead of the catalogue.

Krichene and Rendle, "On Sampled Metrics for Item Recommendation" (KDD 2020): HR@K and NDCG@K
computed on 1 true item + n sampled negatives are inflated and can even rank two models in the
opposite order from the full-catalogue metrics.

The simulation needs only the rank of each user's held-out item, never a score matrix:

- A synthetic catalogue of N items; each user has one held-out item. A model places it at
  full rank r = 1 + B, where B ~ Binomial(N - 1, u) counts the other items scored above it and
  u is the share of the catalogue the model puts above it (drawn per user from the model's profile).
- With n negatives sampled uniformly without replacement from the N - 1 other items, the
  number of sampled negatives above the held-out item is hypergeometric: r - 1 of the N - 1
  negatives are above it, so the sampled rank is 1 + Hypergeometric(r - 1, N - r, n). This is
  exactly the rank one would get by scoring the same model on a sampled list.

Two model profiles show the pitfall: **model A** ("hit or miss") puts the held-out item among
the very top items for a share of users and anywhere at all for the rest; **model B** ("always
close") puts it within the top few percent for every user, but rarely in the top 10.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics._validation import check_k


HIT_SHARES = tuple(round(0.05 * i, 2) for i in range(21))
"""The lab's choices of ``a_hit_share``: 0 to 1 in steps of 0.05."""
SPREADS = tuple(round(0.001 * i, 3) for i in range(1, 201))
"""The lab's choices of ``b_spread``: 0.001 to 0.2 in steps of 0.001."""


@dataclass(frozen=True)
class Simulation:
    """Sizes and model profiles of one simulated evaluation (the defaults show a flip)."""

    n_items: int = 10_000
    n_users: int = 2_000
    seed: int = 0
    a_hit_share: float = 0.4
    """Share of users for whom model A puts the held-out item in the top ``a_top_share`` of the catalogue."""
    a_top_share: float = 0.0005
    b_spread: float = 0.02
    """Model B puts every held-out item within the top ``b_spread`` of the catalogue (uniformly)."""
    k: int = 10

    def checked(self) -> Simulation:
        check_k(self.n_items, "n_items")
        check_k(self.n_users, "n_users")
        check_k(self.k, "k")
        if self.n_items < 2:
            raise ValueError(f"n_items must be at least 2 (one held-out item and a negative), got {self.n_items}")
        for name in ("a_hit_share", "a_top_share", "b_spread"):
            value = getattr(self, name)
            if not 0 <= value <= 1:
                raise ValueError(f"{name} must be a share in [0, 1], got {value!r}")
        return self


MODELS = ("A", "B")


def full_ranks(sim: Simulation) -> dict[str, np.ndarray]:
    """Each user's full-catalogue rank (1 = top) of the held-out item under model A and model B.

    Examples
    --------
    >>> ranks = full_ranks(Simulation(n_items=1000, n_users=5))
    >>> sorted(ranks), ranks["A"].shape, bool(ranks["B"].max() <= 1000)
    (['A', 'B'], (5,), True)
    """
    sim = sim.checked()
    rng = np.random.default_rng(sim.seed)
    nails = rng.random(sim.n_users) < sim.a_hit_share
    share_above = {
        "A": np.where(nails, rng.uniform(0, sim.a_top_share, sim.n_users), rng.uniform(0, 1, sim.n_users)),
        "B": rng.uniform(0, sim.b_spread, sim.n_users),
    }
    return {model: 1 + rng.binomial(sim.n_items - 1, share_above[model]) for model in MODELS}


def sampled_ranks(ranks: np.ndarray, n_items: int, n_negatives: int, rng: np.random.Generator) -> np.ndarray:
    """The rank of each held-out item among itself and ``n_negatives`` sampled negatives.

    ``n_negatives`` at or above ``n_items - 1`` samples every negative, so the full rank comes back.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> sampled_ranks(np.array([1, 5, 100]), 100, 99, rng).tolist()
    [1, 5, 100]
    """
    n_negatives = min(check_k(n_negatives, "n_negatives"), n_items - 1)
    above = rng.hypergeometric(ranks - 1, n_items - ranks, n_negatives)
    return 1 + above


def expected_sampled_rank(rank: int, n_items: int, n_negatives: int) -> float:
    """E[sampled rank] = 1 + (rank - 1) n / (N - 1): each of the rank - 1 items above is drawn with
    probability n / (N - 1).

    Examples
    --------
    >>> round(expected_sampled_rank(200, 10_000, 100), 4)
    2.9902
    """
    n_negatives = min(check_k(n_negatives, "n_negatives"), n_items - 1)
    return 1 + (rank - 1) * n_negatives / (n_items - 1)


def hit_rate_and_ndcg(ranks: np.ndarray, k: int) -> dict[str, float]:
    """HR@K and NDCG@K of one held-out item per user, averaged over users.

    With one relevant item IDCG@K = 1, so NDCG@K = 1 / log2(rank + 1) when rank <= K, else 0.

    Examples
    --------
    >>> hit_rate_and_ndcg(np.array([1, 3, 20]), 10)["hit_rate"]
    0.6666666666666666
    """
    ranks = np.asarray(ranks)
    inside = ranks <= k
    return {"hit_rate": float(inside.mean()),
            "ndcg": float(np.where(inside, 1.0 / np.log2(ranks + 1.0), 0.0).mean())}


def compare(sim: Simulation, n_negatives: int) -> pd.DataFrame:
    """HR@K and NDCG@K of both models under full ranking and with ``n_negatives`` sampled negatives.

    Returns one row per (model, evaluation): columns ``model``, ``evaluation`` ("full" or
    "sampled"), ``hit_rate``, ``ndcg``.

    Examples
    --------
    >>> table = compare(Simulation(), 100)
    >>> full = table[table["evaluation"] == "full"].set_index("model")["hit_rate"]
    >>> sampled = table[table["evaluation"] == "sampled"].set_index("model")["hit_rate"]
    >>> bool(full["A"] > full["B"]), bool(sampled["A"] < sampled["B"])  # the order flips
    (True, True)
    """
    sim = sim.checked()
    ranks = full_ranks(sim)
    rng = np.random.default_rng([sim.seed, 1])
    rows = []
    for model in MODELS:
        rows.append({"model": model, "evaluation": "full", **hit_rate_and_ndcg(ranks[model], sim.k)})
        sampled = sampled_ranks(ranks[model], sim.n_items, n_negatives, rng)
        rows.append({"model": model, "evaluation": "sampled", **hit_rate_and_ndcg(sampled, sim.k)})
    return pd.DataFrame(rows)


def winners(table: pd.DataFrame) -> pd.DataFrame:
    """Which model scores higher under each evaluation, from a :func:`compare` table.

    Returns one row per metric (``hit_rate``, ``ndcg``): ``full`` and ``sampled`` ("A", "B" or
    "tie") and ``flips`` (the two differ).

    Examples
    --------
    >>> winners(compare(Simulation(), 100))["flips"].tolist()
    [True, True]
    """
    cell = table.set_index(["model", "evaluation"])
    rows = []
    for metric in ("hit_rate", "ndcg"):
        won = {}
        for evaluation in ("full", "sampled"):
            a, b = cell.loc[("A", evaluation), metric], cell.loc[("B", evaluation), metric]
            won[evaluation] = "A" if a > b else "B" if b > a else "tie"
        rows.append({"metric": metric, **won, "flips": won["full"] != won["sampled"]})
    return pd.DataFrame(rows)


def sweep(sim: Simulation, negatives) -> pd.DataFrame:
    """HR@K and NDCG@K of both models for each number of sampled negatives in ``negatives``.

    One row per (n_negatives, model); the full-catalogue value is the row with n_items - 1.
    Every n uses its own sample of negatives from one seeded generator.

    Examples
    --------
    >>> table = sweep(Simulation(n_items=500, n_users=200), [10, 499])
    >>> table[["n_negatives", "model"]].values.tolist()
    [[10, 'A'], [10, 'B'], [499, 'A'], [499, 'B']]
    """
    sim = sim.checked()
    ranks = full_ranks(sim)
    rng = np.random.default_rng([sim.seed, 2])
    rows = []
    for n in negatives:
        n = min(int(n), sim.n_items - 1)
        for model in MODELS:
            rows.append({"n_negatives": n, "model": model,
                         **hit_rate_and_ndcg(sampled_ranks(ranks[model], sim.n_items, n, rng), sim.k)})
    return pd.DataFrame(rows)


def default_negatives(n_items: int) -> list[int]:
    """Numbers of sampled negatives for a sweep: about 25 steps, log-spaced from 1 to n_items - 1.

    Examples
    --------
    >>> default_negatives(1000)[:5], default_negatives(1000)[-1]
    ([1, 2, 3, 4, 6], 999)
    """
    top = max(1, n_items - 1)
    return sorted({int(round(v)) for v in np.geomspace(1, top, 25)})
