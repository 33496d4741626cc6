r"""Estimators on a logged file against a target policy file: what ``python -m metrics offpolicy`` runs.

The log has one row per round, columns ``context, action, reward, propensity[, position]``; the target policy
one row per (context, action) it may choose, columns ``context, action, probability``. Contexts and actions are
ids (text). A ``position``, when present, makes each (action, position) its own arm: the target's ``action``
then names ``action`` alone and applies at every position.

Nothing is dropped silently: a row that cannot be used refuses the whole input with the row's line and the
reason (a propensity outside (0, 1], a reward that is no number, a logged action the target never scores for
that context, a context of the log missing from the target, a context whose probabilities do not sum to 1).

The reward model of DM, DR and switch-DR is the log's own: q̂(x, a) = the mean reward of action a over the log
(the log's mean reward for an action the log never shows). It ignores the context, so DM is as biased as that
simplification; DR and switch-DR stay unbiased when the propensities are right.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from metrics.errors import DataError
from offpolicy import estimators

LOG_COLUMNS = ("context", "action", "reward", "propensity")
TARGET_COLUMNS = ("context", "action", "probability")
TOLERANCE = 1e-6
"""How far a context's target probabilities may sum from 1 (rounding in a written file)."""


def _where(frame: pd.DataFrame, at: int) -> str:
    label = frame.index.name or "row"
    return f"{label} {frame.index[at]}"


def _require(frame: pd.DataFrame, columns, what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        found = ", ".join(repr(str(c)) for c in frame.columns)
        raise DataError("missing_column", f"the {what} file is missing column {', '.join(repr(c) for c in missing)} "
                        f"(found columns: {found})", kind=what, missing=missing, found=[str(c) for c in frame.columns])


def _numbers(frame: pd.DataFrame, column: str, what: str) -> np.ndarray:
    values = pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(values)
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        raw = frame[column].iloc[at]
        shown = "is empty or NaN" if pd.isna(raw) else f"{raw!r} is not a finite number"
        raise DataError("not_a_number", f"the {what} file's {_where(frame, at)}: {column} {shown}", column=column,
                        row=str(frame.index[at]))
    return values


def _ids(frame: pd.DataFrame, column: str, what: str) -> pd.Series:
    ids = frame[column].astype("string").str.strip()
    blank = ids.isna() | (ids == "")
    if blank.any():
        at = int(np.flatnonzero(blank.to_numpy())[0])
        raise DataError("missing_value", f"the {what} file's {_where(frame, at)} has no {column}", column=column,
                        row=str(frame.index[at]))
    return ids


def check_log(frame: pd.DataFrame) -> pd.DataFrame:
    """The log with ids as text and numbers as floats, or a :class:`DataError` naming the first bad row.

    Examples
    --------
    >>> log = pd.DataFrame({"context": ["u1"], "action": ["a"], "reward": [1], "propensity": [0]},
    ...                    index=pd.Index([2], name="line"))
    >>> check_log(log)
    Traceback (most recent call last):
    metrics.errors.DataError: the log file's line 2: propensity 0.0 is outside (0, 1]: a logger that never shows an action cannot have logged it
    """
    _require(frame, LOG_COLUMNS, "log")
    if not len(frame):
        raise DataError("no_rows", "the log file has no data rows")
    checked = pd.DataFrame({"context": _ids(frame, "context", "log"), "action": _ids(frame, "action", "log"),
                            "reward": _numbers(frame, "reward", "log"),
                            "propensity": _numbers(frame, "propensity", "log")}, index=frame.index)
    propensity = checked["propensity"].to_numpy()
    outside = (propensity <= 0) | (propensity > 1)
    if outside.any():
        at = int(np.flatnonzero(outside)[0])
        reason = ("a logger that never shows an action cannot have logged it" if propensity[at] <= 0
                  else "a probability is at most 1")
        raise DataError("bad_propensity", f"the log file's {_where(frame, at)}: propensity {float(propensity[at])!r} is "
                        f"outside (0, 1]: {reason}", row=str(frame.index[at]), value=float(propensity[at]))
    if "position" in frame.columns:
        checked["position"] = _ids(frame, "position", "log")
    return checked


def check_target(frame: pd.DataFrame, tolerance: float = TOLERANCE) -> pd.DataFrame:
    """The target policy with ids as text and probabilities as floats, each context's summing to 1.

    Examples
    --------
    >>> target = pd.DataFrame({"context": ["u1", "u1"], "action": ["a", "b"], "probability": [0.5, 0.4]},
    ...                       index=pd.Index([2, 3], name="line"))
    >>> check_target(target)
    Traceback (most recent call last):
    metrics.errors.DataError: the target file's context 'u1' (line 2): its probabilities sum to 0.9, not 1
    """
    _require(frame, TARGET_COLUMNS, "target")
    if not len(frame):
        raise DataError("no_rows", "the target file has no data rows")
    checked = pd.DataFrame({"context": _ids(frame, "context", "target"), "action": _ids(frame, "action", "target"),
                            "probability": _numbers(frame, "probability", "target")}, index=frame.index)
    probability = checked["probability"].to_numpy()
    outside = (probability < 0) | (probability > 1)
    if outside.any():
        at = int(np.flatnonzero(outside)[0])
        raise DataError("bad_probability", f"the target file's {_where(frame, at)}: probability {float(probability[at])!r} "
                        "is outside [0, 1]", row=str(frame.index[at]), value=float(probability[at]))
    repeated = checked.duplicated(["context", "action"]).to_numpy()
    if repeated.any():
        at = int(np.flatnonzero(repeated)[0])
        raise DataError("repeated_pair", f"the target file's {_where(frame, at)}: context {checked['context'].iloc[at]!r} "
                        f"and action {checked['action'].iloc[at]!r} appear twice", row=str(frame.index[at]))
    sums = checked.groupby("context", sort=False)["probability"].sum()
    off = (sums - 1).abs() > tolerance
    if off.any():
        context = off.index[off.to_numpy()][0]
        at = int(np.flatnonzero((checked["context"] == context).to_numpy())[0])
        raise DataError("bad_sum", f"the target file's context {context!r} ({_where(frame, at)}): its probabilities "
                        f"sum to {sums[context]:.6g}, not 1", context=str(context), total=float(sums[context]))
    return checked


def _target_of_log(log: pd.DataFrame, target: pd.DataFrame) -> np.ndarray:
    """π(a|x) of each logged round; refuses a context the target lacks or an action it never scores there."""
    known = pd.Index(target["context"].unique())
    missing = ~log["context"].isin(known).to_numpy()
    if missing.any():
        at = int(np.flatnonzero(missing)[0])
        raise DataError("unknown_context", f"the log file's {_where(log, at)}: context {log['context'].iloc[at]!r} is "
                        "not in the target file: the target's choice there is unknown", row=str(log.index[at]))
    pairs = pd.MultiIndex.from_frame(target[["context", "action"]])
    found = pairs.get_indexer(pd.MultiIndex.from_frame(log[["context", "action"]]))
    if (found < 0).any():
        at = int(np.flatnonzero(found < 0)[0])
        raise DataError("unscored_action", f"the log file's {_where(log, at)}: the target file never scores action "
                        f"{log['action'].iloc[at]!r} for context {log['context'].iloc[at]!r} (write it with "
                        "probability 0 if the target never chooses it)", row=str(log.index[at]))
    return target["probability"].to_numpy()[found]


def _keys(log: pd.DataFrame) -> list[str]:
    """An arm is an action, or an (action, position) when the log has positions."""
    return ["action", "position"] if "position" in log.columns else ["action"]


def reward_model(log: pd.DataFrame) -> pd.Series:
    """q̂: the log's mean reward of each arm (see the module), indexed by action (and position)."""
    return log.groupby(_keys(log), sort=False)["reward"].mean()


def _expected_under_target(log: pd.DataFrame, target: pd.DataFrame, means: pd.Series, overall: float) -> np.ndarray:
    """Σ_a π(a|x) q̂(a[, p]) for each round's context (and position); an arm the log never shows gets ``overall``."""
    keys = _keys(log)
    pairs = target
    if "position" in keys:
        pairs = target.merge(pd.DataFrame({"position": log["position"].unique()}), how="cross")
    index = pd.MultiIndex.from_frame(pairs[keys]) if len(keys) > 1 else pd.Index(pairs["action"])
    q = means.reindex(index).fillna(overall).to_numpy()
    by_round = ["context", *keys[1:]]
    expected = pd.Series(pairs["probability"].to_numpy() * q).groupby(
        [pairs[k].to_numpy() for k in by_round]).sum()
    wanted = pd.MultiIndex.from_frame(log[by_round]) if len(by_round) > 1 else pd.Index(log["context"])
    return expected.reindex(wanted).to_numpy()


def evaluate(log: pd.DataFrame, target: pd.DataFrame, *, names=estimators.ESTIMATORS, tau: float = 10.0,
             confidence: float = 0.95) -> dict:
    """Each estimator's value and interval and the effective sample size, as the command prints them.

    Examples
    --------
    >>> log = pd.DataFrame({"context": ["u1", "u1", "u2"], "action": ["a", "b", "a"], "reward": [1, 0, 1],
    ...                     "propensity": [0.5, 0.5, 0.5]})
    >>> target = pd.DataFrame({"context": ["u1", "u1", "u2", "u2"], "action": ["a", "b", "a", "b"],
    ...                        "probability": [1.0, 0.0, 0.5, 0.5]})
    >>> found = evaluate(log, target, names=("ips", "snips"))
    >>> found["estimates"]["ips"]["value"], found["estimates"]["snips"]["value"], found["rounds"]
    (1.0, 1.0, 3)
    >>> round(evaluate(log, target, names=("dm",))["estimates"]["dm"]["value"], 4)  # q̂(a) = 1, q̂(b) = 0
    0.8333
    """
    log, target = check_log(log), check_target(target)
    probability = _target_of_log(log, target)
    weight = probability / log["propensity"].to_numpy()
    reward = log["reward"].to_numpy()
    model_of_logged = expected = None
    if any(name in estimators.MODEL_BASED for name in names):
        means = reward_model(log)
        keys = _keys(log)
        logged_arms = pd.MultiIndex.from_frame(log[keys]) if len(keys) > 1 else pd.Index(log["action"])
        model_of_logged = means.reindex(logged_arms).to_numpy()
        expected = _expected_under_target(log, target, means, float(reward.mean()))
    found = estimators.estimate_all(reward, weight, model_of_logged, expected, names=names, tau=tau,
                                    confidence=confidence)
    return {"rounds": len(log), "confidence": confidence, "tau": tau,
            "effective_sample_size": _plain(estimators.effective_sample_size(weight)),
            "estimates": {name: {"value": _plain(e.value), "low": _plain(e.low), "high": _plain(e.high),
                                 "standard_error": _plain(e.standard_error)} for name, e in found.items()}}


def _plain(value) -> float | None:
    value = float(value)
    return value if np.isfinite(value) else None
