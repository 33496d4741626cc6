"""The named mistakes a teacher's question can offer as wrong options, on one ranking case.

Practice's catalogue (``teaching.practice.QUIZ_METRICS``: AP's other denominators, ranks counted from 0, RR cut at K,
the other gain, the ideal built from the list) and four more that a question of choices invites: Precision for
Recall and back, @K ignored (the whole list counted), no IDCG (DCG given as NDCG), and the plain mean for F1. Each is
the metric computed with that one mistake, by ``metrics`` or :mod:`teaching.mistakes`; the names are English and
``content.practice.mistake`` words them in the reader's language.
"""

from __future__ import annotations

from dataclasses import replace

from metrics import registry
from metrics.ndcg import dcg_at_k
from metrics.registry import RankingCase
from teaching.practice import QUIZ_METRICS

RECALL_FOR_PRECISION = "Recall instead of Precision (the hits divided by the relevant items, not by K)"
PRECISION_FOR_RECALL = "Precision instead of Recall (the hits divided by K, not by the relevant items)"
K_IGNORED = "@K ignored: the whole list of {n} counted instead of the top {k}"
NO_IDCG = "no IDCG: DCG@K not divided by the ideal DCG@K"
PLAIN_MEAN = "the plain mean of precision and recall instead of the harmonic mean"

REGISTRY_KEYS = {"ndcg_at_k": "ndcg_graded_at_k"}
"""Lesson value keys the registry names differently."""

METRICS = ("precision_at_k", "recall_at_k", "f1_at_k", "hit_rate_at_k", "ap_at_k", "rr", "ndcg_at_k")
"""The ranking metrics a teacher's question can ask about."""


def compute(metric: str, case: RankingCase) -> float:
    """The right value of ``metric`` (a lesson key) on ``case``, as ``metrics.registry`` computes it."""
    return float(registry.BY_KEY[REGISTRY_KEYS.get(metric, metric)].compute(case))


def named_mistakes(metric: str, case: RankingCase) -> dict[str, float | None]:
    """Each named mistake for ``metric`` and what it gives on ``case`` (None where it has no finite value).

    Equal numbers, and numbers equal to the right one, are left in: the proposer (``content.lessons.editor``)
    drops them, so a test can check each proposal against this computation.
    """
    found: dict[str, float | None] = {}
    if metric == "precision_at_k":
        found[RECALL_FOR_PRECISION] = compute("recall_at_k", case)
    if metric == "recall_at_k":
        found[PRECISION_FOR_RECALL] = compute("precision_at_k", case)
    if metric == "f1_at_k":
        found[PLAIN_MEAN] = (compute("precision_at_k", case) + compute("recall_at_k", case)) / 2
    if metric == "ndcg_at_k":
        found[NO_IDCG] = dcg_at_k([case.ground_truth.get(item, 0.0) for item in case.recommended], case.k,
                                  gain=case.gain)
    if metric != "rr" and case.recommended and len(case.recommended) != case.k:
        found[K_IGNORED.format(n=len(case.recommended), k=case.k)] = \
            compute(metric, replace(case, k=len(case.recommended)))
    # The four above first: where two mistakes give one number, the commoner one names it.
    return {**found, **(QUIZ_METRICS[metric].mistakes(case) if metric in QUIZ_METRICS else {})}
