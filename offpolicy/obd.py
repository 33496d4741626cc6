r"""The Open Bandit Dataset's small sample, read from the Open Bandit Pipeline's source archive, and obp's README
result reproduced without obp.

Where the data comes from
    ``pip download --no-deps --ignore-requires-python obp==0.5.7 -d DIR`` fetches ``obp-0.5.7.tar.gz`` (1.3 MB;
    obp requires Python < 3.11, so it is downloaded, never installed or imported). The archive holds
    ``obp/dataset/obd/{random,bts}/{all,men,women}/<campaign>.csv`` (10,000 rounds each: timestamp, item_id,
    position, click, propensity_score, hashed user features, user-item affinities) and Bernoulli TS's
    production prior, ``obp/policy/conf/prior_bts.yaml``. :func:`find_source` looks for it in the folder or
    archive given, else ``$RECEVAL_OBP_SOURCE``, else ``~/.cache/receval/obp-0.5.7.tar.gz``; it is read with
    :mod:`tarfile`, nothing extracted.

Licences
    The archive's only licence file, ``LICENSE``, is the Apache License 2.0, and its README names Apache 2.0
    for the project; the archive states no separate licence for the dataset sample it ships (obp's online
    documentation describes the full dataset as CC BY 4.0; nothing in the archive says so).

What obp's README computes (read from obp 0.5.7's source)
    ``OpenBanditDataset(behavior_policy="random", campaign="all")`` sorts the rows by timestamp; the action is
    ``item_id`` (80 items), the position ``rankdata(position, "dense") - 1`` (3 positions), the reward
    ``click``, the propensity ``propensity_score``. ``BernoulliTS(is_zozotown_prior=True, campaign="all",
    random_state=12345, len_list=3).compute_batch_action_dist(n_sim=100000)`` draws, 100,000 times, one
    Beta(α_a, β_a) value per item from ``numpy.random.RandomState(12345)`` (no update: the counts are zero)
    and counts which item lands at each of the 3 positions (the draws sorted in decreasing order); the action
    distribution is those counts / 100,000, the same for every round. IPW is
    mean(click · dist[item, position] / propensity_score): the weight uses the distribution at the *logged*
    position. The README divides it by the Random logs' mean click and prints 1.198126.

    :func:`bts_action_distribution` makes the same draws in one call (``RandomState.beta`` with size
    (n_sim, n_items) consumes the generator in the same order as n_sim calls of size n_items), so the
    reproduction is exact, not only close.

Monte Carlo error
    The estimate is the mean over the simulations s of Y_s = Σ_p S(item at p in s, p), with
    S(a, p) = (1/n) Σ_i click_i · 1{a_i = a, p_i = p} / propensity_i; its Monte Carlo standard error is
    sd(Y) / √n_sim, reported beside it.
"""

from __future__ import annotations

import io
import os
import re
import tarfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from metrics.errors import DataError
from offpolicy import estimators

ARCHIVE_NAME = "obp-0.5.7.tar.gz"
ENVIRONMENT = "RECEVAL_OBP_SOURCE"
DEFAULT = Path.home() / ".cache" / "receval" / ARCHIVE_NAME
DOWNLOAD = "pip download --no-deps --ignore-requires-python obp==0.5.7 -d DIR"
POLICIES = ("random", "bts")
CAMPAIGNS = ("all", "men", "women")
README_VALUE = 1.198126
N_SIM = 100_000
RANDOM_STATE = 12345


class SourceUnavailable(DataError):
    """obp's source archive is not on this machine."""


def find_source(where: str | os.PathLike | None = None) -> Path:
    """The archive or folder holding obp's source: ``where``, else ``$RECEVAL_OBP_SOURCE``, else the cache
    (a folder given may hold the archive, or be the unpacked source whose ``obp/`` is inside)."""
    for candidate in (where, os.environ.get(ENVIRONMENT), DEFAULT):
        if not candidate:
            continue
        path = Path(candidate)
        if path.is_dir() and (path / ARCHIVE_NAME).is_file():
            return path / ARCHIVE_NAME
        if path.is_file() or (path.is_dir() and (path / "obp").is_dir()):
            return path
        if where is not None and candidate is where:
            what = "does not exist" if not path.exists() else f"holds neither {ARCHIVE_NAME} nor obp's source folder"
            raise SourceUnavailable("not_found", f"{path} {what}; get the archive with `{DOWNLOAD}`", path=str(path))
    raise SourceUnavailable("not_found", f"obp's source archive was not found: `{DOWNLOAD}`, then name DIR or "
                            f"set {ENVIRONMENT}", path="")


def read_member(source: Path, inside: str) -> bytes:
    """One file of obp's source (``inside`` relative to the source's top folder, e.g. ``obp/policy/...``)."""
    if source.is_dir():
        path = source / inside
        if not path.is_file():
            raise DataError("missing_member", f"{source} has no {inside}", path=str(path))
        return path.read_bytes()
    files = _archive_files(source.resolve(), source.stat().st_mtime_ns)
    if inside not in files:
        raise DataError("missing_member", f"{source} has no {inside}", path=str(source))
    return files[inside]


@lru_cache(maxsize=2)
def _archive_files(source: Path, _mtime: int) -> dict[str, bytes]:
    """The archive's licence, prior and dataset files, read in one pass (a .tar.gz has no index: each
    look-up would decompress it again)."""
    wanted = ("LICENSE", "obp/policy/conf/", "obp/dataset/obd/")
    try:
        with tarfile.open(source) as archive:
            return {name: archive.extractfile(member).read() for member in archive
                    if member.isfile() and (name := member.name.split("/", 1)[-1]).startswith(wanted)}
    except (tarfile.TarError, OSError, EOFError) as error:
        raise DataError("bad_archive", f"{source} is not a readable tar.gz archive: {error}", path=str(source)) from None


def licence(source: Path) -> str:
    """The first line of the archive's LICENSE file (its licence's name)."""
    return read_member(source, "LICENSE").decode().strip().splitlines()[0].strip()


@dataclass(frozen=True)
class Logs:
    """One logger's rounds of one campaign, as obp reads them (sorted by time, positions from 0)."""

    action: np.ndarray
    position: np.ndarray
    reward: np.ndarray
    propensity: np.ndarray

    @property
    def n_actions(self) -> int:
        return int(self.action.max() + 1)

    @property
    def len_list(self) -> int:
        return int(self.position.max() + 1)


def read_logs(source: Path, policy: str = "random", campaign: str = "all") -> Logs:
    """The logs of ``policy`` (random or bts) in ``campaign`` (all, men or women)."""
    if policy not in POLICIES or campaign not in CAMPAIGNS:
        raise ValueError(f"policy must be one of {POLICIES} and campaign one of {CAMPAIGNS}")
    data = read_member(source, f"obp/dataset/obd/{policy}/{campaign}/{campaign}.csv")
    frame = pd.read_csv(io.BytesIO(data), index_col=0, usecols=["Unnamed: 0", "timestamp", "item_id", "position",
                                                                 "click", "propensity_score"])
    frame = frame.sort_values("timestamp")  # as obp does (quicksort: the same order for distinct stamps)
    position = (stats.rankdata(frame["position"].to_numpy(), "dense") - 1).astype(int)
    return Logs(frame["item_id"].to_numpy(), position, frame["click"].to_numpy(dtype=float),
                frame["propensity_score"].to_numpy(dtype=float))


def bts_prior(source: Path, campaign: str = "all") -> tuple[np.ndarray, np.ndarray]:
    """Bernoulli TS's production prior (α, β per item) from ``prior_bts.yaml``: a two-level mapping of lists
    of numbers, read here without a YAML library."""
    text = read_member(source, "obp/policy/conf/prior_bts.yaml").decode()
    found: dict[str, dict[str, list[float]]] = {}
    block = key = None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        item = line.strip()
        if indent == 0 and item.endswith(":"):
            block = found.setdefault(item[:-1], {})
        elif item.endswith(":") and block is not None:
            key = item[:-1]
            block[key] = []
        elif item.startswith("-") and block is not None and key is not None:
            block[key].append(float(item[1:]))
        elif re.match(r"^\w+:\s*\[", item) and block is not None:  # a list written inline
            name, _, values = item.partition(":")
            block[name] = [float(v) for v in values.strip(" []").split(",") if v.strip()]
    if campaign not in found or not {"alpha", "beta"} <= set(found[campaign]):
        raise DataError("bad_prior", f"prior_bts.yaml has no alpha and beta for campaign {campaign!r}")
    return np.array(found[campaign]["alpha"]), np.array(found[campaign]["beta"])


def bts_rankings(alpha: np.ndarray, beta: np.ndarray, len_list: int = 3, n_sim: int = N_SIM,
                 random_state: int = RANDOM_STATE) -> np.ndarray:
    """The items Bernoulli TS puts at positions 0..len_list-1 in each of ``n_sim`` simulations (n_sim x
    len_list), drawn as obp's ``compute_batch_action_dist`` draws them (see the module).

    Examples
    --------
    >>> bts_rankings(np.array([1.0, 1.0, 50.0]), np.array([50.0, 50.0, 1.0]), len_list=1, n_sim=3).ravel().tolist()
    [2, 2, 2]
    """
    draws = np.random.RandomState(random_state).beta(alpha, beta, size=(n_sim, len(alpha)))
    return np.argsort(draws, axis=1)[:, ::-1][:, :len_list]


def action_distribution(rankings: np.ndarray, n_actions: int) -> np.ndarray:
    """n_actions x len_list: the share of simulations putting each item at each position.

    Examples
    --------
    >>> action_distribution(np.array([[0, 1], [0, 2]]), 3).tolist()
    [[1.0, 0.0], [0.0, 0.5], [0.0, 0.5]]
    """
    n_sim, len_list = rankings.shape
    counts = np.zeros((n_actions, len_list))
    for position in range(len_list):
        counts[:, position] = np.bincount(rankings[:, position], minlength=n_actions)
    return counts / n_sim


@dataclass(frozen=True)
class Reproduction:
    relative_value: float
    """IPW's estimate of Bernoulli TS from the Random logs over the Random logs' mean click (obp: 1.198126)."""
    monte_carlo_error: float
    """The standard error of ``relative_value`` from the n_sim draws of Bernoulli TS's distribution."""
    n_sim: int
    random_mean_click: float
    bts_mean_click: float
    """Bernoulli TS's own logs' mean click: the on-policy value every estimate is judged against."""
    estimates: pd.DataFrame
    """One row per estimator: value, its interval, its ratio to the BTS logs' mean click, the ESS."""
    licence: str


def reproduce(source=None, campaign: str = "all", n_sim: int = N_SIM, random_state: int = RANDOM_STATE,
              confidence: float = 0.95) -> Reproduction:
    """obp's README result and more: Bernoulli TS estimated from the Random logs by IPW, SNIPS, DM and DR,
    each against the BTS logs' mean click. The DM's q̂ is the Random logs' mean click of each item at each
    position, and the DM's value at a round averages Σ_a dist[a, p] q̂(a, p) at the round's logged position
    p, as the weight does. With a propensity constant within each (item, position), as the Random logger's is,
    DR's correction sums to zero there, so DR equals DM exactly on these logs."""
    source = find_source(source)
    random_logs, bts_logs = read_logs(source, "random", campaign), read_logs(source, "bts", campaign)
    alpha, beta = bts_prior(source, campaign)
    n_actions, len_list = random_logs.n_actions, random_logs.len_list
    rankings = bts_rankings(alpha, beta, len_list, n_sim, random_state)
    dist = action_distribution(rankings, n_actions)
    at = (random_logs.action, random_logs.position)
    weight = dist[at] / random_logs.propensity
    # per simulation: Σ_p S(item at p, p), whose mean is the IPW estimate (see the module)
    contribution = np.zeros((n_actions, len_list))
    np.add.at(contribution, at, random_logs.reward / random_logs.propensity / len(random_logs.reward))
    per_sim = contribution[rankings, np.arange(len_list)].sum(axis=1)
    random_mean = float(random_logs.reward.mean())
    clicks = np.zeros((n_actions, len_list))
    shown = np.zeros((n_actions, len_list))
    np.add.at(clicks, at, random_logs.reward)
    np.add.at(shown, at, 1.0)
    q_hat = np.divide(clicks, shown, out=np.full_like(clicks, random_mean), where=shown > 0)
    expected = (dist * q_hat).sum(axis=0)[random_logs.position]
    found = estimators.estimate_all(random_logs.reward, weight, q_hat[at], expected,
                                    names=("ips", "snips", "dm", "dr"), confidence=confidence)
    bts_mean = float(bts_logs.reward.mean())
    rows = {name: {"value": float(e.value), "low": float(e.low), "high": float(e.high),
                   "relative_to_random": float(e.value) / random_mean, "relative_to_bts_on_policy": float(e.value) / bts_mean}
            for name, e in found.items()}
    table = pd.DataFrame(rows).T.rename_axis("estimator")
    table["ess"] = float(estimators.effective_sample_size(weight))
    return Reproduction(float(found["ips"].value) / random_mean,
                        float(per_sim.std(ddof=1) / np.sqrt(n_sim)) / random_mean, n_sim, random_mean, bts_mean,
                        table, licence(source))
