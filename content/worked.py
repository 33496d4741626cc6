"""The words of a worked solution (teaching/worked.py builds its lines in English as ``Phrase``s: a template
and its fields). Each template is marked here so the catalogs hold it; ``shown`` says a line in the
reader's language with its numbers in the reader's notation. A line that is no Phrase (or whose
template is not marked here) is shown as it is."""

from __future__ import annotations

import re

from content import numbers
from content.i18n import N_, _
from teaching.worked import Phrase

TEMPLATES = frozenset((
    N_("{prefix}: {title}"),
    N_("P@{k} = hits / K = {hits}/{k} = {p:.4f}"),
    N_("R@{k} = hits / |Rel| = {hits}/{rel} = {r:.4f}"),
    N_("hits in the top {k}: {hits}; relevant items (|Rel|): {rel}"),
    N_("F1@{k} = 2 · P · R / (P + R) = {f1:.4f}"),
    N_("Precision and recall at K = {k}"),
    N_("{n}/{i} = {v:.4f}"),
    N_("min(|Rel|, K) = min({rel}, {k})"),
    N_("|Rel| = {rel}"),
    N_("the hits = {hits}"),
    N_("none"),
    N_("hits in the top {k} at ranks {ranks}"),
    N_("precision@i at each hit: {terms}"),
    N_("their sum: {total:.4f}"),
    N_("divide by {name} = {divide_by}"),
    N_("AP@{k} = {total:.4f} / {divide_by} = {value:.4f}"),
    N_("AP@{k}: precision at each hit"),
    N_("the first relevant item is at rank {rank}"),
    N_("no relevant item in the list"),
    N_("RR = 1/{rank} = {rr:.4f}"),
    N_("RR: the first hit only (the whole list, not cut at K)"),
    N_("2^grade − 1"),
    N_("the grade"),
    N_("gain of each item: {gain}"),
    N_("discount at rank i: 1/log2(i + 1), ranks from 1 (rank 1: 1, rank 2: {second:.4f})"),
    N_("DCG@{k} = sum of the terms of the list = {dcg:.4f}"),
    N_("ideal: every relevant item, recommended or not, best grade first ({grades}), cut at K = {k}: IDCG@{k} = {idcg:.4f}"),
    N_("NDCG@{k} = DCG / IDCG = {dcg:.4f} / {idcg:.4f} = {ndcg:.4f}"),
    N_("NDCG@{k}: each rank's term"),
    N_("DCG@{k}: each rank's term"),
))

# The columns of a worked solution's table (teaching/worked.py) and the two lists of the NDCG table.
COLUMNS = {"rank": N_("rank"), "item": N_("item"), "hit": N_("hit"), "hits so far": N_("hits so far"),
           "precision@i at a hit": N_("precision@i at a hit"), "grade": N_("grade"), "gain": N_("gain"),
           "discount 1/log2(i+1)": N_("discount 1/log2(i+1)"), "term": N_("term"), "list": N_("list")}
LISTS = {"yours": N_("yours"), "ideal": N_("ideal")}

NO_MISTAKE_MATCHED = N_("Your number matches none of the common mistakes: compare your steps with these.")
WENT_WRONG = N_("**This step went wrong:** {step}")

_DIGITS = re.compile(r"\.(\d+)f")


class _Number:
    """A field that formats in the reader's notation, whatever format spec the template gives it."""

    def __init__(self, value):
        self.value = value

    def __format__(self, spec: str) -> str:
        digits = _DIGITS.search(spec)
        if digits:
            return numbers.number(float(self.value), int(digits.group(1)))
        if isinstance(self.value, float):
            return numbers.general(self.value)
        return format(self.value, spec)


def shown(line) -> str:
    """``line`` in the reader's language: a marked Phrase translated, its fields (and nested Phrases) too."""
    if not isinstance(line, Phrase) or line.template not in TEMPLATES:
        return str(line)
    fields = {name: shown(value) if isinstance(value, Phrase) else
              _Number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value
              for name, value in line.fields.items()}
    if isinstance(fields.get("prefix"), str):  # named by the practice page (teaching/practice.py), its catalog's
        fields["prefix"] = _(fields["prefix"])
    return _(line.template).format(**fields)


def table(frame):
    """The worked table with its Phrase cells and the NDCG table's list names in the reader's language."""
    frame = frame.copy()
    for column in frame.columns:
        if frame[column].dtype == object:
            frame[column] = [shown(v) if isinstance(v, Phrase) else v for v in frame[column]]
    if "list" in frame.columns:
        frame["list"] = [_(LISTS[v]) if v in LISTS else v for v in frame["list"]]
    return frame


def column_labels(frame) -> dict:
    """Translated headers for the columns this file names; any other column keeps its own header."""
    return {column: _(COLUMNS[column]) for column in frame.columns if column in COLUMNS}
