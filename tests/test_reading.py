"""What every table and message says reads right: labels, empty cells, notes apart from rows left out."""

import json

import pytest

from tests.conftest import edit, run_page
from ui.navigation import PAGES


@pytest.fixture(scope="module", params=[p.path for p in PAGES], ids=[p.topic for p in PAGES])
def every_page(request):
    return run_page(request.param)


def test_every_table_has_readable_column_labels(every_page):
    for table in every_page.dataframe:
        config = json.loads(table.proto.columns or "{}")
        for column in table.value.columns:
            label = (config.get(str(column)) or {}).get("label")
            assert label, f"column {column!r} is shown under its raw name"
            assert "_" not in label, f"column {column!r} is labelled {label!r}"


def test_no_table_shows_none_for_an_empty_cell(every_page):
    for table in every_page.dataframe:
        assert table.proto.placeholder == "—", list(table.value.columns)


def test_a_user_with_no_hit_shows_a_dash_not_none():
    at = run_page("pages/4_RR_and_MRR.py")
    per_user = next(t for t in at.dataframe if "first_hit_rank" in t.value.columns)
    assert per_user.value["first_hit_rank"].isna().any()  # carol has no hit
    assert per_user.proto.placeholder == "—"


def test_notes_are_apart_from_rows_left_out():
    at = run_page("app.py")
    edit(at, "recommended", deleted_rows=[8, 9], edited_rows={0: {"item": ""}})
    warning = "\n".join(w.value for w in at.warning)
    assert "Some rows are left out" in warning and "the item name is empty" in warning
    assert "larger than the list" not in warning
    assert any("larger than the list" in i.value for i in at.info)
    edit(at, "recommended", deleted_rows=list(range(10)))
    assert not at.warning and any("The recommended list is empty" in i.value for i in at.info)
