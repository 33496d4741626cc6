"""Typed input becomes clean metric input, and every unusable row is named."""

import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ui.input import tables
from ui.state import ground_truth_table, recommended_table


def test_apply_edits_edits_adds_and_deletes_like_the_data_editor():
    base = recommended_table(["a", "b", "c"])
    edited = tables.apply_edits(base, {"edited_rows": {1: {"item": "B"}}, "added_rows": [{"item": "d"}],
                                       "deleted_rows": [0]})
    assert edited["item"].tolist() == ["B", "c", "d"]
    assert edited["rank"].tolist()[:2] == ["2", "3"] and pd.isna(edited["rank"].iloc[2])


def test_typing_a_rank_moves_the_item_there():
    table = recommended_table(["a", "b", "c", "d"])
    table.loc[3, "rank"] = 2
    assert tables.order_by_rank(table)["item"].tolist() == ["a", "d", "b", "c"]
    assert tables.order_by_rank(table)["rank"].tolist() == ["1", "2", "3", "4"]


def test_added_rows_without_rank_go_last():
    table = tables.apply_edits(recommended_table(["a", "b"]), {"added_rows": [{"item": "z"}]})
    assert tables.parse_recommended(table).columns["recommended"] == ["a", "b", "z"]


def test_duplicate_item_is_named_with_both_ranks_and_left_out():
    parsed = tables.parse_recommended(recommended_table(["101", "102", "103", "102"]))
    assert parsed.columns["recommended"] == ["101", "102", "103"]
    assert parsed.problems == [
        "Recommended list: item '102' appears twice, at ranks 2 and 4. An item can be recommended once, "
        "so rank 4 is left out until you rename or delete it."
    ]


def test_integer_like_items_are_read_as_text():
    table = pd.DataFrame({"rank": [1, 2], "item": [101.0, "102"]})
    assert tables.parse_recommended(table).columns["recommended"] == ["101", "102"]


@pytest.mark.parametrize(
    ("grade", "message"),
    [("abc", "the grade of item '104' is 'abc', not a number"), (-1, "the grade of item '104' is -1; grades must be 0 or more"),
     (None, "the grade of item '104' is '', not a number")],
    ids=["text", "negative", "empty"],
)
def test_bad_grade_is_named_and_left_out(grade, message):
    table = ground_truth_table({101: 1, 104: 1}).astype(object)
    table.loc[1, "grade"] = grade
    parsed = tables.parse_ground_truth(table)
    assert parsed.columns["ground_truth"] == {"101": 1.0}
    assert parsed.problems == [f"Ground truth, row 2: {message}, so that row is left out."]


def test_repeated_ground_truth_item_keeps_the_first_grade():
    table = pd.DataFrame({"item": ["a", "a"], "grade": [2, 3]})
    parsed = tables.parse_ground_truth(table)
    assert parsed.columns["ground_truth"] == {"a": 2.0} and "listed twice" in parsed.problems[0]


def test_numeric_rows_check_each_rule_and_skip_blank_rows():
    table = pd.DataFrame({"label": [1, 2, None, 0, "x"], "probability": [0.5, 0.5, None, 1.3, 0.2]})
    parsed = tables.parse_numeric_rows(table, {"label": "label", "probability": "probability"}, "Samples")
    assert parsed.columns == {"label": [1], "probability": [0.5]}
    assert parsed.problems == [
        "Samples, row 2: label is 2, not 0 or 1, so that row is left out.",
        "Samples, row 4: probability is 1.3, not a probability in [0, 1], so that row is left out.",
        "Samples, row 5: label is x, not 0 or 1, so that row is left out.",
    ]


def test_users_table_parses_lists_and_rejects_repeats():
    table = pd.DataFrame({"user": ["u1", "u2"], "recommended": ["a, b, c", "x, y, x"], "relevant": ["c", "y"]})
    parsed = tables.parse_users(table)
    assert parsed.columns == {"user": ["u1"], "recommended": [["a", "b", "c"]], "relevant": [{"c"}]}
    assert parsed.problems == ["Users, row 2 (u2): item 'x' is recommended twice (ranks 1 and 3), so that user is left out."]


def test_typing_a_lower_rank_moves_the_item_down_to_exactly_that_rank():
    table = recommended_table(["101", "102", "103", "104", "105"])
    table.loc[0, "rank"] = "5"
    assert tables.reorder_by_rank(table)["item"].tolist() == ["102", "103", "104", "105", "101"]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_typed_rank_puts_the_item_exactly_there_and_keeps_the_others_in_order(data):
    length = data.draw(st.integers(1, 30), label="length")
    items = [str(100 + i) for i in range(1, length + 1)]
    moved = data.draw(st.integers(0, length - 1), label="row")
    target = data.draw(st.integers(1, length + 3), label="typed rank")
    table = recommended_table(items)
    table.loc[moved, "rank"] = str(target)
    reordered = tables.reorder_by_rank(table)
    result = reordered["item"].tolist() if reordered is not None else items
    assert result.index(items[moved]) + 1 == min(target, length)
    assert [i for i in result if i != items[moved]] == [i for i in items if i != items[moved]]
    assert tables.parse_recommended(table).columns["recommended"] == result


TEN_THOUSAND_DIGITS = "9" * 10_000
ANY_TEXT = st.one_of(st.text(), st.text(alphabet="0123456789", min_size=4_301, max_size=4_400),
                     st.text(alphabet=" 0123456789.-e+", max_size=30))


def _refusals_name_their_row(parsed: tables.Parsed) -> None:
    for problem in parsed.problems:
        assert re.search(r"\b(row|rank|ranks) \d+", problem), problem
        assert len(problem) < 500, "a message quotes a long value shortened, not whole"


def test_a_ten_thousand_digit_rank_is_refused_with_its_row_and_the_item_stays():
    table = recommended_table(["101", "102", "103"])
    table.loc[1, "rank"] = TEN_THOUSAND_DIGITS
    assert tables.reorder_by_rank(table) is None
    parsed = tables.parse_recommended(table)
    assert parsed.columns["recommended"] == ["101", "102", "103"]
    assert len(parsed.problems) == 1 and parsed.problems[0].startswith(
        "Recommended list, row 2: the rank '9999999999999999999999999999…99999999 (10,000 characters)' is a number "
        "of 10,000 digits, too large to be a rank, so item '102' stays at rank 2.")


@settings(max_examples=80, deadline=None)
@given(text=ANY_TEXT, row=st.integers(0, 2), column=st.sampled_from(["rank", "item"]))
def test_any_text_in_a_recommended_cell_is_used_or_refused_by_row_never_an_exception(text, row, column):
    table = tables.apply_edits(recommended_table(["101", "102", "103"]), {"edited_rows": {row: {column: text}}})
    reordered = tables.reorder_by_rank(table)
    _refusals_name_their_row(tables.parse_recommended(table))
    if reordered is not None:
        _refusals_name_their_row(tables.parse_recommended(reordered))


@settings(max_examples=80, deadline=None)
@given(text=ANY_TEXT, row=st.integers(0, 2), column=st.sampled_from(["item", "grade"]))
def test_any_text_in_a_ground_truth_cell_is_used_or_refused_by_row(text, row, column):
    table = tables.apply_edits(ground_truth_table({"101": 1, "104": 2, "107": 1}), {"edited_rows": {row: {column: text}}})
    _refusals_name_their_row(tables.parse_ground_truth(table))


@settings(max_examples=80, deadline=None)
@given(text=ANY_TEXT, row=st.integers(0, 1), column=st.sampled_from(["a", "b", "c", "d", "e"]))
def test_any_text_in_a_numeric_cell_is_used_or_refused_by_row(text, row, column):
    table = pd.DataFrame({"a": ["1", "2"], "b": ["0.5", "3"], "c": ["1", "0"], "d": ["0.2", "0.9"], "e": ["x", "y"]},
                         dtype=object)
    table.at[row, column] = text
    rules = {"a": "number", "b": "grade", "c": "label", "d": "probability", "e": "text"}
    _refusals_name_their_row(tables.parse_numeric_rows(table, rules, "Scores"))


@settings(max_examples=80, deadline=None)
@given(text=ANY_TEXT, column=st.sampled_from(["user", "recommended", "relevant"]))
def test_any_text_in_a_users_cell_is_used_or_refused_by_row(text, column):
    table = pd.DataFrame({"user": ["ann"], "recommended": ["1, 2, 1"], "relevant": ["2"]}, dtype=object)  # 1 twice
    table.at[0, column] = text
    _refusals_name_their_row(tables.parse_users(table))
