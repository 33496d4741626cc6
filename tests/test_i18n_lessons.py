"""Every step of every lesson through the catalogs: opened in the pseudo-language, nothing it shows
(title, text, question, options, explanations, goal, cards' notes, captions, charts) bypasses them.
And the lessons read in Turkish and Chinese: numbers with the reader's separators, answers still checked."""

from __future__ import annotations

import pytest

from content.i18n import PSEUDO
from content.lessons import LESSONS
from tests import pseudo
from tests.conftest import run_page, warm_protocol_lesson
from tests.test_page_lessons import PAGE

STEPS = [(lesson.key, number) for lesson in LESSONS for number in range(1, len(lesson.steps) + 1)]


@pytest.mark.parametrize(("lesson", "number"), STEPS, ids=[f"{k}-{n}" for k, n in STEPS])
def test_every_text_of_every_lesson_step_comes_through_the_catalogs(lesson, number):
    if lesson == "protocols":
        warm_protocol_lesson()
    at = run_page(PAGE, query_params={"lesson": lesson, "step": str(number)}, lang=PSEUDO)
    assert pseudo.untranslated(at) == []
    step = next(le for le in LESSONS if le.key == lesson).steps[number - 1]
    if step.kind == "predict":  # the reveal: the verdict, the explanation, the numbers and their charts
        radio = at.radio(key=f"lessons_answer_{lesson}_{number - 1}")
        radio.set_value(step.question.options[0].label).run()
        assert not at.exception, [e.value for e in at.exception]
        assert pseudo.untranslated(at) == []


# --------------------------------------------------------------------------- Turkish and Chinese


def test_a_turkish_lesson_step_reads_in_turkish_with_the_decimal_comma():
    at = run_page(PAGE, query_params={"lesson": "topn", "step": "2"}, lang="tr")
    assert at.subheader[0].value == "Precision@K: yerler ne kadar iyi kullanıldı"
    assert any("on yerde üç isabet, kaç ilgili öğe olursa olsun 0,3 verir" in m.value.lower() for m in at.markdown)
    assert [m.value for m in at.metric] == ["0,3000"]
    assert at.button(key="lessons_next").label == "İleri ▶"


def test_a_turkish_answer_is_checked_by_its_key_and_shown_with_the_comma():
    at = run_page(PAGE, query_params={"lesson": "topn", "step": "3"}, lang="tr")
    radio = at.radio(key="lessons_answer_topn_2")
    assert radio.options == ["0,3", "0,75", "1,0"]
    radio.set_value("0.75").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.success[0].value.startswith("**Doğru.** 3 isabet / 4 ilgili öğe.")


def test_a_chinese_lesson_step_reads_in_chinese_and_its_words_choose_nothing():
    at = run_page(PAGE, query_params={"lesson": "auc", "step": "6"}, lang="zh")
    assert at.subheader[0].value == "预测：合并的 AUC 还是 GAUC？"
    radio = at.radio(key="lessons_answer_auc_5")
    assert radio.options == ["合并的 AUC", "GAUC", "一样高"]
    radio.set_value("GAUC").run()
    assert at.success[0].value.startswith("**正确**。")


def test_turkish_lesson_sentences_write_decimals_with_the_comma():
    """Numbers the lesson text states (not computed) are written by the translator: the comma, always."""
    from babel.messages.pofile import read_po

    from content.i18n import LOCALE_DIR

    with (LOCALE_DIR / "tr" / "LC_MESSAGES" / "lessons.po").open("rb") as handle:
        catalog = read_po(handle, locale="tr")
    import re

    point = re.compile(r"(?<![\d.])\d+(?:\.\d+)+")
    thousands = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+")  # 1.000, 98.186: a count grouped, not a decimal point
    wrong = [m.string for m in catalog if m.id and isinstance(m.string, str)  # code (`recbole==1.2.1`) aside
             if [n for n in point.findall(re.sub(r"`[^`]*`", "", m.string)) if not thousands.fullmatch(n)]]
    assert wrong == []


def test_a_turkish_explore_goal_is_reached_with_the_slider_and_said_in_turkish():
    at = run_page(PAGE, query_params={"lesson": "topn", "step": "7"}, lang="tr")
    slider = at.slider(key="lessons_control_topn_6_0")
    assert slider.label == "K (kesme noktası)"
    slider.set_value(4).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.success[0].value.startswith("**Hedefe ulaşıldı.** K = |Rel| = 4'te")
    assert at.button(key="lessons_next").label == "Sonraki ders ▶"
