"""MAP@K and MRR over several users (the NumPy tutorial's signatures) and F1@K: the model solutions
agree with ranx, an independent implementation, wherever its convention is the problem's; the
page shows a multi-user failure and opens it on the AP page's table of users."""

import math

import pytest

import kata
from kata import judge
from tests.conftest import run_page
from tests.kata_page import type_code
from tests.kata_samples import WRONG
from ui.state import TOPIC_PAGES


def model(key: str, style: str):
    namespace = {}
    exec(getattr(kata.PROBLEMS[key], style), namespace)  # noqa: S102 - our own model solution
    return namespace[key]


def _scores(recommended):
    return {str(item): float(len(recommended) - rank) for rank, item in enumerate(recommended)}


def ranx_values(metric: str, lists) -> list[float]:
    """ranx's value for each (recommended, relevant) pair, in one evaluate call (numba compiles once)."""
    from ranx import Qrels, Run, evaluate

    qrels = Qrels.from_dict({f"q{i}": {str(item): 1 for item in truth} for i, (_, truth) in enumerate(lists)})
    run = Run.from_dict({f"q{i}": _scores(rec) for i, (rec, _) in enumerate(lists)})
    evaluate(qrels, run, metric, return_mean=False)
    return [float(run.scores[metric][f"q{i}"]) for i in range(len(lists))]


def _eligible(key: str):
    """The judge's 200 cases ranx can score with the problem's convention: every user has a list and
    relevant items, and (for AP) no more relevant items than K, where min(|Rel|, K) is |Rel|."""
    for case, _ in judge.build_cases(kata.PROBLEMS[key], 0, 200):
        users = list(zip(case["all_recommended"], case["all_ground_truth"]))
        if all(rec and truth and len(truth) <= case.get("k", 10**6) for rec, truth in users):
            yield case, users


@pytest.mark.parametrize("style", ["loop_solution", "numpy_solution"])
def test_map_and_mrr_equal_ranx_where_its_convention_is_the_tutorials(style):
    for key, metric in (("mean_average_precision_at_k", "map@{k}"), ("mean_reciprocal_rank", "mrr")):
        function, by_metric = model(key, style), {}
        for case, users in _eligible(key):
            by_metric.setdefault(metric.format(k=case.get("k")), []).append((case, users))
        assert sum(map(len, by_metric.values())) > 60
        for name, chosen in by_metric.items():
            values = iter(ranx_values(name, [pair for _, users in chosen for pair in users]))
            for case, users in chosen:
                expected = sum(next(values) for _ in users) / len(users)
                assert math.isclose(function(**case), expected, rel_tol=1e-9, abs_tol=1e-12), case


def test_f1_equals_ranx():
    function, by_k = model("f1_at_k", "loop_solution"), {}
    for case, _ in judge.build_cases(kata.PROBLEMS["f1_at_k"], 0, 200):
        if case["recommended"] and case["relevant"]:
            by_k.setdefault(case["k"], []).append(case)
    assert sum(map(len, by_k.values())) > 100
    for k, cases in by_k.items():
        for case, value in zip(cases, ranx_values(f"f1@{k}", [(c["recommended"], c["relevant"]) for c in cases])):
            assert math.isclose(function(**case), value, abs_tol=1e-12), case


def test_the_tutorials_example_and_its_conventions():
    problem = kata.PROBLEMS["mean_average_precision_at_k"]
    assert problem.signature == "def mean_average_precision_at_k(all_recommended, all_ground_truth, k):"
    first, second = judge.build_cases(problem, 0, 2)
    assert math.isclose(second[1], 0.75)  # [[1, 2], [3, 4]] with {1}, {4} at K = 2: (1 + 0.5) / 2
    empty_user = {"all_recommended": [[1, 2, 3], [1, 2, 3]], "all_ground_truth": [{2}, set()], "k": 3}
    assert math.isclose(problem.reference(**empty_user), 0.25)  # the user with no relevant item counts 0
    assert kata.PROBLEMS["mean_reciprocal_rank"].signature == \
        "def mean_reciprocal_rank(all_recommended, all_ground_truth):"


def test_a_failing_map_shows_each_user_and_opens_them_on_the_ap_page():
    at = run_page(TOPIC_PAGES["kata"])
    at.selectbox(key="kata_problem").set_value("mean_average_precision_at_k").run()
    type_code(at, WRONG["mean_average_precision_at_k"]["skip_empty"])
    at.button(key="kata_run").click().run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    assert "left out the users with no relevant item" in "\n".join(w.value for w in at.warning)
    assert any("reciprocal rank \\(the mean over users" in m.value for m in at.markdown)
    at.button(key="kata_open_case").click().run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "📈 AP and MAP"
    assert len(at.session_state["users"]) >= 2


NEW = ("f1_at_k", "mean_average_precision_at_k", "mean_reciprocal_rank")
NAMED = [(key, mistake) for key in NEW for mistake in WRONG[key]]


@pytest.mark.parametrize(("key", "mistake"), NAMED, ids=[f"{k}-{m}" for k, m in NAMED])
def test_each_named_mistake_is_the_wrong_codes_value_on_every_case_it_fails(key, mistake):
    """The name must hold for the candidate's code on every failing case, not by a coincidence of values
    on one: the mistake's value (from metrics/) equals the hand-written wrong code's wherever it fails."""
    namespace = {}
    exec(WRONG[key][mistake], namespace)  # noqa: S102 - the suite's own sample
    wrong = namespace[key]
    compute = {m.key: m.compute for m in kata.PROBLEMS[key].mistakes}[mistake]
    failing = 0
    for case, expected in judge.build_cases(kata.PROBLEMS[key], 0, 200):
        try:
            got = wrong(**case)
        except ZeroDivisionError:  # ranks from 0 divide by zero when the first item is relevant: an error
            continue
        if not judge.close(expected, got):
            failing += 1
            assert judge.close(compute(case), got), (case, got, compute(case))
    assert failing >= 10
