"""Awkward files engineers really have: each kind read right, or refused with a message naming the
file and the line or column, through the library and the command line (exit code, no traceback)."""

from __future__ import annotations

import gzip
import io
import re
from contextlib import redirect_stderr

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from whole_logs import batch, readers
from receval import cli

TRUTH_CSV = "user,item,relevance\nu1,7,1\nu1,8,2\nu2,9,1\n"
RECS_CSV = "user,item,rank\nu1,7,1\nu1,5,2\nu2,9,1\nu2,8,2\n"


@pytest.fixture(autouse=True, params=["read", "memory-mapped"])
def file_access(request, monkeypatch):
    """Every case twice: small files are read into memory, large ones mapped (the readers see both)."""
    if request.param == "memory-mapped":
        monkeypatch.setattr(cli, "MAP_FROM_BYTES", 1)
    return request.param


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stderr(err):
        code = cli.main(list(argv), out=out)
    return code, out.getvalue(), err.getvalue()


def evaluate(tmp_path, recs_name, recs, truth_name="truth.csv", truth=TRUTH_CSV, *extra):
    for name, content in ((recs_name, recs), (truth_name, truth)):
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return run("evaluate", "--recommendations", str(tmp_path / recs_name), "--ground-truth",
               str(tmp_path / truth_name), "-k", "2", "--format", "json", *extra)


def means(text: str) -> dict:
    import json

    return json.loads(text)["means"]


PLAIN = batch.summarize(batch.evaluate(readers.read_csv(RECS_CSV.encode()), readers.read_csv(TRUTH_CSV.encode(), "ground_truth"), 2))


def test_plain_files_are_the_reference(tmp_path):
    code, out, err = evaluate(tmp_path, "recs.csv", RECS_CSV)
    assert code == 0, err
    assert means(out) == pytest.approx(PLAIN.means.to_dict())


# ------------------------------------------------------------------ read right: same means as the plain files

READ_RIGHT = [
    ("gzip", "recs.csv.gz", gzip.compress(RECS_CSV.encode())),
    ("utf-16 with BOM", "recs.csv", RECS_CSV.encode("utf-16")),
    ("comment before the header", "recs.csv", "# exported 2026-01-01\n# by the model\n" + RECS_CSV),
    ("trailing comma", "recs.csv", RECS_CSV.replace("\n", ",\n").replace("rank,\n", "rank\n")),
    ("spaces around ids", "recs.csv", RECS_CSV.replace("u1,7", " u1 , 7 ")),
    ("crlf and blank lines", "recs.csv", RECS_CSV.replace("\n", "\r\n").replace("u2,9,1", "\r\nu2,9,1")),
    ("old-Mac CR line endings", "recs.csv", RECS_CSV.replace("\n", "\r")),
    ("header quoted, as pyarrow's write_csv", "recs.csv", RECS_CSV.replace("user,item,rank", '"user","item","rank"')),
    ("every field quoted, as R's write.csv", "recs.csv", re.sub(r"([^,\n]+)", r'"\1"', RECS_CSV)),
    ("trec run named .txt, tabs", "run.txt", "u1\tQ0\t7\t1\t2.0\tm\nu1\tQ0\t5\t2\t1.0\tm\nu2\tQ0\t9\t1\t2.0\tm\nu2\tQ0\t8\t2\t1.0\tm\n"),
    ("trec run with comments and extra fields", "run.tsv",
     "# run file\nu1 Q0 7 1 2.0 m extra\nu1 Q0 5 2 1.0 m\n#another\nu2 Q0 9 1 2.0 m x y\nu2 Q0 8 2 1.0 m\n"),
]


@pytest.mark.parametrize(("case", "name", "content"), READ_RIGHT, ids=[c[0] for c in READ_RIGHT])
def test_awkward_but_valid_files_give_the_plain_means(tmp_path, case, name, content):
    code, out, err = evaluate(tmp_path, name, content)
    assert code == 0, err
    assert means(out) == pytest.approx(PLAIN.means.to_dict())


def test_qrels_named_tsv_are_read_as_trec(tmp_path):
    code, out, err = evaluate(tmp_path, "recs.csv", RECS_CSV, "qrels.tsv", "u1\t0\t7\t1\nu1\t0\t8\t2\nu2\t0\t9\t1\n")
    assert code == 0, err
    assert means(out) == pytest.approx(PLAIN.means.to_dict())


def test_na_null_none_nan_are_ids_not_missing_values(tmp_path):
    recs = "user,item,rank\nNA,null,1\nNA,None,2\nnan,NaN,1\n"
    truth = "user,item\nNA,None\nnan,NaN\n"
    code, out, err = evaluate(tmp_path, "recs.csv", recs, "truth.csv", truth)
    assert code == 0, err
    assert means(out)["reciprocal_rank"] == pytest.approx(0.75)
    assert readers.read_csv(recs.encode())["item"].tolist() == ["null", "None", "NaN"]
    run_file = readers.read_trec_run(b"NA Q0 None 1 1.0 None\n")
    assert run_file[["user", "item"]].values.tolist() == [["NA", "None"]]


def test_float_ids_in_parquet_match_text_ids_in_csv(tmp_path):
    pd.DataFrame({"user": ["u1", "u1", "u2", "u2"], "item": [7.0, 5.0, 9.0, 8.0], "rank": [1, 2, 1, 2]}).to_parquet(tmp_path / "recs.parquet")
    (tmp_path / "truth.csv").write_text(TRUTH_CSV)
    code, out, err = run("evaluate", "--recommendations", str(tmp_path / "recs.parquet"), "--ground-truth",
                         str(tmp_path / "truth.csv"), "-k", "2", "--format", "json")
    assert code == 0, err
    assert means(out) == pytest.approx(PLAIN.means.to_dict())


def test_ids_that_never_match_across_kinds_are_refused():
    recs = pd.DataFrame({"user": ["u1"], "item": [7.5], "rank": [1]})
    truth = pd.DataFrame({"user": ["u1"], "item": ["007"]})
    with pytest.raises(ValueError, match=r"item ids are numbers in recommendations .* and text in ground_truth .* not one of them matches"):
        batch.evaluate(recs, truth, 1)


def test_quoted_newline_keeps_line_numbers_right():
    frame = readers.read_csv(b'user,item,rank\n"u\n1",7,1\nu2,8,x\n')
    assert list(frame.index) == [2, 4]
    with pytest.raises(ValueError, match="line 4 holds 'x'"):
        batch.evaluate(frame, pd.DataFrame({"user": ["u2"], "item": ["8"]}), 1)


def test_int64_ranks_above_2_53_keep_their_order():
    big = 2**60
    recs = pd.DataFrame({"user": ["u", "u"], "item": ["a", "b"], "rank": [big + 1, big]})
    truth = pd.DataFrame({"user": ["u"], "item": ["b"]})
    assert batch.evaluate(recs, truth, 1)["precision@1"].tolist() == [1.0]


def test_negative_grades_are_judged_non_relevant_and_noted():
    recs = pd.DataFrame({"user": ["u", "u"], "item": ["a", "b"], "rank": [1, 2]})
    truth = pd.DataFrame({"user": ["u", "u"], "item": ["a", "b"], "relevance": [-1, 1]})
    got = batch.evaluate(recs, truth, 2)
    assert got["reciprocal_rank"].tolist() == [0.5]
    assert got["ndcg@2"].tolist() == pytest.approx([1 / np.log2(3)])
    assert batch.scan_traps(recs, truth, 2).loc["negative_grades", "rows"] == 1


def test_huge_k_is_cheap_and_exact(tmp_path):
    code, out, err = evaluate(tmp_path, "recs.csv", RECS_CSV, "truth.csv", TRUTH_CSV, "-k", "100000000000")
    assert code == 0, err
    assert means(out)["precision@100000000000"] == pytest.approx(1 / 1e11)
    assert means(out)["ndcg@100000000000"] == pytest.approx(batch.summarize(batch.evaluate(
        readers.read_csv(RECS_CSV.encode()), readers.read_csv(TRUTH_CSV.encode(), "ground_truth"), 50)).means["ndcg@50"])


# ------------------------------------------------------------------ refused clearly

def _parquet(table: pa.Table) -> bytes:
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


REFUSED = [
    ("list column", "recs.parquet", _parquet(pa.table({"user": ["u1"], "item": [[7, 8]], "rank": [1]})),
     TRUTH_CSV, r"recs.parquet: column 'item' holds lists"),
    ("struct user", "recs.parquet", _parquet(pa.table({"user": [{"id": 1}], "item": ["7"], "rank": [1]})),
     TRUTH_CSV, r"recs.parquet: column 'user' holds nested records"),
    ("extra field", "recs.csv", "user,item,rank\nu1,7,1\nu1,5,2,9\n", TRUTH_CSV,
     r"recs.csv: could not read the file as CSV: the header names 3 columns \(user,item,rank\) but line 3 has 4 fields"),
    ("whitespace-only item in the truth", "recs.csv", RECS_CSV, "user,item\nu1,7\nu1,   \n",
     r"truth.csv with .*column 'item' is empty at line 3|truth.csv: .*column 'item' is empty at line 3"),
    ("header-only truth", "recs.csv", RECS_CSV, "user,item,relevance\n", r"truth.csv: the ground truth file has no data rows"),
    ("exponential gain overflow", "recs.csv", RECS_CSV, "user,item,relevance\nu1,7,1024\n",
     r"relevance' is too large .* below 1024 with exponential gain .*; line 2 holds 1024"),
    ("grade 1e308", "recs.csv", RECS_CSV, "user,item,relevance\nu1,7,1e308\n", r"relevance' is too large .*line 2 holds 1e\+308"),
    ("trec run given as csv", "run.csv", "u1 Q0 7 1 2.0 m\n", TRUTH_CSV, r"reads as a TREC run .*choose TREC"),
    ("zip", "recs.csv", b"PK\x03\x04" + b"\x00" * 40, TRUTH_CSV, r"recs.csv: this file is a ZIP archive"),
    ("capitalised header", "recs.csv", "User,Item,Rank\nu1,7,1\n", TRUTH_CSV, r"names are case-sensitive"),
    ("a column named twice", "recs.csv", "user,item,rank,rank\nu1,7,1,1\n", TRUTH_CSV,
     r"recs.csv: the header names column 'rank' twice \(columns 3 and 4\): name each column once"),
]


@pytest.mark.parametrize(("case", "name", "recs", "truth", "message"), REFUSED, ids=[c[0] for c in REFUSED])
def test_awkward_invalid_files_are_refused_naming_file_and_place(tmp_path, case, name, recs, truth, message):
    extra = ("--gain", "exponential") if "exponential" in case else ()
    code, out, err = evaluate(tmp_path, name, recs, "truth.csv", truth, *extra)
    assert code == 4 and not out
    assert "Traceback" not in err
    assert re.search(message, err), err


def test_nul_file_is_refused_from_its_first_bytes(tmp_path, monkeypatch):
    path = tmp_path / "recs.csv"
    with path.open("wb") as handle:
        handle.write(b"\x00" * (readers.SNIFF_BYTES + 10))
    (tmp_path / "truth.csv").write_text(TRUTH_CSV)
    read_whole = []
    monkeypatch.setattr(cli, "PROGRESS_FROM_BYTES", 1)
    monkeypatch.setattr("tqdm.tqdm", lambda *a, **k: read_whole.append(1))
    code, _, err = run("evaluate", "--recommendations", str(path), "--ground-truth", str(tmp_path / "truth.csv"))
    assert code == 4 and "not a text file" in err and "recs.csv" in err
    assert not read_whole


def test_library_refuses_nested_ids_in_a_dataframe():
    recs = pd.DataFrame({"user": ["u", "u"], "item": [["a"], ["b"]], "rank": [1, 2]})
    with pytest.raises(ValueError, match=r"recommendations column 'item' must hold one id per row; rows 0 and 1 hold a list"):
        batch.evaluate(recs, pd.DataFrame({"user": ["u"], "item": ["a"]}), 1)


def test_trec_comment_lines_keep_line_numbers_right():
    with pytest.raises(ValueError, match=r"score field of a TREC run must be a number; line\(s\) 4 \('x'\)"):
        readers.read_trec_run(b"# header comment\nq1 Q0 d1 1 2.0 t\n#q1 Q0 d2 2 1.0 t\nq1 Q0 d3 3 x t\n")


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("name", ["recs.csv", "run.txt"])
def test_a_latin1_byte_far_into_a_file_is_named_by_its_line_and_field(tmp_path, newline, name):
    """Past the first 64 KiB the sniffer has seen: the parser's own message named no line."""
    if name == "recs.csv":
        rows = "user,item,rank\n" + "".join(f"u{n},{n},1\n" for n in range(20_000)) + "u1,caf\xe9,2\n"
        where = "line 20002, field 2 holds the byte 0xE9"
    else:
        rows = "".join(f"u{n} Q0 {n} 1 1.0 t\n" for n in range(20_000)) + "u1 Q0 caf\xe9 2 0.5 t\n"
        where = "line 20001, field 3 holds the byte 0xE9"
    content = rows.replace("\n", newline).encode("latin-1")
    assert content.find(b"\xe9") > readers.SNIFF_BYTES
    code, out, err = evaluate(tmp_path, name, content)
    assert code == 4 and not out and "Traceback" not in err
    assert f"{name}: this is not a UTF-8 text file: {where}" in err, err
    with pytest.raises(ValueError, match=f"^this is not a UTF-8 text file: {where} \\(position"):
        readers.read_table(content, "recommendations")


def test_a_column_named_twice_is_refused_by_the_library_and_an_unused_one_renamed():
    with pytest.raises(ValueError, match=r"^the header names column 'user' twice \(columns 1 and 3\)"):
        readers.read_table(b"user,item,user,rank\nu1,7,u1,1\n", "recommendations")
    with pytest.raises(ValueError, match=r"column 'rank' twice"):
        readers.read_table(_parquet(pa.table([["u1"], ["7"], [1], [2]], names=["user", "item", "rank", "rank"])),
                           "recommendations")
    frame = readers.read_table(b"user,item,rank,note,note\nu1,7,1,a,b\n", "recommendations")
    assert list(frame.columns) == ["user", "item", "rank", "note", "note (column 5)"]


def test_old_mac_line_endings_keep_line_numbers_right():
    with pytest.raises(ValueError, match="line 4 holds 'x'"):
        batch.evaluate(readers.read_csv(b"# exported\ruser,item,rank\ru1,7,1\ru1,8,x\r"),
                       pd.DataFrame({"user": ["u1"], "item": ["8"]}), 1)
    with pytest.raises(ValueError, match="line 3 has 4 fields"):
        readers.read_csv(b"user,item,rank\ru1,7,1\ru1,8,1,9\r")


# ------------------------------------------------------------------ quoted files: the fast parse, lines right

def _reference(content: bytes) -> tuple[list, list]:
    """Rows and the line each starts on, by Python's csv module (universal newlines, blank lines kept)."""
    import csv

    reader = csv.reader(io.StringIO(content.decode(), newline=""))
    rows, starts, previous = [], [], 0
    for row in reader:
        if previous >= 1 and row:
            rows.append(row)
            starts.append(previous + 1)
        previous = reader.line_num
    return rows, starts


@pytest.mark.parametrize("seed", range(6))
def test_quoted_line_breaks_anywhere_give_the_rows_and_lines_of_pythons_csv(monkeypatch, seed):
    """Blocks cut at any line break, even inside a quoted value: the parse and the line numbers are
    those of a parse that knows every quote (pyarrow alone, cut there, can misread such a file)."""
    rng = np.random.default_rng(seed)
    rows = []
    for n in range(60):
        user = rng.choice([f"u{n}", f'"u{n}"', f'"u\n{n}"', f'"u,\r\n{n}"', f'"q""\n{n}"'], p=[.4, .4, .08, .06, .06])
        rows.append(f'{user},"{n % 7}",{n % 5 + 1}')
    content = ('"user","item","rank"\n' + "\n".join(rows) + "\n").encode()
    expected_rows, expected_lines = _reference(content)
    for block in (64, 97, 150, 1 << 24):
        monkeypatch.setattr(readers, "BLOCK_BYTES", block)
        frame = readers.read_csv(content)
        assert list(frame.index) == expected_lines, block
        # pyarrow itself, cutting a block between the CR and the LF of a quoted CRLF, keeps the CR alone
        got = [[u.replace("\r\n", "\r"), i, r] for u, i, r in frame.astype(str).values.tolist()]
        assert got == [[u.strip().replace("\r\n", "\r"), i, r] for u, i, r in expected_rows], block


def test_a_quoted_file_without_line_breaks_in_its_values_is_parsed_once_the_fast_way(monkeypatch):
    """pyarrow's write_csv quotes the header, R's write.csv every text field: neither needs the slow
    parse (blocks cut between whole rows), nor a second pass over the file to number its lines."""
    import pyarrow.csv as pacsv

    parses = []
    real = pacsv.read_csv
    monkeypatch.setattr(pacsv, "read_csv", lambda *a, **k: parses.append(k["parse_options"].newlines_in_values)
                        or real(*a, **k))
    content = ('"user","item","rank"\n' + "".join(f'"u{n // 10}","{n}",{n % 10 + 1}\n' for n in range(100))
               + '"u1","x",y\n').encode()
    frame = readers.read_csv(content)
    assert parses == [False]
    assert frame.index[-1] == 102
    with pytest.raises(ValueError, match="line 102 holds 'y'"):
        batch.evaluate(frame, pd.DataFrame({"user": ["u1"], "item": ["x"]}), 1)
