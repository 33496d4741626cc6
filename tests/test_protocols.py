"""The protocol lab's engine: loaders, splits, models against brute force, and sampled metrics against
their exact expectation."""

from __future__ import annotations

import hashlib
import io
import urllib.error
import zipfile

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from whole_logs import batch
from metrics.errors import DataError
from protocols import evaluation, lab, models, movielens, splits

U_DATA = "1\t10\t5\t100\n1\t11\t3\t200\n2\t10\t4\t150\n3\t12\t1\t50\n"


def small_log(seed: int = 0, users: int = 30, items: int = 25, rows: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"user": rng.integers(0, users, rows), "item": rng.integers(0, items, rows),
                          "rating": rng.integers(1, 6, rows), "timestamp": rng.integers(0, 50, rows)})
    return frame.drop_duplicates(["user", "item"]).reset_index(drop=True)


# ---------------------------------------------------------------- loaders


def test_a_movielens_folder_zip_and_each_dialect_read_alike(tmp_path):
    (tmp_path / "ml-100k").mkdir()
    (tmp_path / "ml-100k" / "u.data").write_text(U_DATA)
    with zipfile.ZipFile(tmp_path / "ml.zip", "w") as archive:
        archive.writestr("ml-100k/u.data", U_DATA)
    (tmp_path / "ratings.dat").write_text(U_DATA.replace("\t", "::"))
    (tmp_path / "ratings.csv").write_text("userId,movieId,rating,timestamp\n" + U_DATA.replace("\t", ","))
    frames = [movielens.load(p) for p in (tmp_path / "ml-100k", tmp_path / "ml.zip", tmp_path / "ratings.dat",
                                          tmp_path / "ratings.csv")]
    for frame in frames:
        pd.testing.assert_frame_equal(frame, frames[0])
    assert frames[0]["item"].tolist() == [10, 11, 10, 12] and frames[0]["timestamp"].dtype == np.int64


def test_a_truncated_zip_or_a_folder_without_ratings_is_said_plainly(tmp_path):
    with zipfile.ZipFile(tmp_path / "ml.zip", "w") as archive:
        archive.writestr("ml-100k/u.data", U_DATA * 50)
    data = (tmp_path / "ml.zip").read_bytes()
    (tmp_path / "cut.zip").write_bytes(data[: len(data) // 2])
    with pytest.raises(DataError, match="not a readable zip") as error:
        movielens.load(tmp_path / "cut.zip")
    assert error.value.code == "bad_zip"
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="no MovieLens ratings file"):
        movielens.load(tmp_path / "empty")


class _Response(io.BytesIO):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_download_checks_the_published_checksum_and_removes_a_bad_file(tmp_path, monkeypatch):
    payload = io.BytesIO()
    with zipfile.ZipFile(payload, "w") as archive:
        archive.writestr("ml-100k/u.data", U_DATA)
    good = payload.getvalue()
    monkeypatch.setitem(movielens.CHECKSUMS, "ml-100k", hashlib.md5(good).hexdigest())
    path = movielens.download("ml-100k", tmp_path, opener=lambda url, timeout: _Response(good))
    assert len(movielens.load(path)) == 4
    path.unlink()
    with pytest.raises(movielens.DataUnavailable, match="does not match") as error:
        movielens.download("ml-100k", tmp_path, opener=lambda url, timeout: _Response(good[:-7]))
    assert error.value.code == "checksum" and not path.exists()


def test_download_offline_says_what_to_do(tmp_path):
    def offline(url, timeout):
        raise urllib.error.URLError("Name or service not known")

    with pytest.raises(movielens.DataUnavailable, match="offline: download ml-100k.zip yourself") as error:
        movielens.download("ml-100k", tmp_path, opener=offline)
    assert error.value.code == "offline" and not list(tmp_path.iterdir())


def test_the_installed_ml100k_is_the_published_one():
    frame = movielens.installed_ml100k()
    assert (len(frame), frame["user"].nunique(), frame["item"].nunique()) == (100_000, 943, 1_682)
    assert not frame.duplicated(["user", "item"]).any()


def test_a_users_own_file_with_dates_goes_through_the_apps_readers():
    data = b"user,item,timestamp\nu1,a,2024-01-01T00:00:00Z\nu1,b,2024-01-02\n"
    frame = movielens.read_interactions(data, filename="log.csv")
    assert frame["timestamp"].tolist() == [1704067200, 1704153600]
    with pytest.raises(DataError, match="missing column 'timestamp'"):
        movielens.read_interactions(b"user,item\nu1,a\n", filename="log.csv")
    with pytest.raises(DataError, match="line 2: the timestamp 'soon' is neither a number"):
        movielens.read_interactions(b"user,item,timestamp\nu1,a,soon\n", filename="log.csv")
    with pytest.raises(DataError, match="ISO 8601"):
        movielens.read_interactions(b"user,item,timestamp\nu1,a,03/04/2024\n", filename="log.csv")


# ---------------------------------------------------------------- splits

logs = st.builds(small_log, seed=st.integers(0, 10_000), users=st.integers(2, 12), items=st.integers(2, 15),
                 rows=st.integers(5, 80))


def _keys(frame: pd.DataFrame) -> set:
    return set(zip(frame["user"], frame["item"]))


@settings(max_examples=60, deadline=None)
@given(logs, st.sampled_from(splits.SPLITS), st.floats(0.1, 0.9))
def test_no_test_interaction_is_in_training_and_only_cold_users_are_dropped(log, name, share):
    try:
        result = splits.split(log, name, test_fraction=share, seed=1)
    except DataError as error:
        assert error.code in ("empty_split", "only_cold_users")
        return
    train, test = _keys(result.train), _keys(result.test)
    assert not train & test
    dropped = _keys(log) - train - test
    assert len(dropped) == result.counts["cold_user_rows"]
    assert set(result.test["user"]) <= set(result.train["user"])


@settings(max_examples=60, deadline=None)
@given(logs, st.floats(0.1, 0.9))
def test_a_global_cut_trains_only_on_the_past(log, share):
    try:
        result = splits.global_time(log, test_fraction=share)
    except DataError:
        return
    assert result.train["timestamp"].max() < result.counts["cut"] <= result.test["timestamp"].min()
    assert result.counts["future_rows"] == 0


@settings(max_examples=60, deadline=None)
@given(logs)
def test_leave_last_out_holds_out_exactly_each_users_latest(log):
    if log["user"].value_counts().max() < 2:
        with pytest.raises(DataError, match="leaves the test set empty"):
            splits.leave_last_out(log)
        return
    result = splits.leave_last_out(log)
    # brute force: each user's rows in file order, the last of those with the latest time
    for user, rows in log.groupby("user"):
        if len(rows) < 2:
            assert user not in set(result.test["user"])
            continue
        latest = rows[rows["timestamp"] == rows["timestamp"].max()].iloc[-1]
        held = result.test[result.test["user"] == user]
        assert held[["item", "timestamp"]].values.tolist() == [[latest["item"], latest["timestamp"]]]


@settings(max_examples=40, deadline=None)
@given(logs, st.floats(0.1, 0.9))
def test_temporal_fraction_holds_out_each_users_latest_share(log, share):
    if log["user"].value_counts().max() < 2:
        return
    result = splits.temporal_fraction(log, share)
    for user, rows in log.groupby("user"):
        held = result.test[result.test["user"] == user]
        trained = result.train[result.train["user"] == user]
        if len(rows) < 2:
            assert held.empty
            continue
        assert len(held) == min(max(round(share * len(rows)), 1), len(rows) - 1)
        assert trained["timestamp"].max() <= held["timestamp"].min()


# ---------------------------------------------------------------- models against brute force


def _matrix(seed=3, users=12, items=9):
    rng = np.random.default_rng(seed)
    dense = (rng.random((users, items)) < 0.35).astype(np.float32)
    dense[0] = 0  # a user with nothing
    import scipy.sparse as sp

    return sp.csr_matrix(dense), dense.astype(np.float64)


def test_popularity_is_the_training_counts():
    X, dense = _matrix()
    np.testing.assert_array_equal(models.MostPopular().fit(X).scores(np.array([1, 2]))[0], dense.sum(axis=0))


def test_ease_is_the_constrained_least_squares_solved_column_by_column():
    X, dense = _matrix()
    l2 = 3.0
    B = models.EASE(l2=l2).fit(X).B
    n = dense.shape[1]
    for j in range(n):
        others = [i for i in range(n) if i != j]
        A = dense[:, others]
        column = np.linalg.solve(A.T @ A + l2 * np.eye(n - 1), A.T @ dense[:, j])
        np.testing.assert_allclose(B[others, j], column, atol=1e-10)
        assert B[j, j] == 0


@pytest.mark.parametrize("shrink, neighbours", [(0.0, 100), (5.0, 100), (0.0, 2)])
def test_item_knn_is_the_pairwise_cosine(shrink, neighbours):
    X, dense = _matrix()
    model = models.ItemKNN(neighbours=neighbours, shrink=shrink).fit(X)
    n = dense.shape[1]
    expected = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j:
                norms = np.linalg.norm(dense[:, i]) * np.linalg.norm(dense[:, j])
                expected[i, j] = dense[:, i] @ dense[:, j] / (norms + shrink) if norms + shrink else 0.0
    if neighbours < n:
        for j in range(n):
            keep = np.argsort(-expected[:, j], kind="stable")[:neighbours]
            expected[np.setdiff1d(np.arange(n), keep), j] = 0.0
            np.testing.assert_allclose(np.sort(model.similarity[:, j]), np.sort(expected[:, j]), atol=1e-12)
    else:
        np.testing.assert_allclose(model.similarity, expected, atol=1e-12)
    np.testing.assert_allclose(model.scores(np.arange(4)), dense[:4] @ model.similarity, atol=1e-12)


def test_matrix_factorisation_is_seeded_and_scores_are_its_factors():
    X, _ = _matrix()
    a, b = models.MatrixFactorisation(factors=4, iterations=3).fit(X), models.MatrixFactorisation(factors=4, iterations=3).fit(X)
    np.testing.assert_array_equal(a.scores(np.arange(5)), b.scores(np.arange(5)))


def test_matrix_factorisation_on_every_core_gives_the_factors_of_one_thread(monkeypatch):
    # The model trains with implicit's threads on every core: its factors must not depend on how many there are
    from implicit.cpu import als

    split = splits.split(movielens.installed_ml100k(), "random", test_fraction=0.2, seed=0)
    X = evaluation._seen(lab.encoded(split))
    threads = []
    real = als.AlternatingLeastSquares.__init__

    def with_threads(count):
        def init(self, *args, **kwargs):
            threads.append(kwargs["num_threads"])
            real(self, *args, **{**kwargs, "num_threads": count})
        return init

    monkeypatch.setattr(als.AlternatingLeastSquares, "__init__", with_threads(1))
    one = models.MatrixFactorisation(iterations=5).fit(X)
    monkeypatch.setattr(als.AlternatingLeastSquares, "__init__", with_threads(2))
    two = models.MatrixFactorisation(iterations=5).fit(X)
    assert threads == [0, 0]  # the model asks for every core
    np.testing.assert_array_equal(one._model.user_factors, two._model.user_factors)
    np.testing.assert_array_equal(one._model.item_factors, two._model.item_factors)


def test_random_scores_do_not_depend_on_which_users_are_scored_together():
    X, _ = _matrix()
    model = models.Random(seed=4).fit(X)
    np.testing.assert_array_equal(model.scores(np.array([3, 5]))[1], model.scores(np.array([5]))[0])


# ---------------------------------------------------------------- ranking and sampled metrics


def test_full_ranking_leaves_out_seen_items_and_breaks_ties_by_item():
    train = pd.DataFrame({"user": [1, 1, 2, 2, 3], "item": [5, 6, 5, 7, 8], "timestamp": 0})
    test = pd.DataFrame({"user": [1], "item": [8], "timestamp": 1})
    enc = evaluation.Encoded.of(train, test)
    model = models.MostPopular().fit(evaluation._seen(enc))  # 5 has 2 users; 6, 7, 8 one each
    recs = evaluation.top_k(model, enc, 3)
    assert recs["item"].tolist() == [7, 8] and recs["rank"].tolist() == [1, 2]
    per_user, _ = evaluation.full_catalogue(model, enc, 3)
    assert per_user.loc[1, "reciprocal_rank"] == 0.5


def test_hypergeometric_pmf_equals_scipys():
    population, successes, draws, j = 500, np.arange(0, 500, 7)[:, None], 60, np.arange(0, 61)[None, :]
    np.testing.assert_allclose(evaluation.hypergeom_pmf(population, successes, draws, j),
                               stats.hypergeom(population, successes, draws).pmf(j), atol=1e-12)


def _ml_like(seed=0):
    return small_log(seed, users=60, items=80, rows=1500)


def test_sampling_every_negative_gives_back_the_full_rank():
    split = splits.leave_last_out(_ml_like())
    enc = evaluation.Encoded.of(split.train, split.test)
    model = models.ItemKNN().fit(evaluation._seen(enc))
    popularity = np.asarray(evaluation._seen(enc).sum(axis=0)).ravel()
    allowed = evaluation.allowed_negatives(enc)
    negatives = evaluation.sample_negatives(enc, allowed, 10_000, "uniform", 0, popularity)
    pairs = evaluation.sampled_ranks(model, enc, allowed, negatives, "uniform", popularity)
    assert (pairs["sampled_rank"] == pairs["full_rank"]).all()
    # and the one-item-at-a-time full HR equals the app's HR on the same ranking
    per_user, _ = evaluation.full_catalogue(model, enc, 5)
    summary = evaluation.sampled_summary(pairs, 5, 10_000, "uniform")
    kept = per_user.loc[pairs["user"].unique()]
    assert summary["full_hit_rate"] == pytest.approx(kept["hit_rate@5"].mean())


@pytest.mark.parametrize("how", ["uniform", "popular"])
def test_the_expected_sampled_metric_is_the_mean_over_many_samples(how):
    split = splits.leave_last_out(_ml_like(1))
    enc = evaluation.Encoded.of(split.train, split.test)
    model = models.EASE(l2=10).fit(evaluation._seen(enc))
    popularity = np.asarray(evaluation._seen(enc).sum(axis=0)).ravel()
    allowed = evaluation.allowed_negatives(enc)
    draws = []
    for seed in range(200):
        negatives = evaluation.sample_negatives(enc, allowed, 8, how, seed, popularity)
        pairs = evaluation.sampled_ranks(model, enc, allowed, negatives, how, popularity)
        draws.append(((pairs["sampled_rank"] <= 3).to_numpy(), evaluation._ndcg_of_rank(pairs["sampled_rank"], 3)))
    expected = evaluation.expected_metrics(pairs, 3, how)
    hit = np.mean([d[0] for d in draws], axis=0)
    ndcg = np.mean([d[1] for d in draws], axis=0)
    # 200 draws: a pair's mean is within 4 standard errors (0.5 / sqrt(200) at worst) of its expectation
    assert np.abs(hit - expected["hit_rate"]).max() < 4 * 0.5 / np.sqrt(200)
    assert np.abs(hit.mean() - expected["hit_rate"].mean()) < 0.02
    assert np.abs(ndcg.mean() - expected["ndcg"].mean()) < 0.02


def test_the_corrected_metric_is_the_metric_itself_when_every_negative_is_drawn():
    for metric in ("hit_rate", "ndcg"):
        values = evaluation.corrected_metric(40, 39, 5, metric)
        exact = (np.arange(1, 41) <= 5).astype(float) if metric == "hit_rate" else evaluation._ndcg_of_rank(np.arange(1, 41), 5)
        np.testing.assert_allclose(values, exact, atol=1e-9)


def test_the_corrected_estimate_is_closer_to_the_full_value_than_the_sampled_one():
    ranks = np.random.default_rng(0).integers(1, 1000, 5000)
    pairs = pd.DataFrame({"user": np.arange(5000), "full_rank": ranks, "candidates": 1000, "negatives": 100})
    rng = np.random.default_rng(1)
    pairs["sampled_rank"] = 1 + rng.hypergeometric(ranks - 1, 1000 - ranks, 100)
    summary = evaluation.sampled_summary(pairs.assign(share_above=np.nan), 10, 100, "uniform")
    for metric in ("hit_rate", "ndcg"):
        full = summary[f"full_{metric}"]
        assert abs(summary[f"corrected_{metric}"] - full) < abs(summary[f"sampled_{metric}"] - full) / 5


# ---------------------------------------------------------------- the runner


def test_a_run_scores_every_model_on_the_same_candidates_and_tunes_on_training_only():
    log = _ml_like(2)
    protocol = lab.Protocol(split="temporal-fraction", candidates="uniform:20", k=5, tuned=True)
    result = lab.run(log, protocol, ["pop", "ease"])
    table = result.table()
    assert list(table.index) == ["pop", "ease"]
    assert {"ndcg@5", "coverage@5", "sampled_ndcg", "expected_ndcg", "corrected_ndcg"} <= set(table.columns)
    assert result.models["ease"].params["l2"] in models.GRIDS["ease"]["l2"]
    direct = batch.summarize(result.models["pop"].per_user).means["ndcg@5"]
    assert table.loc["pop", "ndcg@5"] == direct


def test_a_tuned_run_reuses_only_the_models_whose_hyperparameters_came_out_the_same(monkeypatch):
    log = _ml_like(2)
    untuned = lab.run(log, lab.Protocol(split="random", candidates="uniform:20", k=5), ["pop", "ease", "itemknn"])
    tuned_protocol = lab.Protocol(split="random", candidates="uniform:20", k=5, tuned=True)
    fresh = lab.run(log, tuned_protocol, ["pop", "ease", "itemknn"], split=untuned.split)
    monkeypatch.setitem(models.GRIDS, "ease", {"l2": [models.EASE().l2]})  # tuning can only pick the default
    fresh_ease = lab.run(log, tuned_protocol, ["ease"], split=untuned.split).table()
    fitted = []
    real_fit = lab._fit
    monkeypatch.setattr(lab, "_fit", lambda name, *args: fitted.append(name) or real_fit(name, *args))
    reused = lab.run(log, tuned_protocol, ["pop", "ease", "itemknn"], split=untuned.split, reuse=untuned)
    # popularity (no hyperparameters) and EASE (the default chosen) come from the untuned run; item k-NN's
    # tuned values are not its defaults, so it is trained again (after its grid's own fits)
    assert fitted.count("pop") == 0 and fitted.count("ease") == 1  # the one grid value, on the validation split
    assert fitted[-1] == "itemknn"
    table = reused.table()
    pd.testing.assert_series_equal(table.loc["ease"], fresh_ease.loc["ease"])
    pd.testing.assert_frame_equal(table.loc[["pop", "itemknn"]], fresh.table().loc[["pop", "itemknn"]])
    with pytest.raises(ValueError, match="same split"):
        lab.run(log, lab.Protocol(split="random", k=10, tuned=True), ["pop"], split=untuned.split, reuse=untuned)


def test_a_run_hands_each_model_over_as_soon_as_it_is_scored():
    log = _ml_like(2)
    seen = []
    result = lab.run(log, lab.Protocol(split="random", k=5), ["pop", "ease", "itemknn"],
                     on_model=lambda partial: seen.append(list(partial.models)))
    assert seen == [["pop"], ["pop", "ease"], ["pop", "ease", "itemknn"]]
    assert list(result.models) == ["pop", "ease", "itemknn"]


@pytest.mark.parametrize("text", ["uniform", "full:3", "popular:0", "popular:x", "sampled:10"])
def test_bad_candidates_are_refused(text):
    with pytest.raises(DataError, match="candidates must be|sampled negatives must be"):
        lab.Protocol.parse_candidates(text)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(1, 12), st.integers(1, 14), st.integers(0, 10_000), st.booleans())
def test_the_top_k_is_the_first_k_of_a_stable_sort_whatever_the_ties(rows, columns, k, seed, with_inf):
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 3, (rows, columns)).astype(float)  # many ties, at the boundary too
    if with_inf:
        scores[rng.random(scores.shape) < 0.3] = -np.inf
    expected = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    np.testing.assert_array_equal(evaluation._top_positions(scores, k), expected)


def test_full_catalogue_ndcg_equals_implicits_own_ranking_metrics():
    from implicit.evaluation import ranking_metrics_at_k

    split = splits.random_holdout(_ml_like(5), 0.3, seed=2)
    enc = evaluation.Encoded.of(split.train, split.test)
    model = models.MatrixFactorisation(factors=8, iterations=5).fit(evaluation._seen(enc))
    per_user, _ = evaluation.full_catalogue(model, enc, 10)
    test = enc.test[enc.test["item_code"] >= 0]
    truth = models.interaction_matrix(test["user_code"].to_numpy(), test["item_code"].to_numpy(), *enc.shape)
    theirs = ranking_metrics_at_k(model._model, evaluation._seen(enc), truth, K=10, show_progress=False, num_threads=1)
    # every test item of these users is in the catalogue, so both score the same users on the same lists
    assert (enc.test["item_code"] >= 0).all()
    assert per_user["ndcg@10"].mean() == pytest.approx(theirs["ndcg"], abs=1e-9)


def test_the_expected_sampled_metric_at_any_n_is_the_tables_at_its_n_and_the_full_one_with_every_negative():
    frame = small_log(seed=3, users=40, items=30, rows=500)
    result = lab.run(frame, lab.Protocol(split="leave-last-out", candidates="uniform:5"), ["pop", "itemknn"])
    for model in result.models.values():
        assert evaluation.expected_mean(model.pairs, 10, 5) == pytest.approx(model.sampled["expected_hit_rate"])
        every = int(model.pairs["candidates"].max())
        assert evaluation.expected_mean(model.pairs, 10, every) == pytest.approx(model.sampled["full_hit_rate"])
        assert evaluation.expected_mean(model.pairs, 3, 4, "ndcg") == pytest.approx(
            evaluation.expected_metrics(model.pairs.assign(negatives=np.minimum(4, model.pairs["candidates"] - 1)), 3,
                                        "uniform")["ndcg"].groupby(model.pairs["user"]).mean().mean())
