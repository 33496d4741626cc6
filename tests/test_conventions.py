"""metrics.conventions: the trec_eval, ranx and scikit-learn rows against the real libraries on
hundreds of random inputs; every other row against the values measured in library-conventions.md;
every difference from the app names a cause that explains it.

Random inputs cover lists shorter than K, |Rel| > K, graded and fractional grades, relevant
items never recommended, grade-0 judgments, an empty ground truth and an empty list.
"""

from __future__ import annotations

import math
import warnings
from collections import defaultdict
from dataclasses import replace
from functools import lru_cache

import numpy as np
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, ndcg_score

from metrics import conventions as conv

TOL = 1e-9
N_CASES = 300
SEED_LIST = [str(i) for i in range(101, 111)]


def random_case(rng: np.random.Generator) -> tuple[list[str], dict, int]:
    pool = [f"i{n}" for n in rng.choice(100_000, size=30, replace=False)]
    length = 0 if rng.random() < 0.03 else int(rng.integers(1, 16))
    recommended, others = pool[:length], pool[length:]
    kind = rng.random()
    if kind < 0.05:
        return recommended, {}, int(rng.integers(1, 21))
    judged = [i for i in recommended if rng.random() < rng.uniform(0.1, 0.8)]
    judged += [str(i) for i in rng.choice(others, size=int(rng.integers(0, 6)), replace=False)]
    judged = judged or others[:1]
    if kind < 0.45:
        grades = {i: int(rng.integers(0, 2)) for i in judged}
    elif kind < 0.85:
        grades = {i: int(rng.integers(0, 4)) for i in judged}
    else:  # fractional grades: whole-level libraries truncate them
        grades = {i: float(rng.choice([0, 0.5, 1, 1.5, 2.5, 3])) for i in judged}
    return recommended, grades, int(rng.integers(1, 21))


@lru_cache(maxsize=None)
def cases() -> list[tuple[list[str], dict, int]]:
    rng = np.random.default_rng(20261130)
    return [random_case(rng) for _ in range(N_CASES)]


def test_random_cases_cover_every_disagreement():
    all_cases = cases()
    assert any(k > len(rec) for rec, _, k in all_cases)
    assert any(sum(g > 0 for g in gt.values()) > k for _, gt, k in all_cases)
    assert any(any(g > 0 and i not in rec for i, g in gt.items()) for rec, gt, _ in all_cases)
    assert any(max(gt.values(), default=0) > 1 for _, gt, _ in all_cases)
    assert any(any(not float(g).is_integer() for g in gt.values()) for _, gt, _ in all_cases)
    assert any(not gt for _, gt, _ in all_cases) and any(not rec for rec, _, _ in all_cases)
    assert any(gt and max(gt.values()) == 0 for _, gt, _ in all_cases)


def scores(recommended) -> dict[str, float]:
    """Strictly decreasing distinct scores, so a library that ranks by score keeps the list order."""
    return {item: float(len(recommended) - rank) for rank, item in enumerate(recommended)}


def same(ours: float, theirs: float) -> bool:
    return (math.isnan(ours) and math.isnan(theirs)) or abs(ours - theirs) <= TOL


def check(rows) -> None:
    rows = list(rows)
    assert rows
    bad = [r for r in rows if not same(r[-2], r[-1])]
    assert not bad, f"{len(bad)} of {len(rows)} cells disagree, e.g. {bad[:5]}"


# --------------------------------------------------------------------------- trec_eval

TREC_NAMES = {"precision": "P_{k}", "recall": "recall_{k}", "average_precision": "map_cut_{k}",
              "ndcg": "ndcg_cut_{k}", "reciprocal_rank": "recip_rank"}


def test_trec_eval_row_equals_pytrec_eval():
    by_k = defaultdict(list)
    for index, (_, _, k) in enumerate(cases()):
        by_k[k].append(index)
    rows = []
    for k, indices in by_k.items():
        qrels = {f"q{i}": {item: int(g) for item, g in cases()[i][1].items()} for i in indices}
        run = {f"q{i}": scores(cases()[i][0]) for i in indices}
        measures = {f"P.{k}", f"recall.{k}", f"map_cut.{k}", f"ndcg_cut.{k}", "recip_rank"}
        result = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
        for i in indices:
            recommended, truth, _ = cases()[i]
            values = conv.library_values(recommended, truth, k).loc["trec_eval"]
            for metric, name in TREC_NAMES.items():
                expected = result[f"q{i}"][name.format(k=k)] if f"q{i}" in result else float("nan")
                rows.append((recommended, truth, k, metric, values[metric], expected))
    check(rows)


# --------------------------------------------------------------------------- ranx

RANX_NAMES = {"precision": "precision@{k}", "recall": "recall@{k}", "average_precision": "map@{k}",
              "ndcg": "ndcg@{k}", "reciprocal_rank": "mrr@{k}"}


@pytest.fixture(scope="module")
def ranx_results():
    """ranx's per-query values: one evaluate call per K for the inputs it accepts, and for each
    input it refuses (nothing judged, nothing ranked) the ValueError it raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from ranx import Qrels, Run, evaluate

        results: dict[int, dict] = {}
        by_k = defaultdict(list)
        for index, (recommended, truth, k) in enumerate(cases()):
            if recommended and truth:
                by_k[k].append(index)
                continue
            with pytest.raises(ValueError):
                evaluate(Qrels.from_dict({"q": truth}), Run.from_dict({"q": scores(recommended)}),
                         [f"ndcg@{k}"], return_mean=False)
            results[index] = dict.fromkeys(RANX_NAMES, float("nan"))
        for k, indices in by_k.items():
            qrels = Qrels.from_dict({f"q{i}": dict(cases()[i][1]) for i in indices})
            run = Run.from_dict({f"q{i}": scores(cases()[i][0]) for i in indices})
            names = {metric: name.format(k=k) for metric, name in RANX_NAMES.items()}
            evaluate(qrels, run, list(names.values()), return_mean=False)
            for i in indices:
                results[i] = {metric: float(run.scores[name][f"q{i}"]) for metric, name in names.items()}
    return results


def test_ranx_row_equals_ranx(ranx_results):
    rows = []
    for index, (recommended, truth, k) in enumerate(cases()):
        values = conv.library_values(recommended, truth, k).loc["ranx"]
        rows += [(recommended, truth, k, m, values[m], ranx_results[index][m]) for m in RANX_NAMES]
    check(rows)


# --------------------------------------------------------------------------- scikit-learn


def sklearn_values(recommended, truth, k) -> dict[str, float]:
    """What scikit-learn returns given the recommended rows: grades and falling scores."""
    y_true = [float(truth.get(item, 0.0)) for item in recommended]
    y_score = list(range(len(recommended), 0, -1))
    values = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no positive row: scikit-learn warns and returns 0
        for metric, compute in (("average_precision", lambda: average_precision_score([g > 0 for g in y_true], y_score)),
                                ("ndcg", lambda: ndcg_score([y_true], [y_score], k=k))):
            try:
                values[metric] = float(compute())
            except (ValueError, IndexError):
                values[metric] = float("nan")
    return values


def test_scikit_learn_row_equals_scikit_learn():
    rows = []
    for recommended, truth, k in cases():
        values = conv.library_values(recommended, truth, k).loc["scikit-learn"]
        expected = sklearn_values(recommended, truth, k)
        rows += [(recommended, truth, k, m, values[m], expected[m]) for m in expected]
        rows += [(recommended, truth, k, m, values[m], float("nan")) for m in ("precision", "recall", "reciprocal_rank")]
    check(rows)


# --------------------------------------------------------------------------- measured values in library-conventions.md

BINARY = {101, 104, 107}
NEVER_RECOMMENDED = {103, 105, 108, 999}
GRADED = {101: 5, 104: 4, 107: 3, 999: 5}
OTHERS = ["torchmetrics", "Recommenders", "RecBole", "Evidently", "RecTools", "cornac", "Spark MLlib"]
COMMON = {
    "binary": {"precision": 0.3, "recall": 1.0, "average_precision": 0.6429, "ndcg": 0.8278, "reciprocal_rank": 1.0},
    "never_recommended": {"precision": 0.3, "recall": 0.75, "average_precision": 0.2771, "ndcg": 0.4694},
    "graded": {"ndcg": 0.6747},  # the linear-gain value; the document's graded row gives NDCG only
}
WHERE_THEY_DIFFER = {
    ("binary", "RecTools", "ndcg"): 0.3882,
    ("never_recommended", "torchmetrics", "average_precision"): 0.3694,
    ("never_recommended", "cornac", "average_precision"): 0.3680,
    ("never_recommended", "Evidently", "recall"): 1.0,
    ("never_recommended", "Evidently", "average_precision"): 0.3694,
    ("never_recommended", "Evidently", "ndcg"): 0.5642,
    ("never_recommended", "RecTools", "ndcg"): 0.2646,
    # "binary-only libraries .6886"; Spark's label-order ideal in the order given .6943;
    # ".8558 when 999 never enters the ideal" (Evidently sees only the recommended rows).
    ("graded", "Recommenders", "ndcg"): 0.6886,
    ("graded", "RecBole", "ndcg"): 0.6886,
    ("graded", "cornac", "ndcg"): 0.6886,
    ("graded", "Spark MLlib", "ndcg"): 0.6943,
    ("graded", "Evidently", "ndcg"): 0.8558,
    # RecTools is binary-only too, but its default ideal is K relevant slots, as in the first row: .3882.
    ("graded", "RecTools", "ndcg"): 0.3882,
}
TRUTHS = {"binary": BINARY, "never_recommended": NEVER_RECOMMENDED, "graded": GRADED}
DOCUMENT_CELLS = [
    (case, library, metric, WHERE_THEY_DIFFER.get((case, library, metric), value))
    for case, common in COMMON.items() for library in OTHERS for metric, value in common.items()
    if conv.CONVENTIONS[library].has(metric)
]


@pytest.mark.parametrize(("case", "library", "metric", "expected"), DOCUMENT_CELLS,
                         ids=[f"{c}-{lib}-{m}" for c, lib, m, _ in DOCUMENT_CELLS])
def test_other_libraries_equal_the_measured_values(case, library, metric, expected):
    values = conv.library_values(range(101, 111), TRUTHS[case], 10)
    assert round(values.at[library, metric], 4) == pytest.approx(expected, abs=1e-12)


def test_every_measured_difference_is_a_cell_of_the_table():
    assert {(c, lib, m) for c, lib, m, _ in DOCUMENT_CELLS} >= set(WHERE_THEY_DIFFER)


@pytest.mark.parametrize(("labels", "expected"), [
    ({101: 5, 104: 4, 107: 3, 999: 5}, 0.6943),
    ({101: 5, 999: 5, 104: 4, 107: 3}, 0.6516),  # sorted by relevance: the correct value
])
def test_spark_graded_ndcg_sums_the_ideal_in_label_order(labels, expected):
    assert round(conv.library_values(range(101, 111), labels, 10).at["Spark MLlib", "ndcg"], 4) == expected


def test_spark_graded_ndcg_above_one():
    assert round(conv.library_values(["b", "a"], {"a": 1, "b": 10}, 2).at["Spark MLlib", "ndcg"], 4) == 1.5835


def test_spark_counts_a_user_with_nothing_relevant_so_map_halves():
    with_hits = conv.library_values(range(101, 111), BINARY, 10).at["Spark MLlib", "average_precision"]
    nothing = conv.library_values(range(101, 111), {}, 10).at["Spark MLlib", "average_precision"]
    assert round((with_hits + nothing) / 2, 4) == 0.3214


def test_libraries_in_the_order_and_names_the_issue_gives():
    assert list(conv.CONVENTIONS) == ["trec_eval", "scikit-learn", "ranx", "torchmetrics", "Recommenders",
                                      "RecBole", "Evidently", "RecTools", "cornac", "Spark MLlib"]
    assert list(conv.library_values([1], {1}, 1).columns) == [
        "precision", "recall", "average_precision", "ndcg", "reciprocal_rank"]


@pytest.mark.parametrize("library", list(conv.CONVENTIONS))
def test_a_missing_metric_is_nan(library):
    values = conv.library_values(range(101, 111), BINARY, 10).loc[library]
    for metric in conv.METRICS:
        assert math.isnan(values[metric]) == (not conv.CONVENTIONS[library].has(metric))


def test_a_convention_with_an_unknown_choice_is_refused():
    with pytest.raises(ValueError, match="ap_denominator must be one of"):
        replace(conv.APP, ap_denominator="median")


def test_bad_metric_and_k_are_refused():
    with pytest.raises(ValueError, match="metric must be one of"):
        conv.score(conv.APP, "f1", [1], {1}, 1)
    with pytest.raises(ValueError, match="k must be a positive integer, got 0"):
        conv.library_values([1], {1}, 0)


# --------------------------------------------------------------------------- differences and their causes

items = st.sampled_from([f"i{n}" for n in range(12)])
inputs = st.tuples(
    st.lists(items, unique=True, max_size=10),
    st.dictionaries(items, st.sampled_from([0, 0.5, 1, 1, 2, 3, 5]), max_size=8),
    st.integers(1, 12),
)


def _differs(a: float, b: float) -> bool:
    return not same(a, b)


@settings(max_examples=100, deadline=None)
@given(inputs)
def test_every_difference_names_causes_that_explain_it(case):
    recommended, truth, k = case
    table = conv.differences(recommended, truth, k)
    app = conv.app_values(recommended, truth, k)
    values = conv.library_values(recommended, truth, k)
    listed = set(zip(table["library"], table["metric"]))
    for library, convention in conv.CONVENTIONS.items():
        for metric in conv.METRICS:
            differs = convention.has(metric) and _differs(values.at[library, metric], app[metric])
            assert ((library, metric) in listed) == differs, (library, metric)
    for row in table.itertuples():
        convention = conv.CONVENTIONS[row.library]
        assert row.causes, f"{row.library} {row.metric}: a difference with no cause"
        assert all(getattr(convention, f) != getattr(conv.APP, f) for f in row.causes)
        switched = replace(convention, **{f: getattr(conv.APP, f) for f in row.causes})
        assert same(conv.score(switched, row.metric, recommended, truth, k), row.app_value), row
        assert row.explanation and row.cause


@settings(max_examples=60, deadline=None)
@given(inputs)
def test_breakdown_numerator_over_denominator_is_the_value(case):
    recommended, truth, k = case
    for convention in [conv.APP, *conv.CONVENTIONS.values()]:
        for metric in conv.METRICS:
            b = conv.breakdown(convention, metric, recommended, truth, k)
            assert same(b.value, conv.score(convention, metric, recommended, truth, k))
            if math.isnan(b.value):
                assert b.reason
            elif b.denominator and not math.isnan(b.denominator):
                assert b.numerator / b.denominator == pytest.approx(b.value, abs=TOL)
            else:
                assert b.value == 0


def test_torchmetrics_sentence_names_the_hits_and_the_seed_denominator():
    table = conv.differences(range(101, 111), {101: 1, 104: 1, 999: 1}, 10).set_index(["library", "metric"])
    assert table.at[("torchmetrics", "average_precision"), "explanation"] == (
        "torchmetrics divides AP by the 2 hits in the top 10, not by min(|Rel|, K) = min(3, 10) = 3.")
    assert table.at[("torchmetrics", "average_precision"), "cause"] == "AP denominator"


@pytest.mark.parametrize(("truth", "k", "library", "metric", "cause"), [
    (NEVER_RECOMMENDED, 10, "Evidently", "recall", ["sees"]),
    (GRADED, 10, "RecBole", "ndcg", ["gain"]),
    (GRADED, 10, "Spark MLlib", "ndcg", ["ideal", "gain"]),
    ({107: 1}, 5, "ranx", "reciprocal_rank", ["rr_cutoff"]),
    ({}, 10, "trec_eval", "precision", ["empty_users"]),
    ({101: 0.5}, 10, "trec_eval", "precision", ["grade_levels"]),
    ({102: 1, 104: 1, 106: 1, 107: 1, 108: 1, 109: 1}, 5, "trec_eval", "average_precision", ["ap_denominator"]),
])
def test_named_cause_of_each_classic_disagreement(truth, k, library, metric, cause):
    table = conv.differences(range(101, 111), truth, k).set_index(["library", "metric"])
    assert table.at[(library, metric), "causes"] == cause


def test_evidently_refuses_a_single_list_shorter_than_k():
    """Measured with Evidently 0.7.23: its top-K metrics fail (KeyError) when no list reaches K."""
    table = conv.differences(range(101, 106), BINARY, 10).set_index(["library", "metric"])
    for metric in ("precision", "recall", "average_precision", "ndcg", "reciprocal_rank"):
        assert "refuses" in table.at[("Evidently", metric), "causes"]
        assert math.isnan(table.at[("Evidently", metric), "library_value"])
    assert "every metric of a list shorter than K (the list has 5)" in table.at[("Evidently", "precision"), "explanation"]
    assert conv.score(conv.CONVENTIONS["Evidently"], "precision", range(101, 111), BINARY, 10) == pytest.approx(0.3)


def test_scikit_learn_refuses_a_single_item_for_ndcg():
    table = conv.differences(["a"], {"a": 1}, 3).set_index(["library", "metric"])
    assert table.at[("scikit-learn", "ndcg"), "causes"] == ["refuses"]
    assert math.isnan(table.at[("scikit-learn", "ndcg"), "library_value"])


def test_rectools_divide_by_k_uses_the_named_function():
    divide_by_k = replace(conv.CONVENTIONS["RecTools"], ap_denominator="k")
    assert conv.score(divide_by_k, "average_precision", range(101, 111), BINARY, 10) == pytest.approx(
        (1 + 2 / 4 + 3 / 7) / 10)


def test_mean_over_users_leaves_out_what_each_library_leaves_out():
    means = conv.mean_over_users([(range(101, 111), BINARY), (range(101, 111), {})], 10)
    seed_ap = (1 + 2 / 4 + 3 / 7) / 3
    assert means.at["Spark MLlib", "average_precision"] == pytest.approx(seed_ap / 2)
    assert means.at["torchmetrics", "average_precision"] == pytest.approx(seed_ap / 2)
    for skipping in ("trec_eval", "ranx", "Evidently", "cornac", "RecBole"):
        assert means.at[skipping, "average_precision"] == pytest.approx(seed_ap)
    assert math.isnan(means.at["scikit-learn", "precision"])
    with pytest.raises(ValueError, match="users is empty"):
        conv.mean_over_users([], 10)


def test_a_conventions_metrics_are_those_it_has_in_the_tables_order():
    assert conv.CONVENTIONS["scikit-learn"].metrics == ["average_precision", "ndcg"]
    assert conv.CONVENTIONS["Spark MLlib"].metrics == ["precision", "recall", "average_precision", "ndcg"]
    assert conv.APP.metrics == list(conv.METRICS)


def test_a_comparison_names_who_differs_on_what_and_why():
    comparison = conv.compare(SEED_LIST, {"103": 1, "105": 1, "108": 1, "999": 1}, 10)
    assert comparison.libraries_that_differ() == ["scikit-learn", "torchmetrics", "Evidently", "RecTools", "cornac"]
    assert comparison.differing_metrics("Evidently") == ["recall", "average_precision", "ndcg"]
    assert comparison.differing_metrics("trec_eval") == []
    assert comparison.causes_of("cornac", "average_precision") == ["sees", "ap_denominator"]
    assert comparison.causes_of("torchmetrics", "average_precision") == ["ap_denominator"]
    assert comparison.causes_of("torchmetrics", "precision") is None
    assert conv.compare(SEED_LIST, {"101": 1}, 5).libraries_that_differ() == ["RecTools"]
