"""Large logs are evaluated in blocks of whole users on two threads (put in order of users first where
a user's rows are apart): the same per-user numbers, counts and messages as one pass over the whole
log, whatever the ids, ties, row orders and side cases."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whole_logs import batch, blocks, engine
from tests.test_batch import ERRORS, logs, settings_grid


def one_pass(monkeypatch, *args, **kwargs):
    monkeypatch.setattr(batch, "PARALLEL_FROM_ROWS", 10**12)
    return batch.evaluate(*args, **kwargs)


def in_blocks(monkeypatch, *args, block_rows: int = 2, **kwargs):
    monkeypatch.setattr(batch, "PARALLEL_FROM_ROWS", 1)
    monkeypatch.setattr(batch.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(blocks, "BLOCK_ROWS", block_rows)
    return batch.evaluate(*args, **kwargs)


def by_user(recs: pd.DataFrame) -> pd.DataFrame:
    """The rows written user by user (a stable sort keeps each user's own order)."""
    return recs.iloc[np.argsort(recs["user"].astype(str).to_numpy(), kind="stable")].reset_index(drop=True)


def dressed(log, grouped: bool, text_truth: bool, categorical: bool):
    recs, truth = log
    recs = by_user(recs) if grouped else recs
    if text_truth:  # numbers on one side, text on the other: matched as text
        truth = truth.assign(user=truth["user"].astype(str), item=truth["item"].astype(str))
    if categorical:  # text ids dictionary-encoded, as the command line reads a CSV file
        recs = recs.assign(user=recs["user"].astype(str).astype("category"), item=recs["item"].astype(str).astype("category"))
        truth = truth.assign(user=truth["user"].astype(str).astype("category"))
    return recs, truth


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), settings_grid, st.sampled_from(batch.TIES), st.booleans(), st.booleans(), st.booleans(), st.integers(1, 9))
def test_blocks_give_the_whole_log_numbers(log, grid, ties, grouped, text_truth, categorical, block_rows):
    recs, truth = dressed(log, grouped, text_truth, categorical)
    ks, gain, denominator = grid
    with pytest.MonkeyPatch.context() as patch:
        try:
            whole = one_pass(patch, recs, truth, ks, gain=gain, denominator=denominator, ties=ties)
        except ValueError as error:
            with pytest.raises(type(error), match=f"^{re.escape(str(error))}$"):
                in_blocks(patch, recs, truth, ks, gain=gain, denominator=denominator, ties=ties, block_rows=block_rows)
            return
        got = in_blocks(patch, recs, truth, ks, gain=gain, denominator=denominator, ties=ties, block_rows=block_rows)
    pd.testing.assert_frame_equal(got, whole, check_exact=True)
    assert got.attrs == whole.attrs


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), settings_grid, st.sampled_from(batch.TIES), st.booleans(), st.booleans(), st.integers(1, 9),
       st.integers(1, 4))
def test_every_log_is_really_split(log, grid, ties, grouped, categorical, block_rows, counted_rows):
    """No fallback hides a wrong block: the block path alone equals the whole log, for a log written
    user by user and for one whose users' rows are apart (put in order of users first), whose rows per
    user are counted in every row or only in some."""
    recs, truth = dressed(log, grouped, False, False)
    if categorical:  # both tables' ids dictionary-encoded, as the command line reads two CSV files
        recs, truth = (t.assign(user=t["user"].astype(str).astype("category"), item=t["item"].astype(str).astype("category"))
                       for t in (recs, truth))
    ks, gain, denominator = grid
    settings_ = {"chosen": list(batch.METRICS), "gain": gain, "denominator": denominator, "ties": ties}
    try:
        whole = engine._evaluate(recs, truth, batch.check_ks(ks), **settings_)
    except ValueError:
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(blocks, "COUNTED_ROWS", counted_rows)
        split = blocks.split(recs, truth, ties, block_rows)
    if len(recs) < 2:
        assert split is None
        return
    assert split is not None
    rows = [in_block_order(split, b, len(recs)) for b in range(len(split))]
    assert sorted(np.concatenate(rows).tolist()) == list(range(len(recs)))  # every row once
    users = [set(recs["user"].iloc[block].astype(str)) for block in rows]
    assert all(not (x & y) for i, x in enumerate(users) for y in users[i + 1:])  # whole users per block
    for block in rows:  # each user's rows together, in file order
        user = recs["user"].iloc[block].astype(str).to_numpy()
        starts = np.flatnonzero(np.r_[True, user[1:] != user[:-1]])
        assert len(set(user[starts])) == starts.size and all(np.all(np.diff(block[user == u]) > 0) for u in user[starts])
    got = blocks.evaluate_in_blocks(recs, truth, batch.check_ks(ks), settings_, block_rows)
    pd.testing.assert_frame_equal(got, whole, check_exact=True)
    assert got.attrs == whole.attrs


def in_block_order(split: blocks.Blocks, b: int, n_rows: int) -> np.ndarray:
    """The rows of block ``b`` in the order its frame holds them."""
    rows, by_user, user = split.rows(b)
    rows = np.arange(n_rows)[rows]
    rows = rows if by_user is None else rows[by_user]
    assert user.size == rows.size
    return rows


def test_blocks_hold_whole_users_and_truth_users_without_a_list_go_last():
    recs = pd.DataFrame({"user": [1, 1, 2, 2, 3, 3], "item": [5, 6, 5, 6, 5, 6], "rank": [1, 2] * 3})
    truth = pd.DataFrame({"user": [4, 3, 1], "item": [5, 6, 5]})
    split = blocks.split(recs, truth, "item", 2)
    assert [split.rows(b)[:2] for b in range(3)] == [(slice(0, 2), None), (slice(2, 4), None), (slice(4, 6), None)]
    assert [split.users_of(b).tolist() for b in range(3)] == [[1], [2], [3, 4]]  # whole ids are their own codes
    truths = [split.frames(b)[1] for b in range(3)]
    assert [t["user"].tolist() for t in truths] == [[0], [], [1, 0]]  # user 4 (no list) after the last block's runs
    apart = recs.iloc[[0, 2, 3, 4, 1, 5]].reset_index(drop=True)  # user 1's rows apart: 0 and 4
    split = blocks.split(apart, truth, "item", 2)
    assert [in_block_order(split, b, 6).tolist() for b in range(3)] == [[0, 4], [1, 2], [3, 5]]  # each user's rows together
    assert [split.frames(b)[0]["item"].tolist() for b in range(3)] == [[5, 6], [5, 6], [5, 6]]


@pytest.mark.parametrize(("case", "recs", "truth", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_every_refusal_reads_as_for_the_whole_log(monkeypatch, case, recs, truth, message):
    with pytest.raises(ValueError, match=message):
        in_blocks(monkeypatch, recs, truth, 2)


def test_a_count_of_repeated_rows_covers_every_block(monkeypatch):
    recs = pd.DataFrame({"user": ["a", "a", "a", "b", "b", "b"], "item": ["x", "x", "y", "z", "z", "w"],
                         "rank": [1, 2, 3, 1, 2, 3]})
    truth = pd.DataFrame({"user": ["a", "b"], "item": ["x", "z"]})
    with pytest.raises(ValueError, match=r"user 'a', item 'x' at rows 0 and 1; 2 row\(s\) in all repeat"):
        in_blocks(monkeypatch, recs, truth, 2)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), settings_grid, st.sampled_from(batch.TIES), st.integers(1, 5))
def test_rows_packed_into_the_keys_block_by_block_give_the_same_numbers(log, grid, ties, block):
    recs, truth = log
    ks, gain, denominator = grid

    def run(pack_block: int):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(engine, "PACK_BLOCK", pack_block)
            try:
                return batch.evaluate(recs, truth, ks, gain=gain, denominator=denominator, ties=ties)
            except ValueError as error:
                return str(error)

    whole, blocks = run(1 << 20), run(block)
    if isinstance(whole, str):
        assert blocks == whole
    else:
        pd.testing.assert_frame_equal(blocks, whole, check_exact=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=30), st.booleans(), st.integers(0, 2**31))
def test_keys_sorted_run_by_run_equal_one_sort(lengths, equal, seed):
    """Runs of equal leading part, in order: each is sorted alone (as rows of a 2-D view when all are
    equally long), which must equal one sort of all the keys."""
    rng = np.random.default_rng(seed)
    lengths = [lengths[0]] * len(lengths) if equal else lengths
    major = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    keys = major * 1000 + rng.integers(0, 1000, size=major.size)
    expected = np.sort(keys)
    engine._sort_in_place(keys, major)
    np.testing.assert_array_equal(keys, expected)
    shuffled = rng.permutation(expected)  # leading part out of order: one sort
    engine._sort_in_place(shuffled, shuffled // 1000)
    np.testing.assert_array_equal(shuffled, expected)


@pytest.mark.parametrize("ties", batch.TIES)
def test_a_large_log_in_time_order_keeps_each_users_rows_in_file_order(ties):
    """Blocks of a log whose users' rows are apart gather each user's rows with a stable sort: with
    ``ties="input"`` equal scores keep the file's order. Blocks of thousands of rows, as a real log has
    (numpy sorts fewer than 16 values stably whatever the kind asked for)."""
    rng = np.random.default_rng(7)
    users, length = 400, 20
    recs = pd.DataFrame({"user": np.repeat(np.arange(users), length), "item": np.tile(np.arange(length), users),
                         "score": rng.integers(0, 3, users * length).astype(float)})
    recs = recs.iloc[rng.permutation(len(recs))].reset_index(drop=True)
    truth = pd.DataFrame({"user": np.repeat(np.arange(users), 3), "item": rng.integers(0, length, users * 3)})
    truth = truth.drop_duplicates().reset_index(drop=True)
    settings_ = {"chosen": list(batch.METRICS), "gain": "linear", "denominator": "min", "ties": ties}
    whole = engine._evaluate(recs, truth, [1, 5], **settings_)
    got = blocks.evaluate_in_blocks(recs, truth, [1, 5], settings_, block_rows=2_000)
    pd.testing.assert_frame_equal(got, whole, check_exact=True)
