"""Click-through-rate metrics that make LogLoss comparable: normalised entropy and calibration.

Raw LogLoss depends on the click rate of the data: a model that knows nothing but the base rate
scores 0.056 on data with 1% clicks and 0.693 on data with 50% clicks. Normalised entropy divides
by that know-nothing loss, and calibration compares how many clicks the model expects with how
many happened. Both follow TorchRec (``torchrec.metrics.ne``, ``torchrec.metrics.calibration``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from metrics._validation import as_binary_labels, as_finite_array, as_probabilities, check_same_length
from metrics.classification_metrics import UndefinedMetricWarning, constant_predictor_labels, log_loss


def _pair(y_true, y_prob) -> tuple[np.ndarray, np.ndarray]:
    labels = as_binary_labels(y_true, "y_true")
    probs = as_probabilities(y_prob, "y_prob")
    check_same_length(y_true=labels, y_prob=probs)
    return labels, probs


def base_rate_entropy(y_true) -> float:
    r"""Entropy of the base click rate, in nats: the LogLoss of always predicting that rate.

    .. math:: H(\bar y) = -\left[\bar y \ln \bar y + (1-\bar y)\ln(1-\bar y)\right],
              \quad \bar y = \frac{1}{n}\sum_{i=1}^{n} y_i

    Parameters
    ----------
    y_true : array-like of {0, 1}
        Click labels.

    Returns
    -------
    float
        In [0, ln 2]; 0 when every label is the same (nothing to predict), ln 2 = 0.6931 at a 50%
        click rate.

    Raises
    ------
    ValueError
        If ``y_true`` is empty or holds a value other than 0 and 1.

    Examples
    --------
    >>> round(base_rate_entropy([1, 1, 0]), 5)
    0.63651
    >>> base_rate_entropy([0, 0, 0])
    0.0
    """
    labels = as_binary_labels(y_true, "y_true")
    rate = labels.mean()
    if rate in (0.0, 1.0):
        return 0.0
    # The LogLoss of the constant prediction, computed by log_loss itself, so that NE of the
    # base-rate predictor is exactly 1.0 rather than 1 plus rounding.
    return log_loss(labels, np.full(labels.size, rate))


def normalized_entropy(y_true, y_prob, *, eps=None) -> float:
    r"""Normalised entropy (NE): LogLoss divided by the entropy of the base click rate.

    .. math:: \mathrm{NE} = \frac{\mathrm{LogLoss}}{H(\bar y)}
              = \frac{-\frac{1}{n}\sum_i \left[y_i\ln p_i + (1-y_i)\ln(1-p_i)\right]}
                     {-\left[\bar y\ln\bar y + (1-\bar y)\ln(1-\bar y)\right]}

    Parameters
    ----------
    y_true : array-like of {0, 1}
        Click labels.
    y_prob : array-like of float in [0, 1]
        Predicted click probabilities.
    eps : float or None, keyword-only
        Clipping of the probabilities inside the LogLoss, as in
        :func:`metrics.classification_metrics.log_loss`.

    Returns
    -------
    float
        In [0, inf); lower is better. 1 means no better than predicting the base rate for every
        impression, below 1 means the model knows more than the base rate. The log base cancels
        (TorchRec uses log2). nan, with an :class:`UndefinedMetricWarning`, when every label is
        the same: the base rate then has entropy 0 and there is nothing to normalise by.

    Raises
    ------
    ValueError
        If the inputs are empty, of different lengths, not 0/1 labels or not probabilities.

    Notes
    -----
    He et al., "Practical Lessons from Predicting Clicks on Ads at Facebook" (ADKDD 2014), and
    ``torchrec.metrics.ne``. TorchRec clamps the base rate into [1e-12, 1 - 1e-12] instead of
    returning nan, so a one-class batch there gives a huge NE rather than an undefined one.

    Examples
    --------
    >>> round(normalized_entropy([1, 1, 0], [0.8, 0.6, 0.3]), 5)
    0.57115
    >>> normalized_entropy([1, 0, 0, 0], [0.25, 0.25, 0.25, 0.25])
    1.0
    """
    labels, probs = _pair(y_true, y_prob)
    entropy = base_rate_entropy(labels)
    if entropy == 0.0:
        warnings.warn("normalized entropy is undefined: every label is the same, so the base click rate "
                      "has entropy 0", UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    return log_loss(labels, probs, eps=eps) / entropy


def calibration(y_true, y_prob) -> float:
    r"""Calibration: the clicks the model expects divided by the clicks that happened.

    .. math:: \mathrm{Calibration} = \frac{\sum_{i=1}^{n} p_i}{\sum_{i=1}^{n} y_i}

    Parameters
    ----------
    y_true : array-like of {0, 1}
        Click labels.
    y_prob : array-like of float in [0, 1]
        Predicted click probabilities.

    Returns
    -------
    float
        In [0, inf); 1 is best. Above 1 the model over-predicts clicks, below 1 it
        under-predicts. nan, with an :class:`UndefinedMetricWarning`, when there is no click.

    Raises
    ------
    ValueError
        If the inputs are empty, of different lengths, not 0/1 labels or not probabilities.

    Notes
    -----
    ``torchrec.metrics.calibration``: sum of predictions over sum of labels (weights 1 here).

    Examples
    --------
    >>> round(calibration([1, 1, 0], [0.8, 0.6, 0.3]), 4)
    0.85
    """
    labels, probs = _pair(y_true, y_prob)
    clicks = labels.sum()
    if clicks == 0:
        warnings.warn("calibration is undefined: there is no click to compare the predicted clicks with",
                      UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    return float(probs.sum() / clicks)


def ctr_breakdown(y_true, y_prob, *, eps=None) -> dict[str, float]:
    """The numbers behind NE and calibration, for writing the formulas out.

    Returns
    -------
    dict
        ``n``, ``clicks``, ``base_rate``, ``log_loss``, ``base_rate_entropy``,
        ``normalized_entropy`` (nan if one class), ``predicted_clicks`` and ``calibration``
        (nan if no click). No warning is raised for the nan cases: the caller shows why.

    Examples
    --------
    >>> parts = ctr_breakdown([1, 1, 0], [0.8, 0.6, 0.3])
    >>> parts["clicks"], round(parts["predicted_clicks"], 4), round(parts["base_rate"], 4)
    (2, 1.7, 0.6667)
    """
    labels, probs = _pair(y_true, y_prob)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return {
            "n": int(labels.size),
            "clicks": int(labels.sum()),
            "base_rate": float(labels.mean()),
            "log_loss": log_loss(labels, probs, eps=eps),
            "base_rate_entropy": base_rate_entropy(labels),
            "normalized_entropy": normalized_entropy(labels, probs, eps=eps),
            "predicted_clicks": float(probs.sum()),
            "calibration": calibration(labels, probs),
        }


def base_rate_sweep(click_rates, n: int = 1000) -> pd.DataFrame:
    """A model that predicts the base click rate for every impression, on data of each click rate.

    It knows nothing about the impressions, yet its LogLoss changes tenfold with the click rate;
    its NE is 1 at every rate and its calibration 1.

    Parameters
    ----------
    click_rates : array-like of float in (0, 1)
        Share of impressions that are clicks; ``round(n * rate)`` of the ``n`` labels are 1.
    n : int
        Impressions per data set.

    Returns
    -------
    pandas.DataFrame
        Columns ``click_rate`` (the realised rate), ``log_loss``, ``base_rate_entropy``,
        ``normalized_entropy``, ``calibration``.

    Raises
    ------
    ValueError
        If a rate gives a data set with one class only (no click or no non-click).

    Examples
    --------
    >>> base_rate_sweep([0.01, 0.5], 100).round(4).values.tolist()
    [[0.01, 0.056, 0.056, 1.0, 1.0], [0.5, 0.6931, 0.6931, 1.0, 1.0]]
    """
    rows = []
    for rate in as_finite_array(click_rates, "click_rates"):
        y_true, _ = constant_predictor_labels(n, float(rate))
        if y_true.min() == y_true.max():
            raise ValueError(f"click rate {rate:g} gives {n} impressions of one class; use a rate in "
                             f"[{1 / n:g}, {1 - 1 / n:g}]")
        y_prob = np.full(n, y_true.mean())
        parts = ctr_breakdown(y_true, y_prob)
        rows.append({key: parts[key] for key in ("log_loss", "base_rate_entropy", "normalized_entropy",
                                                 "calibration")} | {"click_rate": parts["base_rate"]})
    return pd.DataFrame(rows, columns=["click_rate", "log_loss", "base_rate_entropy", "normalized_entropy",
                                       "calibration"])
