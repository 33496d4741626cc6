"""From files on disk to the six means, as an engineer runs each tool: the command line against
pytrec_eval, ranx, a DuckDB SQL query and a Polars lazy query.

Run from the project root (needs requirements-dev.txt)::

    python benchmarks/files_to_means.py                    # 100,000 users x 100 = 10M rows
    python benchmarks/files_to_means.py --users 2000 --repeats 1   # a quick look

A synthetic log (:func:`whole_logs.synthetic.synthetic_log`, 20 relevant items graded 1..3 per user,
unrounded scores, so no tool's tie rule matters) is written once in each layout of :data:`LAYOUTS`
(``user, item, score`` and ``user, item, relevance``): CSV as pandas writes it, with its header
quoted (pyarrow's ``write_csv``), with its text fields quoted (R's ``write.csv``: ids written as
text), each user's rows together or apart (the rows shuffled, as a log in time order), and Parquet. Every
contender then runs in a fresh process, from the files to the means of P@10, R@10, HR@10, AP@10
(divided by |Rel|: trec_eval's map_cut), NDCG@10 (linear gain) and RR; its wall time (interpreter
start and imports included, as a shell would see it), CPU time (user + system, both cores) and peak
resident memory come from the operating system (``os.wait4``). One warm-up run of each is left
out (file cache, numba's compile cache), then ``--repeats`` rounds run every contender once each,
and the median of each is printed with its ratio to the command line's median, the median of its
round-by-round ratios to the command line ("paired"), the rounds in which the command line was
faster ("CLI ahead"), and every run's wall time. The floor is what
any tool must do: read the file with pyarrow and sort 10M integer keys once. All means must agree
to 1e-9, else the script exits with 1.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LABELS = ("P@10", "R@10", "HR@10", "AP@10", "NDCG@10", "RR")
OURS = {"precision@10": "P@10", "recall@10": "R@10", "hit_rate@10": "HR@10",
        "average_precision@10": "AP@10", "ndcg@10": "NDCG@10", "reciprocal_rank": "RR"}
TREC = {"P_10": "P@10", "recall_10": "R@10", "success_10": "HR@10", "map_cut_10": "AP@10",
        "ndcg_cut_10": "NDCG@10", "recip_rank": "RR"}
RANX = {"precision@10": "P@10", "recall@10": "R@10", "hit_rate@10": "HR@10", "map@10": "AP@10",
        "ndcg@10": "NDCG@10", "mrr": "RR"}
TOLERANCE = 1e-9

# ----------------------------------------------------------------------------- the contenders


def _read(path: str):
    """A file as a pandas DataFrame the way a user of that library would read it."""
    import pandas as pd

    return pd.read_parquet(path) if path.endswith(".parquet") else pd.read_csv(path)


def with_pytrec_eval(recs_path: str, truth_path: str) -> dict:
    import numpy as np
    import pytrec_eval

    def nested(frame, value):
        users, items = frame["user"].astype(str).tolist(), frame["item"].astype(str).tolist()
        values = frame[value].tolist()
        out: dict = {}
        for user, item, v in zip(users, items, values, strict=True):
            out.setdefault(user, {})[item] = v
        return out

    run, qrels = nested(_read(recs_path), "score"), nested(_read(truth_path), "relevance")
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"P.10", "recall.10", "success.10", "map_cut.10",
                                                       "ndcg_cut.10", "recip_rank"}).evaluate(run)
    return {label: float(np.mean([s[name] for s in per_query.values()])) for name, label in TREC.items()}


def with_ranx(recs_path: str, truth_path: str) -> dict:
    import numpy as np
    from ranx import Qrels, Run, evaluate

    recs, truth = _read(recs_path), _read(truth_path)
    run = Run.from_df(recs.assign(user=recs["user"].astype(str).astype(object), item=recs["item"].astype(str).astype(object),
                                  score=recs["score"].astype(np.float64)), q_id_col="user", doc_id_col="item", score_col="score")
    qrels = Qrels.from_df(truth.assign(user=truth["user"].astype(str).astype(object),
                                       item=truth["item"].astype(str).astype(object),
                                       relevance=truth["relevance"].astype(np.int64)),
                          q_id_col="user", doc_id_col="item", score_col="relevance")
    means = evaluate(qrels, run, list(RANX))
    return {label: float(means[name]) for name, label in RANX.items()}


# Both queries rank every row, but compute AP's running hit count over the top 10 rows only and
# find the first hit with an inner join: about twice as fast as windows over all rows.
DUCKDB_SQL = """
WITH r AS (SELECT "user", item, row_number() OVER (PARTITION BY "user" ORDER BY score DESC, item) AS pos
           FROM {recs}),
t AS (SELECT "user", item, relevance FROM {truth}),
top AS (SELECT r."user", r.pos, coalesce(t.relevance, 0) AS rel
        FROM (SELECT * FROM r WHERE pos <= 10) r LEFT JOIN t ON r."user" = t."user" AND r.item = t.item),
h AS (SELECT "user", pos, rel, (rel > 0)::INT AS hit,
             sum((rel > 0)::INT) OVER (PARTITION BY "user" ORDER BY pos) AS seen FROM top),
per AS (SELECT "user", sum(hit) AS hits, sum(CASE WHEN hit = 1 THEN seen / pos ELSE 0 END) AS ap_sum,
               sum(rel / log2(pos + 1)) AS dcg
        FROM h GROUP BY "user"),
first AS (SELECT r."user", min(r.pos) AS first_hit
          FROM r JOIN t ON r."user" = t."user" AND r.item = t.item WHERE t.relevance > 0 GROUP BY r."user"),
n AS (SELECT "user", count(*) FILTER (WHERE relevance > 0) AS n_rel FROM t GROUP BY "user"),
ideal AS (SELECT "user", sum(relevance / log2(p + 1)) AS idcg
          FROM (SELECT "user", relevance, row_number() OVER (PARTITION BY "user" ORDER BY relevance DESC) AS p
                FROM t WHERE relevance > 0) WHERE p <= 10 GROUP BY "user")
SELECT avg(coalesce(hits, 0) / 10.0), avg(CASE WHEN n_rel > 0 THEN coalesce(hits, 0) / n_rel ELSE 0 END),
       avg(CASE WHEN coalesce(hits, 0) > 0 THEN 1.0 ELSE 0.0 END),
       avg(CASE WHEN n_rel > 0 THEN coalesce(ap_sum, 0) / n_rel ELSE 0 END),
       avg(CASE WHEN idcg > 0 THEN coalesce(dcg, 0) / idcg ELSE 0 END), avg(coalesce(1.0 / first_hit, 0))
FROM n LEFT JOIN per USING ("user") LEFT JOIN first USING ("user") LEFT JOIN ideal USING ("user")
"""


def with_duckdb(recs_path: str, truth_path: str) -> dict:
    import duckdb

    def source(path: str) -> str:
        return f"read_parquet('{path}')" if path.endswith(".parquet") else f"read_csv('{path}')"

    row = duckdb.sql(DUCKDB_SQL.format(recs=source(recs_path), truth=source(truth_path))).fetchall()[0]
    return dict(zip(LABELS, map(float, row), strict=True))


def with_polars(recs_path: str, truth_path: str) -> dict:
    import polars as pl

    def scan(path: str):
        return pl.scan_parquet(path) if path.endswith(".parquet") else pl.scan_csv(path)

    truth = scan(truth_path)
    ranked = scan(recs_path).with_columns(pos=pl.col("score").rank("ordinal", descending=True).over("user"))
    # Only the first 10 positions count for P, R, HR, AP and NDCG; RR needs the first hit anywhere.
    top = (ranked.filter(pl.col("pos") <= 10)
           .join(truth, on=["user", "item"], how="left")
           .with_columns(rel=pl.col("relevance").fill_null(0).cast(pl.Float64))
           .sort(["user", "pos"])
           .with_columns(hit=(pl.col("rel") > 0).cast(pl.Float64))
           .with_columns(seen=pl.col("hit").cum_sum().over("user"))
           .group_by("user").agg(hits=pl.col("hit").sum(),
                                 ap_sum=(pl.col("hit") * pl.col("seen") / pl.col("pos")).sum(),
                                 dcg=(pl.col("rel") / (pl.col("pos") + 1).log(2)).sum()))
    first = (ranked.join(truth.filter(pl.col("relevance") > 0), on=["user", "item"], how="inner")
             .group_by("user").agg(first_hit=pl.col("pos").min()))
    ideal = (truth.filter(pl.col("relevance") > 0)
             .with_columns(p=pl.col("relevance").rank("ordinal", descending=True).over("user"))
             .filter(pl.col("p") <= 10)
             .group_by("user").agg(idcg=(pl.col("relevance") / (pl.col("p") + 1).log(2)).sum()))
    n_rel = truth.group_by("user").agg(n_rel=(pl.col("relevance") > 0).sum())
    table = (n_rel.join(top, on="user", how="left").join(first, on="user", how="left").join(ideal, on="user", how="left")
             .with_columns(pl.col("hits", "ap_sum", "dcg").fill_null(0.0)))
    out = table.select(
        (pl.col("hits") / 10).mean(), (pl.col("hits") / pl.col("n_rel")).mean().alias("r"),
        (pl.col("hits") > 0).cast(pl.Float64).mean().alias("hr"), (pl.col("ap_sum") / pl.col("n_rel")).mean().alias("ap"),
        (pl.col("dcg") / pl.col("idcg")).fill_nan(0.0).fill_null(0.0).mean().alias("ndcg"),
        (1.0 / pl.col("first_hit")).fill_null(0.0).mean().alias("rr")).collect()
    return dict(zip(LABELS, map(float, out.row(0)), strict=True))


def floor(recs_path: str, truth_path: str) -> dict:
    """What every tool pays: read the log with pyarrow and sort its user-item keys once."""
    import numpy as np
    import pyarrow.csv
    import pyarrow.parquet

    read = pyarrow.parquet.read_table if recs_path.endswith(".parquet") else pyarrow.csv.read_csv
    table = read(recs_path)
    keys = table["user"].to_numpy().astype(np.int64) * (1 << 24) + table["item"].to_numpy()
    np.sort(keys)
    return {}


CONTENDERS = {"pytrec_eval": with_pytrec_eval, "ranx": with_ranx, "duckdb": with_duckdb, "polars": with_polars,
              "floor": floor}

# ----------------------------------------------------------------------------- the measurement


def command(name: str, recs: Path, truth: Path) -> list[str]:
    if name == "command line":
        return [sys.executable, "-m", "metrics", "evaluate", "--recommendations", str(recs), "--ground-truth", str(truth),
                "-k", "10", "--denominator", "relevant", "--format", "json", "--quiet",
                "--metrics", "precision", "recall", "hit_rate", "average_precision", "ndcg", "reciprocal_rank"]
    return [sys.executable, __file__, "--contender", name, str(recs), str(truth)]


def measure(argv: list[str]) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds, peak memory (GiB) and stdout of one run in a fresh process."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen(argv, stdout=out, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read().decode()
    if status:
        raise SystemExit(f"{argv} failed with status {status}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 2**20, text


def means_of(name: str, text: str) -> dict:
    data = json.loads(text)
    if name == "command line":
        return {OURS[m]: v for m, v in data["means"].items() if m in OURS}
    return data


LAYOUTS = ("csv", "csv, header quoted", "csv, text quoted", "csv, users apart", "csv, users apart, quoted", "parquet")
"""How the log is written: ``csv`` as pandas writes it (users' rows together), the header quoted as
pyarrow's ``write_csv`` writes it, every text field quoted as R's ``write.csv`` (ids as text), the
rows in random order (each user's rows apart, as a log written in time order), and Parquet."""


def file_name(kind: str, layout: str) -> str:
    """``recs.csv``, ``truth.csv-users-apart-quoted.csv``, ``recs.parquet``: the extension last."""
    if layout == "parquet":
        return f"{kind}.parquet"
    return f"{kind}.{layout.replace(', ', '-').replace(' ', '-')}.csv" if layout != "csv" else f"{kind}.csv"


def write_files(folder: Path, users: int) -> None:
    import csv

    import numpy as np
    import pyarrow as pa
    import pyarrow.csv

    from whole_logs.synthetic import synthetic_log

    recs, truth = synthetic_log(users=users, list_length=100, relevant=20, seed=0, decimals=None)
    apart = recs.iloc[np.random.default_rng(1).permutation(len(recs))]
    for kind, table in (("recs", recs), ("truth", truth)):
        table.to_csv(folder / file_name(kind, "csv"), index=False)
        pyarrow.csv.write_csv(pa.Table.from_pandas(table, preserve_index=False), folder / file_name(kind, "csv, header quoted"))
        as_text = table.astype({"user": str, "item": str})
        as_text.to_csv(folder / file_name(kind, "csv, text quoted"), index=False, quoting=csv.QUOTE_NONNUMERIC)
        table.to_parquet(folder / file_name(kind, "parquet"), index=False)
        (apart if kind == "recs" else table).to_csv(folder / file_name(kind, "csv, users apart"), index=False)
        (apart if kind == "recs" else table).astype({"user": str, "item": str}).to_csv(
            folder / file_name(kind, "csv, users apart, quoted"), index=False, quoting=csv.QUOTE_NONNUMERIC)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip", nargs="*", default=[], help="contenders to leave out (e.g. ranx)")
    parser.add_argument("--layouts", nargs="+", default=list(LAYOUTS), choices=LAYOUTS, metavar="LAYOUT",
                        help=f"files to time (default: all of {', '.join(repr(n) for n in LAYOUTS)})")
    parser.add_argument("--contender", help=argparse.SUPPRESS)
    parser.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--write-to", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.contender:
        print(json.dumps(CONTENDERS[args.contender](*args.paths)))
        return 0
    if args.write_to:
        write_files(Path(args.write_to), args.users)
        return 0

    names = [n for n in ("command line", "pytrec_eval", "ranx", "duckdb", "polars", "floor") if n not in args.skip]
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        # In a process of its own: a child forked from a parent holding the 10M-row frames would
        # report the parent's resident memory as its own peak (ru_maxrss counts from the fork).
        subprocess.run([sys.executable, __file__, "--users", str(args.users), "--write-to", str(folder)], check=True)
        # The 2 GB just written would otherwise go to disk during the first layout's rounds, the kernel's
        # writeback competing with whichever contender runs then.
        os.sync()
        print(f"{args.users:,} users x 100 = {args.users * 100:,} rows; CSV {(folder / 'recs.csv').stat().st_size / 2**20:.0f} MiB, "
              f"Parquet {(folder / 'recs.parquet').stat().st_size / 2**20:.0f} MiB; load average {os.getloadavg()[0]:.1f}")
        print(f"{'from files to means':<16} {'wall s':>7} {'CPU s':>7} {'peak GiB':>9} {'x CLI':>6} {'paired':>7} {'CLI ahead':>9}")
        for layout in args.layouts:
            print(f"-- {layout}")
            recs, truth = folder / file_name("recs", layout), folder / file_name("truth", layout)
            argvs = {name: command(name, recs, truth) for name in names}
            for argv in argvs.values():
                measure(argv)  # warm-up
            # Round by round, every contender once a round: a load that drifts during the run
            # (a shared machine) weighs on all of them alike.
            runs: dict[str, list] = {name: [] for name in names}
            for _ in range(args.repeats):
                for name, argv in argvs.items():
                    runs[name].append(measure(argv))
            reference, ours = None, None
            for name in names:
                wall, cpu, peak = (statistics.median(r[i] for r in runs[name]) for i in range(3))
                ours = ours or wall
                if name != "floor":
                    got = means_of(name, runs[name][0][3])
                    reference = reference or got
                    wrong = [m for m in LABELS if abs(got[m] - reference[m]) > TOLERANCE]
                    if wrong:
                        failed = True
                        print(f"  {name} disagrees on {wrong}: {got} vs {reference}")
                walls = " ".join(f"{r[0]:.2f}" for r in runs[name])
                # Each round's ratio to the command line's run of the same round: a load that drifts
                # between rounds weighs on both sides of the ratio alike.
                paired = statistics.median(r[0] / c[0] for r, c in zip(runs[name], runs[names[0]], strict=True))
                ahead = sum(c[0] < r[0] for r, c in zip(runs[name], runs[names[0]], strict=True))
                print(f"{name:<16} {wall:>7.2f} {cpu:>7.2f} {peak:>9.2f} {wall / ours:>6.2f} {paired:>7.2f} "
                      f"{f'{ahead}/{len(runs[name])}':>9}   ({walls})", flush=True)
            print("  means:", {m: round(v, 6) for m, v in reference.items()})
        print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
