"""Practice page, hide-the-answers, lesson links and scenario files, as a learner and a teacher use them."""

import json
import re
from fractions import Fraction
from math import log2

import numpy as np
import pytest

from teaching.practice import QUIZ_METRICS, QuizSettings, as_fraction, make_quiz
from tests.conftest import card, chart_specs, edit, latex, run_page, texts
from ui.input import scenario_link
from ui.state import TOPIC_PAGES, recommended_table

PAGE = TOPIC_PAGES["practice"]
SEED = 4  # question 1 is AP@5 = 23/48, and dividing by the hits gives another number


def quiz_page(seed: int = SEED, **changes):
    practice = {**scenario_link.PRACTICE_DEFAULTS, "seed": seed, **changes}
    return run_page(PAGE, practice=practice)


def answer(at, typed: str):
    boxes = [w for w in [*at.radio, *at.text_input] if w.label == "Your answer"]
    assert len(boxes) == 1, boxes
    boxes[0].set_value(typed)
    at.button(key="_quiz_check").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def plain(shown: str) -> str:
    """An escaped message (content.text.markdown) as the reader sees it."""
    return re.sub(r"\\(.)", r"\1", shown).replace("\u2060", "")


def score(at) -> str:
    return next(m.value for m in at.markdown if "**Score:**" in m.value).split("**Score:** ")[1]


def test_the_page_opens_with_the_seed_a_formula_and_a_chart():
    at = quiz_page()
    assert "**Quiz code:** quiz 4" in texts(at)
    assert r"\mathrm{AP@5}" in latex(at)
    assert chart_specs(at)
    assert score(at) == "0 / 0"


@pytest.mark.parametrize("typed", ["23/48", "0.4792"], ids=["fraction", "decimal"])  # 0,4792: test_i18n_practice
def test_a_right_answer_is_accepted_as_a_decimal_or_a_fraction(typed):
    question = make_quiz(QuizSettings(seed=SEED))[0]
    # hits at ranks 2, 3, 4 of the top 5, |Rel| = 4: (1/2 + 2/3 + 3/4) / 4
    assert as_fraction(QUIZ_METRICS[question.metric].compute(question.case)) == Fraction(23, 48) \
        == (Fraction(1, 2) + Fraction(2, 3) + Fraction(3, 4)) / 4
    at = answer(quiz_page(), typed)
    assert at.success and "Right" in at.success[0].value
    assert score(at) == "1 / 1"


def test_a_wrong_answer_names_the_mistake_and_the_score_is_kept():
    question = make_quiz(QuizSettings(seed=SEED))[0]
    mistaken = QUIZ_METRICS["ap_at_k"].mistakes(question.case)
    value = next(v for name, v in mistaken.items() if name.startswith("AP divided by the hits"))
    at = answer(quiz_page(), f"{value:.4f}")
    assert "AP divided by the hits in the top K" in plain(at.error[0].value) and "23/48" in plain(at.error[0].value)
    assert score(at) == "0 / 1"
    at.button(key="_quiz_next").click().run()
    second = make_quiz(QuizSettings(seed=SEED))[1]
    answer(at, next(iter(second.right_options)))
    assert score(at) == "1 / 2"


def test_a_typo_is_not_scored_and_can_be_answered_again():
    at = answer(quiz_page(), "abc")
    assert "is not a number" in at.error[0].value
    assert score(at) == "0 / 0"
    answer(at, "23/48")
    assert score(at) == "1 / 1"


def test_the_summary_lists_the_missed_metrics():
    at = quiz_page()
    quiz = make_quiz(QuizSettings(seed=SEED))
    for index, question in enumerate(quiz):
        if question.options:
            answer(at, next(o for o in question.options if o not in question.right_options))
        else:
            answer(at, "12345")
        at.button(key="_quiz_next").click().run()
    assert "Quiz finished" in [s.value for s in at.subheader]
    missed = list(dict.fromkeys(q.label for q in quiz))
    assert "Metrics to practise again: " + ", ".join(f"**{m}**" for m in missed) in texts(at)
    next(b for b in at.button if b.label == "Start this quiz again").click().run()
    assert score(at) == "0 / 0" and at.subheader[0].value == "Question 1 of 6"
    assert next(t for t in at.text_input if t.label == "Your answer").value == ""


# --- hide the answers, on the playground --------------------------------------------------------------

def hide(at):
    at.toggle(key="_hide_answers_widget").set_value(True).run()
    assert not at.exception
    return at


def check_answer(at, group: str, metric: str, typed: str):
    at.selectbox(key=f"_practice_{group}_metric").set_value(metric)
    at.text_input(key=f"_practice_{group}_answer").input(typed)
    at.button(key=f"_practice_{group}_check").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_hide_the_answers_hides_cards_and_numbers_until_a_check(home):
    hide(home)
    assert not home.metric
    assert scenario_link.VERSION and "hidden: check your own answer first" in latex(home)
    check_answer(home, "home", "ap_at_k", "9/14")
    assert card(home, "AP@10") == "0.6429"
    assert "Right: 0.6429 (= 9/14)" in plain(home.success[0].value)
    edit(home, "recommended", edited_rows={6: {"rank": 2}})  # a new scenario hides the answers again
    assert not home.metric


def test_hide_the_answers_names_the_mistake_on_the_graded_seed():
    graded = scenario_link.from_query({"v": "1", "ground_truth": "101:5,104:4,107:3,999:5"})
    at = run_page("app.py", ground_truth=graded["ground_truth"])
    hide(at)
    exponential = (31 + 15 / log2(5) + 7 / log2(8)) / (31 + 31 / log2(3) + 15 / log2(4) + 7 / log2(5))
    check_answer(at, "home", "ndcg_graded_at_k", f"{exponential:.4f}")
    assert "exponential gain" in at.error[0].value
    assert card(at, "NDCG@10 (graded)") == "0.6747"


# --- goal challenges ---------------------------------------------------------------------------------

def test_a_goal_challenge_is_recognised_as_met_while_editing():
    at = quiz_page()
    at.radio(key="_challenge_choice").set_value("ndcg_two_swaps").run()
    at.button(key="_challenge_start").click().run()
    assert "Not yet 0.9" in texts(at)
    # two swaps typed into the item column: ranks 1 <-> 3 and 2 <-> 6
    edit(at, "recommended", edited_rows={0: {"item": "103"}, 2: {"item": "101"}, 1: {"item": "106"}, 5: {"item": "102"}})
    # 103 (grade 3), 106 (2), 101 (1) at ranks 1-3; ideal adds 108 (1) at rank 4
    ndcg = (3 + 2 / log2(3) + 1 / 2) / (3 + 2 / log2(3) + 1 / 2 + 1 / log2(5))
    met = [s.value for s in at.success]
    assert f"Goal met: NDCG@5 = {ndcg:.4f} after 2 swaps." in met, met


# --- lesson links and files --------------------------------------------------------------------------

def test_a_lesson_link_opens_its_scenario_and_the_address_bar_follows_edits():
    at = run_page_with_link({"v": "1", "page": "home", "k": "5", "ground_truth": "101:5,104:4,107:3,999:5"})
    assert card(at, "Precision@5") == "0.4000"
    assert at.query_params["ground_truth"] == "101:5,104:4,107:3,999:5"
    at.slider(key="_k_widget").set_value(3).run()
    assert at.query_params["k"] == "3"


def run_page_with_link(params: dict, path: str = "app.py"):
    return run_page(path, query_params=params)


def test_a_tampered_link_opens_the_defaults_with_a_message():
    at = run_page_with_link({"v": "1", "k": "0", "recommended": "<img src=x onerror=alert(1)>"})
    warning = at.warning[0].value
    assert "This link could not be opened" in warning and "k must be a whole number" in warning
    assert card(at, "Precision@10") == "0.3000"
    assert at.query_params["k"] == "10"  # the address bar now holds the default scenario


def test_what_a_tampered_link_holds_is_shown_literally():
    from content import text

    typed = "**bold** [x](http://e.com) $x$"
    at = run_page_with_link({"v": "1", "gain": typed})
    warning = at.warning[0].value
    # every mark escaped, and a word joiner after "http:" so the address is not autolinked either
    assert text.markdown(typed) == r"\*\*bold\*\* \[x\]\(http\:" + "\u2060" + r"\/\/e\.com\) \$x\$"
    assert text.markdown(typed) in warning


def test_a_scenario_too_long_for_a_link_offers_the_file():
    items = [f"{x:x}" for x in np.random.default_rng(0).integers(0, 2**62, size=3000)]
    at = run_page(PAGE, recommended=recommended_table(items))  # the practice page leaves the list alone
    assert "too long for a link" in at.sidebar.warning[0].value
    assert not at.sidebar.code and set(at.query_params) <= {"lang"}  # the address keeps only the language
    assert at.sidebar.get("download_button")


def test_an_upload_replaces_the_scenario_and_a_bad_one_leaves_it_untouched(home):
    edit(home, "recommended", edited_rows={6: {"rank": 2}})
    before = scenario_link.to_json_bytes(collect(home))
    uploader = home.sidebar.get("file_uploader")[0]
    bad = json.loads(before)
    bad["tables"]["labels"]["rows"] = [[0, "yes"]]
    uploader.set_value(("lesson.json", json.dumps(bad).encode(), "application/json"))
    home.run()
    assert "lesson.json was not opened; your scenario is unchanged" in home.error[0].value.replace("\\", "")
    assert "holds 'yes'" in home.error[0].value.replace("\\", "")
    assert scenario_link.to_json_bytes(collect(home)) == before
    good = scenario_link.to_json_bytes({**collect(home), "k": 4})
    home.sidebar.get("file_uploader")[0].set_value(("lesson.json", good, "application/json"))
    home.run()
    assert not home.exception
    assert card(home, "AP@4") == f"{(1 + 2 / 2) / 3:.4f}"


def collect(at) -> dict:
    state = at.session_state
    scenario = {name: state[name] for name in scenario_link.TABLES}
    for key in ("k", "gain", "ap_denominator", "loaded_example", "rating_demo", "practice"):
        scenario[key] = state[key]
    scenario["page"] = "home"
    return scenario


GRADED_SEED_LINK = "v=1&page=ndcg&k=10&gain=linear&ap=min&example=ndcg_graded&ground_truth=101:5,104:4,107:3,999:5"


def test_the_graded_seed_lesson_link_opens_the_ndcg_page_with_the_example():
    from urllib.parse import parse_qsl

    at = run_page_with_link(dict(parse_qsl(GRADED_SEED_LINK)), "app.py")  # opened at "/", it moves to its page
    assert at.title[0].value.endswith("NDCG")
    assert card(at, "NDCG@10 (graded)") == f"{(5 + 4 / log2(5) + 3 / log2(8)) / (5 + 5 / log2(3) + 2 + 3 / log2(5)):.4f}"
    assert "**Loaded example:**" in texts(at)


def test_loading_the_graded_seed_example_puts_that_link_in_the_address_bar():
    from urllib.parse import parse_qsl

    from ui.state import ground_truth_table

    at = run_page(TOPIC_PAGES["ndcg"], ground_truth=ground_truth_table({101: 5, 104: 4, 107: 3, 999: 5}),
                  loaded_example="ndcg_graded")
    assert dict(at.query_params) == {**dict(parse_qsl(GRADED_SEED_LINK)), "lang": "en"}


@pytest.mark.parametrize("topic", ["ap", "ndcg", "classification"])
def test_hide_the_answers_hides_every_card_group_of_other_pages(topic):
    at = run_page(TOPIC_PAGES[topic], practice={**scenario_link.PRACTICE_DEFAULTS, "hide_answers": True})
    assert not at.metric
    forms = [m.value for m in at.markdown if "Answers hidden" in m.value]
    assert forms and "press **Check**" in forms[0] and all("here too" in f for f in forms[1:])
    assert "With your numbers" not in texts(at) or "hidden: check your own answer first" in latex(at)



@pytest.mark.parametrize("topic", ["home", "ap", "rating", "classification", "auc", "logloss", "ndcg"])
def test_a_rerun_without_an_edit_keeps_the_short_default_link(topic):
    # Editors hold object columns once edited; a rerun alone must not change the scenario or its link.
    at = run_page(TOPIC_PAGES[topic])
    first = dict(at.query_params)
    at.run()
    assert dict(at.query_params) == first == {"v": "1", "page": topic, "k": "10", "gain": "linear", "ap": "min",
                                                "lang": "en"}


def test_a_typed_rank_keeps_the_table_and_its_link_the_same_on_the_next_run(home):
    edit(home, "recommended", edited_rows={6: {"rank": 2}})
    link = dict(home.query_params)
    assert link["recommended"] == "101,107,102,103,104,105,106,108,109,110"
    home.run()
    assert dict(home.query_params) == link


def test_a_file_with_numbers_in_text_columns_opens_them_as_text(home):
    # JSON allows 1 where the app keeps "1" (files saved before ranks became text did): the Rank and
    # Item editors are text columns, which cannot edit a number, so the page would fail.
    document = json.loads(scenario_link.to_json_bytes(collect(home)))
    document["tables"]["recommended"]["rows"] = [[1, 104], [2, 101], [3.0, 102]]
    document["tables"]["ground_truth"]["rows"] = [[101, 1], [104, 2]]
    home.sidebar.get("file_uploader")[0].set_value(("old.json", json.dumps(document).encode(), "application/json"))
    home.run()
    assert not home.exception, [e.value for e in home.exception]
    assert home.session_state["recommended"].values.tolist() == [["1", "104"], ["2", "101"], ["3", "102"]]
    assert home.session_state["ground_truth"].values.tolist() == [["101", "1"], ["104", "2"]]
    assert card(home, "AP@10") == f"{(1 + 2 / 2) / 2:.4f}"


def test_the_answer_box_states_the_precision_asked_and_quotes_the_answer_as_typed():
    at = quiz_page()
    assert "at least 3 decimals" in texts(at)
    at = answer(at, "0.479")  # 23/48 = 0.47917: right to 3 decimals
    assert at.success and "0.479 is" in plain(at.success[0].value) and score(at) == "1 / 1"
    at = answer(quiz_page(), "**0.9**")
    shown = at.error[0].value
    assert r"\*\*0\.9\*\*" in shown, "what was typed is escaped, so it shows literally"


def test_the_answer_box_is_a_form_so_enter_checks_the_answer():
    at = quiz_page()
    assert at.get("form"), "Enter in a form's text box submits it"
    box = next(t for t in at.text_input if t.label == "Your answer")
    assert box.form_id


def test_a_wrong_swap_answer_shows_the_worked_solution_with_the_choice_marked():
    at = quiz_page(seed=1)
    quiz = make_quiz(QuizSettings(seed=1))
    for question in quiz[:2]:
        answer(at, "12345" if not question.options else next(iter(question.right_options)))
        at.button(key="_quiz_next").click().run()
    swap = quiz[2]
    chosen = next(o for o in swap.options if o not in swap.right_options)
    answer(at, chosen)
    offered = next(d.value for d in at.dataframe if "swap" in d.value.columns)
    assert offered.set_index("swap").loc[chosen, ""] == "your choice"
    assert "This step went wrong" in texts(at) and "After the best swap" in plain(texts(at))


def test_the_ndcg_top_k_ideal_mistake_is_named_and_its_idcg_step_marked_on_screen():
    from teaching import mistakes
    question = make_quiz(QuizSettings(seed=19))[0]  # NDCG@5 = 0.3066; the ideal of the top 5 only gives 0.5
    assert question.metric == "ndcg_at_k"
    c = question.case
    slip = mistakes.ndcg_ideal_from_top_k(c.recommended, c.ground_truth, c.k)
    at = answer(quiz_page(seed=19), f"{slip:.4f}")
    assert "top K = 5 of the list only" in plain(at.error[0].value)
    marked = next(m.value for m in at.markdown if "This step went wrong" in m.value)
    assert "IDCG@5" in plain(marked)


def test_a_data_question_shows_its_data_and_formula_and_a_wrong_answer_its_pairs():
    at = quiz_page(seed=1)
    quiz = make_quiz(QuizSettings(seed=1))
    index = next(i for i, q in enumerate(quiz) if q.kind == "data")
    for _ in range(index):
        answer(at, "12345" if not quiz[_].options else next(iter(quiz[_].right_options)))
        at.button(key="_quiz_next").click().run()
    question = quiz[index]
    assert question.metric == "gauc"
    shown = next(d.value for d in at.dataframe if "score" in d.value.columns)
    assert shown["score"].tolist() == list(question.case.y_score) and "user" in shown.columns
    assert r"\mathrm{GAUC}" in latex(at)
    answer(at, "12345")
    per_user = next(d.value for d in at.dataframe if "AUC" in d.value.columns)
    assert per_user["user"].tolist() == list(dict.fromkeys(question.case.user_ids))


def test_a_two_list_question_shows_every_rank_of_both_lists_in_one_table():
    at = quiz_page(seed=1, length=12)
    quiz = make_quiz(QuizSettings(seed=1, length=12))
    assert quiz[1].kind == "compare"
    answer(at, "12345")
    at.button(key="_quiz_next").click().run()
    both = next(d.value for d in at.dataframe if "list B" in d.value.columns)
    assert len(both) == 12 and both["list B"].iloc[-1].startswith(str(quiz[1].other.recommended[-1]))


def test_halfway_through_a_typed_swap_the_challenge_says_how_to_finish():
    at = quiz_page()
    at.radio(key="_challenge_choice").set_value("ndcg_two_swaps").run()
    at.button(key="_challenge_start").click().run()
    edit(at, "recommended", edited_rows={0: {"item": "103"}})
    shown = [i.value for i in at.info]
    assert any("Halfway through a swap: 101 is missing" in s for s in shown), shown
    assert not any("Only reorder" in s for s in shown)
