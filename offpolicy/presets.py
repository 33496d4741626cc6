"""The Logged feedback page's four findings, measured on ML-100K with fixed seeds. Each function returns the
numbers its sentence is written from (content/pages/logged_feedback.py); tests/test_logged_feedback_presets.py
checks every sentence against them.

1. ``rare_target``: with a cold logger (it rarely shows what the target picks) IPS stays unbiased but a single
   log's estimate is wild.
2. ``clipping``: clipping the weights trades bias for variance.
3. ``doubly_robust``: DR rescues a poor reward model or a poor propensity, not both.
4. ``popularity_recall``: weighting Recall@10 by a popularity propensity changes which of the protocol lab's
   models wins.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
import pandas as pd

from offpolicy import estimators, propensity, simulate
from protocols import movielens
from protocols.once import OncePerKey

PRESETS = ("rare_target", "clipping", "doubly_robust", "popularity_recall")
ROUNDS = 10_000
LOGS = 200
SEED = 7

RARE_TEMPERATURE, USUAL_TEMPERATURE = 0.25, 1.0
CLIPPING_TEMPERATURE = 0.25
CLIPPING_TAUS = (1.0, 10.0, 100.0, 1_000.0, 10_000.0, np.inf)
"""τ = ∞ is IPS unclipped."""
RECALL_MODELS = ("pop", "itemknn", "ease")


def _spread(estimates: pd.DataFrame, truth: float) -> pd.DataFrame:
    """``simulate.accuracy`` with each estimator's standard deviation over the logs and the standard error of
    its mean (sd / √logs), against which a bias is told from noise."""
    table = simulate.accuracy(estimates, truth)
    table["sd"] = np.sqrt(table["variance"])
    table["standard_error"] = table["sd"] / np.sqrt(len(estimates))
    return table


def rare_target(world: simulate.World, *, rounds: int = ROUNDS, logs: int = LOGS, seed: int = SEED) -> dict:
    """IPS, SNIPS and DR over ``logs`` logs, the logger cold (``RARE_TEMPERATURE``) and as usual (1)."""
    found = {}
    for name, temperature in (("rare", RARE_TEMPERATURE), ("usual", USUAL_TEMPERATURE)):
        here = world.with_logger_temperature(temperature)
        estimates = simulate.repeated_estimates(here, rounds, logs, seed=seed, names=("ips", "snips", "dr"))
        found[name] = {"temperature": temperature, "truth": here.truth, "mean_ess": float(estimates["ess"].mean()),
                       "table": _spread(estimates, here.truth)}
    return {"rounds": rounds, "logs": logs, **found}


def _draw(world: simulate.World, rounds: int, logs: int, seed: int) -> simulate.Logs:
    return simulate.draw_logs(world, rounds, logs, seed=seed)


def clipping(world: simulate.World, *, rounds: int = ROUNDS, logs: int = LOGS, seed: int = SEED,
             taus=CLIPPING_TAUS) -> dict:
    """Clipped IPS at each τ of ``taus`` on the same ``logs`` logs (logger at ``CLIPPING_TEMPERATURE``): one row
    per τ with bias, variance, rmse, sd; ``best`` the τ of the smallest RMSE."""
    here = world.with_logger_temperature(CLIPPING_TEMPERATURE)
    drawn = _draw(here, rounds, logs, seed)
    weight = here.target[drawn.context, drawn.action] / drawn.propensity
    rows = {}
    for tau in taus:
        values = estimators.clipped_ips(drawn.reward, weight, tau).value
        rows[tau] = _spread(pd.DataFrame({"clipped_ips": values}), here.truth).loc["clipped_ips"]
    table = pd.DataFrame(rows).T.rename_axis("tau")
    return {"rounds": rounds, "logs": logs, "temperature": CLIPPING_TEMPERATURE, "truth": here.truth,
            "table": table, "best": float(table["rmse"].idxmin()),
            "max_weight": float(weight.max())}


def misrecorded(logs: simulate.Logs, believed: np.ndarray) -> simulate.Logs:
    """The same rounds with the propensity an analyst believes, ``believed[context, action]``, in place of the
    logger's.

    Examples
    --------
    >>> logs = simulate.Logs(np.array([[0]]), np.array([[1]]), np.array([[1.0]]), np.array([[0.9]]))
    >>> misrecorded(logs, np.array([[0.5, 0.5]])).propensity.tolist()
    [[0.5]]
    """
    return replace(logs, propensity=believed[logs.context, logs.action])


CONDITIONS = (("right", "right"), ("poor", "right"), ("right", "poor"), ("poor", "poor"))
"""(reward model, propensity): right or poor."""


def doubly_robust(world: simulate.World, *, rounds: int = ROUNDS, logs: int = LOGS, seed: int = SEED) -> dict:
    """DM, IPS and DR on the same logs under each of ``CONDITIONS``: the right reward model is the hidden click
    model itself, the poor one the world's (popularity's); the right propensity is the logger's, the poor one
    a uniform logger's (1 / candidates), as an analyst who took the logger for uniform would record it. One
    row per (model, propensity, estimator): bias, variance, rmse, sd, standard_error."""
    drawn = _draw(world, rounds, logs, seed)
    believed = {"right": None, "poor": simulate.uniform(world.logger.shape)}
    models = {"right": replace(world, q_hat=world.q), "poor": world}
    rows = []
    for model, weights in CONDITIONS:
        here = drawn if believed[weights] is None else misrecorded(drawn, believed[weights])
        found = simulate.estimate_logs(models[model], here, names=("dm", "ips", "dr"))
        table = _spread(pd.DataFrame({name: e.value for name, e in found.items()}), world.truth)
        rows.append(table.rename_axis("estimator").reset_index().assign(model=model, propensity=weights))
    return {"rounds": rounds, "logs": logs, "truth": world.truth,
            "table": pd.concat(rows, ignore_index=True).set_index(["model", "propensity", "estimator"])}


def popularity_recall(frame: pd.DataFrame, *, models=RECALL_MODELS, seed: int = 0) -> dict:
    """The protocol lab's random 80/20 split of ``frame``, each model's naive, IPS and SNIPS Recall@10 and NDCG@10
    (:func:`offpolicy.propensity.evaluate`), and the models' places (1 = best) by naive and by SNIPS Recall@10."""
    result = propensity.evaluate(frame, models, split="random", k=10, seed=seed)
    metrics = result.metrics
    places = {name: metrics[name].rank(ascending=False, method="min").astype(int)
              for name in ("recall", "ips_recall", "snips_recall")}
    return {"metrics": metrics, "gamma": result.gamma, "counts": result.counts, "places": places,
            "naive_winner": str(metrics["recall"].idxmax()), "ips_winner": str(metrics["ips_recall"].idxmax()),
            "snips_winner": str(metrics["snips_recall"].idxmax())}


# --------------------------------------------------------------------------- measured once per process


@lru_cache(maxsize=1)
def ml100k() -> pd.DataFrame:
    """MovieLens 100K from the installed recbole wheel, read once per process. Raises
    :class:`protocols.movielens.DataUnavailable` without it."""
    return movielens.installed_ml100k()


@lru_cache(maxsize=1)
def world() -> simulate.World:
    """ML-100K's world (``simulate.from_interactions``' defaults), shared by every reader: it holds no reader's
    data."""
    return simulate.from_interactions(ml100k())


_measured = OncePerKey()


def compute(key: str) -> dict:
    """The preset ``key`` on ML-100K (under 3 s each)."""
    if key not in PRESETS:
        raise ValueError(f"no off-policy preset {key!r}; the presets are {list(PRESETS)}")
    if key == "popularity_recall":
        return popularity_recall(ml100k())
    return globals()[key](world())


def measured(key: str) -> dict:
    """The preset ``key``, computed once per process and shared by the Logged feedback page and the guided lesson
    "What the log did not show" (a second reader asking meanwhile waits for the first run). Its tables are shared:
    read them, never change them."""
    return _measured.get(key, lambda: compute(key))
