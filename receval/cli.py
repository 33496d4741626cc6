"""``python -m metrics``: the app's exact metrics from a shell, trec_eval style.

Commands: ``evaluate`` (the summary of one recommendation log, optionally per user),
``compare`` (two logs against one ground truth, with paired tests and intervals), ``protocol`` (the
protocol lab, :mod:`protocols.cli`) and ``offpolicy`` (a target policy's value from logged rounds,
:mod:`offpolicy.logged`). Exit codes say
what went wrong, so a pipeline can react: see :data:`EXIT_CODES`.
"""

from __future__ import annotations

import argparse
import json
import mmap
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd

from whole_logs import batch, readers

EXIT_CODES = {
    0: "success",
    2: "the command line is wrong (unknown option, missing argument)",
    3: "a file cannot be opened (missing, a folder, no permission)",
    4: "a file's content is not valid (the message names the file, the column and the first rows)",
    5: "the Spark engine is not available (pyspark or a Java runtime is missing)",
    6: "a file would not fit in memory (the message names --stream and --engine spark)",
}
EXTENSIONS = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet",
              ".trec": "trec", ".run": "trec", ".qrels": "trec"}  # .tsv and .txt: from the content
TREC_NAMES = {"precision": "P", "recall": "recall", "average_precision": "map_cut", "ndcg": "ndcg_cut",
              "hit_rate": "success", "reciprocal_rank": "recip_rank"}
"""trec_eval's names of the metrics, for --format trec (F1 has none: it is left out there)."""
PROGRESS_FROM_BYTES = 16 * 1024 * 1024  # files at least this large are announced on stderr
MAP_FROM_BYTES = 64 * 1024  # files at least this large are memory-mapped rather than read


class InputError(Exception):
    """A problem with one input file, with the exit code it maps to."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


def _epilog() -> str:
    codes = "\n".join(f"  {code}  {meaning}" for code, meaning in EXIT_CODES.items())
    return (
        "examples:\n"
        "  python -m metrics evaluate --recommendations recs.csv --ground-truth truth.csv -k 5 -k 10\n"
        "  python -m metrics evaluate --recommendations run.trec --ground-truth test.qrels -k 10 \\\n"
        "      --gain exponential --per-user per_user.csv --format json\n"
        "  python -m metrics compare model_a.parquet model_b.parquet --ground-truth truth.parquet -k 10 \\\n"
        "      --test permutation --correction holm\n\n"
        "file formats (from the extension, else from the content; --*-format overrides):\n"
        "  CSV/TSV with a header: user,item,rank or user,item,score (recommendations);\n"
        "  user,item[,relevance] (ground truth). Parquet with the same columns.\n"
        "  TREC run 'qid Q0 docid rank score tag' and qrels 'qid 0 docid rel'.\n\n"
        f"exit codes:\n{codes}"
    )


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ground-truth", required=True, metavar="FILE",
                        help="relevant items per user (CSV, Parquet or TREC qrels)")
    parser.add_argument("-k", type=int, action="append", metavar="K",
                        help="cut-off; repeat for several (default: 10). Any positive integer: past the "
                             "longest list nothing more is ranked, so only P@K (hits / K) still changes")
    parser.add_argument("--metrics", nargs="+", choices=batch.METRICS, metavar="METRIC",
                        help=f"metrics to compute (default: all of {', '.join(batch.METRICS)})")
    parser.add_argument("--gain", choices=("linear", "exponential"), default="linear",
                        help="NDCG gain: rel (linear, default) or 2^rel - 1 (exponential)")
    parser.add_argument("--denominator", choices=("min", "relevant", "hits"), default=None,
                        help="AP@K divides by min(|Rel|, K) (default), |Rel| (trec_eval; the default with "
                             "--format trec), or the hits (torchmetrics)")
    parser.add_argument("--ties", choices=batch.TIES, default="item",
                        help="order of equal scores or ranks within a user: item id ascending (default), "
                             "trec_eval's (document id descending, as text) or input (the file's row order)")
    parser.add_argument("--ground-truth-format", choices=("auto", *readers.FORMATS), default="auto",
                        help="override the format of --ground-truth (default: from the extension or content)")
    parser.add_argument("--format", choices=("table", "csv", "json", "trec"), default="table", dest="output_format",
                        help="how the result is printed on stdout (default: table); trec: trec_eval's "
                             "'measure qid value' lines (P_10, recall_10, map_cut_10, ndcg_cut_10, recip_rank, "
                             "success_10) with 'all' for the means, to diff against trec_eval -c -m ...")
    parser.add_argument("-q", action="store_true", dest="per_query",
                        help="with --format trec: also one block of lines per user, as trec_eval -q")
    parser.add_argument("--keep-best-duplicates", action="store_true",
                        help="where a user is recommended the same item twice, keep its best-ranked row "
                             "(by default such a log is refused: the item would count twice as a hit)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m metrics", description="RecEval Lab's metrics for whole recommendation logs.",
        epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)

    evaluate = commands.add_parser(
        "evaluate", help="mean P, R, F1, HR, AP, NDCG at each K and RR of one log",
        description="Evaluate one recommendation log against a ground truth and print the means over users "
                    "with the counts of users scored 0 or left out.",
        epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    evaluate.add_argument("--recommendations", required=True, metavar="FILE",
                          help="the log: user, item, rank or score (CSV, Parquet or TREC run)")
    evaluate.add_argument("--recommendations-format", choices=("auto", *readers.FORMATS), default="auto",
                          help="override the format of --recommendations")
    _add_common(evaluate)
    evaluate.add_argument("--per-user", metavar="OUT.csv",
                          help="also write one row per user to this CSV file (with --engine spark: a folder of CSV parts)")
    evaluate.add_argument("--engine", choices=("pandas", "spark"), default="pandas",
                          help="pandas (default, in memory) or spark (for files that do not fit in memory)")
    evaluate.add_argument("--master", default="local[*]", help="Spark master URL with --engine spark (default: local[*])")
    evaluate.add_argument("--stream", action="store_true",
                          help="bounded memory for logs larger than memory: hash-partition the rows by user into "
                               "Parquet spills in the temporary folder and evaluate one partition at a time "
                               "(CSV or Parquet; errors name the data row)")
    evaluate.add_argument("--partition-rows", type=int, default=None, metavar="N",
                          help="with --stream: recommendation rows per partition (default: 5,000,000)")

    compare = commands.add_parser(
        "compare", help="two logs against one ground truth: paired tests, intervals, effect sizes",
        description="Compare model B with model A user by user: means, difference with its bootstrap interval, "
                    "p-value before and after correction, paired Cohen's d, wins/ties/losses.",
        epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    compare.add_argument("model_a", metavar="A", help="recommendations of model A")
    compare.add_argument("model_b", metavar="B", help="recommendations of model B")
    compare.add_argument("--recommendations-format", choices=("auto", *readers.FORMATS), default="auto",
                         help="override the format of A and B")
    _add_common(compare)
    compare.add_argument("--test", choices=("paired_t", "wilcoxon", "permutation"), default="paired_t",
                         help="paired t-test (default), Wilcoxon signed-rank, or sign-flip permutation")
    compare.add_argument("--correction", choices=("holm", "bonferroni", "none"), default="holm",
                         help="multiple-testing correction over the metrics (default: holm)")
    compare.add_argument("--confidence", type=float, default=0.95, help="interval level (default: 0.95)")
    compare.add_argument("--resamples", type=int, default=10_000, help="bootstrap and permutation resamples (default: 10000)")
    compare.add_argument("--seed", type=int, default=0, help="random seed of the resampling (default: 0)")

    from protocols.cli import add_protocol_command  # the protocol lab's engine has a package of its own

    add_protocol_command(commands)
    _add_offpolicy_command(commands)
    return parser


OFFPOLICY_ESTIMATORS = ("dm", "ips", "snips", "dr", "switch_dr", "clipped_ips")
"""offpolicy.estimators.ESTIMATORS, written out: the parser is built at every start, and the engine imports scipy."""


def _add_offpolicy_command(commands) -> None:
    offpolicy = commands.add_parser(
        "offpolicy", help="estimate a target policy's value from a logged policy's rounds (IPS, SNIPS, DR, ...)",
        description="Off-policy evaluation: each estimator's value, its interval and the effective sample size, "
                    "as JSON. The log: context,action,reward,propensity[,position]; the target: "
                    "context,action,probability (each context's probabilities summing to 1). CSV or Parquet.")
    offpolicy.add_argument("--log", required=True, metavar="FILE", help="the logged rounds")
    offpolicy.add_argument("--target", required=True, metavar="FILE", help="the target policy's probabilities")
    offpolicy.add_argument("--estimators", nargs="+", choices=OFFPOLICY_ESTIMATORS, metavar="NAME",
                           default=list(OFFPOLICY_ESTIMATORS),
                           help=f"which (default: all of {', '.join(OFFPOLICY_ESTIMATORS)})")
    offpolicy.add_argument("--clip", type=float, default=10.0, metavar="TAU",
                           help="the weight cap of clipped_ips and the switch of switch_dr (default 10)")
    offpolicy.add_argument("--confidence", type=float, default=0.95, dest="offpolicy_confidence",
                           help="interval level (default 0.95)")
    offpolicy.add_argument("--quiet", action="store_true", help="no progress message on stderr")


def run_offpolicy(args, out) -> None:
    """The estimators on --log against --target (offpolicy.logged), printed as JSON."""
    from offpolicy import logged

    if not args.clip > 0:
        raise InputError(f"--clip must be a positive number, got {args.clip}", 2)
    if not 0 < args.offpolicy_confidence < 1:
        raise InputError(f"--confidence must be between 0 and 1, got {args.offpolicy_confidence}", 2)
    log = read_input(args.log, "logged_rounds", "auto", args.quiet)
    target = read_input(args.target, "target_policy", "auto", args.quiet)
    try:
        found = logged.evaluate(log, target, names=tuple(dict.fromkeys(args.estimators)), tau=args.clip,
                                confidence=args.offpolicy_confidence)
    except ValueError as error:
        raise InputError(f"{args.log} with {args.target}: {error}", 4) from None
    json.dump(found, out, indent=2)
    out.write("\n")


def _format_of(path: Path, override: str) -> str:
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes.pop()
    return override if override != "auto" else EXTENSIONS.get(suffixes[-1] if suffixes else "", "auto")


def _read_bytes(path: Path, quiet: bool):
    """The file's content, refused from its first bytes if no reader can read it. A large file is
    memory-mapped, not copied: the parser reads the page cache directly (a 300 MB CSV: 0.65 s to
    parse from the map, 1.3-2.0 s to copy it into memory and parse the copy, on this 2-core machine)."""
    try:
        if path.is_dir():
            raise InputError(f"{path}: is a folder, not a file", 3)
        with path.open("rb") as handle:
            head = handle.read(readers.SNIFF_BYTES)
            try:
                readers.check_head(head)  # a binary file is refused before it is read whole
            except ValueError as error:
                raise InputError(f"{path}: {error}", 4) from None
            size = path.stat().st_size
            if not quiet and size >= PROGRESS_FROM_BYTES:
                sys.stderr.write(f"reading {path.name} ({size / 2**20:,.0f} MiB) ...\n")  # one write: two threads read
            if len(head) < min(readers.SNIFF_BYTES, MAP_FROM_BYTES):
                return head  # the whole file
            try:
                # Mapped with its pages at once (Linux): one call instead of a fault per page while
                # pyarrow parses (10M rows: 0.05-0.1 s of system time).
                return mmap.mmap(handle.fileno(), 0, flags=mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0),
                                 prot=mmap.PROT_READ)
            except (OSError, ValueError):  # a pipe or a special file: read it
                return head + handle.read()
    except OSError as error:
        raise InputError(f"{path}: cannot be opened: {error.strerror or error}", 3) from None


def read_input(name: str, kind: str, override: str, quiet: bool) -> pd.DataFrame:
    """One input file as the DataFrame the batch engine takes, or an InputError naming the file."""
    path = Path(name)
    data = _read_bytes(path, quiet)
    try:
        return readers.read_table(data, kind, _format_of(path, override), filename=path.name, compact_ids=True)
    except ValueError as error:
        raise InputError(f"{path}: {error}", 4) from None


def read_inputs(args) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The recommendations and the ground truth, the second read in a thread of its own meanwhile:
    pyarrow parses without the GIL, and the Python steps of reading a large file leave a core idle.
    A refusal of the recommendations comes first, as when read one after the other."""
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(read_input, args.ground_truth, "ground_truth", args.ground_truth_format, args.quiet)
        recommendations = read_input(args.recommendations, "recommendations", args.recommendations_format, args.quiet)
        return recommendations, pending.result()


def _evaluate(recs: pd.DataFrame, truth: pd.DataFrame, args, source: str) -> pd.DataFrame:
    if args.keep_best_duplicates:
        kept = batch.keep_best_duplicates(recs)
        if len(kept) < len(recs) and not args.quiet:
            print(f"{source}: dropped {len(recs) - len(kept):,} repeated recommendation row(s), keeping each "
                  "(user, item) pair's best-ranked row", file=sys.stderr)
        recs = kept
    try:
        return batch.evaluate(recs, truth, args.k or [10], metrics=args.metrics, gain=args.gain,
                              denominator=args.denominator, ties=args.ties)
    except ValueError as error:
        repeated = isinstance(error, batch.DuplicatePairsError) and error.table == "recommendations"
        hint = "; --keep-best-duplicates keeps each pair's best-ranked row" if repeated else ""
        raise InputError(f"{source}: {error}{hint}", 4) from None


def trec_lines(per_user: pd.DataFrame, per_query: bool) -> list[str]:
    """trec_eval's output lines, ``measure<TAB>qid<TAB>value`` (its ``%-22s\\t%s\\t%6.4f``).

    Users in sorted order, each with every measure (as ``trec_eval -q``), then ``all`` with the
    means over the users of the ground truth (as ``trec_eval -c``). F1 has no trec_eval name and
    is left out.
    """
    columns = []
    for column in per_user.columns:
        metric, _, k = column.partition("@")
        if metric in TREC_NAMES:
            columns.append((column, TREC_NAMES[metric] + (f"_{k}" if k else "")))
    lines = [f"{'num_q':<22}\tall\t{len(per_user)}"]
    if per_query:
        values = per_user[[c for c, _ in columns]].to_numpy()
        for user, row in zip(per_user.index, values, strict=True):
            lines += [f"{name:<22}\t{user}\t{value:6.4f}" for (_, name), value in zip(columns, row, strict=True)]
    means = per_user.mean(axis=0)
    lines += [f"{name:<22}\tall\t{means[column]:6.4f}" for column, name in columns]
    return lines


def _print_summary(summary: batch.Summary, fmt: str, out) -> None:
    if fmt == "json":
        json.dump({"means": summary.means.to_dict(), "users": summary.users.to_dict()}, out, indent=2)
        out.write("\n")
    elif fmt == "csv":
        rows = [("metric", "mean")] + [(m, repr(float(v))) for m, v in summary.means.items()]
        rows += [(f"users_{reason}", str(n)) for reason, n in summary.users.items()]
        out.write("\n".join(",".join(row) for row in rows) + "\n")
    else:
        width = max(len(m) for m in summary.means.index)
        out.write("\n".join(f"{m:<{width}}  {v:.4f}" for m, v in summary.means.items()) + "\n\n")
        out.write("\n".join(f"{n:>8,} users: {batch.REASONS[reason]}" for reason, n in summary.users.items()) + "\n")


def available_memory() -> int | None:
    """Bytes of memory the system can give without swapping (MemAvailable), or None if unknown."""
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def check_fits(name: str, override: str) -> None:
    """Refuse, before reading, a log whose in-memory evaluation would not fit in the free memory."""
    from whole_logs import partitioned

    path = Path(name)
    free = available_memory()
    if free is None or not path.is_file():
        return
    fmt = _format_of(path, override)
    if fmt == "auto":
        with path.open("rb") as handle:
            try:
                fmt = readers.sniff_format(readers.unwrap(handle.read(readers.SNIFF_BYTES))[:readers.SNIFF_BYTES], path.name)
            except ValueError:
                return  # the reader gives the precise message
    try:
        rows = partitioned.count_rows(path, fmt)
    except Exception:  # an unreadable footer: the reader gives the precise message
        return
    need = rows * partitioned.BYTES_PER_ROW.get(fmt, 160)
    if need > 0.8 * free:
        raise InputError(
            f"{path}: about {rows:,} rows need about {need / 2**30:.1f} GiB in memory, more than the "
            f"{free / 2**30:.1f} GiB free: add --stream (bounded memory, one partition of users at a time) "
            "or use --engine spark", 6)


def run_evaluate_streamed(args, out) -> None:
    from whole_logs import partitioned

    formats = []
    for name, override, kind in ((args.recommendations, args.recommendations_format, "recommendations"),
                                 (args.ground_truth, args.ground_truth_format, "ground_truth")):
        path = Path(name)
        if not path.is_file():
            raise InputError(f"{path}: cannot be opened: {'is a folder' if path.is_dir() else 'no such file'}", 3)
        fmt = _format_of(path, override)
        if fmt == "auto":
            with path.open("rb") as handle:
                try:
                    fmt = readers.sniff_format(handle.read(readers.SNIFF_BYTES), path.name)
                except ValueError as error:
                    raise InputError(f"{path}: {error}", 4) from None
        formats.append(fmt)
    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(total=None, unit="partition", desc="evaluating partitions", file=sys.stderr)

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.total = total
            bar.update(done - bar.n)

    try:
        per_user = partitioned.evaluate_files(
            args.recommendations, args.ground_truth, args.k or [10], recs_format=formats[0], truth_format=formats[1],
            partition_rows=args.partition_rows or partitioned.PARTITION_ROWS, progress=progress,
            metrics=args.metrics, gain=args.gain, denominator=args.denominator, ties=args.ties)
    except (ValueError, OSError) as error:
        raise InputError(f"{args.recommendations} with {args.ground_truth}: {error}", 4) from None
    except Exception as error:  # pyarrow's own errors on a malformed file
        raise InputError(f"{args.recommendations} with {args.ground_truth}: {str(error).strip()}", 4) from None
    finally:
        if bar is not None:
            bar.close()
    _write_result(per_user, args, out)


def in_text_order(per_user: pd.DataFrame) -> pd.DataFrame:
    """Users in the order of their ids as text (1, 10, 2), as trec_eval lists queries and as
    ``--stream`` writes them: ids read as integers (``compact_ids``) sort as numbers."""
    if not pd.api.types.is_integer_dtype(per_user.index.dtype):
        return per_user
    return per_user.iloc[per_user.index.astype(str).argsort(kind="stable")]


def _write_result(per_user: pd.DataFrame, args, out) -> None:
    if args.per_user or args.output_format == "trec":
        per_user = in_text_order(per_user)
    if args.per_user:
        try:
            per_user.to_csv(args.per_user)
        except OSError as error:
            raise InputError(f"{args.per_user}: cannot be written: {error.strerror or error}", 3) from None
    if args.output_format == "trec":
        out.write("\n".join(trec_lines(per_user, args.per_query)) + "\n")
        return
    _print_summary(batch.summarize(per_user), args.output_format, out)


def run_evaluate(args, out) -> None:
    if args.engine == "spark":
        run_evaluate_on_spark(args, out)
        return
    if args.stream:
        if args.keep_best_duplicates:
            raise InputError("--keep-best-duplicates works without --stream only", 2)
        run_evaluate_streamed(args, out)
        return
    check_fits(args.recommendations, args.recommendations_format)
    recs, truth = read_inputs(args)
    if not args.quiet and len(recs) >= 1_000_000:
        print(f"evaluating {len(recs):,} recommendations of {recs['user'].nunique():,} users ...", file=sys.stderr)
    per_user = _evaluate(recs, truth, args, f"{args.recommendations} with {args.ground_truth}")
    _write_result(per_user, args, out)


def run_evaluate_on_spark(args, out) -> None:
    """The same summary computed by Spark (whole_logs.spark), for logs larger than memory."""
    if args.keep_best_duplicates:
        raise InputError("--keep-best-duplicates works with the pandas engine only", 2)
    try:
        from whole_logs import spark

        session, spark_log = _quiet_session(spark, args.master)
    except Exception as error:  # ImportError, or pyspark failing to start its Java gateway
        raise InputError(f"the Spark engine cannot start: {error}", 5) from None
    tables, first_rows = {}, {}
    for kind, name, override in (("recommendations", args.recommendations, args.recommendations_format),
                                 ("ground_truth", args.ground_truth, args.ground_truth_format)):
        path = Path(name)
        if not path.exists():
            raise InputError(f"{path}: cannot be opened: no such file", 3)
        fmt = _format_of(path, override)
        if fmt == "auto":
            try:
                fmt = readers.sniff_format(spark._head(str(path)), path.name.removesuffix(".gz"))
            except ValueError as error:
                raise InputError(f"{path}: {error}", 4) from None
        try:
            first_rows[kind] = spark.validate_head(str(path), kind, fmt)
            tables[kind] = spark.read_table(session, str(path), kind, fmt)
        except ValueError as error:
            raise InputError(f"{path}: {error}", 4) from None
    try:
        # The first rows' values, checked as in memory: a bad value there is named by its file line.
        for kind, rows in first_rows.items():
            if rows is not None:
                batch.check_table(rows, kind, gain=args.gain, k_max=max(args.k or [10]))
        per_user = spark.evaluate(tables["recommendations"], tables["ground_truth"], args.k or [10],
                                  metrics=args.metrics, gain=args.gain, denominator=args.denominator, ties=args.ties)
        if args.per_user:
            per_user.write.mode("overwrite").option("header", True).csv(args.per_user)
        summary = spark.summarize(per_user, tables["recommendations"], tables["ground_truth"])
    except ValueError as error:
        raise InputError(f"{args.recommendations} with {args.ground_truth}: {error}", 4) from None
    except Exception as error:  # a failed Spark job carries the batch engine's message
        raise InputError(f"{args.recommendations} with {args.ground_truth}: {spark_failure(str(error), spark_log)}", 4) from None
    _print_summary(summary, args.output_format, out)


def _quiet_session(spark, master: str):
    """A Spark session whose JVM (and the Python workers it starts) write their banners, warnings
    and Java stack traces to a log file instead of the terminal, so a refused row reads as one
    line, as with the pandas engine. Returns the session and the log's path (None when a session
    was already running in this process)."""
    import os
    import tempfile
    import warnings

    from pyspark.sql import SparkSession

    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    if SparkSession.getActiveSession() is not None:
        return spark.session(master), None
    log = tempfile.NamedTemporaryFile(prefix="receval-spark-", suffix=".log", delete=False)  # noqa: SIM115
    saved = os.dup(2)
    sys.stderr.flush()
    os.dup2(log.fileno(), 2)  # the JVM inherits fd 2 when it starts
    try:
        session = spark.session(master)
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        log.close()
    session.sparkContext.setLogLevel("ERROR")
    return session, log.name


# A Python worker's exception line ("metrics.errors.DataError: ...") or a raise_error's message.
_WORKER_ERROR = re.compile(r"^(?:[\w.]+\.)?(?:ValueError|DataError|InputError|DuplicatePairsError): (.*)$")
_RAISED = re.compile(r"\[USER_RAISED_EXCEPTION\] (.*?)(?: SQLSTATE: \w+)?$")


def spark_failure(text: str, spark_log: str | None) -> str:
    """One line saying why a Spark job failed: the batch engine's message if a worker raised it,
    else the Java side's first line (a malformed CSV record, with what to do), never its stack trace."""
    reason = _spark_reason(text)
    if reason is not None:
        return reason
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("at ")]
    malformed = next((line for line in lines if "Malformed" in line or "malformed" in line), None)
    if malformed:
        return (malformed + "; a row has more or fewer fields than the header names (the pandas engine, or --stream, "
                "names its line)")
    reason = lines[0] if lines else "the Spark job failed"
    return reason + (f" (Spark's own log: {spark_log})" if spark_log else "")


def _spark_reason(message: str) -> str | None:
    """The batch engine's message inside a failed Spark job's text, or None."""
    for line in message.splitlines():
        found = _WORKER_ERROR.match(line.strip()) or _RAISED.search(line.strip())
        if found:
            return found.group(1).strip()
    return None


def run_compare(args, out) -> None:
    from whole_logs.significance import compare

    truth = read_input(args.ground_truth, "ground_truth", args.ground_truth_format, args.quiet)
    tables = []
    for name in (args.model_a, args.model_b):
        recs = read_input(name, "recommendations", args.recommendations_format, args.quiet)
        tables.append(_evaluate(recs, truth, args, f"{name} with {args.ground_truth}"))
    try:
        table = compare(*tables, test=args.test, confidence=args.confidence, n_resamples=args.resamples,
                        seed=args.seed, correction=args.correction)
    except ValueError as error:
        raise InputError(str(error), 4) from None
    if args.output_format == "json":
        out.write(table.reset_index().to_json(orient="records", indent=2) + "\n")
    elif args.output_format == "csv":
        out.write(table.to_csv())
    else:
        shown = table.copy()
        for column in ("wins", "ties", "losses"):
            shown[column] = shown[column].astype(int)
        out.write(f"B vs A, {args.test} test, {args.correction} correction, "
                  f"{args.confidence:.0%} bootstrap interval of the mean difference\n")
        out.write(shown.to_string(float_format=lambda v: f"{v:.4f}") + "\n")


def main(argv: list[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    if args.command == "protocol":
        from protocols.cli import run

        return run(args, out)
    if args.command == "offpolicy":
        try:
            run_offpolicy(args, out)
        except InputError as error:
            print(f"error: {error}", file=sys.stderr)
            return error.code
        except Exception as error:  # a bug of ours: one line a user can report, never a traceback
            print(f"error: the off-policy command failed unexpectedly ({type(error).__name__}: {error}); "
                  "please report it with the two files' first lines", file=sys.stderr)
            return 1
        return 0
    if args.k and any(k < 1 for k in args.k):
        print(f"error: -k must be a positive integer, got {min(args.k)}", file=sys.stderr)
        return 2
    if args.k and any(k >= 2**62 for k in args.k):
        print(f"error: -k must be below 2**62, got {max(args.k)}", file=sys.stderr)
        return 2
    if args.output_format == "trec":
        if args.command != "evaluate":
            print("error: --format trec is for evaluate (trec_eval has no compare)", file=sys.stderr)
            return 2
        if args.denominator not in (None, "relevant"):
            print("error: --format trec prints trec_eval's map_cut, whose denominator is the number of relevant "
                  "items: leave out --denominator or give --denominator relevant", file=sys.stderr)
            return 2
        args.denominator = "relevant"
    args.denominator = args.denominator or "min"
    if args.per_query and args.output_format != "trec":
        print("error: -q goes with --format trec (per-user rows in other formats: --per-user OUT.csv)", file=sys.stderr)
        return 2
    try:
        (run_evaluate if args.command == "evaluate" else run_compare)(args, out)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return error.code
    return 0
