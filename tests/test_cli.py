"""python -m metrics: the batch engine's numbers from a shell, with exit codes that say what failed."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from whole_logs import batch
from receval import cli
from whole_logs.significance import compare

ROOT = Path(__file__).resolve().parents[1]


def synthetic(seed: int, users: int = 30):
    rng = np.random.default_rng(seed)
    recs, truth = [], []
    for user in range(users):
        for rank, item in enumerate(rng.choice(50, 12, replace=False), start=1):
            recs.append((f"u{user}", f"i{item}", rank, float(rng.random())))
        for item in rng.choice(50, 5, replace=False):
            truth.append((f"u{user}", f"i{item}", int(rng.integers(0, 4))))
    return (pd.DataFrame(recs, columns=["user", "item", "rank", "score"]),
            pd.DataFrame(truth, columns=["user", "item", "relevance"]))


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return cli.main(argv, out=out), out.getvalue()


@pytest.fixture
def files(tmp_path):
    recs, truth = synthetic(0)
    recs[["user", "item", "rank"]].to_csv(tmp_path / "recs.csv", index=False)
    truth.to_csv(tmp_path / "truth.csv", index=False)
    recs[["user", "item", "score"]].to_parquet(tmp_path / "recs.parquet")
    with open(tmp_path / "run.trec", "w") as handle:
        for row in recs.itertuples():
            handle.write(f"{row.user} Q0 {row.item} {row.rank} {row.score!r} model\n")
    with open(tmp_path / "test.qrels", "w") as handle:
        for row in truth.itertuples():
            handle.write(f"{row.user} 0 {row.item} {row.relevance}\n")
    return tmp_path, recs, truth


def test_evaluate_prints_the_batch_engine_means_in_every_format(files):
    folder, recs, truth = files
    expected = batch.summarize(batch.evaluate(recs[["user", "item", "rank"]], truth, [5, 10], gain="exponential"))
    argv = ["evaluate", "--recommendations", str(folder / "recs.csv"), "--ground-truth", str(folder / "truth.csv"),
            "-k", "5", "-k", "10", "--gain", "exponential"]
    code, text = run([*argv, "--format", "json"])
    assert code == 0
    printed = json.loads(text)
    assert printed["means"] == pytest.approx(expected.means.to_dict())
    assert printed["users"] == expected.users.to_dict()

    code, text = run([*argv, "--format", "csv"])
    table = pd.read_csv(io.StringIO(text)).set_index("metric")["mean"]
    assert table[list(expected.means.index)].to_numpy() == pytest.approx(expected.means.to_numpy())

    code, text = run(argv)
    assert re.search(rf"^ndcg@10 +{expected.means['ndcg@10']:.4f}$", text, re.M)
    assert "users: users with ground truth, in the means" in text


def test_trec_and_parquet_inputs_give_the_scores_of_their_tables(files):
    folder, recs, truth = files
    by_score = batch.summarize(batch.evaluate(recs[["user", "item", "score"]], truth, 10))
    for recs_file, truth_file in (("run.trec", "test.qrels"), ("recs.parquet", "truth.csv")):
        code, text = run(["evaluate", "--recommendations", str(folder / recs_file),
                          "--ground-truth", str(folder / truth_file), "--format", "json"])
        assert code == 0, text
        assert json.loads(text)["means"] == pytest.approx(by_score.means.to_dict())


def test_content_is_sniffed_when_the_extension_says_nothing_and_a_flag_overrides(files):
    folder, recs, truth = files
    (folder / "run.txt").write_bytes((folder / "run.trec").read_bytes())
    code, text = run(["evaluate", "--recommendations", str(folder / "run.txt"),
                      "--ground-truth", str(folder / "test.qrels"), "--format", "json"])
    assert code == 0
    code, text = run(["evaluate", "--recommendations", str(folder / "run.trec"), "--recommendations-format", "csv",
                      "--ground-truth", str(folder / "test.qrels")])
    assert code == 4


def test_per_user_file_equals_the_engine(files):
    folder, recs, truth = files
    code, _ = run(["evaluate", "--recommendations", str(folder / "recs.csv"), "--ground-truth",
                   str(folder / "truth.csv"), "--per-user", str(folder / "out.csv"), "--metrics", "ndcg", "recall"])
    assert code == 0
    written = pd.read_csv(folder / "out.csv", dtype={"user": str}).set_index("user")
    expected = batch.evaluate(recs[["user", "item", "rank"]], truth, 10, metrics=["ndcg", "recall"])
    pd.testing.assert_frame_equal(written, expected, check_exact=False, rtol=1e-12)


@pytest.mark.parametrize(("make", "code", "message"), [
    (lambda d: ["--recommendations", str(d / "nope.csv")], 3, "nope.csv: cannot be opened"),
    (lambda d: ["--recommendations", str(d)], 3, "is a folder"),
    (lambda d: ["--recommendations", str(d / "bad.csv")], 4, "bad.csv: .*item"),
    (lambda d: ["--recommendations", str(d / "dup.csv")], 4, "duplicate \\(user, item\\).*--keep-best-duplicates keeps"),
    (lambda d: ["--recommendations", str(d / "dup.csv"), "--engine", "spark", "--keep-best-duplicates"], 2,
     "--keep-best-duplicates works with the pandas engine only"),
    (lambda d: ["--recommendations", str(d / "recs.csv"), "-k", "0"], 2, "-k must be a positive integer"),
])
def test_bad_input_exits_with_its_code_and_names_the_file(files, capsys, make, code, message):
    folder, recs, truth = files
    (folder / "bad.csv").write_text("user,product,rank\nu1,i1,1\n")
    (folder / "dup.csv").write_text("user,item,rank\nu0,i1,1\nu0,i1,2\n")
    exit_code, _ = run(["evaluate", *make(folder), "--ground-truth", str(folder / "truth.csv")])
    assert exit_code == code
    assert re.search(message, capsys.readouterr().err)


@pytest.mark.parametrize("quiet", [[], ["--quiet"]])
def test_the_ground_truth_read_meanwhile_keeps_what_each_refusal_says(files, capsys, quiet):
    """The ground truth is read in a second thread while the recommendations are: with both files bad the
    recommendations' refusal still comes first, and a bad ground truth alone is named as before."""
    folder, _, _ = files
    (folder / "bad_recs.csv").write_text("user,product,rank\nu1,i1,1\n")
    (folder / "bad_truth.csv").write_text("user,thing,relevance\nu1,i1,1\n")  # refused while read
    assert run(["evaluate", "--recommendations", str(folder / "bad_recs.csv"), "--ground-truth",
                str(folder / "bad_truth.csv"), *quiet])[0] == 4
    error = capsys.readouterr().err
    assert "bad_recs.csv:" in error and "bad_truth.csv:" not in error
    assert run(["evaluate", "--recommendations", str(folder / "recs.csv"), "--ground-truth",
                str(folder / "nope.csv"), *quiet])[0] == 3
    assert "nope.csv: cannot be opened" in capsys.readouterr().err
    assert run(["evaluate", "--recommendations", str(folder / "recs.csv"), "--ground-truth",
                str(folder / "bad_truth.csv"), *quiet])[0] == 4
    assert re.search("bad_truth.csv: .*item", capsys.readouterr().err)


def test_compare_prints_the_significance_table(files):
    folder, recs, truth = files
    other, _ = synthetic(1)
    other[["user", "item", "rank"]].to_csv(folder / "b.csv", index=False)
    code, text = run(["compare", str(folder / "recs.csv"), str(folder / "b.csv"), "--ground-truth",
                      str(folder / "truth.csv"), "-k", "10", "--resamples", "500", "--format", "csv"])
    assert code == 0
    printed = pd.read_csv(io.StringIO(text)).set_index("metric")
    a = batch.evaluate(recs[["user", "item", "rank"]], truth, 10)
    b = batch.evaluate(other[["user", "item", "rank"]], truth, 10)
    expected = compare(a, b, n_resamples=500)
    pd.testing.assert_frame_equal(printed, expected, check_exact=False, rtol=1e-9, check_dtype=False)


def test_large_files_are_announced_on_stderr(files, capsys, monkeypatch):
    folder, _, _ = files
    monkeypatch.setattr(cli, "PROGRESS_FROM_BYTES", 0)
    code, _ = run(["evaluate", "--recommendations", str(folder / "recs.csv"), "--ground-truth", str(folder / "truth.csv")])
    assert code == 0
    assert "reading recs.csv" in capsys.readouterr().err
    code, _ = run(["evaluate", "--recommendations", str(folder / "recs.csv"), "--ground-truth",
                   str(folder / "truth.csv"), "--quiet"])
    assert "reading" not in capsys.readouterr().err


def test_python_dash_m_metrics_runs_from_the_project_root(files):
    folder, _, _ = files
    help_text = subprocess.run([sys.executable, "-m", "metrics", "evaluate", "--help"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout
    assert "exit codes:" in help_text and "python -m metrics compare" in help_text
    result = subprocess.run([sys.executable, "-m", "metrics", "evaluate", "--recommendations", str(folder / "recs.csv"),
                             "--ground-truth", str(folder / "missing.csv")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 3 and "missing.csv" in result.stderr


def test_keep_best_duplicates_scores_each_repeated_pair_by_its_best_rank(files, capsys):
    folder, recs, truth = files
    ranked = recs[["user", "item", "rank"]]
    repeated = ranked.assign(rank=ranked["rank"] + 20)  # every pair again, lower in the list
    pd.concat([repeated, ranked]).to_csv(folder / "repeated.csv", index=False)
    argv = ["evaluate", "--recommendations", str(folder / "repeated.csv"), "--ground-truth", str(folder / "truth.csv"),
            "--format", "json"]
    assert run(argv)[0] == 4
    code, text = run([*argv, "--keep-best-duplicates"])
    assert code == 0
    assert f"dropped {len(ranked):,} repeated recommendation row(s)" in capsys.readouterr().err
    expected = batch.summarize(batch.evaluate(ranked, truth, 10))
    assert json.loads(text)["means"] == pytest.approx(expected.means.to_dict())


def test_keep_best_duplicates_keeps_the_best_placed_row_by_rank_or_by_score():
    by_rank = pd.DataFrame({"user": ["a", "a", "a", "a"], "item": [1, 2, 1, 1], "rank": [5, 1, 2, 2]})
    assert batch.keep_best_duplicates(by_rank).index.tolist() == [1, 2]  # rank 2 twice: the first row wins
    by_score = pd.DataFrame({"user": ["a", "a", "b"], "item": [1, 1, 1], "score": [0.2, 0.9, 0.1]})
    assert batch.keep_best_duplicates(by_score).index.tolist() == [1, 2]
    unique = by_score.drop_duplicates(["user", "item"])
    assert batch.keep_best_duplicates(unique).equals(unique)


def test_a_failed_spark_job_reads_as_one_line_whatever_failed():
    worker = "Traceback (most recent call last):\n  File x\nmetrics.errors.DataError: ground_truth column 'relevance' must hold finite numbers; line 3 holds 'x'\n"
    assert cli.spark_failure(worker, None) == "ground_truth column 'relevance' must hold finite numbers; line 3 holds 'x'"
    java = ("org.apache.spark.SparkException: Job aborted due to stage failure: Malformed records are detected in record parsing.\n"
            "\tat org.apache.spark.sql.catalyst.util.FailureSafeParser.parse(FailureSafeParser.scala:83)\n")
    malformed = cli.spark_failure(java, "/tmp/spark.log")
    assert malformed.startswith("org.apache.spark.SparkException: Job aborted due to stage failure: Malformed records")
    assert "more or fewer fields than the header" in malformed and "\n" not in malformed and "at org" not in malformed
    other = cli.spark_failure("java.lang.OutOfMemoryError: Java heap space\n\tat java.util.Arrays.copyOf(Arrays.java:3537)\n",
                              "/tmp/spark.log")
    assert other == "java.lang.OutOfMemoryError: Java heap space (Spark's own log: /tmp/spark.log)"
    assert cli.spark_failure("", None) == "the Spark job failed"


def test_a_reader_that_goes_away_gets_no_traceback(files):
    """``python -m metrics ... | head -1``: the pipe closes before the summary is written."""
    import os

    folder, _, _ = files
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([sys.executable, "-m", "metrics", "evaluate", "--recommendations", str(folder / "recs.csv"),
                                 "--ground-truth", str(folder / "truth.csv")], cwd=ROOT, stdout=write_end,
                                stderr=subprocess.PIPE, text=True, check=False)
    finally:
        os.close(write_end)
    assert result.returncode == 1 and result.stderr == ""


def test_evaluate_imports_neither_scipy_nor_the_protocol_lab_nor_an_http_client(files):
    """The protocol command's engine imports scipy.stats (0.55 s on the benchmark machine), which every
    `evaluate` paid for while the parser was built, ahead of the files themselves; the MovieLens
    download's urllib.request (with http.client and the e-mail modules) was 15 ms more."""
    folder, _, _ = files
    probe = ("import runpy, sys\n"
             f"sys.argv = ['metrics', 'evaluate', '--recommendations', {str(folder / 'recs.csv')!r}, "
             f"'--ground-truth', {str(folder / 'truth.csv')!r}, '--quiet']\n"
             "from receval import cli\n"
             "code = cli.main(sys.argv[1:])\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy' or m in ('protocols.lab', "
             "'urllib.request', 'http.client')), code)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "[] 0", done.stdout + done.stderr


def test_per_user_rows_and_trec_queries_come_in_the_text_order_of_user_ids(tmp_path):
    """User ids 1..12 are read as integers, but listed as text sorts them (1, 10, 11, 12, 2), as
    trec_eval lists queries and as the streamed engine writes them."""
    users = range(1, 13)
    recs = pd.DataFrame({"user": np.repeat(list(users), 3), "item": np.tile([0, 1, 2], 12), "score": np.tile([3, 2, 1], 12)})
    pd.DataFrame(recs).to_csv(tmp_path / "recs.csv", index=False)
    pd.DataFrame({"user": list(users), "item": 0}).to_csv(tmp_path / "truth.csv", index=False)
    in_text_order = sorted(str(u) for u in users)
    common = ["evaluate", "--recommendations", str(tmp_path / "recs.csv"), "--ground-truth", str(tmp_path / "truth.csv"),
              "-k", "2", "--quiet"]
    code, text = run([*common, "--format", "trec", "-q"])
    assert code == 0
    assert list(dict.fromkeys(line.split("\t")[1] for line in text.splitlines()[1:-1] if "\tall\t" not in line)) == in_text_order
    assert run([*common, "--per-user", str(tmp_path / "a.csv")])[0] == 0
    assert run([*common, "--stream", "--per-user", str(tmp_path / "b.csv")])[0] == 0
    written = (tmp_path / "a.csv").read_text()
    assert [line.split(",")[0] for line in written.splitlines()[1:]] == in_text_order
    assert written == (tmp_path / "b.csv").read_text()
