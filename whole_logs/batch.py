r"""Every user of a recommendation log at once: P, R, F1, HR, AP and NDCG at K, and RR.

:func:`evaluate` takes two long tables and returns one row per user; :func:`summarize` gives the
means and says which users were left out or scored 0, and why; :func:`scan_traps` finds what makes a
log's numbers mislead. The engine and its conventions (order within a user, ties, which users are
scored 0 or left out) are in :mod:`whole_logs.engine`; a log of ``PARALLEL_FROM_ROWS`` rows or more is
evaluated in blocks of whole users on two threads (:mod:`whole_logs.blocks`), which give the same rows.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

from whole_logs import engine
from metrics.errors import DataError
from metrics._validation import check_choice, check_k
from whole_logs.blocks import evaluate_in_blocks
from whole_logs.engine import (  # the engine's public names, as callers of this module have always used them
    AT_K, METRICS, REASONS, TIES, DuplicatePairsError, RankedRows, as_id_text, check_gains, check_ks,
    check_metrics, check_table, column_name, combine, rank_rows, same_kind, score_ranked_rows,
)
from metrics.ndcg import GAINS
from metrics.ranked_metrics import AP_DENOMINATORS

__all__ = ["AT_K", "METRICS", "PARALLEL_FROM_ROWS", "REASONS", "TIES", "DuplicatePairsError", "RankedRows", "Summary",
           "as_id_text", "check_gains", "check_ks", "check_metrics", "check_table", "column_name", "combine",
           "evaluate", "keep_best_duplicates", "longest_list", "rank_rows", "same_kind", "scan_traps",
           "score_ranked_rows", "summarize", "TRAPS"]

PARALLEL_FROM_ROWS = 2_000_000
"""Logs of at least this many recommendation rows are evaluated in blocks of
whole users on two threads when the machine has two cores (:mod:`whole_logs.blocks`)."""


def evaluate(recommendations, ground_truth, k, *, metrics=None, gain="linear", denominator="min",
             ties="item") -> pd.DataFrame:
    r"""Per-user P, R, F1, HR, AP and NDCG at each K, and RR, for every user of the ground truth.

    Parameters
    ----------
    recommendations : pandas.DataFrame
        Columns ``user``, ``item`` and ``rank`` (1 = best) or ``score`` (higher = better); with
        both, ``rank`` is used. Ties are broken by item id ascending (see the module docstring).
        Other columns are ignored.
    ground_truth : pandas.DataFrame
        Columns ``user``, ``item`` and optionally ``relevance`` (a grade >= 0, 1 when absent;
        grade > 0 is relevant).
    k : int or list of int
        Cut-off(s), positive integers.
    metrics : list of str, optional, keyword-only
        A subset of :data:`METRICS`; all by default.
    gain : {"linear", "exponential"}, keyword-only
        NDCG gain, rel or 2^rel - 1, as :func:`metrics.ndcg.ndcg_at_k`.
    denominator : {"min", "relevant", "hits"}, keyword-only
        AP@K denominator, as :func:`metrics.ranked_metrics.average_precision_at_k`.
    ties : {"item", "trec_eval", "input"}, keyword-only
        Order of equal ranks or scores within a user (:data:`TIES`): item id ascending (default),
        trec_eval's document id descending (to match trec_eval to the last digit), or input order.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``user`` (sorted), one float column per metric and K: ``"precision@10"``,
        ``"recall@10"``, ``"f1@10"``, ``"hit_rate@10"``, ``"average_precision@10"``,
        ``"ndcg@10"`` (for each K, metric by metric), then ``"reciprocal_rank"`` (no cut-off).
        One row per user of the ground truth. Users with ground truth but no recommendation
        score 0 and are counted; users with recommendations but no ground truth are left out
        and counted: ``attrs["users"]`` holds the counts of :data:`REASONS`, and
        ``attrs["settings"]`` the K values, gain and denominator. trec_eval (and pytrec_eval)
        leaves out both kinds of user (its ``-c`` flag scores the first kind 0, as here);
        ranx requires both tables to hold the same users, and with ``make_comparable=True``
        scores the first kind 0 and drops the second, as here.

    Raises
    ------
    ValueError
        See :func:`rank_rows`; also for a bad ``k``, ``metrics``, ``gain`` or ``denominator``.

    Examples
    --------
    >>> recs = pd.DataFrame({"user": ["a"] * 4, "item": [101, 102, 103, 104], "rank": [1, 2, 3, 4]})
    >>> truth = pd.DataFrame({"user": ["a", "a", "b"], "item": [101, 104, 7]})
    >>> evaluate(recs, truth, 4)[["precision@4", "average_precision@4", "reciprocal_rank"]]  # doctest: +NORMALIZE_WHITESPACE
          precision@4  average_precision@4  reciprocal_rank
    user
    a             0.5                 0.75              1.0
    b             0.0                 0.00              0.0
    """
    ks = check_ks(k)
    chosen = check_metrics(metrics)
    check_choice(gain, "gain", GAINS)
    check_choice(denominator, "denominator", AP_DENOMINATORS)
    check_choice(ties, "ties", TIES)
    settings = {"chosen": chosen, "gain": gain, "denominator": denominator, "ties": ties}
    if len(recommendations) >= PARALLEL_FROM_ROWS and (os.cpu_count() or 1) > 1:
        try:
            whole = evaluate_in_blocks(recommendations, ground_truth, ks, settings)
            if whole is not None:
                return whole
        except Exception:  # noqa: BLE001 - the whole log gives the exact message (a block sees only its rows)
            pass
    return engine._evaluate(recommendations, ground_truth, ks, **settings)




@dataclass(frozen=True)
class Summary:
    """Means over users, and how many users were scored 0 or left out, by reason."""

    means: pd.Series
    users: pd.Series

    def table(self) -> pd.DataFrame:
        """The means as a table: metric, mean."""
        return self.means.rename("mean").rename_axis("metric").reset_index()


def keep_best_duplicates(recommendations: pd.DataFrame) -> pd.DataFrame:
    """The recommendations with each repeated (user, item) pair reduced to its best-placed row.

    Best is the smallest rank or, without a rank column, the highest score; between equally placed
    copies the first row wins. Rows keep their labels (a file's line numbers), so later messages
    still point into the file. Meant for logs where an item can be shown to a user twice (two
    sessions, two slots); :func:`evaluate` itself refuses such pairs, since a repeated item would
    count twice as a hit.

    Examples
    --------
    >>> recs = pd.DataFrame({"user": ["a", "a", "a", "b"], "item": [7, 8, 7, 7], "rank": [3, 1, 2, 1]})
    >>> keep_best_duplicates(recs)
      user  item  rank
    1    a     8     1
    2    a     7     2
    3    b     7     1
    """
    position = engine._position(recommendations)
    if position is None:
        return recommendations  # evaluate names the missing column
    order = np.lexsort((np.arange(len(recommendations)), position))
    best = ~recommendations.iloc[order].duplicated(["user", "item"], keep="first")
    return recommendations.iloc[np.sort(order[best.to_numpy()])]


def longest_list(recommendations: pd.DataFrame) -> int:
    """The most recommendation rows any one user has; 1 for a log without rows, so a range of K up to it
    is never empty.

    Examples
    --------
    >>> longest_list(pd.DataFrame({"user": ["a", "a", "b"], "item": [1, 2, 1], "rank": [1, 2, 1]}))
    2
    >>> longest_list(pd.DataFrame({"user": [], "item": [], "rank": []}))
    1
    """
    return int(recommendations.groupby("user").size().max()) if len(recommendations) else 1


def summarize(per_user: pd.DataFrame) -> Summary:
    """The mean of every column of :func:`evaluate`'s result and its user counts by reason.

    ``users`` is indexed by :data:`REASONS` keys. ``no_relevant`` counts users with
    recommendations whose ground truth is all grade 0; ``no_recommendations`` takes precedence
    when both apply.

    Examples
    --------
    >>> recs = pd.DataFrame({"user": ["a", "a", "z"], "item": [1, 2, 1], "score": [0.9, 0.1, 0.5]})
    >>> truth = pd.DataFrame({"user": ["a", "b"], "item": [2, 1]})
    >>> s = summarize(evaluate(recs, truth, 2))
    >>> float(s.means["reciprocal_rank"]), s.users.to_dict()
    (0.25, {'evaluated': 2, 'no_recommendations': 1, 'no_relevant': 0, 'no_ground_truth': 1})
    """
    if not isinstance(per_user, pd.DataFrame):
        raise ValueError(f"per_user must be the DataFrame evaluate returns, got {type(per_user).__name__}")
    counts = per_user.attrs.get("users") or {"evaluated": len(per_user)}
    users = pd.Series({reason: int(counts.get(reason, 0)) for reason in REASONS}, name="users")
    means = per_user.mean(axis=0, numeric_only=True) if len(per_user) else per_user.sum() * np.nan
    return Summary(means=means.rename("mean"), users=users)


# ----------------------------------------------------------------------------- trap scan

TRAPS = (
    "duplicate_recommendations", "duplicate_ground_truth", "tied_scores", "truth_without_recommendations",
    "recommendations_without_truth", "shorter_than_k", "relevant_never_recommended", "graded_zero",
    "negative_grades",
)
"""The traps :func:`scan_traps` counts, in the order it reports them."""


def scan_traps(recommendations: pd.DataFrame, ground_truth: pd.DataFrame, k: int) -> pd.DataFrame:
    """How many users each trap of a log touches, before any number is computed.

    Unlike :func:`evaluate` this does not stop at duplicates: it counts them. Missing columns
    and values that are not numbers still raise ``ValueError`` (there is nothing to scan).

    Returns
    -------
    pandas.DataFrame
        One row per :data:`TRAPS` key (index ``trap``): ``users`` (users touched) and ``rows``
        (rows or items involved). ``shorter_than_k`` counts users with ground truth and
        between 1 and K - 1 recommendations; ``graded_zero`` counts ground-truth rows with
        relevance 0; ``negative_grades`` ground-truth rows with a negative relevance (read as
        judged non-relevant, as trec_eval reads them).

    Examples
    --------
    >>> recs = pd.DataFrame({"user": [1, 1, 2], "item": [5, 6, 5], "score": [0.5, 0.5, 0.1]})
    >>> truth = pd.DataFrame({"user": [1, 3], "item": [7, 5], "relevance": [1, 0]})
    >>> scan_traps(recs, truth, 10)["users"].to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'duplicate_recommendations': 0, 'duplicate_ground_truth': 0, 'tied_scores': 1,
     'truth_without_recommendations': 1, 'recommendations_without_truth': 1, 'shorter_than_k': 1,
     'relevant_never_recommended': 1, 'graded_zero': 1, 'negative_grades': 0}
    """
    k = check_k(k)
    recs = engine._check_frame(recommendations, "recommendations", ("user", "item"))
    truth = engine._check_frame(ground_truth, "ground_truth", ("user", "item"))
    position = engine._position(recs)
    if position is None:
        raise DataError("no_rank_or_score", "recommendations needs a 'rank' column (1 = best) or a 'score' column "
                        "(higher = better)", found=[str(c) for c in recs.columns])
    grade = engine._numeric(truth, "ground_truth", "relevance") if "relevance" in truth.columns else np.ones(len(truth))
    rec_user, truth_user, _ = engine._shared_codes(recs["user"], truth["user"])
    rec_item, truth_item, _ = engine._shared_codes(recs["item"], truth["item"])
    r = pd.DataFrame({"user": rec_user, "item": rec_item, "order": position})
    t = pd.DataFrame({"user": truth_user, "item": truth_item, "grade": grade})

    def touched(frame: pd.DataFrame, mask) -> tuple[int, int]:
        return int(frame.loc[mask, "user"].nunique()), int(np.count_nonzero(mask))

    rec_users, truth_users = set(np.unique(rec_user).tolist()), set(np.unique(truth_user).tolist())
    lengths = r.groupby("user").size()
    short = lengths[(lengths < k) & lengths.index.isin(list(truth_users))]
    relevant = t[t["grade"] > 0]
    listed = relevant.merge(r[["user", "item"]].drop_duplicates(), on=["user", "item"], how="left", indicator=True)
    never = listed["_merge"].to_numpy() == "left_only"
    counts = {
        "duplicate_recommendations": touched(r, r.duplicated(["user", "item"], keep=False).to_numpy()),
        "duplicate_ground_truth": touched(t, t.duplicated(["user", "item"], keep=False).to_numpy()),
        "tied_scores": touched(r, r.duplicated(["user", "order"], keep=False).to_numpy()),
        "truth_without_recommendations": (len(truth_users - rec_users), int(np.isin(truth_user, list(truth_users - rec_users)).sum())),
        "recommendations_without_truth": (len(rec_users - truth_users), int(np.isin(rec_user, list(rec_users - truth_users)).sum())),
        "shorter_than_k": (len(short), int(short.sum())),
        "relevant_never_recommended": touched(listed, never),
        "graded_zero": touched(t, (t["grade"] == 0).to_numpy()),
        "negative_grades": touched(t, (t["grade"] < 0).to_numpy()),
    }
    return pd.DataFrame([{"trap": key, "users": counts[key][0], "rows": counts[key][1]} for key in TRAPS]).set_index("trap")
