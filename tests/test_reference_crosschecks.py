"""Cross-checks of metrics/ against the reference libraries on hundreds of random inputs.

Every expected value comes from a reference implementation -- trec_eval (through pytrec_eval),
scikit-learn or ranx -- or, for GAUC, which no library implements as we do, from per-user
scikit-learn AUCs combined in the test. Nothing here compares metrics/ against itself.

Conventions controlled for:

* trec_eval and ranx rank a run by score. Runs are built with strictly decreasing distinct scores
  so that their order is our list order (trec_eval breaks ties by docid, descending).
* trec_eval reads integer relevance levels and counts level >= 1 as relevant; our functions
  count grade > 0. Grades are drawn from the integers 0..3, where the two agree.
* trec_eval drops a query whose qrels are empty (it is not scored at all), but scores 0 a query
  whose qrels hold only level-0 documents. Random cases therefore always have a non-empty ground
  truth (sometimes all grade 0); the empty ground truth is tested on its own.
* ranx sorts its per-query score arrays by query id, so per-query values are read from
  ``run.scores[metric][query_id]``, not from the array order.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pytest
import pytrec_eval
from sklearn import metrics as skm

from metrics import classification_metrics as cls
from metrics import ndcg, ranked_metrics, rating_metrics, topn_metrics

TOL = 1e-9
SEEDS = [0, 1, 2, 3]
CASES_PER_SEED = 75  # 300 random cases per check


# --------------------------------------------------------------------------- random rankings


@dataclass(frozen=True)
class Ranking:
    recommended: tuple[str, ...]
    grades: dict  # {item: int grade >= 0}, never empty
    k: int

    @property
    def relevant(self) -> set:
        return {item for item, grade in self.grades.items() if grade > 0}

    @property
    def binary(self) -> bool:
        return all(grade in (0, 1) for grade in self.grades.values())

    def run(self) -> dict[str, float]:
        """Strictly decreasing distinct scores, so any score-sorting library keeps our order."""
        n = len(self.recommended)
        return {item: float(n - rank) for rank, item in enumerate(self.recommended)}


def random_ranking(rng: np.random.Generator, k: int | None = None) -> Ranking:
    """Random item ids, a list of 1..15 items, and a graded ground truth that mixes recommended
    items (some graded 0), relevant items that were never recommended, and sometimes no
    relevant item at all."""
    pool = [f"item{n}" for n in rng.choice(1_000_000, size=40, replace=False)]
    length = int(rng.integers(1, 16))
    recommended, unrecommended = pool[:length], pool[length:]
    max_grade = int(rng.choice([1, 3]))  # binary or graded ground truth
    share = rng.uniform(0.0, 0.8)
    judged = [item for item in recommended if rng.random() < share]
    judged += [str(item) for item in rng.choice(unrecommended, size=int(rng.integers(0, 5)), replace=False)]
    if not judged:
        judged = [recommended[int(rng.integers(length))]]
    if rng.random() < 0.08:
        grades = {item: 0 for item in judged}  # judged, but nothing relevant
    else:
        grades = {item: int(rng.integers(0, max_grade + 1)) for item in judged}
    if k is None:
        k = int(rng.integers(1, 21))  # often larger than the list
    return Ranking(tuple(recommended), grades, k)


@lru_cache(maxsize=None)
def trec_cases(seed: int) -> tuple[list[Ranking], list[dict]]:
    """Random cases and trec_eval's per-query values for each, one evaluator per distinct k."""
    rng = np.random.default_rng(seed)
    cases = [random_ranking(rng) for _ in range(CASES_PER_SEED)]
    results: list[dict | None] = [None] * len(cases)
    by_k = defaultdict(list)
    for i, case in enumerate(cases):
        by_k[case.k].append(i)
    for k, indices in by_k.items():
        qrels = {f"q{i}": dict(cases[i].grades) for i in indices}
        run = {f"q{i}": cases[i].run() for i in indices}
        measures = {f"P.{k}", f"recall.{k}", f"map_cut.{k}", "recip_rank", f"ndcg_cut.{k}"}
        evaluated = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
        assert set(evaluated) == set(qrels), "trec_eval dropped a query"
        for i in indices:
            results[i] = evaluated[f"q{i}"]
    return cases, results


def describe(case: Ranking) -> str:
    return f"recommended={list(case.recommended)} ground_truth={case.grades} k={case.k}"


def check_all(rows) -> None:
    """rows: (description, ours, reference). Fails listing every disagreement."""
    rows = list(rows)
    assert rows, "no case was checked"
    bad = [(d, o, r) for d, o, r in rows if not abs(o - r) <= TOL]
    assert not bad, f"{len(bad)} of {len(rows)} disagree, e.g.:\n" + "\n".join(
        f"  {d}: ours={o!r} reference={r!r}" for d, o, r in bad[:5]
    )


# --------------------------------------------------------------------------- trec_eval


TREC_CHECKS = {
    # name: (trec_eval key for cutoff k, our value for the case and a ground-truth form)
    "P": (lambda k: f"P_{k}", lambda c, gt: topn_metrics.precision_at_k(c.recommended, gt, c.k)),
    "recall": (lambda k: f"recall_{k}", lambda c, gt: topn_metrics.recall_at_k(c.recommended, gt, c.k)),
    "map_cut": (
        lambda k: f"map_cut_{k}",
        lambda c, gt: ranked_metrics.average_precision_at_k(c.recommended, gt, c.k, denominator="relevant"),
    ),
    "recip_rank": (lambda k: "recip_rank", lambda c, gt: ranked_metrics.reciprocal_rank(c.recommended, gt)),
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("measure", list(TREC_CHECKS))
def test_binary_relevance_metrics_match_trec_eval(measure, seed):
    key_for, ours = TREC_CHECKS[measure]
    cases, results = trec_cases(seed)
    rows = []
    for case, result in zip(cases, results):
        expected = result[key_for(case.k)]
        # The graded dict (grade > 0 is relevant) and the plain set of relevant items.
        rows.append((f"dict {describe(case)}", ours(case, case.grades), expected))
        rows.append((f"set {describe(case)}", ours(case, case.relevant), expected))
    check_all(rows)


@pytest.mark.parametrize("seed", SEEDS)
def test_graded_ndcg_linear_gain_matches_trec_eval_ndcg_cut(seed):
    cases, results = trec_cases(seed)
    check_all(
        (describe(c), ndcg.ndcg_at_k(c.recommended, c.grades, c.k, gain="linear"), r[f"ndcg_cut_{c.k}"])
        for c, r in zip(cases, results)
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_binary_ndcg_with_a_set_matches_trec_eval_ndcg_cut(seed):
    cases, results = trec_cases(seed)
    binary = [(c, r) for c, r in zip(cases, results) if c.binary]
    assert len(binary) >= 10
    check_all(
        (describe(c), ndcg.ndcg_at_k(c.recommended, c.relevant, c.k, gain=gain), r[f"ndcg_cut_{c.k}"])
        for c, r in binary
        for gain in ndcg.GAINS  # 2^1 - 1 = 1: both gains are trec_eval's on binary grades
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_fractional_grades_match_trec_eval_on_scaled_integer_grades(seed):
    """Any grade > 0 is relevant, not only grade >= 1: grades g/4 in {0, 0.25, 0.5, 0.75} must give
    trec_eval's values for the integer grades g (NDCG is unchanged by scaling every grade)."""
    cases, results = trec_cases(seed)
    rows = []
    for c, r in zip(cases, results):
        quarter = {item: grade / 4 for item, grade in c.grades.items()}
        what = f"{describe(c)} (grades / 4)"
        rows += [
            ("P " + what, topn_metrics.precision_at_k(c.recommended, quarter, c.k), r[f"P_{c.k}"]),
            ("recall " + what, topn_metrics.recall_at_k(c.recommended, quarter, c.k), r[f"recall_{c.k}"]),
            ("AP " + what, ranked_metrics.average_precision_at_k(c.recommended, quarter, c.k, denominator="relevant"),
             r[f"map_cut_{c.k}"]),
            ("RR " + what, ranked_metrics.reciprocal_rank(c.recommended, quarter), r["recip_rank"]),
            ("NDCG " + what, ndcg.ndcg_at_k(c.recommended, quarter, c.k), r[f"ndcg_cut_{c.k}"]),
        ]
    check_all(rows)


def test_random_cases_cover_the_edge_cases():
    cases = [c for seed in SEEDS for c in trec_cases(seed)[0]]
    assert any(c.k > len(c.recommended) for c in cases)
    assert any(not c.relevant for c in cases)
    assert any(c.relevant - set(c.recommended) for c in cases)
    assert any(0 in c.grades.values() and set(c.grades) & set(c.recommended) for c in cases)
    assert any(max(c.grades.values()) > 1 for c in cases)


@pytest.mark.parametrize("seed", SEEDS)
def test_map_and_mrr_match_trec_eval_averages(seed):
    rng = np.random.default_rng(1000 + seed)
    rows = []
    for batch in range(50):
        k = int(rng.integers(1, 21))
        users = [random_ranking(rng, k=k) for _ in range(int(rng.integers(1, 12)))]
        qrels = {f"u{i}": dict(u.grades) for i, u in enumerate(users)}
        run = {f"u{i}": u.run() for i, u in enumerate(users)}
        per_query = pytrec_eval.RelevanceEvaluator(qrels, {f"map_cut.{k}", "recip_rank"}).evaluate(run)
        assert set(per_query) == set(qrels)
        expected_map = pytrec_eval.compute_aggregated_measure(
            f"map_cut_{k}", [per_query[q][f"map_cut_{k}"] for q in qrels]
        )
        expected_mrr = pytrec_eval.compute_aggregated_measure(
            "recip_rank", [per_query[q]["recip_rank"] for q in qrels]
        )
        recs = [list(u.recommended) for u in users]
        truths = [u.grades for u in users]
        what = f"batch {batch}: users={[(list(u.recommended), u.grades) for u in users]} k={k}"
        rows.append(("MAP " + what, ranked_metrics.mean_average_precision_at_k(
            recs, truths, k, denominator="relevant"), expected_map))
        rows.append(("MRR " + what, ranked_metrics.mean_reciprocal_rank(recs, truths), expected_mrr))
    check_all(rows)


def test_empty_ground_truth_scores_zero():
    rng = np.random.default_rng(7)
    for _ in range(50):
        case = random_ranking(rng)
        rec, k = list(case.recommended), case.k
        for empty in (set(), {}, [], {"item-x": 0, "item-y": 0.0}):
            values = {
                "P": topn_metrics.precision_at_k(rec, empty, k),
                "R": topn_metrics.recall_at_k(rec, empty, k),
                "HR": topn_metrics.hit_rate_at_k(rec, empty, k),
                "RR": ranked_metrics.reciprocal_rank(rec, empty),
                **{f"AP {d}": ranked_metrics.average_precision_at_k(rec, empty, k, denominator=d)
                   for d in ranked_metrics.AP_DENOMINATORS},
                **{f"NDCG {g}": ndcg.ndcg_at_k(rec, empty, k, gain=g) for g in ndcg.GAINS},
            }
            assert values == dict.fromkeys(values, 0.0), (rec, empty, k)


def test_trec_eval_drops_an_empty_query_where_our_mean_counts_it_as_zero():
    """Our MAP/MRR count a user with no ground truth as 0 (the seed's convention); trec_eval
    leaves a query with empty qrels out of the average altogether."""
    rng = np.random.default_rng(11)
    for _ in range(50):
        k = int(rng.integers(1, 21))
        users = [random_ranking(rng, k=k) for _ in range(int(rng.integers(1, 6)))]
        n_empty = int(rng.integers(1, 4))
        qrels = {f"u{i}": dict(u.grades) for i, u in enumerate(users)}
        qrels.update({f"e{j}": {} for j in range(n_empty)})
        run = {f"u{i}": u.run() for i, u in enumerate(users)}
        run.update({f"e{j}": {"item-e": 1.0} for j in range(n_empty)})
        per_query = pytrec_eval.RelevanceEvaluator(qrels, {f"map_cut.{k}", "recip_rank"}).evaluate(run)
        assert set(per_query) == {f"u{i}" for i in range(len(users))}  # empty queries dropped
        n = len(users) + n_empty
        trec_map = np.mean([v[f"map_cut_{k}"] for v in per_query.values()])
        trec_mrr = np.mean([v["recip_rank"] for v in per_query.values()])
        recs = [list(u.recommended) for u in users] + [["item-e"]] * n_empty
        truths = [u.grades for u in users] + [set()] * n_empty
        ours_map = ranked_metrics.mean_average_precision_at_k(recs, truths, k, denominator="relevant")
        assert ours_map == pytest.approx(trec_map * len(users) / n, abs=TOL)
        assert ranked_metrics.mean_reciprocal_rank(recs, truths) == pytest.approx(
            trec_mrr * len(users) / n, abs=TOL)


# --------------------------------------------------------------------------- ranx


@pytest.fixture(scope="module")
def ranx_results():
    """ranx's per-query hit_rate@k, ndcg@k and ndcg_burges@k on 300 random graded cases.

    One Qrels/Run and one evaluate call per distinct k (ranx's k is per metric, not per query).
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumbaTypeSafetyWarning and friends while importing/compiling
        from ranx import Qrels, Run, evaluate

        rng = np.random.default_rng(2024)
        cases = [random_ranking(rng) for _ in range(300)]
        by_k = defaultdict(list)
        for i, case in enumerate(cases):
            by_k[case.k].append(i)
        results: list[dict | None] = [None] * len(cases)
        for k, indices in by_k.items():
            qrels = Qrels.from_dict({f"q{i}": dict(cases[i].grades) for i in indices})
            run = Run.from_dict({f"q{i}": cases[i].run() for i in indices})
            names = {"hit_rate": f"hit_rate@{k}", "ndcg": f"ndcg@{k}", "ndcg_burges": f"ndcg_burges@{k}"}
            evaluate(qrels, run, list(names.values()), return_mean=False)
            for i in indices:
                results[i] = {name: float(run.scores[m][f"q{i}"]) for name, m in names.items()}
    return cases, results


RANX_CHECKS = {
    "hit_rate": lambda c: topn_metrics.hit_rate_at_k(c.recommended, c.grades, c.k),
    "ndcg": lambda c: ndcg.ndcg_at_k(c.recommended, c.grades, c.k, gain="linear"),
    "ndcg_burges": lambda c: ndcg.ndcg_at_k(c.recommended, c.grades, c.k, gain="exponential"),
}


@pytest.mark.parametrize("measure", list(RANX_CHECKS))
def test_matches_ranx(ranx_results, measure):
    cases, results = ranx_results
    assert any(max(c.grades.values()) > 1 for c in cases)  # graded, so the two gains differ
    check_all((describe(c), RANX_CHECKS[measure](c), r[measure]) for c, r in zip(cases, results))


# --------------------------------------------------------------------------- scikit-learn


@pytest.mark.parametrize("seed", range(3))
def test_rating_errors_match_sklearn(seed):
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(100):
        n = int(rng.integers(1, 51))
        if rng.random() < 0.5:
            actuals = rng.integers(1, 6, n).astype(float)
            predictions = np.clip(actuals + rng.normal(0, 1, n), 1, 5)
        else:
            actuals, predictions = rng.normal(0, 10, n), rng.normal(0, 10, n)
        what = f"predictions={predictions.tolist()} actuals={actuals.tolist()}"
        rows += [
            ("mse " + what, rating_metrics.mse(predictions, actuals), skm.mean_squared_error(actuals, predictions)),
            ("rmse " + what, rating_metrics.rmse(predictions, actuals),
             skm.root_mean_squared_error(actuals, predictions)),
            ("mae " + what, rating_metrics.mae(predictions, actuals), skm.mean_absolute_error(actuals, predictions)),
        ]
    check_all(rows)


def random_labels(rng, n):
    kind = rng.random()
    if kind < 0.1:
        return np.zeros(n, dtype=int)
    if kind < 0.2:
        return np.ones(n, dtype=int)
    return (rng.random(n) < rng.uniform(0.1, 0.9)).astype(int)


LABEL_CHECKS = {
    "accuracy": (cls.accuracy, skm.accuracy_score),
    "precision": (cls.precision, lambda t, p: skm.precision_score(t, p, zero_division=0)),
    "recall": (cls.recall, lambda t, p: skm.recall_score(t, p, zero_division=0)),
    "f1": (cls.f1, lambda t, p: skm.f1_score(t, p, zero_division=0)),
}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name", list(LABEL_CHECKS))
def test_label_metrics_match_sklearn(name, seed):
    ours, reference = LABEL_CHECKS[name]
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(100):
        n = int(rng.integers(1, 31))
        y_true, y_pred = random_labels(rng, n), random_labels(rng, n)
        rows.append((f"y_true={y_true.tolist()} y_pred={y_pred.tolist()}", ours(y_true, y_pred),
                     float(reference(y_true, y_pred))))
    check_all(rows)


@pytest.mark.parametrize("seed", range(3))
def test_roc_auc_with_ties_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    rows = []
    n_cross_class_ties = 0
    for _ in range(100):
        n = int(rng.integers(2, 41))
        y_true = random_labels(rng, n)
        y_true[:2] = [0, 1]  # both classes present
        rng.shuffle(y_true)
        y_score = rng.integers(0, 5, n) / 4 if rng.random() < 0.8 else rng.random(n)
        n_cross_class_ties += bool(set(y_score[y_true == 1]) & set(y_score[y_true == 0]))
        rows.append((f"y_true={y_true.tolist()} y_score={y_score.tolist()}",
                     cls.roc_auc(y_true, y_score), skm.roc_auc_score(y_true, y_score)))
    assert n_cross_class_ties > 50  # a positive tied with a negative: the 1/2 credit is exercised
    check_all(rows)


def test_roc_auc_is_nan_with_one_class_like_sklearn():
    rng = np.random.default_rng(5)
    for _ in range(50):
        n = int(rng.integers(1, 20))
        y_true = np.full(n, int(rng.integers(0, 2)))
        y_score = rng.integers(0, 5, n) / 4
        with pytest.warns(cls.UndefinedMetricWarning):
            ours = cls.roc_auc(y_true, y_score)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reference = skm.roc_auc_score(y_true, y_score)
        assert np.isnan(reference) and np.isnan(ours)


@pytest.mark.parametrize("seed", range(3))
def test_log_loss_with_clipping_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    rows = []
    n_clipped = 0
    for _ in range(100):
        n = int(rng.integers(1, 31))
        y_true = random_labels(rng, n)
        y_prob = rng.random(n)
        extreme = rng.random(n) < 0.3  # exactly 0 or 1, or closer to them than eps
        y_prob[extreme] = rng.choice([0.0, 1.0, 1e-18, 1 - 2**-53, 1e-300], size=int(extreme.sum()))
        n_clipped += int(extreme.sum())
        reference = skm.log_loss(y_true, y_prob, labels=[0, 1])
        rows.append((f"y_true={y_true.tolist()} y_prob={y_prob.tolist()}", cls.log_loss(y_true, y_prob), reference))
        # scikit-learn's own order (clip p, then take the true label's side): the kata's reference
        rows.append((f"clipped_log_loss, y_true={y_true.tolist()} y_prob={y_prob.tolist()}",
                     cls.clipped_log_loss(y_true, y_prob), reference))
    assert n_clipped > 50
    check_all(rows)


def random_ndcg_input(rng):
    rows, items = int(rng.integers(1, 6)), int(rng.integers(2, 13))
    y_true = rng.integers(0, 4, (rows, items))
    y_true[rng.random(rows) < 0.1] = 0  # some rows with nothing relevant
    if rng.random() < 0.8:
        y_score = rng.integers(0, 4, (rows, items)).astype(float)  # many ties
    else:
        y_score = rng.normal(size=(rows, items))
    k = None if rng.random() < 0.25 else int(rng.integers(1, items + 4))
    return y_true, y_score, k


@pytest.mark.parametrize("seed", range(3))
def test_ndcg_score_with_ties_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(100):
        y_true, y_score, k = random_ndcg_input(rng)
        what = f"y_true={y_true.tolist()} y_score={y_score.tolist()} k={k}"
        rows.append(("2-D " + what, ndcg.ndcg_score(y_true, y_score, k=k),
                     skm.ndcg_score(y_true, y_score, k=k)))
        rows.append(("1-D first row " + what, ndcg.ndcg_score(y_true[0], y_score[0], k=k),
                     skm.ndcg_score(y_true[:1], y_score[:1], k=k)))
    check_all(rows)


@pytest.mark.parametrize("seed", range(3))
def test_ndcg_score_exponential_gain_matches_sklearn_on_transformed_grades(seed):
    """scikit-learn's gain is the grade itself, so grades 2^rel - 1 give the exponential gain."""
    rng = np.random.default_rng(100 + seed)
    rows = []
    for _ in range(100):
        y_true, y_score, k = random_ndcg_input(rng)
        rows.append((f"y_true={y_true.tolist()} y_score={y_score.tolist()} k={k}",
                     ndcg.ndcg_score(y_true, y_score, k=k, gain="exponential"),
                     skm.ndcg_score(2.0**y_true - 1, y_score, k=k)))
    check_all(rows)


# --------------------------------------------------------------------------- GAUC


def reference_gauc(user_ids, y_true, y_score, weight):
    """Per-user scikit-learn AUC, users with one class skipped, weighted mean."""
    user_ids, y_true, y_score = np.asarray(user_ids), np.asarray(y_true), np.asarray(y_score)
    total = weights = 0.0
    skipped = 0
    for user in np.unique(user_ids):
        mask = user_ids == user
        labels = y_true[mask]
        if labels.min() == labels.max():
            skipped += 1
            continue
        w = {"impressions": mask.sum(), "clicks": labels.sum(), "uniform": 1}[weight]
        total += w * skm.roc_auc_score(labels, y_score[mask])
        weights += w
    return (total / weights if weights else float("nan")), skipped


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weight", cls.GAUC_WEIGHTS)
def test_gauc_matches_weighted_per_user_sklearn_auc(weight, seed):
    rng = np.random.default_rng(seed)
    rows, skips, n_nan = [], [], 0
    for _ in range(100):
        n_users = int(rng.integers(1, 9))
        users = [f"user{n}" for n in rng.choice(10_000, n_users, replace=False)]
        user_ids = np.array(users)[rng.integers(0, n_users, int(rng.integers(1, 60)))]
        y_true = random_labels(rng, user_ids.size)
        y_score = rng.integers(0, 5, user_ids.size) / 4
        what = f"users={user_ids.tolist()} y_true={y_true.tolist()} y_score={y_score.tolist()}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cls.UndefinedMetricWarning)
            value, skipped = cls.gauc(user_ids.tolist(), y_true, y_score, weight=weight)
        expected, expected_skipped = reference_gauc(user_ids, y_true, y_score, weight)
        skips.append((what, skipped, expected_skipped))
        if np.isnan(expected):
            n_nan += 1
            assert np.isnan(value), what
        else:
            rows.append((what, value, expected))
    assert [s[1] for s in skips] == [s[2] for s in skips]
    assert 0 < n_nan < 100 and any(s[2] for s in skips)
    check_all(rows)
