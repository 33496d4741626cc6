"""The views of the guided lesson "How offline evaluation lies": numbers, formulas and figures from the protocol
lab's presets on MovieLens 100K (:func:`protocols.presets.measured`: trained once per machine, shared with the
lab page). No Streamlit.

A scenario ``{"kind": "protocol", "preset": key[, "negatives": N]}`` names a preset; ``negatives`` is how many
movies each held-out one is ranked against when sampled (the expected sampled metric is exact for any N, from
the full ranks the preset measured). The views' values (their keys: ``content.lessons.protocols``):

- ``full_hit_rate:m``, ``sampled_hit_rate:m`` (at the preset's 100 only), ``expected_hit_rate:m`` (at N) for each
  model m, ``hits_full_m``/``hits_sampled_m`` (held-out movies in the top 10), ``negatives``, ``candidates``,
  ``users``, ``k``;
- for a preset of two protocols (sides ``leave_last_out``/``global_time``, ``untuned``/``tuned``):
  ``ndcg_<side>:m``, ``place_<side>_m`` (1 = best), ``future_rows_<side>``, ``train_rows_<side>``,
  ``future_share_<side>``, ``cold_users_<side>``, ``test_users_<side>``.
"""

from __future__ import annotations

import math
import threading

import pandas as pd

from content import numbers
from content.i18n import _
from content.lessons import protocols as words
from content.pages.protocols import model_name
from protocols import evaluation, lab, presets
from ui.controllers.lesson_view import View
from ui.figures import lesson_charts, protocol_charts
from content import text

K = 10
SAMPLED = "sampled_vs_full"
SIDES = {"split_leak": ("leave_last_out", "global_time"), "tuned_baselines": ("untuned", "tuned")}
NEGATIVES = lab.Protocol.parse_candidates(presets.PRESETS[SAMPLED].protocols[0].candidates)[1]
MAX_NEGATIVES = 940  # below every user's number of unseen movies on ML-100K (at least 942): N is exact for all


def check(scenario: dict) -> None:
    """Raise ValueError if the scenario names no preset or asks for a number of negatives it cannot sample."""
    preset = scenario.get("preset")
    if preset not in presets.PRESETS:
        raise ValueError(f"a protocol scenario names one of the presets {list(presets.PRESETS)}, got {preset!r}")
    if preset == SAMPLED:
        negatives = scenario.get("negatives", NEGATIVES)
        if not isinstance(negatives, int) or not 1 <= negatives <= MAX_NEGATIVES:
            raise ValueError(f"negatives must be a whole number from 1 to {MAX_NEGATIVES}, got {negatives!r}")
    elif preset not in SIDES:
        raise ValueError(f"the lesson has no view of the preset {preset!r}")


LESSON_PRESETS = ("sampled_vs_full", "split_leak", "tuned_baselines")
_warming = threading.Lock()
_warm_started = False


def prepare(scenario: dict) -> None:
    """Compute the scenario's preset now (the first time in a process: seconds), and start the lesson's other
    presets in the background, so the next steps open at once. Raises DataUnavailable without ML-100K."""
    global _warm_started
    with _warming:
        start, _warm_started = not _warm_started, True
    if start:
        threading.Thread(target=presets.measure_all, args=(LESSON_PRESETS,), name="receval-protocol-lesson",
                         daemon=True).start()
    presets.measured(scenario["preset"])


def available() -> bool:
    """Whether MovieLens 100K is installed, so the lesson's views can be computed."""
    try:
        presets._ml100k()
    except presets.movielens.DataUnavailable:
        return False
    return True


# --------------------------------------------------------------------------- sampled against full


def sampled_values(scenario: dict) -> dict[str, float]:
    """Full, sampled (at the preset's N) and expected (at the scenario's N) HR@10 of every model."""
    (result, _same), _finding = presets.measured(SAMPLED)
    negatives = scenario.get("negatives", NEGATIVES)
    table = result.table()
    values: dict[str, float] = {"negatives": float(negatives), "candidates": float(negatives + 1), "k": float(K)}
    for name, model in result.models.items():
        pairs = model.pairs
        values[f"full_hit_rate:{name}"] = float(table.loc[name, "full_hit_rate"])
        values[f"hits_full_{name}"] = float((pairs["full_rank"] <= K).sum())
        if negatives == NEGATIVES:
            values[f"sampled_hit_rate:{name}"] = float(table.loc[name, "sampled_hit_rate"])
            values[f"hits_sampled_{name}"] = float((pairs["sampled_rank"] <= K).sum())
        values[f"expected_hit_rate:{name}"] = evaluation.expected_mean(pairs, K, negatives)
        values["users"] = float(pairs["user"].nunique())
    return values


def _models() -> list[str]:
    return list(presets.PRESETS[SAMPLED].models)


def _series(values: dict, measure: str) -> pd.Series:
    return pd.Series({name: values[f"{measure}:{name}"] for name in _models()})


GENERAL = {
    "full_hit_rate": r"\mathrm{HR@K}=\frac{1}{|U|}\sum_{u\in U}\mathbb{1}\left[r_u\le K\right]",
    "sampled_hit_rate": r"\mathrm{HR@K}_{N}=\frac{1}{|U|}\sum_{u\in U}\mathbb{1}\left[\tilde r_u\le K\right],\ "
                        r"\tilde r_u=1+\#\{ABOVE\}",
    "expected_hit_rate": r"\mathbb{E}\,\mathrm{HR@K}_{N}=\frac{1}{|U|}\sum_{u\in U}\sum_{j=0}^{K-1}"
                         r"\frac{\binom{r_u-1}{j}\binom{M_u-r_u}{N-j}}{\binom{M_u-1}{N}}",
}


def _general_of(values: dict) -> dict[str, str]:
    general = {}
    for key in values:
        measure = key.split(":")[0]
        if measure in GENERAL:
            general[key] = GENERAL[measure].replace("ABOVE", text.latex(_(words.NEGATIVES_ABOVE)))
    return general


def _substituted(values: dict) -> dict[str, str]:
    users = numbers.latex_integer(int(values["users"]))
    n = numbers.latex_integer(int(values["negatives"]))
    out = {}
    for name in _models():
        out[f"full_hit_rate:{name}"] = (rf"\mathrm{{HR@{K}}}=\frac{{{numbers.latex_integer(int(values[f'hits_full_{name}']))}}}"
                                        rf"{{{users}}}={numbers.latex(values[f'full_hit_rate:{name}'], 4)}")
        if f"sampled_hit_rate:{name}" in values:
            out[f"sampled_hit_rate:{name}"] = (
                rf"\mathrm{{HR@{K}}}_{{{n}}}=\frac{{{numbers.latex_integer(int(values[f'hits_sampled_{name}']))}}}"
                rf"{{{users}}}={numbers.latex(values[f'sampled_hit_rate:{name}'], 4)}")
        total = values[f"expected_hit_rate:{name}"] * values["users"]
        out[f"expected_hit_rate:{name}"] = (rf"\mathbb{{E}}\,\mathrm{{HR@{K}}}_{{{n}}}=\frac{{{numbers.latex(total, 2, grouped=True)}}}"
                                            rf"{{{users}}}={numbers.latex(values[f'expected_hit_rate:{name}'], 4)}")
    return out


def _sampled_data(values: dict, shown: tuple[str, ...]) -> pd.DataFrame:
    """The models' HR@10 in the ``shown`` readings (full, sampled, expected): no more than the step's numbers,
    so a table never answers the next step's question."""
    negatives = int(values["negatives"])
    headers = {"full_hit_rate": _(words.MEASURES["full_hit_rate"]), "sampled_hit_rate": words.sampled_header(negatives),
               "expected_hit_rate": words.expected_header(negatives)}
    return pd.DataFrame({words.model_header(): [model_name(name) for name in _models()],
                         **{headers[measure]: _series(values, measure).round(4).tolist() for measure in shown}})


def _sampled_view(scenario: dict, figure, shown: tuple[str, ...]) -> object:
    values = sampled_values(scenario)
    return View(values=values, general=_general_of(values), substituted=_substituted(values), figure=figure(values),
                 k=K, data=_sampled_data(values, shown), data_caption=words.sampled_caption(int(values["users"])))


def _full_bars(values: dict):
    return protocol_charts.model_bars(_series(values, "full_hit_rate"), words.bars_title("HR@10", _("full")),
                                      "HR@10")


def models_view(scenario: dict):
    """Each model's HR@10 on the full ranking, as bars."""
    return _sampled_view(scenario, _full_bars, ("full_hit_rate",))


def sampled_view(scenario: dict):
    """Each model's place by HR@10, full against the preset's sampled negatives."""
    return _sampled_view(scenario, lambda values: protocol_charts.rank_slopes(
        presets.places(_series(values, "full_hit_rate")), presets.places(_series(values, "sampled_hit_rate")),
        (_("full"), _("100 sampled")), "HR@10"), ("full_hit_rate", "sampled_hit_rate"))


def expected_view(scenario: dict):
    """Each model's place by HR@10, full against the expectation with the scenario's number of negatives."""
    return _sampled_view(scenario, lambda values: protocol_charts.rank_slopes(
        presets.places(_series(values, "full_hit_rate")), presets.places(_series(values, "expected_hit_rate")),
        (_("full"), words.expected_label(int(values["negatives"]))), "HR@10"), ("full_hit_rate", "expected_hit_rate"))


def sweep(step, duration: int):
    """The expected HR@10 of every model as the number of sampled negatives grows (``animation["negatives"]``),
    the full ranking's HR@10 beside it in every frame; returns the demonstration's view and its first frame's
    formulas."""
    frames = [sampled_values({**step.scenario, "negatives": n}) for n in step.animation["negatives"]]
    table = pd.DataFrame(frames)
    first, second = "itemknn", "mf"  # the pair whose order the sample reverses
    captions = [words.sweep_caption(int(row["negatives"]), model_name(first), row[f"expected_hit_rate:{first}"],
                                    model_name(second), row[f"expected_hit_rate:{second}"]) for row in frames]
    lines = {f"expected_hit_rate:{name}": model_name(name) for name in _models()}
    figure = lesson_charts.growing_lines(table, "negatives", lines, captions, x_title=words.sweep_axis(),
                                         y_title=_(words.MEASURES["expected_hit_rate"]), duration=duration, y_max=1.05)
    low, high = math.log10(table["negatives"].min()), math.log10(table["negatives"].max())
    ticks = [int(n) for n in table["negatives"]]
    figure.update_xaxes(type="log", range=[low - 0.08, high + 0.08], tickvals=ticks,
                        ticktext=[numbers.integer(n) for n in ticks])
    # Four models' names take up to four legend rows on a phone: room for them under the two-line title.
    figure.update_layout(separators=numbers.plotly_separators(), height=480, margin={"t": figure.layout.margin.t + 60})
    last = frames[-1]
    return (View(values=last, general=_general_of(last), substituted=_substituted(last), figure=figure,
                  frames=table, k=K, data=_sampled_data(last, ("full_hit_rate", "expected_hit_rate")),
                  data_caption=words.sampled_caption(int(last["users"]))),
            _substituted(frames[0]))


# --------------------------------------------------------------------------- two protocols


def pair_values(scenario: dict) -> dict[str, float]:
    """NDCG@10 and places of every model under both protocols of the preset, and what each split leaks."""
    key = scenario["preset"]
    results, finding = presets.measured(key)
    values: dict[str, float] = {}
    for side, result, ndcg, places in zip(SIDES[key], results, (finding["before"], finding["after"]),
                                          (finding["ranks_before"], finding["ranks_after"]), strict=True):
        counts = result.split.counts
        for name in ndcg.index:
            values[f"ndcg_{side}:{name}"] = float(ndcg[name])
            values[f"place_{side}_{name}"] = float(places[name])
        values[f"future_rows_{side}"] = float(counts["future_rows"])
        values[f"train_rows_{side}"] = float(counts["train"])
        values[f"future_share_{side}"] = counts["future_rows"] / counts["train"]
        values[f"cold_users_{side}"] = float(counts["cold_users"])
        values[f"test_users_{side}"] = float(result.split.test["user"].nunique())
    return values


def _ndcg(values: dict, side: str) -> pd.Series:
    prefix = f"ndcg_{side}:"
    return pd.Series({key[len(prefix):]: value for key, value in values.items() if key.startswith(prefix)})


NDCG_GENERAL = r"\mathrm{NDCG@K}=\frac{1}{|U|}\sum_{u\in U}\frac{\mathrm{DCG@K}_u}{\mathrm{IDCG@K}_u}"


def _share_general() -> str:
    """The share of training interactions from after the earliest test one (the sets named in the reader's words)."""
    train, test = text.latex(_(words.TRAINING_SET)), text.latex(_(words.TEST_SET))
    return (rf"\frac{{|\{{(u,i,t)\in {train} : t>t_0\}}|}}{{|{train}|}},\ "
            rf"t_0=\min_{{(u,i,t)\in {test}}} t")


def _pair_formulas(key: str, values: dict) -> tuple[dict, dict]:
    results, _finding = presets.measured(key)
    general, substituted = {}, {}
    for side, result in zip(SIDES[key], results, strict=True):
        for name, model in result.models.items():
            per_user = model.per_user[f"ndcg@{K}"]
            general[f"ndcg_{side}:{name}"] = NDCG_GENERAL
            substituted[f"ndcg_{side}:{name}"] = (
                rf"\mathrm{{NDCG@{K}}}=\frac{{{numbers.latex(float(per_user.sum()), 2, grouped=True)}}}"
                rf"{{{numbers.latex_integer(len(per_user))}}}={numbers.latex(values[f'ndcg_{side}:{name}'], 4)}")
        general[f"future_share_{side}"] = _share_general()
        substituted[f"future_share_{side}"] = (
            rf"\frac{{{numbers.latex_integer(int(values[f'future_rows_{side}']))}}}"
            rf"{{{numbers.latex_integer(int(values[f'train_rows_{side}']))}}}="
            rf"{numbers.latex(values[f'future_share_{side}'], 4)}")
    return general, substituted


def _pair_data(key: str, values: dict) -> pd.DataFrame:
    first, second = SIDES[key]
    models = list(_ndcg(values, first).index)
    return pd.DataFrame({
        words.model_header(): [model_name(name) for name in models],
        words.ndcg_header(first): _ndcg(values, first).round(4).tolist(),
        words.place_header(first): [int(values[f"place_{first}_{name}"]) for name in models],
        words.ndcg_header(second): _ndcg(values, second).round(4).tolist(),
        words.place_header(second): [int(values[f"place_{second}_{name}"]) for name in models],
    })


def _pair_view(scenario: dict, figure) -> object:
    key = scenario["preset"]
    values = pair_values(scenario)
    general, substituted = _pair_formulas(key, values)
    first, second = SIDES[key]
    caption = words.pair_caption(words.side_label(first), words.side_label(second),
                                 int(values[f"test_users_{first}"]), int(values[f"test_users_{second}"]),
                                 int(values[f"future_rows_{first}"]), int(values[f"train_rows_{first}"]),
                                 int(values[f"future_rows_{second}"]), int(values[f"train_rows_{second}"]))
    return View(values=values, general=general, substituted=substituted, figure=figure(key, values), k=K,
                 data=_pair_data(key, values), data_caption=caption)


def _places(key: str, values: dict):
    first, second = SIDES[key]
    return protocol_charts.rank_slopes(presets.places(_ndcg(values, first)), presets.places(_ndcg(values, second)),
                                       (words.side_label(first), words.side_label(second)), "NDCG@10")


def pair_view(scenario: dict):
    """Each model's place by NDCG@10 under the preset's two protocols."""
    return _pair_view(scenario, _places)


def leak_view(scenario: dict):
    """How many training interactions each protocol takes from after the test began."""
    def figure(key: str, values: dict):
        sides = SIDES[key]
        return protocol_charts.leak_bars([words.side_label(side) for side in sides],
                                         [int(values[f"train_rows_{side}"] - values[f"future_rows_{side}"])
                                          for side in sides],
                                         [int(values[f"future_rows_{side}"]) for side in sides])
    return _pair_view(scenario, figure)


def puzzle(scenario: dict):
    """What a predict step shows before the answer: the first protocol's numbers only."""
    if scenario["preset"] == SAMPLED:
        return _full_bars(sampled_values(scenario))
    first = SIDES[scenario["preset"]][0]
    return protocol_charts.model_bars(_ndcg(pair_values(scenario), first),
                                      words.bars_title("NDCG@10", words.side_label(first)), "NDCG@10")


STATIC_VIEWS = {"protocol_models": models_view, "protocol_sampled": sampled_view, "protocol_expected": expected_view,
                "protocol_pair": pair_view, "protocol_leak": leak_view}
ANIMATED_VIEWS = {"protocol_sweep": sweep}
