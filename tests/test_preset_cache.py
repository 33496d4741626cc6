"""The protocol lab's presets are trained once per machine, at the lowest CPU priority, and kept on disk
(protocols/machine_once.py, protocols/presets.py): app processes behind nginx and later starts read them."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import time
from pathlib import Path

import pytest

from protocols import machine_once, presets
from protocols.once import OncePerKey

FINGERPRINT = {"data": "abc", "seed": 0}


def trainings(log: Path) -> list[list[str]]:
    return [line.split() for line in log.read_text().splitlines()] if log.exists() else []


@pytest.fixture
def fake_training(tmp_path, monkeypatch):
    """Presets kept in a fresh folder, trained by :func:`fake_preset` in the niced child, and a fresh process
    memory (as at an app's start). Yields the training log."""
    log = tmp_path / "trained.log"
    monkeypatch.setenv("RECEVAL_TEST_TRAIN_LOG", str(log))
    monkeypatch.setenv("RECEVAL_PRESET_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(presets, "TRAIN_TARGET", "tests.preset_fakes:fake_preset")
    monkeypatch.setattr(presets, "_measured", OncePerKey())
    yield log


# ---------------------------------------------------------------------------- the presets

def test_a_second_app_start_reads_the_kept_presets_without_training(fake_training, monkeypatch):
    from deploy import warm

    warm.train_presets().join(60)  # the first start of an app on this machine
    assert sorted(row[0] for row in trainings(fake_training)) == sorted(presets.PRESETS)
    monkeypatch.setattr(presets, "_measured", OncePerKey())  # the next start: nothing in memory

    def trained(*_args, **_kwargs):
        raise AssertionError("a preset was trained again")

    monkeypatch.setattr(machine_once, "run_niced", trained)
    monkeypatch.setattr(presets, "compute", trained)
    assert presets.measured("split_leak") == (("results of", "split_leak"), {"finding": "split_leak"})
    assert len(trainings(fake_training)) == len(presets.PRESETS)


def _start_app(start, results) -> None:
    start.wait()
    try:
        presets.measure_all()
        results.put(sorted(presets.measured(key)[1]["finding"] for key in presets.PRESETS))
    except Exception as problem:  # noqa: BLE001 - sent back to the test
        results.put(f"{type(problem).__name__}: {problem}")


def test_two_app_processes_starting_at_once_train_each_preset_once(fake_training):
    context = multiprocessing.get_context("fork")
    start, results = context.Event(), context.Queue()
    apps = [context.Process(target=_start_app, args=(start, results)) for _ in range(2)]
    for app in apps:
        app.start()
    start.set()
    outcomes = [results.get(timeout=120) for _ in apps]
    for app in apps:
        app.join(30)
    assert outcomes == [sorted(presets.PRESETS)] * 2
    assert sorted(row[0] for row in trainings(fake_training)) == sorted(presets.PRESETS)  # once each, not twice


def test_the_training_runs_in_a_child_process_at_the_lowest_priority(fake_training):
    presets.measured("tuned_baselines")
    [(key, pid, priority)] = trainings(fake_training)
    assert key == "tuned_baselines" and int(pid) != os.getpid()
    assert int(priority) == machine_once.NICE == 19
    assert os.getpriority(os.PRIO_PROCESS, 0) < 19  # the app itself keeps its priority


def test_another_library_version_or_data_file_trains_again_and_drops_the_old_file(fake_training, monkeypatch):
    presets.measured("split_leak")
    monkeypatch.setattr(presets, "_measured", OncePerKey())
    monkeypatch.setattr(presets, "_versions", lambda: {"numpy": "99.0"})
    presets.measured("split_leak")
    assert [row[0] for row in trainings(fake_training)] == ["split_leak", "split_leak"]
    assert len(list(presets.cache_folder().glob("preset-split_leak-*.pickle"))) == 1
    fingerprint = presets.preset_fingerprint("split_leak")
    assert set(fingerprint) == {"preset", "data", "code", "python", "libraries"}
    assert "seed=0" in fingerprint["preset"] and len(fingerprint["data"]) == 64


def test_without_a_folder_to_keep_them_the_presets_are_computed_in_the_process(fake_training, monkeypatch, tmp_path):
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    monkeypatch.setenv("RECEVAL_PRESET_CACHE", str(blocked / "cache"))
    monkeypatch.setattr(presets, "compute", lambda key: ("here", key))
    assert presets.measured("split_leak") == ("here", "split_leak")
    assert trainings(fake_training) == []


def test_the_cache_is_in_the_class_databases_folder_unless_told_otherwise(monkeypatch, tmp_path):
    monkeypatch.delenv("RECEVAL_PRESET_CACHE", raising=False)
    monkeypatch.delenv("RECEVAL_DATA_DIR", raising=False)
    assert presets.cache_folder() == machine_once.ROOT / ".receval-data" / "cache"
    monkeypatch.setenv("RECEVAL_DATA_DIR", str(tmp_path))
    assert presets.cache_folder() == tmp_path / "cache"
    monkeypatch.setenv("RECEVAL_PRESET_CACHE", str(tmp_path / "elsewhere"))
    assert presets.cache_folder() == tmp_path / "elsewhere"


# ---------------------------------------------------------------------------- the mechanism

def test_the_niced_child_and_the_threads_it_starts_run_at_the_lowest_priority(tmp_path):
    path = tmp_path / "seen.pickle"
    machine_once.run_niced("tests.preset_fakes:priorities", [], path, FINGERPRINT)
    [seen] = machine_once.read(path, FINGERPRINT)
    assert seen["process"] == seen["thread"] == 19 and seen["pid"] != os.getpid()


def test_a_failing_child_raises_with_its_error(tmp_path):
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        machine_once.run_niced("operator:truediv", [1, 0], tmp_path / "x.pickle", FINGERPRINT)


def _build_slowly(calls: Path):
    def build(path):
        with open(calls, "a") as log:
            log.write(f"{os.getpid()}\n")
        time.sleep(0.5)
        machine_once.write(path, FINGERPRINT, "value")
    return build


def _get(folder, calls, start, results) -> None:
    start.wait()
    try:
        results.put(machine_once.get(folder, "thing", FINGERPRINT, _build_slowly(calls)))
    except Exception as problem:  # noqa: BLE001 - sent back to the test
        results.put(f"{type(problem).__name__}: {problem}")


def test_processes_asking_at_once_wait_for_one_computation(tmp_path):
    context = multiprocessing.get_context("fork")
    start, results, calls = context.Event(), context.Queue(), tmp_path / "calls"
    workers = [context.Process(target=_get, args=(tmp_path / "cache", calls, start, results)) for _ in range(3)]
    for worker in workers:
        worker.start()
    start.set()
    assert [results.get(timeout=60) for _ in workers] == ["value"] * 3
    for worker in workers:
        worker.join(30)
    assert len(calls.read_text().splitlines()) == 1


@pytest.mark.parametrize("damage", ["garbage", "truncated", "another fingerprint", "not a dict"])
def test_a_damaged_or_stale_file_is_ignored_and_computed_again(tmp_path, damage):
    folder, calls = tmp_path / "cache", tmp_path / "calls"
    assert machine_once.get(folder, "thing", FINGERPRINT, _build_slowly(calls)) == "value"
    [path] = folder.glob("thing-*.pickle")
    whole = path.read_bytes()
    path.write_bytes({"garbage": b"\x00not a pickle at all", "truncated": whole[: len(whole) // 2],
                      "another fingerprint": pickle.dumps({"fingerprint": {"data": "old"}, "value": "stale"}),
                      "not a dict": pickle.dumps(["value"])}[damage])
    assert machine_once.get(folder, "thing", FINGERPRINT, _build_slowly(calls)) == "value"
    assert len(calls.read_text().splitlines()) == 2
    assert machine_once.read(path, FINGERPRINT) == ("value",)
