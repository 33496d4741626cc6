"""Four ways to hold out a test set, and what each lets a model see (Ji, Sun, Zhang and Li, TOIS 2023;
Meng et al. 2020).

Every split takes the interactions table (``user, item, timestamp[, rating]``) and returns a :class:`Split`:
the training rows, the test rows, and counts of what the split did. Ties in time are broken by the row's
place in the file (a stable sort), so each split is a function of the file and the seed alone.

- :func:`random_holdout`: a random share of all interactions (RecBole's default order, "RO"). A user's test
  interactions may be older than their training ones: the model trains on the future.
- :func:`leave_last_out`: each user's latest interaction (users with one interaction keep it for training).
  Another user's training rows may be later than this user's test row: the future leaks across users.
- :func:`temporal_fraction`: each user's latest share of interactions (at least one left to train on).
- :func:`global_time`: everything before a moment trains, everything from it on tests. The only split with
  no interaction from after the test time in training.

Test users absent from training (cold users) cannot be ranked by a collaborative model: their test rows are
dropped and counted. Test rows whose item is absent from training (cold items) stay in the test set and
count as misses for every model (no model can recommend an item it never saw); they are counted too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from metrics.errors import DataError

SPLITS = ("random", "leave-last-out", "temporal-fraction", "global-time")


@dataclass(frozen=True)
class Split:
    train: pd.DataFrame
    test: pd.DataFrame
    name: str
    counts: dict = field(default_factory=dict)
    """``train``, ``test`` rows; ``cold_users`` (test users with no training row, dropped), ``cold_user_rows``,
    ``cold_item_rows`` (test rows whose item never appears in training, kept), ``kept_for_training`` (users
    too short to hold anything out), ``future_rows`` (training rows later than the earliest test row)."""


def _in_time_order(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values("timestamp", kind="stable")


def _finish(name: str, frame: pd.DataFrame, test_mask: np.ndarray, **extra) -> Split:
    train, test = frame[~test_mask], frame[test_mask]
    if train.empty or test.empty:
        side = "training" if train.empty else "test"
        raise DataError("empty_split", f"the {name} split leaves the {side} set empty (too few interactions per "
                        "user, or a share or date that puts everything on one side)", split=name, side=side)
    cold = ~test["user"].isin(train["user"])
    cold_items = ~test["item"].isin(train["item"])
    counts = {"cold_users": int(test.loc[cold, "user"].nunique()), "cold_user_rows": int(cold.sum())}
    test = test[~cold]
    if test.empty:
        raise DataError("only_cold_users", f"the {name} split leaves no test user who also has training "
                        "interactions: no model can rank anything for them; choose another share or date", split=name)
    counts.update(train=len(train), test=len(test), cold_item_rows=int((cold_items & ~cold).sum()),
                  future_rows=int((train["timestamp"].to_numpy() > test["timestamp"].min()).sum())
                  if len(test) else 0, **extra)
    return Split(train.reset_index(drop=True), test.reset_index(drop=True), name, counts)


def _check_share(share: float) -> float:
    if not 0 < share < 1:
        raise DataError("bad_share", f"the test share must be between 0 and 1 (exclusive), got {share!r}",
                        value=share)
    return float(share)


def random_holdout(frame: pd.DataFrame, test_fraction: float = 0.2, *, seed: int = 0) -> Split:
    """A random ``test_fraction`` of all interactions, drawn with ``seed``."""
    share = _check_share(test_fraction)
    rng = np.random.default_rng(seed)
    n_test = int(round(share * len(frame)))
    mask = np.zeros(len(frame), dtype=bool)
    mask[rng.choice(len(frame), size=n_test, replace=False)] = True
    return _finish("random", frame, mask)


def _rank_from_end(frame: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """The rows in time order, each row's place from its user's latest (0 = latest) and its user's size."""
    ordered = _in_time_order(frame)
    by_user = ordered.groupby("user", sort=False)
    from_end = by_user.cumcount(ascending=False).to_numpy()
    sizes = by_user["user"].transform("size").to_numpy()
    return ordered, from_end, sizes


def leave_last_out(frame: pd.DataFrame) -> Split:
    """Each user's latest interaction (the one written last among equal times); users with a single
    interaction keep it for training and are counted as ``kept_for_training``."""
    ordered, from_end, sizes = _rank_from_end(frame)
    mask = (from_end == 0) & (sizes >= 2)
    short = int(ordered.loc[sizes < 2, "user"].nunique())
    return _finish("leave-last-out", ordered, mask, kept_for_training=short)


def temporal_fraction(frame: pd.DataFrame, test_fraction: float = 0.2) -> Split:
    """Each user's latest ``test_fraction`` of interactions (rounded, at least one kept for training and one
    held out when the user has two or more)."""
    share = _check_share(test_fraction)
    ordered, from_end, sizes = _rank_from_end(frame)
    held = np.clip(np.rint(share * sizes), 1, np.maximum(sizes - 1, 0))
    mask = from_end < held
    short = int(ordered.loc[sizes < 2, "user"].nunique())
    return _finish("temporal-fraction", ordered, mask, kept_for_training=short)


def cut_for_share(frame: pd.DataFrame, test_fraction: float = 0.2) -> int:
    """The moment (seconds since 1970) from which ``test_fraction`` of the interactions come."""
    share = _check_share(test_fraction)
    return int(np.quantile(frame["timestamp"].to_numpy(), 1 - share, method="higher"))


def global_time(frame: pd.DataFrame, cut: int | None = None, *, test_fraction: float = 0.2) -> Split:
    """Every interaction before ``cut`` trains, every one at or after it tests (the cut defaults to the moment
    that leaves ``test_fraction`` of the interactions for the test)."""
    cut = cut_for_share(frame, test_fraction) if cut is None else int(cut)
    mask = frame["timestamp"].to_numpy() >= cut
    return _finish("global-time", frame, mask, cut=cut)


def split(frame: pd.DataFrame, name: str, *, test_fraction: float = 0.2, cut: int | None = None,
          seed: int = 0) -> Split:
    """The split called ``name`` (one of :data:`SPLITS`)."""
    if name == "random":
        return random_holdout(frame, test_fraction, seed=seed)
    if name == "leave-last-out":
        return leave_last_out(frame)
    if name == "temporal-fraction":
        return temporal_fraction(frame, test_fraction)
    if name == "global-time":
        return global_time(frame, cut, test_fraction=test_fraction)
    raise DataError("unknown_split", f"unknown split {name!r}; choose one of {', '.join(SPLITS)}", name=name)
