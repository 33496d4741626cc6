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
            "stays at rank 7.") in texts(at)
    assert editor_key(at, "recommended") == key  # what was typed stays visible in the cell
    assert at.session_state["recommended"].at[6, "rank"] == typed


RANKING_PAGES = ["app.py", "pages/2_Precision_Recall_HR_F1.py", "pages/3_AP_and_MAP.py", "pages/4_RR_and_MRR.py",
                 "pages/5_NDCG.py"]


@pytest.mark.parametrize("path", RANKING_PAGES)
def test_k_above_a_shrunk_maximum_is_clamped_and_said(path):
    at = run_page(path)
    edit(at, "recommended", added_rows=[{"item": str(200 + i)} for i in range(11)])
    at.slider(key="_k_widget").set_value(21).run()
    assert not at.exception
    edit(at, "recommended", added_rows=[{"item": str(200 + i)} for i in range(10)] + [{"item": "101"}])
    assert at.session_state["k"] == 20 and at.slider(key="_k_widget").value == 20
    assert "K (cut-off): 21 is above the largest value allowed now (20), so it is set to 20." in texts(at)


CRAFTED = {
    "number beyond int64": ("pages/1_Rating_errors.py", "ratings", {"edited_rows": {0: {"prediction": 2**70}}}),
    "boolean in a text column": ("app.py", "recommended", {"edited_rows": {0: {"item": True}}}),
    "list in a text column": ("app.py", "ground_truth", {"added_rows": [{"item": ["a", "b"]}]}),
    "deleted row out of range": ("app.py", "ground_truth", {"deleted_rows": [99]}),
    "edited row out of range": ("pages/6_Classification_metrics.py", "labels", {"edited_rows": {"7": {"label": 1}}}),
    "unknown column": ("pages/8_LogLoss.py", "probabilities", {"edited_rows": {0: {"nope": 1}}}),
    "not an edit at all": ("pages/7_AUC_and_GAUC.py", "scores", "garbage"),
}


@pytest.mark.parametrize(("path", "table", "state"), CRAFTED.values(), ids=CRAFTED.keys())
def test_an_edit_the_app_cannot_apply_is_rejected_and_the_table_kept(path, table, state):
    at = run_page(path)
    before = at.session_state[table].copy()
    at.session_state[editor_key(at, table)] = state
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("That edit was not applied" in w.value and "keeps its last good content" in w.value for w in at.warning)
    assert at.session_state[table].equals(before)
    at.run()  # the next run is clean: the message was shown once and the editor starts from the kept table
    assert not at.exception and not any("That edit was not applied" in w.value for w in at.warning)


@pytest.mark.parametrize(("path", "state_key", "crafted", "kept"), [
    ("app.py", "gain", "cubic", "linear"), ("app.py", "ap_denominator", ["min"], "min"), ("app.py", "k", 2.5, 10),
    ("pages/8_LogLoss.py", "logloss_eps", 0.3, None), ("pages/6_Classification_metrics.py",
                                                        "classification_positive_share", "a lot", 0.05)])
def test_a_choice_the_widget_does_not_offer_is_refused_with_a_note(path, state_key, crafted, kept):
    at = run_page(path)
    kept = at.session_state[state_key] if kept is None else kept
    at.session_state[state_key] = crafted
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[state_key] == kept
    assert any("stays" in i.value for i in at.info)


EDITORS = [("app.py", "recommended", "item"), ("app.py", "ground_truth", "item"),
           ("pages/1_Rating_errors.py", "ratings", "prediction"), ("pages/3_AP_and_MAP.py", "users", "user"),
           ("pages/5_NDCG.py", "ndcg_scores", "item"), ("pages/6_Classification_metrics.py", "labels", "label"),
           ("pages/7_AUC_and_GAUC.py", "scores", "user"), ("pages/8_LogLoss.py", "probabilities", "label")]


@pytest.mark.parametrize(("path", "table", "column"), EDITORS, ids=[f"{t}@{p.split('/')[-1]}" for p, t, _ in EDITORS])
def test_every_editor_keeps_its_key_while_a_new_row_is_typed(path, table, column):
    at = run_page(path)
    key = editor_key(at, table)
    value = "new" if column in ("item", "user") else 1
    edit(at, table, added_rows=[{}])
    edit(at, table, added_rows=[{column: value}])
    assert editor_key(at, table) == key
    assert at.session_state[table][column].iloc[-1] == value
