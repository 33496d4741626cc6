"""The data pages in Turkish: a bad file's error is said in Turkish with its line and column facts,
and the numbers of a whole log are written with the Turkish separators."""

from __future__ import annotations

import pytest

from content import i18n
from content import your_data as words
from whole_logs import readers
from metrics.errors import DataError
from tests.conftest import run_page, texts
from ui import language  # noqa: F401 - installs the session's resolver now, not in the middle of a test
from ui.navigation import TOPIC_PAGES

PAGE = TOPIC_PAGES["your_data"]
TRUTH = b"user,item,relevance\nu1,a,1\nu2,b,1\n"


@pytest.fixture(autouse=True)
def reader_language():
    """Which language AppTest's own thread formats the widgets' options in (it reads them back with the
    page's format_func between runs, outside the session): set it as the page's, put back the session's after."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    chosen = {"lang": "tr"}
    i18n.use_resolver(lambda: language._session_language() if get_script_run_ctx(suppress_warning=True)
                      else chosen["lang"])
    yield chosen
    i18n.use_resolver(language._session_language)


def opened(lang: str = "tr"):
    """The page in ``lang`` with the uploaders shown (the radio's labels are in that language; its value is not)."""
    return run_page(PAGE, lang=lang, yd_source="Upload files")


def upload(at, recs: bytes, truth: bytes = TRUTH):
    at.file_uploader(key="yd_recs_file").set_value(("recs.csv", recs, "text/plain"))
    at.file_uploader(key="yd_truth_file").set_value(("truth.csv", truth, "text/plain"))
    at.run()
    at.button(key="yd_read").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_missing_column_is_said_in_turkish_with_the_file_and_the_columns():
    at = upload(opened(), b"user,item\nu1,a\nu2,b\n")
    error = at.error[0].value.replace("\\", "").replace("\u2060", "")
    assert "**Yüklenmedi:**" in error
    assert "Öneriler dosyası “recs.csv”" in error
    assert "öneriler dosyasında 'rank' ya da 'score' sütunu eksik" in error
    assert "bulunan sütunlar: 'user', 'item'" in error
    assert "missing" not in error and "Not loaded" not in error


def test_a_line_with_too_many_fields_is_said_in_turkish_with_its_line_number():
    at = upload(opened(), b"user,item,rank\nu1,a,1\nu1,b,2,9\n")
    error = at.error[0].value.replace("\\", "").replace("\u2060", "")
    assert "dosya CSV olarak okunamadı: başlık 3 sütun adlandırıyor (user,item,rank)" in error
    assert "3. satırda 4 alan var: 'u1,b,2,9'" in error


def test_a_duplicate_pair_names_its_rows_in_turkish_and_offers_the_fix():
    at = upload(opened(), b"user,item,rank\nu1,a,1\nu1,a,2\nu2,b,1\n")
    error = at.error[0].value.replace("\\", "").replace("\u2060", "")
    assert "yinelenen (kullanıcı, öğe) çiftleri" in error and "2 ve 3 numaralı satırlar" in error
    assert "“en iyi sıradaki kopyayı tut”" in error


def test_the_error_follows_the_language_after_a_switch(reader_language):
    at = upload(opened(), b"user,item\nu1,a\n")
    at.session_state["lang"] = at.query_params["lang"] = "en"
    at.run()  # the widgets of the Turkish run are read back in Turkish; the page then writes English
    reader_language["lang"] = "en"
    error = at.error[0].value.replace("\\", "").replace("\u2060", "")
    assert "Recommendations file “recs.csv”: the recommendations file is missing column 'rank' or 'score'" in error


def test_the_whole_log_is_counted_with_turkish_separators():
    at = run_page(PAGE, lang="tr")
    shown = texts(at)
    assert "40.000 öneri satırı" in shown and "yapay bir kayıt (kullanıcı 2000" in shown
    assert "0,5" in shown  # the model quality of the synthetic log, with the decimal comma


def test_a_data_error_keeps_its_english_text_and_carries_its_facts():
    with pytest.raises(DataError) as refused:
        readers.read_table(b"user,item\nu1,a\n", "recommendations", "csv")
    assert str(refused.value).startswith("the recommendations file is missing column 'rank' or 'score'")
    assert refused.value.code == "missing_column"
    assert refused.value.fields["missing"] == [["rank", "score"]] and refused.value.fields["found"] == ["user", "item"]
    i18n.use_resolver(lambda: "zh")
    assert words.error_message(refused.value).startswith("推荐文件缺少列 'rank' 或 'score'")


def test_an_item_with_two_categories_is_named_in_each_language_with_its_lines():
    from whole_logs import beyond_accuracy

    table = readers.read_table(b"item,category\n1,news\n2,film\n1,sport\n", "item_categories", "csv")
    with pytest.raises(DataError) as refused:
        beyond_accuracy.item_categories(table)
    assert str(refused.value) == ("item '1' has two categories, 'news' (line 2) and 'sport' (line 4): give each item "
                                  "one category")
    i18n.use_resolver(lambda: "tr")
    assert words.error_message(refused.value) == ("'1' öğesinin iki kategorisi var: 'news' (2 numaralı satır) ve "
                                                  "'sport' (4 numaralı satır); her öğeye tek bir kategori verin")
    i18n.use_resolver(lambda: "zh")
    assert words.error_message(refused.value).startswith("物品 '1' 有两个类别：'news'（第 2 行）")


@pytest.mark.parametrize(("content", "tr", "zh"), [
    (b"user,item,rank,rank\nu1,a,1,2\n", "başlık 'rank' sütununu iki kez adlandırıyor (3. ve 4. sütunlar)",
     "表头两次使用列名 'rank'（第 3 列和第 4 列）"),
    (("user,item,rank\n" + "u1,a,1\n" * 20_000 + "u1,caf\xe9,2\n").encode("latin-1"),
     "20.002. satırın 2. alanında UTF-8'in çözemediği 0xE9 baytı var", "第 20,002 行第 2 个字段含有 UTF-8 无法解码的字节 0xE9"),
], ids=["a column twice", "a latin-1 byte far in"])
def test_the_new_file_errors_are_said_in_turkish_and_chinese(content, tr, zh):
    with pytest.raises(DataError) as refused:
        readers.read_table(content, "recommendations", "csv")
    i18n.use_resolver(lambda: "tr")
    assert tr in words.error_message(refused.value)
    i18n.use_resolver(lambda: "zh")
    assert zh in words.error_message(refused.value)
