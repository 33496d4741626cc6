"""The batch benchmark in a small mode, so it cannot rot: the three contenders run end to end
and must agree on every mean. Speed is reported by the script itself, never asserted here."""

from __future__ import annotations

import importlib.util
import warnings

from tests.conftest import ROOT


def load_benchmark():
    spec = importlib.util.spec_from_file_location("batch_vs_references", ROOT / "benchmarks" / "batch_vs_references.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_small_benchmark_runs_and_the_libraries_agree():
    benchmark = load_benchmark()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = benchmark.compare(150, list_length=30, relevant=6, repeats=1, reference_repeats=1, verbose=False)
    assert result["rows"] == 150 * 30
    assert max(result["differences"].values()) <= benchmark.TOLERANCE
    assert 0 < result["means"]["P@10"] < 1 and result["engine_peak_bytes"] > 0
