"""Three languages: complete catalogs, numbers per locale, every page through the catalogs."""

from __future__ import annotations

import csv

import pytest

from content import catalogs, i18n, numbers
from tests import pseudo
from tests.conftest import run_page
from ui.navigation import PAGES

TRANSLATED = [code for code in i18n.languages() if code != i18n.SOURCE]


def test_turkish_and_chinese_are_there():
    assert {"tr", "zh"} <= set(TRANSLATED)


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_sentence_is_translated_with_its_placeholders_and_markup(code):
    assert catalogs.problems(code) == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_language_has_a_glossary_of_the_shared_terms(code):
    with (i18n.LOCALE_DIR / code / "glossary.csv").open(newline="") as handle:
        terms = {row["english"]: row["translation"] for row in csv.DictReader(handle)}
    assert {"relevant item", "ground truth", "ideal ranking", "cut-off", "gain"} <= set(terms)
    assert all(terms.values())


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(("code", "shown"), [("en", "0.8290"), ("tr", "0,8290"), ("zh", "0.8290")])
def test_a_number_is_written_as_the_reader_writes_it(code, shown):
    assert numbers.number(0.829, language=code) == shown
    assert numbers.latex(0.829, language=code) == shown.replace(",", "{,}")


def test_thousands_percent_and_chart_separators_follow_the_language():
    assert [numbers.integer(6731, language=c) for c in ("en", "tr", "zh")] == ["6,731", "6.731", "6,731"]
    assert [numbers.percent(0.456, language=c) for c in ("en", "tr", "zh")] == ["46%", "%46", "46%"]
    assert [numbers.plotly_separators(c) for c in ("en", "tr", "zh")] == [".,", ",.", ".,"]


@pytest.mark.parametrize(("code", "typed", "read"), [
    ("tr", "0,5", 0.5), ("tr", "0.5", 0.5), ("tr", "-1,25", -1.25), ("tr", ",5", 0.5), ("en", "0.5", 0.5),
    ("zh", "0.5", 0.5), ("en", " 3 ", 3.0), ("en", "1e-3", 0.001), ("tr", "2,5e-1", 0.25),
])
def test_typed_numbers_are_read_in_the_readers_notation_and_with_the_point(code, typed, read):
    assert numbers.parse(typed, language=code) == read


@pytest.mark.parametrize(("code", "typed", "why"), [
    ("en", "0,5", "comma_decimal"), ("zh", "0,5", "comma_decimal"), ("en", "1,000.5", "grouping"),
    ("tr", "1.000,5", "grouping"), ("tr", "abc", "not_a_number"), ("en", "", "not_a_number"),
])
def test_typed_text_that_cannot_mean_one_number_is_refused_never_misread(code, typed, why):
    with pytest.raises(numbers.NumberError) as refused:
        numbers.parse(typed, language=code)
    assert refused.value.code == why


def test_turkish_casing_keeps_the_dotted_and_dotless_i():
    i18n.use_resolver(lambda: "tr")
    try:
        assert i18n.upper("isabet ılık") == "İSABET ILIK"
        assert i18n.lower("İLGİLİ IŞIK") == "ilgili ışık"
    finally:
        from ui import language  # noqa: F401 - reinstalls the session resolver
        i18n.use_resolver(language._session_language)


# --------------------------------------------------------------------------- pages


@pytest.mark.parametrize("entry", PAGES, ids=[p.topic for p in PAGES])
def test_every_visible_text_of_the_page_comes_through_the_catalogs(entry):
    at = run_page(entry.path, lang=i18n.PSEUDO)
    assert pseudo.untranslated(at) == []


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize("entry", PAGES, ids=[p.topic for p in PAGES])
def test_every_page_opens_in_each_language(entry, code):
    run_page(entry.path, lang=code)


def test_a_link_with_lang_opens_in_that_language_and_keeps_it_in_the_address_bar():
    at = run_page("app.py", query_params={"lang": "tr"})
    assert at.session_state["lang"] == "tr"
    assert at.query_params["lang"] == "tr"


def test_an_unknown_lang_opens_in_english_with_a_note():
    at = run_page("app.py", query_params={"lang": "xx"})
    assert at.session_state["lang"] == "en"
    assert at.query_params["lang"] == "en"
    assert any("xx" in c.value for c in at.sidebar.caption)


def test_the_browsers_language_is_used_when_the_link_has_none():
    from ui.language import from_browser

    assert [from_browser(x) for x in ("tr-TR", "zh-CN", "zh-TW", "de-DE", None, "en-US")] == \
        ["tr", "zh", "zh", "en", "en", "en"]
