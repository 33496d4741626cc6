"""Every reader on small files written here, well-formed and malformed."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whole_logs import batch, readers
from whole_logs.readers import read_csv, read_parquet, read_table, read_trec_qrels, read_trec_run, sniff_format

RECS = pd.DataFrame({"user": ["u1", "u1", "u1", "u2"], "item": ["007", "b", "c", "b"], "rank": [1, 2, 3, 1]})
TRUTH = pd.DataFrame({"user": ["u1", "u1", "u3"], "item": ["007", "c", "a"], "relevance": [2, 1, 1]})


def write(tmp_path, name: str, content: str | bytes):
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


def as_plain(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.reset_index(drop=True).astype({"user": object, "item": object})


@pytest.mark.parametrize("sep", [",", ";", "\t", "|"])
def test_csv_with_any_common_delimiter_keeps_ids_as_text(tmp_path, sep):
    path = write(tmp_path, "recs.csv", RECS.to_csv(index=False, sep=sep))
    frame = read_csv(path)
    pd.testing.assert_frame_equal(as_plain(frame), as_plain(RECS))
    assert frame.index.name == "line" and list(frame.index) == [2, 3, 4, 5]


def test_csv_round_trip_evaluates_like_the_frames(tmp_path):
    recs = read_table(write(tmp_path, "r.csv", RECS.to_csv(index=False)), "recommendations")
    truth = read_table(write(tmp_path, "t.csv", "\ufeff" + TRUTH.to_csv(index=False)), "ground_truth")
    pd.testing.assert_frame_equal(batch.evaluate(recs, truth, 2), batch.evaluate(RECS, TRUTH, 2))


def test_csv_blank_lines_keep_line_numbers_for_errors(tmp_path):
    path = write(tmp_path, "r.csv", "user,item,rank\nu1,a,1\n\nu1,b,two\n")
    frame = read_csv(path)
    assert list(frame.index) == [2, 4]
    with pytest.raises(ValueError, match="line 4 holds 'two'"):
        batch.evaluate(frame, TRUTH, 2)


def test_parquet_round_trip_keeps_types(tmp_path):
    path = tmp_path / "recs.parquet"
    RECS.assign(user=[1, 1, 1, 2]).to_parquet(path)
    frame = read_table(path, "recommendations")
    assert frame["user"].tolist() == [1, 1, 1, 2] and frame.index.name == "row"
    assert list(frame.index) == [1, 2, 3, 4]


def test_trec_pair(tmp_path):
    run = write(tmp_path, "run.txt", "q1 Q0 d1 1 3.0 tag\nq1 Q0 d2 2 2.0 tag\n\nq2\tQ0\td1\t1\t1.0\ttag\n")
    qrels = write(tmp_path, "qrels.txt", "q1 0 d2 1\nq2 0 d9 2\nq3 0 d1 0\n")
    recs, truth = read_table(run, "recommendations"), read_table(qrels, "ground_truth")
    assert list(recs.columns) == ["user", "item", "score"] and list(recs.index) == [1, 2, 4]
    assert truth["relevance"].tolist() == [1, 2, 0]
    per_user = batch.evaluate(recs, truth, 2)
    assert per_user["reciprocal_rank"].to_dict() == {"q1": 0.5, "q2": 0.0, "q3": 0.0}


def test_sniffing():
    assert sniff_format(b"PAR1....") == "parquet"
    assert sniff_format(b"", "x.parquet") == "parquet"
    assert sniff_format(b"user item rank\n") == "csv"
    assert sniff_format(b"q1 0 d1 1\n") == "trec"


MALFORMED = [
    ("missing column", "csv", "user,item\nu1,a\n", "recommendations", r"missing column 'rank' or 'score' \(found columns: 'user', 'item'\)"),
    ("missing truth column", "csv", "user,thing\nu1,a\n", "ground_truth", r"ground truth file is missing column 'item'"),
    ("space separated", "csv", "user item rank\nu1 a 1\n", "recommendations", r"no , ; tab or \| between names"),
    ("binary", "csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR", "recommendations", r"not a text file"),
    ("latin-1", "csv", "user,item,rank\nu1,caf\xe9,1\n".encode("latin-1") + b"x" * 10, "recommendations", r"not a UTF-8 text file"),
    ("parquet as csv", "csv", b"PAR1\x15\x04", "recommendations", r"this is a Parquet file"),
    ("csv as parquet", "parquet", "user,item,rank\n", "recommendations", r"could not read the file as Parquet"),
    ("ragged csv", "csv", "user,item,rank\nu1,a,1\nu1,b,2,9,9\n", "recommendations", r"could not read the file as CSV: .*line 3"),
    ("empty", "csv", "", "recommendations", r"the file is empty"),
    ("blank header", "csv", "\n\n", "recommendations", r"first line is blank"),
    ("trec run, five fields", "trec", "q1 Q0 d1 1 0.5\n", "recommendations", r"line 1 has 5 field\(s\) but a TREC run line has 6"),
    ("trec csv", "trec", "q1,Q0,d1,1,0.5,t\n", "recommendations", r"looks like CSV: choose CSV"),
    ("trec short line", "trec", "q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2\n", "recommendations", r"line\(s\) 2 have fewer"),
    ("trec text score", "trec", "q1 Q0 d1 1 high t\n", "recommendations", r"score field of a TREC run must be a number; line\(s\) 1 \('high'\)"),
    ("trec text rank", "trec", "q1 Q0 d1 first 1 t\n", "recommendations", r"rank field .* line\(s\) 1 \('first'\)"),
    ("qrels text grade", "trec", "q1 0 d1 1\nq1 0 d2 yes\n", "ground_truth", r"relevance field of a TREC qrels must be a number; line\(s\) 2"),
    ("qrels as run", "trec", "q1 0 d1 1\n", "recommendations", r"has 4 field\(s\) but a TREC run line has 6"),
    ("too many rows", "csv", "user,item,rank\n" + "u,a,1\n" * 4, "recommendations", r"more than 3 rows"),
    ("categories without category", "csv", "item,genre\na,news\n", "item_categories",
     r"item categories file is missing column 'category' \(found columns: 'item', 'genre'\)"),
    ("categories as trec", "trec", "a news\n", "item_categories", r"item categories need a CSV or Parquet file"),
]


@pytest.mark.parametrize(("case", "fmt", "content", "kind", "message"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_files_say_what_is_wrong(tmp_path, case, fmt, content, kind, message):
    path = write(tmp_path, "upload", content)
    with pytest.raises(ValueError, match=message):
        read_table(path, kind, fmt, max_rows=3)


def test_parquet_row_limit_and_missing_column(tmp_path):
    path = tmp_path / "t.parquet"
    TRUTH.to_parquet(path)
    with pytest.raises(ValueError, match="more than 2 rows"):
        read_parquet(path, "ground_truth", max_rows=2)
    with pytest.raises(ValueError, match="missing column 'rank' or 'score'"):
        read_parquet(path, "recommendations")


def test_qrels_reader_alone():
    assert read_trec_qrels(b"q 0 d 3\n")["relevance"].tolist() == [3]
    assert read_trec_run(b"q Q0 d 1 -2.5e3 t\n")["score"].tolist() == [-2500.0]


@pytest.mark.parametrize("compact_ids", [False, True])
def test_spaces_around_an_id_in_a_later_block_of_a_large_file_are_trimmed(compact_ids):
    """pyarrow parses 16 MiB blocks, each with a dictionary of its own: every block is checked, not the first."""
    rows = "".join(f"u{n // 100},{n % 100},{n % 100 + 1}\n" for n in range(1_500_000))  # about 18 MiB
    data = ("user,item,rank\n" + rows + " u_last , 7 ,1\n").encode()
    assert len(data) > 1 << 24
    frame = read_csv(data, compact_ids=compact_ids)
    assert frame["user"].iloc[-1] == "u_last" and frame["item"].iloc[-1] == "7"
    assert frame.loc[2 + 1_500_000, "item"] == "7"  # the file's last line keeps its line number


ID_TEXTS = ["0", "7", "-12", "123456", "9223372036854775807", "-9223372036854775807", "007", "00", "-0", "-007",
            "0x1f", "0X1F", "0xFFFFFFFFFF", "+7", "1e3", "7.0", "u1", "NA", "-9223372036854775808",
            "9223372036854775808", "١٢", "-0x1f", "0xffffffffffffffff", "0x8000000000000000"]


def written_plainly(text: str) -> bool:
    """An integer as Python writes it, within int64."""
    return re.fullmatch(r"-?[1-9][0-9]*|0", text) is not None and -(2**63) <= int(text) < 2**63


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ID_TEXTS), min_size=1, max_size=40), st.integers(1, 6))
def test_compact_user_ids_are_the_ids_as_written(users, blocks):
    """A user column read as int64 holds exactly the ids written, each as Python writes that integer;
    any other writing ("007", "-0", "0x1f", "+7") keeps it text, so "007" never meets "7". Items stay
    text: ties between items go by their text."""
    users = (users * 30)[:max(30, len(users))]
    data = ("user,item,score\n" + "".join(f"{u},{n % 12},0.5\n" for n, u in enumerate(users))).encode()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readers, "BLOCK_BYTES", max(128, len(data) // blocks))  # several blocks, each checked
        compact = read_csv(data, compact_ids=True)
    assert [str(v) for v in compact["user"]] == users
    assert (compact["user"].dtype == "int64") == all(map(written_plainly, users))
    assert isinstance(compact["item"].dtype, pd.CategoricalDtype)
    assert compact["item"].tolist() == [str(n % 12) for n in range(len(users))]


def test_a_hexadecimal_id_shorter_than_its_number_does_not_hide_a_leading_zero():
    """0xFFFFFFFFFF (12 characters) is 1099511627775 (13): with 07 (one more than 7) the characters add
    up as if both were written plainly. Neither may become a number."""
    frame = read_csv(b"user,item,score\n0xFFFFFFFFFF,1,0.5\n07,2,0.5\n7,3,0.5\n", compact_ids=True)
    assert frame["user"].tolist() == ["0xFFFFFFFFFF", "07", "7"]
    assert read_csv(b"user,item,score\n1099511627775,1,0.5\n7,2,0.5\n", compact_ids=True)["user"].dtype == "int64"
