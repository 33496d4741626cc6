"""What the Logged feedback page shows for a logger temperature, a log size and a clipping threshold: one log's
estimates with their intervals against the truth, its importance weights binned, its effective sample size, and
each estimator's bias and RMSE over many logs of the same size. Pure numpy/pandas; the page only draws it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from offpolicy import estimators, simulate

TEMPERATURES = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
"""The logger's softmax temperatures the page offers (low: nearly greedy on popularity; high: nearly uniform)."""
SIZES = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000)
"""Rounds per log."""
TAUS = (1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1_000.0)
"""Clipping (and switching) thresholds."""
DEFAULTS = {"temperature": 1.0, "rounds": 10_000, "tau": 100.0}
REPEATS = 100
"""Logs drawn for the bias and RMSE (each as large as the one shown)."""
SEED = 0
NAMES = estimators.ESTIMATORS


@dataclass(frozen=True)
class Histogram:
    """Counts of weights in ``edges``' bins (each bin [low, high), the last one closed), and the zero weights apart."""

    edges: np.ndarray
    counts: np.ndarray
    zeros: int


def weight_histogram(weight, bins_per_decade: int = 4) -> Histogram:
    """The positive weights in logarithmic bins (``bins_per_decade`` to a factor of ten, from the decade of the
    smallest to that of the largest), and how many weights are zero (the rounds whose action the target never
    picks): a weight of 0.5 and one of 500 both show.

    Examples
    --------
    >>> found = weight_histogram([0.0, 0.0, 1.0, 2.0, 50.0], bins_per_decade=1)
    >>> found.edges.tolist(), found.counts.tolist(), found.zeros
    ([1.0, 10.0, 100.0], [2, 1], 2)
    """
    weight = np.asarray(weight, dtype=float).ravel()
    positive = weight[weight > 0]
    zeros = int((weight == 0).sum())
    if positive.size == 0:
        return Histogram(np.array([]), np.array([], dtype=int), zeros)
    low = np.floor(np.log10(positive.min()))
    high = max(np.ceil(np.log10(positive.max())), low + 1)
    if np.log10(positive.max()) == high:  # the largest on a decade's edge: one more decade, so it is not left out
        high += 1
    edges = 10 ** np.linspace(low, high, int(round((high - low) * bins_per_decade)) + 1)
    counts, _ = np.histogram(positive, bins=edges)
    return Histogram(edges, counts.astype(int), zeros)


@dataclass(frozen=True)
class Explored:
    truth: float
    one_log: pd.DataFrame
    """One row per estimator: value, low, high (its 95 % interval), error (value - truth)."""
    weights: Histogram
    ess: float
    """The shown log's effective sample size."""
    rounds: int
    accuracy: pd.DataFrame
    """One row per estimator over ``repeats`` logs: bias, variance, rmse, sd (the square root of the variance)."""
    mean_ess: float
    repeats: int
    weighted_clicks: float
    """The shown log's sum of weight times click, Σ w_i r_i: IPS's value is it over ``rounds``."""


def explore(world: simulate.World, temperature: float, rounds: int, tau: float, *, repeats: int = REPEATS,
            seed: int = SEED) -> Explored:
    """The page's view of ``world`` with its logger at ``temperature``: the first of ``repeats`` seeded logs of
    ``rounds`` rounds shown in full, all of them for the bias and RMSE (τ = ``tau`` for clipped IPS and
    switch-DR)."""
    here = world.with_logger_temperature(temperature)
    truth = here.truth
    logs = simulate.draw_logs(here, rounds, 1, seed=seed)
    found = simulate.estimate_logs(here, logs, names=NAMES, tau=tau)
    one_log = pd.DataFrame({name: {"value": float(e.value[0]), "low": float(e.low[0]), "high": float(e.high[0])}
                            for name, e in found.items()}).T.rename_axis("estimator")
    one_log["error"] = one_log["value"] - truth
    weight = here.target[logs.context, logs.action] / logs.propensity
    repeated = simulate.repeated_estimates(here, rounds, repeats, tau=tau, seed=seed + 1, names=NAMES)
    accuracy = simulate.accuracy(repeated, truth)
    accuracy["sd"] = np.sqrt(accuracy["variance"])
    return Explored(truth, one_log, weight_histogram(weight), float(estimators.effective_sample_size(weight[0])),
                    rounds, accuracy, float(repeated["ess"].mean()), repeats, float((weight[0] * logs.reward[0]).sum()))
