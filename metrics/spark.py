"""The batch engine on Spark: the same per-user numbers for logs that outgrow one machine.

:func:`evaluate` takes Spark DataFrames with the columns of :func:`metrics.batch.evaluate` and
returns a Spark DataFrame with one row per user and the same metric columns (plus ``user``).

How the work is partitioned
---------------------------
The two tables are tagged, put in one DataFrame and repartitioned by a hash of ``user``, so every
row of a user, recommended or judged, lands in the same partition: the one shuffle of the job.
Each partition then runs :func:`metrics.batch.evaluate`, the same vectorised kernel as the app and
the command line, over all the users it holds at once (``mapInPandas``: no Python call per user).
So the conventions (tie rule, AP denominator, ideal DCG from every graded item, users on one side
only) are those of the batch engine by construction, and a cluster runs the job unchanged:
``spark-submit --py-files receval-metrics.zip job.py`` (see the README).

Spark's own ``RankingMetrics`` differs: its graded NDCG sums the ideal DCG in the order the
labels are given (values above 1 are possible), PySpark's wrapper drops the grades, and its
``meanAveragePrecisionAt`` divides by min(|truth|, K) while ``meanAveragePrecision`` divides by
|truth| over the whole list.

pyspark is imported only when a function here is called; nothing else in :mod:`metrics` needs it.
"""

from __future__ import annotations

import pandas as pd

from metrics import batch, readers
from metrics._validation import check_choice
from metrics.ndcg import GAINS
from metrics.ranked_metrics import AP_DENOMINATORS

_KIND = "__receval_kind"  # 0 = recommendation row, 1 = ground-truth row


def session(master: str = "local[*]", app_name: str = "receval", *, driver_memory: str = "2g"):
    """A SparkSession for local runs: no web UI, Arrow on, few shuffle partitions for small data.

    In local mode the executors run inside the driver's JVM, so ``driver_memory`` is the memory of
    the whole job; it takes effect only when this call starts the JVM.

    On a cluster, build the session as the cluster wants and pass its DataFrames to
    :func:`evaluate`; this helper is for the command line and the tests.
    """
    from pyspark.sql import SparkSession

    return (SparkSession.builder.master(master).appName(app_name)
            .config("spark.driver.memory", driver_memory)
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .config("spark.sql.shuffle.partitions", "8")
            .getOrCreate())


def read_table(spark, path: str, kind: str, fmt: str):
    """A recommendations or ground-truth file as a Spark DataFrame with the batch engine's columns.

    Like :mod:`metrics.readers`, ids stay text (so ties between items are broken the same way as
    in memory) and numbers are read as doubles. ``fmt`` is ``"csv"`` (header row; delimiter found
    among , ; tab |), ``"parquet"`` or ``"trec"`` (a run for recommendations, qrels for ground truth).
    """
    from pyspark.sql import functions as F

    if fmt == "parquet":
        frame = spark.read.parquet(path)
    elif fmt == "csv":
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            header = handle.readline()
        delimiter = max(readers.DELIMITERS, key=header.count)
        frame = spark.read.option("header", True).option("sep", delimiter).csv(path)
        frame = frame.toDF(*[c.strip().lower() for c in frame.columns])
    elif fmt == "trec":
        parts = F.split(F.trim(F.col("value")), r"\s+")
        lines = spark.read.text(path).filter(F.length(F.trim(F.col("value"))) > 0)
        if kind == "recommendations":
            frame = lines.select(parts[0].alias("user"), parts[2].alias("item"), parts[4].alias("score"))
        else:
            frame = lines.select(parts[0].alias("user"), parts[2].alias("item"), parts[3].alias("relevance"))
    else:
        raise ValueError(f"format must be one of {', '.join(readers.FORMATS)}, got {fmt!r}")
    numbers = [c for c in ("rank", "score", "relevance") if c in frame.columns]
    return frame.select(F.col("user").cast("string"), F.col("item").cast("string"),
                        *[F.col(c).cast("double") for c in numbers]) if {"user", "item"} <= set(frame.columns) else frame


def _order_column(columns: list[str]) -> str:
    if "rank" in columns:
        return "rank"
    if "score" in columns:
        return "score"
    raise ValueError(f"recommendations must have a 'rank' or a 'score' column (found columns: {', '.join(columns)})")


def _check_columns(frame, name: str, required: tuple[str, ...]) -> None:
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} is missing column {', '.join(repr(c) for c in missing)} "
                         f"(found columns: {', '.join(frame.columns)})")


def evaluate(recommendations, ground_truth, k, *, metrics=None, gain="linear", denominator="min",
             partitions: int | None = None):
    """Per-user metrics of a Spark log, equal to :func:`metrics.batch.evaluate` user by user.

    Parameters
    ----------
    recommendations, ground_truth : pyspark.sql.DataFrame
        Columns as for :func:`metrics.batch.evaluate`: ``user``, ``item``, ``rank`` or ``score``;
        ``user``, ``item`` and optionally ``relevance``.
    k, metrics, gain, denominator
        As for :func:`metrics.batch.evaluate`.
    partitions : int, optional
        Number of partitions of the repartition by user (default: Spark's
        ``spark.sql.shuffle.partitions``). Each partition must fit in one executor's memory.

    Returns
    -------
    pyspark.sql.DataFrame
        Column ``user`` and one double column per metric and K, named as in
        :func:`metrics.batch.evaluate`; one row per user of the ground truth. The job runs when
        the result is used (it is lazy); a row-level problem (a duplicate pair, a negative
        relevance) then fails the job with the batch engine's ``ValueError`` message.
    """
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    ks = batch.check_ks(k)
    chosen = batch.check_metrics(metrics)
    check_choice(gain, "gain", GAINS)
    check_choice(denominator, "denominator", AP_DENOMINATORS)
    _check_columns(recommendations, "recommendations", ("user", "item"))
    _check_columns(ground_truth, "ground_truth", ("user", "item"))
    order = _order_column(recommendations.columns)
    relevance = F.col("relevance").cast("double") if "relevance" in ground_truth.columns else F.lit(1.0)
    recs = recommendations.select("user", "item", F.col(order).cast("double").alias(order),
                                  F.lit(None).cast("double").alias("relevance"), F.lit(0).alias(_KIND))
    truth = ground_truth.select("user", "item", F.lit(None).cast("double").alias(order),
                                relevance.alias("relevance"), F.lit(1).alias(_KIND))
    both = recs.unionByName(truth)
    both = both.repartition(partitions, "user") if partitions else both.repartition("user")

    columns = [batch.column_name(m, k_) for m in chosen if m != "reciprocal_rank" for k_ in ks]
    columns += ["reciprocal_rank"] if "reciprocal_rank" in chosen else []
    schema = T.StructType([both.schema["user"]] + [T.StructField(c, T.DoubleType()) for c in columns])

    def score_partition(chunks):
        frames = list(chunks)
        if not frames:
            return
        rows = pd.concat(frames, ignore_index=True)
        judged = rows[rows[_KIND] == 1]
        if judged.empty:
            return
        recommended = rows.loc[rows[_KIND] == 0, ["user", "item", order]]
        per_user = batch.evaluate(recommended, judged[["user", "item", "relevance"]], ks, metrics=chosen,
                                  gain=gain, denominator=denominator)
        yield per_user.reset_index()[["user", *columns]]

    return both.mapInPandas(score_partition, schema)


def summarize(per_user, recommendations=None, ground_truth=None) -> batch.Summary:
    """Means of :func:`evaluate`'s columns, and the user counts of :data:`metrics.batch.REASONS`.

    A Spark DataFrame carries no side information, so the counts of users scored 0 or left out
    are computed from the two input tables when they are given (otherwise only ``evaluated``,
    the number of rows of ``per_user``, is known and the other counts are 0).
    """
    from pyspark.sql import functions as F

    metric_columns = [c for c in per_user.columns if c != "user"]
    row = per_user.agg(*[F.avg(c).alias(c) for c in metric_columns], F.count(F.lit(1)).alias("__users")).first()
    means = pd.Series({c: float("nan") if row[c] is None else float(row[c]) for c in metric_columns}, name="mean")
    counts = {"evaluated": int(row["__users"])}
    if recommendations is not None and ground_truth is not None:
        rec_users = recommendations.select("user").distinct()
        relevance = F.col("relevance") if "relevance" in ground_truth.columns else F.lit(1.0)
        truth_users = ground_truth.groupBy("user").agg(F.max(relevance).alias("best"))
        counts["no_recommendations"] = truth_users.join(rec_users, "user", "left_anti").count()
        counts["no_relevant"] = truth_users.filter(F.col("best") <= 0).join(rec_users, "user", "left_semi").count()
        counts["no_ground_truth"] = rec_users.join(truth_users, "user", "left_anti").count()
    users = pd.Series({reason: int(counts.get(reason, 0)) for reason in batch.REASONS}, name="users")
    return batch.Summary(means=means, users=users)
