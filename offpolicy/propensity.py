r"""Top-K metrics on logged interactions with a popularity propensity: what a model's recall and NDCG would be
if every item had been as likely to be observed, and the same metrics per propensity stratum.

The propensity (Yang et al., RecSys 2018: an item's chance of being observed follows a power of its popularity)
    p(i) = (count(i) / max count)^γ over the training interactions, so the most popular item has p = 1. The
    exponent is fitted as Cornac's ``PropensityStratifiedEvaluation`` fits it: γ is the power-law exponent α
    of the items' training counts, here by maximum likelihood in closed form (Clauset, Shalizi and Newman
    2009, the continuous estimator), α = 1 + n / Σ ln(count(i) / x_min) with x_min the smallest count
    (ML-100K: α ≈ 1.33). :func:`fit_power_law` is checked against scipy's Pareto fit in the tests. Give
    ``gamma`` to choose the exponent yourself.

The weighted metrics, per test user u with held-out items R_u, top-K list T_u and weights w(i) = 1 / p(i)
    - naive: Recall@K = |R_u ∩ T_u| / |R_u|; NDCG@K = Σ_{i ∈ R_u ∩ T_u} 1/log2(1 + rank(i)) / IDCG(|R_u|, K).
    - IPS: each hit counts w(i) / w̄, w̄ the mean weight over the *training* interactions (the weights' scale
      taken from the observed distribution, as the propensity's absolute scale is unknown).
    - SNIPS: each hit counts w(i) / (Σ_{R_u} w / |R_u|): the user's own held-out items set the scale, so the
      weighted Recall@K stays within [0, 1] (Cornac's self-normalised form).
    Means over the test users. Test rows whose item never appears in training have no propensity: they are left
    out of the weighted metrics and counted (``cold_item_rows``).

Strata (Jadidinejad, Macdonald and Ounis, TOIS 2021; Cornac)
    The test rows are cut into ``n_strata`` equal-width bins of their propensity (Cornac's ``np.digitize`` over
    [min, max]); each stratum's naive metrics are computed on its rows alone, with its row and user counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


def fit_power_law(counts) -> float:
    """The power-law exponent α of positive counts by the continuous maximum-likelihood estimator,
    1 + n / Σ ln(x / x_min), x_min the smallest count.

    Examples
    --------
    >>> round(fit_power_law([1, 1, 2, 4]), 4)
    2.9236
    """
    x = np.asarray(counts, dtype=float)
    x = x[x > 0]
    logs = np.log(x / x.min())
    if x.size < 2 or logs.sum() == 0:
        raise ValueError("a power law needs at least two different positive counts")
    return float(1 + x.size / logs.sum())


def popularity_propensity(train: pd.DataFrame, gamma: float | None = None) -> tuple[pd.Series, float]:
    """Each training item's propensity (indexed by item) and the exponent used (fitted unless ``gamma``).

    Examples
    --------
    >>> p, g = popularity_propensity(pd.DataFrame({"item": ["a", "a", "a", "a", "b"]}), gamma=0.5)
    >>> p.to_dict(), g
    ({'a': 1.0, 'b': 0.5}, 0.5)
    """
    counts = train["item"].value_counts()
    exponent = fit_power_law(counts.to_numpy()) if gamma is None else float(gamma)
    return (counts / counts.max()) ** exponent, exponent


def strata_of(propensity: np.ndarray, n_strata: int) -> np.ndarray:
    """Each propensity's stratum 1..n_strata, equal-width bins over [min, max] (Cornac's cut; the maximum
    falls in the last stratum).

    Examples
    --------
    >>> strata_of(np.array([0.1, 0.2, 0.6, 1.0]), 2).tolist()
    [1, 1, 2, 2]
    """
    low, high = float(propensity.min()), float(propensity.max())
    if high == low:
        return np.ones(len(propensity), dtype=int)
    edges = np.linspace(low, high, n_strata + 1)[1:-1]
    return np.digitize(propensity, edges, right=False) + 1


def _ideal_dcg(n_relevant: np.ndarray, k: int) -> np.ndarray:
    discounts = np.concatenate([[0.0], np.cumsum(1.0 / np.log2(np.arange(2, k + 2)))])
    return discounts[np.minimum(n_relevant, k)]


def weighted_metrics(test: pd.DataFrame, recommendations: pd.DataFrame, propensity: pd.Series, k: int,
                     mean_train_weight: float) -> pd.Series:
    """Naive, IPS and SNIPS Recall@K and NDCG@K (see the module) of one model's ``recommendations``
    (user, item, rank) against the held-out ``test`` rows (user, item) whose item has a propensity.

    Examples
    --------
    >>> test = pd.DataFrame({"user": [1, 1], "item": ["a", "b"]})
    >>> recs = pd.DataFrame({"user": [1], "item": ["b"], "rank": [1]})
    >>> weighted_metrics(test, recs, pd.Series({"a": 1.0, "b": 0.25}), 1, 1.0).round(3).to_dict()
    {'recall': 0.5, 'ndcg': 1.0, 'ips_recall': 2.0, 'ips_ndcg': 4.0, 'snips_recall': 0.8, 'snips_ndcg': 1.6}
    """
    pairs = test[["user", "item"]].drop_duplicates()
    ranked = pairs.merge(recommendations[recommendations["rank"] <= k][["user", "item", "rank"]],
                         on=["user", "item"], how="left")
    hit = ranked["rank"].notna().to_numpy()
    discount = np.where(hit, 1.0 / np.log2(1 + ranked["rank"].fillna(1).to_numpy()), 0.0)
    weight = 1.0 / propensity.reindex(ranked["item"]).to_numpy()
    frame = pd.DataFrame({"user": ranked["user"].to_numpy(), "hit": hit.astype(float), "discount": discount,
                          "weight": weight, "w_hit": weight * hit, "w_discount": weight * discount})
    per_user = frame.groupby("user").agg(n=("hit", "size"), hits=("hit", "sum"), dcg=("discount", "sum"),
                                         weights=("weight", "sum"), w_hits=("w_hit", "sum"),
                                         w_dcg=("w_discount", "sum"))
    ideal = _ideal_dcg(per_user["n"].to_numpy(), k)
    user_mean_weight = per_user["weights"] / per_user["n"]
    values = {
        "recall": per_user["hits"] / per_user["n"],
        "ndcg": per_user["dcg"] / ideal,
        "ips_recall": per_user["w_hits"] / (per_user["n"] * mean_train_weight),
        "ips_ndcg": per_user["w_dcg"] / (ideal * mean_train_weight),
        "snips_recall": per_user["w_hits"] / per_user["weights"],
        "snips_ndcg": per_user["w_dcg"] / (ideal * user_mean_weight),
    }
    return pd.Series({name: float(column.mean()) for name, column in values.items()})


@dataclass
class Result:
    metrics: pd.DataFrame
    """Models x (recall, ndcg, ips_recall, ips_ndcg, snips_recall, snips_ndcg) at K."""
    strata: pd.DataFrame
    """One row per model and stratum: the stratum's propensity range, rows, users, naive recall and ndcg."""
    gamma: float
    counts: dict


def evaluate(frame: pd.DataFrame, model_names=("pop", "itemknn", "ease"), *, split: str = "random",
             k: int = 10, gamma: float | None = None, n_strata: int = 2, seed: int = 0,
             test_fraction: float = 0.2) -> Result:
    """The protocol lab's ``split`` of ``frame``, each model of :mod:`protocols.models` trained on it and
    ranked on the full catalogue (:func:`protocols.evaluation.top_k`), scored naive, IPS and SNIPS, and per
    propensity stratum."""
    from protocols import evaluation, models, splits

    held = splits.split(frame, split, test_fraction=test_fraction, seed=seed)
    encoded = evaluation.Encoded.of(held.train, held.test)
    seen = models.interaction_matrix(encoded.train_users, encoded.train_items, *encoded.shape)
    propensity, exponent = popularity_propensity(held.train, gamma)
    known = held.test["item"].isin(propensity.index).to_numpy()
    test = held.test[known]
    mean_train_weight = float((1.0 / propensity.reindex(held.train["item"])).mean())
    test_propensity = propensity.reindex(test["item"]).to_numpy()
    stratum = strata_of(test_propensity, n_strata)
    rows, strata_rows = {}, []
    for name in model_names:
        extra = {"seed": seed} if name in ("random", "mf") else {}
        model = models.make(name, **extra).fit(seen)
        recommendations = evaluation.top_k(model, encoded, k)
        rows[name] = weighted_metrics(test, recommendations, propensity, k, mean_train_weight)
        for s in range(1, n_strata + 1):
            part = test[stratum == s]
            if part.empty:
                continue
            naive = weighted_metrics(part, recommendations, propensity, k, mean_train_weight)
            strata_rows.append({"model": name, "stratum": s, "propensity_low": float(test_propensity[stratum == s].min()),
                                "propensity_high": float(test_propensity[stratum == s].max()), "rows": len(part),
                                "users": int(part["user"].nunique()), "recall": naive["recall"], "ndcg": naive["ndcg"]})
    counts = {"train": len(held.train), "test": len(held.test), "cold_item_rows": int((~known).sum())}
    return Result(pd.DataFrame(rows).T.rename_axis("model"), pd.DataFrame(strata_rows), exponent, counts)
