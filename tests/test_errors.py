"""Each bad input raises ValueError naming the argument and the offending value."""

import warnings

import numpy as np
import pytest

from metrics import classification_metrics as cls
from metrics import ndcg, ranked_metrics, rating_metrics, topn_metrics

REC = [101, 102, 103]
BAD_INPUTS = [
    ("k zero", lambda: topn_metrics.precision_at_k(REC, {101}, 0), r"k must be a positive integer, got 0"),
    ("k negative", lambda: topn_metrics.recall_at_k(REC, {101}, -2), r"k must be a positive integer, got -2"),
    ("k float", lambda: ranked_metrics.average_precision_at_k(REC, {101}, 2.5), r"got 2\.5"),
    ("k bool", lambda: topn_metrics.hit_rate_at_k(REC, {101}, True), r"got True"),
    ("k string", lambda: ndcg.ndcg_at_k(REC, {101}, "3"), r"got '3'"),
    ("k in ndcg_score", lambda: ndcg.ndcg_score([[1, 0]], [[1, 0]], k=0), r"k must be a positive integer"),
    ("k in dcg", lambda: ndcg.dcg_at_k([1, 0], 0), r"k must be a positive integer"),
    ("duplicate item", lambda: topn_metrics.precision_at_k([101, 102, 103, 102], {101}, 4),
     r"recommended has duplicate item 102 at ranks 2 and 4"),
    ("duplicate in AP", lambda: ranked_metrics.average_precision_at_k(["a", "b", "a"], {"a"}, 3),
     r"duplicate item 'a' at ranks 1 and 3"),
    ("duplicate in RR", lambda: ranked_metrics.reciprocal_rank(["a", "a"], {"b"}), r"duplicate item 'a'"),
    ("duplicate in NDCG", lambda: ndcg.ndcg_at_k(["a", "a"], {"a"}, 2), r"duplicate item 'a'"),
    ("negative grade", lambda: ndcg.ndcg_at_k(REC, {101: -1}, 3), r"grade of item 101 must be a finite number >= 0, got -1"),
    ("nan grade", lambda: topn_metrics.recall_at_k(REC, {101: float("nan")}, 3), r"grade of item 101 .* got nan"),
    ("text grade", lambda: ndcg.ndcg_at_k(REC, {101: "high"}, 3), r"got 'high'"),
    ("negative relevance in dcg", lambda: ndcg.dcg_at_k([1, -2], 2), r"relevances must be finite numbers >= 0"),
    ("negative y_true in ndcg_score", lambda: ndcg.ndcg_score([[1, -1]], [[1, 0]]), r"y_true must be relevance grades >= 0"),
    ("ndcg_score shapes", lambda: ndcg.ndcg_score([[1, 0]], [[1, 0, 2]]), r"y_true has shape \(1, 2\) but y_score has shape \(1, 3\)"),
    ("unknown gain", lambda: ndcg.ndcg_at_k(REC, {101}, 3, gain="log"), r"gain must be one of 'linear', 'exponential', got 'log'"),
    ("unknown denominator", lambda: ranked_metrics.average_precision_at_k(REC, {101}, 3, denominator="k"),
     r"denominator must be one of 'min', 'relevant', 'hits', got 'k'"),
    ("MAP user counts", lambda: ranked_metrics.mean_average_precision_at_k([REC], [{101}, {102}], 3),
     r"all_recommended has 1 users but all_ground_truth has 2"),
    ("MRR no users", lambda: ranked_metrics.mean_reciprocal_rank([], []), r"all_recommended is empty"),
    ("lengths differ", lambda: rating_metrics.rmse([1, 2, 3], [1, 2]), r"predictions has 3 and actuals has 2"),
    ("empty predictions", lambda: rating_metrics.mae([], []), r"predictions is empty"),
    ("nan prediction", lambda: rating_metrics.mse([1, np.nan], [1, 2]), r"predictions must be finite, got nan at position 1"),
    ("inf actual", lambda: rating_metrics.rmse([1, 2], [np.inf, 2]), r"actuals must be finite, got inf at position 0"),
    ("text prediction", lambda: rating_metrics.rmse(["a"], [1]), r"predictions must contain numbers only"),
    ("2-D predictions", lambda: rating_metrics.rmse([[1, 2]], [[1, 2]]), r"predictions must be one-dimensional"),
    ("label 2", lambda: cls.accuracy([0, 2, 1], [0, 1, 1]), r"y_true must contain only 0 and 1, got 2 at position 1"),
    ("pred label -1", lambda: cls.precision([0, 1], [0, -1]), r"y_pred must contain only 0 and 1, got -1 at position 1"),
    ("labels length", lambda: cls.recall([0, 1], [0, 1, 1]), r"y_true has 2 and y_pred has 3"),
    ("auc nan score", lambda: cls.roc_auc([0, 1], [0.1, np.nan]), r"y_score must be finite, got nan at position 1"),
    ("probability 1.3", lambda: cls.log_loss([1, 0], [1.3, 0.2]), r"y_prob must be probabilities in \[0, 1\], got 1\.3 at position 0"),
    ("probability negative", lambda: cls.log_loss([1, 0], [0.3, -0.2]), r"got -0\.2 at position 1"),
    ("eps out of range", lambda: cls.log_loss([1], [0.5], eps=0.7), r"eps must be in \(0, 0\.5\), got 0\.7"),
    ("gauc weight", lambda: cls.gauc(["a", "a"], [1, 0], [0.2, 0.1], weight="views"), r"weight must be one of"),
    ("gauc users length", lambda: cls.gauc(["a"], [1, 0], [0.2, 0.1]), r"user_ids has 1 and y_true has 2"),
    ("f1_at_k p > 1", lambda: topn_metrics.f1_at_k(1.5, 0.2), r"p must be in \[0, 1\], got 1\.5"),
    ("rating demo share", lambda: rating_metrics.simulate_rating_models(outlier_share=2), r"outlier_share must be in \[0, 1\]"),
]


@pytest.mark.parametrize(("call", "message"), [(c, m) for _, c, m in BAD_INPUTS], ids=[n for n, _, _ in BAD_INPUTS])
def test_bad_input_raises_value_error_naming_it(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("labels", [[1, 1, 1], [0, 0]], ids=["all positive", "all negative"])
def test_single_class_auc_is_nan_with_a_reason(labels):
    with pytest.warns(cls.UndefinedMetricWarning, match="AUC is undefined: every label is"):
        assert np.isnan(cls.roc_auc(labels, np.linspace(0, 1, len(labels))))
    assert "no positive/negative pair" in cls.single_class_reason(labels)


def test_both_classes_have_no_undefined_reason():
    assert cls.single_class_reason([0, 1]) is None


@pytest.mark.parametrize(
    "call",
    [
        lambda: topn_metrics.recall_at_k(REC, set(), 3),
        lambda: ranked_metrics.average_precision_at_k(REC, set(), 3),
        lambda: ranked_metrics.average_precision_at_k(REC, {999}, 3, denominator="hits"),
        lambda: ranked_metrics.reciprocal_rank(REC, set()),
        lambda: ndcg.ndcg_at_k(REC, {}, 3),
        lambda: ndcg.ndcg_at_k(REC, {101: 0}, 3),
        lambda: topn_metrics.precision_at_k([], {101}, 3),
    ],
    ids=["recall", "AP", "AP hits no hit", "RR", "NDCG", "NDCG all grades 0", "P@K empty list"],
)
def test_empty_ground_truth_or_no_hit_scores_zero(call):
    assert call() == 0.0


def test_gauc_reports_skipped_users_and_nan_when_all_are_skipped():
    value, skipped = cls.gauc(["a", "b"], [1, 0], [0.3, 0.4])
    assert np.isnan(value) and skipped == 2


def test_no_warning_for_gauc_skipped_users():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cls.gauc(["a", "a", "b"], [1, 0, 1], [0.9, 0.1, 0.5]) == (1.0, 1)
