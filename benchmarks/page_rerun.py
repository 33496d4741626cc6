"""How long a page takes to rerun after an edit: under 150 ms with the default 10-item scenario,
under 300 ms with a 200-item one (200 recommended items, 60 graded relevant ones, 200 users...).

Run from the project root: ``python benchmarks/page_rerun.py``. Each page is opened as a deep
link, then one scenario table is edited back and forth; the script prints the median and the
fastest rerun per page, for each scenario size. AppTest runs the script in-process, so this is the server-side cost of a
rerun (what the browser adds on top is rendering).
"""

from __future__ import annotations

import logging
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from ui.navigation import PAGES as NAVIGATION  # noqa: E402
from ui.state import ground_truth_table, recommended_table, scores_table  # noqa: E402

logging.getLogger("streamlit").setLevel(logging.ERROR)  # AppTest in bare mode warns on every run


def long_scenario(n: int = 200) -> dict:
    """Every scenario table at ``n`` rows: the size an engineer pastes from a log."""
    rng = np.random.default_rng(7)
    items = list(range(1000, 1000 + n))
    relevant = rng.choice(items, size=n * 3 // 10, replace=False)
    return {
        "recommended": recommended_table(items),
        "ground_truth": ground_truth_table({int(i): int(rng.integers(1, 4)) for i in relevant}),
        "users": pd.DataFrame({
            "user": [f"user{u}" for u in range(n)],
            "recommended": [", ".join(str(i) for i in rng.choice(items, 20, replace=False)) for _ in range(n)],
            "relevant": [", ".join(str(i) for i in rng.choice(items, 5, replace=False)) for _ in range(n)],
        }),
        "ratings": pd.DataFrame({"prediction": rng.uniform(1, 5, n).round(1), "actual": rng.integers(1, 6, n)}),
        "labels": pd.DataFrame({"label": rng.integers(0, 2, n), "predicted": rng.integers(0, 2, n)}),
        "scores": scores_table([f"user{u % 20}" for u in range(n)], rng.integers(0, 2, n), rng.uniform(0, 1, n).round(3)),
        "probabilities": pd.DataFrame({"label": rng.integers(0, 2, n), "probability": rng.uniform(0.01, 0.99, n).round(3)}),
        "ndcg_scores": pd.DataFrame({"item": [f"i{j}" for j in range(n)], "true_relevance": rng.integers(0, 4, n),
                                     "score": rng.integers(0, 50, n).astype(float)}),
    }

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
    "lens": ("ground_truth", {1: {"grade": "3"}}, {1: {"grade": "1"}}),
    "lessons": (None, None, None),
    "ab": ("ab_b", {6: {"rank": 2}}, {6: {"rank": 7}}),
    "sensitivity": (None, None, None),
    "random": ("recommended", {6: {"rank": 2}}, {6: {"rank": 7}}),
    "sampled": (None, None, None),
    "practice": (None, None, None),
    "your_data": (None, None, None),
}


def editor_key(at: AppTest, table: str) -> str:
    return next(e.key for e in at.data_editor if e.key and e.key.startswith(f"{table}_editor_"))


def measure(topic: str, path: str, repeats: int = 15, scenario: dict | None = None) -> list[float]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(path)
    for name, value in (scenario or {}).items():
        at.session_state[name] = value
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
    long = long_scenario()
    print(f"{'page':<16}{'10 items: median ms':>21}{'fastest':>9}{'200 items: median ms':>22}{'fastest':>9}")
    for topic, path, *_ in NAVIGATION:
        short_timings, long_timings = measure(topic, path), measure(topic, path, scenario=long)
        print(f"{topic:<16}{statistics.median(short_timings) * 1000:>21.0f}{min(short_timings) * 1000:>9.0f}"
              f"{statistics.median(long_timings) * 1000:>22.0f}{min(long_timings) * 1000:>9.0f}")


if __name__ == "__main__":
    main()
