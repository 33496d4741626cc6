"""Your data page: the default synthetic log, generation, uploads (CSV, TREC, malformed), worst users."""

from __future__ import annotations

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from whole_logs import batch
from whole_logs.synthetic import synthetic_log
from tests.conftest import card, chart_specs, latex, run_page, table_with, texts
from ui.controllers import your_data as yd
from ui.state import TOPIC_PAGES

PAGE = TOPIC_PAGES["your_data"]


@pytest.fixture(scope="module")
def opened() -> AppTest:
    return run_page(PAGE)


def summary_value(at: AppTest, metric_label: str, k: int) -> float:
    table = table_with(at, "metric")
    return float(table.loc[table["metric"] == metric_label, f"K = {k}"].iloc[0])


def upload(at: AppTest, recs: tuple[str, bytes], truth: tuple[str, bytes]) -> AppTest:
    at.radio(key="yd_source").set_value("Upload files").run()
    at.file_uploader(key="yd_recs_file").set_value((recs[0], recs[1], "text/plain"))
    at.file_uploader(key="yd_truth_file").set_value((truth[0], truth[1], "text/plain"))
    at.run()
    at.button(key="yd_read").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_opens_with_a_synthetic_log_evaluated(opened):
    recs, truth = synthetic_log(users=2000, list_length=20, relevant=5, quality=0.5, seed=0)
    expected = batch.summarize(batch.evaluate(recs, truth, [5, 10, 20])).means
    assert summary_value(opened, "MAP@K", 10) == pytest.approx(expected["average_precision@10"])
    assert summary_value(opened, "NDCG@K", 20) == pytest.approx(expected["ndcg@20"])
    assert r"\mathrm{MAP@10}=\frac{1}{|U|}\sum_{u\in U}\mathrm{AP@10}_u" in latex(opened)
    assert f"={expected['average_precision@10']:.4f}" in latex(opened)
    titles = [spec["layout"]["title"]["text"].replace("<br>", " ") for spec in chart_specs(opened)]  # wrapped for phones
    assert "How the per-user values spread (dashed line = mean)" in titles
    assert "Spread of AP@10 over users" in titles
    assert "Each mean as K grows" in titles
    traps = table_with(opened, "trap").set_index("trap")
    assert traps.loc["Relevant items never recommended", "users"] > 0
    assert traps.loc["Duplicate (user, item) in the recommendations", "users"] == 0
    assert "40,000 recommendation rows" in texts(opened)
    assert "**Relevant items never recommended**:" in texts(opened)


def test_generating_a_better_model_raises_the_means():
    at = run_page(PAGE)
    before = summary_value(at, "MAP@K", 10)
    at.text_input(key="_yd_users_typed").set_value("300")
    at.select_slider(key="yd_quality").set_value(1.0)
    at.button[0].click().run()  # the form's submit button
    recs, truth = synthetic_log(users=300, list_length=20, relevant=5, quality=1.0, seed=0)
    expected = batch.summarize(batch.evaluate(recs, truth, [5, 10, 20])).means
    assert summary_value(at, "MAP@K", 10) == pytest.approx(expected["average_precision@10"])
    assert expected["average_precision@10"] > before
    assert "users 300" in texts(at) and "6,000 recommendation rows" in texts(at)


def test_upload_of_a_generated_csv_pair_gives_the_engine_numbers():
    recs, truth = synthetic_log(users=150, list_length=12, relevant=4, quality=0.3, seed=7)
    at = upload(run_page(PAGE), ("recs.csv", recs.to_csv(index=False).encode()),
                ("truth.csv", truth.to_csv(index=False, sep=";").encode()))
    expected = batch.summarize(batch.evaluate(recs, truth, [5, 10, 20])).means
    assert summary_value(at, "Precision@K", 5) == pytest.approx(expected["precision@5"])
    assert summary_value(at, "MRR (no cut-off)", 10) == pytest.approx(expected["reciprocal_rank"])
    assert "files “recs.csv” and “truth.csv”" in texts(at).replace("\\", "")
    assert not at.error


def test_upload_of_old_mac_and_quoted_files_gives_the_engine_numbers():
    """An old Mac's CR line endings, and every field quoted as R's write.csv writes them."""
    import csv

    recs, truth = synthetic_log(users=40, list_length=8, relevant=3, quality=0.4, seed=3)
    at = upload(run_page(PAGE), ("recs.csv", recs.to_csv(index=False, lineterminator="\r").encode()),
                ("truth.csv", truth.to_csv(index=False, quoting=csv.QUOTE_ALL).encode()))
    assert not at.error, [e.value for e in at.error]
    expected = batch.summarize(batch.evaluate(recs, truth, [5, 10, 20])).means
    assert summary_value(at, "NDCG@K", 5) == pytest.approx(expected["ndcg@5"])


def test_upload_of_a_trec_pair():
    run = b"q1 Q0 d1 1 3.0 mine\nq1 Q0 d2 2 2.0 mine\nq1 Q0 d3 3 1.0 mine\nq2 Q0 d9 1 5.0 mine\n"
    qrels = b"q1 0 d3 2\nq1 0 d8 1\nq2 0 d9 1\nq3 0 d1 1\n"
    at = upload(run_page(PAGE), ("run.txt", run), ("qrels.txt", qrels))
    # RR: q1 first hit at 3, q2 at 1, q3 has no list: (1/3 + 1 + 0) / 3.
    assert summary_value(at, "MRR (no cut-off)", 10) == pytest.approx((1 / 3 + 1) / 3)
    users = table_with(at, "meaning")["users"].tolist()
    assert users == [3, 1, 0, 0]
    traps = table_with(at, "trap").set_index("trap")
    assert traps.loc["Users in the ground truth but not in the recommendations", "users"] == 1
    assert traps.loc["Relevant items never recommended", "users"] == 2  # q1's d8, q3's d1


@pytest.mark.parametrize(("content", "message"), [
    (b"user,item\nu1,a\n", "missing column 'rank' or 'score'"),
    (b"user item rank\nu1 a 1\n", "no , ; tab or | between names"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a text file"),
    (b"user,item,rank\nu1,a,1\nu1,b,x\n", "column 'rank' must hold finite numbers; line 3 holds 'x'"),
    (b"user,item,rank\nu1,a,1\nu1,a,2\n", "duplicate (user, item) pairs"),
    (b"user,item,rank,rank\nu1,a,1,2\n", "the header names column 'rank' twice (columns 3 and 4)"),
    (("user,item,rank\n" + "u1,a,1\n" * 20_000 + "u1,caf\xe9,2\n").encode("latin-1"),
     "not a UTF-8 text file: line 20002, field 2 holds the byte 0xE9"),
], ids=["missing column", "wrong delimiter", "not a csv", "wrong type", "duplicates", "a column twice",
        "a latin-1 byte far in"])
def test_malformed_upload_says_why_and_keeps_the_previous_results(opened, content, message):
    at = run_page(PAGE)
    before = summary_value(at, "MAP@K", 10)
    at = upload(at, ("bad.csv", content), ("truth.csv", b"user,item\nu1,a\n"))
    errors = " ".join(e.value for e in at.error).replace("\\", "").replace("\u2060", "")
    assert "Not loaded:" in errors and "Recommendations file “bad.csv”" in errors or "recommendations" in errors
    assert message in errors
    assert summary_value(at, "MAP@K", 10) == before
    assert "40,000 recommendation rows" in texts(at)


def test_a_log_with_repeated_items_is_refused_then_read_with_each_items_best_rank():
    recs, truth = synthetic_log(users=50, list_length=10, relevant=3, quality=0.5, seed=4)
    again = recs.assign(score=recs["score"] - 10)  # each item shown again, scored below everything
    content = pd.concat([again, recs]).to_csv(index=False).encode()
    at = upload(run_page(PAGE), ("repeats.csv", content), ("truth.csv", truth.to_csv(index=False).encode()))
    errors = " ".join(e.value for e in at.error).replace("\\", "")
    assert "duplicate (user, item) pairs" in errors and "Tick “keep the best-ranked copy”" in errors

    at.checkbox(key="yd_keep_best").check().run()
    at.button(key="yd_read").click().run()
    assert not at.exception and not at.error
    expected = batch.summarize(batch.evaluate(recs, truth, [5, 10, 20])).means
    assert summary_value(at, "NDCG@K", 10) == pytest.approx(expected["ndcg@10"])
    assert "500 repeated recommendation rows left out" in texts(at).replace("\\", "")


def test_opening_a_worst_user_puts_them_in_the_shared_scenario():
    at = run_page(PAGE)
    worst = table_with(at, "AP@10")
    user = worst["user"].iloc[0]
    assert worst["AP@10"].iloc[0] == worst["AP@10"].min()
    at.selectbox(key="yd_worst_user").set_value(user)
    at.button(key="yd_open").click().run()
    assert not at.exception
    recs, truth = synthetic_log(users=2000, list_length=20, relevant=5, quality=0.5, seed=0)
    mine = recs[recs["user"] == user].sort_values("score", ascending=False)
    assert at.session_state["recommended"]["item"].tolist() == [str(i) for i in mine["item"]]
    assert set(at.session_state["ground_truth"]["item"]) == {str(i) for i in truth.loc[truth["user"] == user, "item"]}
    assert at.session_state["k"] == 10
    assert "is now the shared scenario" in texts(at)
    at.switch_page(TOPIC_PAGES["ap"]).run()
    assert not at.exception
    assert card(at, "AP@10") == f"{worst['AP@10'].iloc[0]:.4f}"


def test_a_user_ranked_by_another_k_opens_at_that_k():
    at = run_page(PAGE)
    at.selectbox(key="yd_worst_column").set_value("precision@5").run()
    worst = table_with(at, "Precision@5")
    assert list(worst.columns[:2]) == ["user", "Precision@5"]
    at.selectbox(key="yd_worst_user").set_value(worst["user"].iloc[0])
    at.button(key="yd_open").click().run()
    assert at.session_state["k"] == 5 and at.session_state["yd_opened"] == worst["user"].iloc[0]
    at.switch_page(TOPIC_PAGES["topn"]).run()
    assert not at.exception
    assert card(at, "Precision@5") == f"{worst['Precision@5'].iloc[0]:.4f}"


# --------------------------------------------------------------------------- helpers alone


def test_user_case_orders_ties_like_the_engine():
    recs = pd.DataFrame({"user": ["u"] * 3, "item": ["c", "a", "b"], "score": [1.0, 1.0, 2.0]})
    truth = pd.DataFrame({"user": ["u"], "item": ["c"], "relevance": [2]})
    items, grades = yd.user_case(yd.Log(recs, truth, "test"), "u")
    assert items == ["b", "a", "c"] and grades == {"c": 2.0}


def test_load_files_names_the_file_and_checks_like_the_engine():
    good = yd.Upload("r.csv", b"user,item,rank\nu,a,1\n")
    with pytest.raises(ValueError, match="Ground truth file “t.csv”: the ground truth file is missing column 'item'"):
        yd.load_files(good, yd.Upload("t.csv", b"user,thing\nu,a\n"))
    negative = yd.load_files(good, yd.Upload("t.csv", b"user,item,relevance\nu,a,-1\n"))  # judged non-relevant
    assert batch.scan_traps(negative.recommendations, negative.ground_truth, 1).loc["negative_grades", "rows"] == 1
    with pytest.raises(ValueError, match="Ground truth file “t.parquet”: the ground truth file has no data rows"):
        yd.load_files(good, yd.Upload("t.parquet", _parquet(pd.DataFrame({"user": [], "item": []}))))
    log = yd.load_files(good, yd.Upload("t.parquet", _parquet(pd.DataFrame({"user": ["u"], "item": ["a"]}))))
    assert len(log.ground_truth) == 1


def _parquet(frame: pd.DataFrame) -> bytes:
    import io

    buffer = io.BytesIO()
    frame.to_parquet(buffer)
    return buffer.getvalue()


def test_shaping_helpers():
    assert yd.column_label("average_precision@10") == "AP@10" and yd.column_label("reciprocal_rank") == "RR"
    assert yd.curve_ks([10], 12) == [1, 2, 3, 5, 10]
    assert yd.curve_ks([50], 8) == [1, 2, 3, 5, 10, 15, 20, 30, 50]
    per_user = pd.DataFrame({"ndcg@5": [0.5, 0.1, 0.1]}, index=pd.Index(["b", "z", "a"], name="user"))
    assert yd.worst_users(per_user, "ndcg@5", 2)["user"].tolist() == ["z", "a"]  # ties keep the index order
    wide = pd.DataFrame({"precision@5": [1.0], "precision@10": [1.0], "ndcg@10": [0.5], "reciprocal_rank": [1.0]},
                        index=pd.Index(["u"], name="user"))
    assert list(yd.worst_users(wide, "ndcg@10").columns) == ["user", "ndcg@10", "precision@10", "reciprocal_rank"]
    assert list(yd.worst_users(wide, "reciprocal_rank").columns) == ["user", "reciprocal_rank", "precision@5"]
    general, substituted = yd.mean_formula("ndcg", 5, per_user)
    assert substituted == r"\mathrm{NDCG@5}=\frac{0.7000}{3}=0.2333"


def test_a_synthetic_log_is_refused_only_above_the_row_limit():
    from content.your_data import MAX_ROWS

    fits = {**yd.SYNTHETIC, "users": MAX_ROWS // 20, "list_length": 20}
    assert yd.too_many_rows(fits) is None
    refused = yd.too_many_rows({**fits, "users": fits["users"] + 1})
    assert refused == (MAX_ROWS // 20 + 1, 20)
    assert refused.message().startswith("100,001 users × 20 items is more than the 2,000,000 rows")
    log = yd.synthetic({**yd.SYNTHETIC, "users": 30})
    assert log.origin == ("synthetic", {**yd.SYNTHETIC, "users": 30}) and log.recommendations["user"].nunique() == 30


def test_settings_choose_the_main_metric_and_k_and_the_columns():
    every = yd.Settings(list(batch.METRICS), [5, 10, 20], "linear", "min")
    assert (every.main_metric, every.main_k, every.main_column) == ("average_precision", 10, "average_precision@10")
    assert every.columns[:3] == ["precision@5", "precision@10", "precision@20"]
    assert every.columns[-1] == "reciprocal_rank" and "reciprocal_rank" not in every.against_k
    assert every.columns_at(5)[-1] == "reciprocal_rank" and len(every.columns_at(5)) == len(batch.METRICS)
    few = yd.Settings(["reciprocal_rank", "recall"], [3, 50], "linear", "min")
    assert (few.main_metric, few.main_k, few.main_column) == ("reciprocal_rank", 3, "reciprocal_rank")
    assert few.columns == ["recall@3", "recall@50", "reciprocal_rank"] and few.against_k == ["recall"]
    assert yd.Settings(["ndcg", "precision"], [10], "linear", "min").main_metric == "ndcg"
    assert yd.Settings(["reciprocal_rank"], [10], "linear", "min").against_k == ["reciprocal_rank"]


def test_evaluate_scores_the_curves_ks_and_scans_traps_at_the_largest_k():
    recs = pd.DataFrame({"user": ["a"] * 4 + ["b"] * 2, "item": [1, 2, 3, 4, 1, 2], "rank": [1, 2, 3, 4, 1, 2]})
    truth = pd.DataFrame({"user": ["a", "b", "c"], "item": [3, 9, 1]})
    evaluation = yd.evaluate(yd.Log(recs, truth, "test"), yd.Settings(["precision", "reciprocal_rank"], [2, 3],
                                                                       "linear", "min"))
    assert evaluation.curve_ks == [1, 2, 3]  # up to the longest list (4), not past the largest chosen K
    assert list(evaluation.per_user.columns) == ["precision@2", "precision@3", "reciprocal_rank"]
    assert evaluation.per_user_all["precision@1"].tolist() == [0.0, 0.0, 0.0]
    assert evaluation.summary.means["reciprocal_rank"] == pytest.approx(1 / 9)
    assert evaluation.traps.loc["shorter_than_k", "users"] == 1  # b's two items, at K = 3
    assert evaluation.traps_found == 3  # also c without a list, b's 9 never recommended


def test_a_user_opens_at_the_ranking_columns_k_within_the_teaching_slider():
    assert yd.opened_k("precision@5", 10, 20) == 5
    assert yd.opened_k("reciprocal_rank", 10, 20) == 10
    assert yd.opened_k("ndcg@50", 10, 8) == 20
    assert yd.opened_k("ndcg@50", 10, 30) == 30


def test_scan_traps_counts_what_evaluate_refuses():
    recs = pd.DataFrame({"user": ["a", "a", "a", "b", "c"], "item": ["x", "x", "y", "x", "q"], "rank": [1, 2, 2, 1, 1]})
    truth = pd.DataFrame({"user": ["a", "a", "b", "d"], "item": ["y", "y", "z", "x"], "relevance": [1, 2, 0, 3]})
    traps = batch.scan_traps(recs, truth, 3)
    assert traps["users"].to_dict() == {
        "duplicate_recommendations": 1, "duplicate_ground_truth": 1, "tied_scores": 1,
        "truth_without_recommendations": 1, "recommendations_without_truth": 1, "shorter_than_k": 1,
        "relevant_never_recommended": 1, "graded_zero": 1, "negative_grades": 0,
    }
    assert traps.loc["duplicate_recommendations", "rows"] == 2
    with pytest.raises(ValueError, match="duplicate"):
        batch.evaluate(recs, truth, 3)


def test_chosen_files_not_yet_read_say_the_results_are_the_old_ones():
    recs, truth = synthetic_log(users=150, list_length=12, relevant=4, quality=0.3, seed=7)
    at = run_page(PAGE)
    at.radio(key="yd_source").set_value("Upload files").run()
    assert not any("Old results" in w.value for w in at.warning)  # nothing chosen yet: nothing to confuse
    at.file_uploader(key="yd_recs_file").set_value(("recs.csv", recs.to_csv(index=False).encode(), "text/plain"))
    at.run()
    notice = [w.value for w in at.warning if "Old results" in w.value]
    assert notice and "a synthetic log (users 2000" in notice[0].replace("\\", "") and "Read and evaluate the files" in notice[0]
    at.file_uploader(key="yd_truth_file").set_value(("truth.csv", truth.to_csv(index=False).encode(), "text/plain"))
    at.run()
    assert any("Old results" in w.value for w in at.warning)
    at.button(key="yd_read").click().run()
    assert not any("Old results" in w.value for w in at.warning)
    assert "150 users" in texts(at).replace(",", "") or "1,800 recommendation rows" in texts(at)
    assert "files “recs.csv” and “truth.csv”" in texts(at).replace("\\", "")
