"""Pure helpers of the "Your data" page: the synthetic log, reading uploads, the settings and one evaluation,
shaping results, one user's case.

No Streamlit here, so each piece is tested alone; the page only lays them out.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from content import numbers
from content import your_data as words_of
from content.i18n import _
from content.pages import protocols as lab_words
from content.pages import your_data as words
from content.your_data import MAX_ROWS, TRAPS
from whole_logs import batch
from whole_logs.readers import read_table
from whole_logs.synthetic import synthetic_log

LABELS = {"precision": "Precision", "recall": "Recall", "f1": "F1", "hit_rate": "HR",
          "average_precision": "AP", "ndcg": "NDCG", "reciprocal_rank": "RR"}
MEAN_LABELS = {"average_precision": "MAP", "reciprocal_rank": "MRR", "hit_rate": "HR"}
CURVE_KS = (1, 2, 3, 5, 10, 15, 20, 30, 50, 100)
WORST_SHOWN = 10
SYNTHETIC = {"users": 2000, "list_length": 20, "relevant": 5, "quality": 0.5, "seed": 0}
"""The synthetic log the page opens with, and its generator's first settings."""
MAIN_METRICS = ("average_precision", "ndcg", "precision")
"""The first of these that is evaluated has the formula, the large histogram and the worst users' first ranking."""
TEACHING_K = 20
"""The teaching pages' K slider reaches max(TEACHING_K, list length)."""


class Upload(NamedTuple):
    name: str
    data: bytes
    fmt: str = "auto"


class Log(NamedTuple):
    recommendations: pd.DataFrame
    ground_truth: pd.DataFrame
    origin: tuple
    """("synthetic", settings), ("files", recommendations name, ground-truth name, rows left out) or ("lab", model,
    split, tuned): one model's top K handed over by the protocol lab."""

    @property
    def source(self) -> str:
        """Where the log comes from, in the reader's language."""
        if isinstance(self.origin, str):
            return self.origin
        if self.origin[0] == "synthetic":
            return words.synthetic_source(self.origin[1])
        if self.origin[0] == "lab":
            return lab_words.handed_log(*self.origin[1:])
        return words.files_source(*self.origin[1:])


class LoadError(ValueError):
    """A file that cannot be evaluated: ``kind`` and ``filename`` (None for an error of both files), and
    the engine's ``error`` (a ``metrics.errors.DataError`` when it has a code). ``message()`` says it in the
    reader's language; ``str()`` is the English."""

    def __init__(self, error: Exception, kind: str | None = None, filename: str = ""):
        self.error, self.kind, self.filename = error, kind, filename
        super().__init__(self.message())

    def message(self) -> str:
        if self.kind is None:
            return words_of.engine_error(self.error)
        return words_of.file_error(self.kind, self.filename, self.error)


class TooManyRows(NamedTuple):
    """Generator settings whose log would pass ``MAX_ROWS``: kept as numbers, said in the language of each rerun."""
    users: int
    list_length: int

    def message(self) -> str:
        return words.too_many_rows(self.users, self.list_length, MAX_ROWS)


def too_many_rows(settings: dict) -> TooManyRows | None:
    """Why the synthetic log of ``settings`` is not generated (it has a row per user and slot), or None."""
    if settings["users"] * settings["list_length"] > MAX_ROWS:
        return TooManyRows(settings["users"], settings["list_length"])
    return None


def synthetic(settings: dict) -> Log:
    recs, truth = synthetic_log(**settings)
    return Log(recs, truth, ("synthetic", dict(settings)))


class Settings(NamedTuple):
    """What the log is evaluated with: metrics, K values (ascending), the NDCG gain and the AP denominator."""
    metrics: list[str]
    ks: list[int]
    gain: str
    denominator: str

    @property
    def main_metric(self) -> str:
        return next((m for m in MAIN_METRICS if m in self.metrics), self.metrics[0])

    @property
    def main_k(self) -> int:
        return 10 if 10 in self.ks else self.ks[0]

    @property
    def main_column(self) -> str:
        return batch.column_name(self.main_metric, self.main_k)

    @property
    def columns(self) -> list[str]:
        """The per-user columns shown and downloaded: each metric at each K, then RR, which has no cut-off."""
        at_k = [batch.column_name(m, k) for m in self.metrics if m != "reciprocal_rank" for k in self.ks]
        return at_k + (["reciprocal_rank"] if "reciprocal_rank" in self.metrics else [])

    def columns_at(self, k: int) -> list[str]:
        return [batch.column_name(m, k) for m in self.metrics]

    @property
    def against_k(self) -> list[str]:
        """The metrics drawn against K: those with a cut-off, or RR when it is the only metric."""
        return [m for m in self.metrics if m != "reciprocal_rank"] or self.metrics


class Evaluation(NamedTuple):
    """A log evaluated with ``settings``: each user's values at the chosen K and at the curve's (``per_user_all``),
    their means and user counts, and the trap scan at the largest chosen K."""
    settings: Settings
    per_user_all: pd.DataFrame
    curve_ks: list[int]
    summary: batch.Summary
    traps: pd.DataFrame

    @property
    def per_user(self) -> pd.DataFrame:
        return self.per_user_all[self.settings.columns]

    @property
    def traps_found(self) -> int:
        return int((self.traps["users"] > 0).sum())


def evaluate(log: Log, settings: Settings) -> Evaluation:
    """Every user of ``log``; a ValueError when the settings cannot score it (grades too large for the gain)."""
    recs, truth = log.recommendations, log.ground_truth
    ks = curve_ks(settings.ks, batch.longest_list(recs))
    per_user = batch.evaluate(recs, truth, ks, metrics=settings.metrics, gain=settings.gain,
                              denominator=settings.denominator)
    return Evaluation(settings, per_user, ks, batch.summarize(per_user), batch.scan_traps(recs, truth, settings.ks[-1]))


def opened_k(column: str, main_k: int, list_length: int) -> int:
    """The K a user is opened at: the ranking column's (the main K for RR, which has none), as far as the teaching
    pages' K slider reaches."""
    return min(int(column.partition("@")[2] or main_k), max(TEACHING_K, list_length))


def column_label(column: str) -> str:
    """``"average_precision@10"`` -> ``"AP@10"``; ``"reciprocal_rank"`` -> ``"RR"``."""
    metric, _, k = column.partition("@")
    return LABELS[metric] + (f"@{k}" if k else "")


def load_files(recommendations: Upload, ground_truth: Upload, keep_best_duplicates: bool = False) -> Log:
    """Read both files and check them as the engine will; a ValueError says which file and why.

    With ``keep_best_duplicates``, an item recommended twice to a user keeps its best-ranked row.
    """
    tables = {}
    for kind, upload in (("recommendations", recommendations), ("ground_truth", ground_truth)):
        try:
            tables[kind] = read_table(upload.data, kind, upload.fmt, filename=upload.name, max_rows=MAX_ROWS)
        except ValueError as error:
            raise LoadError(error, kind, upload.name) from None
    recs = tables["recommendations"]
    if keep_best_duplicates:
        recs = batch.keep_best_duplicates(recs)
    dropped = len(tables["recommendations"]) - len(recs)
    try:
        batch.rank_rows(recs, tables["ground_truth"])  # the engine's own checks
    except ValueError as error:
        raise LoadError(error) from None
    return Log(recs, tables["ground_truth"], ("files", recommendations.name, ground_truth.name, dropped))


def curve_ks(ks: list[int], longest_list: int) -> list[int]:
    """The K values of the metric-against-K chart: the chosen ones and a spread up to the list length."""
    top = max(max(ks), min(longest_list, CURVE_KS[-1]))
    return sorted({k for k in CURVE_KS if k <= top} | set(ks))


def summary_table(means: pd.Series, ks: list[int], metrics: list[str]) -> pd.DataFrame:
    """One row per metric, one column per K ("K = 10"); RR has no cut-off, so one value for all."""
    rows = []
    for metric in metrics:
        label = MEAN_LABELS.get(metric, LABELS[metric])
        label = _(words.NO_CUT_OFF).format(metric=label) if metric == "reciprocal_rank" else label + "@K"
        rows.append({"metric": label, **{f"K = {k}": float(means[batch.column_name(metric, k)]) for k in ks}})
    return pd.DataFrame(rows)


def users_table(users: pd.Series) -> pd.DataFrame:
    return pd.DataFrame({"users": users.to_numpy(), "meaning": [_(words.REASONS[r]) for r in users.index]})


def curves(means: pd.Series, ks: list[int], metrics: list[str]) -> pd.DataFrame:
    """Mean of each metric at each K: columns k, metric (label), mean."""
    rows = [{"k": k, "metric": MEAN_LABELS.get(m, LABELS[m]), "mean": float(means[batch.column_name(m, k)])}
            for m in metrics for k in ks]
    return pd.DataFrame(rows)


def trap_table(traps: pd.DataFrame) -> pd.DataFrame:
    """The scan as a table: trap (its label), users touched, rows."""
    return pd.DataFrame({"trap": [_(TRAPS[key].label) for key in traps.index],
                         "users": traps["users"].to_numpy(), "rows": traps["rows"].to_numpy()})


def trap_notes(traps: pd.DataFrame) -> list[str]:
    """One Markdown line per trap found: how many users, what this app does, other libraries."""
    return [words.trap_note(_(TRAPS[key].label), int(row.users), int(row.rows), _(TRAPS[key].app),
                            _(TRAPS[key].libraries)) for key, row in traps.iterrows() if row.users > 0]


def worst_users(per_user: pd.DataFrame, column: str, n: int = WORST_SHOWN) -> pd.DataFrame:
    """The ``n`` users with the lowest ``column``, ties by user order: the user, that column first,
    then the other metrics at the same K (RR's row shows the smallest K) and RR."""
    k = column.partition("@")[2] or min((c.partition("@")[2] for c in per_user.columns if "@" in c), key=int, default="")
    shown = [column] + [c for c in per_user.columns if c != column and (c.partition("@")[2] in (k, ""))]
    ranked = per_user[shown].reset_index()
    ranked = ranked.iloc[np.lexsort((np.arange(len(ranked)), ranked[column].to_numpy()))]
    return ranked.head(n).reset_index(drop=True)


def user_case(log: Log, user) -> tuple[list, dict]:
    """One user's list in the engine's order and their grades, as the shared scenario takes them."""
    recs = log.recommendations[log.recommendations["user"] == user]
    truth = log.ground_truth[log.ground_truth["user"] == user]
    order = batch.rank_rows(recs, truth).order if len(recs) else None
    ordered = recs if order is None else recs.iloc[order]
    grades = truth["relevance"].astype(float) if "relevance" in truth.columns else pd.Series(1.0, index=truth.index)
    return ordered["item"].tolist(), dict(zip(truth["item"], grades, strict=True))


def mean_formula(metric: str, k: int, per_user: pd.DataFrame) -> tuple[str, str]:
    """The mean over users in general and with this log's numbers."""
    column = batch.column_name(metric, k)
    label = column_label(column)
    mean_label = MEAN_LABELS.get(metric, LABELS[metric]) + ("" if metric == "reciprocal_rank" else f"@{k}")
    total, n = float(per_user[column].sum()), len(per_user)
    general = rf"\mathrm{{{mean_label}}}=\frac{{1}}{{|U|}}\sum_{{u\in U}}\mathrm{{{label}}}_u"
    value = total / n if n else float("nan")
    # The sum grouped like the count under it (1.153,4745 / 2.000 in Turkish, not 1153,4745 / 2.000).
    substituted = (rf"\mathrm{{{mean_label}}}=\frac{{{numbers.latex(total, 4, grouped=True)}}}"
                   rf"{{{numbers.latex_integer(n)}}}={numbers.latex(value, 4)}")
    return general, substituted
