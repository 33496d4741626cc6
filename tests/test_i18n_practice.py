"""Practice in the reader's language: typed answers read with their decimal mark, every quiz text wrapped."""

from __future__ import annotations

import pytest

from content import i18n, numbers
from content import practice as words
from teaching import practice
from teaching.challenges import CHALLENGES
from teaching.practice import QuizSettings, make_quiz
from tests import pseudo
from tests.conftest import run_page
from tests.test_page_practice import PAGE, SEED, answer, plain, quiz_page


def score(at) -> str:
    """The quiz score ("1 / 2") in any language: the end of the quiz code line."""
    line = next(m.value for m in at.markdown if "&nbsp;" in m.value)
    return " ".join(line.split()[-3:])
from ui.input import scenario_link


def quiz_in(lang: str):
    return run_page(PAGE, lang=lang, practice={**scenario_link.PRACTICE_DEFAULTS, "seed": SEED})


def _box(at):
    return next(t for t in at.text_input if t.label == i18n.translation(at.session_state["lang"]).gettext("Your answer"))


def test_a_turkish_reader_types_a_decimal_comma_and_it_is_checked_as_the_point():
    at = quiz_in("tr")
    answer_tr(at, "0,4792")  # AP@5 = 23/48 = 0.4792
    assert at.success and "0,4792" in plain(at.success[0].value)
    assert score(at) == "1 / 1"


@pytest.mark.parametrize("typed", ["%47,92", "47,92%"])
def test_a_turkish_percentage_is_read_with_its_sign_first_or_last(typed):
    at = answer_tr(quiz_in("tr"), typed)
    assert at.success and score(at) == "1 / 1"


def test_a_turkish_0_5_is_read_as_0_5_not_refused_and_not_5():
    english = answer(quiz_page(), "0.5")
    at = answer_tr(quiz_in("tr"), "0,5")
    # 0.5 is too coarse for 23/48 = 0.4792: both are told it stands for 0.45 to 0.55 (so 0,5 was read as 0.5)
    assert score(at) == score(english) == "0 / 0"
    assert "0.45" in plain(english.error[0].value) and "0.55" in plain(english.error[0].value)
    shown = plain(at.error[0].value)
    assert "0,5" in shown and "0,45" in shown and "0,55" in shown, shown
    assert not any("virgül" in e.value.lower() for e in at.error)


def test_an_english_reader_typing_0_5_with_a_comma_is_refused_and_keeps_the_text():
    at = answer(quiz_page(), "0,5")
    refusal = numbers.parse_error_message(numbers.NumberError("comma_decimal", "0,5"))
    assert [plain(e.value) for e in at.error] == [refusal]
    assert score(at) == "0 / 0"  # not scored: the reader writes it again
    assert _box(at).value == "0,5"
    answer(at, "23/48")
    assert score(at) == "1 / 1"


def answer_tr(at, typed: str):
    box = _box(at)
    box.set_value(typed)
    at.button(key="_quiz_check").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


# --- every quiz text through the catalogs -----------------------------------------------------------------

def _pseudo():
    i18n.use_resolver(lambda: i18n.PSEUDO)


@pytest.fixture
def in_pseudo():
    _pseudo()
    yield
    from ui import language
    i18n.use_resolver(language._session_language)


def _wrapped(text: str) -> bool:
    return not pseudo.leftover_words(text)


def _one_of_each_kind():
    found = {}
    for seed in range(40):
        for question in make_quiz(QuizSettings(seed=seed, questions=12)):
            key = question.kind if question.kind != "data" else f"data:{type(question.case).__name__}:{question.metric}"
            found.setdefault(key, question)
    return found


def test_a_quiz_question_of_every_kind_has_its_question_options_and_explanation_wrapped(in_pseudo):
    questions = _one_of_each_kind()
    assert {"compute", "compare", "swap", "k_equal"} <= set(questions)
    assert {key.split(":")[1] for key in questions if key.startswith("data:")} == \
        {"ScoreCase", "ProbabilityCase", "RatingCase", "LabelCase"}
    for key, question in questions.items():
        assert _wrapped(words.prompt(question)), (key, words.prompt(question))
        for option in question.options:
            assert _wrapped(words.option(option)), (key, option)
        answers = [*question.options] if question.options else ["12345", "abc", "", "0.5", "1"]
        if not question.options:
            exact = (practice.QUIZ_METRICS[question.metric].compute(question.case) if question.kind == "compute"
                     else practice.practice_data.compute(question.metric, question.case)
                     if question.kind == "data" else min(question.right_ks))
            answers += [f"{exact:.4f}", str(exact)]
            if question.kind == "compute":
                answers += [f"{v:.4f}" for v in practice.mistakes(question.metric, question.case).values()]
            if question.kind == "data":
                answers += [f"{v:.4f}" for v, _ in practice.practice_data.mistakes(question.metric, question.case).values()]
        answers.append("no such option")
        for typed in answers:
            verdict = practice.check(question, typed)
            assert verdict.code, (key, typed, verdict.message)
            message = words.verdict_message(verdict, typed)
            assert _wrapped(message), (key, typed, message)


def test_every_mistake_a_verdict_can_name_has_a_translation():
    questions = _one_of_each_kind()
    names = set()
    for question in questions.values():
        if question.kind in ("compute", "compare", "swap"):
            names |= set(practice.QUIZ_METRICS[question.metric].mistakes(question.case))
        if question.kind == "data":
            names |= set(practice.practice_data.mistakes(question.metric, question.case))
    for metric, quiz_metric in practice.QUIZ_METRICS.items():
        names |= set(quiz_metric.mistakes(questions["compute"].case))
    assert names
    for name in names:
        assert any(pattern.fullmatch(name) for _, pattern in words._PATTERNS), name


def test_the_goal_challenges_and_their_statuses_are_wrapped(in_pseudo):
    for key, challenge in CHALLENGES.items():
        assert _wrapped(words.challenge_title(key))
        start = [str(i) for i in challenge.recommended]
        truth = {str(k): v for k, v in challenge.ground_truth.items()}
        for current in (start, start[::-1], start[:-1] + ["999"], start[:-1], start[1:] + start[:1],
                        [start[2], start[1], start[0], *start[3:]]):
            status = challenge.check(start, current, truth)
            assert status.code, status.message
            assert _wrapped(words.status_message(status)), status.message


def test_the_worked_solutions_of_a_wrong_answer_are_worded_for_the_reader(in_pseudo):
    """Titles of every solution, and the table and steps of practice's own (K, swap, data) solutions."""
    for key, question in _one_of_each_kind().items():
        typed = next((o for o in question.options if o not in question.right_options), None) or "12345"
        verdict = practice.check(question, typed)
        for index, solution in enumerate(words.solutions(question, verdict)):
            assert _wrapped(solution.title), (key, solution.title)
            if question.kind in ("k_equal", "data") or (question.kind == "swap" and index == 0):
                label = question.label
                for _, step in solution.steps:
                    assert not pseudo.leftover_words(step, {label, "Accuracy"}), (key, step)  # Accuracy: a registry label
                for column in solution.table.columns:
                    assert not pseudo.leftover_words(str(column), {label}), (key, column)
