r"""The off-policy estimators, from logged rounds: each round's reward r, importance weight w = π(a|x) / π0(a|x)
of the logged action under the target policy π and the logger π0, and, for the model-based ones, a reward
model's q̂(x, a) of the logged action and its expectation under the target, Σ_a π(a|x) q̂(x, a).

================  ==========================================================  =========================
estimator         value                                                       interval
================  ==========================================================  =========================
``dm``            mean(Σ_a π(a|x) q̂(x, a))                                    normal, per-round terms
``ips``           mean(w r)                                                   normal, per-round terms
``snips``         Σ w r / Σ w                                                 normal, delta method
``dr``            mean(Σ_a π q̂ + w (r - q̂(x, a)))                             normal, per-round terms
``switch_dr``     mean(Σ_a π q̂ + 1{w ≤ τ} w (r - q̂(x, a)))                   normal, per-round terms
``clipped_ips``   mean(min(w, τ) r)                                           normal, per-round terms
================  ==========================================================  =========================

Switch-DR is Wang, Agarwal and Dudík's (ICML 2017) SWITCH-DR in the form the Open Bandit Pipeline implements:
the doubly robust correction where the weight is at most τ, the direct method alone where it is larger
(τ = ∞ is DR, τ = 0 is DM). Their other form, :func:`switch_ips_dm` (IPS for the actions whose weight is at most
τ, DM for the others), needs the logger's propensity of every action of every context, which a log holds for
the logged action only: the simulations have it (:mod:`offpolicy.simulate`), the command line does not.

Intervals: an estimate that is a mean of per-round terms gets mean ± z · sd(terms) / √n (sd with n - 1). SNIPS
is a ratio of two means; its standard error is the delta method's, the sd of the linearised terms
w (r - V̂) / mean(w), over √n (no resampling, so the same log always gives the same interval).

Every function takes arrays whose last axis is the rounds, so many logs of equal size are estimated at once
(a 2-d array: one log per row).
"""

from __future__ import annotations

from dataclasses import dataclass

from statistics import NormalDist

import numpy as np

ESTIMATORS = ("dm", "ips", "snips", "dr", "switch_dr", "clipped_ips")
MODEL_BASED = ("dm", "dr", "switch_dr")
"""The estimators that need a reward model q̂."""


@dataclass(frozen=True)
class Estimate:
    """An estimate, its standard error and its interval (arrays when many logs are estimated at once)."""

    value: np.ndarray | float
    standard_error: np.ndarray | float
    low: np.ndarray | float
    high: np.ndarray | float


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"the confidence must be between 0 and 1 (exclusive), got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)  # the standard library's: scipy.stats takes a second to import


def _of_terms(terms: np.ndarray, confidence: float) -> Estimate:
    terms = np.asarray(terms, dtype=float)
    n = terms.shape[-1]
    value = terms.mean(axis=-1)
    error = terms.std(axis=-1, ddof=1) / np.sqrt(n) if n > 1 else np.full_like(value, np.nan)
    z = _z(confidence)
    return Estimate(value, error, value - z * error, value + z * error)


def ips(reward, weight, *, confidence: float = 0.95) -> Estimate:
    """Inverse propensity scoring: the mean of w r, unbiased wherever the logger gives every action the target
    may choose a positive probability.

    Examples
    --------
    >>> ips([1, 0, 1, 0], [2.0, 2.0, 0.0, 0.0]).value
    np.float64(0.5)
    """
    return _of_terms(np.asarray(reward, dtype=float) * np.asarray(weight, dtype=float), confidence)


def clipped_ips(reward, weight, tau: float, *, confidence: float = 0.95) -> Estimate:
    """IPS with every weight capped at ``tau``: less variance, a downward bias where weights were cut.

    Examples
    --------
    >>> clipped_ips([1, 1], [4.0, 0.5], tau=2.0).value
    np.float64(1.25)
    """
    return ips(reward, np.minimum(np.asarray(weight, dtype=float), tau), confidence=confidence)


def snips(reward, weight, *, confidence: float = 0.95) -> Estimate:
    """Self-normalised IPS, Σ w r / Σ w: biased for a finite log, consistent, never outside the rewards' range.

    Its interval is the delta method's (see the module). A log whose weights are all zero has no estimate (nan).

    Examples
    --------
    >>> snips([1, 0, 1, 0], [2.0, 2.0, 0.0, 0.0]).value
    np.float64(0.5)
    >>> float(snips([1, 0], [3.0, 1.0]).value)
    0.75
    """
    reward = np.asarray(reward, dtype=float)
    weight = np.asarray(weight, dtype=float)
    n = weight.shape[-1]
    mean_weight = weight.mean(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = (weight * reward).sum(axis=-1) / weight.sum(axis=-1)
        linearised = weight * (reward - np.expand_dims(value, -1)) / np.expand_dims(mean_weight, -1)
    error = linearised.std(axis=-1, ddof=1) / np.sqrt(n) if n > 1 else np.full_like(value, np.nan)
    z = _z(confidence)
    return Estimate(value, error, value - z * error, value + z * error)


def direct_method(expected_under_target, *, confidence: float = 0.95) -> Estimate:
    """The reward model's value of the target, mean(Σ_a π(a|x) q̂(x, a)) over the logged contexts: no weights,
    and as biased as the model. Its interval covers the contexts' sampling only, never the model's error.

    Examples
    --------
    >>> direct_method([0.2, 0.4]).value
    np.float64(0.30000000000000004)
    """
    return _of_terms(expected_under_target, confidence)


def doubly_robust(reward, weight, model_of_logged, expected_under_target, *, confidence: float = 0.95) -> Estimate:
    """DM plus IPS on the model's residuals: unbiased when the propensities are right, exact (zero
    variance from the actions) when the model is.

    Examples
    --------
    >>> doubly_robust([1, 0], [2.0, 0.0], [0.5, 0.5], [0.5, 0.5]).value
    np.float64(1.0)
    """
    return switch_dr(reward, weight, model_of_logged, expected_under_target, np.inf, confidence=confidence)


def switch_dr(reward, weight, model_of_logged, expected_under_target, tau: float, *,
              confidence: float = 0.95) -> Estimate:
    """DR's correction where w ≤ ``tau``, DM alone where the weight is larger (see the module).

    Examples
    --------
    >>> switch_dr([1, 0], [2.0, 0.0], [0.5, 0.5], [0.5, 0.5], tau=1.0).value
    np.float64(0.5)
    """
    weight = np.asarray(weight, dtype=float)
    residual = np.asarray(reward, dtype=float) - np.asarray(model_of_logged, dtype=float)
    kept = np.where(weight <= tau, weight, 0.0)
    return _of_terms(np.asarray(expected_under_target, dtype=float) + kept * residual, confidence)


def switch_ips_dm(reward, weight, model_where_weight_is_large, tau: float, *, confidence: float = 0.95) -> Estimate:
    """Wang, Agarwal and Dudík's SWITCH with IPS: mean(r w 1{w ≤ τ} + Σ_a π(a|x) q̂(x, a) 1{w(x, a) > τ}), where
    ``model_where_weight_is_large`` is each round's second sum, over the actions of its context whose weight
    π(a|x) / π0(a|x) exceeds τ (an action the logger never shows counts as one of infinite weight). Unbiased
    when q̂ is right on those actions; τ = ∞ is IPS.

    Examples
    --------
    >>> switch_ips_dm([1, 0], [2.0, 0.5], [0.25, 0.25], tau=1.0).value
    np.float64(0.25)
    """
    weight = np.asarray(weight, dtype=float)
    kept = np.where(weight <= tau, weight, 0.0)
    return _of_terms(kept * np.asarray(reward, dtype=float) + np.asarray(model_where_weight_is_large, dtype=float),
                     confidence)


def effective_sample_size(weight) -> np.ndarray | float:
    """(Σ w)² / Σ w²: how many rounds the weighted log is worth; n when the weights are equal, 1 when one
    round carries them all (nan when every weight is zero).

    Examples
    --------
    >>> float(effective_sample_size([1.0, 1.0, 1.0, 1.0]))
    4.0
    >>> float(effective_sample_size([5.0, 0.0, 0.0, 0.0]))
    1.0
    """
    weight = np.asarray(weight, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return weight.sum(axis=-1) ** 2 / (weight**2).sum(axis=-1)


def estimate_all(reward, weight, model_of_logged=None, expected_under_target=None, *, names=ESTIMATORS,
                 tau: float = 10.0, confidence: float = 0.95) -> dict[str, Estimate]:
    """Each estimator of ``names`` on one log (or many logs, one per row); ``tau`` is the clipping and
    switching threshold. The model-based ones need ``model_of_logged`` and ``expected_under_target``.

    Examples
    --------
    >>> found = estimate_all([1, 0], [2.0, 0.0], [0.5, 0.5], [0.5, 0.5], tau=1.0)
    >>> {name: float(e.value) for name, e in found.items()}
    {'dm': 0.5, 'ips': 1.0, 'snips': 1.0, 'dr': 1.0, 'switch_dr': 0.5, 'clipped_ips': 0.5}
    """
    unknown = [name for name in names if name not in ESTIMATORS]
    if unknown:
        raise ValueError(f"unknown estimator {', '.join(unknown)}; choose from {', '.join(ESTIMATORS)}")
    if any(name in MODEL_BASED for name in names) and (model_of_logged is None or expected_under_target is None):
        raise ValueError("dm, dr and switch_dr need a reward model: model_of_logged and expected_under_target")
    found = {}
    for name in names:
        if name == "dm":
            found[name] = direct_method(expected_under_target, confidence=confidence)
        elif name == "ips":
            found[name] = ips(reward, weight, confidence=confidence)
        elif name == "snips":
            found[name] = snips(reward, weight, confidence=confidence)
        elif name == "dr":
            found[name] = doubly_robust(reward, weight, model_of_logged, expected_under_target, confidence=confidence)
        elif name == "switch_dr":
            found[name] = switch_dr(reward, weight, model_of_logged, expected_under_target, tau, confidence=confidence)
        else:
            found[name] = clipped_ips(reward, weight, tau, confidence=confidence)
    return found
