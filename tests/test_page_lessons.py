"""Lessons page: every lesson walked first to last and back, each predict step answered right and
wrong, each explore goal reached, and the step in the URL."""

from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from content.lessons import BY_KEY, LESSONS
from tests.conftest import ROOT, chart_specs, run_page, texts, warm_protocol_lesson
from tests.test_lessons_content import EXPLORES, PREDICTS, SOLUTIONS
from ui.controllers import lessons as engine
from ui.navigation import TOPIC_PAGES

PAGE = TOPIC_PAGES["lessons"]


def open_lesson(lesson: str | None = None, step: int | str | None = None) -> AppTest:
    """Open the lessons page first, as a link does, with the lesson and step in the URL."""
    if lesson == "protocols":
        warm_protocol_lesson()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.switch_page(PAGE)
    if lesson is not None:
        at.query_params["lesson"] = lesson
    if step is not None:
        at.query_params["step"] = str(step)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def cards(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def expected_cards(view: engine.View, keys) -> dict[str, str]:
    return {engine.label(key, view.k): f"{view.values[key]:.4f}" for key in keys}


def check_step(at: AppTest, lesson, index: int) -> None:
    """What the step at ``index`` must show, and nothing another step kind shows."""
    step = lesson.steps[index]
    assert at.query_params["lesson"] == [lesson.key] or at.query_params["lesson"] == lesson.key
    assert [h.value for h in at.subheader] == [step.title]
    assert f"**Step {index + 1} of {len(lesson.steps)}**" in texts(at)
    assert step.text in texts(at)
    assert at.button(key="lessons_back").disabled == (index == 0)
    assert len(at.latex) >= 1 and len(chart_specs(at)) >= 1, "every step shows a formula and a chart"
    sliders = [s for s in at.slider if s.key and s.key.startswith("lessons_control_")]
    assert len(sliders) == len(step.controls)
    if step.kind == "show":
        view = engine.step_view(step)
        assert cards(at) == expected_cards(view, step.focus or view.values)
        assert not at.radio and not at.get("button_group")
    elif step.kind == "demonstrate":
        view, _ = engine.demonstration(step)
        spec = chart_specs(at)[0]
        assert len(spec["frames"]) == len(view.frames)
        assert [b["label"] for b in spec["layout"]["updatemenus"][0]["buttons"]] == ["▶ Play", "⏸ Pause"]
        assert at.get("button_group")[0].key == "lessons_speed"
        assert cards(at) == expected_cards(view, step.focus or view.values)
    elif step.kind == "predict":
        assert at.radio(key=f"lessons_answer_{lesson.key}_{index}").options == [o.label for o in step.question.options]
        assert at.radio(key=f"lessons_answer_{lesson.key}_{index}").value is None
        assert not at.metric, "no number before the learner answers"
        assert "Choose an answer to reveal the numbers." in texts(at)
    else:
        assert f"**Goal:** {step.goal.text}" in texts(at)
        assert not at.success, "the goal is not reached before the learner moves"
        view = engine.step_view(step)
        assert cards(at) == expected_cards(view, step.focus or view.values)


def test_opens_on_the_first_step_of_the_first_lesson_with_a_formula_and_a_chart():
    at = open_lesson()
    assert at.title[0].value.endswith("Guided lessons")
    assert at.query_params["lesson"] in ("topn", ["topn"]) and at.query_params["step"] in ("1", ["1"])
    check_step(at, LESSONS[0], 0)
    assert cards(at) == {"Precision@10": "0.3000"}
    assert r"\mathrm{P@10}=\frac{3}{10}=0.3000" in texts(at)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_walk_every_step_forward_then_back(lesson):
    at = open_lesson(lesson.key)
    check_step(at, lesson, 0)
    for index in range(1, len(lesson.steps)):
        check_step(click(at, "lessons_next"), lesson, index)
        assert at.query_params["step"] in (str(index + 1), [str(index + 1)])
    for index in range(len(lesson.steps) - 2, -1, -1):
        check_step(click(at, "lessons_back"), lesson, index)


@pytest.mark.parametrize(("lesson", "index", "step"), PREDICTS, ids=[f"{s[0].key}-{s[1] + 1}" for s in PREDICTS])
def test_predict_accepts_the_right_answer_and_explains_a_wrong_one(lesson, index, step):
    at = open_lesson(lesson.key, index + 1)
    question = step.question
    radio = f"lessons_answer_{lesson.key}_{index}"
    right = next(o for o in question.options if o.label == question.answer)
    at.radio(key=radio).set_value(right.label).run()
    assert not at.exception
    assert [s.value for s in at.success] == [f"**Right.** {right.explanation}"]
    assert question.why in texts(at)
    result = engine.reveal(step)
    metric_keys = [question.metric] + ([question.other_metric] if question.other_metric else [])
    shown = [m.value for m in at.metric]
    assert shown == [f"{view.values[key]:.4f}" for _, view in result.shown for key in metric_keys]
    wrong = next(o for o in question.options if o.label != question.answer)
    at.radio(key=radio).set_value(wrong.label).run()
    assert not at.success
    assert [e.value for e in at.error] == [f"**Not quite.** {wrong.explanation} The answer is **{question.answer}**."]


def test_a_direction_reveal_shows_before_and_after_with_the_change_in_red():
    lesson = BY_KEY["ap"]
    at = open_lesson("ap", 2)
    at.radio(key="lessons_answer_ap_1").set_value("up").run()
    assert [m.value for m in at.metric] == ["0.6429", "0.8667"]
    assert [m.delta for m in at.metric][1] == "+0.2238"
    after = engine.highlight(engine.static_view("ap", engine.changed(lesson.steps[1].scenario, {"move": (107, 2)})).substituted["ap_at_k"],
                             engine.step_view(lesson.steps[1]).substituted["ap_at_k"])
    assert r"\textcolor{#c62828}{0.8667}" in after and after in texts(at)


@pytest.mark.parametrize(("lesson", "index", "step"), EXPLORES, ids=[f"{s[0].key}-{s[1] + 1}" for s in EXPLORES])
def test_explore_goal_is_reached_with_the_controls(lesson, index, step):
    at = open_lesson(lesson.key, index + 1)
    for number, value in enumerate(SOLUTIONS[f"{lesson.key}-{index + 1}"]):
        slider = at.slider(key=f"lessons_control_{lesson.key}_{index}_{number}")
        moved = slider.value != value
        slider.set_value(value).run()
        assert not at.exception
        assert (r"\textcolor{#c62828}" in texts(at)) == moved, "red marks exactly what the last move changed"
    assert [s.value for s in at.success] == [f"**Goal reached.** {step.goal.reached}"]


def test_last_step_offers_the_next_lesson_and_the_full_page():
    at = open_lesson("topn", 7)
    assert at.button(key="lessons_next").label == "Next lesson ▶"
    assert any(link.proto.page.endswith("2_Precision_Recall_HR_F1.py") or "Precision" in link.proto.label
               for link in at.get("page_link") if "Everything about" in link.proto.label)
    check_step(click(at, "lessons_next"), BY_KEY["ap"], 0)


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.key for lesson in LESSONS])
def test_every_topic_page_links_to_its_lesson_at_step_1(lesson):
    """The lessons link back to their topic page; each topic page offers its lesson, beside the title."""
    at = run_page(TOPIC_PAGES[lesson.topic])
    links = [link.proto for link in at.get("page_link") if link.proto.label == "Lesson"]
    assert [(link.label, link.query_string) for link in links] == [
        ("Lesson", f"lesson={lesson.key}&step=1")]
    params = parse_qs(links[0].query_string)
    check_step(open_lesson(params["lesson"][0], params["step"][0]), lesson, 0)


def test_choosing_a_lesson_starts_it_at_step_1():
    at = open_lesson("topn", 3)
    at.selectbox(key="lessons_choice").set_value("logloss").run()
    check_step(at, BY_KEY["logloss"], 0)
    assert at.query_params["lesson"] in ("logloss", ["logloss"])


@pytest.mark.parametrize(("lesson", "step", "message", "shown_lesson", "shown_step"), [
    ("<b>nope</b>", 2, "There is no lesson called “\\<b\\>nope\\<\\/b\\>”", "topn", 2),
    ("ndcg", 99, "Step “99” does not exist in this lesson (steps 1 to 7), so step 7 is shown.", "ndcg", 7),
    ("ndcg", "two", "Step “two” does not exist in this lesson (steps 1 to 7), so step 1 is shown.", "ndcg", 1),
], ids=["unknown lesson", "step too large", "step not a number"])
def test_a_bad_link_says_what_is_wrong_and_shows_a_step(lesson, step, message, shown_lesson, shown_step):
    at = open_lesson(lesson, step)
    assert any(message in w.value for w in at.warning), [w.value for w in at.warning]
    check_step(at, BY_KEY[shown_lesson], shown_step - 1)


def test_speed_control_sets_the_animation_frame_duration():
    at = open_lesson("auc", 2)
    assert chart_specs(at)[0]["layout"]["updatemenus"][0]["buttons"][0]["args"][1]["frame"]["duration"] == 800
    at.get("button_group")[0].set_value("slow").run()
    assert not at.exception
    assert chart_specs(at)[0]["layout"]["updatemenus"][0]["buttons"][0]["args"][1]["frame"]["duration"] == 1400


def test_returning_to_an_explore_step_starts_without_red():
    at = open_lesson("rr", 6)
    at.slider(key="lessons_control_rr_5_0").set_value(5).run()
    assert r"\textcolor" in texts(at)
    click(at, "lessons_back")
    click(at, "lessons_next")
    assert at.slider(key="lessons_control_rr_5_0").value == 4
    assert r"\textcolor" not in texts(at)


# --- the step link and the scenario link share one address bar ---------------------------------------

def test_the_scenario_link_keeps_the_lesson_and_step_and_a_bare_step_link_is_no_bad_scenario():
    at = open_lesson("ap", 2)
    assert not at.warning, [w.value for w in at.warning]  # ?lesson=ap&step=2 is a step link, not a broken scenario
    assert dict(at.query_params) == {"v": "1", "page": "lessons", "k": "10", "gain": "linear", "ap": "min",
                                     "lesson": "ap", "step": "2", "lang": "en"}
    click(at, "lessons_next")
    assert at.query_params["step"] == "3" and at.query_params["v"] == "1"
    shared = next(c.value for c in at.sidebar.code)
    from urllib.parse import parse_qsl, urlsplit
    assert dict(parse_qsl(urlsplit(shared).query)) == {"v": "1", "page": "lessons", "k": "10", "gain": "linear",
                                                       "ap": "min", "lang": "en", "lesson": "ap", "step": "3"}


def test_a_scenario_link_with_a_step_opens_both_even_from_the_home_address():
    from tests.test_page_practice import run_page_with_link

    at = run_page_with_link({"v": "1", "page": "lessons", "k": "4", "lesson": "rr", "step": "3"})  # opened at "/"
    assert at.title[0].value.endswith("Guided lessons")
    check_step(at, BY_KEY["rr"], 2)
    assert at.session_state["k"] == 4 and at.query_params["k"] == "4"
    assert not at.warning, [w.value for w in at.warning]


def test_a_bad_scenario_beside_a_step_is_named_and_the_step_still_opens():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.switch_page(PAGE)
    for name, value in {"v": "9", "lesson": "rr", "step": "3"}.items():
        at.query_params[name] = value
    at.run()
    assert any("This link could not be opened" in w.value and "version" in w.value for w in at.warning)
    check_step(at, BY_KEY["rr"], 2)
    assert at.query_params["v"] == "1" and at.query_params["step"] == "3"


# --------------------------------------------------------------------------- the data behind a step


def step_number(lesson_key: str, title: str) -> int:
    return next(i for i, s in enumerate(BY_KEY[lesson_key].steps) if s.title == title) + 1


def test_the_auc_pairs_step_shows_every_score_and_click_so_13_of_16_can_be_counted():
    at = open_lesson("auc", step_number("auc", "Pairs, not thresholds"))
    table = next(d.value for d in at.dataframe if "score" in d.value.columns)
    scenario = BY_KEY["auc"].steps[0].scenario
    assert table["score"].tolist() == scenario["y_score"]
    assert table["clicked"].tolist() == ["click" if y else "no click" for y in scenario["y_true"]]
    below = table["non-clicks scored below"].dropna()
    assert below.sum() == 13 and len(below) == 4
    assert "13 of 16" in texts(at)


def test_the_gauc_step_shows_user3_and_says_why_it_is_left_out():
    step = BY_KEY["auc"].steps[step_number("auc", "GAUC: AUC inside each user") - 1]
    at = open_lesson("auc", step_number("auc", "GAUC: AUC inside each user"))
    table = next(d.value for d in at.dataframe if "score" in d.value.columns)
    assert table["user"].tolist() == step.scenario["user_ids"], "every impression, user3's too"
    assert "user3" in step.text
    shown = texts(at)
    assert "Left out of GAUC: user3" in shown and "no non-click" in shown


def test_the_map_step_shows_each_users_list_and_relevant_items():
    at = open_lesson("ap", step_number("ap", "MAP: the mean over users"))
    # The step's data table, not the users chart's (its own table, in the expander under the chart, comes first).
    table = next(d.value for d in at.dataframe if "user" in d.value.columns and "relevant" in d.value.columns)
    assert table["user"].tolist() == ["alice", "bob", "carol"]
    assert table["top 5 (✓ relevant)"].tolist()[0] == "101 ✓, 102, 103, 104 ✓, 105"
    assert table["relevant"].tolist() == ["101, 104", "203", "399"]
