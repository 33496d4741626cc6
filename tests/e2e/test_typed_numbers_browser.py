"""Numbers typed through the real grid and number box, in a browser set to English and one set to Turkish
(issue 31). The grid's number cells read with the browser's locale whatever the page's language: on the
old code a Turkish page in an English browser stored 3,5 as 35, and a Turkish browser turned 0,9 into 9."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from content import numbers
from metrics import classification_metrics as cls
from metrics import rating_metrics
from tests.e2e.conftest import SCREENSHOTS, watched_tab
from tests.e2e.streamlit_page import cell_texts, editor_of, open_page, screenshot, type_onto_cell, wait_until_idle

LOCALES = ["en-US", "tr-TR"]


@pytest.fixture(params=LOCALES)
def locale(request) -> str:
    return request.param


@pytest.fixture
def tab(browser, locale):
    """A tab of a browser whose language is ``en-US`` or ``tr-TR``."""
    for opened in watched_tab(browser, locale=locale):
        opened.set_default_timeout(60_000)  # the Compare page simulates its experiment on the first run
        yield opened


def card_value(page, index: int):
    return page.get_by_test_id("stMetricValue").nth(index)


def left_out(page):
    return page.get_by_test_id("stAlert").filter(has_text="bırakıldı")


def test_turkish_3_5_in_the_rating_editor_is_three_and_a_half(server, tab, locale):
    open_page(tab, server.url + "/Rating_errors?lang=tr")
    ratings = editor_of(tab, "ratings")
    type_onto_cell(tab, ratings, column=1, row=1, text="3,5")  # 4 → 3,5; actual 4
    mae = rating_metrics.mae([3.5, 3.5, 2, 5, 3], [4, 4, 1, 5, 5])
    expect(card_value(tab, 1)).to_have_text(numbers.number(mae, language="tr"))  # RMSE, MAE, MSE
    assert cell_texts(ratings, 0, 2) == ["3,5", "4"]  # shown in Turkish notation
    assert cell_texts(ratings, 1, 2) == ["3,5", "4"]
    expect(left_out(tab)).to_have_count(0)
    screenshot(tab, SCREENSHOTS, f"typed_numbers_rating_tr_in_{locale}")


def test_turkish_0_9_in_the_logloss_editor_keeps_the_row(server, tab):
    open_page(tab, server.url + "/LogLoss?lang=tr")
    probabilities = editor_of(tab, "probabilities")
    type_onto_cell(tab, probabilities, column=2, row=1, text="0,9")  # 0,6 → 0,9
    expected = cls.log_loss([1, 1, 0], [0.8, 0.9, 0.3])
    expect(card_value(tab, 0)).to_have_text(numbers.number(expected, language="tr"))
    assert cell_texts(probabilities, 1, 2) == ["1", "0,9"]
    expect(left_out(tab)).to_have_count(0)


def test_an_english_page_refuses_a_comma_and_keeps_it_in_the_cell(server, tab):
    open_page(tab, server.url + "/LogLoss?lang=en")
    probabilities = editor_of(tab, "probabilities")
    type_onto_cell(tab, probabilities, column=2, row=1, text="0,9")
    warning = tab.get_by_test_id("stAlert").filter(has_text="Some rows are left out")
    expect(warning).to_contain_text("row 2")
    expect(warning).to_contain_text("“0,9” has a comma")
    assert cell_texts(probabilities, 1, 2) == ["1", "0,9"]
    expect(card_value(tab, 0)).to_have_text(numbers.number(cls.log_loss([1, 0], [0.8, 0.3]), language="en"))


def test_turkish_0_001_in_compare_smallest_difference_is_a_thousandth(server, tab, locale):
    open_page(tab, server.url + "/Compare_two_models?lang=tr")
    box = tab.locator("[class*='st-key-compare_target_'] input")
    shown = box.input_value()
    box.fill("0,001")
    box.press("Enter")
    wait_until_idle(tab)
    expect(tab.get_by_test_id("stMarkdown").filter(has_text="Eşleştirilmiş bir t-testi")).to_contain_text("0,0010")
    expect(box).to_have_value("0,001")
    expect(tab.get_by_test_id("stAlert").filter(has_text="0,001")).to_have_count(0)
    assert shown == "0,0023"  # the observed difference, in Turkish notation
    screenshot(tab, SCREENSHOTS, f"typed_numbers_compare_tr_in_{locale}")


def test_turkish_1_000_in_a_whole_number_box_is_refused_and_1000_is_read(server, tab, locale):
    open_page(tab, server.url + "/Compare_two_models?lang=tr")
    box = tab.locator(".st-key-_compare_k_typed input")
    expect(box).to_have_value("10")
    box.fill("1.000")  # one thousand to a Turkish reader, one to an English one: never parseInt's 1
    box.press("Enter")
    wait_until_idle(tab)
    expect(box).to_have_value("1.000")
    expect(tab.get_by_test_id("stAlert").filter(has_text="1.000")).to_have_count(1)
    box.fill("20")
    box.press("Enter")
    wait_until_idle(tab)
    expect(tab.get_by_test_id("stAlert").filter(has_text="1.000")).to_have_count(0)
    expect(tab.get_by_test_id("stMarkdown").filter(has_text="NDCG@20").first).to_be_visible()
