"""The command line from 1M to 100M rows: in memory, and with --stream (bounded memory).

Run from the project root::

    python benchmarks/stream_scaling.py                       # 1M, 10M and 100M rows (1M users x 100)
    python benchmarks/stream_scaling.py --users 10000 100000  # a quicker look

Each log is a Parquet file written in chunks of 10,000 users (:func:`whole_logs.synthetic.synthetic_log`,
100 recommendations and 20 graded relevant items per user, user ids shifted per chunk), so even the
100M-row log is generated in bounded memory. Every run is a fresh ``python -m metrics evaluate``
process; wall time and CPU time (user + system, its worker processes included) come from
``os.wait4``; peak memory is the largest sum of the resident memory of the process and its
workers, sampled every 20 ms from /proc (``wait4`` reports only the largest single process). The
in-memory path runs up to ``--in-memory-up-to`` rows and is skipped where the command line says
the file would not fit (exit 6).
Both paths must give the same means where both run. One run per size (the 100M run takes minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHUNK_USERS = 10_000


def write_log(folder: Path, users: int) -> tuple[Path, Path]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from whole_logs.synthetic import synthetic_log

    paths = folder / f"recs-{users}.parquet", folder / f"truth-{users}.parquet"
    writers = [None, None]
    for first in range(0, users, CHUNK_USERS):
        recs, truth = synthetic_log(users=min(CHUNK_USERS, users - first), list_length=100, relevant=20,
                                    seed=first, decimals=None)
        for i, frame in enumerate((recs, truth)):
            table = pa.Table.from_pandas(frame.assign(user=frame["user"] + first), preserve_index=False)
            writers[i] = writers[i] or pq.ParquetWriter(paths[i], table.schema)
            writers[i].write_table(table)
    for writer in writers:
        writer.close()
    return paths


def _tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and every process descended from it."""
    parent_of, rss = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as handle:
                fields = dict(line.split(":", 1) for line in handle if ":" in line)
        except OSError:
            continue
        parent_of[int(entry)] = int(fields["PPid"])
        rss[int(entry)] = int(fields.get("VmRSS", "0 kB").split()[0]) * 1024
    total = 0
    for pid in rss:
        ancestor = pid
        while ancestor not in (root, 0, 1) and ancestor in parent_of:
            ancestor = parent_of[ancestor]
        total += rss[pid] if ancestor == root else 0
    return total


def measure(argv: list[str]) -> tuple[int, float, float, float, str]:
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, cwd=ROOT)
        peak, running = [0], [True]

        def sample() -> None:
            while running[0]:
                peak[0] = max(peak[0], _tree_rss(process.pid))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        running[0] = False
        sampler.join()
        out.seek(0)
        text = out.read().decode()
    return (os.waitstatus_to_exitcode(status), wall, usage.ru_utime + usage.ru_stime,
            max(peak[0], usage.ru_maxrss * 1024) / 2**30, text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--folder", help="where to write the logs (default: a temporary folder)")
    parser.add_argument("--in-memory-up-to", type=int, default=20_000_000, metavar="ROWS",
                        help="run the in-memory path only up to this many rows (default 20M: the machine is shared)")
    args = parser.parse_args()
    failed = False
    with tempfile.TemporaryDirectory(dir=args.folder) as tmp:
        print(f"{'rows':>12} {'path':<10} {'wall s':>7} {'CPU s':>7} {'peak GiB':>9} {'ns/row':>7}  load", flush=True)
        for users in args.users:
            recs, truth = write_log(Path(tmp), users)
            means = {}
            for path in ("in memory", "--stream") if users * 100 <= args.in_memory_up_to else ("--stream",):
                argv = [sys.executable, "-m", "metrics", "evaluate", "--recommendations", str(recs), "--ground-truth",
                        str(truth), "-k", "10", "--format", "json", "--quiet"] + (["--stream"] if path == "--stream" else [])
                code, wall, cpu, peak, text = measure(argv)
                if code == 6:
                    print(f"{users * 100:>12,} {path:<10} refused: would not fit in memory (exit 6)", flush=True)
                    continue
                if code:
                    print(f"{users * 100:>12,} {path:<10} failed with exit code {code}", flush=True)
                    failed = True
                    continue
                means[path] = json.loads(text)["means"]
                print(f"{users * 100:>12,} {path:<10} {wall:>7.1f} {cpu:>7.1f} {peak:>9.2f} {wall / (users * 100) * 1e9:>7.0f}  "
                      f"{os.getloadavg()[0]:.1f}", flush=True)
            if len(means) == 2:
                a, b = means.values()
                if any(abs(a[m] - b[m]) > 1e-9 for m in a):
                    print(f"  the two paths disagree: {a} vs {b}", flush=True)
                    failed = True
            recs.unlink()
            truth.unlink()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
