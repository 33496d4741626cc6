"""How long a page takes to rerun after an edit: under 150 ms with the default 10-item scenario,
under 300 ms with a 200-item one (200 recommended items, 60 graded relevant ones, 200 users...).

Run from the project root: ``python benchmarks/page_rerun.py``. Each page is opened as a deep
link, then one scenario table is edited back and forth; the script prints the median and the
fastest rerun per page, for each scenario size. AppTest runs the script in-process, so this is the server-side cost of a
rerun (what the browser adds on top is rendering).

Three first-visit columns: "cold" is a fresh Python process's first run of the page (the app's imports,
every cache empty: ``streamlit run app.py`` just started, deep link first); "warm start" the same in
a process started by ``python -m deploy.warm`` (imports and translations done before the server
listens, every cache still empty: what ``deploy/serve.py`` runs); "new session" is a second
visitor's first run of the same page in the cold process (imports done and the shared caches
filled, a fresh session state). ``python benchmarks/page_rerun.py --cold`` prints only those three.
AppTest runs in bare mode, where Streamlit's first element looks for a REPL (``inspect.stack``,
~0.1-0.3 s in the cold column only): a served page's first run is that much faster.
"""

from __future__ import annotations

import logging
import statistics
import subprocess
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


def first_runs(path: str, warm: bool = False) -> tuple[float, float]:
    """Seconds of the first run of ``path`` in this process, then of a new session's first run;
    ``warm``: after what ``deploy.warm`` does before a server listens."""
    from streamlit.components.v2.component_manager import BidiComponentManager

    if warm:
        from deploy.warm import warm as warm_up

        warm_up()
    components = BidiComponentManager()  # a server scans installed components once, at startup: not timed
    components.discover_and_register_components(start_file_watching=False)
    timings = []
    for _ in range(2):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at._bidi_component_manager = components
        at.switch_page(path)
        start = time.perf_counter()
        at.run()
        timings.append(time.perf_counter() - start)
        assert not at.exception, [e.value for e in at.exception]
    return timings[0], timings[1]


def cold_start(path: str, warm: bool = False) -> tuple[float, float]:
    """``first_runs`` in a fresh process, so nothing is cached yet (nor imported, unless ``warm``)."""
    output = subprocess.run([sys.executable, __file__, "--first-runs", path, *(["--warm"] if warm else [])],
                            capture_output=True, text=True, check=True, cwd=ROOT).stdout.split()
    return float(output[-2]), float(output[-1])


def main() -> None:
    if sys.argv[1:2] == ["--first-runs"]:
        print(*first_runs(sys.argv[2], warm="--warm" in sys.argv))
        return
    cold_only = sys.argv[1:2] == ["--cold"]
    long = None if cold_only else long_scenario()
    header = f"{'page':<16}{'cold ms':>9}{'warm start ms':>15}{'new session ms':>16}"
    print(header + ("" if cold_only else
                    f"{'10 items: median ms':>21}{'fastest':>9}{'200 items: median ms':>22}{'fastest':>9}"))
    for topic, path, *_ in NAVIGATION:
        (cold, new_session), (warm_start, _) = cold_start(path), cold_start(path, warm=True)
        line = f"{topic:<16}{cold * 1000:>9.0f}{warm_start * 1000:>15.0f}{new_session * 1000:>16.0f}"
        if not cold_only:
            short_timings, long_timings = measure(topic, path), measure(topic, path, scenario=long)
            line += (f"{statistics.median(short_timings) * 1000:>21.0f}{min(short_timings) * 1000:>9.0f}"
                     f"{statistics.median(long_timings) * 1000:>22.0f}{min(long_timings) * 1000:>9.0f}")
        print(line, flush=True)


if __name__ == "__main__":
    main()
