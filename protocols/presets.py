"""Four presets that put a published finding about offline evaluation to the test on ML-100K.

Each preset runs the same models under two protocols (or two settings) and :func:`finding` measures what the
paper's claim is about: which pairs of models change places, by how much a metric is inflated, whether a
significant difference is also a large one. The sentences that state a finding are in the content layer; a
test checks each against these numbers, as lesson claims are.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import logging
import os
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from pathlib import Path

import pandas as pd

from whole_logs import significance
from protocols import lab, machine_once, movielens
from protocols.once import OncePerKey

ROOT = Path(__file__).resolve().parents[1]
logger = logging.getLogger(__name__)

MODELS = ("pop", "itemknn", "ease", "mf")


@dataclass(frozen=True)
class Preset:
    key: str
    protocols: tuple[lab.Protocol, lab.Protocol]
    metric: str
    """The table column whose order of models the finding is about."""
    models: tuple[str, ...] = MODELS


PRESETS = {
    "sampled_vs_full": Preset("sampled_vs_full", (lab.Protocol(split="leave-last-out", candidates="uniform:100"),) * 2,
                              "hit_rate"),
    "split_leak": Preset("split_leak", (lab.Protocol(split="leave-last-out"), lab.Protocol(split="global-time")),
                         "ndcg@10"),
    "tuned_baselines": Preset("tuned_baselines", (lab.Protocol(split="random"), lab.Protocol(split="random", tuned=True)),
                              "ndcg@10"),
    "significant_but_small": Preset("significant_but_small", (lab.Protocol(split="random"),) * 2, "hit_rate@10",
                                    models=("itemknn", "ease")),
}


def swapped_pairs(first: pd.Series, second: pd.Series) -> list[tuple[str, str]]:
    """The pairs of models the two orders rank strictly the other way round (a tie on one side is no swap)."""
    return [(a, b) for a, b in combinations(first.index, 2)
            if (first[a] - first[b]) * (second[a] - second[b]) < 0]


def places(values: pd.Series) -> pd.Series:
    """Each model's place (1 = best); equal values share the better place."""
    return values.rank(ascending=False, method="min").astype(int)


def run(preset: Preset, frame: pd.DataFrame) -> tuple[lab.Result, lab.Result]:
    first = lab.run(frame, preset.protocols[0], preset.models)
    if preset.protocols[1] == preset.protocols[0]:
        return first, first
    if preset.protocols[1].split != preset.protocols[0].split:
        return first, lab.run(frame, preset.protocols[1], preset.models)
    return first, lab.run(frame, preset.protocols[1], preset.models, split=first.split, reuse=first)


def finding(preset: Preset, results: tuple[lab.Result, lab.Result]) -> dict:
    """The numbers each preset's statement is about."""
    first, second = (result.table() for result in results)
    if preset.key == "sampled_vs_full":
        full, sampled = first[f"full_{preset.metric}"], first[f"sampled_{preset.metric}"]
        return {"full": full, "sampled": sampled, "corrected": first[f"corrected_{preset.metric}"],
                "expected": first[f"expected_{preset.metric}"], "swaps": swapped_pairs(full, sampled),
                "corrected_swaps": swapped_pairs(full, first[f"corrected_{preset.metric}"]),
                "inflation": (sampled / full).min()}
    if preset.key == "significant_but_small":
        a, b = preset.models
        table = significance.compare(results[0].models[a].per_user, results[0].models[b].per_user)
        return {"comparison": table, "row": table.loc[preset.metric]}
    before, after = first[preset.metric], second[preset.metric]
    return {"before": before, "after": after, "swaps": swapped_pairs(before, after),
            "ranks_before": places(before), "ranks_after": places(after),
            "params": {name: r.params for name, r in results[1].models.items()}}


_measured = OncePerKey()
TRAIN_TARGET = "protocols.presets:compute"  # what the niced child runs (machine_once.run_niced)
LIBRARIES = ("numpy", "pandas", "scipy", "implicit")
"""What the models and the scoring run on: another version may give other digits, so the kept results are
computed again."""


@lru_cache(maxsize=1)
def _ml100k() -> pd.DataFrame:
    return movielens.installed_ml100k()


def compute(key: str) -> tuple[tuple[lab.Result, lab.Result], dict]:
    """The preset ``key`` run on the installed ML-100K, and its finding (about 5 s of CPU each)."""
    preset = PRESETS[key]
    results = run(preset, _ml100k())
    return results, finding(preset, results)


def measured(key: str) -> tuple[tuple[lab.Result, lab.Result], dict]:
    """The preset ``key`` run on the installed ML-100K and its finding, computed once per machine: the lab page
    and the guided lesson read the same numbers, a second reader asking meanwhile waits for the first run
    instead of starting another, and the other app processes (and the next start) read the results one
    process kept on disk (:mod:`protocols.machine_once`, in :func:`cache_folder`), computed at the lowest
    CPU priority. Raises :class:`protocols.movielens.DataUnavailable` without ML-100K."""
    def kept():
        fingerprint = preset_fingerprint(key)  # raises DataUnavailable before anything is started
        try:
            return machine_once.get(cache_folder(), f"preset-{key}", fingerprint, lambda path: machine_once.run_niced(
                TRAIN_TARGET, [key], path, fingerprint))
        except (OSError, RuntimeError, subprocess.SubprocessError):
            # No folder to keep it in, or the child failed: compute here as before rather than show no preset.
            logger.warning("The protocol preset %s could not be kept on disk; computing it in this process.", key,
                           exc_info=True)
            return compute(key)

    return _measured.get(key, kept)


def cache_folder() -> Path:
    """Where the presets' results are kept: ``RECEVAL_PRESET_CACHE``, else ``cache/`` in the class database's
    folder (``RECEVAL_DATA_DIR``, else ``.receval-data/`` at the repository root)."""
    given = os.environ.get("RECEVAL_PRESET_CACHE")
    return Path(given) if given else machine_once.default_folder()


def preset_fingerprint(key: str) -> dict:
    """Everything that decides a preset's numbers: the preset (protocols, seeds, models, metric), the data
    file's digest, the code of protocols/, whole_logs/ and metrics/, and the versions of Python and the libraries."""
    return {"preset": repr(PRESETS[key]), "data": _file_digest(movielens.installed_ml100k_path()),
            "code": _code_digest(), "python": sys.version, "libraries": _versions()}


@lru_cache(maxsize=4)
def _file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@lru_cache(maxsize=1)
def _code_digest() -> str:
    digest = hashlib.sha256()
    for folder in (ROOT / "protocols", ROOT / "whole_logs", ROOT / "metrics"):
        for path in sorted(folder.glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _versions() -> dict[str, str | None]:
    found = {}
    for name in LIBRARIES:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = None
    return found


def measure_all(keys=tuple(PRESETS)) -> None:
    """Compute each preset of ``keys`` (:func:`measured`), quietly when ML-100K is not installed: a background
    warm-up, whose readers are told on the page."""
    try:
        for key in keys:
            measured(key)
    except movielens.DataUnavailable:
        pass
