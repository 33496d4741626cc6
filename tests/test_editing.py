"""The editors keep what was typed: a stable editor across its own edits, rank typos named, bad states rejected."""

import pytest

from tests.conftest import card, edit, editor_key, run_page, texts


def test_adding_a_row_keeps_the_editor_and_the_typed_cells():
    at = run_page("app.py")
    key = editor_key(at, "ground_truth")
    edit(at, "ground_truth", added_rows=[{}])
    edit(at, "ground_truth", added_rows=[{"item": "999"}])
    edit(at, "ground_truth", added_rows=[{"item": "999", "grade": "2"}])
    assert editor_key(at, "ground_truth") == key  # the same grid, so the browser keeps the cursor
    assert at.session_state["ground_truth"].values.tolist()[-1] == ["999", "2"]
    assert card(at, "NDCG@10 (graded)") == "0.4953"


def test_a_new_row_without_an_item_stays_put_and_is_not_a_mistake():
    at = run_page("app.py")
    key = editor_key(at, "recommended")
    edit(at, "recommended", added_rows=[{"rank": "1"}])
    assert editor_key(at, "recommended") == key
    assert "Recommended list, rank 11: the item name is empty" in texts(at)  # said, not moved
    edit(at, "recommended", added_rows=[{"rank": "1", "item": "999"}])
    assert editor_key(at, "recommended") != key  # the order really changed: the editor starts again
    assert at.session_state["recommended"]["item"].tolist()[:2] == ["999", "101"]
    assert at.session_state["recommended"]["rank"].tolist()[:2] == ["1", "2"]


def test_a_rank_that_moves_an_item_re_sorts_the_editor():
    at = run_page("pages/3_AP_and_MAP.py")
    key = editor_key(at, "recommended")
    edit(at, "recommended", edited_rows={6: {"rank": "2"}})
    assert editor_key(at, "recommended") != key
    assert at.data_editor(key=editor_key(at, "recommended")).value["item"].tolist()[:3] == ["101", "107", "102"]
    assert card(at, "AP@10") == "0.8667"


@pytest.mark.parametrize("typed", ["abc", "-3", "2.5", "1e1", "0", "٣"])
def test_a_rank_typo_leaves_the_item_in_place_and_names_row_and_value(typed):
    at = run_page("pages/3_AP_and_MAP.py")
    key = editor_key(at, "recommended")
    edit(at, "recommended", edited_rows={6: {"rank": typed}})
    assert card(at, "AP@10") == "0.6429"
    assert (f"Recommended list, row 7: the rank '{typed}' is not a whole number 1 or more, so item '107' "
            "stays at rank 7.") in "\n".join(w.value for w in at.warning).replace("\\", "")
    assert editor_key(at, "recommended") == key  # what was typed stays visible in the cell
    assert at.session_state["recommended"].at[6, "rank"] == typed
