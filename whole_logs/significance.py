"""Is model B really better than model A? Paired tests, intervals and effect sizes over users.

The inputs are two per-user tables as :func:`whole_logs.batch.evaluate` returns them: one row per
user (the index), one column per metric. Every comparison is *paired*: user u's score under A is
compared with the same user's score under B, so the spread between users (some users are easy,
some hard) does not hide the difference between the models.

The distributions come from ``scipy.stats``; what is written here is the resampling (bootstrap
and sign-flip randomisation, vectorised over all metrics at once) and the bookkeeping.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import special  # scipy.stats takes seconds to import: only the Wilcoxon test loads it

from metrics._validation import check_choice
from metrics.errors import DataError

TESTS = ("paired_t", "wilcoxon", "permutation")
CORRECTIONS = ("holm", "bonferroni", "none")
COLUMNS = ("mean_a", "mean_b", "delta", "ci_low", "ci_high", "p_value", "p_adjusted",
           "effect_size", "wins", "ties", "losses")

_CHUNK = 64  # resamples drawn at once: 64 x 100,000 users of float64 is 51 MB


def paired_differences(per_user_a: pd.DataFrame, per_user_b: pd.DataFrame) -> pd.DataFrame:
    """B minus A for every user and metric, users matched by the index.

    Raises ``ValueError`` when the tables do not describe the same users and metrics, or hold
    a missing value, naming how many users or which columns differ.

    Examples
    --------
    >>> a = pd.DataFrame({"ndcg@10": [0.5, 0.25]}, index=pd.Index(["u1", "u2"], name="user"))
    >>> b = pd.DataFrame({"ndcg@10": [0.75, 0.25]}, index=pd.Index(["u2", "u1"], name="user"))
    >>> paired_differences(a, b)["ndcg@10"].tolist()
    [-0.25, 0.5]
    """
    for name, table in (("per_user_a", per_user_a), ("per_user_b", per_user_b)):
        if not isinstance(table, pd.DataFrame):
            raise ValueError(f"{name} must be a pandas DataFrame of per-user metrics, got {type(table).__name__}")
        if table.index.has_duplicates:
            first = table.index[table.index.duplicated()][0]
            raise DataError("user_twice", f"{name} lists user {first!r} more than once", table=name, user=repr(first))
    only_a = per_user_a.index.difference(per_user_b.index)
    only_b = per_user_b.index.difference(per_user_a.index)
    if len(only_a) or len(only_b):
        sides = [f"{len(only)} users are only in {side} (first: {', '.join(map(str, only[:3]))})"
                 for side, only in (("A", only_a), ("B", only_b)) if len(only)]
        raise DataError("different_users", "the two tables must hold the same users: " + " and ".join(sides),
                        only={side: (len(only), [str(u) for u in only[:3]])
                              for side, only in (("A", only_a), ("B", only_b)) if len(only)})
    if list(per_user_a.columns) != list(per_user_b.columns):
        missing = [c for c in per_user_a.columns if c not in per_user_b.columns]
        extra = [c for c in per_user_b.columns if c not in per_user_a.columns]
        raise ValueError(f"the two tables must have the same metric columns: only in A {missing}, only in B {extra}")
    if len(per_user_a) < 2:
        raise DataError("too_few_users", f"a paired comparison needs at least 2 users, got {len(per_user_a)}",
                        users=len(per_user_a))
    a = per_user_a.astype(float)
    b = per_user_b.astype(float).loc[a.index]
    for name, table in (("per_user_a", a), ("per_user_b", b)):
        missing = table.isna().to_numpy()
        if missing.any():
            row, column = np.argwhere(missing)[0]
            raise DataError("no_value", f"{name} has no value for user {table.index[row]!r} in column "
                            f"{table.columns[column]!r}", table=name, user=repr(table.index[row]),
                            column=str(table.columns[column]))
    return b - a


class MetricDifference(NamedTuple):
    """Each user's difference B - A on one metric, how many users there are and how much the differences spread."""

    per_user: pd.Series
    users: int
    sd: float  # the sample standard deviation (n - 1) of the per-user differences


def metric_difference(per_user_a: pd.DataFrame, per_user_b: pd.DataFrame, metric: str) -> MetricDifference:
    """B - A on ``metric`` for every user (:func:`paired_differences`), their number and standard deviation.

    >>> users = pd.Index(["u1", "u2", "u3"], name="user")
    >>> found = metric_difference(pd.DataFrame({"m": [0.0, 0.5, 1.0]}, index=users),
    ...                           pd.DataFrame({"m": [0.5, 0.5, 0.0]}, index=users), "m")
    >>> found.per_user.tolist(), found.users, round(found.sd, 4)
    ([0.5, 0.0, -1.0], 3, 0.7638)
    """
    differences = paired_differences(per_user_a[[metric]], per_user_b[[metric]])[metric]
    return MetricDifference(differences, len(differences), float(differences.std(ddof=1)))


def compare(per_user_a: pd.DataFrame, per_user_b: pd.DataFrame, *, test: str = "paired_t",
            confidence: float = 0.95, n_resamples: int = 10_000, seed: int = 0,
            correction: str = "holm") -> pd.DataFrame:
    r"""One row per metric: both means, the paired difference, its interval, test and effect size.

    Parameters
    ----------
    per_user_a, per_user_b : DataFrame
        Per-user metrics (index = user, one column per metric), as :func:`whole_logs.batch.evaluate`
        returns them. The users must be the same in both; the order does not matter.
    test : {"paired_t", "wilcoxon", "permutation"}
        ``"paired_t"``: Student's paired t-test (``scipy.stats.ttest_rel``). ``"wilcoxon"``: the
        signed-rank test (``scipy.stats.wilcoxon``, zero differences dropped). ``"permutation"``:
        paired sign-flip randomisation of the mean difference (Fisher's randomisation test, as
        ranx's ``"fisher"``), exact when 2^n <= ``n_resamples``; its p-value is computed as
        ``scipy.stats.permutation_test`` computes it.
    confidence : float
        Level of the bootstrap percentile interval of the mean paired difference.
    n_resamples : int
        Bootstrap resamples, and sign flips for the permutation test.
    seed : int
        Seed of every random draw: the same inputs and seed give the same table.
    correction : {"holm", "bonferroni", "none"}
        Multiple-testing correction over the metrics compared (the rows of the result).

    Returns
    -------
    DataFrame indexed by metric with columns ``mean_a``, ``mean_b``, ``delta`` (B - A),
    ``ci_low``, ``ci_high``, ``p_value``, ``p_adjusted``, ``effect_size`` (paired Cohen's d:
    mean difference / standard deviation of the differences), ``wins`` (users where B scores
    higher), ``ties`` and ``losses`` (users where A scores higher).

    Notes
    -----
    A metric on which every user has the same score under A and B has p-value 1 (no evidence of
    any difference) and effect size 0, where scipy would return nan.

    Examples
    --------
    >>> users = pd.Index([f"u{i}" for i in range(6)], name="user")
    >>> a = pd.DataFrame({"ndcg@10": [0.2, 0.4, 0.1, 0.5, 0.3, 0.6]}, index=users)
    >>> b = a.assign(**{"ndcg@10": a["ndcg@10"] + [0.1, 0.2, 0.0, 0.1, 0.2, 0.1]})
    >>> row = compare(a, b, n_resamples=2000).loc["ndcg@10"]
    >>> round(float(row["delta"]), 4), int(row["wins"]), int(row["ties"]), round(float(row["p_value"]), 4)
    (0.1167, 5, 1, 0.0127)
    """
    check_choice(test, "test", TESTS)
    check_choice(correction, "correction", CORRECTIONS)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer, got {n_resamples!r}")
    differences = paired_differences(per_user_a, per_user_b)
    d = differences.to_numpy(dtype=float)
    a = per_user_a.loc[differences.index].to_numpy(dtype=float)
    bootstrap_seed, permutation_seed = np.random.SeedSequence(seed).spawn(2)
    boot = bootstrap_means(d, n_resamples, bootstrap_seed)
    tail = (1 - confidence) / 2
    p_values = _p_values(d, test, n_resamples, np.random.default_rng(permutation_seed))
    table = pd.DataFrame({
        "mean_a": a.mean(axis=0),
        "mean_b": (a + d).mean(axis=0),
        "delta": d.mean(axis=0),
        "ci_low": np.quantile(boot, tail, axis=0),
        "ci_high": np.quantile(boot, 1 - tail, axis=0),
        "p_value": p_values,
        "p_adjusted": adjust(p_values, correction),
        "effect_size": cohens_d(d),
        "wins": (d > 0).sum(axis=0),
        "ties": (d == 0).sum(axis=0),
        "losses": (d < 0).sum(axis=0),
    }, index=pd.Index(differences.columns, name="metric"))
    return table


def cohens_d(differences: np.ndarray) -> np.ndarray:
    """Paired Cohen's d (often written d_z): mean of the differences over their standard deviation.

    0 where every difference is the same (no spread, nothing to scale by).

    >>> cohens_d(np.array([[1.0], [2.0], [3.0]])).tolist()
    [2.0]
    """
    d = np.atleast_2d(np.asarray(differences, dtype=float).T).T
    spread = d.std(axis=0, ddof=1)
    mean = d.mean(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(spread > 0, mean / np.where(spread > 0, spread, 1.0), 0.0)


def _constant(d: np.ndarray) -> np.ndarray:
    """The columns whose differences are all equal to the first one (no variation at all)."""
    return (d == d[:1]).all(axis=0)


def _p_values(d: np.ndarray, test: str, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    p = np.ones(d.shape[1])
    constant = _constant(d)
    varying = ~constant
    if test == "permutation":
        p = sign_flip_p_values(d, n_resamples, rng)
        return p
    if varying.any():
        columns = d[:, varying]
        if test == "paired_t":
            p[varying] = _paired_t_p_values(columns)
        else:
            from scipy import stats

            p[varying] = [stats.wilcoxon(column).pvalue if np.any(column != 0) else 1.0 for column in columns.T]
    # Constant but non-zero differences (every user moved by the same amount): the t statistic is
    # infinite and the signed-rank test maximal, so the evidence is as strong as n allows.
    shifted = constant & (d[0] != 0)
    if shifted.any():
        n = d.shape[0]
        if test == "paired_t":
            p[shifted] = 0.0
        else:
            from scipy import stats

            p[shifted] = stats.wilcoxon(np.ones(n)).pvalue
    return p


def _paired_t_p_values(d: np.ndarray) -> np.ndarray:
    """Two-sided p-values of Student's paired t-test of each column's mean against 0: what
    ``scipy.stats.ttest_rel`` returns (the tests check it), from the t distribution's CDF."""
    n = d.shape[0]
    t = d.mean(axis=0) / (d.std(axis=0, ddof=1) / math.sqrt(n))
    return 2 * special.stdtr(n - 1, -np.abs(t))


def bootstrap_means(d: np.ndarray, n_resamples: int, seed: np.random.SeedSequence | int = 0) -> np.ndarray:
    """Means of ``n_resamples`` bootstrap resamples of the rows of ``d`` (users), every column at once.

    Each resample draws n users with replacement; the same draw serves every metric, so the
    intervals of different metrics come from the same resampled populations. The draws are
    counted per user, one resample at a time (a ``bincount`` over n counters stays in the CPU's
    cache; one over a whole chunk's did not, and took twice as long), and the means taken as one
    matrix product per chunk.
    Chunks are spread over two threads, each chunk with its own generator spawned from ``seed``,
    so the result depends only on the seed.
    """
    n = d.shape[0]
    chunks = [(start, min(_CHUNK, n_resamples - start)) for start in range(0, n_resamples, _CHUNK)]
    seed = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    generators = [np.random.Generator(np.random.SFC64(s)) for s in seed.spawn(len(chunks))]
    out = np.empty((n_resamples, d.shape[1]))

    def resample(job: int) -> None:
        start, size = chunks[job]
        draws = generators[job].integers(0, n, size=(size, n), dtype=np.uint32)
        counts = np.empty((size, n))
        for row, drawn in enumerate(draws):
            counts[row] = np.bincount(drawn, minlength=n)
        out[start:start + size] = (counts @ d) / n

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(resample, range(len(chunks))))
    return out


def sign_flip_p_values(d: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Two-sided p-value of the mean paired difference under random sign flips, per column.

    Under the null hypothesis that A and B are exchangeable for every user, each difference is
    as likely to be positive as negative. With 2^n <= ``n_resamples`` every sign pattern is
    enumerated (exact test); otherwise ``n_resamples`` random patterns are drawn. The p-value
    follows ``scipy.stats.permutation_test``: the smaller tail share (the observed value
    included, counted with a relative tolerance of 100 machine epsilons; one added to numerator
    and denominator when sampling), doubled, at most 1.
    """
    n, m = d.shape
    observed = d.mean(axis=0)
    exact = n < 63 and 2 ** n <= n_resamples
    if exact:
        patterns = ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1).astype(float)
        null = (d.sum(axis=0) - 2 * (patterns @ d)) / n
        adjustment = 0
    else:
        null = np.empty((n_resamples, m))
        for start in range(0, n_resamples, _CHUNK):
            size = min(_CHUNK, n_resamples - start)
            bits = np.unpackbits(rng.integers(0, 256, size=(size, (n + 7) // 8), dtype=np.uint8), axis=1, count=n)
            null[start:start + size] = (d.sum(axis=0) - 2 * (bits.astype(float) @ d)) / n
        adjustment = 1
    gamma = np.abs(np.finfo(float).eps * 100 * observed)
    count = len(null)
    less = ((null <= observed + gamma).sum(axis=0) + adjustment) / (count + adjustment)
    greater = ((null >= observed - gamma).sum(axis=0) + adjustment) / (count + adjustment)
    return np.minimum(1.0, 2 * np.minimum(less, greater))


def adjust(p_values, correction: str = "holm") -> np.ndarray:
    """p-values corrected for testing several metrics at once.

    ``"bonferroni"`` multiplies each by the number of tests m; ``"holm"`` (step-down) multiplies
    the i-th smallest by m - i + 1 and keeps the sequence non-decreasing; both are capped at 1.
    nan p-values are left out of m and stay nan.

    >>> adjust([0.01, 0.04, 0.03], "holm").round(4).tolist()
    [0.03, 0.06, 0.06]
    >>> adjust([0.01, 0.04, 0.03], "bonferroni").round(4).tolist()
    [0.03, 0.12, 0.09]
    """
    check_choice(correction, "correction", CORRECTIONS)
    p = np.asarray(p_values, dtype=float)
    out = p.copy()
    known = np.flatnonzero(~np.isnan(p))
    m = len(known)
    if correction == "none" or m == 0:
        return out
    if correction == "bonferroni":
        out[known] = np.minimum(1.0, p[known] * m)
        return out
    order = known[np.argsort(p[known], kind="stable")]
    stepped = np.maximum.accumulate(p[order] * (m - np.arange(m)))
    out[order] = np.minimum(1.0, stepped)
    return out


def users_needed(per_user_a: pd.DataFrame, per_user_b: pd.DataFrame, metric: str, *, delta: float,
                 alpha: float = 0.05, power: float = 0.8) -> int:
    r"""How many users a two-sided paired t-test needs to detect a mean difference ``delta``.

    The spread of the per-user differences is the one observed between the two tables. The
    power of the test with n users is that of the noncentral t distribution with n - 1 degrees
    of freedom and noncentrality :math:`\delta\sqrt{n}/s` (``scipy.stats.nct``); the answer is
    the smallest n reaching ``power``.

    Examples
    --------
    >>> users = pd.Index(range(4), name="user")
    >>> a = pd.DataFrame({"ndcg@10": [0.0, 0.0, 0.0, 0.0]}, index=users)
    >>> b = pd.DataFrame({"ndcg@10": [0.1, -0.1, 0.2, 0.0]}, index=users)
    >>> users_needed(a, b, "ndcg@10", delta=0.05)
    55
    """
    if metric not in per_user_a.columns:
        raise ValueError(f"metric {metric!r} is not a column of the tables: {list(per_user_a.columns)}")
    if not (isinstance(delta, (int, float)) and math.isfinite(delta) and delta != 0):
        raise ValueError(f"delta must be a non-zero number, got {delta!r}")
    for name, value in (("alpha", alpha), ("power", power)):
        if not 0 < value < 1:
            raise ValueError(f"{name} must be between 0 and 1, got {value!r}")
    spread = metric_difference(per_user_a, per_user_b, metric).sd
    if spread == 0:
        return 2
    effect = abs(delta) / spread

    def achieved(n: int) -> float:
        df = n - 1
        critical = special.stdtrit(df, 1 - alpha / 2)  # scipy.stats.t.ppf
        noncentrality = effect * math.sqrt(n)  # below: scipy.stats.nct.sf(critical) + nct.cdf(-critical)
        return 1 - special.nctdtr(df, noncentrality, critical) + special.nctdtr(df, noncentrality, -critical)

    low, high = 2, 4
    while achieved(high) < power:
        low, high = high, high * 2
    while low < high:
        middle = (low + high) // 2
        if achieved(middle) >= power:
            high = middle
        else:
            low = middle + 1
    return high


def observed_target(delta: float) -> float:
    """The smallest difference worth detecting to start from: the observed one as the table shows it (4 decimals),
    and at least 0.001, since no number of users tells a difference of 0 apart.

    >>> observed_target(-0.01234), observed_target(0.00004)
    (0.0123, 0.001)
    """
    return max(round(abs(float(delta)), 4), 0.001)


def winners(table: pd.DataFrame, *, alpha: float = 0.05) -> pd.Series:
    """Per metric of :func:`compare`'s table: "B better" or "A better" where the adjusted p-value is
    below ``alpha`` (by the sign of the mean difference), else "no clear difference".

    >>> winners(pd.DataFrame({"p_adjusted": [0.01, 0.01, 0.2], "delta": [0.1, -0.1, 0.3]}, index=["p", "r", "n"])).tolist()
    ['B better', 'A better', 'no clear difference']
    """
    clear = table["p_adjusted"].to_numpy() < alpha
    delta = table["delta"].to_numpy()
    return pd.Series(np.where(clear & (delta > 0), "B better", np.where(clear & (delta < 0), "A better",
                                                                        "no clear difference")),
                     index=table.index, name="verdict")


def verdict(metric: str, row: pd.Series, *, alpha: float = 0.05, confidence: float = 0.95) -> str:
    """One sentence on a row of :func:`compare`, written from its numbers.

    >>> row = pd.Series({"delta": 0.012, "ci_low": 0.004, "ci_high": 0.02, "p_adjusted": 0.003,
    ...                  "effect_size": 0.09, "wins": 420, "ties": 100, "losses": 380})
    >>> verdict("ndcg@10", row)
    'B is better on ndcg@10 by 0.0120 (95% interval 0.0040 to 0.0200, adjusted p = 0.003): a negligible effect (d = 0.09); B wins for 420 users, loses for 380.'
    """
    size = abs(row["effect_size"])
    magnitude = "negligible" if size < 0.2 else "small" if size < 0.5 else "medium" if size < 0.8 else "large"
    interval = f"{confidence:.0%} interval {row['ci_low']:.4f} to {row['ci_high']:.4f}, adjusted p = {row['p_adjusted']:.3g}"
    if row["p_adjusted"] < alpha and row["delta"] != 0:
        better = "B" if row["delta"] > 0 else "A"
        return (f"{better} is better on {metric} by {abs(row['delta']):.4f} ({interval}): a {magnitude} effect "
                f"(d = {row['effect_size']:.2f}); B wins for {int(row['wins'])} users, loses for {int(row['losses'])}.")
    return (f"No clear difference on {metric}: {row['delta']:+.4f} ({interval}); the data are compatible with no "
            f"difference at all{'' if row['ci_low'] <= 0 <= row['ci_high'] else ' after correcting for the metrics compared'}.")


def difference_by_group(per_user_a: pd.DataFrame, per_user_b: pd.DataFrame, metric: str, groups: pd.Series) -> pd.DataFrame:
    """Where the mean difference on ``metric`` comes from: one row per group of users.

    ``groups`` maps each user (index) to a group label. ``contribution`` is the group's share of
    users times its mean difference, so the contributions add up to the overall mean difference
    (a waterfall). Users without a group are put in the group ``"other"``.

    >>> users = pd.Index(["a", "b", "c", "d"], name="user")
    >>> a = pd.DataFrame({"m": [0.0, 0.0, 0.0, 0.0]}, index=users)
    >>> b = pd.DataFrame({"m": [0.4, 0.0, 0.2, 0.2]}, index=users)
    >>> difference_by_group(a, b, "m", pd.Series({"a": "few", "b": "few", "c": "many", "d": "many"}))
    ... # doctest: +NORMALIZE_WHITESPACE
           users  mean_delta  contribution
    group
    few        2         0.2           0.1
    many       2         0.2           0.1
    """
    d = paired_differences(per_user_a[[metric]], per_user_b[[metric]])[metric]
    labels = groups.reindex(d.index).astype(object).where(lambda g: g.notna(), "other")  # users without a group
    order = groups.cat.categories if isinstance(groups.dtype, pd.CategoricalDtype) else sorted(labels.unique(), key=str)
    labels = pd.Categorical(labels, categories=[*order, *(["other"] if "other" not in order and (labels == "other").any() else [])])
    grouped = pd.Series(d.to_numpy(), index=d.index).groupby(pd.Series(labels, index=d.index, name="group"), observed=True)
    table = pd.DataFrame({"users": grouped.size(), "mean_delta": grouped.mean()})
    table["contribution"] = table["users"] / len(d) * table["mean_delta"]
    return table


def activity_groups(ground_truth: pd.DataFrame) -> pd.Series:
    """Each user's number of relevant items (grade > 0), in bins: "1", "2", "3-4", "5-9", "10+"."""
    relevant = ground_truth[ground_truth["relevance"] > 0] if "relevance" in ground_truth.columns else ground_truth
    counts = relevant.groupby("user").size()
    bins = pd.cut(counts, bins=[0, 1, 2, 4, 9, np.inf], labels=["1", "2", "3-4", "5-9", "10+"])
    return bins.rename("relevant items")


def popularity_groups(ground_truth: pd.DataFrame) -> pd.Series:
    """Each user's relevant items by popularity: the mean, over the user's relevant items, of how
    many users find that item relevant; split into thirds of users ("niche", "middle", "popular")."""
    relevant = ground_truth[ground_truth["relevance"] > 0] if "relevance" in ground_truth.columns else ground_truth
    popularity = relevant["item"].map(relevant["item"].value_counts())
    per_user = popularity.groupby(relevant["user"]).mean()
    ranks = per_user.rank(method="first")
    thirds = pd.cut(ranks, bins=[0, len(ranks) / 3, 2 * len(ranks) / 3, np.inf], labels=["niche", "middle", "popular"])
    return thirds.rename("popularity of relevant items")


def users_without_recommendations(recommendations_a: pd.DataFrame, recommendations_b: pd.DataFrame,
                                  ground_truth: pd.DataFrame) -> dict[str, int]:
    """For each model, how many users of the ground truth it recommends nothing to.

    Such users score 0 for that model (see :func:`whole_logs.batch.evaluate`), so a model that
    skipped users looks worse for a reason that is not the quality of its lists: worth saying.

    >>> truth = pd.DataFrame({"user": [1, 2, 3], "item": [9, 9, 9]})
    >>> users_without_recommendations(pd.DataFrame({"user": [1, 2, 3]}), pd.DataFrame({"user": [1]}), truth)
    {'A': 0, 'B': 2}
    """
    judged = pd.Index(ground_truth["user"].unique())
    return {name: int((~judged.isin(recs["user"].unique())).sum())
            for name, recs in (("A", recommendations_a), ("B", recommendations_b))}
