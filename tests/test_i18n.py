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


def _stars_on_screen(at) -> list[str]:
    """Every Markdown text of the page that would show a literal ``*`` once rendered."""
    shown = [*at.markdown, *at.caption, *at.info, *at.warning, *at.success, *at.error]
    return [element.value for element in shown if catalogs.stars_left(element.value)]


@pytest.mark.parametrize("code", TRANSLATED)
@pytest.mark.parametrize("entry", PAGES, ids=[p.topic for p in PAGES])
def test_every_page_opens_in_each_language_with_no_asterisk_left_on_screen(entry, code):
    at = run_page(entry.path, lang=code)
    assert _stars_on_screen(at) == []


def test_a_bold_span_closing_after_full_width_punctuation_is_caught():
    assert catalogs.stars_left("**均值掩盖了分布。**MAP") == 4
    assert catalogs.stars_left("**均值掩盖了分布**。MAP") == 0
    assert catalogs.stars_left("*本应用：*{app}") == 2
    assert catalogs.stars_left("**{label}**。{story}") == 0


def test_one_english_sentence_translated_two_ways_is_a_conflict(tmp_path, monkeypatch):
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    for domain, string in (("labs", "Denetle"), ("common", "Kontrol et"), ("data", "Kontrol et")):
        catalog = Catalog(locale="tr")
        catalog.add("Check", string)
        (tmp_path / "tr" / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
        with (tmp_path / "tr" / "LC_MESSAGES" / f"{domain}.po").open("wb") as handle:
            write_po(handle, catalog)
    monkeypatch.setattr(catalogs, "LOCALE", tmp_path)
    [conflict] = catalogs.conflicts("tr")
    assert conflict.startswith("common / data / labs: 'Check': translated 2 ways")


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


# --------------------------------------------------------------------------- the shared frame (common)


@pytest.fixture
def reader():
    """Run the code below for a reader of the given language (then back to the session's resolver)."""
    from ui import language

    def use(code):
        i18n.use_resolver(lambda: code)

    yield use
    i18n.use_resolver(language._session_language)


def test_a_grade_typed_with_the_decimal_comma_is_read_in_turkish_and_refused_in_english(reader):
    import pandas as pd

    from ui.input import tables

    truth = pd.DataFrame({"item": ["a", "b"], "grade": ["0,5", "2.5"]}, dtype=object)
    reader("tr")
    parsed = tables.parse_ground_truth(truth)
    assert parsed.columns["ground_truth"] == {"a": 0.5, "b": 2.5} and parsed.problems == []
    reader("en")
    parsed = tables.parse_ground_truth(truth)
    assert parsed.columns["ground_truth"] == {"b": 2.5}  # "0,5" is never read as 5 (nor as 0.5)
    assert parsed.problems == ["Ground truth, row 1: the grade of item 'a' is '0,5', not a number, so that row is left out."]


@pytest.mark.parametrize("code", ["en", "tr", "zh"])
def test_typed_ranks_read_the_same_in_every_language(code, reader):
    from ui.input import tables

    reader(code)
    assert [tables.typed_rank(t) for t in ("2", " 7 ", "2,5", "2.5", "0", "abc")] == [2, 7, None, None, None, None]


def test_editor_messages_keep_their_facts_and_write_numbers_as_the_reader_does(reader):
    import pandas as pd

    from ui.input import tables

    listed = pd.DataFrame({"rank": ["1", "x"], "item": ["a", "a"]}, dtype=object)
    reader("tr")
    problems = tables.parse_recommended(listed).problems
    assert problems[0].startswith("Öneri listesi, satır 2: 'x' sırası") and "'a'" in problems[0]
    assert "1." in problems[1] and "2." in problems[1]  # the two ranks of the repeated item
    assert tables.shown("x" * 2000).endswith("(2.000 karakter)")


def test_a_scenario_error_keeps_its_english_text_and_is_shown_in_the_readers_language(reader):
    from content import messages
    from ui.input.scenario_link import ScenarioError, from_query

    with pytest.raises(ScenarioError) as refused:
        from_query({"v": "1", "k": "x"})
    error = refused.value
    assert (error.code, str(error)) == ("link_k", "k must be a whole number from 1 to 10,000, got 'x'.")
    reader("tr")
    assert messages.scenario_error(error) == "k, 1 ile 10.000 arasında bir tam sayı olmalıdır; gelen: 'x'."
    reader("zh")
    assert messages.scenario_error(error) == "k 必须是 1 到 10,000 之间的整数，实际为 'x'。"
    with pytest.raises(ScenarioError) as refused:
        from_query({"v": "1", "recommended": '{"columns": ["rank", "item"], "dtypes": ["object", "object"], '
                                              '"rows": [["1", "' + "x" * 10_001 + '"]]}'})
    reader("en")
    assert str(refused.value) == messages.scenario_error(refused.value)  # a phrase (the cell) inside a message
    assert str(refused.value).startswith("table 'recommended', row 1, column 'item' holds 10,001 characters")
    reader("tr")
    assert messages.scenario_error(refused.value).startswith("tablo 'recommended', satır 1, sütun 'item': 10.001 karakter")


def test_a_metric_input_error_has_a_code_fields_and_its_english_text(reader):
    from content import messages
    from metrics._validation import InputError, as_binary_labels, check_same_length

    with pytest.raises(InputError) as refused:
        as_binary_labels([0, 1, 2.5], "y_true")
    error = refused.value
    assert isinstance(error, ValueError) and error.code == "binary" and error.fields["position"] == 2
    assert str(error) == "y_true must contain only 0 and 1, got 2.5 at position 2"
    reader("tr")
    assert messages.input_error(error) == "y_true yalnızca 0 ve 1 içermelidir; 2. konumda 2,5 var"
    with pytest.raises(InputError) as refused:
        check_same_length(a=[1], b=[1, 2])
    assert "a: 1 ve b: 2" in messages.input_error(refused.value)


def test_card_labels_keep_metric_names_and_translate_their_words(reader):
    from content import metrics as metric_texts
    from metrics.registry import BY_KEY

    reader("tr")
    assert metric_texts.label("ndcg_graded_at_k", 10) == "NDCG@10 (dereceli)"
    assert metric_texts.label("precision_at_k", 10) == "Precision@10"
    assert metric_texts.label("rr", 10) == "RR"  # no K in a metric that has no cut-off
    assert BY_KEY["ndcg_graded_at_k"].display_label(10) == "NDCG@10 (graded)"  # the registry's data stays English
    assert set(metric_texts.MEANINGS) == set(BY_KEY)


def test_formulas_and_charts_write_numbers_as_the_reader_does(reader):
    import pandas as pd

    from ui.figures import charts
    from ui.markup import formulas

    reader("tr")
    assert formulas.precision_at_k_latex(3, 10, 0.3) == r"\mathrm{P@10}=\frac{3}{10}=0{,}3000"
    assert formulas.latex_number(0.75) == "0{,}75"
    assert r"\text{(ilgili öğe yok: 0 sayılır)}" in formulas.recall_at_k_latex(0, 0, 5, 0.0)
    curves = pd.DataFrame({"k": [1, 2], "precision_at_k": [1.0, 0.5]})
    figure = charts.metrics_vs_k(curves, 2)
    assert figure.layout.separators == ",." and figure.layout.title.text == "K büyüdükçe her metrik"
    reader("en")
    assert formulas.precision_at_k_latex(3, 10, 0.3) == r"\mathrm{P@10}=\frac{3}{10}=0.3000"
    assert charts.metrics_vs_k(curves, 2).layout.separators == ".,"


def test_the_lesson_link_and_the_practice_switch_no_longer_import_each_other():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]

    def imported(path):
        tree = ast.parse((root / path).read_text())
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
        return names

    assert not [name for name in imported("ui/lesson_link.py") if "practice_mode" in name]
    assert "ui.lesson_link" in imported("ui/practice_mode.py")


def test_the_sidebar_picker_changes_the_language_and_the_next_run_keeps_it():
    at = run_page("pages/5_NDCG.py", query_params={"lang": "zh"})
    at.sidebar.selectbox(key="_lang_picker").select("tr").run()
    assert at.session_state["lang"] == "tr" and at.query_params["lang"] == "tr"
    at.run()
    assert at.session_state["lang"] == "tr"
    assert at.sidebar.selectbox(key="_lang_picker").label == "🌐 Dil"


def test_a_title_translated_before_page_runs_is_already_in_the_links_language():
    at = run_page("pages/9_Worked_examples.py", query_params={"lang": "tr"})
    assert "Worked examples" not in at.title[0].value


def test_hide_the_answers_form_and_its_verdict_come_through_the_catalogs_and_read_a_turkish_comma():
    def hidden_home(code):
        at = run_page("app.py", lang=code)
        at.toggle(key="_hide_answers_widget").set_value(True).run()
        return at

    def check(at, typed):
        at.selectbox(key="_practice_home_metric").set_value("precision_at_k")
        at.text_input(key="_practice_home_answer").input(typed)
        at.button(key="_practice_home_check").click().run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    at = hidden_home(i18n.PSEUDO)
    assert not at.metric and pseudo.untranslated(at) == []
    assert pseudo.untranslated(check(at, "0.3")) == []
    turkish = check(hidden_home("tr"), "0,3")
    assert turkish.success and "0,3000" in turkish.success[0].value.replace("\\", "") and turkish.metric
    english = check(hidden_home("en"), "0,3")
    assert english.error and "comma" in english.error[0].value and not english.metric
    assert english.text_input(key="_practice_home_answer").value == "0,3"  # what they typed stays
