"""Demonstrations: a lesson scenario changing by itself, frame by frame, as a Plotly animation.

Each frame's numbers come from ``metrics``; the table of frames is returned with the figure so that
tests (and the page's cards) can check what each frame shows. No Streamlit.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from content import numbers
from content.i18n import _
from content.lessons.schema import Control, Step
from metrics import classification_metrics as cls
from metrics import ctr_metrics, ndcg, ranked_metrics, rating_metrics, registry, topn_metrics
from ui.controllers import lesson_protocols
from ui.figures import lesson_charts
from ui.controllers.lesson_views import View, _general, changed, label, parse, static_view, with_control

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
    actual, _ideal = ndcg.ndcg_tables(case.recommended, case.ground_truth, case.k, gain=case.gain)
    return pd.DataFrame({"rank": actual["rank"], "item": actual["item"], "hit": actual["gain"] > 0,
                         "term": actual["contribution"]})


def walk_value(scenario: dict, metric: str) -> float:
    """AP@K, RR or NDCG@K of a ranking scenario, straight from ``metrics``."""
    case = parse(scenario)
    if metric == "ap":
        return ranked_metrics.average_precision_at_k(case.recommended, case.ground_truth, case.k)
    if metric == "rr":
        return ranked_metrics.reciprocal_rank(case.recommended, case.ground_truth)
    return ndcg.ndcg_at_k(case.recommended, case.ground_truth, case.k, gain=case.gain)


def _walk(step: Step, duration: int) -> tuple[go.Figure, pd.DataFrame, list[dict]]:
    metric, item = step.animation["metric"], step.animation["item"]
    key = WALK_METRICS[metric][1]
    scenarios = [changed(step.scenario, {"move": (item, rank)}) for rank in step.animation["ranks"]]
    tables, rows, captions = [], [], []
    for rank, scenario in zip(step.animation["ranks"], scenarios, strict=True):
        table = walk_terms(scenario, metric)
        value = walk_value(scenario, metric)
        term = float(table.loc[table["item"] == item, "term"].iloc[0]) if (table["item"] == item).any() else 0.0
        tables.append(table)
        others = {f"term_{other}": float(t) for other, t in zip(table["item"], table["term"], strict=True)
                  if other != item and other in scenario["ground_truth"]}
        rows.append({"rank": rank, "item_term": term, key: value, **others})
        captions.append(_("{item} at rank {rank}: its term = {term}; {metric} = {value}").format(
            item=item, rank=numbers.integer(rank), term=numbers.number(term, 4), metric=label(key, scenario["k"]),
            value=numbers.number(value, 4)))
    y_max = max(float(t["term"].max()) for t in tables) or 1.0
    figure = lesson_charts.walking_bars(tables, item, captions, duration=duration, y_title=_("term"),
                                         y_max=y_max)
    return figure, pd.DataFrame(rows), scenarios


def _k_sweep(step: Step, duration: int):
    case = parse(step.scenario)
    table = registry.evaluate_over_k(case, step.animation["ks"], ["precision_at_k", "recall_at_k"])
    captions = []
    for row in table.itertuples():
        hits = topn_metrics.topn_counts(case.recommended, case.ground_truth, row.k)["hits"]
        captions.append(f"K = {row.k}: P@{row.k} = {hits}/{row.k} = {numbers.number(row.precision_at_k, 4)}, "
                        f"R@{row.k} = {hits}/{len(case.binary_truth)} = {numbers.number(row.recall_at_k, 4)}")
    figure = lesson_charts.growing_lines(table, "k", {"precision_at_k": "P@K", "recall_at_k": "R@K"}, captions,
                                         x_title="K", y_title=_("value"), duration=duration, y_max=1.05)
    return figure, table, [changed(step.scenario, {"k": k}) for k in step.animation["ks"]]


def _error_grows(step: Step, duration: int):
    index = step.animation["index"]
    scenarios = [with_control(step.scenario, Control("value", "", field="predictions", index=index), p)
                 for p in step.animation["predictions"]]
    rows, captions = [], []
    for scenario in scenarios:
        errors = rating_metrics.rating_errors_table(scenario["predictions"], scenario["actuals"])
        miss = float(errors["absolute_error"].iloc[index])
        values = {"mae": rating_metrics.mae(scenario["predictions"], scenario["actuals"]),
                  "rmse": rating_metrics.rmse(scenario["predictions"], scenario["actuals"])}
        rows.append({"prediction": scenario["predictions"][index], "miss": miss, "mae": values["mae"], "rmse": values["rmse"]})
        captions.append(_("prediction {number} = {prediction}, {miss} stars off: MAE = {mae}, RMSE = {rmse}").format(
            number=index + 1, prediction=numbers.general(scenario["predictions"][index]), miss=numbers.general(miss),
            mae=numbers.number(values["mae"], 4), rmse=numbers.number(values["rmse"], 4)))
    table = pd.DataFrame(rows)
    figure = lesson_charts.growing_lines(table, "miss", {"mae": "MAE", "rmse": "RMSE"}, captions,
                                         x_title=_("how far prediction {number} is off (stars)").format(number=index + 1),
                                         y_title=_("error (stars)"),
                                         duration=duration)
    return figure, table, scenarios


def _outlier_sweep(step: Step, duration: int):
    table = rating_metrics.outlier_sweep(step.scenario["values"]).rename(columns={"RMSE": "rmse", "MAE": "mae"})
    captions = [_("{share} of {total} ratings missed by ±4 stars: RMSE = {rmse}, MAE = {mae}").format(
        share=numbers.percent(r.outlier_share), total=numbers.integer(1000), rmse=numbers.number(r.rmse, 4),
        mae=numbers.number(r.mae, 4)) for r in table.itertuples()]
    figure = lesson_charts.growing_lines(table, "outlier_share", {"mae": "MAE", "rmse": "RMSE"}, captions,
                                         x_title=_("share of ±4-star misses"), y_title=_("error (stars)"),
                                         duration=duration)
    figure.update_xaxes(tickformat=".0%")
    return figure, table, []


def _accuracy_paradox(step: Step, duration: int):
    table = cls.constant_predictor_sweep(step.scenario["values"], 1000)
    captions = [_("clicks are {share} of {total} impressions: accuracy = {accuracy}, recall = {recall}").format(
        share=numbers.percent(r.positive_share), total=numbers.integer(1000), accuracy=numbers.number(r.accuracy, 4),
        recall=numbers.number(r.recall, 4)) for r in table.itertuples()]
    figure = lesson_charts.growing_lines(table, "positive_share", {"accuracy": _("Accuracy"), "recall": "Recall"},
                                         captions, x_title=_("share of clicks (fewer to the right)"), y_title=_("value"),
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
        fields = {"threshold": numbers.general(float(row.threshold)), "tp": round(row.tpr * positives),
                  "positives": positives, "fp": round(row.fpr * negatives), "negatives": negatives,
                  "auc": numbers.number(auc, 4)}
        last = i == len(points) - 1
        if math.isinf(row.threshold):
            template = _("threshold above every score: nothing predicted a click: TPR = {tp}/{positives}, "
                         "FPR = {fp}/{negatives}")
        elif last:
            template = _("threshold ≥ {threshold}: TPR = {tp}/{positives}, FPR = {fp}/{negatives}; AUC = {auc}")
        else:
            template = _("threshold ≥ {threshold}: TPR = {tp}/{positives}, FPR = {fp}/{negatives}")
        captions.append(template.format(**fields))
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
        captions.append(_("p = {p} for a real click: it costs −ln {p} = {loss}; LogLoss = {value}").format(
            p=numbers.general(p), loss=numbers.number(loss, 4), value=numbers.number(value, 4)))
    table = pd.DataFrame(rows)
    return lesson_charts.loss_marker(table, captions, duration=duration), table, scenarios


def _base_rate_sweep(step: Step, duration: int):
    table = ctr_metrics.base_rate_sweep(step.scenario["values"], n=1000)
    captions = [_("click rate {rate}, predicting it for everyone: LogLoss = {log_loss}, NE = {ne}").format(
        rate=numbers.percent(r.click_rate), log_loss=numbers.number(r.log_loss, 4),
        ne=numbers.number(r.normalized_entropy, 4)) for r in table.itertuples()]
    figure = lesson_charts.growing_lines(table, "click_rate", {"log_loss": "LogLoss", "normalized_entropy": "NE"},
                                         captions, x_title=_("click rate of the data"), y_title=_("value"),
                                         duration=duration, y_max=1.1)
    figure.update_xaxes(tickformat=".0%")
    return figure, table, []


ANIMATED_VIEWS = {"walk": _walk, "k_sweep": _k_sweep, "error_grows": _error_grows, "outlier_sweep": _outlier_sweep,
                  "accuracy_paradox": _accuracy_paradox, "roc_sweep": _roc_sweep, "confidence": _confidence,
                  "base_rate_sweep": _base_rate_sweep,
                  **lesson_protocols.ANIMATED_VIEWS}  # these build their own View: see demonstration()
STATIC_OF_ANIMATION = {"k_sweep": "topn", "error_grows": "rating", "roc_sweep": "auc", "confidence": "logloss"}
SWEEP_GENERAL = {"outlier_sweep": ("rmse", "mae"), "accuracy_paradox": ("accuracy", "recall"),
                 "base_rate_sweep": ("log_loss", "normalized_entropy")}



def static_of(step: Step) -> str | None:
    """The static view whose formulas a demonstration's first and last frames are written with."""
    if step.view == "walk":
        return WALK_METRICS[step.animation["metric"]][0]
    return STATIC_OF_ANIMATION.get(step.view)


def demonstration(step: Step, speed: str = "normal") -> tuple[View, dict[str, str]]:
    """The animated view of a demonstrate step, and the first frame's formulas to highlight against.

    The view's cards and substituted formulas are those of the last frame.
    """
    if step.view in lesson_protocols.ANIMATED_VIEWS:
        return lesson_protocols.ANIMATED_VIEWS[step.view](step, lesson_charts.SPEEDS[speed])
    figure, frames, scenarios = ANIMATED_VIEWS[step.view](step, lesson_charts.SPEEDS[speed])
    figure.update_layout(separators=numbers.plotly_separators())
    static = static_of(step)
    if static and scenarios:
        first, last = static_view(static, scenarios[0]), static_view(static, scenarios[-1])
        return View(last.values, last.general, last.substituted, figure, frames, last.k), first.substituted
    last_row = frames.iloc[-1]
    values = {key: float(last_row[key]) for key in SWEEP_GENERAL[step.view] if key in frames.columns}
    return View(values, _general(*SWEEP_GENERAL[step.view]), {}, figure, frames), {}
