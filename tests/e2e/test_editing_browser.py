"""Typing into the editors as into a spreadsheet: click the add row, type, Tab, type, Enter.

Every keystroke must land in the table, and the cards must follow. These fail when the editor is
remounted by its own edits (the cursor leaves the grid and the next keys go nowhere).
"""

from __future__ import annotations

import numpy as np
from playwright.sync_api import expect

from metrics.ndcg import ndcg_at_k
from metrics.ranked_metrics import average_precision_at_k
from tests.e2e.conftest import SCREENSHOTS
from ui.input import tables
from content.text import _NO_AUTOLINK as NO_AUTOLINK
from tests.e2e.streamlit_page import (
    card, cell_texts, edit_cell, editor_of, open_page, screenshot, type_into_new_row,
)

SEED_LIST = [str(i) for i in range(101, 111)]
SEED_TRUTH = {"101": 1, "104": 1, "107": 1}


def test_ground_truth_add_row_keeps_every_keystroke(server, page):
    open_page(page, server.url)
    truth = editor_of(page, "ground_truth")
    type_into_new_row(page, truth, rows=3, keys=["999", "Tab", "2", "Enter"])
    expect(truth.locator("#glide-cell-2-3")).to_have_text("2")
    assert cell_texts(truth, 3, 2) == ["999", "2"]
    expected = ndcg_at_k(SEED_LIST, {**SEED_TRUTH, "999": 2}, 10)
    expect(card(page, "NDCG@10 (graded)")).to_have_text(f"{expected:.4f}")
    assert f"{expected:.4f}" != "0.8278"
    screenshot(page, SCREENSHOTS, "editing_ground_truth_new_row")


def test_recommended_add_row_with_a_rank_moves_the_item_there(server, page):
    open_page(page, server.url)
    recommended = editor_of(page, "recommended")
    type_into_new_row(page, recommended, rows=10, keys=["1", "Tab", "999", "Enter"])
    expected = average_precision_at_k(["999", *SEED_LIST], SEED_TRUTH, 10)
    expect(card(page, "AP@10")).to_have_text(f"{expected:.4f}")
    assert np.isclose(expected, (1 / 2 + 2 / 5 + 3 / 8) / 3)
    expect(recommended.locator("#glide-cell-2-0")).to_have_text("999")
    assert cell_texts(recommended, 0, 2) == ["1", "999"]
    assert cell_texts(recommended, 1, 2) == ["2", "101"]


def test_users_add_row_on_the_map_page_keeps_every_keystroke(server, page):
    open_page(page, server.url + "/AP_and_MAP")
    users = editor_of(page, "users")
    type_into_new_row(page, users, rows=3, keys=["dave", "Tab", "101, 102", "Tab", "102", "Enter"])
    expect(users.locator("#glide-cell-3-3")).to_have_text("102")
    assert cell_texts(users, 3, 3) == ["dave", "101, 102", "102"]
    lists = [("101, 102, 103, 104, 105", "101, 104"), ("201, 202, 203, 204, 205", "203"),
             ("301, 302, 303, 304, 305", "399"), ("101, 102", "102")]
    aps = [average_precision_at_k(r.split(", "), set(t.split(", ")), 10) for r, t in lists]
    expect(card(page, "MAP@10")).to_have_text(f"{np.mean(aps):.4f}")


NASTY = [
    "**strong**", "$y^2$", r"$\href{javascript:alert(1)}{x}$", "[click](javascript:alert(1))",
    "![](https://example.invalid/x.png)", '<a href="https://example.invalid">x</a>', ":red[x]",
    "long_name_" * 50,
]


def test_typed_names_and_ranks_show_literally_and_reach_no_other_host(server, page):
    """Markup typed into cells is shown as typed in warnings and chart text, never as a link, formula,
    image or colour; the page fixture fails on any request that leaves loopback (an image, a link fetch)."""
    open_page(page, server.url)
    recommended = editor_of(page, "recommended")
    for row, name in enumerate(NASTY):
        edit_cell(page, recommended, column=2, row=row, text=name)
        edit_cell(page, recommended, column=1, row=row, text=name)
    warning = page.get_by_test_id("stAlert").filter(has_text="Some rows are left out")
    expect(warning).to_contain_text("Recommended list, row 8")
    shown = warning.inner_text().replace(NO_AUTOLINK, "")  # the invisible joiner that stops autolinks
    for row, name in enumerate(NASTY):
        quoted = tables.shown(name)  # a long value is quoted by its start, its end and its length
        assert (f"Recommended list, row {row + 1}: the rank '{quoted}' is not a whole number 1 or more, so item "
                f"'{quoted}' stays at rank {row + 1}.") in shown, name
    expect(page.get_by_test_id("stAlert").locator("a, img, .katex, span[style*='color']")).to_have_count(0)
    expect(page.locator(".js-plotly-plot .main-svg a")).to_have_count(0)
    window = page.locator(".js-plotly-plot").filter(has_text="top 10").first
    for name in NASTY[:7]:
        expect(window.locator("text").filter(has_text=name).first).to_be_attached()
    screenshot(page, SCREENSHOTS, "editing_typed_markup_literal")
