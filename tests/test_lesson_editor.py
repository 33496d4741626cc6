"""“Make a question of this” without Streamlit: wrong options proposed from the named mistakes, and the lesson built."""

from __future__ import annotations

import math

import pytest

from content import i18n
from content.lessons import answers, editor
from content.lessons.file_reader import read_lesson
from metrics.registry import RankingCase
from teaching import question_mistakes

CASES = [
    RankingCase([11, 12, 13, 14, 15], {12: 1, 15: 2, 99: 1}, 3),
    RankingCase(["a", "b", "c", "d", "e", "f"], {"b": 3, "c": 1, "f": 2}, 4, gain="exponential"),
    RankingCase([1, 2, 3, 4, 5, 6, 7, 8], {1: 1, 4: 1, 8: 1}, 5),
    RankingCase([7, 8, 9], {9: 1}, 3),
    RankingCase([1, 2, 3, 4, 5], {5: 1}, 3),  # its only hit below K: HR@3 is 0, and 1 with @K ignored
]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("metric", editor.METRICS)
def test_each_proposal_is_its_mistake_computed_here_and_differs_from_the_right_value(case, metric):
    scenario = editor.scenario_of(case)
    right = editor.right_value(scenario, metric)
    computed = question_mistakes.named_mistakes(metric, editor.case_of(scenario))
    proposed = editor.proposals(scenario, metric)
    for proposal in proposed:
        assert math.isclose(proposal.value, computed[proposal.mistake], abs_tol=1e-12)
        assert not answers.close(proposal.value, right)
        assert abs(float(proposal.label) - proposal.value) <= 0.5e-4 + 1e-12
    values = [p.value for p in proposed]
    assert all(not answers.close(a, b) for i, a in enumerate(values) for b in values[i + 1:])  # no equal numbers
    left_out = {name for name, value in computed.items() if value is not None} - {p.mistake for p in proposed}
    for name in left_out:  # a mistake left out coincides with the right value or with one proposed before it
        assert answers.close(computed[name], right) or any(answers.close(computed[name], v) for v in values)


def test_the_named_mistakes_of_the_brief_are_proposed_where_they_differ():
    scenario = editor.scenario_of(CASES[0])
    names = lambda metric: [p.mistake for p in editor.proposals(scenario, metric)]  # noqa: E731
    assert question_mistakes.K_IGNORED.format(n=5, k=3) in names("recall_at_k")
    assert question_mistakes.NO_IDCG in names("ndcg_at_k")
    assert any(name.startswith("AP divided by") for name in names("ap_at_k"))
    graded = editor.scenario_of(CASES[1])
    assert any(name.startswith("linear gain") for name in [p.mistake for p in editor.proposals(graded, "ndcg_at_k")])
    wide = editor.scenario_of(RankingCase([1, 2, 3, 4], {1: 1, 2: 1, 9: 1}, 2))  # P@2 = 1, R@2 = 2/3
    assert question_mistakes.PRECISION_FOR_RECALL in [p.mistake for p in editor.proposals(wide, "recall_at_k")]


def test_a_mistake_that_gives_the_right_value_is_not_proposed():
    scenario = editor.scenario_of(RankingCase([1, 2, 3], {1: 1, 2: 1, 3: 1}, 3))  # every mistake of P@3 gives 1
    assert editor.proposals(scenario, "precision_at_k") == ()


@pytest.mark.parametrize("metric", editor.METRICS)
def test_a_value_question_loads_back_and_its_computed_answer_is_the_right_option(metric):
    # The first case where a named mistake gives another number for this metric (on the first, AP's do not).
    scenario, proposed = next((scenario, proposed) for scenario in map(editor.scenario_of, CASES)
                              if (proposed := editor.proposals(scenario, metric)))
    draft = editor.build(scenario, metric, "value", proposed[:2])
    assert draft.problems == ()
    question = draft.lesson.steps[0].question
    assert question.answer == editor.label(editor.right_value(scenario, metric))
    assert {o.label for o in question.options} == {question.answer, *(p.label for p in proposed[:2])}
    assert read_lesson(draft.text).lesson == draft.lesson
    assert set(draft.translations) == {"tr", "zh"}  # every sentence in every language


def test_a_typed_number_question_has_its_tolerance_and_no_options():
    draft = editor.build(editor.scenario_of(CASES[1]), "ndcg_at_k", "number", decimals=3)
    question = draft.lesson.steps[0].question
    assert draft.problems == () and question.options == () and question.tolerance.amount == 3
    assert draft.lesson.steps[0].scenario["gain"] == "exponential"


def test_a_value_question_with_no_wrong_option_is_refused_by_the_loader():
    draft = editor.build(editor.scenario_of(CASES[0]), "hit_rate_at_k", "value", ())
    assert draft.lesson is None and "at least two options" in draft.problems[0].text()


def test_k_is_cut_to_the_list_and_items_are_escaped_in_the_text():
    scenario = editor.scenario_of(RankingCase(["*x*", "<b>", "c"], {"*x*": 1}, 10))
    assert scenario["k"] == 3
    draft = editor.build(scenario, "recall_at_k", "number")
    assert r"\*x\*" in draft.lesson.steps[0].text and draft.lesson.steps[0].scenario["recommended"][0] == "*x*"


def test_the_explanations_are_translated():
    scenario = editor.scenario_of(CASES[0])
    proposal = editor.proposals(scenario, "ndcg_at_k")[0]
    with i18n.speaking("tr"):
        turkish = proposal.explanation()
    assert turkish != proposal.explanation()
