"""The guided lesson "What the log did not show": every number its texts state is one the Logged feedback page's
presets compute (a Claim at that value, written as the text writes it), its views are the page's charts on the
page's once-per-process numbers, and it runs in a live class like the other lessons."""

from __future__ import annotations

import pytest

from content.lessons import BY_KEY
from offpolicy import presets
from tests.conftest import texts
from tests.test_lesson_protocols import NUMBER, live_database, stated_texts, written  # noqa: F401 (a fixture)
from tests.test_page_live_class import ran, student, teacher
from ui.controllers import lesson_offpolicy
from ui.controllers import lessons as engine

LESSON = BY_KEY["logged"]
STEPS = list(enumerate(LESSON.steps))


@pytest.mark.parametrize(("index", "step"), STEPS, ids=[f"logged-{i + 1}" for i, _ in STEPS])
def test_every_number_a_text_states_is_a_claim_the_presets_hold(index, step):
    frames = engine.claim_frames(step)
    stated = [claim for claim in step.claims if claim.at is not None]
    for sentence in stated_texts(step):
        for token in NUMBER.findall(sentence):
            value = float(token.replace(",", ""))
            claims = [c for c in stated if c.at == value]
            assert claims, f"{token} in {sentence!r} is backed by no Claim(..., at={value})"
            if not any(all(written(v, token) == token for v in frames[c.value]) for c in claims):
                raise AssertionError(f"{token} in {sentence!r}: the presets compute "
                                     f"{[frames[c.value].tolist() for c in claims]}")
    assert all(engine.claim_problem(claim, frames) is None for claim in step.claims)


def test_every_step_names_an_offpolicy_preset_and_each_preset_is_computed_once_and_shared():
    assert {step.scenario["preset"] for step in LESSON.steps} == set(presets.PRESETS)
    first = presets.measured("clipping")
    assert presets.measured("clipping") is first  # the page's _preset reads the same object
    from ui.controllers import logged_feedback
    assert logged_feedback._preset("clipping") is first


def test_the_predict_steps_ask_what_the_presets_answer():
    answers = [step.question.answer for step in LESSON.steps if step.question]
    assert answers == ["Right on average, but a larger RMSE", "A larger bias, a smaller standard deviation",
                       "Both poor"]
    assert all(engine.reveal(step).answer == step.question.answer for step in LESSON.steps if step.question)


def test_the_views_are_the_pages_charts_and_a_predict_step_hides_its_answer():
    view = engine.step_view(LESSON.steps[2])
    assert len(view.figure.data) == 3  # bias, standard deviation and RMSE over τ: the page's clipping chart
    hidden = engine.puzzle_figure(LESSON.steps[2].scenario)
    assert [len(trace.x) for trace in hidden.data] == [1, 1]  # unclipped IPS alone
    assert engine.needs_data(LESSON.steps[0]) and not engine.needs_data(BY_KEY["topn"].steps[0])
    with pytest.raises(ValueError):
        lesson_offpolicy.check({"kind": "offpolicy", "preset": "nothing"})


def test_a_live_class_runs_the_lesson_to_a_predict_steps_reveal(live_database):
    at, code, _key = teacher()
    at.selectbox(key="live_lesson_choice_topn").set_value("logged")
    ran(at)
    ann = student(code, "Ann")
    assert LESSON.steps[0].text in texts(ann) and ann.get("plotly_chart")
    at.button(key="live_next").click()
    ran(at)
    ran(ann)
    question = "live_answer_logged:1"
    assert LESSON.steps[1].question.prompt in texts(ann)
    ann.radio(key=question).set_value("Right on average, and a smaller RMSE")
    ran(ann)
    bob = student(code, "Bob")
    bob.radio(key=question).set_value("Right on average, but a larger RMSE")
    ran(bob)
    at.button(key="live_reveal").click()
    ran(at)
    assert any(m.label == "Right" and m.value == "1 of 2" for m in at.metric)
    for screen, right in ((ann, False), (bob, True)):
        ran(screen)
        assert ("Right." in texts(screen)) is right
        assert "0.2429" in {m.value for m in screen.metric}  # IPS's RMSE with the cold logger, revealed
