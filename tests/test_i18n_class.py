"""The live class and Write it yourself in the reader's language: every text through the catalogs in a
running class (teacher and student) and after a failing Run; each session keeps its own language, and
the addresses the live class writes keep it."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from content import i18n
from kata import attempts
from tests import pseudo
from tests.conftest import ROOT, chart_specs, plotly_array, run_page, texts
from tests.kata_samples import WRONG
from tests.kata_page import type_code
from content.lessons import LESSONS
from ui.controllers import live_class
from ui.navigation import TOPIC_PAGES

FIRST_LESSON_BOX = f"live_lesson_choice_{LESSONS[0].key}"  # the lesson box, keyed by what it shows

LIVE = "pages/19_Live_class.py"


# A lesson step's figures are the lessons' (ui/lessons, translated by the lessons part); the live class draws
# them under these keys. Its own charts (the reveal's bars and histogram) are checked. The kata's breakdown
# tables are the topic pages' own (metrics/), their headers named by show_table (the common part's).
STEP_FIGURE = re.compile(r"live_(teacher|student)_\d+_(\d+|playground)$")


def _others(node) -> bool:
    """A lesson step's figure, or a kata breakdown table (any table but the page's own step table)."""
    kind, proto = getattr(node, "type", None), getattr(node, "proto", None)
    if kind == "plotly_chart":
        return bool(STEP_FIGURE.search(getattr(proto, "id", "")))
    return kind == "dataframe" and "right_so_far" not in getattr(proto, "columns", "")


class _Shown:
    """The page's own area without a lesson step's figures: the sidebar is the shared frame's (common)."""

    def __init__(self, at: AppTest):
        self._tree = _Without(at.main)


class _Without:
    def __init__(self, node):
        self.node = node
        self.proto, self.type = getattr(node, "proto", None), getattr(node, "type", None)
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            self.children = {name: _Without(child) for name, child in children.items()
                             if not _others(child)}


def own_untranslated(at, data: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Visible texts with words outside the catalogs, other than ``data`` (a room code, a nickname)."""
    keep = {word for value in data for word in pseudo._WORD.findall(value)}
    return pseudo.untranslated(_Shown(at), keep=keep)


@pytest.fixture(autouse=True)
def private_stores(tmp_path, monkeypatch):
    monkeypatch.setenv("RECEVAL_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("RECEVAL_CLASSROOM_URL", raising=False)
    monkeypatch.setattr(attempts, "STORE", tmp_path)
    live_class.store.clear()
    yield
    live_class.store.clear()


def ran(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def opened(query_params: dict | None = None, **state) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.switch_page(LIVE)
    for name, value in state.items():
        at.session_state[name] = value
    for name, value in (query_params or {}).items():
        at.query_params[name] = value
    return ran(at)


def one(value):
    return value[0] if isinstance(value, list) else value


def a_class(lang: str) -> tuple[AppTest, str]:
    at = opened(lang=lang)
    at.button(key="live_start").click()
    ran(at)
    return at, at.session_state[live_class.TEACHER]["code"]


def joined(code: str, nickname: str, query_params: dict | None = None, **state) -> AppTest:
    at = opened({"room": code, **(query_params or {})}, **state)
    at.text_input(key="live_nickname").input(nickname)
    at.button(key="live_join_submit").click()
    return ran(at)


def test_the_teacher_and_the_student_of_a_running_class_see_only_translated_texts():
    teacher, code = a_class(i18n.PSEUDO)
    student = joined(code, "Ann", lang=i18n.PSEUDO)
    assert own_untranslated(teacher, (code,)) == []
    assert own_untranslated(student) == []
    teacher.button(key="live_next").click()
    ran(teacher)
    teacher.button(key="live_next").click()
    ran(teacher)  # the Recall@10 prediction
    ran(student)
    student.radio(key="live_answer_topn:2").set_value("0.3")
    ran(student)
    assert own_untranslated(student) == []
    teacher.button(key="live_reveal").click()
    ran(teacher)
    ran(student)
    assert teacher.get("plotly_chart") and student.get("plotly_chart")
    assert own_untranslated(teacher, (code, "Ann")) == []
    assert own_untranslated(student) == []


def test_the_playground_question_and_its_reveal_are_translated():
    teacher, code = a_class(i18n.PSEUDO)
    student = joined(code, "", lang=i18n.PSEUDO)  # an anonymous name, drawn in the student's language
    teacher.selectbox(key=FIRST_LESSON_BOX).set_value(live_class.PLAYGROUND_CHOICE)
    ran(teacher)
    ran(student)
    box = next(t for t in student.text_input if t.key and t.key.startswith("live_answer_playground"))
    box.input("0.5")
    next(b for b in student.button if b.key and "live_number_playground" in b.key).click()
    ran(student)
    teacher.button(key="live_reveal").click()
    ran(teacher)
    ran(student)
    assert any(m.value.startswith(i18n.PSEUDO_OPEN + "Student ") for m in teacher.markdown)  # the drawn name
    assert own_untranslated(teacher, (code,)) == []
    assert own_untranslated(student) == []


def test_a_student_joining_by_a_chinese_link_reads_chinese_while_the_teacher_reads_turkish():
    teacher, code = a_class("tr")
    assert one(teacher.query_params["lang"]) == "tr"
    link = next(c.value for c in teacher.code if f"/class/{code}" in c.value)
    assert link.endswith("lang=tr")  # the join link keeps the teacher's language unless the student's link says otherwise
    student = joined(code, "Ann", {"lang": "zh"})
    assert student.session_state["lang"] == "zh"
    assert one(student.query_params["lang"]) == "zh" and one(student.query_params["room"]) == code
    assert "加入" in "\n".join(b.label for b in opened({"room": code, "lang": "zh"}).button)
    assert "Ann" in texts(student) and "课堂" in texts(student)
    ran(teacher)
    assert teacher.session_state["lang"] == "tr"
    assert "öneri sistemi" in texts(teacher)  # the step, in Turkish (the console shows no intro)


def test_a_number_typed_with_a_comma_in_turkish_is_read_as_a_number():
    teacher, code = a_class("tr")
    student = joined(code, "Ayşe", {"lang": "tr"})
    teacher.selectbox(key=FIRST_LESSON_BOX).set_value(live_class.PLAYGROUND_CHOICE)
    ran(teacher)
    ran(student)
    box = next(t for t in student.text_input if t.key and t.key.startswith("live_answer_playground"))
    box.input("0,5")
    next(b for b in student.button if b.key and "live_number_playground" in b.key).click()
    ran(student)
    assert not student.error
    assert "'0,5' cevabınız alındı" in texts(student)
    teacher.button(key="live_reveal").click()
    ran(teacher)
    # The answers chart: a bar per distinct typed number (its hover text carries the number as written).
    histogram = next(spec for spec in chart_specs(teacher) if spec["data"][0].get("customdata") is not None)
    assert plotly_array(histogram["data"][0]["x"]) == [0.5]  # read as one half, not refused, not 5
    assert histogram["layout"]["separators"] == ",."


def test_the_kata_page_after_a_failing_run_shows_only_translated_texts():
    at = run_page(TOPIC_PAGES["kata"], lang=i18n.PSEUDO)
    assert own_untranslated(at) == []
    at.selectbox(key="kata_problem").set_value("average_precision_at_k").run()
    type_code(at, WRONG["average_precision_at_k"]["ap_denominator=hits"])
    at.button(key="kata_run").click().run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    assert at.warning and at.metric  # the convention and the two values are there
    assert own_untranslated(at) == []
    at.button(key="kata_try").click().run(timeout=60)  # Run on my input: the table of values
    assert at.dataframe and own_untranslated(at) == []
    at.text_area(key="kata_input_average_precision_at_k").input("k=0").run()
    at.button(key="kata_try").click().run(timeout=60)  # an input refused, with its reason
    assert at.error and own_untranslated(at) == []


def test_a_mistake_and_a_limit_read_in_turkish():
    from content import kata as kata_texts
    from kata import PROBLEMS
    from kata.judge import JudgeMessage, format_error

    i18n.use_resolver(lambda: "tr")
    try:
        problem = PROBLEMS["average_precision_at_k"]
        says = next(m.says for m in problem.mistakes if m.key == "ap_denominator=hits")
        assert "torchmetrics" in kata_texts.mistake(problem, says) and "divided" not in kata_texts.mistake(problem, says)
        limit = JudgeMessage("Time limit: ...", "time_limit", seconds=5.0)
        assert "5 s" in kata_texts.judge_message(limit, "f") and "Time limit" not in kata_texts.judge_message(limit, "f")
        syntax = format_error({"type": "SyntaxError", "message": "expected ':'", "line": 3, "column": 31,
                               "code": "def f(x)"})
        assert syntax == "SyntaxError: expected ':' (line 3, column 31)\n    def f(x)"  # English for Python users
        assert "satır 3, sütun 31" in kata_texts.judge_message(syntax, "f")
        missing = format_error({"type": "MissingFunction", "message": "define a function named f"})
        assert kata_texts.judge_message(missing, "f") == "Çağrılacak fonksiyon yok: f adında bir fonksiyon tanımlayın."
        assert kata_texts.starter(problem).startswith(problem.signature)
        assert kata_texts.starter(problem) != problem.starter
    finally:
        from ui import language

        i18n.use_resolver(language._session_language)


def test_a_failing_run_in_turkish_names_the_mistake_and_writes_the_decimal_comma():
    at = run_page(TOPIC_PAGES["kata"], lang="tr")
    at.selectbox(key="kata_problem").set_value("average_precision_at_k").run()
    type_code(at, WRONG["average_precision_at_k"]["ap_denominator=hits"])
    at.button(key="kata_run").click().run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    assert any("200 durumdan" in e.value for e in at.error)
    assert "torchmetrics" in texts(at) and "isabet sayısına böldünüz" in texts(at)
    values = {m.label: m.value for m in at.metric}
    shown = [values["Doğru değer"], values["Sizin değeriniz"]]
    assert all("." not in v for v in shown) and any("," in v for v in shown), shown  # e.g. 0,5 and 1


def test_the_catalogs_english_is_the_engines_english():
    """content.kata repeats kata/'s English as msgids: a changed docstring, hint or mistake must change both."""
    from content import kata as kata_texts
    from kata import PROBLEMS

    for problem in PROBLEMS.values():
        assert kata_texts.title(problem) == problem.title
        assert kata_texts.statement(problem) == problem.docstring and kata_texts.starter(problem) == problem.starter
        assert kata_texts.hints(problem) == list(problem.hints)
        for mistake in problem.mistakes:
            assert (problem.key, mistake.key) in kata_texts.MISTAKES, (problem.key, mistake.key)
            assert kata_texts.mistake(problem, mistake.says) == mistake.says


def test_the_classroom_messages_english_is_the_engines_english():
    from classroom import codes
    from classroom.store import AnswersClosed, NicknameTaken
    from content import classroom as class_texts

    for typed in (17, "  ", "x" * 41, "a\u202eb"):
        with pytest.raises(ValueError) as refused:
            codes.check_nickname(typed)
        assert class_texts.nickname_problem(refused.value) == str(refused.value)
    taken = NicknameTaken(nickname="Ann")
    assert class_texts.nickname_problem(taken) == str(taken) and "Ann" not in str(taken)
    with pytest.raises(ValueError) as refused:
        codes.check_nickname("Ann\u200d")
    assert class_texts.nickname_problem(refused.value) == str(refused.value)
    from classroom.limits import JoinThrottled
    from classroom.store import ClassFull

    for reason in ("wrong_codes", "joins"):
        assert class_texts.join_throttled(reason, 7) == str(JoinThrottled(reason, 7))
    assert class_texts.class_full(300) == str(ClassFull(300))
    for state in ("locked", "revealed"):
        assert class_texts.answers_closed(state) == str(AnswersClosed(state))


def test_in_turkish_the_options_and_the_answer_write_the_decimal_comma_as_the_cards_do():
    """Issue 32 item 11: the card showed 0,7500 while the options and "Cevap 0.75" used a point."""
    teacher, code = a_class("tr")
    student = joined(code, "Ayşe", {"lang": "tr"})
    teacher.button(key="live_next").click()
    ran(teacher)
    teacher.button(key="live_next").click()
    ran(teacher)
    ran(student)
    radio = student.radio(key="live_answer_topn:2")
    assert list(radio.options) == ["0,3", "0,75", "1,0"]
    radio.set_value("0.3")
    ran(student)
    assert "'0,3'" in texts(student)
    teacher.button(key="live_reveal").click()
    ran(teacher)
    ran(student)
    verdict = next(e.value for e in student.error).replace("\\", "")  # markdown escapes shown as typed
    assert "0,75" in verdict and "0.75" not in verdict
    bars = [spec for spec in chart_specs(student) if spec["data"][0]["type"] == "bar"][-1]  # the reveal's, last
    assert list(bars["data"][0]["x"]) == ["0,3", "0,75", "1,0"]
