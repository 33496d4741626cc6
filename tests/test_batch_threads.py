"""Large logs are evaluated in two threads, half of the users each: the same per-user numbers,
counts and messages as one pass over the whole log, whatever the ids, ties and side cases."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics import batch
from tests.test_batch import ERRORS, logs, settings_grid


def one_pass(monkeypatch, *args, **kwargs):
    monkeypatch.setattr(batch, "PARALLEL_FROM_ROWS", 10**12)
    return batch.evaluate(*args, **kwargs)


def in_halves(monkeypatch, *args, **kwargs):
    monkeypatch.setattr(batch, "PARALLEL_FROM_ROWS", 1)
    monkeypatch.setattr(batch.os, "cpu_count", lambda: 2)
    return batch.evaluate(*args, **kwargs)


def by_user(recs: pd.DataFrame) -> pd.DataFrame:
    """The rows written user by user (a stable sort keeps each user's own order)."""
    return recs.iloc[np.argsort(recs["user"].astype(str).to_numpy(), kind="stable")].reset_index(drop=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), settings_grid, st.sampled_from(batch.TIES), st.booleans(), st.booleans(), st.booleans())
def test_halves_give_the_whole_log_numbers(log, grid, ties, grouped, text_truth, categorical):
    recs, truth = log
    recs = by_user(recs) if grouped else recs
    if text_truth:  # numbers on one side, text on the other: matched as text by both paths
        truth = truth.assign(user=truth["user"].astype(str), item=truth["item"].astype(str))
    if categorical:  # text ids dictionary-encoded, as the command line reads a CSV file
        recs = recs.assign(user=recs["user"].astype(str).astype("category"), item=recs["item"].astype(str).astype("category"))
        truth = truth.assign(user=truth["user"].astype(str).astype("category"))
    ks, gain, denominator = grid
    with pytest.MonkeyPatch.context() as patch:
        split = batch._halves_by_user(recs, truth) if len(recs) > 1 else None
        try:
            whole = one_pass(patch, recs, truth, ks, gain=gain, denominator=denominator, ties=ties)
        except ValueError as error:
            with pytest.raises(type(error), match=f"^{__import__('re').escape(str(error))}$"):
                in_halves(patch, recs, truth, ks, gain=gain, denominator=denominator, ties=ties)
            return
        halves = in_halves(patch, recs, truth, ks, gain=gain, denominator=denominator, ties=ties)
    pd.testing.assert_frame_equal(halves, whole, check_exact=True)
    assert halves.attrs == whole.attrs
    if split is not None:  # the split is real: disjoint users, every row on one side
        (recs_a, truth_a), (recs_b, truth_b) = split
        assert len(recs_a) + len(recs_b) == len(recs) and len(truth_a) + len(truth_b) == len(truth)
        assert not set(recs_a["user"].astype(str)) & set(recs_b["user"].astype(str))


def test_a_log_grouped_by_user_is_split_and_one_that_is_not_stays_whole():
    recs = pd.DataFrame({"user": [1, 1, 2, 2, 3, 3], "item": [5, 6, 5, 6, 5, 6], "rank": [1, 2] * 3})
    truth = pd.DataFrame({"user": [1, 3, 4], "item": [5, 6, 5]})
    (recs_a, truth_a), (recs_b, truth_b) = batch._halves_by_user(recs, truth)
    assert recs_a["user"].tolist() == [1, 1, 2, 2] and recs_b["user"].tolist() == [3, 3]
    assert truth_a["user"].tolist() == [1] and truth_b["user"].tolist() == [3, 4]  # user 4: no list, second half
    crossing = recs.iloc[[0, 2, 3, 4, 1, 5]]  # user 1 on both sides of the middle
    assert batch._halves_by_user(crossing, truth) is None


@pytest.mark.parametrize(("case", "recs", "truth", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_every_refusal_reads_as_for_the_whole_log(monkeypatch, case, recs, truth, message):
    with pytest.raises(ValueError, match=message):
        in_halves(monkeypatch, recs, truth, 2)


def test_a_count_of_repeated_rows_covers_both_halves(monkeypatch):
    recs = pd.DataFrame({"user": ["a", "a", "a", "b", "b", "b"], "item": ["x", "x", "y", "z", "z", "w"],
                         "rank": [1, 2, 3, 1, 2, 3]})
    truth = pd.DataFrame({"user": ["a", "b"], "item": ["x", "z"]})
    with pytest.raises(ValueError, match=r"user 'a', item 'x' at rows 0 and 1; 2 row\(s\) in all repeat"):
        in_halves(monkeypatch, recs, truth, 2)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs(), settings_grid, st.sampled_from(batch.TIES), st.integers(1, 5))
def test_rows_packed_into_the_keys_block_by_block_give_the_same_numbers(log, grid, ties, block):
    recs, truth = log
    ks, gain, denominator = grid

    def run(pack_block: int):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(batch, "PACK_BLOCK", pack_block)
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
    batch._sort_in_place(keys, major)
    np.testing.assert_array_equal(keys, expected)
    shuffled = rng.permutation(expected)  # leading part out of order: one sort
    batch._sort_in_place(shuffled, shuffled // 1000)
    np.testing.assert_array_equal(shuffled, expected)
