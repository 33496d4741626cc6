"""One protocol end to end: split, train the models (tuned on a validation split of the training data, if
asked), rank, score. What the lab page, the command line and the benchmark all call.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from whole_logs import batch
from whole_logs.beyond_accuracy import average_recommendation_popularity, catalog_coverage
from metrics.errors import DataError
from protocols import evaluation, models, splits

CANDIDATES = ("full", "uniform", "popular")
MAIN_METRICS = ("precision", "recall", "ndcg", "hit_rate", "average_precision")


@dataclass(frozen=True)
class Protocol:
    split: str = "leave-last-out"
    test_fraction: float = 0.2
    cut: int | None = None
    candidates: str = "full"
    """``full``, ``uniform:N`` or ``popular:N``: the N sampled negatives are part of the candidates' name."""
    k: int = 10
    seed: int = 0
    tuned: bool = False

    @classmethod
    def parse_candidates(cls, text: str) -> tuple[str, int]:
        """``full``, ``uniform:N`` or ``popular:N`` as (kind, N)."""
        kind, _, count = text.partition(":")
        if kind not in CANDIDATES or (kind == "full") != (count == ""):
            raise DataError("bad_candidates", f"candidates must be full, uniform:N or popular:N, got {text!r}",
                            value=text)
        if kind == "full":
            return kind, 0
        if not count.isdigit() or int(count) < 1:
            raise DataError("bad_candidates", f"the number of sampled negatives must be a whole number of at "
                            f"least 1, got {count!r}", value=text)
        return kind, int(count)


@dataclass
class ModelResult:
    name: str
    params: dict
    """Every hyperparameter the model ran with (defaults, set and tuned values alike)."""
    means: pd.Series
    per_user: pd.DataFrame
    recommendations: pd.DataFrame
    sampled: pd.Series | None = None
    pairs: pd.DataFrame | None = None
    """With sampled candidates: each held-out pair's full rank and sampled rank
    (:func:`protocols.evaluation.sampled_ranks`), from which the expected sampled metric at any number of
    negatives is exact (the guided lesson's sweep)."""
    seconds: float = 0.0
    sampled_per_user: pd.DataFrame | None = None
    """With sampled candidates: each user's values whose means are :attr:`sampled`
    (:func:`protocols.evaluation.sampled_per_user`), indexed by user."""


@dataclass
class Result:
    protocol: Protocol
    split: splits.Split
    models: dict = field(default_factory=dict)

    def table(self) -> pd.DataFrame:
        """Models x metrics: the app's metrics at K on the full catalogue, coverage, popularity and, with
        sampled candidates, the sampled, expected and corrected HR@K and NDCG@K."""
        rows = {}
        for name, result in self.models.items():
            row = result.means.copy()
            if result.sampled is not None:
                row = pd.concat([row, result.sampled])
            rows[name] = row
        return pd.DataFrame(rows).T

    def per_user(self) -> pd.DataFrame:
        """Every model's per-user rows, a ``model`` column first, then ``user``: the app's metrics at K on the
        full catalogue and, with sampled candidates, the user's sampled, expected, corrected and full
        (one held-out item at a time) values, whose means over users are :meth:`table`'s columns of the same
        name (empty for a user none of whose held-out items is in the catalogue)."""
        parts = []
        for name, result in self.models.items():
            rows = result.per_user
            if result.sampled_per_user is not None:
                rows = rows.join(result.sampled_per_user, how="left")
            parts.append(rows.rename_axis("user").reset_index().assign(model=name))
        table = pd.concat(parts, ignore_index=True)
        return table[["model", *[c for c in table.columns if c != "model"]]]


def encoded(split: splits.Split) -> evaluation.Encoded:
    return evaluation.Encoded.of(split.train, split.test)


def _score(model, enc: evaluation.Encoded, k: int) -> tuple[pd.DataFrame, pd.DataFrame, pd.Series]:
    per_user, recommendations = evaluation.full_catalogue(model, enc, k)
    means = batch.summarize(per_user).means
    keep = [batch.column_name(m, k) for m in MAIN_METRICS] + ["reciprocal_rank"]
    return per_user, recommendations, means[keep]


def _fit(name: str, params: dict, enc: evaluation.Encoded, seed: int):
    extra = {"seed": seed} if name in ("random", "mf") else {}
    return models.make(name, **params, **extra).fit(evaluation._seen(enc))


def tune(name: str, train: pd.DataFrame, protocol: Protocol, fixed: dict | None = None) -> tuple[dict, pd.DataFrame]:
    """The model's grid (:data:`protocols.models.GRIDS`) tried on a validation split of ``train`` made the
    same way as the test split; the values with the best NDCG@K, and every value's NDCG@K. The hyperparameters
    of ``fixed`` (set by the reader) are not tuned: every fit of the grid uses them."""
    fixed = fixed or {}
    grid = {key: values for key, values in models.GRIDS[name].items() if key not in fixed}
    if not grid:
        return {}, pd.DataFrame()
    validation = splits.split(train, protocol.split, test_fraction=protocol.test_fraction, seed=protocol.seed + 1)
    enc = encoded(validation)
    tried = []
    for values in itertools.product(*grid.values()):
        params = dict(zip(grid, values))
        _, _, means = _score(_fit(name, {**fixed, **params}, enc, protocol.seed), enc, protocol.k)
        tried.append({**params, "ndcg": float(means[batch.column_name("ndcg", protocol.k)])})
    tried = pd.DataFrame(tried)
    best = tried.loc[tried["ndcg"].idxmax(), list(grid)].to_dict()
    return {key: type(grid[key][0])(value) for key, value in best.items()}, tried


def run(frame: pd.DataFrame, protocol: Protocol, model_names, *, split: splits.Split | None = None,
        reuse: Result | None = None, on_model: Callable[[Result], None] | None = None,
        params: dict[str, dict] | None = None) -> Result:
    """Every model of ``model_names`` under ``protocol`` (``split``: one already made, e.g. cached).

    ``params``: hyperparameters set by the reader, per model name (e.g. ``{"ease": {"l2": 250.0}}``); they
    are not tuned. Each model's :attr:`ModelResult.params` is every hyperparameter it ran with: the defaults
    (:func:`protocols.models.defaults`), overridden by ``params``, overridden by the tuned values.

    ``reuse``: a run on this same split at the same K and candidates; a model whose hyperparameters come out
    the same as there (popularity has none; tuning may choose the defaults) is taken from it, not trained and
    scored a second time: it would give the same numbers (every model is seeded). ``on_model``: called with the
    result so far after each model, so a page can show the first rows while the others train."""
    kind, n = Protocol.parse_candidates(protocol.candidates)
    params = params or {}
    for name, values in params.items():
        models.check(name, values)
        if name not in model_names:
            raise DataError("unused_params", f"hyperparameters are set for {name}, which is not among the models "
                            f"run ({', '.join(model_names)})", name=name)
    split = split or splits.split(frame, protocol.split, test_fraction=protocol.test_fraction, cut=protocol.cut,
                                  seed=protocol.seed)
    if reuse is not None and (reuse.split is not split or
                              (reuse.protocol.k, reuse.protocol.candidates, reuse.protocol.seed)
                              != (protocol.k, protocol.candidates, protocol.seed)):
        raise ValueError("a run is reused only on the same split, K, candidates and seed")
    enc = encoded(split)
    result = Result(protocol, split)
    popularity = np.asarray(evaluation._seen(enc).sum(axis=0)).ravel()
    sampling = None
    if kind != "full":
        allowed = evaluation.allowed_negatives(enc)
        sampling = (kind, n, allowed, evaluation.sample_negatives(enc, allowed, n, kind, protocol.seed, popularity))
    for name in model_names:
        started = time.perf_counter()
        chosen = {**models.defaults(name), **params.get(name, {})}
        if protocol.tuned:
            chosen.update(tune(name, split.train, protocol, fixed=params.get(name))[0])
        earlier = reuse.models.get(name) if reuse is not None else None
        if earlier is not None and models.make(name, **chosen) == models.make(name, **earlier.params):
            result.models[name] = dataclasses.replace(earlier, params=chosen,
                                                      seconds=time.perf_counter() - started + earlier.seconds)
        else:
            result.models[name] = _model_result(name, chosen, enc, protocol, split, popularity, sampling, started)
        if on_model is not None:
            on_model(result)
    return result


def _model_result(name: str, params: dict, enc: evaluation.Encoded, protocol: Protocol, split: splits.Split,
                  popularity: np.ndarray, sampling: tuple | None, started: float) -> ModelResult:
    model = _fit(name, params, enc, protocol.seed)
    per_user, recommendations, means = _score(model, enc, protocol.k)
    means = pd.concat([means, pd.Series({
        f"coverage@{protocol.k}": catalog_coverage(recommendations, protocol.k, len(enc.items)),
        f"popularity@{protocol.k}": average_recommendation_popularity(recommendations, split.train, protocol.k),
    })])
    sampled = pairs = sampled_users = None
    if sampling is not None:
        kind, n, allowed, negatives = sampling
        pairs = evaluation.sampled_ranks(model, enc, allowed, negatives, kind, popularity)
        sampled_users = evaluation.sampled_per_user(pairs, protocol.k, n, kind)
        sampled = sampled_users.mean()
    return ModelResult(name, params, means, per_user, recommendations, sampled, pairs, time.perf_counter() - started,
                       sampled_users)
