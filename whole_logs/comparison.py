"""Two models' logs scored against one ground truth and compared user by user, as the Compare page shows them first:
each log's per-user metrics (:func:`whole_logs.batch.evaluate`) and the paired test of every metric
(:func:`whole_logs.significance.compare`)."""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd

from whole_logs import batch, significance


class LogComparison(NamedTuple):
    per_user_a: pd.DataFrame  # one row per user, one column per metric
    per_user_b: pd.DataFrame
    table: pd.DataFrame  # one row per metric: the means, the paired difference, its interval and test


def compare_logs(recommendations_a: pd.DataFrame, recommendations_b: pd.DataFrame, ground_truth: pd.DataFrame,
                 k: int, *, test: str = "paired_t", confidence: float = 0.95,
                 correction: str = "holm") -> LogComparison:
    """Both logs' metrics at ``k`` for every user of the ground truth, and their paired comparison. Raises
    ``ValueError`` for logs that cannot be compared."""
    per_user_a = batch.evaluate(recommendations_a, ground_truth, k)
    per_user_b = batch.evaluate(recommendations_b, ground_truth, k)
    return LogComparison(per_user_a, per_user_b, significance.compare(per_user_a, per_user_b, test=test,
                                                                      confidence=confidence, correction=correction))
