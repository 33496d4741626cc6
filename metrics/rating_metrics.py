"""Rating-prediction errors: how far predicted ratings are from the actual ones.

Function names and argument order follow the first seed document: ``rmse(predictions, actuals)``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from metrics._validation import as_finite_array, check_same_length


def _errors(predictions, actuals) -> np.ndarray:
    predictions = as_finite_array(predictions, "predictions")
    actuals = as_finite_array(actuals, "actuals")
    check_same_length(predictions=predictions, actuals=actuals)
    return predictions - actuals


def mse(predictions, actuals) -> float:
    r"""Mean squared error.

    .. math:: \mathrm{MSE} = \frac{1}{n}\sum_{i=1}^{n} (\hat r_i - r_i)^2

    Parameters
    ----------
    predictions, actuals : array-like of float, same non-zero length, finite.

    Returns
    -------
    float
        In [0, inf); 0 is perfect.

    Raises
    ------
    ValueError
        If the inputs are empty, of different lengths, or hold NaN or infinity.

    Examples
    --------
    >>> mse([3.0, 4.0], [2.0, 4.0])
    0.5
    """
    return float(np.mean(_errors(predictions, actuals) ** 2))


def rmse(predictions, actuals) -> float:
    r"""Root mean squared error: the square root of :func:`mse`, in rating units.

    .. math:: \mathrm{RMSE} = \sqrt{\frac{1}{n}\sum_{i=1}^{n} (\hat r_i - r_i)^2}

    Squaring makes one large miss weigh more than many small ones, so a few outliers
    inflate RMSE far more than :func:`mae`.

    Examples
    --------
    >>> rmse([3.0, 4.0, 5.0], [3.0, 4.0, 2.0])
    1.7320508075688772
    """
    return float(np.sqrt(mse(predictions, actuals)))


def mae(predictions, actuals) -> float:
    r"""Mean absolute error, in rating units.

    .. math:: \mathrm{MAE} = \frac{1}{n}\sum_{i=1}^{n} \lvert \hat r_i - r_i \rvert

    Examples
    --------
    >>> mae([3.0, 4.0, 5.0], [3.0, 4.0, 2.0])
    1.0
    """
    return float(np.mean(np.abs(_errors(predictions, actuals))))


def rating_errors_table(predictions, actuals) -> pd.DataFrame:
    """One row per prediction: prediction, actual, error, absolute error, squared error.

    Examples
    --------
    >>> rating_errors_table([3.5], [4.0])["squared_error"].tolist()
    [0.25]
    """
    errors = _errors(predictions, actuals)
    return pd.DataFrame(
        {
            "prediction": np.asarray(predictions, dtype=float),
            "actual": np.asarray(actuals, dtype=float),
            "error": errors,
            "absolute_error": np.abs(errors),
            "squared_error": errors**2,
        }
    )


def simulate_rating_models(
    n: int = 1000, *, noise: float = 0.5, outlier_share: float = 0.05, seed: int = 42
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The first seed document's three-model demo: ``{model: (predictions, actuals)}``.

    Actual ratings are drawn from 1..5 with the seed's probabilities. The naive model predicts
    the mean for everyone; the low-noise model adds N(0, ``noise``); the outlier-prone model adds
    N(0, 0.2) and, for a share ``outlier_share`` of the users, a miss of +-4 stars. The draws
    follow the seed's code, so ``seed=42`` with the defaults reproduces what that code computes
    (not the numbers it prints, which do not come from this code).
    """
    if not 0 <= outlier_share <= 1:
        raise ValueError(f"outlier_share must be in [0, 1], got {outlier_share!r}")
    if noise < 0:
        raise ValueError(f"noise must be >= 0, got {noise!r}")
    rng = np.random.RandomState(seed)
    actuals = rng.choice([1, 2, 3, 4, 5], size=n, p=[0.05, 0.10, 0.20, 0.35, 0.30]).astype(float)
    naive = np.full(n, actuals.mean())
    good = actuals + rng.normal(0, noise, n)
    outlier_prone = actuals + rng.normal(0, 0.2, n)
    mask = rng.random_sample(n) < outlier_share
    outlier_prone[mask] += rng.choice([-4, 4], mask.sum())
    return {
        "Naive (mean for everyone)": (naive, actuals),
        "Low-noise": (good, actuals),
        "Outlier-prone": (outlier_prone, actuals),
    }


def rating_models_summary(models) -> pd.DataFrame:
    """RMSE, MAE and MSE of each model: one row per model, in the order given.

    Parameters
    ----------
    models : mapping of str to (predictions, actuals)
        As returned by :func:`simulate_rating_models`.

    Returns
    -------
    pandas.DataFrame
        Columns ``model``, ``RMSE``, ``MAE``, ``MSE``.

    Raises
    ------
    ValueError
        If ``models`` is empty, or a model's inputs are invalid (see :func:`mse`).

    Examples
    --------
    >>> rating_models_summary({"m": ([3.0, 4.0, 5.0], [3.0, 4.0, 2.0])})[["RMSE", "MAE"]].round(4).values.tolist()
    [[1.7321, 1.0]]
    """
    if len(models) == 0:
        raise ValueError(f"models is empty, got {models!r}")
    return pd.DataFrame(
        [
            {"model": name, "RMSE": rmse(p, a), "MAE": mae(p, a), "MSE": mse(p, a)}
            for name, (p, a) in models.items()
        ]
    )


def outlier_sweep(shares, *, noise: float = 0.5, seed: int = 42, n: int = 1000) -> pd.DataFrame:
    """RMSE and MAE of the seed's outlier-prone model at each outlier share.

    Each share reruns :func:`simulate_rating_models` with the same ``seed``, so the curve shows
    the effect of the share alone.

    Parameters
    ----------
    shares : array-like of float in [0, 1]
        Shares of users who get a +-4-star miss.
    noise, seed, n
        Passed to :func:`simulate_rating_models`.

    Returns
    -------
    pandas.DataFrame
        Columns ``outlier_share``, ``RMSE``, ``MAE``; one row per share.

    Raises
    ------
    ValueError
        If ``shares`` is empty or a share is outside [0, 1].

    Examples
    --------
    >>> outlier_sweep([0.0, 0.05])[["RMSE", "MAE"]].round(4).values.tolist()
    [[0.194, 0.155], [0.9009, 0.3417]]
    """
    shares = as_finite_array(shares, "shares")
    rows = []
    for share in shares:
        predictions, actuals = simulate_rating_models(
            n, noise=noise, outlier_share=float(share), seed=seed)["Outlier-prone"]
        rows.append({"outlier_share": float(share), "RMSE": rmse(predictions, actuals),
                     "MAE": mae(predictions, actuals)})
    return pd.DataFrame(rows)
