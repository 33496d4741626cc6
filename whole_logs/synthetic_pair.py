"""Two synthetic models of one population of users, with a chosen true difference in NDCG@K.

Used by the "Compare two models" page so a learner can watch a real difference hide in noise:
the *population* (by default 20,000 users) has a known mean difference between the models; an
experiment sees only the first n users of it (a random sample, since users are drawn at random).

Users are drawn in blocks of :data:`BLOCK`, each block from its own random stream, so the first n
users are the same whether the whole population is built or only the blocks they fall in
(:func:`experiment`): the page's first answer builds one block of twenty.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from whole_logs import batch
from metrics._validation import check_k

# Model B's quality found by bisection for the Compare page's settings (20,000 users, seed 0, each
# true difference it offers), with the population's true difference it gives: the bisection is 14
# evaluations of 400,000 rows, most of a cold first answer. Rebuilt by ``python -m whole_logs.synthetic_pair``; a test checks it equals the bisection.
TUNED_PATH = Path(__file__).with_name("synthetic_pair_tuned.json")
TUNED_DELTAS = (-0.02, -0.01, 0.0, 0.005, 0.01, 0.02, 0.03, 0.05)

GENRES = 8  # each catalogue item gets one, at random, so intra-list diversity has something to measure
BLOCK = 1000  # users per random stream


@dataclass(frozen=True)
class ModelPair:
    """Both models' logs and the shared ground truth of a population, and its true difference."""

    recommendations_a: pd.DataFrame
    recommendations_b: pd.DataFrame
    ground_truth: pd.DataFrame
    quality_a: float
    quality_b: float
    true_delta: float  # mean NDCG@K of B minus A over the whole population
    categories: pd.Series  # item -> genre, for intra-list diversity

    def sample(self, users: int) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
        """The logs and ground truth of the first ``users`` users (users are in random order)."""
        keep = np.arange(1, users + 1)
        return tuple(table[table["user"].isin(keep)].reset_index(drop=True)
                     for table in (self.recommendations_a, self.recommendations_b, self.ground_truth))


def _catalogue(list_length: int, relevant: int) -> int:
    return 20 * (list_length + relevant)


def _population(users: int, list_length: int, relevant: int, seed: int):
    """Candidate items, their grades (0 for non-relevant) and two noise draws per user (shared and
    own): the first ``users`` users, block by block."""
    blocks = [_block(users_in, list_length, relevant, [seed, b])
              for b, users_in in enumerate(min(BLOCK, users - start) for start in range(0, users, BLOCK))]
    items, grades, shared = (np.concatenate([block[i] for block in blocks]) for i in range(3))
    return items, grades, shared, np.concatenate([block[3] for block in blocks], axis=1)


def _block(users: int, list_length: int, relevant: int, seed: list[int]):
    """One block's users (the first ``users`` of it: a block is always drawn whole)."""
    rng = np.random.default_rng(seed)
    catalogue = _catalogue(list_length, relevant)
    candidates = list_length + relevant
    # Candidates are drawn with a popularity skew (a few items are everybody's candidates), so
    # the beyond-accuracy metrics have something to show.
    popularity = 1 / np.arange(1, catalogue + 1) ** 0.8
    keys = rng.random((BLOCK, catalogue))[:users] ** (1 / popularity)  # weighted sampling without replacement
    items = np.argpartition(-keys, candidates, axis=1)[:, :candidates] + 1
    # A relevant item's chance of being one of the first `relevant` candidates does not depend on
    # popularity here; grades 1..3.
    grades = np.zeros((users, candidates))
    counts = rng.integers(1, relevant + 1, BLOCK)[:users]  # users differ in how many items are relevant
    grades[np.arange(candidates)[None, :] < counts[:, None]] = 1
    grades *= rng.integers(1, 4, (BLOCK, candidates))[:users]
    shared = rng.standard_normal((BLOCK, candidates))[:users]
    own = rng.standard_normal((2, BLOCK, candidates))[:, :users]
    return items, grades, shared, own


def _log(items, grades, noise, quality: float, list_length: int) -> pd.DataFrame:
    scores = quality * grades + noise
    best = np.argsort(-scores, axis=1, kind="stable")[:, :list_length]
    users = items.shape[0]
    return pd.DataFrame({
        "user": np.repeat(np.arange(1, users + 1), list_length),
        "item": np.take_along_axis(items, best, axis=1).ravel(),
        "score": np.take_along_axis(scores, best, axis=1).ravel(),
    })


def _tuned_key(true_delta, users, list_length, relevant, quality_a, k, correlation, seed) -> str:
    return json.dumps([float(true_delta), users, list_length, relevant, float(quality_a), k, float(correlation), seed])


def tuned_qualities() -> dict[str, dict[str, float]]:
    """The shipped bisection results (model B's quality and the population's true difference), by the
    settings they were tuned for."""
    return json.loads(TUNED_PATH.read_text()) if TUNED_PATH.exists() else {}


def _check(users, list_length, relevant, quality_a, k, correlation) -> tuple[int, int, int, int]:
    checked = tuple(check_k(v, name) for v, name in (
        (users, "users"), (list_length, "list_length"), (relevant, "relevant"), (k, "k")))
    if not 0 <= quality_a <= 3:
        raise ValueError(f"quality_a must be in [0, 3], got {quality_a!r}")
    if not 0 <= correlation <= 1:
        raise ValueError(f"correlation must be in [0, 1], got {correlation!r}")
    return checked


def _users(users: int, list_length: int, relevant: int, correlation: float, seed: int):
    """The first ``users`` users: candidates, grades, both models' noises, and the ground truth."""
    items, grades, shared, own = _population(users, list_length, relevant, seed)
    noise_a = np.sqrt(correlation) * shared + np.sqrt(1 - correlation) * own[0]
    noise_b = np.sqrt(correlation) * shared + np.sqrt(1 - correlation) * own[1]
    truth = pd.DataFrame({"user": np.repeat(np.arange(1, users + 1), grades.shape[1]),
                          "item": items.ravel(), "relevance": grades.ravel()})
    return items, grades, noise_a, noise_b, truth[truth["relevance"] > 0].reset_index(drop=True)


def _categories(list_length: int, relevant: int, seed: int) -> pd.Series:
    catalogue = _catalogue(list_length, relevant)
    genres = np.random.default_rng([seed, 1]).integers(1, GENRES + 1, catalogue)
    return pd.Series([f"genre {g}" for g in genres], index=pd.RangeIndex(1, catalogue + 1, name="item"),
                     name="category")


def synthetic_pair(true_delta: float = 0.01, *, users: int = 20_000, list_length: int = 20, relevant: int = 5,
                   quality_a: float = 0.5, k: int = 10, correlation: float = 0.7, seed: int = 0,
                   use_tuned: bool = True) -> ModelPair:
    """A population of ``users`` users, model A of quality ``quality_a`` and model B tuned so that
    the population's mean NDCG@K of B minus A equals ``true_delta`` (to 1e-4).

    Each user has ``list_length + relevant`` candidate items of which 1..``relevant`` are relevant
    (grades 1-3). A model scores a candidate ``quality * grade`` plus standard normal noise (quality 0: random
    order; 3: nearly perfect) and recommends the
    ``list_length`` best. The two models' noises share a part (``correlation``), as two real
    models share what makes a user easy or hard, which is what makes paired tests powerful.
    Model B's quality is found by bisection on the population, or read from the shipped table of
    earlier bisections for these settings (``use_tuned``): the same pair either way.

    >>> pair = synthetic_pair(0.02, users=2000, seed=1)
    >>> round(pair.true_delta, 3)
    0.02
    """
    users, list_length, relevant, k = _check(users, list_length, relevant, quality_a, k, correlation)
    items, grades, noise_a, noise_b, truth = _users(users, list_length, relevant, correlation, seed)
    recs_a = _log(items, grades, noise_a, quality_a, list_length)
    mean_a = batch.evaluate(recs_a, truth, k, metrics=["ndcg"])[f"ndcg@{k}"].mean()

    def mean_b(quality: float) -> tuple[float, pd.DataFrame]:
        recs = _log(items, grades, noise_b, quality, list_length)
        return batch.evaluate(recs, truth, k, metrics=["ndcg"])[f"ndcg@{k}"].mean(), recs

    tuned = tuned_qualities().get(_tuned_key(true_delta, users, list_length, relevant, quality_a, k, correlation,
                                             seed)) if use_tuned else None
    if tuned is not None:
        middle = tuned["quality_b"]
        value, recs_b = mean_b(middle)
    else:
        middle, value, recs_b = _bisect(mean_b, mean_a, true_delta, quality_a)
    return ModelPair(recs_a, recs_b, truth, quality_a, middle, float(value - mean_a),
                     _categories(list_length, relevant, seed))


def experiment(true_delta: float, sample: int, *, users: int = 20_000, list_length: int = 20, relevant: int = 5,
               quality_a: float = 0.5, k: int = 10, correlation: float = 0.7, seed: int = 0) -> ModelPair:
    """The first ``sample`` users of :func:`synthetic_pair`'s population (its ``true_delta`` is the
    whole population's), built from the blocks they fall in when the settings are in the shipped
    table, so an experiment on 1,000 users costs one block instead of twenty.

    >>> small = experiment(0.01, 300)
    >>> whole = synthetic_pair(0.01)
    >>> small.true_delta == whole.true_delta and small.recommendations_b.equals(whole.sample(300)[1])
    True
    """
    sample = min(check_k(sample, "sample"), users)
    tuned = tuned_qualities().get(_tuned_key(true_delta, users, list_length, relevant, quality_a, k, correlation, seed))
    if tuned is None:
        pair = synthetic_pair(true_delta, users=users, list_length=list_length, relevant=relevant,
                              quality_a=quality_a, k=k, correlation=correlation, seed=seed)
        return ModelPair(*pair.sample(sample), pair.quality_a, pair.quality_b, pair.true_delta, pair.categories)
    _, list_length, relevant, k = _check(users, list_length, relevant, quality_a, k, correlation)
    items, grades, noise_a, noise_b, truth = _users(sample, list_length, relevant, correlation, seed)
    return ModelPair(_log(items, grades, noise_a, quality_a, list_length),
                     _log(items, grades, noise_b, tuned["quality_b"], list_length), truth, quality_a,
                     tuned["quality_b"], tuned["true_delta"], _categories(list_length, relevant, seed))


def _bisect(mean_b, mean_a: float, true_delta: float, quality_a: float):
    """Model B's quality whose population mean is ``true_delta`` above A's (to 1e-4), that mean and B's log."""
    low, high = 0.0, 3.0
    reachable_low, reachable_high = mean_b(low)[0] - mean_a, mean_b(high)[0] - mean_a
    if not reachable_low <= true_delta <= reachable_high:
        raise ValueError(f"true_delta must be between {reachable_low:.4f} and {reachable_high:.4f} for model A of "
                         f"quality {quality_a}, got {true_delta!r}")
    for _ in range(40):
        middle = (low + high) / 2
        value, recs_b = mean_b(middle)
        if abs(value - mean_a - true_delta) < 1e-4:
            break
        low, high = (middle, high) if value - mean_a < true_delta else (low, middle)
    return middle, value, recs_b


def tune_shipped() -> dict[str, dict[str, float]]:
    """Bisect model B's quality afresh for every shipped setting (the Compare page's)."""
    pairs = {delta: synthetic_pair(delta, use_tuned=False) for delta in TUNED_DELTAS}
    return {_tuned_key(delta, 20_000, 20, 5, 0.5, 10, 0.7, 0): {"quality_b": pair.quality_b,
                                                                "true_delta": pair.true_delta}
            for delta, pair in pairs.items()}


if __name__ == "__main__":
    TUNED_PATH.write_text(json.dumps(tune_shipped(), indent=1) + "\n")
