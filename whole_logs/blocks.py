"""A large log evaluated in blocks of whole users on two threads.

:func:`whole_logs.batch.evaluate` calls :func:`evaluate_in_blocks` for a log of at least
``batch.PARALLEL_FROM_ROWS`` rows. The ids are encoded once for the whole log (a CSV file's
dictionary-encoded ids only sort their distinct values, its integer user ids are their own codes);
each block is then the engine's own :func:`whole_logs.engine._evaluate` on integer codes, and the
blocks' rows are put back under their ids.

Why blocks and not halves: on the machine this was measured on (2 cores), fresh pages from the
kernel cost a third of the time of a 10M-row log, and the C allocator maps every array of more than
32 MiB fresh and unmaps it again. A block's arrays (1M rows, 8 MiB each) stay below that, so the
allocator reuses them block after block. Measured on 10M CSV rows, the engine alone: page faults
254k -> 75-115k, system time 0.7 -> 0.25 s, wall 0.9 -> 0.65 s; the halves also re-encoded the ids
each time.

A log whose users' rows are apart (written in time order, say) is cut by ranges of user codes
instead: each row's block number (a small integer) is computed once, and each block, on its thread,
finds its rows with one scan of those numbers, reads its codes and scores in file order, and puts its
users' rows together within the block by a radix sort of its (16-bit) user codes, so the engine then
sorts each list alone. No sort of the whole log, by user or by block, runs on one core (10M shuffled
rows: a 0.67 s sort by user, then a 0.1-0.25 s sort by block, saved).

Nothing here refuses anything: when a block fails or the log does not split (ids of two kinds, a
missing id), :func:`evaluate_in_blocks` says so by returning None or raising, and ``evaluate`` runs
the whole log, which gives the exact message.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd

from whole_logs import engine

BLOCK_ROWS = 1 << 20
"""Recommendation rows per block, about: each block holds whole users."""
COUNTED_ROWS = 1 << 20
"""Where users' rows are apart, the rows of each user are counted in about this many rows, evenly spaced
through the log (every row up to twice as many): blocks need about equal rows, not exactly equal."""


@dataclass(frozen=True)
class Blocks:
    """Where each block's rows are, and the codes that make them up.

    Every user of the recommendations has a slot: its run (0, 1, ... in file order) in a log written
    user by user, its raw code in a log whose users' rows are apart. Block ``b`` holds the slots
    ``run_cuts[b]:run_cuts[b + 1]``: the recommendation rows ``row_cuts[b]:row_cuts[b + 1]`` in a log
    written user by user, the rows whose ``block`` is ``b`` in one whose users' rows are apart; and
    the ground-truth rows ``truth_cuts[b]:truth_cuts[b + 1]`` of ``truth_order`` (None: of the table
    as it is, already in slot order). Within a block a user's code is its slot minus the block's
    first; ground-truth users without recommendations come after every slot (``truth_run`` R, R + 1,
    ...), in the last block.
    """

    place: str  # "rank" or "score": what orders each list
    position: np.ndarray  # that column's values, per recommendation row
    row_cuts: np.ndarray | None  # written user by user: where each block's rows start
    block: np.ndarray | None  # users apart: the block of each recommendation row
    run_cuts: np.ndarray
    run_user: np.ndarray  # shared user code of each slot
    new_run: np.ndarray | None  # written user by user: per recommendation row, a run starts here
    user_raw: np.ndarray | None  # users apart: per recommendation row, its slot (raw user code)
    item_raw: np.ndarray
    item_map: np.ndarray | None  # raw item code -> the code a block sees (None: raw is it)
    truth_run: np.ndarray  # per ground-truth row
    truth_order: np.ndarray | None
    truth_cuts: np.ndarray
    truth_item_raw: np.ndarray
    truth_item_map: np.ndarray | None
    truth_grade: np.ndarray | None
    no_recs: np.ndarray  # shared codes of ground-truth users without recommendations
    users: pd.Index
    block_ties: str

    def __len__(self) -> int:
        return self.run_cuts.size - 1

    def rows(self, b: int) -> tuple[slice | np.ndarray, np.ndarray | None, np.ndarray]:
        """Block ``b``'s recommendation rows in file order; the order of those rows that puts each
        user's rows together, keeping file order within a user (None: they are together); and, in
        that order, each row's block-local user code.

        Where users' rows are apart, the block finds its rows itself (on its own thread), reads them
        in file order and only then puts them in order of users (a radix sort of 16-bit codes), so
        each column is read from the whole log in one pass forward and reordered within the block
        (10M rows: 0.60 -> 0.44 CPU-s for every block's columns)."""
        if self.block is None:
            start, stop = int(self.row_cuts[b]), int(self.row_cuts[b + 1])
            user = engine._running_count(self.new_run[start:stop])
            user -= 1
            return slice(start, stop), None, user
        rows = np.flatnonzero(self.block == b)
        user = self.user_raw[rows].astype(np.int64, copy=False)
        user -= self.run_cuts[b]
        if not user.size or int(user.max()) >= 1 << 16:
            return rows, None, user  # the engine sorts them
        by_user = np.argsort(user.astype(np.uint16), kind="stable")
        counts = np.bincount(user)
        return rows, by_user, np.repeat(np.arange(counts.size), counts)

    def frames(self, b: int) -> tuple[pd.DataFrame, pd.DataFrame]:
        """Block ``b`` as the two tables the engine takes, ids replaced by codes."""
        rows, by_user, user = self.rows(b)
        item, position = self.item_raw[rows], self.position[rows]
        if by_user is not None:
            item, position = item[by_user], position[by_user]
        item = engine._gathered(item, self.item_map)
        rec_frame = pd.DataFrame({"user": user, "item": item, self.place: position}, copy=False)
        rows = slice(self.truth_cuts[b], self.truth_cuts[b + 1])
        if self.truth_order is not None:
            rows = self.truth_order[rows]
        truth = {"user": self.truth_run[rows] - self.run_cuts[b],
                 "item": engine._gathered(self.truth_item_raw[rows], self.truth_item_map)}
        if self.truth_grade is not None:
            truth["relevance"] = self.truth_grade[rows]
        return rec_frame, pd.DataFrame(truth, copy=False)

    def users_of(self, b: int) -> np.ndarray:
        """The shared user code of each block-local code of block ``b``."""
        runs = self.run_user[self.run_cuts[b]:self.run_cuts[b + 1]]
        return np.concatenate([runs, self.no_recs]) if b == len(self) - 1 else runs


def split(recommendations: pd.DataFrame, ground_truth: pd.DataFrame, ties: str, block_rows: int) -> Blocks | None:
    """The blocks of a log, or None when the ids are numbers in one table and text in the other, an
    id is missing, or a table lacks the columns the whole log would name. A log whose users' rows
    are apart (written in time order, say) is cut by ranges of raw user codes of about equal rows."""
    recs, truth = recommendations, ground_truth
    if not {"user", "item"} <= set(recs.columns) or not {"user", "item"} <= set(truth.columns):
        return None
    if engine.position_column(recs) is None:
        return None
    if pd.api.types.is_numeric_dtype(recs["item"].dtype) != pd.api.types.is_numeric_dtype(truth["item"].dtype):
        return None  # matched as text, with a check that some match: the whole log does both
    engine._check_frame(recs, "recommendations", ("user", "item"))
    engine._check_frame(truth, "ground_truth", ("user", "item"))
    grade = engine._numeric(truth, "ground_truth", "relevance") if "relevance" in truth.columns else None
    (rec_raw, rec_map), (truth_raw, truth_map), users = engine._code_maps(recs["user"], truth["user"])
    (item_raw, item_map), (truth_item_raw, truth_item_map), items = engine._code_maps(recs["item"], truth["item"])
    if rec_raw.size < 2 or rec_raw.min() < 0:
        return None  # a missing id (code -1): the whole log names its rows
    n_blocks = max(2, -(-rec_raw.size // block_rows))
    new_run, n_slots = engine.run_flags(rec_raw), int(rec_raw.max()) + 1
    n_runs = int(np.count_nonzero(new_run))
    starts = np.flatnonzero(new_run) if n_runs <= n_slots else None  # more runs than users: rows apart
    block = user_raw = row_cuts = None
    if starts is not None and np.bincount(rec_raw[starts]).max() <= 1:  # written user by user: a slot per run
        run_user = engine._gathered(rec_raw[starts], rec_map)
        near_rows = np.arange(1, n_blocks) * rec_raw.size // n_blocks
        run_cuts = np.unique(np.r_[0, np.searchsorted(starts, near_rows), n_runs])  # the first run from there
        row_cuts = np.r_[starts, rec_raw.size][run_cuts]
    else:  # a user's rows are apart: a slot per raw code, blocks are ranges of them
        new_run, user_raw, n_runs = None, rec_raw, n_slots
        sample = rec_raw[::max(1, rec_raw.size // COUNTED_ROWS)]
        rows_of = np.bincount(sample, minlength=n_slots)
        rows_before = np.cumsum(rows_of) - rows_of
        run_user = engine._gathered(np.arange(n_slots), rec_map)
        near_rows = np.arange(1, n_blocks) * sample.size // n_blocks
        run_cuts = np.unique(np.r_[0, np.searchsorted(rows_before, near_rows), n_slots])
        block_of_slot = np.repeat(np.arange(run_cuts.size - 1, dtype=np.min_scalar_type(run_cuts.size)), np.diff(run_cuts))
        block = block_of_slot[rec_raw]

    # Each ground-truth row's run, gathered through the small map of its distinct users.
    run_of_user = np.full(len(users), -1, dtype=np.int64)
    run_of_user[run_user] = np.arange(n_runs)
    truth_run = engine._gathered(truth_raw, run_of_user if truth_map is None else run_of_user[truth_map])
    no_recs_row = np.flatnonzero(truth_run < 0)
    no_recs, after = np.unique(engine._gathered(truth_raw[no_recs_row], truth_map), return_inverse=True)
    truth_run[no_recs_row] = n_runs + after
    run_cuts_with_rest = np.r_[run_cuts[:-1], n_runs + no_recs.size]
    if np.all(truth_run[1:] >= truth_run[:-1]):  # written in the same order of users: blocks are slices
        truth_order = None
        truth_cuts = np.searchsorted(truth_run, run_cuts_with_rest)
    else:
        truth_block = np.searchsorted(run_cuts_with_rest[1:-1], truth_run, side="right").astype(np.int32)
        truth_order = np.argsort(truth_block, kind="stable")
        truth_cuts = np.searchsorted(truth_block[truth_order], np.arange(run_cuts.size))

    if ties == "trec_eval":  # each item coded by its trec_eval tie key: the join is the same, ties go its way
        tie_key = engine._tie_keys(items, ties)
        item_map = tie_key if item_map is None else tie_key[item_map]
        truth_item_map = tie_key if truth_item_map is None else tie_key[truth_item_map]
    place = engine.position_column(recs)
    return Blocks(
        place=place, position=recs[place].to_numpy(), row_cuts=row_cuts, block=block, run_cuts=run_cuts,
        run_user=run_user, new_run=new_run, user_raw=user_raw, item_raw=item_raw,
        item_map=item_map, truth_run=truth_run, truth_order=truth_order, truth_cuts=truth_cuts,
        truth_item_raw=truth_item_raw, truth_item_map=truth_item_map, truth_grade=grade, no_recs=no_recs,
        users=users, block_ties="input" if ties == "input" else "item",
    )


def evaluate_in_blocks(recommendations: pd.DataFrame, ground_truth: pd.DataFrame, ks: list[int], settings: dict,
                       block_rows: int = BLOCK_ROWS) -> pd.DataFrame | None:
    """:func:`whole_logs.engine._evaluate` of the whole log, computed block by block on two threads; None
    when the log does not split. Raises whatever a block raises (the caller then runs the whole log)."""
    blocks = split(recommendations, ground_truth, settings["ties"], block_rows)
    if blocks is None:
        return None
    if "ndcg" in settings["chosen"] and blocks.truth_grade is not None:
        engine.check_gains(ground_truth, np.maximum(blocks.truth_grade, 0.0), settings["gain"], ks[-1])
    in_block = {**settings, "ties": blocks.block_ties}

    def part(b: int) -> pd.DataFrame:
        frame = engine._evaluate(*blocks.frames(b), ks, **in_block)
        frame.index = pd.Index(blocks.users_of(b)[frame.index.to_numpy()], name="user")
        return frame

    with ThreadPoolExecutor(2) as pool:
        whole = engine.combine(list(pool.map(part, range(len(blocks)))))
    whole.index = blocks.users.take(whole.index.to_numpy()).rename("user")
    whole.attrs["settings"] = {**whole.attrs["settings"], "ties": settings["ties"]}
    return whole
