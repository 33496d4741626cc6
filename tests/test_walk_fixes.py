"""What a newcomer's walk through the app found (issue 18), pinned with AppTest."""

from __future__ import annotations

import re

import pytest

from tests.conftest import edit, run_page
from ui.state import TOPIC_PAGES


def plain(markdown: str) -> str:
    """A message as the person reads it: without the escapes that keep typed text literal."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("\u2060", "")


def browser_label(at, key: str, held: str | None) -> str | None:
    """The label a browser's selectbox holds after this run: the one the server sent, else what it held."""
    proto = at.selectbox(key=key).proto
    return proto.raw_value if proto.set_value else held


def test_ab_picker_follows_the_item_it_moved_press_after_press():
    ab = run_page(TOPIC_PAGES["ab"])
    ab.selectbox(key="_ab_item").set_value("105").run()
    held = "rank 5: 105"  # what the person chose
    for rank in (6, 7, 8):
        ab.button(key="_ab_down").click().run()
        assert not ab.exception
        held = browser_label(ab, "_ab_item", held)
        assert held == f"rank {rank}: 105"
        assert ab.session_state["ab_b"]["item"].tolist().index("105") + 1 == rank
    assert ab.selectbox(key="_ab_item").value == "105"
    assert ab.session_state["ab_b"]["item"].tolist() == ["101", "102", "103", "104", "106", "107", "108", "105", "109", "110"]


def test_ab_swap_picker_follows_the_item_it_swapped():
    ab = run_page(TOPIC_PAGES["ab"])
    ab.selectbox(key="_ab_item").set_value("105").run()
    ab.selectbox(key="_ab_swap").set_value("107").run()
    ab.button(key="_ab_do_swap").click().run()
    assert ab.session_state["ab_b"]["item"].tolist()[4:7] == ["107", "106", "105"]
    assert browser_label(ab, "_ab_item", "rank 5: 105") == "rank 7: 105"
    assert browser_label(ab, "_ab_swap", "rank 7: 107") == "rank 5: 107"


def lesson_step(lesson: str, step: int):
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ROOT
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.switch_page(TOPIC_PAGES["lessons"])
    at.query_params["lesson"], at.query_params["step"] = lesson, str(step)
    at.run()
    assert not at.exception
    return at


def notes(at) -> list[str]:
    return [i.value for i in at.info if not i.value.startswith("**Goal:**")]


def rank_sliders(at, lesson: str, index: int) -> list:
    return [s.value for s in at.slider if s.key and s.key.startswith(f"lessons_control_{lesson}_{index}_")]


def test_ap_lesson_two_rank_sliders_never_show_one_rank_and_say_who_made_room():
    from metrics.ranked_metrics import average_precision_at_k
    at = lesson_step("ap", 7)
    at.slider(key="lessons_control_ap_6_0").set_value(2).run()  # 104 to rank 2
    at.slider(key="lessons_control_ap_6_1").set_value(2).run()  # 107 to rank 2 as well
    assert not at.exception
    assert rank_sliders(at, "ap", 6) == [7, 2]  # 104 took 107's old rank
    assert notes(at) == ["104 moved to rank 7 to make room for 107."]
    order = [101, 107, 102, 103, 105, 106, 104, 108, 109, 110]
    expected = average_precision_at_k(order, {101: 1, 104: 1, 107: 1}, 10)
    assert [m.value for m in at.metric] == [f"{expected:.4f}"]
    at.slider(key="lessons_control_ap_6_0").set_value(3).run()  # an ordinary move: no note
    assert rank_sliders(at, "ap", 6) == [3, 2] and not notes(at)


def test_ndcg_lesson_a_move_onto_another_hit_swaps_them_instead_of_changing_nothing_visible():
    from metrics.ndcg import ndcg_at_k
    at = lesson_step("ndcg", 4)
    assert rank_sliders(at, "ndcg", 3) == [1, 4, 7]
    at.slider(key="lessons_control_ndcg_3_1").set_value(1).run()  # 104 onto 101's rank
    assert not at.exception
    assert rank_sliders(at, "ndcg", 3) == [4, 1, 7]
    assert notes(at) == ["101 moved to rank 4 to make room for 104."]
    order = [104, 102, 103, 101, 105, 106, 107, 108, 109, 110]
    expected = ndcg_at_k(order, {101: 1, 104: 1, 107: 1}, 5)
    assert f"{expected:.4f}" in [m.value for m in at.metric]


def test_rank_sliders_sent_onto_one_rank_at_once_show_where_the_items_really_are():
    from ui.controllers import lessons as engine
    from content.lessons import BY_KEY
    step = BY_KEY["ap"].steps[6]
    values, notes = engine.make_room(step.scenario, step.controls, [2, 2], None)
    assert values == [2, 3] and notes == ["107 moved to rank 3: rank 2 is taken."]
    assert engine.make_room(step.scenario, step.controls, [2, 5], [4, 7]) == ([2, 5], [])


RANKING_PAGES = ["home", "topn", "ap", "rr", "ndcg", "ab", "random", "lens"]


@pytest.mark.parametrize("name", RANKING_PAGES)
def test_a_ten_thousand_digit_rank_is_refused_by_row_on_every_ranking_page(name):
    at = run_page(TOPIC_PAGES[name])
    table = "ab_b" if name == "ab" else "recommended"
    before = at.session_state[table]["item"].tolist()
    edit(at, table, edited_rows={0: {"rank": "9" * 10_000}})
    at.run()  # and on the rerun after it
    assert not at.exception
    warned = [plain(w.value) for w in at.warning if "Recommended list, row 1: the rank '99" in plain(w.value)]
    assert len(warned) == 1 and "is a number of 10,000 digits, too large to be a rank" in warned[0]
    assert len(warned[0]) < 1_000
    assert at.session_state[table]["item"].tolist() == before


@pytest.mark.parametrize(("name", "table"), [("rating", "ratings"), ("ndcg", "ndcg_scores"),
                                             ("classification", "labels"), ("auc", "scores"),
                                             ("logloss", "probabilities")])
def test_long_text_in_every_cell_of_a_numbers_table_is_refused_by_row_in_a_short_message(name, table):
    at = run_page(TOPIC_PAGES[name])
    columns = list(at.session_state[table].columns)
    edit(at, table, edited_rows={0: {column: "9" * 10_000 + "x" for column in columns}})
    assert not at.exception
    warned = [plain(w.value) for w in at.warning if ", row 1: " in plain(w.value)]
    assert len(warned) == 1 and "(10,001 characters)" in warned[0] and len(warned[0]) < 1_500


def send_from_browser(at, key: str, value: str):
    """Run with the browser sending ``value`` for the selectbox or radio ``key``, as a crafted client can."""
    widget = next(w for w in list(at.selectbox) + list(at.radio) if w.key == key)
    states = at._tree.get_widget_states()
    sent = next(w for w in states.widgets if w.id == widget.id)
    sent.string_value = value
    at._run(states)
    return at


CRAFTED = [("lessons", "lessons_answer_topn_2", "Your answer"), ("ab", "_ab_item", "Item to move in B"),
           ("lens", "_lens_library_widget", "Library"), ("your_data", "yd_gain", "NDCG gain"),
           ("compare", "compare_test", "Test"), ("practice", "_challenge_choice", "Goal"),
           ("auc", "auc_gauc_weight", "Weight of each user's AUC")]


@pytest.mark.parametrize(("name", "key", "label"), CRAFTED, ids=[c[0] for c in CRAFTED])
def test_a_choice_the_browser_sends_that_is_no_option_is_refused_with_a_message(name, key, label):
    at = lesson_step("topn", 3) if name == "lessons" else run_page(TOPIC_PAGES[name])
    send_from_browser(at, key, "no such option")
    assert not at.exception
    said = [plain(n.value) for n in at.info if "no such option" in plain(n.value)]
    assert said and said[0].startswith(f"no such option is not one of the choices for {label}, so it stays ")
    at.run()
    assert not at.exception and not [n for n in at.info if "no such option" in plain(n.value)]


def test_a_refused_choice_keeps_the_last_good_one():
    ab = run_page(TOPIC_PAGES["ab"])
    ab.selectbox(key="_ab_item").set_value("105").run()
    send_from_browser(ab, "_ab_item", "rank 99: 999")
    assert ab.selectbox(key="_ab_item").value == "105"
    assert "so it stays rank 5: 105." in plain(next(n.value for n in ab.info if "rank 99" in plain(n.value)))


@pytest.mark.parametrize(("name", "state"), [("compare", {"compare_correction": "sidak"}),
                                             ("your_data", {"yd_denominator": 3}), ("lens", {"lens_library": "nope"})])
def test_a_stored_choice_no_widget_offers_is_replaced_and_said(name, state):
    at = run_page(TOPIC_PAGES[name], **state)
    value = next(iter(state.values()))
    assert any(plain(n.value).startswith(f"{value} is not one of the choices") for n in at.info)



@pytest.mark.parametrize(("name", "table", "column"), [("ap", "users", "user"), ("ndcg", "ndcg_scores", "item"),
                                                       ("ndcg", "ground_truth", "grade")])
def test_numbers_sent_into_a_text_column_are_kept_as_text_and_the_editor_keeps_working(name, table, column):
    at = run_page(TOPIC_PAGES[name])
    rows = len(at.session_state[table])
    edit(at, table, edited_rows={row: {column: float(row) + 0.5} for row in range(rows)})
    edit(at, table, deleted_rows=[99])  # then a state that restarts the editor from the stored table
    assert [w for w in at.warning if "That edit was not applied" in plain(w.value)]
    at.run()
    assert not at.exception
    assert at.session_state[table][column].tolist() == [f"{row + 0.5}" for row in range(rows)]


def test_a_stored_table_with_numbers_in_a_text_column_still_opens_in_its_editor():
    import pandas as pd
    at = run_page(TOPIC_PAGES["ndcg"], ground_truth=pd.DataFrame({"item": [101.0, 104.0], "grade": [2.0, 1.0]}))
    assert not at.exception
    from tests.conftest import card
    from metrics.ndcg import ndcg_at_k
    expected = ndcg_at_k([str(i) for i in range(101, 111)], {"101": 2, "104": 1}, 10)
    assert card(at, "NDCG@10 (graded)") == f"{expected:.4f}"
