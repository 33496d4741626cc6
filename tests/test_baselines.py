"""Random and perfect baselines: the closed forms equal brute force over every ordering."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.baselines import (
    KEYS, baseline_table, chance_corrected, metric_values, percentile, perfect_order, perfect_scores,
    random_distribution, random_expectation,
)
from metrics import ndcg, ranked_metrics, topn_metrics
from metrics.ndcg import GAINS
from metrics.ranked_metrics import AP_DENOMINATORS


def brute_force_means(candidates, ground_truth, k) -> dict[tuple[str, str], dict[str, float]]:
    """The mean of the per-list metrics over all N! orderings, for every (gain, denominator).

    Each per-list function is called once per ordering and option it depends on (AP on the
    denominator, NDCG on the gain), which keeps N = 7 (5,040 orderings) quick.
    """
    totals: dict[str, float] = {}
    orders = list(itertools.permutations(candidates))
    for order in orders:
        scores = {
            "precision_at_k": topn_metrics.precision_at_k(order, ground_truth, k),
            "recall_at_k": topn_metrics.recall_at_k(order, ground_truth, k),
            "hit_rate_at_k": topn_metrics.hit_rate_at_k(order, ground_truth, k),
            "reciprocal_rank": ranked_metrics.reciprocal_rank(order, ground_truth),
            **{f"ap-{d}": ranked_metrics.average_precision_at_k(order, ground_truth, k, denominator=d)
               for d in AP_DENOMINATORS},
            **{f"ndcg-{g}": ndcg.ndcg_at_k(order, ground_truth, k, gain=g) for g in GAINS},
        }
        for name, value in scores.items():
            totals[name] = totals.get(name, 0.0) + value
    mean = {name: total / len(orders) for name, total in totals.items()}
    return {
        (g, d): {**{key: mean[key] for key in ("precision_at_k", "recall_at_k", "hit_rate_at_k", "reciprocal_rank")},
                 "average_precision_at_k": mean[f"ap-{d}"], "ndcg_at_k": mean[f"ndcg-{g}"]}
        for g in GAINS for d in AP_DENOMINATORS
    }


CANDIDATES = list("abcdefg")
# (name, N, ground truth): binary and graded, with relevant items outside the candidates (x, y).
CASES = [
    ("binary-one", 5, {"a"}),
    ("binary-three", 7, {"a", "c", "f"}),
    ("binary-with-outsiders", 6, {"b", "d", "x", "y"}),
    ("all-relevant", 4, {"a", "b", "c", "d"}),
    ("none-relevant-in-candidates", 5, {"x"}),
    ("empty-truth", 4, set()),
    ("single-candidate", 1, {"a", "x"}),
    ("graded", 6, {"a": 3, "b": 0, "c": 1, "e": 2.5, "x": 2}),
    ("graded-all-zero", 5, {"a": 0, "b": 0}),
    ("graded-seven", 7, {"a": 1, "b": 2, "c": 3, "g": 1, "z": 4}),
]


@pytest.mark.parametrize("k", [1, 2, 3, 5, 9])
@pytest.mark.parametrize(("n", "truth"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_expectation_equals_every_ordering_enumerated(n, truth, k):
    candidates = CANDIDATES[:n]
    for (gain, denominator), brute in brute_force_means(candidates, truth, k).items():
        exact = random_expectation(candidates, truth, k, gain=gain, denominator=denominator)
        assert list(exact) == list(KEYS)
        for key in KEYS:
            assert exact[key] == pytest.approx(brute[key], abs=1e-12, rel=0), (gain, denominator, key)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 6), k=st.integers(1, 8), data=st.data(),
       denominator=st.sampled_from(AP_DENOMINATORS), gain=st.sampled_from(GAINS))
def test_expectation_equals_brute_force_on_random_inputs(n, k, data, denominator, gain):
    pool = CANDIDATES[:n] + ["x", "y"]
    truth = data.draw(st.dictionaries(st.sampled_from(pool), st.sampled_from([0, 1, 2, 3, 0.5]), max_size=6))
    exact = random_expectation(CANDIDATES[:n], truth, k, gain=gain, denominator=denominator)
    brute = brute_force_means(CANDIDATES[:n], truth, k)[gain, denominator]
    for key in KEYS:
        assert exact[key] == pytest.approx(brute[key], abs=1e-12, rel=0), key


def test_known_closed_forms_on_the_seed_list():
    # 10 candidates, 3 relevant (the seed's 101, 104, 107), K = 10: every ordering has 3 hits.
    e = random_expectation(range(101, 111), {101, 104, 107}, 10)
    assert e["precision_at_k"] == pytest.approx(0.3)
    assert e["recall_at_k"] == e["hit_rate_at_k"] == pytest.approx(1.0)
    # E[RR] = sum_r C(10 - r, 2) / C(10, 3) / r
    assert e["reciprocal_rank"] == pytest.approx(sum((10 - r) * (9 - r) / 2 / 120 / r for r in range(1, 9)))
    # E[NDCG@10] = (3/10) * sum of all 10 discounts / IDCG@10
    discounts = 1 / np.log2(np.arange(2, 12))
    assert e["ndcg_at_k"] == pytest.approx(0.3 * discounts.sum() / discounts[:3].sum())


@pytest.mark.parametrize("denominator", AP_DENOMINATORS)
@pytest.mark.parametrize(("candidates", "truth", "k"), [
    (range(100), {3, 17, 42, 99, 1000}, 10),
    (range(40), {i: (i % 4) for i in range(0, 40, 3)}, 25),
    (range(30), {5}, 50),
], ids=["100-candidates", "graded-40", "k-above-n"])
def test_distribution_means_agree_with_the_expectation_within_sampling_error(candidates, truth, k, denominator):
    samples = random_distribution(candidates, truth, k, n=20_000, seed=7, denominator=denominator)
    exact = random_expectation(candidates, truth, k, denominator=denominator)
    assert len(samples) == 20_000 and list(samples.columns) == list(KEYS)
    for key in KEYS:
        standard_error = samples[key].std() / np.sqrt(len(samples))
        assert abs(samples[key].mean() - exact[key]) <= 4.5 * standard_error + 1 / len(samples), key


def test_distribution_rows_are_real_orderings_scored_by_the_per_list_functions():
    # Reproduce the first rows with the same random permutations and the per-list metrics.
    candidates, truth, k = list("abcdefgh"), {"b": 2, "e": 1, "h": 3, "z": 1}, 4
    samples = random_distribution(candidates, truth, k, n=50, seed=3, gain="exponential", denominator="hits")
    rng = np.random.default_rng(3)
    orders = rng.permuted(np.broadcast_to(np.arange(8), (50, 8)), axis=1)
    for row, order in zip(samples.to_dict("records"), orders, strict=True):
        expected = metric_values([candidates[i] for i in order], truth, k, gain="exponential", denominator="hits")
        assert row == pytest.approx(expected, abs=1e-12)


def test_distribution_is_seedable():
    first = random_distribution(range(20), {1, 2}, 5, n=100, seed=11)
    assert first.equals(random_distribution(range(20), {1, 2}, 5, n=100, seed=11))
    assert not first.equals(random_distribution(range(20), {1, 2}, 5, n=100, seed=12))


def test_distribution_of_an_empty_candidate_list_is_all_zero():
    samples = random_distribution([], {"a"}, 3, n=5)
    assert samples.shape == (5, len(KEYS)) and not samples.to_numpy().any()


@pytest.mark.parametrize(("value", "samples", "share"), [
    (0.5, [0.0, 0.5, 1.0, 0.25], 0.625),
    (2.0, [0.0, 1.0], 1.0),
    (-1.0, [0.0, 1.0], 0.0),
    (1.0, [1.0, 1.0, 1.0], 0.5),
    (0.1 + 0.2, [0.3], 0.5),  # equal up to rounding counts as a tie
])
def test_percentile_counts_ties_half(value, samples, share):
    assert percentile(value, samples) == share


def test_percentile_of_nothing_says_so():
    with pytest.raises(ValueError, match="samples is empty"):
        percentile(0.5, [])


def test_perfect_order_scores_the_maximum_and_chance_correction_spans_zero_to_one():
    candidates, truth = list("abcdef"), {"c": 3, "e": 1, "q": 2}
    assert perfect_order(candidates, truth)[:2] == ["c", "e"]
    perfect = perfect_scores(candidates, truth, 3)
    # 'q' is relevant but not a candidate: recall and NDCG stay below 1 even for the best order
    assert perfect["recall_at_k"] == pytest.approx(2 / 3)
    assert perfect["ndcg_at_k"] < 1
    every = [metric_values(list(o), truth, 3) for o in itertools.permutations(candidates)]
    for key in KEYS:
        assert perfect[key] == pytest.approx(max(row[key] for row in every))
    assert chance_corrected(0.25, 0.25, 0.75) == 0.0
    assert chance_corrected(0.75, 0.25, 0.75) == 1.0
    assert np.isnan(chance_corrected(0.3, 0.3, 0.3))


def test_baseline_table_puts_the_numbers_together():
    recommended, truth, k = list(range(101, 111)), {101, 104, 107}, 5
    samples = random_distribution(recommended, truth, k, n=2000)
    table = baseline_table(recommended, truth, k, samples).set_index("metric")
    expected = random_expectation(recommended, truth, k)
    assert table.loc["precision_at_k", "value"] == 0.4
    assert table.loc["precision_at_k", "expected"] == pytest.approx(expected["precision_at_k"]) == pytest.approx(0.3)
    assert table.loc["precision_at_k", "perfect"] == 0.6
    assert table.loc["precision_at_k", "chance_corrected"] == pytest.approx((0.4 - 0.3) / (0.6 - 0.3))
    assert table.loc["precision_at_k", "beats"] == percentile(0.4, samples["precision_at_k"])


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"k": 0}, "k must be a positive integer"),
    ({"denominator": "all"}, "denominator must be one of"),
    ({"gain": "square"}, "gain must be one of"),
    ({"candidates": ["a", "a"]}, "candidates has duplicate item 'a'"),
])
def test_bad_input_is_named(kwargs, message):
    args = {"candidates": ["a", "b"], "ground_truth": {"a"}, "k": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        random_expectation(args.pop("candidates"), args.pop("ground_truth"), args.pop("k"), **args)
