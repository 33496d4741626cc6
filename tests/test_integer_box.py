"""Whole numbers typed in the reader's notation: read by content.numbers, never by the browser's parseInt
(which read a Turkish "1.000", one thousand, as 1)."""

from __future__ import annotations

import pytest

from tests.conftest import run_page
from ui.navigation import TOPIC_PAGES


def _warnings(at) -> list[str]:
    """The number boxes' notes (the page's own warnings have other icons)."""
    return [w.value for w in at.warning if w.icon == "🔢"]


def test_compare_k_typed_in_turkish_with_a_thousands_point_is_refused_and_kept_as_typed():
    at = run_page(TOPIC_PAGES["compare"], lang="tr")
    box = at.text_input(key="_compare_k_typed")
    box.set_value("1.000").run()
    assert at.text_input(key="_compare_k_typed").value == "1.000"  # nothing typed is lost
    assert at.session_state["compare_k"] == 10  # not 1, not 1000: it cannot mean one number
    assert any("1.000" in w and "10" in w for w in _warnings(at)), _warnings(at)


@pytest.mark.parametrize(("typed", "used"), [("7", 7), (" 12 ", 12), ("５", 5)])
def test_a_whole_number_is_read_in_any_language(typed, used):
    for lang in ("en", "tr", "zh"):
        at = run_page(TOPIC_PAGES["compare"], lang=lang)
        at.text_input(key="_compare_k_typed").set_value(typed).run()
        assert at.session_state["compare_k"] == used and not _warnings(at)


@pytest.mark.parametrize("typed", ["2,5", "abc", "0", "5000", "2.5"])
def test_what_is_not_a_whole_number_in_range_keeps_the_last_good_one_and_says_why(typed):
    at = run_page(TOPIC_PAGES["compare"], lang="tr")
    at.text_input(key="_compare_k_typed").set_value("12").run()
    at.text_input(key="_compare_k_typed").set_value(typed).run()
    assert at.session_state["compare_k"] == 12
    assert at.text_input(key="_compare_k_typed").value == typed
    assert len(_warnings(at)) == 1 and "12" in _warnings(at)[0]


def test_in_a_form_the_number_is_read_when_the_form_is_sent():
    at = run_page(TOPIC_PAGES["sampled"], lang="tr")
    at.text_input(key="_sampled_items_typed").set_value("2.000")
    at.button[0].click().run()
    assert any("2.000" in w for w in _warnings(at))  # Turkish "2.000" is refused, never read as 2
    at.text_input(key="_sampled_items_typed").set_value("2000")
    at.button[0].click().run()
    assert "2.000" in at.subheader[0].value and not _warnings(at)  # shown grouped in Turkish


def test_a_number_set_elsewhere_is_shown_in_the_box():
    at = run_page(TOPIC_PAGES["compare"])
    at.session_state["compare_k"] = 25
    at.run()
    assert at.text_input(key="_compare_k_typed").value == "25"
