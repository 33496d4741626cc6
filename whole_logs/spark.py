"""The batch engine on Spark: the same per-user numbers for logs that outgrow one machine.

:func:`evaluate` takes Spark DataFrames with the columns of :func:`whole_logs.batch.evaluate` and
returns a Spark DataFrame with one row per user and the same metric columns (plus ``user``).

How the work is partitioned
---------------------------
The two tables are tagged, put in one DataFrame and repartitioned by a hash of ``user``, so every
row of a user, recommended or judged, lands in the same partition: the one shuffle of the job.
Each partition then runs :func:`whole_logs.batch.evaluate`, the same vectorised kernel as the app and
the command line, over all the users it holds at once (``mapInPandas``: no Python call per user).
So the conventions (tie rule, AP denominator, ideal DCG from every graded item, users on one side
only) are those of the batch engine by construction, and a cluster runs the job unchanged:
``spark-submit --py-files receval-metrics.zip job.py`` (see docs/spark.md).

Spark's own ``RankingMetrics`` differs: its graded NDCG sums the ideal DCG in the order the
labels are given (values above 1 are possible), PySpark's wrapper drops the grades, and its
``meanAveragePrecisionAt`` divides by min(|truth|, K) while ``meanAveragePrecision`` divides by
|truth| over the whole list.

pyspark is imported only when a function here is called; nothing else in :mod:`metrics` needs it.
"""

from __future__ import annotations

import pandas as pd

from whole_logs import batch, readers
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


def _head(path: str) -> bytes:
    """The file's first bytes as the Python readers see them (gzip decompressed)."""
    import gzip

    with open(path, "rb") as handle:
        head = handle.read(readers.SNIFF_BYTES)
    if head.startswith(readers.GZIP_MAGIC):
        with gzip.open(path, "rb") as handle:
            head = handle.read(readers.SNIFF_BYTES)
    return head


def _utf8_head(path: str) -> tuple[bytes, bool]:
    """The first bytes as UTF-8 (a UTF-16 file's decoded), and whether the file goes on after them."""
    head = _head(path)
    truncated = len(head) == readers.SNIFF_BYTES
    if head.startswith(readers.UTF16_BOMS):
        head = head[:len(head) - len(head) % 2].decode("utf-16", errors="replace").encode("utf-8")
    return head, truncated


def validate_head(path: str, kind: str, fmt: str) -> pd.DataFrame | None:
    """Read the first 64 KiB with :mod:`whole_logs.readers`, so the header, the delimiter, the id rules
    and the first rows are refused with the in-memory messages (file lines included) before Spark
    runs a job; returns those rows, labelled by file line (None for Parquet, checked from its
    schema). :func:`whole_logs.batch.check_table` checks their values the same way."""
    if fmt == "parquet":
        import pyarrow.parquet as pq

        schema = pq.ParquetFile(path).schema_arrow
        problem = readers._arrow_type_problem(schema, [*readers.TEXT_COLUMNS, *readers.NUMBER_COLUMNS])
        if problem:
            raise ValueError(problem)
        readers._check_columns(pd.DataFrame(columns=schema.names), kind)
        return None
    readers.check_head(_head(path))
    head, truncated = _utf8_head(path)
    cut = head.rfind(b"\n") + 1 if truncated else len(head)
    return readers.read_table(head[:cut] or head, kind, fmt)


def read_table(spark, path: str, kind: str, fmt: str):
    """A recommendations or ground-truth file as a Spark DataFrame with the batch engine's columns.

    As in :mod:`whole_logs.readers`: ids from text files stay text, Parquet ids keep their type (so
    integer item ids tie in numeric order, as in memory), integer ranks are read exactly and other
    numbers as doubles (a value that is not a finite number fails the job with the batch engine's
    words), ``NA`` or ``null`` in an id column is an id, a ``.gz`` file and UTF-16 with a BOM are
    read, a trailing delimiter is an empty last field, '#' comment lines before a CSV header or in
    a TREC file are skipped. The first 64 KiB are validated by the Python readers
    (:func:`validate_head`); a malformed row further on fails the job (FAILFAST) with its text.
    ``fmt`` is ``"csv"``, ``"parquet"`` or ``"trec"`` (a run for recommendations, qrels for
    ground truth).
    """
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    first_rows = validate_head(path, kind, fmt)
    if fmt == "parquet":
        frame = spark.read.parquet(path)
        frame = frame.toDF(*[c.strip() for c in frame.columns])
        numbers = [c for c in ("rank", "score", "relevance") if c in frame.columns]
        return frame.select("user", "item", *[
            F.col(c).cast("long" if c == "rank" and isinstance(frame.schema[c].dataType, T.IntegralType) else "double")
            for c in numbers])
    if fmt == "csv":
        head = _utf8_head(path)[0].decode("utf-8", errors="replace").lstrip("\ufeff")
        lines = head.splitlines()
        skipped = next((i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")), 0)
        header = lines[skipped]
        delimiter = max(readers.DELIMITERS, key=header.count)
        names = [n or f"column {i + 1}" for i, n in enumerate(readers._header_names(header, delimiter))]
        if "trailing delimiter" in first_rows.columns:
            names.append("trailing delimiter")  # "u1,7,1," under "user,item,rank", as the readers read it
        schema = T.StructType([T.StructField(n, T.StringType()) for n in names])
        # A UTF-16 file is read whole by one task (Spark decodes it only in multiLine mode).
        utf16 = {"encoding": "UTF-16", "multiLine": True} if _head(path).startswith(readers.UTF16_BOMS) else {}
        frame = (spark.read.options(**utf16).option("header", True).option("sep", delimiter).option("mode", "FAILFAST")
                 .option("comment", "#").option("nullValue", None).option("emptyValue", "")
                 .option("ignoreLeadingWhiteSpace", True).option("ignoreTrailingWhiteSpace", True)
                 .schema(schema).csv(path))
    elif fmt == "trec":
        parts = F.split(F.trim(F.col("value")), r"\s+")
        lines = spark.read.text(path).filter((F.length(F.trim(F.col("value"))) > 0) & ~F.col("value").startswith("#"))
        if kind == "recommendations":
            frame = lines.select(parts[0].alias("user"), parts[2].alias("item"), parts[4].alias("score"))
        else:
            frame = lines.select(parts[0].alias("user"), parts[2].alias("item"), parts[3].alias("relevance"))
    else:
        raise ValueError(f"format must be one of {', '.join(readers.FORMATS)}, got {fmt!r}")
    numbers = [c for c in ("rank", "score", "relevance") if c in frame.columns]
    return frame.select(F.col("user").cast("string"), F.col("item").cast("string"), *[
        _number(F.col(c), c, kind, integral=pd.api.types.is_integer_dtype(first_rows[c].dtype)) for c in numbers])


def _number(text, name: str, kind: str, *, integral: bool):
    """A text column as numbers, as the readers and the batch engine read it: integers exactly when
    the first rows are integers (ranks above 2^53 keep their order), anything else as a double, and
    a value that is not a finite number fails the job with the batch engine's words."""
    from pyspark.sql import functions as F

    value = text.try_cast("long" if integral else "double")
    bad = value.isNull() if integral else value.isNull() | F.isnan(value) | (F.abs(value) == float("inf"))
    message = F.concat(F.lit(f"{kind} column '{name}' must hold finite numbers; a row holds '"),
                       F.coalesce(text, F.lit("")), F.lit("'"))
    return F.when(bad, F.raise_error(message)).otherwise(value).alias(name)


def same_kind(recommendations, ground_truth):
    """Id columns of one type in both tables: where one is numeric and the other text, the
    numbers become the text a person writes (7.0 is "7"), as :func:`whole_logs.batch.same_kind`."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import NumericType

    def as_text(column: str):
        c = F.col(column)
        return F.when(c == F.floor(c), c.cast("long").cast("string")).otherwise(c.cast("string")).alias(column)

    tables = [recommendations, ground_truth]
    for column in ("user", "item"):
        numeric = [isinstance(t.schema[column].dataType, NumericType) for t in tables]
        if numeric[0] != numeric[1]:
            tables = [t.withColumn(column, as_text(column)) if n else t for t, n in zip(tables, numeric, strict=True)]
        elif tables[0].schema[column].dataType != tables[1].schema[column].dataType:
            tables = [t.withColumn(column, F.col(column).cast("double")) if n else t for t, n in zip(tables, numeric, strict=True)]
    return tables


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
             ties: str = "item", partitions: int | None = None):
    """Per-user metrics of a Spark log, equal to :func:`whole_logs.batch.evaluate` user by user.

    Parameters
    ----------
    recommendations, ground_truth : pyspark.sql.DataFrame
        Columns as for :func:`whole_logs.batch.evaluate`: ``user``, ``item``, ``rank`` or ``score``;
        ``user``, ``item`` and optionally ``relevance``.
    k, metrics, gain, denominator, ties
        As for :func:`whole_logs.batch.evaluate` (``ties="input"`` is refused: a shuffle loses the
        row order).
    partitions : int, optional
        Number of partitions of the repartition by user (default: Spark's
        ``spark.sql.shuffle.partitions``). Each partition must fit in one executor's memory.

    Returns
    -------
    pyspark.sql.DataFrame
        Column ``user`` and one double column per metric and K, named as in
        :func:`whole_logs.batch.evaluate`; one row per user of the ground truth. The job runs when
        the result is used (it is lazy); a row-level problem (a duplicate pair, a negative
        relevance) then fails the job with the batch engine's ``ValueError`` message.
    """
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    ks = batch.check_ks(k)
    chosen = batch.check_metrics(metrics)
    check_choice(gain, "gain", GAINS)
    check_choice(denominator, "denominator", AP_DENOMINATORS)
    check_choice(ties, "ties", batch.TIES)
    if ties == "input":
        raise ValueError("ties='input' needs the file's row order, which Spark's shuffle does not keep: "
                         "use ties='item' or 'trec_eval' here, or the pandas engine")
    _check_columns(recommendations, "recommendations", ("user", "item"))
    _check_columns(ground_truth, "ground_truth", ("user", "item"))
    recommendations, ground_truth = same_kind(recommendations, ground_truth)
    order = _order_column(recommendations.columns)
    # Integer ranks stay integers (exact above 2^53, as in memory); scores and other ranks are doubles.
    order_type = "long" if isinstance(recommendations.schema[order].dataType, T.IntegralType) else "double"
    relevance = F.col("relevance").cast("double") if "relevance" in ground_truth.columns else F.lit(1.0)
    recs = recommendations.select("user", "item", F.col(order).cast(order_type).alias(order),
                                  F.lit(None).cast("double").alias("relevance"), F.lit(0).alias(_KIND))
    truth = ground_truth.select("user", "item", F.lit(None).cast(order_type).alias(order),
                                relevance.alias("relevance"), F.lit(1).alias(_KIND))
    both = recs.unionByName(truth)
    both = both.repartition(partitions, "user") if partitions else both.repartition("user")

    columns = [batch.column_name(m, k_) for m in chosen if m != "reciprocal_rank" for k_ in ks]
    columns += ["reciprocal_rank"] if "reciprocal_rank" in chosen else []
    schema = T.StructType([both.schema["user"]] + [T.StructField(c, T.DoubleType()) for c in columns])

    user_type = both.schema["user"].dataType

    def score_partition(chunks):
        # Arrow batches, split by kind before pandas sees them: a long column holding the truth rows'
        # nulls would become float64 in one pandas frame, and ranks above 2^53 would tie.
        import pyarrow as pa
        import pyarrow.compute as pc

        chunks = list(chunks)
        if not chunks:
            return
        rows = pa.Table.from_batches(chunks)
        kinds = rows.column(_KIND)
        judged = rows.filter(pc.equal(kinds, 1)).select(["user", "item", "relevance"]).to_pandas()
        if judged.empty:
            return
        recommended = rows.filter(pc.equal(kinds, 0)).select(["user", "item", order]).to_pandas()
        for frame in (recommended, judged):  # what a message's row numbers count: not file lines
            frame.index.name = "Spark partition row"
        per_user = batch.evaluate(recommended, judged, ks, metrics=chosen, gain=gain, denominator=denominator,
                                  ties=ties).reset_index()
        arrays = [pa.array(per_user["user"], type=_arrow_type(user_type))]
        arrays += [pa.array(per_user[c].to_numpy(dtype=float), type=pa.float64()) for c in columns]
        yield pa.RecordBatch.from_arrays(arrays, names=["user", *columns])

    return both.mapInArrow(score_partition, schema)


def _arrow_type(spark_type):
    """The Arrow type Spark expects back for an id column of ``spark_type``."""
    import pyarrow as pa
    from pyspark.sql import types as T

    return {T.StringType: pa.string(), T.LongType: pa.int64(), T.IntegerType: pa.int32(),
            T.DoubleType: pa.float64()}.get(type(spark_type), pa.string())


def summarize(per_user, recommendations=None, ground_truth=None) -> batch.Summary:
    """Means of :func:`evaluate`'s columns, and the user counts of :data:`whole_logs.batch.REASONS`.

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
