"""What keeping the scenario in the address bar costs per rerun, and what a quiz costs to draw.

Run from the project root: ``python benchmarks/lesson_link.py``. Every page run encodes the scenario
into query parameters (``to_query``); with "Hide the answers" on, each card group and formula also
fingerprints the scenario (``to_json_bytes`` + SHA-1). Printed: medians in ms over many repeats, on
the default scenario and on one with a 200-item list, and each as a share of the 150 ms rerun budget.
"""

from __future__ import annotations

import hashlib
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from teaching.practice import QuizSettings, make_quiz  # noqa: E402
from ui.input.scenario_link import PRACTICE_DEFAULTS, from_query, to_json_bytes, to_query  # noqa: E402
from ui.state import _defaults, ground_truth_table, recommended_table  # noqa: E402

BUDGET_MS = 150


def median_ms(action, repeats: int = 50) -> float:
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1000


def main() -> None:
    default = {**_defaults(), "page": "home", "practice": dict(PRACTICE_DEFAULTS)}
    long = {**default, "recommended": recommended_table(range(1, 201)),
            "ground_truth": ground_truth_table({i: i % 4 for i in range(1, 201, 3)})}
    rows = []
    for name, scenario in (("default", default), ("200 items", long)):
        params = to_query(scenario)
        rows += [
            (f"to_query ({name})", median_ms(lambda s=scenario: to_query(s))),
            (f"from_query ({name})", median_ms(lambda p=params: from_query(p))),
            (f"fingerprint ({name})", median_ms(lambda s=scenario: hashlib.sha1(to_json_bytes(s)).hexdigest())),
        ]
    rows.append(("make_quiz (6 questions, 15 items)", median_ms(lambda: make_quiz(QuizSettings(length=15, k=10)), 20)))
    print(f"{'step':<36}{'median ms':>10}{'of budget':>11}")
    for step, ms in rows:
        print(f"{step:<36}{ms:>10.2f}{ms / BUDGET_MS:>10.1%}")


if __name__ == "__main__":
    main()
