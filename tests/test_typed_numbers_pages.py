"""Numbers typed into each page's editor and number box, and numbers shown, in the page's language (issue 31).

The editors' number columns are text read by content.numbers in the page's language: the grid's own
number cells read with the browser's locale (3,5 became 35, 0,9 became 9) and showed a point in Turkish.
"""

from __future__ import annotations

import pyarrow as pa
import pytest

from content import i18n
from content import worked as worked_words
from teaching import worked
from metrics.registry import RankingCase
from tests.conftest import card, edit, editor_key, run_page, texts


def shown_cells(element) -> list[list[str]]:
    """A read-only table's cells as the browser shows them (its Styler's display values, else its data)."""
    arrow = element.proto.arrow_data
    if arrow.HasField("styler"):
        return pa.ipc.open_stream(arrow.styler.display_values).read_pandas().astype(str).values.tolist()
    return element.value.astype(str).values.tolist()


def editor_cells(at, table: str, column: str) -> list:
    return at.data_editor(key=editor_key(at, table)).value[column].tolist()


# (page, table, column, row, typed in Turkish, the card and its value then)
EDITORS = [
    ("pages/1_Rating_errors.py", "ratings", "prediction", 0, "4,5", "MAE", "0,7000"),
    ("pages/8_LogLoss.py", "probabilities", "probability", 0, "0,9", None, None),
    ("pages/7_AUC_and_GAUC.py", "scores", "score", 0, "0,05", None, None),
    ("pages/6_Classification_metrics.py", "labels", "predicted", 0, "1,0", None, None),
    ("pages/5_NDCG.py", "ndcg_scores", "score", 0, "0,5", None, None),
]


@pytest.mark.parametrize(("path", "table", "column", "row", "typed", "label", "value"), EDITORS,
                         ids=[e[1] for e in EDITORS])
def test_a_turkish_decimal_comma_is_read_in_every_editor(path, table, column, row, typed, label, value):
    at = run_page(path, query_params={"lang": "tr"})
    assert not any("." in str(v) for v in editor_cells(at, table, column)), "a point shown in a Turkish cell"
    edit(at, table, edited_rows={row: {column: typed}})
    assert at.session_state[table].at[row, column] == float(typed.replace(",", "."))
    assert "bırakıldı" not in texts(at), texts(at)  # no row left out
    if label:
        assert card(at, label) == value


@pytest.mark.parametrize(("path", "table", "column", "row", "typed", "label", "value"), EDITORS,
                         ids=[e[1] for e in EDITORS])
def test_an_english_comma_is_refused_with_the_reason_and_kept_as_typed(path, table, column, row, typed, label,
                                                                        value):
    at = run_page(path)
    key = editor_key(at, table)
    edit(at, table, edited_rows={row: {column: typed}})
    assert f"row {row + 1}: {column}: “{typed}” has a comma: write the decimal point, as in 0.5, so that row is " \
           "left out." in texts(at)
    assert at.session_state[table].at[row, column] == typed and editor_key(at, table) == key


def test_turkish_3_5_in_the_rating_editor_is_three_and_a_half_not_35():
    at = run_page("pages/1_Rating_errors.py", query_params={"lang": "tr"})
    edit(at, "ratings", edited_rows={1: {"prediction": "3,5"}})  # 4 → 3,5 with actual 4: MAE (0,5+0,5+1+0+2)/5
    assert card(at, "MAE") == "0,8000"
    assert editor_cells(at, "ratings", "prediction")[:2] == ["3,5", "4"]


def test_turkish_0_9_in_the_logloss_editor_keeps_the_row():
    at = run_page("pages/8_LogLoss.py", query_params={"lang": "tr"})
    rows = len(at.session_state["probabilities"])
    edit(at, "probabilities", added_rows=[{"label": "1", "probability": "0,9"}])
    assert at.session_state["probabilities"].iloc[-1].tolist() == [1.0, 0.9]
    assert len(at.session_state["probabilities"]) == rows + 1 and "bırakıldı" not in texts(at)


@pytest.mark.parametrize(("lang", "typed", "readings"), [("tr", "1.234", ("1234", "1,234")),
                                                          ("en", "1,234", ("1234", "1.234"))])
def test_a_number_that_reads_two_ways_is_refused_with_both_readings(lang, typed, readings):
    at = run_page("pages/1_Rating_errors.py", query_params={"lang": lang})
    edit(at, "ratings", edited_rows={0: {"prediction": typed}})
    warning = next(w.value for w in at.warning).replace("\\", "")
    assert f"“{typed}”" in warning and all(reading in warning for reading in readings), warning


def test_a_number_typed_in_turkish_means_the_same_after_switching_to_english():
    at = run_page("pages/1_Rating_errors.py", query_params={"lang": "tr"})
    edit(at, "ratings", edited_rows={1: {"prediction": "3,5"}})
    at.query_params["lang"] = "en"
    at.run()
    assert card(at, "MAE") == "0.8000" and not at.warning
    assert editor_cells(at, "ratings", "prediction")[:2] == ["3.5", "3.5"]  # shown anew in English notation


def test_the_rating_error_table_is_in_turkish_notation():
    at = run_page("pages/1_Rating_errors.py", query_params={"lang": "tr"})
    cells = shown_cells(at.dataframe[1])  # the first is the editor
    assert cells[0] == ["3,5", "4", "-0,5", "0,5", "0,25"]


def test_the_logloss_breakdown_is_in_turkish_notation():
    at = run_page("pages/8_LogLoss.py", query_params={"lang": "tr"})
    cells = " ".join(" ".join(row) for row in shown_cells(at.dataframe[1]))  # the first is the editor
    assert "0,8" in cells and "0,2231" in cells and "0.2231" not in cells


def test_a_worked_solution_writes_its_fractions_in_turkish():
    case = RankingCase(["a", "b"], {"a": 1}, 2)
    i18n.use_resolver(lambda: "tr")
    try:
        table = worked_words.table(worked.ranking_solution("ap_at_k", case).table)
        fraction = str(table["precision@i at a hit"].iloc[0])
    finally:
        from ui import language  # reinstalls the session resolver
        i18n.use_resolver(language._session_language)
    assert fraction == "1/1 = 1,0000"


def test_the_your_data_quality_slider_and_the_rating_demo_sliders_write_turkish_decimals():
    at = run_page("pages/17_Your_data.py", query_params={"lang": "tr"})
    assert at.select_slider(key="yd_quality").options[10] == "0,50"
    at = run_page("pages/1_Rating_errors.py", query_params={"lang": "tr"})
    assert at.select_slider(key="rating_demo_noise").options[10] == "0,50"
    assert at.select_slider(key="rating_demo_outlier_share").options[5] == "0,05"
    at = run_page("pages/6_Classification_metrics.py", query_params={"lang": "tr"})
    assert at.select_slider(key="_classification_positive_share_widget").options[4] == "0,05"


def _target_box(at):
    return next(t for t in at.text_input if (t.key or "").startswith("compare_target"))


def _needed_sentence(at) -> str:
    return next(m.value for m in at.markdown if "{" not in m.value and ("kullanıcı" in m.value or "users" in m.value)
                and ("t-test" in m.value or "t testi" in m.value))


def test_compare_smallest_difference_reads_a_turkish_comma_and_shows_one():
    at = run_page("pages/18_Compare_two_models.py", query_params={"lang": "tr"})
    box = _target_box(at)
    assert "," in box.value and "." not in box.value
    box.input("0,001").run()
    assert not at.exception and not at.warning
    assert "0,0010" in texts(at)
    assert r"(n = 1.000)" in texts(at)


def test_compare_smallest_difference_refuses_an_english_comma_and_keeps_it():
    at = run_page("pages/18_Compare_two_models.py")
    before = _target_box(at).value
    _target_box(at).input("0,001").run()
    assert _target_box(at).value == "0,001"
    warning = at.warning[0].value.replace("\\", "")
    assert "“0,001” has a comma" in warning and f"Until then, {before} is used." in warning
    _target_box(at).input("5").run()
    assert "5 is outside 0.0001 to 1" in at.warning[0].value.replace("\\", "")
