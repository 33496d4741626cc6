"""The quiz's progress without a page: new settings start a new round, unreadable answers are not scored, the
last question leads to the summary; and an answer as typed is checked or refused."""

from content import practice as quiz_words
from teaching import quiz_progress as progress_of
from teaching.practice import QuizSettings, Verdict, make_quiz

QUIZ = make_quiz(QuizSettings(seed=1))


def test_k_never_passes_the_list_and_the_same_settings_keep_the_progress():
    chosen = {"seed": 4, "length": 5, "k": 9, "graded": True, "challenge": None}
    settings = progress_of.settings_of(chosen)
    assert settings == QuizSettings(seed=4, length=5, graded=True, k=5)
    first = progress_of.current(None, settings)
    assert first == {"settings": settings, "index": 0, "results": [], "verdict": None, "round": 1}
    assert progress_of.current(first, settings) is first
    other = progress_of.current(first, QuizSettings(seed=5))
    assert other["round"] == 2 and other["index"] == 0


def test_an_unreadable_answer_is_kept_but_not_scored_then_a_wrong_one_is():
    progress = progress_of.current(None, QuizSettings(seed=1))
    progress_of.record(progress, "RR", "abc", Verdict(False, "not a number", unreadable=True))
    assert progress["typed"] == "abc" and progress["results"] == [] and not progress_of.answered(progress)
    progress_of.record(progress, "RR", "0.2", Verdict(False, "wrong"))
    assert progress["results"] == [("RR", False)] and progress_of.answered(progress)


def test_next_restart_and_the_end_of_the_quiz():
    progress = progress_of.current(None, QuizSettings(seed=1))
    assert progress_of.answer_key(progress) == "_quiz_answer_1_0"
    progress["index"] = len(QUIZ) - 1
    progress["verdict"] = Verdict(True, "right")
    assert progress_of.is_last(progress, QUIZ) and not progress_of.finished(progress, QUIZ)
    progress_of.next_question(progress)
    assert progress_of.finished(progress, QUIZ) and progress["verdict"] is None
    progress["results"].append(("RR", True))
    progress_of.restart(progress)
    assert (progress["index"], progress["results"], progress["round"]) == (0, [], 2)
    assert progress_of.answer_key(progress) == "_quiz_answer_2_0"


def test_a_number_that_cannot_be_read_is_refused_not_marked_wrong():
    number = next(q for q in QUIZ if not q.options)
    refused = quiz_words.checked(number, "zero point five")
    assert refused.unreadable and not refused.correct and refused.message
    assert not quiz_words.checked(number, "0.001").unreadable


def test_which_k_shows_both_formulas_the_others_their_own():
    for question in QUIZ:
        shown = quiz_words.question_latex(question)
        if question.kind == "k_equal":
            assert r"\mathrm{P@K}=\frac{\text{hits}_K}{K}" in shown and r"\lvert\mathrm{Rel}\rvert" in shown
        else:
            assert shown == quiz_words.latex(question.latex)
    assert any(q.kind == "k_equal" for q in QUIZ)
