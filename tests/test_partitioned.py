"""Bounded memory: --stream partitions the rows by user and gives the in-memory engine's numbers;
a file that would not fit is refused before it is read, naming the way out."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr

import pandas as pd
import pytest

from whole_logs import batch, partitioned
from receval import cli
from whole_logs.synthetic import synthetic_log


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stderr(err):
        code = cli.main(list(argv), out=out)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    folder = tmp_path_factory.mktemp("log")
    recs, truth = synthetic_log(users=60, list_length=15, relevant=4, seed=2, decimals=1)  # rounded: many ties
    recs, truth = recs[recs["user"] != 3], truth[truth["user"] != 4]  # a user on each side only
    recs.sample(frac=1, random_state=0).to_csv(folder / "recs.csv", index=False)
    recs.to_parquet(folder / "recs.parquet")
    truth.to_csv(folder / "truth.csv", index=False)
    truth.to_parquet(folder / "truth.parquet")
    return folder


@pytest.mark.parametrize(("recs", "truth", "ties"), [("recs.csv", "truth.parquet", "item"),
                                                     ("recs.parquet", "truth.csv", "trec_eval"),
                                                     ("recs.csv", "truth.csv", "input")])
def test_stream_with_tiny_partitions_equals_the_in_memory_engine(log, recs, truth, ties):
    common = ["evaluate", "--recommendations", str(log / recs), "--ground-truth", str(log / truth), "-k", "3", "-k", "10",
              "--ties", ties, "--format", "json"]
    code, in_memory, err = run(*common)
    assert code == 0, err
    code, streamed, err = run(*common, "--stream", "--partition-rows", "40")
    assert code == 0, err
    assert "evaluating partitions" in err  # the progress bar, by partition
    a, b = json.loads(in_memory), json.loads(streamed)
    assert b["users"] == a["users"]
    assert b["means"] == pytest.approx(a["means"], abs=1e-12)


def test_partitions_are_many_and_combine_like_evaluate(log):
    calls = []
    got = partitioned.evaluate_files(log / "recs.parquet", log / "truth.parquet", 5, recs_format="parquet",
                                     truth_format="parquet", partition_rows=100, progress=lambda d, t: calls.append(t))
    assert calls and calls[0] > 5
    whole = batch.evaluate(pd.read_parquet(log / "recs.parquet"), pd.read_parquet(log / "truth.parquet"), 5)
    pd.testing.assert_frame_equal(got, whole, rtol=1e-12)
    assert got.attrs == whole.attrs


def test_stream_errors_name_the_data_row(tmp_path):
    (tmp_path / "recs.csv").write_text("user,item,rank\nu,a,1\nu,b,x\n")
    (tmp_path / "truth.csv").write_text("user,item\nu,a\n")
    code, _, err = run("evaluate", "--recommendations", str(tmp_path / "recs.csv"), "--ground-truth",
                       str(tmp_path / "truth.csv"), "--stream", "--quiet")
    assert code == 4 and "row 2 holds 'x'" in err and "Traceback" not in err


def test_a_file_too_large_for_memory_is_refused_before_reading(log, monkeypatch):
    monkeypatch.setattr(cli, "available_memory", lambda: 10_000)
    monkeypatch.setattr(cli, "read_input", lambda *a: pytest.fail("read a file that does not fit"))
    code, _, err = run("evaluate", "--recommendations", str(log / "recs.parquet"), "--ground-truth", str(log / "truth.csv"))
    assert code == 6
    assert "--stream" in err and "--engine spark" in err and "recs.parquet" in err


def test_an_error_in_a_worker_process_reaches_the_command_line_whole(tmp_path):
    rows = [f"u{u},i{i},{i}" for u in range(40) for i in range(1, 4)]
    rows[100] = "u33,i1,1"  # data row 101 repeats row 100, in a partition a worker evaluates
    (tmp_path / "recs.csv").write_text("user,item,rank\n" + "\n".join(rows) + "\n")
    (tmp_path / "truth.csv").write_text("user,item\n" + "\n".join(f"u{u},i1" for u in range(40)) + "\n")
    code, _, err = run("evaluate", "--recommendations", str(tmp_path / "recs.csv"), "--ground-truth",
                       str(tmp_path / "truth.csv"), "--stream", "--partition-rows", "10", "--quiet")
    assert code == 4 and "Traceback" not in err
    assert "duplicate (user, item) pairs" in err and "'u33'" in err and "rows 100 and 101" in err, err


def test_a_data_error_survives_the_trip_between_processes():
    import pickle

    error = batch.DuplicatePairsError("recommendations has duplicate pairs", "recommendations", user="'u'")
    back = pickle.loads(pickle.dumps(error))
    assert (type(back), str(back), back.code, back.fields, back.table) == (
        batch.DuplicatePairsError, str(error), "duplicate_pairs", error.fields, "recommendations")


def _short_lines_first(path) -> int:
    """A log whose first 200 KB hold short lines (small ids) and the rest lines ten times as long; its row count."""
    users = [f"{u},{i},{i}" for u in range(10) for i in range(1, 4000)]  # about 7 bytes a line
    rest = [f"user-{u:040d},item-{i:08d},{i}" for u in range(10, 700) for i in range(1, 100)]  # about 65
    with open(path, "w") as handle:
        handle.write("user,item,rank\n" + "\n".join(users + rest) + "\n")
    return len(users) + len(rest)


@pytest.mark.parametrize("compress", [False, True])
def test_rows_are_estimated_from_the_whole_file_not_its_first_lines(tmp_path, compress):
    import gzip

    path = tmp_path / "recs.csv"
    rows = _short_lines_first(path)
    if compress:
        (tmp_path / "recs.csv.gz").write_bytes(gzip.compress(path.read_bytes()))
        path = tmp_path / "recs.csv.gz"
    estimate = partitioned.count_rows(path, "csv")
    assert abs(estimate - rows) < (0.2 if compress else 0.05) * rows, (estimate, rows)


def test_a_log_that_fits_is_not_refused_for_its_short_first_lines(tmp_path, monkeypatch):
    rows = _short_lines_first(tmp_path / "recs.csv")
    (tmp_path / "truth.csv").write_text("user,item\n0,1\n")
    need = rows * partitioned.BYTES_PER_ROW["csv"]
    monkeypatch.setattr(cli, "available_memory", lambda: int(2 * need))  # room for the log, not for 3x its rows
    code, out, err = run("evaluate", "--recommendations", str(tmp_path / "recs.csv"), "--ground-truth",
                         str(tmp_path / "truth.csv"), "--quiet")
    assert code == 0, err
