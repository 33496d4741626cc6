"""Four presets that put a published finding about offline evaluation to the test on ML-100K.

Each preset runs the same models under two protocols (or two settings) and :func:`finding` measures what the
paper's claim is about: which pairs of models change places, by how much a metric is inflated, whether a
significant difference is also a large one. The sentences that state a finding are in the content layer; a
test checks each against these numbers, as lesson claims are.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import pandas as pd

from metrics import significance
from protocols import lab, movielens
from protocols.once import OncePerKey

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


@lru_cache(maxsize=1)
def _ml100k() -> pd.DataFrame:
    return movielens.installed_ml100k()


def measured(key: str) -> tuple[tuple[lab.Result, lab.Result], dict]:
    """The preset ``key`` run on the installed ML-100K and its finding, computed once per process: the lab page
    and the guided lesson read the same numbers, and a second reader asking meanwhile waits for the first run
    instead of starting another. Raises :class:`protocols.movielens.DataUnavailable` without ML-100K."""
    def compute():
        preset = PRESETS[key]
        results = run(preset, _ml100k())
        return results, finding(preset, results)

    return _measured.get(key, compute)


def measure_all(keys=tuple(PRESETS)) -> None:
    """Compute each preset of ``keys`` (:func:`measured`), quietly when ML-100K is not installed: a background
    warm-up, whose readers are told on the page."""
    try:
        for key in keys:
            measured(key)
    except movielens.DataUnavailable:
        pass
