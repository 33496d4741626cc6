"""The guided lesson "How offline evaluation lies": every number its texts state is one its views compute on
MovieLens 100K (a Claim at that value, written as the text writes it), the expected sampled metric it sweeps is
exact, its goal is reached exactly where its texts say, and it runs in a live class like the other lessons."""

from __future__ import annotations

import re

import pytest

from content.lessons import BY_KEY
from tests.conftest import texts, warm_protocol_lesson
from tests.test_page_live_class import ran, student, teacher
from ui.controllers import lesson_protocols
from ui.controllers import lessons as engine
from ui.controllers import live_class

LESSON = BY_KEY["protocols"]
STEPS = list(enumerate(LESSON.steps))
# A number as the texts write it: 0.1457, 98,186, 100; not the 10 of HR@10 nor the 100 of 100K.
NUMBER = re.compile(r"(?<![\w@.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w@])")


@pytest.fixture(scope="module", autouse=True)
def measured():
    warm_protocol_lesson()


def stated_texts(step) -> list[str]:
    """Every sentence of the step a reader sees: its text, question, options' explanations, why, goal."""
    found = [step.text]
    if step.question is not None:
        found += [step.question.prompt, step.question.why, *(option.explanation for option in step.question.options)]
    if step.goal is not None:
        found += [step.goal.text, step.goal.reached, *(control.label for control in step.controls)]
    return found


def written(value: float, like: str) -> str:
    """``value`` written as ``like`` is: as many places, thousands grouped by commas."""
    places = len(like.split(".")[1]) if "." in like else 0
    return f"{value:,.{places}f}"


@pytest.mark.parametrize(("index", "step"), STEPS, ids=[f"protocols-{i + 1}" for i, _ in STEPS])
def test_every_number_a_text_states_is_a_claim_the_views_numbers_hold(index, step):
    frames = engine.claim_frames(step)
    stated = [claim for claim in step.claims if claim.at is not None]
    for sentence in stated_texts(step):
        for token in NUMBER.findall(sentence):
            value = float(token.replace(",", ""))
            claims = [c for c in stated if c.at == value]
            assert claims, f"{token} in {sentence!r} is backed by no Claim(..., at={value})"
            for claim in claims:
                first, last = claim.frames or (0, len(frames) - 1)
                shown = frames[claim.value].iloc[first:last + 1]
                if all(written(v, token) == token for v in shown):
                    break
            else:
                raise AssertionError(f"{token} in {sentence!r}: the views compute "
                                     f"{[frames[c.value].tolist() for c in claims]}")
    assert all(engine.claim_problem(claim, frames) is None for claim in step.claims)


def test_the_stated_numbers_of_the_lesson_are_not_a_rounding_away_from_another():
    """NDCG@10 is written to 3 places: each mean the texts state lies well inside its rounding interval, so a
    machine whose floating point sums differ in the 5th place writes the same text (HR@10 is a count over 940)."""
    for _, step in STEPS:
        frames = engine.claim_frames(step)
        for claim in step.claims:
            if claim.at is not None and claim.value.startswith("ndcg_"):
                value = float(frames[claim.value].iloc[0])
                assert abs(value - claim.at) < 0.0005 - 0.0001, (claim, value)


def test_the_goal_holds_from_the_first_number_of_negatives_that_reaches_it_to_the_sliders_end():
    """The goal's last words: with fewer negatives the sample turns the pair round, with more it keeps them."""
    step = LESSON.steps[-1]
    control = step.controls[0]
    reached = [engine.goal_reached(step.goal, engine.static_view(step.view, engine.with_controls(
        step.scenario, step.controls, [n])).values)
               for n in range(int(control.minimum), int(control.maximum) + 1, int(control.step))]
    first = reached.index(True)
    assert not any(reached[:first]) and all(reached[first:])


def test_the_views_name_every_model_and_say_without_the_data_what_is_missing(monkeypatch):
    view = engine.step_view(LESSON.steps[0])
    assert view.data["model"].tolist() == ["Most popular", "Item k-NN", "EASE", "Matrix factorisation (ALS)"]
    assert "940 test users" in view.data_caption
    monkeypatch.setattr(lesson_protocols, "available", lambda: False)
    assert engine.data_missing(LESSON.steps[0]) and not engine.data_missing(BY_KEY["topn"].steps[0])


# --------------------------------------------------------------------------- in a live class


@pytest.fixture
def live_database(tmp_path, monkeypatch):
    monkeypatch.setenv("RECEVAL_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("RECEVAL_CLASSROOM_URL", raising=False)
    live_class.store.clear()
    yield
    live_class.store.clear()


def test_a_live_class_runs_the_lesson_to_a_predict_steps_reveal(live_database):
    at, code, _key = teacher()
    at.selectbox(key="live_lesson_choice_topn").set_value("protocols")
    ran(at)
    ann = student(code, "Ann")
    assert LESSON.steps[0].text in texts(ann)
    assert ann.get("plotly_chart") and [m.value for m in ann.metric] == ["0.1128", "0.1457"]
    at.button(key="live_next").click()
    ran(at)
    ran(ann)
    question = "live_answer_protocols:1"
    assert LESSON.steps[1].question.prompt in texts(ann)
    ann.radio(key=question).set_value("Matrix factorisation (ALS)")  # the full ranking's order: wrong here
    ran(ann)
    bob = student(code, "Bob")
    bob.radio(key=question).set_value("Item k-NN")
    ran(bob)
    at.button(key="live_reveal").click()
    ran(at)
    assert any(m.label == "Right" and m.value == "1 of 2" for m in at.metric)
    assert "That is the full ranking's order" in texts(at)  # the mistake, named
    for screen, right in ((ann, False), (bob, True)):
        ran(screen)
        assert ("Right." in texts(screen)) is right
        assert {"0.6181", "0.6053"} <= {m.value for m in screen.metric}  # the two sampled HR@10, revealed
    at.button(key="live_next").click()
    ran(at)
    ran(bob)
    assert LESSON.steps[2].text in texts(bob) and bob.get("plotly_chart")  # the sweep, drawn

