"""No internal name on screen: Compare shows the registry's labels, lesson controls never state a
value that goes stale, and a lesson never asks for a number its previous step has just shown."""

import re

import pytest

from content.lessons import LESSONS
from metrics.registry import BY_KEY
from tests.conftest import chart_specs, run_page, texts
from ui.controllers import lessons as engine
from ui.navigation import TOPIC_PAGES

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+(?:@\d+)?\b")
BATCH_NAMES = re.compile(r"\b(?:precision|recall|f1|hit_rate|average_precision|ndcg|reciprocal_rank)(?:@\d+)?\b")


def test_compare_shows_registry_labels_not_snake_case_metric_keys():
    at = run_page(TOPIC_PAGES["compare"])
    assert not at.exception
    table = at.dataframe[0].value
    assert {"AP@10", "RR", "Precision@10", "NDCG@10 (graded)"} <= set(table.index)
    names = " ".join(map(str, table.index)) + " " + " ".join(at.selectbox(key="compare_focus").options)
    for spec in chart_specs(at):
        names += " " + spec["layout"]["title"]["text"]
        names += " " + " ".join(str(y) for trace in spec["data"] for y in (trace.get("y") or []) if isinstance(y, str))
        names += " " + " ".join(str(x) for trace in spec["data"] for x in (trace.get("x") or []) if isinstance(x, str))
    names += texts(at)
    assert not SNAKE.findall(" ".join(map(str, table.index))), table.index
    assert not [n for n in BATCH_NAMES.findall(names) if "_" in n or "@" in n], BATCH_NAMES.findall(names)


def test_no_lesson_control_label_states_its_starting_value():
    labels = [c.label for lesson in LESSONS for step in lesson.steps for c in step.controls]
    assert labels and not [label for label in labels if re.search(r"\bnow\b|\d\.\d", label)]


VALUE_QUESTIONS = [(lesson, i) for lesson in LESSONS for i, step in enumerate(lesson.steps)
                   if step.question is not None and step.question.kind == "value" and i > 0]


@pytest.mark.parametrize(("lesson", "index"), VALUE_QUESTIONS, ids=[f"{l.key}-{i + 1}" for l, i in VALUE_QUESTIONS])
def test_a_question_never_asks_for_a_number_the_step_before_has_just_shown(lesson, index):
    step, before = lesson.steps[index], lesson.steps[index - 1]
    if before.kind == "predict":
        return  # a predict step shows no card until it is answered
    view = engine.demonstration(before)[0] if before.kind == "demonstrate" else engine.step_view(before)
    shown = {key for key in (before.focus or view.values)}
    answer = engine.step_view(step).values[step.question.metric]
    assert not (step.question.metric in shown and abs(view.values[step.question.metric] - answer) < 5e-5), \
        f"{before.title!r} shows {step.question.metric} = {answer:.4f} before {step.title!r} asks for it"


def test_the_halving_question_does_not_say_the_order_is_kept():
    step = next(s for s in next(l for l in LESSONS if l.key == "auc").steps if s.title == "Predict: halve every score")
    assert "order" not in step.text.lower()


def test_the_ndcg_compare_explanation_states_both_lists_dcg():
    step = next(s for s in next(l for l in LESSONS if l.key == "ndcg").steps if s.title == "Predict: which list is better?")
    right = next(o for o in step.question.options if o.label == step.question.answer)
    a = engine.step_view(step).values["dcg_at_k"]
    b = engine.static_view(step.view, step.question.other).values["dcg_at_k"]
    assert f"{a:.4f}" in right.explanation and f"{b:.4f}" in right.explanation
    assert len(right.explanation) < 200


def test_batch_column_names_map_to_registry_labels():
    from ui.figures.compare_charts import metric_label
    assert metric_label("average_precision@10") == "AP@10" and metric_label("reciprocal_rank") == "RR"
    assert metric_label("ndcg@5") == BY_KEY["ndcg_graded_at_k"].display_label(5)
    assert metric_label("novelty@10 (bits)") == "novelty@10 (bits)"
