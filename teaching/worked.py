"""Worked solutions for practice questions: the table and the steps a hand calculation goes through.

Every number comes from the metric modules; :func:`slip` names the step a diagnosed mistake changes,
so a wrong answer can be shown the full solution with the learner's step that went wrong marked.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import log2

import pandas as pd

from metrics import ndcg, ranked_metrics, topn_metrics
from metrics.registry import RankingCase


class Phrase(str):
    """An English line built from a template and its fields: reads as the English text everywhere, and
    keeps the template and fields so the UI can say it in the reader's language (content/worked.py)."""

    template: str
    fields: dict

    def __new__(cls, template: str, **fields):
        phrase = super().__new__(cls, template.format(**fields))
        phrase.template, phrase.fields = template, fields
        return phrase


@dataclass(frozen=True)
class Worked:
    title: str
    table: pd.DataFrame
    steps: tuple[tuple[str, str], ...]   # (step key, the step with its numbers)
    marked: str | None = None            # the key of the step that went wrong, if known

    def titled(self, prefix: str) -> Worked:
        return Worked(Phrase("{prefix}: {title}", prefix=prefix, title=self.title), self.table, self.steps, self.marked)

    def with_mark(self, step: str | None) -> Worked:
        keys = {key for key, _ in self.steps}
        return Worked(self.title, self.table, self.steps, step if step in keys else None)


def _hits_table(case: RankingCase) -> pd.DataFrame:
    table = topn_metrics.top_k_table(case.recommended, case.ground_truth, case.k)
    table = table[table["in_top_k"]]
    return pd.DataFrame({"rank": table["rank"], "item": table["item"].astype(str),
                         "hit": ["✓" if h else "" for h in table["hit"]]})


def _topn(metric: str, case: RankingCase) -> Worked:
    counts = topn_metrics.topn_counts(case.recommended, case.ground_truth, case.k)
    hits, rel, k = counts["hits"], counts["n_relevant"], case.k
    p = hits / k
    r = hits / rel if rel else 0.0
    precision = ("precision", Phrase("P@{k} = hits / K = {hits}/{k} = {p:.4f}", k=k, hits=hits, p=p))
    recall = ("recall", Phrase("R@{k} = hits / |Rel| = {hits}/{rel} = {r:.4f}", k=k, hits=hits, rel=rel, r=r))
    steps = [("hits", Phrase("hits in the top {k}: {hits}; relevant items (|Rel|): {rel}", k=k, hits=hits, rel=rel))]
    if metric == "f1_at_k":
        steps += [precision, recall, ("result", Phrase("F1@{k} = 2 · P · R / (P + R) = {f1:.4f}", k=k,
                                                       f1=topn_metrics.f1_at_k(p, r)))]
    else:
        steps.append(precision if metric == "precision_at_k" else recall)
    return Worked(Phrase("Precision and recall at K = {k}", k=k), _hits_table(case), tuple(steps))


def _ap(case: RankingCase) -> Worked:
    table = ranked_metrics.average_precision_table(case.recommended, case.ground_truth, case.k)
    shown = pd.DataFrame({"rank": table["rank"], "item": table["item"].astype(str),
                          "hit": ["✓" if h else "" for h in table["hit"]],
                          "hits so far": table["hits_so_far"],
                          # object, not pandas' str dtype, which would keep plain strings and lose each Phrase
                          # (its numbers then shown with a point in every language: "1/1 = 1.0000")
                          "precision@i at a hit": pd.Series(
                              [Phrase("{n}/{i} = {v:.4f}", n=n, i=i, v=v) if h else ""
                               for n, i, v, h in zip(table["hits_so_far"], table["rank"], table["precision_at_i"],
                                                     table["hit"], strict=True)], index=table.index, dtype=object)})
    hits = table[table["hit"]]
    total = float(hits["precision_at_i"].sum())
    n_rel = len(case.binary_truth)
    divide_by = ranked_metrics.ap_denominator(n_rel, case.k, len(hits), case.ap_denominator)
    value = total / divide_by if divide_by else 0.0
    terms = " + ".join(f"{n}/{i}" for n, i in zip(hits["hits_so_far"], hits["rank"], strict=True)) or "0"
    names = {"min": Phrase("min(|Rel|, K) = min({rel}, {k})", rel=n_rel, k=case.k),
             "relevant": Phrase("|Rel| = {rel}", rel=n_rel), "hits": Phrase("the hits = {hits}", hits=len(hits))}
    ranks = ", ".join(map(str, hits["rank"])) or Phrase("none")
    steps = (("hits", Phrase("hits in the top {k} at ranks {ranks}", k=case.k, ranks=ranks)),
             ("precision_at_i", Phrase("precision@i at each hit: {terms}", terms=terms)),
             ("sum", Phrase("their sum: {total:.4f}", total=total)),
             ("divide", Phrase("divide by {name} = {divide_by}", name=names[case.ap_denominator], divide_by=divide_by)),
             ("result", Phrase("AP@{k} = {total:.4f} / {divide_by} = {value:.4f}", k=case.k, total=total,
                               divide_by=divide_by, value=value)))
    return Worked(Phrase("AP@{k}: precision at each hit", k=case.k), shown, steps)


def _rr(case: RankingCase) -> Worked:
    rank = ranked_metrics.first_hit_rank(case.recommended, case.ground_truth)
    table = _hits_table(RankingCase(case.recommended, case.ground_truth, len(case.recommended)))
    steps = (("first_hit", Phrase("the first relevant item is at rank {rank}", rank=rank) if rank
              else Phrase("no relevant item in the list")),
             ("result", Phrase("RR = 1/{rank} = {rr:.4f}", rank=rank, rr=1 / rank) if rank else "RR = 0"))
    return Worked(Phrase("RR: the first hit only (the whole list, not cut at K)"), table, steps)


def _dcg_table(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({"rank": table["rank"], "item": table["item"].astype(str), "grade": table["relevance"],
                         "gain": table["gain"], "discount 1/log2(i+1)": table["discount"].round(4),
                         "term": table["contribution"].round(4)})


def _ndcg(metric: str, case: RankingCase) -> Worked:
    actual, ideal = ndcg.ndcg_tables(case.recommended, case.ground_truth, case.k, gain=case.gain)
    dcg = float(actual["contribution"].sum())
    idcg = float(ideal["contribution"].sum())
    gain = Phrase("2^grade − 1") if case.gain == "exponential" else Phrase("the grade")
    steps = [("gain", Phrase("gain of each item: {gain}", gain=gain)),
             ("discount", Phrase("discount at rank i: 1/log2(i + 1), ranks from 1 (rank 1: 1, rank 2: {second:.4f})",
                                 second=1 / log2(3))),
             ("dcg", Phrase("DCG@{k} = sum of the terms of the list = {dcg:.4f}", k=case.k, dcg=dcg))]
    table = _dcg_table(actual).assign(list="yours")
    if metric == "ndcg_at_k":
        shown = ", ".join(f"{g:g}" for g in ideal["relevance"])
        steps += [("idcg", Phrase("ideal: every relevant item, recommended or not, best grade first ({grades}), "
                                  "cut at K = {k}: IDCG@{k} = {idcg:.4f}", grades=shown, k=case.k, idcg=idcg)),
                  ("result", Phrase("NDCG@{k} = DCG / IDCG = {dcg:.4f} / {idcg:.4f} = {ndcg:.4f}", k=case.k, dcg=dcg,
                                    idcg=idcg, ndcg=dcg / idcg if idcg else 0.0))]
        table = pd.concat([table, _dcg_table(ideal).assign(list="ideal")], ignore_index=True)
    title = "NDCG@{k}: each rank's term" if metric == "ndcg_at_k" else "DCG@{k}: each rank's term"
    return Worked(Phrase(title, k=case.k), table, tuple(steps))


def ranking_solution(metric: str, case: RankingCase) -> Worked:
    """The worked solution of a ranking metric of the quiz for ``case``."""
    if metric in ("precision_at_k", "recall_at_k", "f1_at_k"):
        return _topn(metric, case)
    if metric == "ap_at_k":
        return _ap(case)
    if metric == "rr":
        return _rr(case)
    return _ndcg(metric, case)


# Which step a mistaken convention changes, by the words that name it (teaching.practice's names).
_SLIPS = (("ideal", "idcg"), ("divided by", "divide"), ("gain", "gain"), ("log base e", "discount"),
          ("RR cut at K", "first_hit"))
_FROM_ZERO = {"ap_at_k": "precision_at_i", "rr": "first_hit", "dcg_at_k": "discount", "ndcg_at_k": "discount"}


def slip(metric: str, mistake: str | None) -> str | None:
    """The worked step a named mistake goes wrong at, or None if no mistake was recognised.

    Examples
    --------
    >>> slip("ndcg_at_k", "the ideal ranking built from the top K = 5 of the list only"), slip("ap_at_k", None)
    ('idcg', None)
    """
    if mistake is None:
        return None
    if "ranks counted from 0" in mistake:
        return _FROM_ZERO.get(metric)
    return next((step for words, step in _SLIPS if words in mistake), "result")
