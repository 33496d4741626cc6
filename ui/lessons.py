"""Turn a lesson step into numbers, formulas and figures. No Streamlit: the page only lays these out.

Every number comes from ``metrics``; this module only picks which ones a step shows, builds the
scenario a control or a question describes, and colours the terms of a formula that changed.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass
from difflib import SequenceMatcher

import pandas as pd
import plotly.graph_objects as go

from lessons.schema import Control, Goal, Step
from metrics import classification_metrics as cls
from metrics import ctr_metrics, ndcg, ranked_metrics, rating_metrics, registry, topn_metrics
from ui import charts, formulas, lesson_charts
from ui.ctr_formulas import ctr_latex

CHANGED = "#c62828"
LABELS = {"dcg_at_k": "DCG@K", "idcg_at_k": "IDCG@K", "ndcg_at_k": "NDCG@K", "gauc": "GAUC (impressions)",
          "auc": "AUC", "base_rate_entropy": "LogLoss of the base rate"}


def label(key: str, k: int | None = None) -> str:
    """The card label of a value key, with K filled in where the step has one."""
    metric = registry.BY_KEY.get(key)
    text = LABELS.get(key) or (metric.label if metric else key)
    return text.replace("@K", f"@{k}") if k is not None else text


# --------------------------------------------------------------------------- scenarios


def predicted_labels(scenario: dict) -> list[int]:
    """The labels scenario's predictions: given, or every score at or above the threshold."""
    if "y_pred" in scenario:
        return list(scenario["y_pred"])
    return [int(score >= scenario["threshold"]) for score in scenario["y_score"]]


def parse(scenario: dict):
    """The registry case a scenario describes; raises ValueError (from ``metrics``) if it is not valid."""
    kind = scenario.get("kind")
    if kind == "ranking":
        return registry.RankingCase(scenario["recommended"], scenario["ground_truth"], scenario["k"],
                                    scenario.get("gain", "linear"))
    if kind == "users":
        return registry.UsersCase(scenario["recommended"], [set(r) for r in scenario["relevant"]], scenario["k"])
    if kind == "ratings":
        return registry.RatingCase(scenario["predictions"], scenario["actuals"])
    if kind == "labels":
        return registry.LabelCase(scenario["y_true"], predicted_labels(scenario))
    if kind == "scores":
        return registry.ScoreCase(scenario["user_ids"], scenario["y_true"], scenario["y_score"])
    if kind == "probabilities":
        return registry.ProbabilityCase(scenario["y_true"], scenario["y_prob"])
    raise ValueError(f"scenario kind must be one of ranking, users, ratings, labels, scores, probabilities; got {kind!r}")


def check_scenario(scenario: dict) -> None:
    """Raise ValueError if the scenario does not parse or its metrics reject it."""
    if scenario.get("kind") == "sweep":
        values = scenario["values"]
        if not values or not all(0 <= v <= 1 for v in values):
            raise ValueError(f"a sweep needs values in [0, 1], got {values!r}")
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cls.UndefinedMetricWarning)  # undefined is valid (e.g. NE of one class)
        registry.evaluate(parse(scenario))
    if scenario["kind"] == "users" and not len(scenario["users"]) == len(scenario["recommended"]) == len(scenario["relevant"]):
        raise ValueError("users, recommended and relevant must have one entry per user")


def moved(recommended, item, rank: int) -> list:
    """The list with ``item`` taken out and put back at ``rank`` (1-based), the others shifting."""
    rest = [i for i in recommended if i != item]
    return rest[: rank - 1] + [item] + rest[rank - 1:]


def changed(scenario: dict, change: dict) -> dict:
    """The scenario with a question's change applied: fields replaced, or ``move: (item, rank)``."""
    result = dict(scenario)
    for key, value in change.items():
        if key == "move":
            result["recommended"] = moved(scenario["recommended"], *value)
        else:
            result[key] = value
    return result


def control_value(scenario: dict, control: Control):
    """The value a control shows for the scenario as it is."""
    if control.kind == "k":
        return scenario["k"]
    if control.kind == "rank":
        return scenario["recommended"].index(control.item) + 1
    if control.kind == "grade":
        return scenario["ground_truth"].get(control.item, 0)
    if control.kind == "value":
        return scenario[control.field][control.index]
    if control.kind == "threshold":
        return scenario["threshold"]
    raise ValueError(f"unknown control kind {control.kind!r}")


def with_control(scenario: dict, control: Control, value) -> dict:
    """The scenario with one control set to ``value``."""
    if control.kind == "rank":
        return changed(scenario, {"move": (control.item, int(value))})
    if control.kind == "grade":
        return changed(scenario, {"ground_truth": {**scenario["ground_truth"], control.item: value}})
    if control.kind == "value":
        values = list(scenario[control.field])
        values[control.index] = value
        return changed(scenario, {control.field: values})
    key = {"k": "k", "threshold": "threshold"}.get(control.kind)
    if key is None:
        raise ValueError(f"unknown control kind {control.kind!r}")
    return changed(scenario, {key: int(value) if key == "k" else value})


# --------------------------------------------------------------------------- static views


@dataclass
class View:
    values: dict[str, float]
    general: dict[str, str]
    substituted: dict[str, str]
    figure: go.Figure
    frames: pd.DataFrame | None = None  # demonstrate: the values each animation frame shows
    k: int | None = None


def _registry_values(case, keys) -> dict[str, float]:
    return {key: registry.BY_KEY[key].compute(case) for key in keys}


def _general(*keys) -> dict[str, str]:
    return {key: registry.BY_KEY[key].latex for key in keys}


def _topn(s: dict) -> View:
    case = parse(s)
    keys = ("precision_at_k", "recall_at_k", "hit_rate_at_k", "f1_at_k")
    values = _registry_values(case, keys)
    counts = topn_metrics.topn_counts(case.recommended, case.ground_truth, case.k)
    hits, k = counts["hits"], case.k
    substituted = {
        "precision_at_k": formulas.precision_at_k_latex(hits, k, values["precision_at_k"]),
        "recall_at_k": formulas.recall_at_k_latex(hits, counts["n_relevant"], k, values["recall_at_k"]),
        "hit_rate_at_k": formulas.hit_rate_at_k_latex(hits, k, values["hit_rate_at_k"]),
        "f1_at_k": formulas.f1_at_k_latex(values["precision_at_k"], values["recall_at_k"], k, values["f1_at_k"]),
    }
    figure = charts.top_k_window(topn_metrics.top_k_table(case.recommended, case.ground_truth, k), k)
    return View(values, _general(*keys), substituted, figure, k=k)


def _ap(s: dict) -> View:
    case = parse(s)
    value = registry.BY_KEY["ap_at_k"].compute(case)
    table = ranked_metrics.average_precision_table(case.recommended, case.ground_truth, case.k)
    chosen = ranked_metrics.ap_denominator_table(case.recommended, case.ground_truth, case.k).set_index("denominator").loc["min"]
    hit_rows = table[table["hit"]]
    latex = formulas.average_precision_latex(hit_rows["rank"], hit_rows["hits_so_far"], chosen["sum_of_precisions"],
                                             int(chosen["divide_by"]), case.k, value)
    figure = charts.contributions(table, f"Precision@i at each hit: their sum / {int(chosen['divide_by'])} is AP@{case.k}")
    return View({"ap_at_k": value}, _general("ap_at_k"), {"ap_at_k": latex}, figure, k=case.k)


def _rr(s: dict) -> View:
    case = parse(s)
    value = registry.BY_KEY["rr"].compute(case)
    rank = ranked_metrics.first_hit_rank(case.recommended, case.ground_truth)
    figure = charts.reciprocal_rank_positions(ranked_metrics.reciprocal_rank_table(case.recommended, case.ground_truth))
    return View({"rr": value}, _general("rr"), {"rr": formulas.reciprocal_rank_latex(rank, value)}, figure)


def _ndcg(s: dict) -> View:
    case = parse(s)
    actual, ideal = ndcg.ndcg_tables(case.recommended, case.ground_truth, case.k, gain=case.gain)
    value = ndcg.ndcg_at_k(case.recommended, case.ground_truth, case.k, gain=case.gain)
    values = {"dcg_at_k": float(actual["running_dcg"].iloc[-1]) if len(actual) else 0.0,
              "idcg_at_k": float(ideal["running_dcg"].iloc[-1]) if len(ideal) else 0.0, "ndcg_at_k": value}
    general = {"ndcg_at_k": registry.BY_KEY["ndcg_graded_at_k"].latex
               + (r",\ g(\mathrm{rel})=2^{\mathrm{rel}}-1" if case.gain == "exponential" else r",\ g(\mathrm{rel})=\mathrm{rel}")}
    return View(values, general, {"ndcg_at_k": formulas.ndcg_latex(actual, ideal, case.k, value)},
                charts.dcg_actual_vs_ideal(actual, ideal), k=case.k)


def _per_user(s: dict, column: str, key: str, name: str) -> View:
    case = parse(s)
    table = ranked_metrics.per_user_table(s["users"], case.all_recommended, case.all_ground_truth, case.k)
    value = registry.BY_KEY[key].compute(case)
    shown = name.replace("@K", f"@{case.k}")
    figure = charts.per_user_bars(table.rename(columns={column: shown}), shown,
                                  value, label(key, case.k), f"{shown} per user")
    return View({key: value}, _general(key), {key: formulas.mean_over_users_latex(label(key, case.k), table[column], value)},
                figure, k=case.k)


def _rating(s: dict) -> View:
    case = parse(s)
    values = _registry_values(case, ("rmse", "mae", "mse"))
    table = rating_metrics.rating_errors_table(case.predictions, case.actuals)
    latex = formulas.rating_errors_latex(table, values, max_terms=5)
    return View(values, _general("rmse", "mae", "mse"), {k: formulas.aligned_steps(v) for k, v in latex.items()},
                charts.rating_errors(table))


def _confusion(s: dict) -> View:
    case = parse(s)
    keys = ("accuracy", "precision", "recall", "f1")
    values = _registry_values(case, keys)
    counts = cls.confusion_counts(case.y_true, case.y_pred)
    return View(values, _general(*keys), formulas.classification_latex(counts, values), charts.confusion_matrix(counts))


def _auc(s: dict) -> View:
    case = parse(s)
    counts = cls.auc_pair_counts(case.y_true, case.y_score)
    figure = charts.roc_curve(cls.roc_curve_points(case.y_true, case.y_score), counts["auc"])
    return View({"auc": counts["auc"]}, _general("auc"), {"auc": formulas.auc_pairs_latex(counts)["ties_half"]}, figure)


def _gauc(s: dict) -> View:
    case = parse(s)
    counts = cls.auc_pair_counts(case.y_true, case.y_score)
    table = cls.gauc_table(case.user_ids, case.y_true, case.y_score)
    value, _ = cls.gauc(case.user_ids, case.y_true, case.y_score, weight="impressions")
    return View({"auc": counts["auc"], "gauc": value}, _general("auc", "gauc"),
                {"auc": formulas.auc_pairs_latex(counts)["ties_half"],
                 "gauc": formulas.gauc_latex(table, "impressions", value)},
                charts.per_user_auc(table, "impressions"))


def _logloss(s: dict) -> View:
    case = parse(s)
    eps = cls.default_log_loss_eps()
    terms = cls.log_loss_terms(case.y_true, case.y_prob, eps=eps)
    value = cls.log_loss(case.y_true, case.y_prob, eps=eps)
    latex = formulas.aligned_steps(formulas.log_loss_latex(terms, value, eps, max_terms=4))
    return View({"log_loss": value}, _general("log_loss"), {"log_loss": latex}, charts.log_loss_curve(terms))


def _ctr(s: dict) -> View:
    case = parse(s)
    parts = ctr_metrics.ctr_breakdown(case.y_true, case.y_prob)
    values = {key: parts[key] for key in ("log_loss", "base_rate_entropy", "normalized_entropy", "calibration")}
    logloss = _logloss(s)
    substituted = {"log_loss": logloss.substituted["log_loss"], **ctr_latex(parts, case.y_prob)}
    return View(values, _general("log_loss", "normalized_entropy", "calibration"), substituted,
                lesson_charts.base_rate_comparison(parts))


STATIC_VIEWS = {"topn": _topn, "ap": _ap, "rr": _rr, "ndcg": _ndcg, "rating": _rating, "confusion": _confusion,
                "auc": _auc, "gauc": _gauc, "logloss": _logloss, "ctr": _ctr,
                "map": lambda s: _per_user(s, "ap", "map_at_k", "AP@K"),
                "mrr": lambda s: _per_user(s, "rr", "mrr", "RR")}


def static_view(view: str, scenario: dict) -> View:
    return STATIC_VIEWS[view](scenario)


# --------------------------------------------------------------------------- demonstrations


WALK_METRICS = {"ap": ("ap", "ap_at_k"), "rr": ("rr", "rr"), "ndcg": ("ndcg", "ndcg_at_k")}


def walk_terms(scenario: dict, metric: str) -> pd.DataFrame:
    """Per-rank terms of a ranking metric: ``rank``, ``item``, ``hit``, ``term`` (from ``metrics``)."""
    case = parse(scenario)
    if metric == "ap":
        table = ranked_metrics.average_precision_table(case.recommended, case.ground_truth, case.k)
        return table.rename(columns={"contribution": "term"})[["rank", "item", "hit", "term"]]
    if metric == "rr":
        table = ranked_metrics.reciprocal_rank_table(case.recommended, case.ground_truth)
        return pd.DataFrame({"rank": table["rank"], "item": table["item"], "hit": table["relevant"],
                             "term": table["one_over_rank"].where(table["first_hit"], 0.0)})
    actual, _ = ndcg.ndcg_tables(case.recommended, case.ground_truth, case.k, gain=case.gain)
    return pd.DataFrame({"rank": actual["rank"], "item": actual["item"], "hit": actual["gain"] > 0,
                         "term": actual["contribution"]})


def _walk(step: Step, duration: int) -> tuple[go.Figure, pd.DataFrame, list[dict]]:
    metric, item = step.animation["metric"], step.animation["item"]
    static, key = WALK_METRICS[metric]
    scenarios = [changed(step.scenario, {"move": (item, rank)}) for rank in step.animation["ranks"]]
    tables, rows, captions = [], [], []
    for rank, scenario in zip(step.animation["ranks"], scenarios, strict=True):
        table = walk_terms(scenario, metric)
        value = static_view(static, scenario).values[key]
        term = float(table.loc[table["item"] == item, "term"].iloc[0]) if (table["item"] == item).any() else 0.0
        tables.append(table)
        rows.append({"rank": rank, "item_term": term, key: value})
        captions.append(f"{item} at rank {rank}: its term = {term:.4f}; {label(key, scenario['k'])} = {value:.4f}")
    y_max = max(float(t["term"].max()) for t in tables) or 1.0
    figure = lesson_charts.walking_bars(tables, item, captions, duration=duration, y_title="term", y_max=y_max)
    return figure, pd.DataFrame(rows), scenarios


def _k_sweep(step: Step, duration: int):
    case = parse(step.scenario)
    table = registry.evaluate_over_k(case, step.animation["ks"], ["precision_at_k", "recall_at_k"])
    captions = []
    for row in table.itertuples():
        hits = topn_metrics.topn_counts(case.recommended, case.ground_truth, row.k)["hits"]
        captions.append(f"K = {row.k}: P@{row.k} = {hits}/{row.k} = {row.precision_at_k:.4f}, "
                        f"R@{row.k} = {hits}/{len(case.binary_truth)} = {row.recall_at_k:.4f}")
    figure = lesson_charts.growing_lines(table, "k", {"precision_at_k": "P@K", "recall_at_k": "R@K"}, captions,
                                         x_title="K", y_title="value", duration=duration, y_max=1.05)
    return figure, table, [changed(step.scenario, {"k": k}) for k in step.animation["ks"]]


def _error_grows(step: Step, duration: int):
    index = step.animation["index"]
    scenarios = [with_control(step.scenario, Control("value", "", field="predictions", index=index), p)
                 for p in step.animation["predictions"]]
    rows, captions = [], []
    for scenario in scenarios:
        errors = rating_metrics.rating_errors_table(scenario["predictions"], scenario["actuals"])
        miss = float(errors["absolute_error"].iloc[index])
        values = static_view("rating", scenario).values
        rows.append({"prediction": scenario["predictions"][index], "miss": miss, "mae": values["mae"], "rmse": values["rmse"]})
        captions.append(f"prediction {index + 1} = {scenario['predictions'][index]:g}, {miss:g} stars off: "
                        f"MAE = {values['mae']:.4f}, RMSE = {values['rmse']:.4f}")
    table = pd.DataFrame(rows)
    figure = lesson_charts.growing_lines(table, "miss", {"mae": "MAE", "rmse": "RMSE"}, captions,
                                         x_title=f"how far prediction {index + 1} is off (stars)", y_title="error (stars)",
                                         duration=duration)
    return figure, table, scenarios


def _outlier_sweep(step: Step, duration: int):
    table = rating_metrics.outlier_sweep(step.scenario["values"]).rename(columns={"RMSE": "rmse", "MAE": "mae"})
    captions = [f"{r.outlier_share:.0%} of 1,000 ratings missed by ±4 stars: RMSE = {r.rmse:.4f}, MAE = {r.mae:.4f}"
                for r in table.itertuples()]
    figure = lesson_charts.growing_lines(table, "outlier_share", {"mae": "MAE", "rmse": "RMSE"}, captions,
                                         x_title="share of ±4-star misses", y_title="error (stars)", duration=duration)
    figure.update_xaxes(tickformat=".0%")
    return figure, table, []


def _accuracy_paradox(step: Step, duration: int):
    table = cls.constant_predictor_sweep(step.scenario["values"], 1000)
    captions = [f"clicks are {r.positive_share:.0%} of 1,000 impressions: accuracy = {r.accuracy:.4f}, "
                f"recall = {r.recall:.4f}" for r in table.itertuples()]
    figure = lesson_charts.growing_lines(table, "positive_share", {"accuracy": "Accuracy", "recall": "Recall"}, captions,
                                         x_title="share of clicks (fewer to the right)", y_title="value",
                                         duration=duration, y_max=1.05, reversed_x=True)
    figure.update_xaxes(tickformat=".0%")
    return figure, table, []


def _roc_sweep(step: Step, duration: int):
    case = parse(step.scenario)
    points = cls.roc_curve_points(case.y_true, case.y_score).reset_index(drop=True)
    positives = sum(case.y_true)
    negatives = len(case.y_true) - positives
    auc = cls.roc_auc(case.y_true, case.y_score)
    captions = []
    for i, row in enumerate(points.itertuples()):
        where = "above every score: nothing predicted a click" if math.isinf(row.threshold) else f"≥ {row.threshold:g}"
        text = (f"threshold {where}: TPR = {round(row.tpr * positives)}/{positives}, "
                f"FPR = {round(row.fpr * negatives)}/{negatives}")
        captions.append(text + (f"; AUC = {auc:.4f}" if i == len(points) - 1 else ""))
    return lesson_charts.roc_drawing(points, captions, duration=duration), points, [step.scenario]


def _confidence(step: Step, duration: int):
    index = step.animation["index"]
    scenarios = [with_control(step.scenario, Control("value", "", field="y_prob", index=index), p)
                 for p in step.animation["probabilities"]]
    rows, captions = [], []
    for scenario, p in zip(scenarios, step.animation["probabilities"], strict=True):
        terms = cls.log_loss_terms(scenario["y_true"], scenario["y_prob"])
        loss = float(terms["loss"].iloc[index])
        value = cls.log_loss(scenario["y_true"], scenario["y_prob"])
        rows.append({"probability": p, "sample_loss": loss, "log_loss": value})
        captions.append(f"p = {p:g} for a real click: it costs −ln {p:g} = {loss:.4f}; LogLoss = {value:.4f}")
    table = pd.DataFrame(rows)
    return lesson_charts.loss_marker(table, captions, duration=duration), table, scenarios


def _base_rate_sweep(step: Step, duration: int):
    table = ctr_metrics.base_rate_sweep(step.scenario["values"], n=1000)
    captions = [f"click rate {r.click_rate:.0%}, predicting it for everyone: LogLoss = {r.log_loss:.4f}, "
                f"NE = {r.normalized_entropy:.4f}" for r in table.itertuples()]
    figure = lesson_charts.growing_lines(table, "click_rate", {"log_loss": "LogLoss", "normalized_entropy": "NE"},
                                         captions, x_title="click rate of the data", y_title="value",
                                         duration=duration, y_max=1.1)
    figure.update_xaxes(tickformat=".0%")
    return figure, table, []


ANIMATED_VIEWS = {"walk": _walk, "k_sweep": _k_sweep, "error_grows": _error_grows, "outlier_sweep": _outlier_sweep,
                  "accuracy_paradox": _accuracy_paradox, "roc_sweep": _roc_sweep, "confidence": _confidence,
                  "base_rate_sweep": _base_rate_sweep}
STATIC_OF_ANIMATION = {"k_sweep": "topn", "error_grows": "rating", "roc_sweep": "auc", "confidence": "logloss"}
SWEEP_GENERAL = {"outlier_sweep": ("rmse", "mae"), "accuracy_paradox": ("accuracy", "recall"),
                 "base_rate_sweep": ("log_loss", "normalized_entropy")}

VIEW_KINDS = frozenset(STATIC_VIEWS) | frozenset(ANIMATED_VIEWS)


def static_of(step: Step) -> str | None:
    """The static view whose formulas a demonstration's first and last frames are written with."""
    if step.view == "walk":
        return WALK_METRICS[step.animation["metric"]][0]
    return STATIC_OF_ANIMATION.get(step.view)


def demonstration(step: Step, speed: str = "normal") -> tuple[View, dict[str, str]]:
    """The animated view of a demonstrate step, and the first frame's formulas to highlight against.

    The view's cards and substituted formulas are those of the last frame.
    """
    figure, frames, scenarios = ANIMATED_VIEWS[step.view](step, lesson_charts.SPEEDS[speed])
    static = static_of(step)
    if static and scenarios:
        first, last = static_view(static, scenarios[0]), static_view(static, scenarios[-1])
        return View(last.values, last.general, last.substituted, figure, frames, last.k), first.substituted
    last_row = frames.iloc[-1]
    values = {key: float(last_row[key]) for key in SWEEP_GENERAL[step.view] if key in frames.columns}
    return View(values, _general(*SWEEP_GENERAL[step.view]), {}, figure, frames), {}


# --------------------------------------------------------------------------- puzzles, questions, goals


def puzzle_figure(scenario: dict) -> go.Figure:
    """The data of a scenario without any metric: what a learner sees before answering."""
    kind = scenario["kind"]
    if kind == "ranking":
        case = parse(scenario)
        table = topn_metrics.top_k_table(case.recommended, case.ground_truth, case.k)
        return lesson_charts.ranking_puzzle(table, case.k, "The list: green = relevant, shaded = the top K")
    if kind == "users":
        hits = [[item in set(rel) for item in rec] for rec, rel in zip(scenario["recommended"], scenario["relevant"], strict=True)]
        return lesson_charts.users_puzzle(scenario["users"], hits)
    if kind == "ratings":
        rows = [f"#{i + 1} (actual {a:g})" for i, a in enumerate(scenario["actuals"])]
        return lesson_charts.values_puzzle(rows, scenario["predictions"], "Predicted ratings", "stars")
    if kind == "labels":
        case = parse(scenario)
        return charts.confusion_matrix(cls.confusion_counts(case.y_true, case.y_pred))
    values = scenario["y_score"] if kind == "scores" else scenario["y_prob"]
    users = scenario.get("user_ids", [])
    several = len(set(users)) > 1
    names = [f"#{i + 1} {users[i] + ': ' if several else ''}{'click' if y else 'no click'}"
             for i, y in enumerate(scenario["y_true"])]
    if len(names) > 12:
        names = [f"#{i + 1}" for i in range(len(names))]
    title = "Scores: green = click, grey = no click" if kind == "scores" else \
        "Predicted click probabilities: green = click, grey = no click"
    return lesson_charts.values_puzzle(names, values, title, "score" if kind == "scores" else "probability",
                                       lesson_charts.label_colours(scenario["y_true"]))


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-3, abs_tol=5e-4)


@dataclass
class Reveal:
    answer: str                       # the right option's label, decided by the numbers
    shown: list[tuple[str, View]]     # (caption, view) to show side by side, the last one highlighted


def reveal(step: Step) -> Reveal:
    """What the numbers say about a predict step's question, computed by ``metrics``.

    Options are positional: for "direction" (up, down, unchanged); for "compare" (first higher,
    second higher, the same).
    """
    q = step.question
    before = static_view(step.view, step.scenario)
    labels = [o.label for o in q.options]
    if q.kind == "value":
        actual = before.values[q.metric]
        matching = [o.label for o in q.options if o.value is not None and _close(o.value, actual)]
        if len(matching) != 1:
            raise ValueError(f"{step.title!r}: {len(matching)} options match {q.metric} = {actual:.4f}")
        return Reveal(matching[0], [("", before)])
    if q.kind == "direction":
        after = static_view(step.view, changed(step.scenario, q.change))
        a, b = before.values[q.metric], after.values[q.metric]
        index = 2 if _close(a, b) else (0 if b > a else 1)
        return Reveal(labels[index], [("before", before), ("after", after)])
    if q.other_metric:
        a, b = before.values[q.metric], before.values[q.other_metric]
        shown = [("", before)]
    else:
        other = static_view(step.view, q.other)
        a, b = before.values[q.metric], other.values[q.metric]
        shown = [("A", before), ("B", other)]
    index = 2 if _close(a, b) else (0 if a > b else 1)
    return Reveal(labels[index], shown)


_COMPARE = {"<": lambda a, b: a < b and not _exact(a, b), "<=": lambda a, b: a <= b or _exact(a, b),
            "==": lambda a, b: _exact(a, b), ">=": lambda a, b: a >= b or _exact(a, b),
            ">": lambda a, b: a > b and not _exact(a, b)}


def _exact(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def goal_reached(goal: Goal, values: dict[str, float]) -> bool:
    """Whether every condition of an explore step's goal holds for these values."""
    for key, op, target in goal.conditions:
        right = values[target] if isinstance(target, str) else float(target)
        if math.isnan(values[key]) or not _COMPARE[op](values[key], right):
            return False
    return True


# --------------------------------------------------------------------------- highlighting


_NUMBER = re.compile(r"(?<![A-Za-z\\])\d+(?:\.\d+)?")


def highlight(latex: str, previous: str | None) -> str:
    r"""``latex`` with each number that is new or changed since ``previous`` coloured.

    Numbers are matched in order (a diff of the two number sequences), so a term that moved
    keeps its colour only if its value changed. Digits glued to a command (``\tfrac12``) are left alone.
    """
    if not previous or previous == latex:
        return latex
    old = [m.group() for m in _NUMBER.finditer(previous)]
    found = list(_NUMBER.finditer(latex))
    new = [m.group() for m in found]
    marked: set[int] = set()
    for tag, _, _, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            marked.update(range(j1, j2))
    parts, last = [], 0
    for index, match in enumerate(found):
        if index in marked:
            parts += [latex[last:match.start()], rf"{{\textcolor{{{CHANGED}}}{{{match.group()}}}}}"]
            last = match.end()
    parts.append(latex[last:])
    return "".join(parts)


def stacked(latex: str) -> str:
    r"""A formula whose parts are joined by ``,\ `` written one part per line, so it fits half a page."""
    parts = latex.split(r",\ ")
    return latex if len(parts) == 1 else r"\begin{gathered}" + r"\\".join(parts) + r"\end{gathered}"


def step_view(step: Step) -> View:
    """The locked view of a show, predict or explore step at its own scenario."""
    return static_view(step.view, step.scenario)


def previous_formulas(steps, index: int) -> dict[str, str]:
    """The substituted formulas of the step before ``index`` if it used the same view, else none."""
    if index == 0 or steps[index - 1].view != steps[index].view:
        return {}
    return static_view(steps[index - 1].view, steps[index - 1].scenario).substituted


__all__ = ["View", "Reveal", "label", "parse", "check_scenario", "changed", "moved", "control_value", "with_control",
           "static_view", "stacked", "demonstration", "puzzle_figure", "reveal", "goal_reached", "highlight", "step_view",
           "previous_formulas", "VIEW_KINDS"]
