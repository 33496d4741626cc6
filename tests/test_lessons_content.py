"""The lesson data: every step has text, a scenario that parses, a known view, and questions and goals
whose answers the metrics agree with."""

import re

import pytest

from content.lessons import LESSONS
from content.lessons.schema import CLAIM_DIRECTIONS, QUESTION_KINDS, STEP_KINDS, Claim
from ui.controllers import lessons as engine
from tests.conftest import ROOT
from ui.navigation import TOPIC_PAGES

STEPS = [(lesson, index, step) for lesson in LESSONS for index, step in enumerate(lesson.steps)]
STEP_IDS = [f"{lesson.key}-{index + 1}" for lesson, index, _ in STEPS]
PREDICTS = [s for s in STEPS if s[2].kind == "predict"]
EXPLORES = [s for s in STEPS if s[2].kind == "explore"]

# One way to reach each explore step's goal: the value of each of its controls.
SOLUTIONS = {
    "topn-7": [4],
    "ap-7": [2, 3],
    "rr-6": [5],
    "ndcg-4": [5, 4, 7],
    "ndcg-7": [2, 3],
    "rating-6": [4.0, 1.0],
    "classification-6": [0.65],
    "auc-7": [0.75, 0.75],
    "logloss-7": [0.9, 0.85, 0.25],
    "protocols-7": [110],
}


def sentences(text: str) -> int:
    return len(re.findall(r"[.!?](?:\s|$)", text.strip())) or 1


def test_one_lesson_per_topic_in_the_order_of_the_sidebar():
    assert [lesson.key for lesson in LESSONS] == ["topn", "ap", "rr", "ndcg", "rating", "classification", "auc", "logloss",
                                                  "protocols", "logged"]
    assert all(lesson.topic in TOPIC_PAGES for lesson in LESSONS)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_each_lesson_has_5_to_8_steps_and_all_three_moves(lesson):
    assert 5 <= len(lesson.steps) <= 8
    kinds = {step.kind for step in lesson.steps}
    if lesson.key == "logged":  # the presets' logs are fixed: nothing animates and no control changes them (yet)
        assert "predict" in kinds, kinds
    else:
        assert {"demonstrate", "predict", "explore"} <= kinds, kinds
        assert lesson.steps[-1].kind == "explore", "a lesson ends by handing over the controls"
    assert len({step.title for step in lesson.steps}) == len(lesson.steps)


@pytest.mark.parametrize(("lesson", "index", "step"), STEPS, ids=STEP_IDS)
def test_every_step_has_text_a_scenario_that_parses_and_a_known_view(lesson, index, step):
    assert step.title.strip() and step.text.strip()
    assert sentences(step.text) <= 3, f"one idea in one to three sentences: {step.text!r}"
    assert step.kind in STEP_KINDS
    assert step.view in engine.VIEW_KINDS
    engine.check_scenario(step.scenario)
    animated = step.view in engine.ANIMATED_VIEWS
    assert animated == (step.kind == "demonstrate"), "demonstrate steps, and only they, animate"
    view = engine.demonstration(step)[0] if animated else engine.step_view(step)
    assert set(step.focus) <= set(view.values), (step.focus, list(view.values))
    assert any(key in view.general for key in step.focus or view.values), "every step shows a formula"
    assert (step.question is not None) == (step.kind == "predict")
    assert (step.goal is not None) == (step.kind == "explore") == bool(step.controls)


@pytest.mark.parametrize(("lesson", "index", "step"), PREDICTS, ids=[f"{s[0].key}-{s[1] + 1}" for s in PREDICTS])
def test_each_question_has_the_answer_the_metrics_give(lesson, index, step):
    question = step.question
    assert question.kind in QUESTION_KINDS
    labels = [option.label for option in question.options]
    assert len(labels) == len(set(labels)) >= 2
    assert all(option.explanation.strip() for option in question.options), "a wrong answer is explained"
    assert question.answer in labels
    assert engine.reveal(step).answer == question.answer
    assert question.why.strip() and sentences(question.why) <= 2
    engine.check_scenario(question.other or step.scenario)
    if question.change:
        engine.check_scenario(engine.changed(step.scenario, question.change))


@pytest.mark.parametrize(("lesson", "index", "step"), EXPLORES, ids=[f"{s[0].key}-{s[1] + 1}" for s in EXPLORES])
def test_each_goal_is_open_at_the_start_and_reachable_with_the_controls(lesson, index, step):
    start = engine.step_view(step).values
    assert not engine.goal_reached(step.goal, start), "the goal must need the learner's move"
    for key, _, target in step.goal.conditions:
        assert key in start and (not isinstance(target, str) or target in start)
    solution = SOLUTIONS[f"{lesson.key}-{index + 1}"]
    for control, value in zip(step.controls, solution, strict=True):
        assert control.minimum <= value <= control.maximum
    scenario = engine.with_controls(step.scenario, step.controls, solution)
    assert engine.goal_reached(step.goal, engine.static_view(step.view, scenario).values)


def test_readme_lists_every_lesson_with_its_step_count():
    page = (ROOT / "docs" / "teaching.md").read_text()  # the lesson table, once in the README
    rows = dict(re.findall(r"^\| (.+?) \| (\d+) \|$", page, flags=re.MULTILINE))
    assert {lesson.title: str(len(lesson.steps)) for lesson in LESSONS}.items() <= rows.items()


# --------------------------------------------------------------------------- claims about what moves

DIRECTIONAL = re.compile(r"\b(ris(?:e|es|ing)|rais(?:e|es)|fall(?:s|ing)?|follows?|unchanged|drops?|grows?|growing|"
                         r"shrinks?|climbs?|stays?|jumps?|creeps?|halves|lifts?|explodes?|lowers?|increases?|"
                         r"decreases?)\b", re.IGNORECASE)
CLAIMED = [s for s in STEPS if s[2].claims]


@pytest.mark.parametrize(("lesson", "index", "step"), STEPS, ids=STEP_IDS)
def test_every_step_that_says_something_moves_carries_claims(lesson, index, step):
    words = DIRECTIONAL.findall(step.text)
    assert not words or step.claims, f"{step.text!r} says {words} but states no Claim"


@pytest.mark.parametrize(("lesson", "index", "step"), CLAIMED, ids=[f"{s[0].key}-{s[1] + 1}" for s in CLAIMED])
def test_every_claim_holds_for_the_numbers_of_its_own_frames(lesson, index, step):
    frames = engine.claim_frames(step)
    problems = [(claim, engine.claim_problem(claim, frames)) for claim in step.claims]
    assert not [p for p in problems if p[1]], [p for p in problems if p[1]]
    assert all(claim.direction in CLAIM_DIRECTIONS for claim in step.claims)


def test_the_claim_check_rejects_what_the_old_texts_said():
    by_title = {step.title: step for _, _, step in STEPS}
    ap_walk, ndcg_walk = by_title["A hit climbs the list"], by_title["A hit walks down the ranks"]
    # AP step 3 once said "each step up raises its own precision term": false at 5 -> 4 (0.6 -> 0.5)
    assert engine.claim_problem(Claim("item_term", "rises"), engine.claim_frames(ap_walk))
    # NDCG step 2 once said NDCG "follows" the shrinking bar: it does not move at 1 -> 2 and 4 -> 5
    assert engine.claim_problem(Claim("ndcg_at_k", "falls"), engine.claim_frames(ndcg_walk))
    assert engine.claim_problem(Claim("no_such_value", "rises"), engine.claim_frames(ndcg_walk))
    assert engine.claim_problem(Claim("ndcg_at_k", "falls", frames=(4, 20)), engine.claim_frames(ndcg_walk))
