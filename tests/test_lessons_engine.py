"""The lesson engine: each demonstration's frames hold the values it claims (checked against metrics/
and closed forms), formulas colour what changed, goals and controls do what they say."""

import math
import re

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score, roc_curve

from content.lessons import BY_KEY
from content.lessons.schema import Control, Goal
from metrics import ndcg, ranked_metrics, rating_metrics, topn_metrics
from ui.controllers import lessons as engine
from ui.figures.lesson_charts import SPEEDS


def demo(lesson: str, view: str):
    step = next(s for s in BY_KEY[lesson].steps if s.view == view)
    return step, engine.demonstration(step)[0].figure.to_plotly_json()


def frame_titles(spec) -> list[str]:
    """Each frame's caption as one line: the chart wraps long titles with <br> to fit a phone."""
    return [frame["layout"]["title"]["text"].replace("<br>", " ") for frame in spec["frames"]]


def test_k_sweep_frames_draw_precision_and_recall_up_to_each_k():
    step, spec = demo("topn", "k_sweep")
    recommended, truth = step.scenario["recommended"], step.scenario["ground_truth"]
    assert len(spec["frames"]) == 10
    for k, frame in enumerate(spec["frames"], start=1):
        precision, recall = frame["data"]
        assert list(precision["x"]) == list(range(1, k + 1))
        assert list(precision["y"]) == pytest.approx([topn_metrics.precision_at_k(recommended, truth, i) for i in range(1, k + 1)])
        assert list(recall["y"]) == pytest.approx([topn_metrics.recall_at_k(recommended, truth, i) for i in range(1, k + 1)])
    hits_at = [sum(item in truth for item in recommended[:k]) for k in range(1, 11)]
    assert frame_titles(spec)[4] == f"K = 5: P@5 = {hits_at[4]}/5 = {hits_at[4] / 5:.4f}, R@5 = {hits_at[4]}/4 = {hits_at[4] / 4:.4f}"


def moved(items, item, rank):
    rest = [i for i in items if i != item]
    return rest[: rank - 1] + [item] + rest[rank - 1:]


@pytest.mark.parametrize("lesson", ["ap", "rr", "ndcg"])
def test_walk_frames_hold_each_ranks_term_and_the_metric(lesson):
    step, spec = demo(lesson, "walk")
    item, ranks = step.animation["item"], step.animation["ranks"]
    truth, k = step.scenario["ground_truth"], step.scenario["k"]
    assert len(spec["frames"]) == len(ranks)
    for rank, frame, title in zip(ranks, spec["frames"], frame_titles(spec), strict=True):
        items = moved(step.scenario["recommended"], item, rank)
        relevant = [i in truth for i in items[:k]]
        if lesson == "ap":  # precision@i at each hit, by hand
            expected = [sum(relevant[: i + 1]) / (i + 1) if relevant[i] else 0.0 for i in range(len(relevant))]
            value = ranked_metrics.average_precision_at_k(items, truth, k)
        elif lesson == "rr":
            first = relevant.index(True)
            expected = [1 / (first + 1) if i == first else 0.0 for i in range(len(items))]
            value = ranked_metrics.reciprocal_rank(items, truth)
        else:
            expected = [truth.get(i, 0) / math.log2(r + 2) for r, i in enumerate(items[:k])]
            value = ndcg.ndcg_at_k(items, truth, k)
        bars = frame["data"][0]
        assert list(bars["y"]) == pytest.approx(expected)
        assert list(bars["text"]) == [str(i) for i in items[: len(expected)]]
        assert bars["marker"]["color"][rank - 1] == "#c62828", "the moving item is the red bar"
        assert title == f"{item} at rank {rank}: its term = {expected[rank - 1]:.4f}; " \
                        f"{engine.label(engine.WALK_METRICS[lesson][1], k)} = {value:.4f}"


def test_dcg_walk_term_shrinks_at_every_rank():
    step, spec = demo("ndcg", "walk")
    terms = [float(t.split("its term = ")[1].split(";")[0]) for t in frame_titles(spec)]
    assert all(a > b for a, b in zip(terms, terms[1:]))


def test_error_grows_frames_follow_rmse_and_mae():
    step, spec = demo("rating", "error_grows")
    index, actual = step.animation["index"], step.scenario["actuals"]
    for p, frame in zip(step.animation["predictions"], spec["frames"], strict=True):
        predictions = list(step.scenario["predictions"])
        predictions[index] = p
        errors = np.subtract(predictions, actual)
        mae_line, rmse_line = frame["data"]
        assert mae_line["x"][-1] == abs(p - actual[index])
        assert mae_line["y"][-1] == pytest.approx(np.mean(np.abs(errors)))
        assert rmse_line["y"][-1] == pytest.approx(math.sqrt(np.mean(errors ** 2)))
        assert rmse_line["y"][-1] >= mae_line["y"][-1]


def test_outlier_sweep_frames_match_the_seed_simulation():
    step, spec = demo("rating", "outlier_sweep")
    expected = rating_metrics.outlier_sweep(step.scenario["values"])
    last = spec["frames"][-1]["data"]
    assert list(last[0]["y"]) == pytest.approx(expected["MAE"].tolist())
    assert list(last[1]["y"]) == pytest.approx(expected["RMSE"].tolist())
    assert spec["frames"][0]["data"][1]["y"] == pytest.approx([expected["RMSE"].iloc[0]])


def test_accuracy_paradox_frames_follow_the_closed_form():
    step, spec = demo("classification", "accuracy_paradox")
    shares = step.scenario["values"]
    accuracy, recall = spec["frames"][-1]["data"]
    assert list(accuracy["y"]) == pytest.approx([1 - s for s in shares])
    assert list(recall["y"]) == [0.0] * len(shares)


def test_roc_sweep_lays_down_scikit_learns_curve_point_by_point():
    step, spec = demo("auc", "roc_sweep")
    y_true, y_score = step.scenario["y_true"], step.scenario["y_score"]
    fpr, tpr, _ = roc_curve(y_true, y_score, drop_intermediate=False)
    assert len(spec["frames"]) == len(fpr)
    for i, frame in enumerate(spec["frames"]):
        curve = frame["data"][1]
        assert list(curve["x"]) == pytest.approx(fpr[: i + 1].tolist())
        assert list(curve["y"]) == pytest.approx(tpr[: i + 1].tolist())
    assert spec["frames"][-1]["data"][1]["fill"] == "tozeroy"
    assert frame_titles(spec)[-1].endswith(f"AUC = {roc_auc_score(y_true, y_score):.4f}")


def test_confidence_frames_put_the_click_on_minus_log_p():
    step, spec = demo("logloss", "confidence")
    others = -math.log(0.6) - math.log(0.7)
    for p, frame, title in zip(step.animation["probabilities"], spec["frames"], frame_titles(spec), strict=True):
        marker = frame["data"][1]
        assert marker["x"] == [p] and marker["y"] == pytest.approx([-math.log(p)])
        assert title.endswith(f"LogLoss = {(-math.log(p) + others) / 3:.4f}")


def test_base_rate_sweep_frames_logloss_is_the_entropy_and_ne_is_1():
    step, spec = demo("logloss", "base_rate_sweep")
    rates = step.scenario["values"]
    log_loss, ne = spec["frames"][-1]["data"]
    assert list(log_loss["y"]) == pytest.approx([-(r * math.log(r) + (1 - r) * math.log(1 - r)) for r in rates])
    assert list(ne["y"]) == [1.0] * len(rates)


@pytest.mark.parametrize("speed", list(SPEEDS))
def test_speed_sets_the_frame_duration_of_play(speed):
    step = next(s for s in BY_KEY["auc"].steps if s.kind == "demonstrate")
    spec = engine.demonstration(step, speed)[0].figure.to_plotly_json()
    play, pause = spec["layout"]["updatemenus"][0]["buttons"]
    assert play["label"] == "▶ Play" and play["args"][1]["frame"]["duration"] == SPEEDS[speed]
    assert pause["label"] == "⏸ Pause" and pause["args"][0] == [None]
    assert len(spec["layout"]["sliders"][0]["steps"]) == len(spec["frames"])


def test_demonstration_formulas_are_the_last_frame_highlighted_against_the_first():
    step = next(s for s in BY_KEY["topn"].steps if s.view == "k_sweep")
    view, first = engine.demonstration(step)
    assert view.substituted["precision_at_k"] == r"\mathrm{P@10}=\frac{3}{10}=0.3000"
    assert first["precision_at_k"] == r"\mathrm{P@1}=\frac{0}{1}=0.0000"
    assert view.values["recall_at_k"] == 0.75


# --------------------------------------------------------------------------- highlighting


def red(number: str) -> str:
    return rf"{{\textcolor{{{engine.CHANGED}}}{{{number}}}}}"


def test_highlight_colours_only_the_numbers_that_changed():
    before, after = r"\mathrm{P@10}=\frac{3}{10}=0.3000", r"\mathrm{P@4}=\frac{1}{4}=0.2500"
    assert engine.highlight(after, before) == rf"\mathrm{{P@{red('4')}}}=\frac{{{red('1')}}}{{{red('4')}}}={red('0.2500')}"
    same_k = r"\mathrm{P@10}=\frac{2}{10}=0.2000"
    assert engine.highlight(same_k, before) == rf"\mathrm{{P@10}}=\frac{{{red('2')}}}{{10}}={red('0.2000')}"


def test_highlight_leaves_identical_or_first_formulas_and_command_digits_alone():
    latex = r"\mathrm{AUC}=\frac{n_{>}+\tfrac12\,n_{=}}{P\cdot N}=\frac{13+0.5\cdot 0}{4\cdot 4}=0.8125"
    assert engine.highlight(latex, None) == latex
    assert engine.highlight(latex, latex) == latex
    changed = latex.replace("13", "16").replace("0.8125", "1.0000")
    marked = engine.highlight(changed, latex)
    assert r"\tfrac12" in marked and red("16") in marked and red("1.0000") in marked
    assert marked.count("textcolor") == 2


def test_highlight_marks_a_new_term():
    before = r"\frac{\tfrac{1}{1}+\tfrac{2}{4}}{3}=0.5000"
    after = r"\frac{\tfrac{1}{1}+\tfrac{2}{2}+\tfrac{3}{5}}{3}=0.8667"
    marked = engine.highlight(after, before)
    assert marked.startswith(r"\frac{\tfrac{1}{1}+\tfrac{2}{")
    assert red("3") in marked and red("5") in marked and red("0.8667") in marked


# --------------------------------------------------------------------------- controls and goals


def test_controls_move_an_item_set_k_values_and_the_threshold():
    ranking = {"kind": "ranking", "recommended": [1, 2, 3, 4], "ground_truth": {3: 1}, "k": 4}
    rank = Control("rank", "", item=3)
    assert engine.with_control(ranking, rank, 1)["recommended"] == [3, 1, 2, 4]
    assert engine.control_value(engine.with_control(ranking, rank, 4), rank) == 4
    assert engine.with_control(ranking, Control("k", ""), 2)["k"] == 2
    assert engine.with_control(ranking, Control("grade", "", item=9), 2)["ground_truth"] == {3: 1, 9: 2}
    assert ranking["recommended"] == [1, 2, 3, 4], "the step's own scenario is never changed"
    labels = {"kind": "labels", "y_true": [1, 0, 1], "y_score": [0.9, 0.6, 0.4], "threshold": 0.5}
    assert engine.predicted_labels(engine.with_control(labels, Control("threshold", ""), 0.65)) == [1, 0, 0]
    assert engine.predicted_labels(labels) == [1, 1, 0]
    probabilities = {"kind": "probabilities", "y_true": [1, 0], "y_prob": [0.5, 0.5]}
    assert engine.with_control(probabilities, Control("value", "", field="y_prob", index=1), 0.1)["y_prob"] == [0.5, 0.1]


def test_rank_controls_put_each_item_exactly_where_its_slider_says():
    items = [101, 102, 103, 104, 105, 106, 107]
    assert engine.placed(items, {101: 5, 104: 4}) == [102, 103, 105, 104, 101, 106, 107]
    assert engine.placed(items, {107: 1, 101: 7}) == [107, 102, 103, 104, 105, 106, 101]
    assert engine.placed(items, {101: 2, 104: 2}) == [102, 101, 104, 103, 105, 106, 107], "a clash takes the next rank"
    assert engine.placed(items, {101: 7, 104: 7}) == [102, 103, 105, 106, 107, 104, 101], "or the last free one"
    controls = (Control("rank", "", item=101), Control("rank", "", item=104), Control("k", ""))
    scenario = engine.with_controls({"kind": "ranking", "recommended": items, "ground_truth": {101: 1}, "k": 7},
                                    controls, [5, 4, 3])
    assert scenario["recommended"].index(101) == 4 and scenario["recommended"].index(104) == 3 and scenario["k"] == 3


def test_goal_conditions():
    goal = Goal("", (("a", ">=", 0.5), ("a", "==", "b")), "")
    assert engine.goal_reached(goal, {"a": 0.5, "b": 0.5})
    assert not engine.goal_reached(goal, {"a": 0.5, "b": 0.4})
    assert not engine.goal_reached(goal, {"a": 0.4, "b": 0.4})
    assert not engine.goal_reached(Goal("", (("a", "<", 1),), ""), {"a": float("nan")})
    assert engine.goal_reached(Goal("", (("a", "==", 0.2),), ""), {"a": 1 / 5})


def test_a_bad_scenario_is_rejected_by_the_metrics():
    with pytest.raises(ValueError, match="duplicate item 1"):
        engine.check_scenario({"kind": "ranking", "recommended": [1, 1], "ground_truth": {1: 1}, "k": 2})
    with pytest.raises(ValueError, match="y_true must contain only 0 and 1"):
        engine.check_scenario({"kind": "probabilities", "y_true": [2], "y_prob": [0.5]})
    with pytest.raises(ValueError, match="scenario kind"):
        engine.check_scenario({"kind": "tea leaves"})


def balanced(latex: str) -> bool:
    depth = 0
    for index, char in enumerate(latex):
        if char in "{}" and index and latex[index - 1] == "\\":
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def test_every_highlight_the_lessons_make_keeps_the_latex_well_formed():
    """Each pair of formulas a lesson compares (step after step, first and last frame, before and after)."""
    from content.lessons import LESSONS

    pairs = []
    for lesson in LESSONS:
        for index, step in enumerate(lesson.steps):
            if step.kind == "demonstrate":
                view, first = engine.demonstration(step)
                pairs += [(view.substituted[k], first.get(k)) for k in view.substituted]
                continue
            view = engine.step_view(step)
            previous = engine.previous_formulas(lesson.steps, index)
            pairs += [(view.substituted[k], previous.get(k)) for k in view.substituted]
            if step.question and step.question.kind != "value":
                shown = engine.reveal(step).shown
                pairs += [(shown[-1][1].substituted[k], shown[0][1].substituted.get(k)) for k in shown[-1][1].substituted]
    marked = [engine.highlight(latex, previous) for latex, previous in pairs]
    assert sum(r"\textcolor" in m for m in marked) >= 20, "the lessons do colour changes"
    for latex in marked:
        assert balanced(latex), latex
        wrapped = re.findall(r"\{\\textcolor\{#c62828\}\{\d+(?:\.\d+)?\}\}", latex)
        assert len(wrapped) == latex.count(r"\textcolor"), latex


def last_frame_lines(lesson: str, view: str) -> list[list[float]]:
    _, spec = demo(lesson, view)
    return [list(trace["y"]) for trace in spec["frames"][-1]["data"]]


def test_each_demonstration_shows_what_its_text_says():
    precision, recall = last_frame_lines("topn", "k_sweep")
    assert all(b >= a for a, b in zip(recall, recall[1:])), "recall can only rise as K grows"
    step = next(s for s in BY_KEY["topn"].steps if s.view == "k_sweep")
    misses = [item not in step.scenario["ground_truth"] for item in step.scenario["recommended"]]
    assert all(b < a for a, b, miss in zip(precision, precision[1:], misses[1:]) if miss and a > 0), \
        "precision falls with every miss that enters the window"
    mae, rmse = last_frame_lines("rating", "error_grows")
    gaps = [r - m for m, r in zip(mae, rmse)]
    assert all(b > a for a, b in zip(gaps[1:], gaps[2:])), "RMSE pulls away from MAE as the miss grows"
    assert np.allclose(np.diff(mae), np.diff(mae)[0]), "MAE grows in a straight line"
    accuracy, _ = last_frame_lines("classification", "accuracy_paradox")
    assert accuracy[-1] == pytest.approx(0.99) and all(b > a for a, b in zip(accuracy, accuracy[1:]))
    _, spec = demo("rr", "walk")
    rr = [float(t.rsplit("= ", 1)[1]) for t in frame_titles(spec)]
    assert rr[0] - rr[1] == pytest.approx(0.5) and rr[-1] == pytest.approx(0.1)
    log_loss, ne = last_frame_lines("logloss", "base_rate_sweep")
    assert log_loss[-1] / log_loss[0] > 10 and set(ne) == {1.0}
    step, spec = demo("auc", "roc_sweep")
    ordered = sorted(zip(step.scenario["y_score"], step.scenario["y_true"]), reverse=True)
    points = spec["frames"][-1]["data"][1]
    for (x0, y0, x1, y1), (_, label) in zip(zip(points["x"], points["y"], points["x"][1:], points["y"][1:]), ordered):
        assert (y1 > y0 and x1 == x0) if label == 1 else (x1 > x0 and y1 == y0), "a click steps up, a non-click right"
