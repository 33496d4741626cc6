"""The batch engine against the per-user functions of metrics/ (every user) and trec_eval (means).

Expected values never come from whole_logs.batch itself: per user they come from
``topn_metrics``/``ranked_metrics``/``ndcg`` given each user's list in the documented order
(rank ascending, or score descending, ties by item id ascending), written out here with
Python's ``sorted``; the means come from pytrec_eval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whole_logs import batch, engine
from metrics.ndcg import ndcg_at_k
from metrics.ranked_metrics import average_precision_at_k, reciprocal_rank
from metrics.topn_metrics import f1_at_k, hit_rate_at_k, precision_at_k, recall_at_k

SETTINGS = settings(max_examples=150, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
TOL = dict(rtol=1e-12, atol=1e-15)

# --------------------------------------------------------------------------- reference


def ordered_lists(recs: pd.DataFrame) -> dict:
    """Each user's items in the documented order, with plain Python sorting."""
    key = "rank" if "rank" in recs.columns else "score"
    lists: dict = {}
    for user, item, value in zip(recs["user"], recs["item"], recs[key], strict=True):
        lists.setdefault(user, []).append((value if key == "rank" else -value, item))
    return {user: [item for _, item in sorted(pairs)] for user, pairs in lists.items()}


def truth_dicts(truth: pd.DataFrame) -> dict:
    grades = truth["relevance"] if "relevance" in truth.columns else [1.0] * len(truth)
    out: dict = {}
    for user, item, grade in zip(truth["user"], truth["item"], grades, strict=True):
        out.setdefault(user, {})[item] = float(grade)
    return out


def reference(recs, truth, ks, gain, denominator) -> pd.DataFrame:
    lists, grades = ordered_lists(recs), truth_dicts(truth)
    rows = {}
    for user in sorted(grades):
        ranked, truth_of_user = lists.get(user, []), grades[user]
        row = {}
        for k in ks:
            p, r = precision_at_k(ranked, truth_of_user, k), recall_at_k(ranked, truth_of_user, k)
            row[f"precision@{k}"], row[f"recall@{k}"] = p, r
            row[f"f1@{k}"] = f1_at_k(p, r)
            row[f"hit_rate@{k}"] = hit_rate_at_k(ranked, truth_of_user, k)
            row[f"average_precision@{k}"] = average_precision_at_k(ranked, truth_of_user, k, denominator=denominator)
            row[f"ndcg@{k}"] = ndcg_at_k(ranked, truth_of_user, k, gain=gain)
        row["reciprocal_rank"] = reciprocal_rank(ranked, truth_of_user)
        rows[user] = row
    return pd.DataFrame.from_dict(rows, orient="index")


# --------------------------------------------------------------------------- random logs


@st.composite
def logs(draw):
    """Recommendations and ground truth for a few users, with every awkward case reachable."""
    text_ids = draw(st.booleans())
    pool = [f"i{n}" for n in range(12)] if text_ids else list(range(100, 112))
    users = [f"u{n}" for n in range(draw(st.integers(1, 7)))] if text_ids else list(range(draw(st.integers(1, 7))))
    by_rank = draw(st.booleans())
    graded = draw(st.booleans())
    # Lists all equally long (a top-K log) take the engine's sort of each list as a row of a 2-D view.
    length = draw(st.none() | st.integers(0, 12))
    sizes = {"max_size": 12} if length is None else {"min_size": length, "max_size": length}
    rec_rows, truth_rows = [], []
    for user in users:
        side = draw(st.sampled_from(["both", "both", "both", "recs only", "truth only"]))
        if side != "truth only":
            items = draw(st.lists(st.sampled_from(pool), unique=True, **sizes))
            # Few distinct scores or ranks, so ties are frequent; ranks need not be 1..n.
            values = draw(st.lists(st.integers(0, 4), min_size=len(items), max_size=len(items)))
            rec_rows += [(user, item, value) for item, value in zip(items, values, strict=True)]
        if side != "recs only":
            items = draw(st.lists(st.sampled_from(pool), unique=True, min_size=1, max_size=8))
            grade = st.integers(0, 3) | st.floats(0, 3, allow_nan=False) if graded else st.integers(0, 1)
            truth_rows += [(user, item, draw(grade)) for item in items]
    if not truth_rows:
        truth_rows = [(users[0], pool[0], 1)]
    recs = pd.DataFrame(rec_rows, columns=["user", "item", "rank" if by_rank else "score"])
    if not len(recs):
        recs = recs.astype({"user": object if text_ids else np.int64, "item": object if text_ids else np.int64})
    if not by_rank:
        recs["score"] = recs["score"].astype(float) / 2
    truth = pd.DataFrame(truth_rows, columns=["user", "item", "relevance"])
    if not graded and draw(st.booleans()):
        truth = truth[truth["relevance"] > 0].drop(columns="relevance")
        if not len(truth):
            truth = pd.DataFrame({"user": [users[0]], "item": [pool[0]]})
    shuffle = list(draw(st.permutations(range(len(recs)))))
    if draw(st.booleans()):  # written user by user, each user's rows in any order
        shuffle.sort(key=lambda row: users.index(recs["user"].iloc[row]))
    return recs.iloc[shuffle].reset_index(drop=True), truth.reset_index(drop=True)


settings_grid = st.tuples(
    st.lists(st.integers(1, 14), min_size=1, max_size=3),
    st.sampled_from(["linear", "exponential"]),
    st.sampled_from(["min", "relevant", "hits"]),
)


@SETTINGS
@given(logs(), settings_grid)
def test_equals_per_user_functions_on_every_user(log, grid):
    recs, truth = log
    ks, gain, denominator = grid
    got = batch.evaluate(recs, truth, ks, gain=gain, denominator=denominator)
    expected = reference(recs, truth, sorted(set(ks)), gain, denominator)
    assert list(got.index) == list(expected.index)
    assert set(got.columns) == set(expected.columns)
    np.testing.assert_allclose(got[expected.columns].to_numpy(), expected.to_numpy(), **TOL)
    users = got.attrs["users"]
    rec_users, truth_users = set(recs["user"]), set(truth["user"])
    assert users["evaluated"] == len(truth_users)
    assert users["no_recommendations"] == len(truth_users - rec_users)
    assert users["no_ground_truth"] == len(rec_users - truth_users)


@settings(SETTINGS, max_examples=60)
@given(logs(), st.data())
def test_row_order_and_chunks_do_not_change_a_user(log, data):
    """Shuffled rows give the same result, and a chunk of users gives their rows of the whole
    (what a distributed job relies on when it evaluates one partition of users at a time)."""
    recs, truth = log
    whole = batch.evaluate(recs, truth, [3, 10])
    shuffled = batch.evaluate(recs.sample(frac=1, random_state=1), truth.sample(frac=1, random_state=2), [3, 10])
    pd.testing.assert_frame_equal(whole, shuffled, rtol=1e-12)
    everyone = sorted(set(recs["user"]) | set(truth["user"]))
    chunk = data.draw(st.lists(st.sampled_from(everyone), min_size=1, unique=True))
    parts = [batch.evaluate(recs[recs["user"].isin(chunk) == inside], truth[truth["user"].isin(chunk) == inside], [3, 10])
             for inside in (True, False)]
    pd.testing.assert_frame_equal(parts[0], whole.loc[sorted(set(chunk) & set(whole.index))], rtol=1e-12)
    combined = batch.combine(parts)
    pd.testing.assert_frame_equal(combined, whole, rtol=1e-12)
    assert combined.attrs == whole.attrs


# --------------------------------------------------------------------------- conventions


def test_ties_are_broken_by_item_id_ascending_for_every_metric():
    recs = pd.DataFrame({"user": [1, 1, 1], "item": ["c", "a", "b"], "score": [0.5, 0.5, 0.9]})
    truth = pd.DataFrame({"user": [1], "item": ["c"]})
    got = batch.evaluate(recs, truth, 2)
    # order is b (0.9), then a before c (tied at 0.5): the hit c is at rank 3, outside K = 2.
    assert got.loc[1, "reciprocal_rank"] == pytest.approx(1 / 3)
    assert got.loc[1, "precision@2"] == 0 and got.loc[1, "ndcg@2"] == 0
    ranked = recs.assign(rank=[2, 2, 1]).drop(columns="score")
    pd.testing.assert_frame_equal(batch.evaluate(ranked, truth, 2), got)


def test_rank_wins_over_score_and_ranks_need_not_be_consecutive():
    recs = pd.DataFrame({"user": ["u"] * 3, "item": [1, 2, 3], "rank": [30, 10, 20], "score": [9, 1, 5]})
    truth = pd.DataFrame({"user": ["u"], "item": [2]})
    assert batch.evaluate(recs, truth, 1).loc["u", "precision@1"] == 1.0


def test_users_on_one_side_only_and_all_zero_grades_are_counted():
    recs = pd.DataFrame({"user": ["a", "a", "z", "g"], "item": [1, 2, 1, 5], "rank": [1, 2, 1, 1]})
    truth = pd.DataFrame({"user": ["a", "b", "g"], "item": [2, 1, 5], "relevance": [1, 2, 0]})
    per_user = batch.evaluate(recs, truth, 2)
    assert list(per_user.index) == ["a", "b", "g"]
    assert (per_user.loc[["b", "g"]] == 0).all().all()
    summary = batch.summarize(per_user)
    assert summary.users.to_dict() == {"evaluated": 3, "no_recommendations": 1, "no_relevant": 1,
                                       "no_ground_truth": 1}
    assert summary.means["reciprocal_rank"] == pytest.approx(0.5 / 3)
    assert list(summary.table().columns) == ["metric", "mean"]


def test_a_chunk_without_ground_truth_gives_no_rows_but_counts_its_users():
    per_user = batch.evaluate(RECS, TRUTH.iloc[:0], [1, 2])
    assert per_user.empty and list(per_user.columns)[0] == "precision@1"
    assert per_user.attrs["users"] == {"evaluated": 0, "no_recommendations": 0, "no_relevant": 0, "no_ground_truth": 2}
    assert batch.summarize(per_user).means.isna().all()


def test_column_names_and_order():
    recs = pd.DataFrame({"user": [1], "item": [1], "rank": [1]})
    truth = pd.DataFrame({"user": [1], "item": [1]})
    assert list(batch.evaluate(recs, truth, 10).columns) == [
        "precision@10", "recall@10", "f1@10", "hit_rate@10", "average_precision@10", "ndcg@10",
        "reciprocal_rank"]
    chosen = batch.evaluate(recs, truth, [10, 5], metrics=["ndcg", "precision"])
    assert list(chosen.columns) == ["precision@5", "precision@10", "ndcg@5", "ndcg@10"]
    assert chosen.index.name == "user"


def test_ids_that_are_numbers_on_one_side_and_text_on_the_other_match_as_text():
    recs = pd.DataFrame({"user": [7, 7], "item": [1, 2], "rank": [1, 2]})
    truth = pd.DataFrame({"user": ["7"], "item": ["2"]})
    assert batch.evaluate(recs, truth, 2).loc["7", "reciprocal_rank"] == 0.5


def test_sparse_integer_ids_take_the_hashing_path():
    recs = pd.DataFrame({"user": [10**15, 10**15, 3], "item": [-(10**14), 10**16, 5], "score": [1.0, 2.0, 3.0]})
    truth = pd.DataFrame({"user": [10**15, 3], "item": [-(10**14), 6]})
    got = batch.evaluate(recs, truth, 1)
    assert got["reciprocal_rank"].to_dict() == {3: 0.0, 10**15: 0.5}


def test_kernel_rejects_rows_not_grouped_by_user():
    with pytest.raises(ValueError, match="grouped by user"):
        batch.score_ranked_rows(np.array([0, 1, 0]), np.zeros(3), np.array([0]), np.ones(1), 2, 1)


# --------------------------------------------------------------------------- errors

RECS = pd.DataFrame({"user": ["a", "a", "b"], "item": ["x", "y", "x"], "rank": [1, 2, 1]})
TRUTH = pd.DataFrame({"user": ["a", "b"], "item": ["x", "x"], "relevance": [1, 2]})

ERRORS = [
    ("missing item", RECS.drop(columns="item"), TRUTH, r"recommendations is missing column 'item' \(found columns: 'user', 'rank'\)"),
    ("missing truth user", RECS, TRUTH.drop(columns="user"), r"ground_truth is missing column 'user'"),
    ("no rank or score", RECS.drop(columns="rank"), TRUTH, r"needs a 'rank' column .* or a 'score' column"),
    ("text rank", RECS.assign(rank=["1", "two", "3"]), TRUTH, r"column 'rank' must hold finite numbers; row 1 holds 'two'"),
    ("missing score", RECS.drop(columns="rank").assign(score=[0.5, None, np.inf]), TRUTH,
     r"column 'score' must hold finite numbers; rows 1 and 2 hold nan, inf"),
    ("text relevance", RECS, TRUTH.assign(relevance=["high", 1]), r"column 'relevance' must hold finite numbers; row 0 holds 'high'"),
    ("duplicate recs", pd.concat([RECS, RECS.iloc[[1]]], ignore_index=True), TRUTH,
     r"recommendations has duplicate \(user, item\) pairs in columns 'user' and 'item': user 'a', item 'y' at rows 1 and 3; 1 row\(s\) in all repeat an earlier pair"),
    ("duplicate truth", RECS, pd.concat([TRUTH, TRUTH.iloc[[0]]], ignore_index=True),
     r"ground_truth has duplicate .* user 'a', item 'x' at rows 0 and 2"),
    ("empty user", RECS.assign(user=["a", None, "b"]), TRUTH, r"recommendations column 'user' is empty at row 1"),
    ("not a frame", [("a", "x", 1)], TRUTH, r"recommendations must be a pandas DataFrame, got list"),
]


@pytest.mark.parametrize(("case", "recs", "truth", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_name_the_column_and_first_rows(case, recs, truth, message):
    with pytest.raises(ValueError, match=message):
        batch.evaluate(recs, truth, 2)


def test_error_rows_use_the_index_name_readers_set():
    recs = RECS.assign(rank=[1, "x", 2]).set_axis(pd.RangeIndex(2, 5, name="line"))
    with pytest.raises(ValueError, match="line 3 holds 'x'"):
        batch.evaluate(recs, TRUTH, 2)


def test_long_lists_of_offending_rows_are_cut():
    recs = pd.DataFrame({"user": range(9), "item": 1, "rank": ["?"] * 9})
    with pytest.raises(ValueError, match=r"rows 0, 1, 2, 3 and 4 \(and 4 more\)"):
        batch.evaluate(recs, TRUTH, 2)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"k": 0}, "k must be a positive integer"),
    ({"k": []}, "non-empty list"),
    ({"k": 2, "metrics": ["map"]}, "metrics must be one of"),
    ({"k": 2, "gain": "log"}, "gain must be one of"),
    ({"k": 2, "denominator": "k"}, "denominator must be one of"),
])
def test_bad_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        batch.evaluate(RECS, TRUTH, **kwargs)


# --------------------------------------------------------------------------- trec_eval


def random_log(seed: int, users: int = 300):
    """Distinct scores (trec_eval breaks ties by docid descending, we by item ascending) and
    integer grades 0..3 (trec_eval's relevance level 1 = our grade > 0)."""
    rng = np.random.default_rng(seed)
    rec_rows, truth_rows = [], []
    for u in range(users):
        n = int(rng.integers(0, 25))
        items = rng.choice(60, n, replace=False)
        scores = rng.permutation(n) + rng.random()
        rec_rows += [(f"q{u}", f"d{i}", float(s)) for i, s in zip(items, scores, strict=True)]
        judged = rng.choice(60, int(rng.integers(1, 12)), replace=False)
        truth_rows += [(f"q{u}", f"d{i}", int(rng.integers(0, 4))) for i in judged]
    return (pd.DataFrame(rec_rows, columns=["user", "item", "score"]),
            pd.DataFrame(truth_rows, columns=["user", "item", "relevance"]))


TREC_MEASURES = {"P_10": "precision@10", "recall_10": "recall@10", "success_10": "hit_rate@10",
                 "map_cut_10": "average_precision@10", "ndcg_cut_10": "ndcg@10", "recip_rank": "reciprocal_rank"}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_means_equal_trec_eval(seed):
    recs, truth = random_log(seed)
    qrels, run = {}, {}
    for user, item, grade in truth.itertuples(index=False):
        qrels.setdefault(user, {})[item] = grade
    for user, item, score in recs.itertuples(index=False):
        run.setdefault(user, {})[item] = score
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"P.10", "recall.10", "success.10", "map_cut.10",
                                                       "ndcg_cut.10", "recip_rank"})
    theirs = pd.DataFrame.from_dict(evaluator.evaluate(run), orient="index")
    ours = batch.evaluate(recs, truth, 10, denominator="relevant")
    # trec_eval scores only users present in both tables; ours also scores the others (0).
    ours = ours.loc[sorted(theirs.index)]
    assert len(ours) > 250
    for trec_name, column in TREC_MEASURES.items():
        assert ours[column].mean() == pytest.approx(theirs[trec_name].mean(), rel=1e-12), trec_name


def test_duplicate_message_shows_integer_ids_plainly():
    recs = pd.DataFrame({"user": [7, 7], "item": [3, 3], "rank": [1, 2]})
    with pytest.raises(ValueError, match=r"user 7, item 3 at rows 0 and 1"):
        batch.evaluate(recs, pd.DataFrame({"user": [7], "item": [3]}), 1)


@pytest.mark.parametrize("table", ["recommendations", "ground_truth"])
def test_a_duplicate_pair_is_a_duplicate_pairs_error_naming_its_table(table):
    recs = pd.DataFrame({"user": [7, 7], "item": [3, 4], "rank": [1, 2]})
    truth = pd.DataFrame({"user": [7], "item": [3]})
    frames = {"recommendations": recs, "ground_truth": truth}
    frames[table] = pd.concat([frames[table], frames[table].iloc[[0]]], ignore_index=True)
    with pytest.raises(batch.DuplicatePairsError) as raised:
        batch.evaluate(frames["recommendations"], frames["ground_truth"], 2)
    assert raised.value.table == table


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_rows_ordered_by_user_then_position_on_both_paths(data):
    """Below 65,536 users a radix sort of 16-bit user codes orders the rows sorted by position; above,
    one argsort of packed (user, dense rank) keys. Both must give every row once, by (user, position)."""
    n = data.draw(st.integers(1, 300))
    top = data.draw(st.sampled_from([3, 255, 256, 65_535, 65_536, 10**6]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    user = rng.integers(0, top + 1, n).astype(np.int64)
    user[rng.integers(0, n)] = top  # the largest code is used: the path chosen depends on it
    position = rng.choice(np.array([-1.5, 0.0, 0.25, 2.0, 1e300]), n) if data.draw(st.booleans()) else rng.normal(size=n)
    order = engine._by_user_then(user, position)
    assert np.array_equal(np.sort(order), np.arange(n))
    expected = np.lexsort((position, user))
    assert np.array_equal(user[order], user[expected]) and np.array_equal(position[order], position[expected])


def test_longest_list_is_the_most_rows_of_one_user_and_one_for_an_empty_log():
    recs = pd.DataFrame({"user": ["a", "b", "b", "b", "c"], "item": [1, 1, 2, 3, 9], "rank": [1, 1, 2, 3, 1]})
    assert batch.longest_list(recs) == 3
    assert batch.longest_list(recs.iloc[:0]) == 1
