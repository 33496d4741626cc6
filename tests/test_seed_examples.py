"""Every worked example of both seed documents, with its exact value pinned."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from metrics import classification_metrics as cls
from metrics import ndcg, ranked_metrics, rating_metrics, topn_metrics
from content import examples
from metrics.seed_examples import BY_KEY, EXAMPLES

ROOT = Path(__file__).resolve().parents[1]
REC = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]

EXACT = [
    ("P@10 {103,105,108,999}", lambda: topn_metrics.precision_at_k(REC, {103, 105, 108, 999}, 10), 0.3),
    ("R@10 {103,105,108,999}", lambda: topn_metrics.recall_at_k(REC, {103, 105, 108, 999}, 10), 0.75),
    ("HR@10 {103,105,108,999}", lambda: topn_metrics.hit_rate_at_k(REC, {103, 105, 108, 999}, 10), 1.0),
    ("F1@10 {103,105,108,999}", lambda: topn_metrics.f1_at_k(0.3, 0.75), 3 / 7),
    ("AP@10 {103,105,108,999} min", lambda: ranked_metrics.average_precision_at_k(REC, {103, 105, 108, 999}, 10),
     (1 / 3 + 2 / 5 + 3 / 8) / 4),
    ("AP@10 {103,105,108,999} hits", lambda: ranked_metrics.average_precision_at_k(
        REC, {103, 105, 108, 999}, 10, denominator="hits"), (1 / 3 + 2 / 5 + 3 / 8) / 3),
    ("AP@10 {101,104,107}", lambda: ranked_metrics.average_precision_at_k(REC, {101, 104, 107}, 10),
     (1 + 2 / 4 + 3 / 7) / 3),
    ("RR {101,104,107}", lambda: ranked_metrics.reciprocal_rank(REC, {101, 104, 107}), 1.0),
    ("NDCG@10 {101,104,107}", lambda: ndcg.ndcg_at_k(REC, {101, 104, 107}, 10),
     (1 + 1 / np.log2(5) + 1 / np.log2(8)) / (1 + 1 / np.log2(3) + 1 / np.log2(4))),
    ("NDCG@10 {103,105,108,999}", lambda: ndcg.ndcg_at_k(REC, {103, 105, 108, 999}, 10),
     (1 / np.log2(4) + 1 / np.log2(6) + 1 / np.log2(9)) / (1 + 1 / np.log2(3) + 1 / np.log2(4) + 1 / np.log2(5))),
    ("NDCG@10 graded linear", lambda: ndcg.ndcg_at_k(REC, {101: 5, 104: 4, 107: 3, 999: 5}, 10),
     (5 + 4 / np.log2(5) + 3 / np.log2(8)) / (5 + 5 / np.log2(3) + 4 / np.log2(4) + 3 / np.log2(5))),
    ("NDCG@10 graded exponential", lambda: ndcg.ndcg_at_k(REC, {101: 5, 104: 4, 107: 3, 999: 5}, 10, gain="exponential"),
     (31 + 15 / np.log2(5) + 7 / np.log2(8)) / (31 + 31 / np.log2(3) + 15 / np.log2(4) + 7 / np.log2(5))),
    ("seed 2 formula NDCG exponential", lambda: ndcg.dcg_at_k([3, 2, 3, 0, 1], 5, gain="exponential")
     / ndcg.dcg_at_k([3, 3, 2, 1, 0], 5, gain="exponential"),
     (7 + 3 / np.log2(3) + 7 / 2 + 1 / np.log2(6)) / (7 + 7 / np.log2(3) + 3 / 2 + 1 / np.log2(5))),
    # Items 1 and 5 tie at score 3: each of ranks 1-2 gets the mean gain (3+1)/2.
    ("seed 2 sklearn ndcg_score with tie", lambda: ndcg.ndcg_score([[3, 2, 3, 0, 1]], [[3, 2, 1, 0, 3]]),
     (2 + 2 / np.log2(3) + 2 / 2 + 3 / np.log2(5)) / (3 + 3 / np.log2(3) + 2 / 2 + 1 / np.log2(5))),
    ("seed 2 precision", lambda: cls.precision([0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 1]), 0.75),
    ("seed 2 recall", lambda: cls.recall([0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 1]), 0.75),
    ("seed 2 accuracy", lambda: cls.accuracy([0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 1]), 4 / 6),
    ("seed 2 F1", lambda: cls.f1([0, 1, 1, 0, 1, 1], [0, 1, 0, 1, 1, 1]), 0.75),
    ("seed 2 F1 of P=.5 R=.7", lambda: topn_metrics.f1_at_k(0.5, 0.7), 0.7 / 1.2),
    ("seed 2 hit rate", lambda: topn_metrics.hit_rate_at_k([1, 2, 3, 4, 5], {2, 6, 7, 8, 9}, 5), 1.0),
    ("seed 2 manual AUC", lambda: cls.roc_auc([1, 1, 0, 0, 1, 0], [0.9, 0.8, 0.1, 0.4, 0.95, 0.6]), 1.0),
    ("seed 2 per-user AUC mean", lambda: cls.gauc(["u1"] * 4 + ["u2"] * 4, [1, 1, 0, 0] * 2,
                                                  [0.9, 0.8, 0.5, 0.4, 0.7, 0.6, 0.3, 0.2], weight="uniform")[0], 1.0),
    ("seed 2 LogLoss", lambda: cls.log_loss([1, 1, 0], [0.8, 0.6, 0.3]),
     -(np.log(0.8) + np.log(0.6) + np.log(0.7)) / 3),
]


@pytest.mark.parametrize(("compute", "expected"), [(c, e) for _, c, e in EXACT], ids=[n for n, _, _ in EXACT])
def test_seed_value_is_exact(compute, expected):
    assert compute() == pytest.approx(expected, abs=1e-12)


def test_first_seed_binary_ndcg_is_0_82781_not_the_printed_0_8290():
    value = ndcg.ndcg_at_k(REC, {101, 104, 107}, 10)
    assert round(value, 5) == 0.82781
    assert round(value, 4) != 0.8290


@pytest.mark.parametrize(
    ("model", "expected_rmse", "expected_mae"),
    [("Naive (mean for everyone)", 1.1545, 0.9532), ("Low-noise", 0.4967, 0.3950),
     ("Outlier-prone", 0.9009, 0.3417)],
)
def test_rating_demo_reproduces_what_the_seed_code_computes(model, expected_rmse, expected_mae):
    predictions, actuals = rating_metrics.simulate_rating_models()[model]
    assert round(rating_metrics.rmse(predictions, actuals), 4) == expected_rmse
    assert round(rating_metrics.mae(predictions, actuals), 4) == expected_mae


def test_rating_demo_uses_the_same_draws_as_the_seed_code():
    np.random.seed(42)
    actuals = np.random.choice([1, 2, 3, 4, 5], size=1000, p=[0.05, 0.10, 0.20, 0.35, 0.30])
    preds_good = actuals + np.random.normal(0, 0.5, 1000)
    preds_outlier = actuals + np.random.normal(0, 0.2, 1000)
    mask = np.random.random(1000) < 0.05
    preds_outlier[mask] += np.random.choice([-4, 4], mask.sum())
    models = rating_metrics.simulate_rating_models()
    np.testing.assert_array_equal(models["Low-noise"][0], preds_good)
    np.testing.assert_array_equal(models["Outlier-prone"][0], preds_outlier)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_every_example_value_is_computed_and_notes_a_wrong_print(example):
    for value in example.values:
        exact = value.exact
        assert np.isfinite(exact)
        if value.printed is not None and abs(float(value.printed) - exact) > 0.5 * 10 ** -(len(value.printed.split(".")[-1])):
            assert examples.value_note(example, value), f"{example.key}: {value.key} printed {value.printed}, exact {exact}, no note"


def test_examples_cover_the_ndcg_misprint():
    (value,) = BY_KEY["ndcg_binary"].values
    assert value.printed == "0.8290" and "0.82781" in examples.value_note(BY_KEY["ndcg_binary"], value)


def test_last_snippet_of_first_seed_runs_unchanged_from_the_project_root():
    snippet = '''
import numpy as np
from metrics.topn_metrics import precision_at_k, recall_at_k, hit_rate_at_k
from metrics.ranked_metrics import average_precision_at_k, reciprocal_rank
from metrics.ndcg import ndcg_at_k

recommended = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
ground_truth = {101, 104, 107}

print(f"Precision@10: {precision_at_k(recommended, ground_truth, 10):.4f}")
print(f"Recall@10:    {recall_at_k(recommended, ground_truth, 10):.4f}")
print(f"HR@10:        {hit_rate_at_k(recommended, ground_truth, 10):.4f}")
print(f"AP@10:        {average_precision_at_k(recommended, ground_truth, 10):.4f}")
print(f"RR:           {reciprocal_rank(recommended, ground_truth):.4f}")
print(f"NDCG@10:      {ndcg_at_k(recommended, ground_truth, 10):.4f}")
'''
    out = subprocess.run([sys.executable, "-c", snippet], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["Precision@10:", "0.3000", "Recall@10:", "1.0000", "HR@10:", "1.0000",
                           "AP@10:", "0.6429", "RR:", "1.0000", "NDCG@10:", "0.8278"]
