"""How long a page takes to rerun after an edit, on the default scenario (target: under 150 ms).

Run from the project root: ``python benchmarks/page_rerun.py``. Each page is opened as a deep
link, then one scenario table is edited back and forth; the script prints the median and the
fastest rerun per page. AppTest runs the script in-process, so this is the server-side cost of a
rerun (what the browser adds on top is rendering).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from ui.navigation import PAGES as NAVIGATION  # noqa: E402

# The table each page lets the user edit, and two edits to alternate between.
EDITS = {
    "home": ("ground_truth", {1: {"grade": "3"}}, {1: {"grade": "1"}}),
    "rating": ("ratings", {0: {"prediction": 2.5}}, {0: {"prediction": 3.5}}),
    "topn": ("recommended", {6: {"rank": 2}}, {6: {"rank": 7}}),
    "ap": ("recommended", {6: {"rank": 2}}, {6: {"rank": 7}}),
    "rr": ("recommended", {6: {"rank": 2}}, {6: {"rank": 7}}),
    "ndcg": ("ground_truth", {1: {"grade": "3"}}, {1: {"grade": "1"}}),
    "classification": ("labels", {0: {"predicted": 1}}, {0: {"predicted": 0}}),
    "auc": ("scores", {0: {"score": 0.1}}, {0: {"score": 0.9}}),
    "logloss": ("probabilities", {0: {"probability": 0.3}}, {0: {"probability": 0.8}}),
    "examples": (None, None, None),
    "your_data": (None, None, None),
}


def editor_key(at: AppTest, table: str) -> str:
    return next(e.key for e in at.data_editor if e.key and e.key.startswith(f"{table}_editor_"))


def measure(topic: str, path: str, repeats: int = 15) -> list[float]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(path)
    at.run()
    table, first, second = EDITS[topic]
    timings = []
    for i in range(repeats):
        if table:
            edits = first if i % 2 == 0 else second
            at.session_state[editor_key(at, table)] = {"edited_rows": edits, "added_rows": [], "deleted_rows": []}
        start = time.perf_counter()
        at.run()
        timings.append(time.perf_counter() - start)
        assert not at.exception, [e.value for e in at.exception]
    return timings


def main() -> None:
    print(f"{'page':<16}{'median ms':>10}{'fastest ms':>12}")
    for topic, path, *_ in NAVIGATION:
        timings = measure(topic, path)
        print(f"{topic:<16}{statistics.median(timings) * 1000:>10.0f}{min(timings) * 1000:>12.0f}")


if __name__ == "__main__":
    main()
