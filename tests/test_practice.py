"""Practice mode's arithmetic: answers, the mistake catalogue against hand calculations, quiz and goals."""

from fractions import Fraction
from itertools import combinations
from math import log, log2

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from teaching import practice
from teaching.challenges import CHALLENGES, swap_distance
from teaching.practice import (
    QUIZ_METRICS, QuizSettings, check, check_metric, make_quiz, parse_answer,
)
from metrics.registry import RankingCase

SEED_LIST = list(range(101, 111))
SEED_BINARY = {101: 1.0, 104: 1.0, 107: 1.0}  # first seed document, hits at ranks 1, 4, 7
SEED_999 = {103: 1.0, 105: 1.0, 108: 1.0, 999: 1.0}  # hits at ranks 3, 5, 8; 999 never recommended
SEED_GRADED = {101: 5.0, 104: 4.0, 107: 3.0, 999: 5.0}  # grades 5, 4, 3 at ranks 1, 4, 7

# Hand calculations of the graded seed example, K = 10, linear gain.
DCG_GRADED = 5 / log2(2) + 4 / log2(5) + 3 / log2(8)
IDCG_GRADED = 5 / log2(2) + 5 / log2(3) + 4 / log2(4) + 3 / log2(5)


def case(ground_truth, k=10, **options) -> RankingCase:
    return RankingCase(SEED_LIST, ground_truth, k, **options)


@pytest.mark.parametrize(("text", "expected"), [
    ("9/14", Fraction(9, 14)), ("0.6429", Fraction(6429, 10000)), ("0,6429", Fraction(6429, 10000)),
    (" 64.29 % ", Fraction(6429, 10000)), ("1", Fraction(1)), ("-0.5", Fraction(-1, 2)), ("1e-3", Fraction(1, 1000)),
], ids=["fraction", "decimal", "decimal-comma", "percent", "integer", "negative", "exponent"])
def test_parse_answer_reads_decimals_and_fractions(text, expected):
    assert parse_answer(text) == expected


@pytest.mark.parametrize("text", ["", "abc", "1/0", "nan", "inf", "1,2,3", "0.5.5", "9" * 50],
                         ids=["empty", "word", "zero-denominator", "nan", "inf", "commas", "two-points", "too-long"])
def test_parse_answer_rejects_what_is_not_a_number(text):
    with pytest.raises(ValueError, match="number|Type"):
        parse_answer(text)


@pytest.mark.parametrize(("typed", "correct"), [
    ("9/14", True), ("0.6429", True), ("0.64286", True), ("0,6429", True), ("64.29%", True), ("0.643", True),
    ("0.6428", False), ("0.642", False), ("0.64285", False), ("5/7", False), ("", False),
])
def test_ap_answer_is_the_exact_value_rounded_to_the_typed_decimals_or_the_exact_fraction(typed, correct):
    # AP@10 of the NumPy tutorial's list: (1/1 + 2/4 + 3/7) / 3 = 9/14 = 0.642857...
    assert check_metric(typed, "ap_at_k", case(SEED_BINARY)).correct is correct


def test_an_answer_right_to_3_decimals_is_accepted_and_quoted_as_typed():
    dcg = case({101: 1.0, 102: 1.0})  # 1 + 1/log2(3) = 1.63093
    verdict = check_metric("1.631", "dcg_at_k", dcg)
    assert verdict.correct and "1.631 " in verdict.message and "1.6310" not in verdict.message
    wrong = check_metric(" 1.632 ", "dcg_at_k", dcg)
    assert not wrong.correct and "you typed 1.632;" in wrong.message
    assert "2/3" in check_metric("2/3", "dcg_at_k", dcg).message  # a fraction is quoted as a fraction


def test_too_few_decimals_to_tell_are_not_scored_and_say_the_precision_asked():
    verdict = check_metric("0.64", "ap_at_k", case(SEED_BINARY))
    assert verdict.unreadable and "at least 3 decimals" in verdict.message
    assert not check_metric("0.5", "ap_at_k", case(SEED_BINARY)).unreadable, "a wrong short answer is wrong"
    assert "at least 3 decimals" in practice.ANSWER_RULE


@pytest.mark.parametrize(("metric", "ground_truth", "k", "hand", "mistake"), [
    # AP@3 of the 999 example: one hit at rank 3, precision 1/3; right: / min(4, 3) = 3
    ("ap_at_k", SEED_999, 3, (1 / 3) / 4, "AP divided by |Rel|"),
    ("ap_at_k", SEED_999, 3, (1 / 3) / 1, "AP divided by the hits"),
    # AP@10 of the 999 example: right (1/3 + 2/5 + 3/8) / 4 = 0.2771; the seed's own 0.3694 divides by the 3 hits
    ("ap_at_k", SEED_999, 10, (1 / 3 + 2 / 5 + 3 / 8) / 3, "AP divided by the hits"),
    ("ap_at_k", SEED_999, 10, (1 / 2 + 2 / 4 + 3 / 7) / 4, "ranks counted from 0"),
    ("rr", SEED_999, 2, 0.0, "RR cut at K = 2"),
    ("rr", SEED_999, 10, 1 / 2, "ranks counted from 0"),
    ("ndcg_at_k", SEED_GRADED, 10,
     (31 / log2(2) + 15 / log2(5) + 7 / log2(8)) / (31 / log2(2) + 31 / log2(3) + 15 / log2(4) + 7 / log2(5)),
     "exponential gain"),
    ("ndcg_at_k", SEED_GRADED, 10, DCG_GRADED / (5 / log2(2) + 4 / log2(3) + 3 / log2(4)), "the ideal ranking built from"),
    ("ndcg_at_k", SEED_GRADED, 10,
     (5 / log2(3) + 4 / log2(6) + 3 / log2(9)) / (5 / log2(3) + 5 / log2(4) + 4 / log2(5) + 3 / log2(6)),
     "ranks counted from 0"),
    ("dcg_at_k", SEED_GRADED, 10, 5 / log(2) + 4 / log(5) + 3 / log(8), "log base e"),
    ("dcg_at_k", SEED_GRADED, 10, 31 / log2(2) + 15 / log2(5) + 7 / log2(8), "exponential gain"),
    ("dcg_at_k", SEED_GRADED, 10, 5 / log2(3) + 4 / log2(6) + 3 / log2(9), "ranks counted from 0"),
], ids=["ap-by-rel", "ap-by-hits-k3", "ap-by-hits-k10", "ap-from-0", "rr-cut", "rr-from-0", "ndcg-exp",
        "ndcg-ideal-from-list", "ndcg-from-0", "dcg-ln", "dcg-exp", "dcg-from-0"])
def test_each_mistake_reproduces_the_hand_calculation_with_that_mistake(metric, ground_truth, k, hand, mistake):
    verdict = check_metric(f"{hand:.4f}", metric, case(ground_truth, k))
    assert not verdict.correct
    assert verdict.mistake is not None and verdict.mistake.startswith(mistake), verdict.message


def test_right_graded_seed_values_match_the_hand_calculation():
    assert check_metric(f"{DCG_GRADED / IDCG_GRADED:.4f}", "ndcg_at_k", case(SEED_GRADED)).correct
    assert check_metric(f"{DCG_GRADED:.4f}", "dcg_at_k", case(SEED_GRADED)).correct
    # the exponential gain is right when it is the chosen gain, and then linear is the mistake
    verdict = check_metric(f"{DCG_GRADED / IDCG_GRADED:.4f}", "ndcg_at_k", case(SEED_GRADED, gain="exponential"))
    assert verdict.mistake.startswith("linear gain")


def test_a_wrong_number_no_mistake_explains_is_rejected_without_a_name():
    verdict = check_metric("0.5", "ap_at_k", case(SEED_BINARY))
    assert not verdict.correct and verdict.mistake is None and "9/14" in verdict.message


def test_mistakes_that_give_the_right_number_are_not_offered():
    # The binary seed: |Rel| = min(|Rel|, K) = hits = 3, so no AP denominator mistake is distinguishable;
    # the base of the log cancels in NDCG.
    assert practice.mistakes("ap_at_k", case(SEED_BINARY)) == {}
    assert not any("log base" in name for name in practice.mistakes("ndcg_at_k", case(SEED_GRADED)))


def test_the_same_seed_gives_the_same_quiz_and_another_seed_another():
    chosen = QuizSettings(seed=2026, length=10, graded=True, k=5, questions=8)
    assert make_quiz(chosen) == make_quiz(chosen)
    assert make_quiz(chosen) != make_quiz(QuizSettings(seed=2027, length=10, graded=True, k=5, questions=8))
    assert [q.kind for q in make_quiz(chosen)] == [practice.KINDS[i % len(practice.KINDS)] for i in range(8)]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), length=st.integers(3, 12), graded=st.booleans(), k=st.integers(1, 12))
def test_every_question_has_a_right_answer_that_brute_force_confirms(seed, length, graded, k):
    for question in make_quiz(QuizSettings(seed, length, graded, k, questions=4)):
        compute = QUIZ_METRICS[question.metric].compute
        if question.kind == "compute":
            assert check(question, str(compute(question.case))).correct
        elif question.kind == "compare":
            a, b = compute(question.case), compute(question.other)
            expected = "They score the same" if abs(a - b) < 1e-12 else "List A" if a > b else "List B"
            assert question.right_options == {expected}
        elif question.kind == "swap":
            items, before = question.case.recommended, compute(question.case)
            gains = {}
            for i, j in combinations(range(len(items)), 2):
                swapped = list(items)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                gains[f"swap ranks {i + 1} and {j + 1}"] = compute(RankingCase(swapped, question.case.ground_truth, question.case.k)) - before
            best = max(gains.values())
            assert best > 0
            assert question.right_options == {o for o in question.options if gains[o] >= best - 1e-12}
            assert all(check(question, o).correct == (o in question.right_options) for o in question.options)
        else:
            rec, truth = question.case.recommended, question.case.ground_truth
            hits = [len(set(rec[:kk]) & set(truth)) for kk in range(1, len(rec) + 1)]
            assert question.right_ks == {kk for kk in range(1, len(rec) + 1) if hits[kk - 1] * len(truth) == hits[kk - 1] * kk}
            assert check(question, str(min(question.right_ks))).correct


def test_k_equal_wrong_answer_says_both_values():
    question = next(q for q in make_quiz(QuizSettings(seed=5)) if q.kind == "k_equal")
    wrong = next(k for k in range(1, 9) if k not in question.right_ks)
    verdict = check(question, str(wrong))
    assert not verdict.correct and f"at K = {wrong}, P@K = " in verdict.message


def test_summary_lists_each_missed_metric_once():
    assert practice.summary([("AP@5", False), ("RR", True), ("AP@5", False)]) == (1, 3, ["AP@5"])


def test_swap_distance_is_the_fewest_swaps_for_every_order_of_six():
    # Breadth-first search over single swaps is the independent reference.
    start = tuple(range(6))
    distance, frontier = {start: 0}, [start]
    while frontier:
        following = []
        for order in frontier:
            for i, j in combinations(range(6), 2):
                swapped = tuple(_swap(order, i, j))
                if swapped not in distance:
                    distance[swapped] = distance[order] + 1
                    following.append(swapped)
        frontier = following
    assert len(distance) == 720
    assert all(swap_distance(list(start), list(order)) == d for order, d in distance.items())


def test_ndcg_challenge_needs_exactly_two_swaps_from_its_start():
    challenge = CHALLENGES["ndcg_two_swaps"]
    start = list(challenge.recommended)
    assert not challenge.check(start, start, challenge.ground_truth).met
    one = [_swap(start, i, j) for i, j in combinations(range(len(start)), 2)]
    assert not any(challenge.check(start, s, challenge.ground_truth).met for s in one)
    two = [_swap(s, i, j) for s in one for i, j in combinations(range(len(start)), 2)]
    assert any(challenge.check(start, s, challenge.ground_truth).met for s in two)
    three = _swap(_swap(_swap(start, 0, 2), 1, 5), 8, 9)  # the two good swaps plus a third
    status = challenge.check(start, three, challenge.ground_truth)
    assert not status.met and "more than 2 swaps" in status.message
    assert "same items" in challenge.check(start, start[:-1] + [999], challenge.ground_truth).message


def _swap(items, i, j):
    swapped = list(items)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    return swapped


def test_precision_ap_challenge_recognises_a_disagreement():
    challenge = CHALLENGES["p_ap_disagree"]
    start = list(challenge.recommended)
    assert not challenge.check(start, start, challenge.ground_truth).met
    # P@5: 3/5 > 2/5, AP@5: (1/3 + 2/4 + 3/5)/3 = 0.4778 < (1 + 2/4)/3 = 0.5
    disagreeing = [102, 103, 101, 104, 107, 105, 106, 108, 109, 110]
    assert challenge.check(start, disagreeing, challenge.ground_truth).met
    agreeing = [101, 107, 104, 102, 103, 105, 106, 108, 109, 110]
    assert not challenge.check(start, agreeing, challenge.ground_truth).met


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), graded=st.booleans(), k=st.integers(1, 10),
       gain=st.sampled_from(["linear", "exponential"]), denominator=st.sampled_from(["min", "relevant", "hits"]))
def test_every_listed_mistake_is_named_when_its_number_is_typed(seed, graded, k, gain, denominator):
    base = practice._random_case(np.random.default_rng(seed), QuizSettings(seed, 10, graded, k))
    case = RankingCase(base.recommended, base.ground_truth, base.k, gain, denominator)
    for metric in QUIZ_METRICS:
        right = QUIZ_METRICS[metric].compute(case)
        for name, value in practice.mistakes(metric, case).items():
            verdict = check_metric(repr(value), metric, case)
            assert not verdict.correct and verdict.mistake is not None, (metric, name, value, right)
            assert practice.close(practice.mistakes(metric, case)[verdict.mistake], value)


# --- a wrong answer gets the worked solution, the step that went wrong marked -------------------------

def wrong_answer(question) -> str:
    if question.options:
        return next(o for o in question.options if o not in question.right_options)
    if question.kind == "k_equal":
        return str(next(k for k in range(1, len(question.case.recommended) + 1) if k not in question.right_ks))
    return "12345"


@pytest.mark.parametrize("seed", range(1, 9))
def test_every_wrong_answer_gets_a_worked_solution_whose_numbers_are_the_metrics(seed):
    for question in make_quiz(QuizSettings(seed=seed)):
        verdict = check(question, wrong_answer(question))
        assert not verdict.correct and verdict.solution, (question.kind, verdict)
        for solution in verdict.solution:
            assert len(solution.table) and solution.steps
        if question.kind in ("compute", "compare"):
            cases = [question.case] + ([question.other] if question.other else [])
            for solution, one in zip(verdict.solution, cases, strict=True):
                value = QUIZ_METRICS[question.metric].compute(one)
                last = solution.steps[-1][1]
                assert last.endswith(f"{value:.4f}"), (last, value)
        if question.kind == "swap":
            chosen = verdict.solution[0].table.set_index("swap")[""]
            assert chosen[wrong_answer(question)] == "your choice" and verdict.solution[0].marked == "choice"


def test_the_ndcg_ideal_from_the_top_k_only_is_diagnosed_and_its_idcg_step_marked():
    # The list a newcomer met: hits at ranks 2 and 3 of the top 5, two more relevant items below it.
    listed = RankingCase([655, 523, 885, 869, 696, 851, 100, 200], {523: 1.0, 885: 1.0, 851: 1.0, 378: 1.0}, 5)
    assert f"{QUIZ_METRICS['ndcg_at_k'].compute(listed):.4f}" == "0.4415"
    verdict = check_metric("0.6934", "ndcg_at_k", listed)  # (1/log2 3 + 1/2) / (1 + 1/log2 3)
    assert verdict.mistake and "top K = 5 of the list only" in verdict.mistake
    assert verdict.solution[0].marked == "idcg"
    assert "IDCG@5 = 2.5616" in dict(verdict.solution[0].steps)["idcg"]


def test_a_diagnosed_ap_mistake_marks_the_dividing_step():
    verdict = check_metric(f"{(1 / 3 + 2 / 5 + 3 / 8) / 3:.4f}", "ap_at_k", case(SEED_999, 10))
    assert verdict.mistake.startswith("AP divided by the hits")
    assert verdict.solution[0].marked == "divide"
    assert dict(verdict.solution[0].steps)["result"].endswith(f"{(1 / 3 + 2 / 5 + 3 / 8) / 4:.4f}")


# --- beyond rankings: AUC, GAUC, LogLoss, RMSE/MAE and the confusion matrix ----------------------------

def test_the_quiz_asks_every_family_of_metrics_across_a_few_quizzes():
    from teaching.practice_data import FAMILIES
    asked = {q.metric for seed in range(1, 21) for q in make_quiz(QuizSettings(seed=seed)) if q.kind == "data"}
    for family in FAMILIES:
        assert asked & set(family.metrics), family.name
    assert {"auc", "gauc", "log_loss", "rmse", "mae"} <= asked
    assert asked & {"accuracy", "precision", "recall", "f1"}


@pytest.mark.parametrize("seed", range(1, 16))
def test_data_questions_are_checked_against_an_independent_calculation(seed):
    from sklearn.metrics import accuracy_score, f1_score, log_loss, mean_absolute_error, mean_squared_error
    from sklearn.metrics import precision_score, recall_score, roc_auc_score
    for question in (q for q in make_quiz(QuizSettings(seed=seed)) if q.kind == "data"):
        c = question.case
        if question.metric == "gauc":
            users = sorted(set(c.user_ids))
            parts = []
            for user in users:
                index = [i for i, u in enumerate(c.user_ids) if u == user]
                labels = [c.y_true[i] for i in index]
                if 0 < sum(labels) < len(labels):
                    parts.append((len(index), roc_auc_score(labels, [c.y_score[i] for i in index])))
            expected = sum(w * a for w, a in parts) / sum(w for w, _ in parts)
        else:
            expected = {
                "auc": lambda: roc_auc_score(c.y_true, c.y_score),
                "log_loss": lambda: log_loss(c.y_true, c.y_prob, labels=[0, 1]),
                "rmse": lambda: mean_squared_error(c.actuals, c.predictions) ** 0.5,
                "mae": lambda: mean_absolute_error(c.actuals, c.predictions),
                "accuracy": lambda: accuracy_score(c.y_true, c.y_pred),
                "precision": lambda: precision_score(c.y_true, c.y_pred),
                "recall": lambda: recall_score(c.y_true, c.y_pred),
                "f1": lambda: f1_score(c.y_true, c.y_pred),
            }[question.metric]()
        assert check(question, f"{expected:.4f}").correct, (question.metric, expected)
        wrong = check(question, "12345")
        assert not wrong.correct and wrong.solution and wrong.solution[0].steps[-1][1].endswith(f"{expected:.4f}")


@pytest.mark.parametrize(("metric", "mistake", "step"), [
    ("auc", "a tie counted 0", "ties"), ("gauc", "a plain mean over users", "weights"),
    ("log_loss", "log base 10", "terms"), ("rmse", "MSE: the root was not taken", "root"),
    ("mae", "signed errors averaged", "absolute"), ("precision", "recall's denominator", "result"),
])
def test_a_data_mistake_is_named_and_its_step_marked(metric, mistake, step):
    from teaching import practice_data
    from teaching.practice import Question
    cases = {"auc": practice_data.registry.ScoreCase(["u"] * 4, [1, 0, 1, 0], [0.8, 0.5, 0.5, 0.2]),
             "gauc": practice_data.registry.ScoreCase(["a", "a", "b", "b", "b"], [1, 0, 1, 0, 0],
                                                      [0.9, 0.1, 0.2, 0.8, 0.1]),
             "log_loss": practice_data.registry.ProbabilityCase([1, 0, 1], [0.8, 0.3, 0.6]),
             "rmse": practice_data.registry.RatingCase([3.0, 4.0, 2.0], [4.0, 4.0, 5.0]),
             "mae": practice_data.registry.RatingCase([3.0, 5.0, 2.0], [4.0, 4.0, 4.0]),
             "precision": practice_data.registry.LabelCase([1, 1, 1, 0, 0], [1, 0, 0, 1, 0])}
    question = Question("data", metric, "", cases[metric])
    value = next(v for name, (v, _) in practice_data.mistakes(metric, question.case).items() if name.startswith(mistake))
    verdict = check(question, f"{value:.4f}")
    assert verdict.mistake and verdict.mistake.startswith(mistake)
    assert verdict.solution[0].marked == step


def test_halfway_through_a_typed_swap_the_goal_says_how_to_finish_it():
    for key in CHALLENGES:
        challenge = CHALLENGES[key]
        start = list(challenge.recommended)
        # 103 typed over 101 at rank 1: 103 appears twice, its second copy (rank 3) is left out
        halfway = [103] + start[1:2] + start[3:]
        status = challenge.check(start, halfway, challenge.ground_truth)
        assert not status.met and "Halfway through a swap: 101 is missing" in status.message
        assert "Only reorder" not in status.message
    assert "same items" in CHALLENGES["ndcg_two_swaps"].check(start, start[:-1] + [999], {}).message


def test_two_lists_are_one_table_with_a_row_per_rank():
    question = next(q for q in make_quiz(QuizSettings(seed=3, length=12)) if q.kind == "compare")
    table = practice.two_lists_table(question.case, question.other)
    assert len(table) == 12 and list(table.columns) == ["rank", "list A", "list B"]
    assert table["list B"].iloc[-1].split(" ")[0] == str(question.other.recommended[-1])
