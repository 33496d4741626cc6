"""How long the two model AUCs take on 100,000 samples: the O(n^2) pair loop and sort-and-count.

The pair loop on 100,000 samples compares 2.5 billion pairs (hours in pure Python), so it is
timed on a smaller n and scaled by (100,000 / n)^2; :func:`auc_timings` says so in its result.
The model solutions are the app's own code, so they run here, not in the sandbox.
"""

from __future__ import annotations

import time

import numpy as np

from kata.problems import PROBLEMS

TARGET_N = 100_000


def _function(source: str):
    namespace: dict = {}
    exec(compile(source, "<model solution>", "exec"), namespace)  # noqa: S102 - the app's own model code
    return namespace["auc"]


def _seconds(function, y, s) -> float:
    start = time.perf_counter()
    function(y, s)
    return time.perf_counter() - start


def auc_timings(*, loop_n: int = 2_000, seed: int = 0) -> dict:
    """Seconds for each style on TARGET_N samples; the loop's is measured on ``loop_n`` and scaled by n^2."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size=TARGET_N).tolist()
    s = np.round(rng.random(TARGET_N), 3).tolist()
    loop, vectorised = (_function(PROBLEMS["auc"].loop_solution), _function(PROBLEMS["auc"].numpy_solution))
    loop_seconds = _seconds(loop, y[:loop_n], s[:loop_n])
    numpy_seconds = min(_seconds(vectorised, y, s) for _ in range(3))
    return {"n": TARGET_N, "loop_n": loop_n, "loop_measured": loop_seconds,
            "loop_seconds": loop_seconds * (TARGET_N / loop_n) ** 2, "numpy_seconds": numpy_seconds}
