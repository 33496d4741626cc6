"""The batch benchmark's log through the Spark path (local mode) next to the in-memory engine.

    python benchmarks/spark_vs_batch.py            # 100,000 users x 100 recommendations (10M rows)
    python benchmarks/spark_vs_batch.py --users 2000

Both compute P@10, R@10, HR@10, AP@10, RR and NDCG@10 on the same synthetic log; the script
checks that the means agree and prints both times. The log is written to Parquet first (not
timed), and Spark reads it from there, as a job on logs larger than memory does; Spark's time is
reading, the repartition by user and the per-partition scoring; its JVM start is timed apart.
There is no target on a 2-core machine: what matters is that the same code runs unchanged on a
cluster.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from whole_logs import batch, spark  # noqa: E402
from whole_logs.synthetic import synthetic_log  # noqa: E402

METRICS = ["precision", "recall", "hit_rate", "average_precision", "ndcg", "reciprocal_rank"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--list-length", type=int, default=100)
    parser.add_argument("--relevant", type=int, default=20)
    parser.add_argument("--master", default="local[*]")
    parser.add_argument("--driver-memory", default="6g", help="local mode runs the executors inside the driver")
    parser.add_argument("--profile", action="store_true", help="also time the job's phases (scan, shuffle, Arrow)")
    args = parser.parse_args()
    recs, truth = synthetic_log(users=args.users, list_length=args.list_length, relevant=args.relevant, seed=0)
    print(f"log: {len(recs):,} recommendations, {len(truth):,} judged rows, {args.users:,} users "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")

    start = time.perf_counter()
    in_memory = batch.summarize(batch.evaluate(recs, truth, 10, metrics=METRICS)).means
    memory_seconds = time.perf_counter() - start

    folder = tempfile.mkdtemp(prefix="receval_spark_")
    recs.to_parquet(f"{folder}/recs.parquet")
    truth.to_parquet(f"{folder}/truth.parquet")
    start = time.perf_counter()
    session = spark.session(args.master, driver_memory=args.driver_memory)
    session.sparkContext.setLogLevel("ERROR")
    jvm_seconds = time.perf_counter() - start
    start = time.perf_counter()
    recs_sdf, truth_sdf = session.read.parquet(f"{folder}/recs.parquet"), session.read.parquet(f"{folder}/truth.parquet")
    per_user = spark.evaluate(recs_sdf, truth_sdf, 10, metrics=METRICS)
    on_spark = spark.summarize(per_user).means
    spark_seconds = time.perf_counter() - start
    phases = profile(session, folder) if args.profile else {}
    session.stop()

    agree = np.allclose(on_spark[in_memory.index].to_numpy(), in_memory.to_numpy(), rtol=1e-12, atol=0)
    print(f"in-memory engine:   {memory_seconds:8.2f} s")
    print(f"Spark ({args.master}): {spark_seconds:8.2f} s  (+ {jvm_seconds:.1f} s to start the JVM)")
    print(f"ratio Spark / in-memory: {spark_seconds / memory_seconds:.1f}x; means agree to 1e-12: {agree}")
    for metric, value in in_memory.items():
        print(f"  {metric:<22} {value:.6f}  {on_spark[metric]:.6f}")
    if phases:
        print("where Spark's time goes (each phase includes the ones above it):")
        for name, seconds in phases.items():
            print(f"  {name:<48} {seconds:8.2f} s")
        print(f"  {'the batch kernel in the Python workers (the rest)':<48} {spark_seconds - max(phases.values()):8.2f} s")
    if not agree:
        raise SystemExit("the means differ")


def profile(session, folder: str) -> dict[str, float]:
    """Cumulative times of the job's phases: scan the files, + the shuffle by user, + moving every
    row to the Python workers through Arrow (a mapInPandas that only counts rows)."""
    import pandas as pd
    from pyspark.sql import functions as F

    recs = session.read.parquet(f"{folder}/recs.parquet")
    truth = session.read.parquet(f"{folder}/truth.parquet")
    both = (recs.select("user", "item", F.col("score").cast("double").alias("score"), F.lit(0).alias("kind"))
            .unionByName(truth.select("user", "item", F.lit(None).cast("double").alias("score"), F.lit(1).alias("kind"))))

    def rows(chunks):
        yield pd.DataFrame({"n": [sum(len(chunk) for chunk in chunks)]})

    steps = {"scan both Parquet files": lambda: both.agg(F.sum("kind")).first(),
             "+ repartition by user (the shuffle)": lambda: both.repartition("user").agg(F.sum("kind")).first(),
             "+ Arrow transfer to Python workers": lambda: both.repartition("user").mapInPandas(rows, "n long")
             .agg(F.sum("n")).first()}
    times = {}
    for name, step in steps.items():
        start = time.perf_counter()
        step()
        times[name] = time.perf_counter() - start
    return times


if __name__ == "__main__":
    main()
