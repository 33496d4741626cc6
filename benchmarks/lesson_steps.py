"""How long each lesson step takes to rerun on the server (what Next, Back or a control costs).

Run from the project root: ``python benchmarks/lesson_steps.py``. Each step is opened as a link
(``?lesson=..&step=..``) and rerun; the script prints the median rerun per step kind and the
slowest step. AppTest runs the script in-process, so this is the server-side cost only.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from content.lessons import LESSONS  # noqa: E402
from ui.navigation import TOPIC_PAGES  # noqa: E402


def measure(lesson: str, step: int, repeats: int) -> float:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(TOPIC_PAGES["lessons"])
    at.query_params.update({"lesson": lesson, "step": str(step)})
    at.run()
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        at.run()
        timings.append(time.perf_counter() - start)
        assert not at.exception, [e.value for e in at.exception]
    return statistics.median(timings)


def main(repeats: int = 5) -> None:
    by_kind: dict[str, list[float]] = {}
    slowest = (0.0, "")
    for lesson in LESSONS:
        for index, step in enumerate(lesson.steps, start=1):
            median = measure(lesson.key, index, repeats)
            by_kind.setdefault(step.kind, []).append(median)
            slowest = max(slowest, (median, f"{lesson.key} step {index} ({step.view})"))
    print(f"{'step kind':<14}{'steps':>6}{'median ms':>11}{'max ms':>9}")
    for kind, medians in by_kind.items():
        print(f"{kind:<14}{len(medians):>6}{statistics.median(medians) * 1000:>11.0f}{max(medians) * 1000:>9.0f}")
    print(f"slowest: {slowest[1]} at {slowest[0] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
