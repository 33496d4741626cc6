"""whole_logs.spark in Spark's local mode: the batch engine's numbers, user by user.

One Spark session serves the module. The JVM comes from the machine (``.ci/run`` installs a Java
runtime where it is missing); pyspark from requirements-dev.txt.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from whole_logs import batch

pytestmark = [pytest.mark.filterwarnings("ignore::FutureWarning"), pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore:The copy keyword is deprecated")]

pyspark = pytest.importorskip("pyspark", reason="pyspark is in requirements-dev.txt; install it to run these")
spark_module = pytest.importorskip("whole_logs.spark")


@pytest.fixture(scope="module")
def spark():
    session = spark_module.session("local[2]")
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def random_log(seed: int, *, by: str = "rank", graded: bool = True):
    """Users with and without hits, short lists, ties in score, users missing on either side."""
    rng = np.random.default_rng(seed)
    rec_rows, truth_rows = [], []
    for user in range(40):
        items = rng.choice(60, size=int(rng.integers(0, 15)), replace=False)
        for position, item in enumerate(items, start=1):
            value = position if by == "rank" else float(rng.integers(0, 5))  # few scores: many ties
            rec_rows.append((f"u{user}", int(item), value))
        if user % 9 != 0:  # some users have recommendations but no ground truth
            judged = rng.choice(60, size=int(rng.integers(1, 8)), replace=False)
            for item in judged:
                truth_rows.append((f"u{user}", int(item), float(rng.integers(0, 4)) if graded else 1.0))
    truth_rows += [("only_truth", 5, 2.0), ("only_truth", 7, 1.0)]
    recs = pd.DataFrame(rec_rows, columns=["user", "item", by])
    truth = pd.DataFrame(truth_rows, columns=["user", "item", "relevance"])
    return recs, truth


def spark_per_user(spark, recs, truth, k, **options) -> pd.DataFrame:
    result = spark_module.evaluate(spark.createDataFrame(recs), spark.createDataFrame(truth), k, **options)
    return result.toPandas().set_index("user").sort_index()


@pytest.mark.parametrize(("seed", "by", "gain", "denominator"), [
    (0, "rank", "linear", "min"), (1, "score", "exponential", "relevant"), (2, "score", "linear", "hits"),
    (3, "rank", "exponential", "min"),
])
def test_equal_to_the_batch_engine_user_by_user(spark, seed, by, gain, denominator):
    recs, truth = random_log(seed, by=by)
    ours = batch.evaluate(recs, truth, [1, 5, 10], gain=gain, denominator=denominator)
    theirs = spark_per_user(spark, recs, truth, [1, 5, 10], gain=gain, denominator=denominator)
    assert list(theirs.columns) == list(ours.columns)
    pd.testing.assert_frame_equal(theirs, ours.sort_index(), check_exact=False, rtol=1e-12, check_names=False)


def test_summary_counts_equal_the_batch_engine(spark):
    recs, truth = random_log(5)
    truth.loc[truth["user"] == "u1", "relevance"] = 0.0  # a user judged, nothing relevant
    expected = batch.summarize(batch.evaluate(recs, truth, 10))
    per_user = spark_module.evaluate(spark.createDataFrame(recs), spark.createDataFrame(truth), 10)
    summary = spark_module.summarize(per_user, spark.createDataFrame(recs), spark.createDataFrame(truth))
    pd.testing.assert_series_equal(summary.users, expected.users)
    pd.testing.assert_series_equal(summary.means, expected.means.astype(float), check_exact=False, rtol=1e-12,
                                   check_names=False)


SEED_RECS = pd.DataFrame({"user": "u", "item": list(range(101, 111)), "rank": list(range(1, 11))})
SEED_GRADED = pd.DataFrame({"user": "u", "item": [101, 104, 107, 999], "relevance": [5.0, 4.0, 3.0, 5.0]})


def test_graded_seed_example_exact_under_both_gains(spark):
    recs, truth = spark.createDataFrame(SEED_RECS), spark.createDataFrame(SEED_GRADED)
    exponential = spark_module.evaluate(recs, truth, 10, metrics=["ndcg"], gain="exponential").first()["ndcg@10"]
    linear = spark_module.evaluate(recs, truth, 10, metrics=["ndcg"]).first()["ndcg@10"]
    assert round(exponential, 4) == 0.6516
    assert round(linear, 4) == 0.6747


def test_spark_ranking_metrics_differs_as_the_library_lens_says(spark):
    """Pins the claims about Spark MLlib that the library lens and docs/spark.md make."""
    from pyspark.mllib.evaluation import RankingMetrics

    sc = spark.sparkContext
    predicted = list(range(101, 111))
    # PySpark passes only (prediction, labels) to the JVM: the grades are dropped, binary NDCG.
    pyspark_value = RankingMetrics(sc.parallelize([(predicted, [999, 101, 104, 107], [5.0, 5.0, 4.0, 3.0])])).ndcgAt(10)
    assert round(pyspark_value, 4) == 0.6886

    # The Scala API takes the grades, but sums the ideal DCG in the order the labels are given.
    from py4j.java_collections import ListConverter

    def java_list(values):
        return ListConverter().convert(values, sc._gateway._gateway_client)

    def scala_graded_ndcg(labels: list[int], grades: list[float]) -> float:
        row = sc._jvm.scala.Tuple3(java_list(predicted), java_list(labels), java_list(grades))
        rdd = sc._jsc.parallelize(java_list([row]))
        return sc._jvm.org.apache.spark.mllib.evaluation.RankingMetrics.of(rdd).ndcgAt(10)

    assert round(scala_graded_ndcg([101, 999, 104, 107], [5.0, 5.0, 4.0, 3.0]), 4) == 0.6516  # sorted by grade
    assert round(scala_graded_ndcg([107, 104, 101, 999], [3.0, 4.0, 5.0, 5.0]), 4) == 0.8782  # same grades, other order


def test_a_duplicate_pair_fails_the_job_with_the_batch_message(spark):
    recs = pd.DataFrame({"user": ["a", "a"], "item": [1, 1], "rank": [1, 2]})
    truth = pd.DataFrame({"user": ["a"], "item": [1]})
    result = spark_module.evaluate(spark.createDataFrame(recs), spark.createDataFrame(truth), 5)
    with pytest.raises(Exception, match="duplicate \\(user, item\\) pairs"):
        result.collect()


@pytest.mark.parametrize(("recs_columns", "message"), [(["user", "item"], "'rank' or a 'score'"),
                                                       (["user", "rank"], "missing column 'item'")])
def test_missing_columns_are_named_before_any_job_runs(spark, recs_columns, message):
    recs = spark.createDataFrame(pd.DataFrame({"user": ["a"], "item": [1], "rank": [1]})[recs_columns])
    truth = spark.createDataFrame(pd.DataFrame({"user": ["a"], "item": [1]}))
    with pytest.raises(ValueError, match=message):
        spark_module.evaluate(recs, truth, 5)


def test_command_line_spark_engine_prints_the_in_memory_summary(spark, tmp_path):
    """``python -m metrics evaluate --engine spark`` reads the files with Spark and prints the same means."""
    import io
    import json

    from receval import cli

    recs, truth = random_log(6, by="score")
    recs.to_csv(tmp_path / "recs.csv", index=False)
    truth.to_csv(tmp_path / "truth.csv", index=False)
    with open(tmp_path / "test.qrels", "w") as handle:
        handle.writelines(f"{r.user} 0 {r.item} {r.relevance:g}\n" for r in truth.itertuples())
    expected = batch.summarize(batch.evaluate(recs.astype({"item": str}), truth.astype({"item": str}), [5, 10]))
    for truth_file in ("truth.csv", "test.qrels"):
        out = io.StringIO()
        code = cli.main(["evaluate", "--engine", "spark", "--master", "local[2]", "--recommendations",
                         str(tmp_path / "recs.csv"), "--ground-truth", str(tmp_path / truth_file), "-k", "5", "-k", "10",
                         "--format", "json", "--per-user", str(tmp_path / "per_user")], out=out)
        assert code == 0
        printed = json.loads(out.getvalue())
        assert printed["means"] == pytest.approx(expected.means.to_dict(), rel=1e-12)
        assert printed["users"] == expected.users.to_dict()
    written = pd.concat(pd.read_csv(part) for part in (tmp_path / "per_user").glob("part-*.csv"))
    assert len(written) == expected.users["evaluated"]


def _cli(*argv):
    import io
    from contextlib import redirect_stderr

    from receval import cli

    out, err = io.StringIO(), io.StringIO()
    with redirect_stderr(err):
        code = cli.main(list(argv), out=out)
    return code, out.getvalue(), err.getvalue()


def test_spark_reads_and_refuses_files_as_the_readers_do(spark, tmp_path):
    """One pass over awkward inputs: the same means as the pandas engine, or the same message."""
    import gzip
    import json

    tied = pd.DataFrame({"user": ["u"] * 3, "item": [10, 9, 2], "score": [1.0, 1.0, 1.0]})
    tied.to_parquet(tmp_path / "tied.parquet")
    pd.DataFrame({"user": ["u"], "item": [2]}).to_parquet(tmp_path / "tied_truth.parquet")
    (tmp_path / "recs.csv.gz").write_bytes(gzip.compress(b"# exported\nuser,item,rank\nNA,null,1\nNA,b,2\nx,a,1\n"))
    (tmp_path / "truth.csv").write_text("user,item,relevance\nNA,null,2\nx,a,-1\nx,c,1\n")
    (tmp_path / "upper.csv").write_text("User,Item,Rank\nu,a,1\n")
    (tmp_path / "extra.csv").write_text("user,item,rank\n" + "u,a,1\n" * 3 + "u,b,2,9\n")
    spark_args = ("--engine", "spark", "--master", "local[2]", "--format", "json", "-k", "1", "-k", "2")
    for recs, truth in (("tied.parquet", "tied_truth.parquet"), ("recs.csv.gz", "truth.csv")):
        argv = ["evaluate", "--recommendations", str(tmp_path / recs), "--ground-truth", str(tmp_path / truth)]
        code, in_memory, err = _cli(*argv, "--format", "json", "-k", "1", "-k", "2")
        assert code == 0, err
        code, on_spark, err = _cli(*argv, *spark_args)
        assert code == 0, err
        assert json.loads(on_spark)["means"] == pytest.approx(json.loads(in_memory)["means"], abs=1e-12), recs
    for recs, message in (("upper.csv", "column names are case-sensitive"),
                          ("extra.csv", "line 5 has 4 fields")):
        argv = ["evaluate", "--recommendations", str(tmp_path / recs), "--ground-truth", str(tmp_path / "truth.csv")]
        code, _, err = _cli(*argv, *spark_args)
        assert code == 4 and message in err and "Traceback" not in err and "\tat " not in err, err
        assert err.splitlines()[0] == _cli(*argv)[2].splitlines()[0]


def test_every_awkward_file_gives_the_in_memory_means_or_message(spark, tmp_path):
    """Every reader test of tests/test_awkward_files.py through --engine spark: the same means, or
    the same first line of the refusal (file and line included), exit code included."""
    import json

    from tests import test_awkward_files as awkward

    cases = [(case, name, recs, "truth.csv", awkward.TRUTH_CSV) for case, name, recs in awkward.READ_RIGHT]
    cases += [(case, name, recs, "truth.csv", truth) for case, name, recs, truth, _ in awkward.REFUSED]
    cases += [("qrels named .tsv", "recs.csv", awkward.RECS_CSV, "qrels.tsv", "u1\t0\t7\t1\nu1\t0\t8\t2\nu2\t0\t9\t1\n"),
              ("NA, null, None, nan ids", "recs.csv", "user,item,rank\nNA,null,1\nNA,None,2\nnan,NaN,1\n",
               "truth.csv", "user,item\nNA,None\nnan,NaN\n"),
              ("text in a rank", "recs.csv", "user,item,rank\nu1,7,x\n", "truth.csv", awkward.TRUTH_CSV),
              ("ranks above 2^53", "recs.csv", f"user,item,rank\nu1,8,{2**60 + 1}\nu1,7,{2**60}\n",
               "truth.csv", awkward.TRUTH_CSV)]
    for number, (case, recs_name, recs, truth_name, truth) in enumerate(cases):
        folder = tmp_path / str(number)
        folder.mkdir()
        for name, content in ((recs_name, recs), (truth_name, truth)):
            (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode())
        argv = ["evaluate", "--recommendations", str(folder / recs_name), "--ground-truth", str(folder / truth_name),
                "-k", "2", "--format", "json", *(("--gain", "exponential") if "exponential" in case else ())]
        in_memory, on_spark = _cli(*argv), _cli(*argv, "--engine", "spark", "--master", "local[2]")
        assert on_spark[0] == in_memory[0], (case, on_spark[2], in_memory[2])
        if in_memory[0] == 0:
            assert json.loads(on_spark[1])["means"] == pytest.approx(json.loads(in_memory[1])["means"], abs=1e-12), case
        else:
            assert on_spark[2].splitlines()[0] == in_memory[2].splitlines()[0], case


def test_a_bad_row_past_the_first_rows_is_one_line_without_java(tmp_path):
    """A fresh command line on Spark: the JVM's banners and stack traces go to a log file, and a
    value the first 64 KiB do not show is refused in the batch engine's words, in one line."""
    import subprocess
    import sys

    rows = "".join(f"u{i // 10},{i},{i % 10 + 1}\n" for i in range(8000))
    (tmp_path / "recs.csv").write_text("user,item,rank\n" + rows + "u9999,1,x\n")
    (tmp_path / "truth.csv").write_text("user,item\nu1,15\n")
    result = subprocess.run([sys.executable, "-m", "metrics", "evaluate", "--recommendations", str(tmp_path / "recs.csv"),
                             "--ground-truth", str(tmp_path / "truth.csv"), "--engine", "spark", "--master", "local[1]"],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 4
    assert result.stderr.splitlines() == [f"error: {tmp_path / 'recs.csv'} with {tmp_path / 'truth.csv'}: recommendations "
                                          "column 'rank' must hold finite numbers; a row holds 'x'"], result.stderr
