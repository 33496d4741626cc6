r"""The engine under :func:`whole_logs.batch.evaluate`: every user of a recommendation log at once.

Validates the two long tables, codes the ids, puts each user's rows in rank order, joins the grades
(:func:`rank_rows`) and scores every user together (:func:`score_ranked_rows`): one sort, group
boundaries and cumulative sums, no Python loop per user. :mod:`whole_logs.batch` is what callers use;
:mod:`whole_logs.blocks` runs this engine on blocks of a large log. The results equal the per-user
functions of :mod:`metrics.topn_metrics`, :mod:`metrics.ranked_metrics` and :mod:`metrics.ndcg`
on every user (the tests check it).
user (the tests check it), but run on all users together: one sort, group boundaries and
cumulative sums, no Python loop per user (10 million rows in well under a second).

Conventions
-----------
Order within a user
    By ``rank`` ascending (1 = best) when the table has a ``rank`` column, otherwise by ``score``
    descending. Ties (equal ranks or equal scores) are broken by **item id ascending** (numbers by
    value, text alphabetically), for every metric alike, so the result never depends on the row
    order of the file. trec_eval breaks ties by document id *descending*, ranx by input order.
Relevant
    A ground-truth item with ``relevance`` > 0 (trec_eval's default relevance level); a missing
    ``relevance`` column means 1 for every row. Grade-0 rows are judged non-relevant items.
Users with ground truth but no recommendations
    Score 0 on every metric and count in the means (their list is empty), as trec_eval with
    ``-c`` and the seed documents. Plain trec_eval (and pytrec_eval) leaves them out of its
    mean; ranx needs them in the run (``make_comparable=True`` adds them with an empty list,
    scoring 0).
Users with ground truth whose grades are all 0
    Score 0 on every metric and count in the means, as trec_eval and ranx.
Users with recommendations but no ground truth
    Are left out (there is nothing to score them against) and counted in
    ``per_user.attrs["users"]``; trec_eval also ignores such a query, and ranx drops it with
    ``make_comparable=True``.

Chunks
------
The arithmetic is :func:`score_ranked_rows`, which takes the arrays of one chunk of users already
sorted, so a distributed job can run it per partition (each user's rows in one partition);
:func:`evaluate` on a chunk of users' rows gives those users' rows of the whole result (a chunk
with no ground truth gives no row, only its user counts), and :func:`combine` joins the chunks'
results, counts summed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.errors import DataError
from metrics._validation import check_choice, check_k
from metrics.ndcg import GAINS, discounts, gain_of
from metrics.ranked_metrics import AP_DENOMINATORS


METRICS = ("precision", "recall", "f1", "hit_rate", "average_precision", "ndcg", "reciprocal_rank")
"""Metric names accepted by ``metrics=``; every one but ``reciprocal_rank`` is computed at each K."""

AT_K = METRICS[:-1]

REASONS = {
    "evaluated": "users with ground truth, in the means",
    "no_recommendations": "ground truth but no recommendations: scored 0, in the means",
    "no_relevant": "ground truth graded 0 only: scored 0, in the means",
    "no_ground_truth": "recommendations but no ground truth: left out of the means",
}
"""The user counts :func:`evaluate` records in ``per_user.attrs["users"]``, and what each means."""

SHOWN_ROWS = 5
"""How many offending rows an error message lists."""

TIES = ("item", "trec_eval", "input")
"""How equal ranks or scores within a user are ordered: by item id ascending (the default), as
trec_eval does (by document id descending, compared as text, byte by byte like C's strcmp), or
in the order the rows come in the table."""

PACK_BLOCK = 1 << 20
"""Rows packed into sort keys this many at a time (an arange of the block, not of the table)."""

EXACT_INTEGERS = 2**53
"""Integers above this are not all exact as float64: larger integer ranks are ordered as integers."""


def column_name(metric: str, k: int | None) -> str:
    """``"ndcg@10"``, or ``"reciprocal_rank"`` which has no cut-off."""
    return metric if metric == "reciprocal_rank" else f"{metric}@{k}"


# ----------------------------------------------------------------------------- validation


def _rows(frame: pd.DataFrame, positions: np.ndarray) -> str:
    """'rows 3, 8 and 12' using the frame's index labels (readers label rows by file line)."""
    word = frame.index.name or "row"
    labels = [str(label) for label in frame.index[positions[:SHOWN_ROWS]]]
    more = f" (and {len(positions) - SHOWN_ROWS} more)" if len(positions) > SHOWN_ROWS else ""
    listed = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
    return f"{word}{'s' if len(labels) > 1 else ''} {listed}{more}"


def _where(frame: pd.DataFrame, positions: np.ndarray) -> dict:
    """The facts of :func:`_rows` for a translated message: the unit (line or row), the labels, how many more."""
    return {"unit": frame.index.name or "row", "labels": [str(label) for label in frame.index[positions[:SHOWN_ROWS]]],
            "more": max(len(positions) - SHOWN_ROWS, 0)}


def _values(values: Sequence, positions: np.ndarray) -> str:
    return ", ".join(repr(v) for v in np.asarray(values, dtype=object)[positions[:SHOWN_ROWS]])


def _hold(positions: np.ndarray) -> str:
    return "holds" if len(positions) == 1 else "hold"


def _check_frame(frame: object, name: str, required: Sequence[str]) -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"{name} must be a pandas DataFrame, got {type(frame).__name__}")
    missing = [c for c in required if c not in frame.columns]
    if missing:
        found = ", ".join(repr(str(c)) for c in frame.columns) or "none"
        raise DataError(
            "table_missing_column", f"{name} is missing column {', '.join(repr(c) for c in missing)} "
            f"(found columns: {found})", table=name, missing=missing, found=[str(c) for c in frame.columns],
        )
    for column in ("user", "item"):
        values = frame[column]
        missing = values.isna().to_numpy()
        if not pd.api.types.is_numeric_dtype(values.dtype):
            missing = missing | (values == "").to_numpy(dtype=bool, na_value=True)
        empty = np.flatnonzero(missing)
        if empty.size:
            raise DataError("empty_ids", f"{name} column '{column}' is empty at {_rows(frame, empty)}", table=name,
                            column=column, **_where(frame, empty))
    return frame


def _check_hashable(frame: pd.DataFrame, name: str, column: str) -> None:
    """Raise naming the rows whose id is a list, dict or array (run only when factorizing failed)."""
    values = frame[column]
    nested = np.flatnonzero(values.map(lambda v: isinstance(v, (list, tuple, dict, set, np.ndarray))).to_numpy())
    if nested.size:
        kind = type(values.iloc[nested[0]]).__name__
        raise DataError("nested_ids", f"{name} column '{column}' must hold one id per row; {_rows(frame, nested)} "
                        f"{_hold(nested)} a {kind}", table=name, column=column, type=kind, **_where(frame, nested))


def _numeric(frame: pd.DataFrame, name: str, column: str) -> np.ndarray:
    """The column as finite float64, or a ValueError naming the rows that are not numbers."""
    series = frame[column]
    if series.dtype == bool:
        series = series.astype(float)
    if series.dtype == np.float64:
        values = series.to_numpy()  # no copy: the check below finds NaN too
    elif pd.api.types.is_numeric_dtype(series.dtype):
        values = series.to_numpy(dtype=float, na_value=np.nan)
    else:
        values = pd.to_numeric(series, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    finite = np.isfinite(values)
    if not finite.all():
        bad = np.flatnonzero(~finite)
        raise DataError(
            "not_numbers", f"{name} column '{column}' must hold finite numbers; {_rows(frame, bad)} "
            f"{_hold(bad)} {_values(series.to_numpy(dtype=object), bad)}", table=name, column=column,
            values=_values(series.to_numpy(dtype=object), bad), **_where(frame, bad),
        )
    return values


class DuplicatePairsError(DataError):
    """A (user, item) pair given twice in ``table`` ("recommendations" or "ground_truth")."""

    def __init__(self, message: str, table: str, **fields):
        super().__init__("duplicate_pairs", message, table=table, **fields)
        self.table = table


def _check_unique_pairs(keys_sorted: np.ndarray, order: np.ndarray, frame: pd.DataFrame, name: str) -> None:
    """Raise if two rows share (user, item); ``keys_sorted`` are the pair keys sorted by ``order``."""
    repeated = np.flatnonzero(keys_sorted[1:] == keys_sorted[:-1])
    if not repeated.size:
        return
    duplicate_key = keys_sorted[repeated[np.argmin(order[repeated])]]
    same = np.sort(order[keys_sorted == duplicate_key])
    user = frame["user"].iloc[same[:1]].tolist()[0]
    item = frame["item"].iloc[same[:1]].tolist()[0]
    raise DuplicatePairsError(
        f"{name} has duplicate (user, item) pairs in columns 'user' and 'item': user {user!r}, "
        f"item {item!r} at {_rows(frame, same)}; {repeated.size} row(s) in all repeat an earlier pair", name,
        user=repr(user), item=repr(item), repeats=int(repeated.size), **_where(frame, same),
    )


def check_ks(k: int | Iterable[int]) -> list[int]:
    """K as a sorted list of distinct positive integers."""
    ks = [k] if isinstance(k, (int, np.integer)) or not isinstance(k, Iterable) else list(k)
    if not ks:
        raise ValueError("k must be a positive integer or a non-empty list of them, got []")
    return sorted({check_k(int(v) if isinstance(v, np.integer) else v) for v in ks})


def check_metrics(metrics: Iterable[str] | None) -> list[str]:
    if metrics is None:
        return list(METRICS)
    chosen = [metrics] if isinstance(metrics, str) else list(metrics)
    for metric in chosen:
        check_choice(metric, "metrics", METRICS)
    if not chosen:
        raise ValueError(f"metrics must name at least one of {', '.join(METRICS)}")
    return [m for m in METRICS if m in chosen]


# ----------------------------------------------------------------------------- encoding


def as_id_text(ids: pd.Series) -> pd.Series:
    """Numeric ids as the text a person writes for them: 7.0 is "7", 7.5 is "7.5".

    Examples
    --------
    >>> as_id_text(pd.Series([7.0, 7.5, 12])).tolist()
    ['7', '7.5', '12']
    """
    if pd.api.types.is_float_dtype(ids.dtype):
        values = ids.to_numpy(dtype=float, na_value=np.nan)
        whole = np.isfinite(values) & (values == np.round(values)) & (np.abs(values) < EXACT_INTEGERS)
        if whole.all():
            return pd.Series(values.astype(np.int64), index=ids.index).astype(str)
        text = ids.map(repr).astype(str)
        text[whole] = pd.Series(values[whole].astype(np.int64)).astype(str).to_numpy()
        return text
    if pd.api.types.is_integer_dtype(ids.dtype):  # each distinct id written once (10M ids: 0.35 s, not 0.9 s + a hash of text)
        codes, uniques = pd.factorize(ids)
        return pd.Series(pd.Categorical.from_codes(codes, categories=uniques.astype(str)), index=ids.index)
    return ids.astype(str)


def _as_text(ids: pd.Series) -> pd.Series:
    """Ids as text; a Categorical of text stays one (the command line reads text ids so)."""
    if isinstance(ids.dtype, pd.CategoricalDtype) and ids.cat.categories.inferred_type in ("string", "empty"):
        return ids
    return ids.astype(str)


def same_kind(a: pd.Series, b: pd.Series) -> tuple[pd.Series, pd.Series]:
    """Ids that are numbers on one side and text on the other are compared as text, the numbers
    written as a person writes them (7.0 from a Parquet file matches "7" from a CSV file)."""
    a_numeric, b_numeric = pd.api.types.is_numeric_dtype(a.dtype), pd.api.types.is_numeric_dtype(b.dtype)
    if a_numeric != b_numeric:
        return (as_id_text(a) if a_numeric else _as_text(a)), (as_id_text(b) if b_numeric else _as_text(b))
    return a, b


def _shared_codes(a: pd.Series, b: pd.Series) -> tuple[np.ndarray, np.ndarray, pd.Index]:
    """Integer codes for the values of two columns, numbered in sorted order of the values.

    Returns the codes of ``a``, the codes of ``b`` and the label of each code. Integer ids
    whose range is not much larger than the tables are their own codes (id - smallest id), which
    skips hashing; codes that no row uses are harmless (their users have no rows).
    """
    (raw_a, map_a), (raw_b, map_b), labels = _code_maps(a, b)
    return _gathered(raw_a, map_a), _gathered(raw_b, map_b), labels


def _gathered(raw: np.ndarray, code_map: np.ndarray | None) -> np.ndarray:
    """The codes :func:`_code_maps` describes: ``code_map[raw]``, or ``raw`` itself without a map."""
    return raw if code_map is None else code_map[raw]


def _code_maps(a: pd.Series, b: pd.Series):
    """``(raw_a, map_a), (raw_b, map_b), labels``: the codes of :func:`_shared_codes` are
    ``map[raw]`` (``raw`` itself where the map is None). Equal raw codes are equal ids within
    one column, so a caller that only compares rows of one table needs no gather of 10M codes."""
    a, b = same_kind(a, b)
    if pd.api.types.is_integer_dtype(a.dtype) and pd.api.types.is_integer_dtype(b.dtype):
        va, vb = a.to_numpy(dtype=np.int64), b.to_numpy(dtype=np.int64)
        lo = min(int(va.min(initial=2**62)), int(vb.min(initial=2**62)))
        hi = max(int(va.max(initial=-(2**62))), int(vb.max(initial=-(2**62))))
        if hi - lo < max(2 * (va.size + vb.size), 1 << 20):
            if lo >= 0 and hi < max(2 * (va.size + vb.size), 1 << 20):
                lo = 0  # non-negative ids are their own codes: no copy of the columns
            return ((va - lo if lo else va), None), ((vb - lo if lo else vb), None), pd.RangeIndex(lo, hi + 1)
    (raw_a, remap_a, uniques_a), (raw_b, remap_b, uniques_b) = _factorize(a), _factorize(b)
    try:
        labels = pd.Index(uniques_a).union(pd.Index(uniques_b), sort=True)
    except TypeError:  # ids of mixed types: any one consistent order
        labels = pd.Index(uniques_a).union(pd.Index(uniques_b), sort=False)
    # Each table's codes come in one gather from its small map of distinct values: a column of
    # 10M ids is copied once, not once per step.
    map_a = labels.get_indexer(pd.Index(uniques_a)).astype(np.int64)
    map_b = labels.get_indexer(pd.Index(uniques_b)).astype(np.int64)
    return ((raw_a, map_a if remap_a is None else map_a[remap_a]), (raw_b, map_b if remap_b is None else map_b[remap_b]),
            labels)


def _factorize(values: pd.Series) -> tuple[np.ndarray, np.ndarray | None, pd.Index]:
    """Raw codes, the map from raw code to the rank of its value in sorted order (None: the raw
    codes are those ranks), and the sorted values. A Categorical (ids dictionary-encoded while
    reading) only sorts its categories, and its codes are used as they are."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        categories = values.cat.categories
        by_value = categories.argsort()
        rank = np.empty(len(categories), dtype=np.int64)
        rank[by_value] = np.arange(len(categories))
        return values.cat.codes.to_numpy(), rank, categories[by_value]
    codes, uniques = pd.factorize(values, sort=True)
    return codes, None, uniques


def _pair_keys(users: np.ndarray, items: np.ndarray, n_items: int) -> np.ndarray:
    if (int(users.max(initial=0)) + 1) * max(n_items, 1) >= 2**62:
        raise ValueError("too many distinct users x items to encode (more than 2**62 pairs)")
    keys = users * n_items
    keys += items
    return keys


def _sort_keys(keys: np.ndarray, major: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The keys sorted and the row each came from. ``keys`` is sorted in place (its buffer is reused).

    When key and row number fit in 63 bits together they are packed into one int64 and sorted
    by value, about twice as fast as an argsort followed by a gather; the rows are packed block
    by block and unpacked as int32, so the sort touches little memory beyond the keys. Sorted by
    :func:`_sort_in_place`, run by run when the rows come in order of ``major``.
    """
    n = keys.size
    row_bits = max(1, (n - 1).bit_length())
    if n and int(keys.max()) < 1 << (62 - row_bits):
        keys <<= row_bits
        for start in range(0, n, PACK_BLOCK):
            block = keys[start:start + PACK_BLOCK]
            block |= np.arange(start, start + block.size, dtype=np.int64)
        _sort_in_place(keys, major)
        rows = np.empty(n, dtype=np.int32 if n < 2**31 else np.int64)
        for start in range(0, n, PACK_BLOCK):  # a cast into `out` would run in numpy's small buffers
            rows[start:start + PACK_BLOCK] = keys[start:start + PACK_BLOCK] & ((1 << row_bits) - 1)
        keys >>= row_bits
        return keys, rows
    order = np.argsort(keys, kind="stable")
    return keys[order], order


def _sort_in_place(keys: np.ndarray, major: np.ndarray) -> None:
    """Sort ``keys`` in place, where ``major`` is the keys' leading part. When the rows already come
    in order of ``major``, each run of equal ``major`` is sorted alone: as rows of a 2-D view when
    every run is equally long (fixed-length lists: 10M keys in 0.02-0.05 s), else by a stable sort
    (timsort), which only orders each run (0.18 s); otherwise one quicksort (0.65 s)."""
    n = keys.size
    if n < 2 or not np.all(major[1:] >= major[:-1]):
        keys.sort()
        return
    length = _list_length(np.flatnonzero(np.r_[True, major[1:] != major[:-1]]), n)
    if length:
        keys.reshape(-1, length).sort(axis=1)
    else:
        keys.sort(kind="stable")


def _list_length(starts: np.ndarray, n: int) -> int:
    """The length shared by every run of ``n`` rows starting at ``starts``, when all are equally long and
    longer than one row (a top-K log: each run can be sorted as a row of a 2-D view); else 0."""
    length = n // max(starts.size, 1)
    if length < 2 or length * starts.size != n or not np.array_equal(starts, np.arange(0, n, length)):
        return 0
    return length


def _runs_of_users(rec_user: np.ndarray, truth_user: np.ndarray, n_users: int) -> tuple[np.ndarray, np.ndarray]:
    """What leads the (user, item) keys: in a log written user by user, each user's run in the file
    (so the keys come in order, run by run); else the user codes themselves.

    A user without recommendations gets a number past every run: its truth pairs match no row.
    """
    runs = _runs(rec_user)
    if runs is None:
        return rec_user, truth_user
    run, run_users = runs
    run_of_user = np.arange(run_users.size, run_users.size + n_users, dtype=np.int64)
    run_of_user[run_users] = np.arange(run_users.size)
    return run, run_of_user[truth_user]


def _runs(user: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """In an array written user by user (each user's rows together, users in any order), the run
    of each row (0, 1, ... in order) and the user of each run; None when a user's rows are apart."""
    if user.size < 2:
        return None
    new_run, starts = run_starts(user)
    run_users = user[starts]
    if np.bincount(run_users).max() > 1:
        return None
    run = _running_count(new_run)
    run -= 1
    return run, run_users


def run_starts(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, whether a run of equal (non-empty) ``codes`` starts there, and where the runs start."""
    new_run = run_flags(codes)
    return new_run, np.flatnonzero(new_run)


def run_flags(codes: np.ndarray) -> np.ndarray:
    """Per row of (non-empty) ``codes``, whether a run of equal codes starts there."""
    new_run = np.empty(codes.size, dtype=bool)
    new_run[0] = True
    np.not_equal(codes[1:], codes[:-1], out=new_run[1:])
    return new_run


def _running_count(flags: np.ndarray) -> np.ndarray:
    """``np.cumsum`` of a boolean array as int64, cast first: numpy's cumsum casts a boolean
    array in small buffers, 3 to 5 times slower on 10M rows."""
    count = flags.astype(np.int64)
    return np.cumsum(count, out=count)


@dataclass(frozen=True)
class RankedRows:
    """One table of recommendations, validated, sorted and joined with the ground truth.

    ``rec_user`` (user code per row, rows grouped by user and in rank order within a user),
    ``rec_grade`` (each row's ground-truth grade, 0 when the item is not in the truth),
    ``truth_user`` and ``truth_grade`` (one per ground-truth row), and ``users`` (the label of
    each code). Codes number the users in sorted order of their ids.
    """

    rec_user: np.ndarray
    rec_grade: np.ndarray
    truth_user: np.ndarray
    truth_grade: np.ndarray
    users: pd.Index
    order: np.ndarray | None  # row of the recommendations table at each sorted position; None: as given


def _rank_order(user: np.ndarray, primary: np.ndarray, item: np.ndarray) -> np.ndarray | None:
    """Rows grouped by user (sorted by user unless already grouped), then ``primary`` ascending, then ``item`` (a non-negative integer tie
    key); None when already so.

    Logs usually come grouped by user and ranked, with at most a few ties out of item order, so
    each step is skipped when the rows already satisfy it. (``np.lexsort`` on the three keys
    is about 20 times slower on 10 million rows.)
    """
    n = user.size
    if n < 2:
        return None
    order = None
    same_user = user[1:] == user[:-1]
    grouped = _grouped(user, same_user)
    if not grouped or np.any(same_user & (primary[1:] < primary[:-1])):
        order = _each_list_in_order(same_user, primary) if grouped else None
        if order is None:
            order = _by_user_then(user, primary)
        user, primary, item = user[order], primary[order], item[order]
        same_user = user[1:] == user[:-1]
    tied = same_user & (primary[1:] == primary[:-1])
    if np.any(tied & (item[1:] <= item[:-1])):
        # Runs of equal (user, primary) are now contiguous and in order: sort only the rows
        # of tied runs, by (run, item); the others stay where they are.
        in_tie = np.flatnonzero(np.r_[tied, False] | np.r_[False, tied])
        run = np.cumsum(np.r_[0, ~tied])[in_tie]
        item = item[in_tie]
        n_items = int(item.max()) + 1
        if (int(run[-1]) + 1) * n_items < 2**62:
            within = np.argsort(run * n_items + item, kind="stable")
        else:
            within = np.lexsort((item, run))
        fixed = np.arange(n) if order is None else order
        fixed[in_tie] = fixed[in_tie[within]]
        order = fixed
    return order


def _grouped(user: np.ndarray, same_user: np.ndarray) -> bool:
    """Each user's rows are contiguous (in any order of users): a log written user by user."""
    run_users = user[np.flatnonzero(np.r_[True, ~same_user])]
    return np.bincount(run_users).max(initial=0) <= 1


def _each_list_in_order(same_user: np.ndarray, primary: np.ndarray) -> np.ndarray | None:
    """Rows written user by user, each user's list equally long (a top-K log), ordered by ``primary``
    within each list, lists where they are: each list sorted as a row of a 2-D view (1M rows in lists of
    100: 0.007 s against 0.075 s for a sort of the whole table). None when the lists differ in length.

    Equal values come in any order (numpy's vectorised quicksort, four times faster than its stable
    sort here): the caller puts tied rows in order of their tie key."""
    starts = np.flatnonzero(np.r_[True, ~same_user])
    length = _list_length(starts, primary.size)
    if not length:
        return None
    order = np.argsort(primary.reshape(-1, length), axis=1)
    order += starts[:, None]
    return order.ravel()


def _by_user_then(user: np.ndarray, primary: np.ndarray) -> np.ndarray:
    """An order of the rows by (user, primary); rows equal on both come in any order.

    With fewer than 65,536 users (a block of a large log, most logs of the pages): the rows sorted
    by ``primary``, then by user with numpy's stable radix sort of 16-bit integers (1M rows of
    10,000 interleaved users: 0.10 s against 0.20 s). Otherwise ``primary`` becomes its dense rank
    (one argsort), so one argsort of user * ranks + rank sorts on both keys: numpy's vectorised
    integer sort, several times faster than two stable sorts or ``np.lexsort``.
    """
    by_primary = np.argsort(primary)
    if int(user.max(initial=0)) < 1 << 16:
        return by_primary[np.argsort(user[by_primary].astype(np.uint16), kind="stable")]
    steps = np.r_[0, _running_count(primary[by_primary][1:] != primary[by_primary][:-1])]
    dense = np.empty_like(steps)
    dense[by_primary] = steps
    n_ranks = int(steps[-1]) + 1
    if (int(user.max()) + 1) * n_ranks >= 2**62:
        return np.lexsort((primary, user))
    return np.argsort(user * n_ranks + dense)


def position_column(recs: pd.DataFrame) -> str | None:
    """The column that orders each list: ``rank`` when there is one, else ``score``; None without either."""
    return "rank" if "rank" in recs.columns else "score" if "score" in recs.columns else None


def _position(recs: pd.DataFrame) -> np.ndarray | None:
    """Each row's place in its list, smaller is better: the rank, or minus the score; None without either."""
    column = position_column(recs)
    if column == "rank":
        rank = recs["rank"]
        if pd.api.types.is_integer_dtype(rank.dtype) and len(rank):
            values = rank.to_numpy(dtype=np.int64, na_value=0) if not rank.hasnans else None
            if values is not None and max(abs(int(values.min())), abs(int(values.max()))) > EXACT_INTEGERS:
                # Huge integer ranks: their order, exactly, as float64 dense ranks.
                return np.unique(values, return_inverse=True)[1].astype(float)
        return _numeric(recs, "recommendations", "rank")
    if column == "score":
        return -_numeric(recs, "recommendations", "score")
    return None


def _tie_keys(items: pd.Index, ties: str) -> np.ndarray | None:
    """Per item code, a non-negative key that orders tied rows (None: the code itself)."""
    if ties == "item":
        return None
    text = as_id_text(pd.Series(items)) if pd.api.types.is_numeric_dtype(items.dtype) else pd.Series(items).astype(str)
    encoded = text.map(lambda t: t.encode("utf-8"))  # strcmp order: bytes, not code points of Python text
    by_text = np.argsort(encoded.to_numpy(dtype=object), kind="stable")
    key = np.empty(len(items), dtype=np.int64)
    key[by_text] = np.arange(len(items) - 1, -1, -1)  # descending
    return key


def rank_rows(recommendations: pd.DataFrame, ground_truth: pd.DataFrame, *, ties: str = "item") -> RankedRows:
    """Validate both tables, put the recommendations in rank order and attach their grades.

    ``ties`` is one of :data:`TIES`. A negative relevance is read as trec_eval reads it: judged,
    not relevant (grade 0).

    Raises
    ------
    ValueError
        Naming the table, the column and the first offending rows: a missing column, an empty
        user or item, a rank, score or relevance that is not a finite number,
        ids that are numbers in one table and text matching none in the other, or a
        (user, item) pair given twice.
    """
    check_choice(ties, "ties", TIES)
    recs = _check_frame(recommendations, "recommendations", ("user", "item"))
    truth = _check_frame(ground_truth, "ground_truth", ("user", "item"))
    primary = _position(recs)
    if primary is None:
        raise _no_rank_or_score(recs)
    if "relevance" in truth.columns:
        grade = np.maximum(_numeric(truth, "ground_truth", "relevance"), 0.0)  # negative: judged non-relevant
    else:
        grade = np.ones(len(truth))

    try:
        rec_user, truth_user, users = _shared_codes(recs["user"], truth["user"])
        rec_item, truth_item, items = _shared_codes(recs["item"], truth["item"])
    except TypeError:  # unhashable ids (lists, dicts): say where
        for frame, name in ((recs, "recommendations"), (truth, "ground_truth")):
            for column in ("user", "item"):
                _check_hashable(frame, name, column)
        raise
    _check_kinds_meet(recs, truth, rec_item, truth_item)
    rec_major, truth_major = _runs_of_users(rec_user, truth_user, len(users))
    rec_keys, rec_rows = _sort_keys(_pair_keys(rec_major, rec_item, len(items)), rec_major)
    _check_unique_pairs(rec_keys, rec_rows, recs, "recommendations")
    truth_keys, truth_rows = _sort_keys(_pair_keys(truth_major, truth_item, len(items)), truth_major)
    del rec_major, truth_major
    _check_unique_pairs(truth_keys, truth_rows, truth, "ground_truth")

    # Each truth pair finds its recommendation row (if any) by binary search in the sorted keys.
    rec_grade = np.zeros(len(recs))
    if len(recs):
        at = np.minimum(np.searchsorted(rec_keys, truth_keys), len(recs) - 1)
        found = rec_keys[at] == truth_keys
        rec_grade[rec_rows[at[found]]] = grade[truth_rows[found]]
    del rec_keys, rec_rows, truth_keys, truth_rows

    tie_key = _tie_keys(items, ties)
    if ties == "input":
        order = _rank_order(rec_user, primary, np.arange(len(recs), dtype=np.int64))
    else:
        order = _rank_order(rec_user, primary, rec_item if tie_key is None else tie_key[rec_item])
    if order is None:
        return RankedRows(rec_user, rec_grade, truth_user, grade, users, None)
    return RankedRows(rec_user[order], rec_grade[order], truth_user, grade, users, order)


def check_table(frame: pd.DataFrame, name: str, *, gain: str = "linear", k_max: int = 1) -> None:
    """What :func:`evaluate` refuses in one table alone, with its messages: a missing column, an
    empty id, a rank, score or relevance that is not a finite number, grades too large for
    ``gain``. (What needs both tables, ids of two kinds, and a pair given twice are left to
    :func:`evaluate`.) The Spark engine runs it on the first rows of each file, whose lines the
    readers know.
    """
    if name == "recommendations":
        recs = _check_frame(frame, name, ("user", "item"))
        if _position(recs) is None:
            raise _no_rank_or_score(recs)
    else:
        truth = _check_frame(frame, name, ("user", "item"))
        if "relevance" in truth.columns:
            check_gains(truth, np.maximum(_numeric(truth, name, "relevance"), 0.0), gain, k_max)


def _no_rank_or_score(recs: pd.DataFrame) -> DataError:
    found = ", ".join(repr(str(c)) for c in recs.columns)
    return DataError(
        "no_rank_or_score", f"recommendations needs a 'rank' column (1 = best) or a 'score' column (higher = "
        f"better); found columns: {found}", found=[str(c) for c in recs.columns],
    )


def _check_kinds_meet(recs: pd.DataFrame, truth: pd.DataFrame, rec_item: np.ndarray, truth_item: np.ndarray) -> None:
    """Item ids that are numbers in one table and text in the other must match somewhere."""
    numeric = [pd.api.types.is_numeric_dtype(t["item"].dtype) for t in (recs, truth)]
    if numeric[0] == numeric[1] or not len(recs) or not len(truth):
        return
    if np.intersect1d(rec_item, truth_item).size:
        return
    kinds = ["numbers" if n else "text" for n in numeric]
    raise DataError(
        "id_kinds", f"item ids are {kinds[0]} in recommendations (e.g. {recs['item'].iloc[0]!r}) and {kinds[1]} in "
        f"ground_truth (e.g. {truth['item'].iloc[0]!r}), and not one of them matches: every metric would be 0. Write "
        "the ids the same way in both files", numeric_in_recommendations=numeric[0],
        example_recommendation=repr(recs["item"].iloc[0]), example_truth=repr(truth["item"].iloc[0]),
    )


def check_gains(truth: pd.DataFrame, grade: np.ndarray, gain: str, k_max: int) -> None:
    """Refuse grades whose gain would overflow float64 in a DCG of up to ``k_max`` terms."""
    with np.errstate(over="ignore"):
        gains = gain_of(grade, gain)
    limit = np.finfo(float).max / (2 * min(k_max, max(len(grade), 1)))
    bad = np.flatnonzero(~(gains <= limit))
    if bad.size:
        need = "below 1024 with exponential gain (2^rel - 1 overflows)" if gain == "exponential" else "smaller"
        raise DataError(
            "grades_too_large", f"ground_truth column 'relevance' is too large for a DCG in float64: grades must be "
            f"{need}; {_rows(truth, bad)} {_hold(bad)} {_values(grade, bad)}", gain=gain, values=_values(grade, bad),
            **_where(truth, bad),
        )


# ----------------------------------------------------------------------------- the kernel


def score_ranked_rows(
    rec_user: np.ndarray,
    rec_grade: np.ndarray,
    truth_user: np.ndarray,
    truth_grade: np.ndarray,
    n_users: int,
    k: int | Iterable[int],
    *,
    metrics: Iterable[str] | None = None,
    gain: str = "linear",
    denominator: str = "min",
) -> dict[str, np.ndarray]:
    """The metrics of every user from arrays already sorted: the vectorised core.

    Parameters
    ----------
    rec_user : int array
        User code (0 .. n_users - 1) of each recommendation row. Rows are grouped by user
        (each user's rows contiguous) and in rank order within a user, best first.
    rec_grade : float array
        Ground-truth grade of each recommendation row's item, 0 when it is not in the truth.
    truth_user, truth_grade : arrays
        User code and grade (>= 0) of each ground-truth row, in any order.
    n_users : int
        Number of user codes; every output array has this length.
    k, metrics, gain, denominator
        As in :func:`evaluate`.

    Returns
    -------
    dict
        Column name (``"ndcg@10"``, ``"reciprocal_rank"``) -> float array indexed by user code.
        Users without rows score 0.

    Examples
    --------
    >>> out = score_ranked_rows(np.array([0, 0, 0]), np.array([0.0, 1.0, 0.0]),
    ...                         np.array([0, 0]), np.array([1.0, 1.0]), 1, 2)
    >>> out["precision@2"], out["reciprocal_rank"]
    (array([0.5]), array([0.5]))
    """
    ks = check_ks(k)
    chosen = check_metrics(metrics)
    check_choice(gain, "gain", GAINS)
    check_choice(denominator, "denominator", AP_DENOMINATORS)
    rec_user = np.asarray(rec_user, dtype=np.int64)
    rec_grade = np.asarray(rec_grade, dtype=float)
    n = rec_user.size

    starts = np.flatnonzero(np.r_[True, rec_user[1:] != rec_user[:-1]]) if n else np.zeros(0, int)
    if starts.size and np.bincount(rec_user[starts]).max() > 1:
        raise ValueError("rec_user must hold each user's rows together (grouped by user)")
    position = _positions(starts, n)
    hit = rec_grade > 0

    out: dict[str, np.ndarray] = {}
    if "reciprocal_rank" in chosen:
        rr = np.zeros(n_users)
        hit_rows = np.flatnonzero(hit)
        hit_user = rec_user[hit_rows]
        first = np.r_[True, hit_user[1:] != hit_user[:-1]] if hit_rows.size else np.zeros(0, bool)
        rr[hit_user[first]] = 1.0 / position[hit_rows[first]]
        out["reciprocal_rank"] = rr
    at_k = [m for m in chosen if m != "reciprocal_rank"]
    if not at_k:
        return out

    top = position <= ks[-1]  # only the first max(K) rows of each user matter from here on
    user, position, grade, hit = rec_user[top], position[top], rec_grade[top], hit[top]
    hits_so_far = _running_count(hit)
    group_start = np.r_[True, user[1:] != user[:-1]] if user.size else np.zeros(0, bool)
    before_group = np.repeat((hits_so_far - hit)[group_start], np.diff(np.r_[np.flatnonzero(group_start), user.size]))
    hits_so_far = hits_so_far - before_group  # hits at ranks 1..i of the same user
    precision_at_hit = np.where(hit, hits_so_far / position, 0.0)
    discounted = gain_of(grade, gain) * discounts(min(ks[-1], int(position.max(initial=0))))[position - 1]

    n_relevant = np.bincount(truth_user, weights=truth_grade > 0, minlength=n_users)
    ideal = _ideal_gains(truth_user, truth_grade, ks[-1], gain)

    def per_user(weights: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.bincount(user[mask], weights=weights[mask], minlength=n_users)

    for k_ in ks:
        in_k = position <= k_
        hits = per_user(hit.astype(float), in_k)
        values = {}
        precision = hits / k_
        recall = np.divide(hits, n_relevant, out=np.zeros(n_users), where=n_relevant > 0)
        values["precision"] = precision
        values["recall"] = recall
        both = precision + recall
        values["f1"] = np.divide(2 * precision * recall, both, out=np.zeros(n_users), where=both > 0)
        values["hit_rate"] = (hits > 0).astype(float)
        if "average_precision" in at_k:
            divide_by = {"min": np.minimum(n_relevant, k_), "relevant": n_relevant, "hits": hits}[denominator]
            summed = per_user(precision_at_hit, in_k)
            values["average_precision"] = np.divide(summed, divide_by, out=np.zeros(n_users), where=divide_by > 0)
        if "ndcg" in at_k:
            dcg = per_user(discounted, in_k)
            idcg = ideal(k_, n_users)
            values["ndcg"] = np.divide(dcg, idcg, out=np.zeros(n_users), where=idcg > 0)
        for metric in at_k:
            out[column_name(metric, k_)] = values[metric]
    return out


def _positions(starts: np.ndarray, n: int) -> np.ndarray:
    """The 1-based rank of each row within its group, given where the groups start."""
    lengths = np.diff(np.r_[starts, n])
    if lengths.size and lengths.min() == lengths.max():  # every list equally long: common, cheap
        return np.tile(np.arange(1, lengths[0] + 1, dtype=np.int32 if n < 2**31 else np.int64), lengths.size)
    return np.arange(1, n + 1) - np.repeat(starts, lengths)


def _grade_codes(grades: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes numbering positive grades in ascending order, and the grade of each code. Whole grades
    up to 1024 (the usual 1, 2, 3) are their own codes (grade - 1), without hashing every row."""
    if grades.size and grades.max() <= 1024 and np.array_equal(grades, np.floor(grades)):
        return grades.astype(np.int64) - 1, np.arange(1.0, grades.max() + 1)
    return pd.factorize(grades, sort=True)


def _ideal_gains(truth_user: np.ndarray, truth_grade: np.ndarray, k_max: int, gain: str):
    """A function K -> IDCG@K per user: every graded item of the user's truth, best first."""
    truth_user = np.asarray(truth_user, dtype=np.int64)
    truth_grade = np.asarray(truth_grade, dtype=float)
    keep = truth_grade > 0
    grade_code, grades = _grade_codes(truth_grade[keep])
    n_grades = max(grades.size, 1)
    # One sort of user * n_grades + (best grade first) orders each user's grades, best first. A
    # ground truth written user by user is sorted by its run of rows instead: the runs come in
    # order, so a stable sort only orders each user's few grades (2M rows: 30 ms, not 120 ms).
    user = truth_user[keep]
    runs = _runs(user)
    if runs is not None:
        run, run_user = runs
        key = run * n_grades + (n_grades - 1 - grade_code)
        _sort_in_place(key, run)
        user = run_user[key // n_grades]
    else:
        key = np.sort(user * n_grades + (n_grades - 1 - grade_code))
        user = key // n_grades
    grade = grades[n_grades - 1 - key % n_grades] if grades.size else key * 0.0
    starts = np.flatnonzero(np.r_[True, user[1:] != user[:-1]]) if user.size else np.zeros(0, int)
    position = _positions(starts, user.size)
    top = position <= k_max
    user, position = user[top], position[top]
    contribution = gain_of(grade[top], gain) * discounts(min(k_max, int(position.max(initial=0))))[position - 1]

    def idcg(k: int, n_users: int) -> np.ndarray:
        in_k = position <= k
        return np.bincount(user[in_k], weights=contribution[in_k], minlength=n_users)

    return idcg


def _evaluate(recommendations, ground_truth, ks: list[int], *, chosen: list[str], gain: str, denominator: str,
              ties: str) -> pd.DataFrame:
    rows = rank_rows(recommendations, ground_truth, ties=ties)
    if "ndcg" in chosen:
        check_gains(ground_truth, rows.truth_grade, gain, ks[-1])
    n_users = len(rows.users)
    scores = score_ranked_rows(rows.rec_user, rows.rec_grade, rows.truth_user, rows.truth_grade,
                               n_users, ks, metrics=chosen, gain=gain, denominator=denominator)
    has_truth = np.bincount(rows.truth_user, minlength=n_users) > 0
    has_recs = np.zeros(n_users, dtype=bool)
    has_recs[rows.rec_user] = True
    has_relevant = np.bincount(rows.truth_user, weights=rows.truth_grade > 0, minlength=n_users) > 0
    columns = [column_name(m, k_) for m in chosen if m != "reciprocal_rank" for k_ in ks]
    columns += ["reciprocal_rank"] if "reciprocal_rank" in chosen else []
    per_user = pd.DataFrame({c: scores[c][has_truth] for c in columns},
                            index=pd.Index(rows.users[has_truth], name="user"))
    per_user.attrs["users"] = {
        "evaluated": int(has_truth.sum()),
        "no_recommendations": int((has_truth & ~has_recs).sum()),
        "no_relevant": int((has_truth & has_recs & ~has_relevant).sum()),
        "no_ground_truth": int((has_recs & ~has_truth).sum()),
    }
    per_user.attrs["settings"] = {"k": ks, "gain": gain, "denominator": denominator, "ties": ties}
    return per_user


def combine(parts: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Per-user results of disjoint chunks of users as one, user counts summed, as :func:`evaluate`
    on the whole log would give (for jobs that evaluate one partition of users at a time).

    Examples
    --------
    >>> truth = pd.DataFrame({"user": [1, 2], "item": [5, 5]})
    >>> recs = pd.DataFrame({"user": [1, 2], "item": [5, 6], "rank": [1, 1]})
    >>> from whole_logs.batch import evaluate
    >>> parts = [evaluate(recs[recs.user == u], truth[truth.user == u], 1) for u in (2, 1)]
    >>> whole = combine(parts)
    >>> whole.equals(evaluate(recs, truth, 1)), whole.attrs["users"]["evaluated"]
    (True, 2)
    """
    if not parts:
        raise ValueError("parts is empty: there is no result to combine")
    settings = [part.attrs.get("settings") for part in parts]
    if any(s != settings[0] for s in settings):
        raise ValueError("parts were evaluated with different settings (k, gain or denominator)")
    whole = pd.concat(parts).sort_index()
    whole.attrs["users"] = {reason: sum(part.attrs.get("users", {}).get(reason, 0) for part in parts)
                            for reason in REASONS}
    whole.attrs["settings"] = settings[0]
    return whole
