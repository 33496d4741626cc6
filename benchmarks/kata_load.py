"""Thirty students press Run at once: the time to each verdict, and another page's rerun meanwhile.

Run from the project root, as root (the sandbox drops to a uid of its own per slot):
``python benchmarks/kata_load.py``. Half the submissions are correct, half are bad in each way
a class produces (a known convention, an exception, a syntax error, an endless loop, an hour's
sleep, a memory bomb, six forked children taking memory, filling /dev/shm, a fork bomb, a flood of
output, a ctypes crash, a write to the judge's channel). All go through the app's pool (two sandboxes
at a time) from one process, as the Streamlit server runs them, each with fresh random cases; meanwhile the NDCG page is rerun in
the same process with AppTest, and compared with its reruns at rest, and the host's MemAvailable is
sampled every 20 ms. Targets (issue 29): verdict p95 <= 3 s; available memory never below 80% of start.
"""

from __future__ import annotations

import logging
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from streamlit.testing.v1 import AppTest  # noqa: E402

import kata  # noqa: E402
from kata.pool import DEFAULT  # noqa: E402
from kata_samples import WRONG  # noqa: E402

logging.getLogger("streamlit").setLevel(logging.ERROR)

CORRECT = [(key, getattr(kata.PROBLEMS[key], style)) for key in kata.PROBLEMS for style in ("loop_solution",
                                                                                            "numpy_solution")][:15]
BAD = [
    ("convention", "average_precision_at_k", WRONG["average_precision_at_k"]["ap_denominator=hits"]),
    ("convention", "ndcg_at_k", WRONG["ndcg_at_k"]["ideal=passed"]),
    ("exception", "rmse", "def rmse(predictions, actuals):\n    return 1 / 0\n"),
    ("exception", "gauc", "def gauc(user_ids, y_true, y_score):\n    return {}[user_ids[0]]\n"),
    ("syntax error", "mae", "def mae(predictions, actuals)\n    return 0\n"),
    ("endless loop", "recall_at_k", "def recall_at_k(recommended, relevant, k):\n    while True:\n        pass\n"),
    ("endless loop", "log_loss", "def log_loss(y_true, y_prob):\n    while True:\n        pass\n"),
    ("sleep an hour", "hit_rate_at_k", "import time\ndef hit_rate_at_k(recommended, relevant, k):\n"
                                       "    time.sleep(3600)\n"),
    ("channel write", "rmse", "import os, sys\ndef rmse(predictions, actuals):\n"
                              "    os.write(int(sys.argv[1]), b'{\"id\": [1, 2]}\\n')\n"),
    ("memory bomb", "precision_at_k", "def precision_at_k(recommended, relevant, k):\n    x = bytearray(8 * 1024 ** 3)\n"),
    ("fork bomb", "reciprocal_rank", "import os\ndef reciprocal_rank(recommended, relevant):\n    while True:\n"
                                     "        os.fork()\n"),
    ("output flood", "rmse", "def rmse(predictions, actuals):\n    while True:\n        print('x' * 10000)\n"),
    ("ctypes crash", "mae", "import ctypes\ndef mae(predictions, actuals):\n    ctypes.string_at(0)\n"),
    ("memory, forked", "rmse", "import os, time\ndef rmse(predictions, actuals):\n    for _ in range(6):\n"
                               "        if os.fork() == 0:\n            x = b'x' * (100 * 1024 ** 2)\n"
                               "            time.sleep(30)\n    while True:\n        os.wait()\n"),
    ("/dev/shm fill", "mae", "def mae(predictions, actuals):\n    n = 0\n    while True:\n"
                             "        open(f'/dev/shm/{n}', 'wb').write(b'x' * 1024 ** 2)\n        n += 1\n"),
]


def mem_available() -> int:
    with open("/proc/meminfo") as meminfo:
        return next(int(line.split()[1]) * 1024 for line in meminfo if line.startswith("MemAvailable:"))


def sample_memory(stop: threading.Event, samples: list[int]) -> None:
    while not stop.is_set():
        samples.append(mem_available())
        time.sleep(0.02)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def page_reruns(at: AppTest, count: int, stop: threading.Event | None = None) -> list[float]:
    """Rerun the NDCG page after alternating K, ``count`` times or until ``stop`` is set."""
    seconds = []
    for i in range(count):
        if stop is not None and stop.is_set():
            break
        slider = at.slider[0] if at.slider else None
        start = time.perf_counter()
        if slider is not None:
            slider.set_value(5 if i % 2 else 10).run()
        else:
            at.run()
        seconds.append(time.perf_counter() - start)
    return seconds


def main() -> None:
    kata.run("rmse", kata.PROBLEMS["rmse"].loop_solution)  # the sandbox's Python copy, made once
    # The page measures the model solutions' times in the background when first opened (kata.judge.time_models),
    # and a class opens the page before anyone presses Run: here it is waited for.
    kata.judge.time_models().join()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/5_NDCG.py")
    at.run()
    at_rest = page_reruns(at, 20)

    # Interleaved, as a class presses Run: a correct one, a bad one, ...
    correct = [("correct", key, source) for key, source in CORRECT]
    submissions = [s for pair in zip(correct, BAD) for s in pair]
    memory_start, memory_samples, memory_stop = mem_available(), [], threading.Event()
    sampler = threading.Thread(target=sample_memory, args=(memory_stop, memory_samples))
    sampler.start()
    start = time.perf_counter()
    tickets = [(kind, key, kata.submit(key, source)) for kind, key, source in submissions]
    longest_queue = max(t.position for *_, t in tickets)
    verdict_seconds: dict[int, float] = {}

    def watch():
        while len(verdict_seconds) < len(tickets):
            for index, (*_, ticket) in enumerate(tickets):
                if index not in verdict_seconds and ticket.done.is_set():
                    # when the pool finished it, not when this thread (sharing the GIL with the page reruns)
                    # noticed: a rerun can hold the watcher for seconds
                    verdict_seconds[index] = ticket.finished - start
            time.sleep(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    stop = threading.Event()
    under_load: list[float] = []
    while watcher.is_alive():
        under_load += page_reruns(at, 1)
    watcher.join()
    stop.set()
    memory_stop.set()
    sampler.join()
    total = time.perf_counter() - start

    print(f"{len(tickets)} submissions at once through a pool of {DEFAULT.slots} sandboxes "
          f"(queue positions up to {longest_queue})")
    print(f"{'kind':<14} {'problem':<24} {'verdict':<44} {'seconds':>8}")
    for index, (kind, key, ticket) in enumerate(tickets):
        result = ticket.wait()
        verdict = f"passed {result.passed}/{result.total}" + (f"; {result.error.splitlines()[0][:30]}"
                                                              if result.error else "")
        if result.failure is not None and result.failure.matches:
            verdict += " (convention named)"
        print(f"{kind:<14} {key:<24} {verdict:<44} {verdict_seconds[index]:8.2f}")
    for label, kinds in (("correct", {"correct"}), ("bad", {k for k, *_ in BAD}), ("all", None)):
        chosen = [verdict_seconds[i] for i, (kind, *_rest) in enumerate(tickets) if kinds is None or kind in kinds]
        print(f"time to verdict, {label:<8} median {statistics.median(chosen):6.2f} s   p95 {percentile(chosen, 0.95):6.2f} s")
    p95 = percentile(list(verdict_seconds.values()), 0.95)
    lowest = min(memory_samples + [memory_start])
    print(f"target p95 <= 3 s: {'met' if p95 <= 3 else 'missed'} ({p95:.2f} s)")
    print(f"host MemAvailable: start {memory_start / 2 ** 20:,.0f} MB, lowest {lowest / 2 ** 20:,.0f} MB "
          f"({lowest / memory_start:.1%} of start; peak use {(memory_start - lowest) / 2 ** 20:,.0f} MB); "
          f"target >= 80%: {'met' if lowest >= 0.8 * memory_start else 'missed'}")
    print(f"all 30 verdicts in {total:.1f} s")
    print(f"NDCG page rerun at rest:     median {statistics.median(at_rest) * 1000:6.0f} ms   "
          f"p95 {percentile(at_rest, 0.95) * 1000:6.0f} ms ({len(at_rest)} reruns)")
    print(f"NDCG page rerun during load: median {statistics.median(under_load) * 1000:6.0f} ms   "
          f"p95 {percentile(under_load, 0.95) * 1000:6.0f} ms ({len(under_load)} reruns); ratio of medians "
          f"{statistics.median(under_load) / statistics.median(at_rest):.2f}")


if __name__ == "__main__":
    main()
