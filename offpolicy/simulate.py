r"""Logged bandit feedback whose truth is known exactly: a hidden click model, a logger and a target policy.

The world (:class:`World`)
    Each user (context) x sees a candidate set of C items (default 50, drawn uniformly from the catalogue per
    user, the same for every log). The hidden true click probability of item a for user x is a fitted model's
    score through a logistic link, q(x, a) = 1 / (1 + exp(-(scale · z(x, a) + offset))), where z is the score's
    normal score within the user's candidates, Φ⁻¹((rank - 1/2) / C) with rank 1 the lowest (equal scores share
    their mean rank): between -2.3 and 2.3 for C = 50 whatever the model's scale or skew, so the link's
    ``scale`` (default 1.5) and ``offset`` (default -3: a click rate of a few per cent, as in display logs,
    and about 0.62 for a user's best candidate) mean the same for every model.
    Contexts are drawn uniformly: p(x) = 1 / number of users.

Policies (rows: users, columns: candidates, each row sums to 1)
    :func:`softmax` of a model's standardised scores at a temperature (high: nearly uniform; low: nearly
    greedy), :func:`epsilon_greedy` (the top item with 1 - ε, and ε spread evenly), :func:`uniform`,
    :func:`top1` (deterministic).

The truth
    :func:`true_value` is V(π) = Σ_x p(x) Σ_a π(a|x) q(x, a), computed from the hidden model, never estimated.

Logs
    :func:`draw_logs` draws many logs of n rounds at once: contexts uniformly, the logger's action by Walker's
    alias method (a candidate drawn uniformly, kept with its table's probability, else its alias: two draws and
    a look-up per round, exact; the tables are built once per logger, :func:`alias_tables`), the click as
    Bernoulli(q); no Python loop per round. (A ``searchsorted`` over every user's cumulative distribution laid
    end to end was the first version: exact too, but three quarters of the time of 1,000 logs of 10,000 rounds.)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from scipy import stats

from offpolicy import estimators

SCALE = 1.5
OFFSET = -3.0
CANDIDATES = 50


def standardised(scores: np.ndarray) -> np.ndarray:
    """Each row's normal scores, Φ⁻¹((rank - 1/2) / C), equal scores sharing their mean rank: only the order
    within a user counts, so every model's scores land on the same scale.

    Examples
    --------
    >>> standardised(np.array([[1.0, 2.0, 3.0], [5.0, 5.0, 5.0]])).round(3).tolist()
    [[-0.967, 0.0, 0.967], [0.0, 0.0, 0.0]]
    """
    scores = np.asarray(scores, dtype=float)
    ranks = stats.rankdata(scores, method="average", axis=1)
    return stats.norm.ppf((ranks - 0.5) / scores.shape[1])


def click_model(scores: np.ndarray, scale: float = SCALE, offset: float = OFFSET) -> np.ndarray:
    """The true click probability: the logistic of ``scale`` · standardised score + ``offset``.

    Examples
    --------
    >>> click_model(np.array([[0.0, 1.0]]), scale=1.0, offset=0.0).round(3).tolist()
    [[0.337, 0.663]]
    """
    return 1.0 / (1.0 + np.exp(-(scale * standardised(scores) + offset)))


def softmax(scores: np.ndarray, temperature: float) -> np.ndarray:
    """π(a|x) ∝ exp(z(x, a) / temperature) over the normal scores (:func:`standardised`).

    Examples
    --------
    >>> softmax(np.array([[0.0, 1.0]]), temperature=1e9).round(3).tolist()
    [[0.5, 0.5]]
    """
    if not temperature > 0:
        raise ValueError(f"the temperature must be positive, got {temperature!r}")
    logits = standardised(scores) / temperature
    logits -= logits.max(axis=1, keepdims=True)
    weights = np.exp(logits)
    return weights / weights.sum(axis=1, keepdims=True)


def _best(scores: np.ndarray) -> np.ndarray:
    return np.argmax(scores, axis=1)  # ties: the first candidate


def top1(scores: np.ndarray) -> np.ndarray:
    """The deterministic policy choosing each user's highest score (ties: the first candidate).

    Examples
    --------
    >>> top1(np.array([[0.1, 0.9, 0.2]])).tolist()
    [[0.0, 1.0, 0.0]]
    """
    policy = np.zeros(scores.shape)
    policy[np.arange(len(scores)), _best(scores)] = 1.0
    return policy


def epsilon_greedy(scores: np.ndarray, epsilon: float) -> np.ndarray:
    """The top item with probability 1 - ε, plus ε spread evenly over every candidate.

    Examples
    --------
    >>> epsilon_greedy(np.array([[0.1, 0.9]]), epsilon=0.2).tolist()
    [[0.1, 0.9]]
    """
    if not 0 <= epsilon <= 1:
        raise ValueError(f"epsilon must be between 0 and 1, got {epsilon!r}")
    return (1 - epsilon) * top1(scores) + epsilon / scores.shape[1]


def uniform(shape: tuple[int, int]) -> np.ndarray:
    """Every candidate equally likely."""
    return np.full(shape, 1.0 / shape[1])


def true_value(world_or_q, target: np.ndarray, context_weights: np.ndarray | None = None) -> float:
    """V(π) = Σ_x p(x) Σ_a π(a|x) q(x, a), exactly (p(x) uniform unless given).

    Examples
    --------
    >>> true_value(np.array([[0.1, 0.5], [0.2, 0.4]]), np.array([[0.0, 1.0], [1.0, 0.0]]))
    0.35
    """
    q = world_or_q.q if isinstance(world_or_q, World) else np.asarray(world_or_q, dtype=float)
    per_context = (np.asarray(target) * q).sum(axis=1)
    if context_weights is None:
        return float(per_context.mean())
    return float(np.dot(context_weights, per_context))


@dataclass(frozen=True)
class World:
    """Users' candidates, the hidden click model, the logger, the target and the estimators' reward model.

    ``q``, ``logger``, ``target`` and ``q_hat`` are users x candidates; ``candidates`` holds the item ids.
    """

    q: np.ndarray
    logger: np.ndarray
    target: np.ndarray
    q_hat: np.ndarray
    candidates: np.ndarray | None = None
    logger_scores: np.ndarray | None = None
    """Kept so the logger's temperature can move without refitting (:meth:`with_logger_temperature`)."""

    @property
    def truth(self) -> float:
        return true_value(self.q, self.target)

    def with_logger_temperature(self, temperature: float) -> "World":
        return replace(self, logger=softmax(self.logger_scores, temperature))


def toy_world() -> World:
    """Two users, three items: the tiny world the brute-force tests enumerate.

    Examples
    --------
    >>> round(toy_world().truth, 6)
    0.595
    """
    q = np.array([[0.2, 0.5, 0.8], [0.6, 0.3, 0.1]])
    logger = np.array([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]])
    target = np.array([[0.0, 0.2, 0.8], [0.5, 0.5, 0.0]])
    q_hat = np.array([[0.3, 0.4, 0.6], [0.4, 0.4, 0.2]])
    return World(q, logger, target, q_hat)


def from_interactions(frame: pd.DataFrame, *, truth_model: str = "ease", logger_model: str = "pop",
                      target_model: str = "itemknn", reward_model: str = "pop", temperature: float = 1.0,
                      logger: str = "softmax", epsilon: float = 0.1,
                      target_temperature: float | None = None, candidates: int = CANDIDATES,
                      scale: float = SCALE, offset: float = OFFSET, seed: int = 0) -> World:
    """A world from an interactions table (``user, item``; ML-100K from :mod:`protocols.movielens`): the
    models of :mod:`protocols.models` fitted on every interaction, ``truth_model``'s scores through the link
    as the hidden truth, the logger over ``logger_model``'s scores (``logger``: ``softmax`` at ``temperature``,
    ``epsilon-greedy`` with ``epsilon``, or ``uniform``), the target
    ``target_model``'s top-1 (or its softmax at ``target_temperature``), and ``reward_model``'s scores through
    the same link as the estimators' q̂ (a deliberately imperfect model)."""
    from protocols import models

    users = pd.Index(pd.unique(frame["user"]))
    items = pd.Index(np.sort(pd.unique(frame["item"])))
    X = models.interaction_matrix(users.get_indexer(frame["user"]), items.get_indexer(frame["item"]),
                                  len(users), len(items))
    rng = np.random.default_rng(seed)
    chosen = np.argsort(rng.random((len(users), len(items))), axis=1)[:, :candidates]
    everyone = np.arange(len(users))

    def scores(name: str) -> np.ndarray:
        return np.take_along_axis(models.make(name).fit(X).scores(everyone), chosen, axis=1)

    truth_scores, logger_scores = scores(truth_model), scores(logger_model)
    target_scores = scores(target_model)
    target = top1(target_scores) if target_temperature is None else softmax(target_scores, target_temperature)
    if logger == "softmax":
        logging = softmax(logger_scores, temperature)
    elif logger == "epsilon-greedy":
        logging = epsilon_greedy(logger_scores, epsilon)
    elif logger == "uniform":
        logging = uniform(logger_scores.shape)
    else:
        raise ValueError(f"logger must be softmax, epsilon-greedy or uniform, got {logger!r}")
    return World(q=click_model(truth_scores, scale, offset), logger=logging,
                 target=target, q_hat=click_model(scores(reward_model), scale, offset),
                 candidates=np.asarray(items)[chosen], logger_scores=logger_scores)


@dataclass(frozen=True)
class Logs:
    """Many logs of equal size: arrays of shape (logs, rounds)."""

    context: np.ndarray
    action: np.ndarray
    reward: np.ndarray
    propensity: np.ndarray


def alias_tables(policy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Walker's alias tables of each row (Vose's construction): candidate j is kept with probability
    ``keep[x, j]``, else replaced by ``alias[x, j]``; drawing j uniformly gives exactly the row's distribution.

    Examples
    --------
    >>> keep, alias = alias_tables(np.array([[0.5, 0.25, 0.25]]))
    >>> probability = np.zeros(3)
    >>> for j in range(3):
    ...     probability[j] += keep[0, j] / 3
    ...     probability[alias[0, j]] += (1 - keep[0, j]) / 3
    >>> probability.round(12).tolist()
    [0.5, 0.25, 0.25]
    """
    n_rows, n = policy.shape
    keep = np.ones((n_rows, n))
    alias = np.tile(np.arange(n), (n_rows, 1))
    for row in range(n_rows):
        scaled = policy[row] * n / policy[row].sum()
        small = [j for j in range(n) if scaled[j] < 1.0]
        large = [j for j in range(n) if scaled[j] >= 1.0]
        while small and large:
            less, more = small.pop(), large.pop()
            keep[row, less], alias[row, less] = scaled[less], more
            scaled[more] -= 1.0 - scaled[less]
            (small if scaled[more] < 1.0 else large).append(more)
        # what is left is 1 up to rounding: kept whole
    return keep, alias


def draw_logs(world: World, n_rounds: int, n_logs: int = 1, *, seed=0, tables=None) -> Logs:
    """``n_logs`` independent logs of ``n_rounds`` rounds drawn from the world's logger (``tables``: the
    logger's :func:`alias_tables`, built here unless given).

    Examples
    --------
    >>> logs = draw_logs(toy_world(), 5, 2, seed=1)
    >>> logs.action.shape, bool(((logs.propensity > 0) & (logs.propensity <= 1)).all())
    ((2, 5), True)
    """
    rng = np.random.default_rng(seed)
    n_users, n_candidates = world.logger.shape
    keep, alias = tables if tables is not None else alias_tables(world.logger)
    context = rng.integers(n_users, size=(n_logs, n_rounds))
    drawn = rng.integers(n_candidates, size=(n_logs, n_rounds))
    action = np.where(rng.random((n_logs, n_rounds)) < keep[context, drawn], drawn, alias[context, drawn])
    reward = (rng.random((n_logs, n_rounds)) < world.q[context, action]).astype(float)
    return Logs(context, action, reward, world.logger[context, action])


SIMULATED = (*estimators.ESTIMATORS, "switch_ips_dm")
"""The simulations' estimators: the command line's, and SWITCH with IPS, which needs the logger's every propensity."""


def estimate_logs(world: World, logs: Logs, *, names=SIMULATED, tau: float = 10.0,
                  confidence: float = 0.95) -> dict[str, estimators.Estimate]:
    """Each estimator on each log (arrays over the logs), with the world's target and reward model."""
    weight = world.target[logs.context, logs.action] / logs.propensity
    expected = (world.target * world.q_hat).sum(axis=1)[logs.context]
    found = estimators.estimate_all(logs.reward, weight, world.q_hat[logs.context, logs.action], expected,
                                    names=[n for n in names if n != "switch_ips_dm"], tau=tau, confidence=confidence)
    if "switch_ips_dm" in names:
        with np.errstate(divide="ignore", invalid="ignore"):
            large = (world.target / world.logger) > tau  # a zero propensity: an infinite weight
        model_part = (world.target * world.q_hat * large).sum(axis=1)[logs.context]
        found["switch_ips_dm"] = estimators.switch_ips_dm(logs.reward, weight, model_part, tau, confidence=confidence)
    return {name: found[name] for name in names}


def repeated_estimates(world: World, n_rounds: int, n_logs: int, *, tau: float = 10.0, seed: int = 0,
                       names=SIMULATED, logs_per_block: int | None = None) -> pd.DataFrame:
    """One row per log, one column per estimator (plus ``ess``), drawn in blocks of logs so memory stays
    bounded (about 10⁶ rounds a block)."""
    block = logs_per_block or max(1, 1_000_000 // n_rounds)
    seeds = np.random.SeedSequence(seed).spawn((n_logs + block - 1) // block)
    parts = []
    tables = alias_tables(world.logger)
    for start, child in zip(range(0, n_logs, block), seeds, strict=True):
        logs = draw_logs(world, n_rounds, min(block, n_logs - start), seed=child, tables=tables)
        found = estimate_logs(world, logs, names=names, tau=tau)
        weight = world.target[logs.context, logs.action] / logs.propensity
        parts.append(pd.DataFrame({**{n: e.value for n, e in found.items()},
                                   "ess": estimators.effective_sample_size(weight)}))
    return pd.concat(parts, ignore_index=True)


def accuracy(estimates: pd.DataFrame, truth: float) -> pd.DataFrame:
    """Bias, variance and RMSE of each estimator's column against the truth (RMSE² = bias² + variance, the
    variance with n in the denominator so the identity is exact).

    Examples
    --------
    >>> accuracy(pd.DataFrame({"ips": [0.4, 0.6, 0.8]}), truth=0.5).round(4).to_dict("index")
    {'ips': {'bias': 0.1, 'variance': 0.0267, 'rmse': 0.1915}}
    """
    columns = [c for c in estimates.columns if c != "ess"]
    errors = estimates[columns] - truth
    bias = errors.mean()
    variance = estimates[columns].var(ddof=0)
    return pd.DataFrame({"bias": bias, "variance": variance, "rmse": np.sqrt((errors**2).mean())})


def sweep(world: World, parameter: str, values, *, n_rounds: int = 10_000, n_logs: int = 200, tau: float = 10.0,
          seed: int = 0) -> pd.DataFrame:
    """Bias, variance and RMSE of every estimator as one of ``temperature`` (the logger's), ``rounds`` (the
    log's size) or ``tau`` (the clipping and switching threshold) moves: one row per value and estimator."""
    if parameter not in ("temperature", "rounds", "tau"):
        raise ValueError(f"parameter must be temperature, rounds or tau, got {parameter!r}")
    rows = []
    for value in values:
        here = world.with_logger_temperature(value) if parameter == "temperature" else world
        estimates = repeated_estimates(here, int(value) if parameter == "rounds" else n_rounds, n_logs,
                                       tau=value if parameter == "tau" else tau, seed=seed)
        table = accuracy(estimates, here.truth)
        table["mean_ess"] = estimates["ess"].mean()
        rows.append(table.assign(**{parameter: value}).rename_axis("estimator").reset_index())
    return pd.concat(rows, ignore_index=True)
