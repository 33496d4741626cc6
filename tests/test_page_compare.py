"""AppTest for the "Compare two models" page: synthetic pair, uploads, bad files, missing users."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from whole_logs import batch, beyond_accuracy, significance
from content.pages import compare as words
from whole_logs.synthetic_pair import synthetic_pair
from tests.conftest import chart_specs, run_page
from content import text
from ui.figures.compare_charts import metric_label
from ui.navigation import TOPIC_PAGES

PAGE = TOPIC_PAGES["compare"]


def csv_bytes(frame: pd.DataFrame) -> bytes:
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False)
    return buffer.getvalue().encode()


def test_default_synthetic_pair_shows_table_verdict_and_charts():
    at = run_page(PAGE)
    pair = synthetic_pair(0.01, users=20_000, seed=0)
    a, b, truth = pair.sample(1000)
    expected = significance.compare(batch.evaluate(a, truth, 10), batch.evaluate(b, truth, 10))
    table = at.dataframe[0].value
    assert list(table.index) == [metric_label(name) for name in expected.index]
    assert table["delta"].to_numpy() == pytest.approx(expected["delta"].to_numpy())
    assert table["p_adjusted"].to_numpy() == pytest.approx(expected["p_adjusted"].to_numpy())
    verdicts = [m.value for m in at.markdown if "NDCG@10 (graded)" in m.value and "interval" in m.value]
    assert verdicts and "No clear difference on NDCG@10 (graded)" in verdicts[0]
    titles = [spec["layout"]["title"]["text"].replace("<br>", " ") for spec in chart_specs(at)]
    assert titles[0].startswith("Difference B − A") and "Per-user difference in NDCG@10 (graded)" in titles[1]
    assert any("relevant items" in t for t in titles) and any("popular" in t for t in titles)
    assert any("to detect a difference" in m.value for m in at.markdown)


def test_the_whole_population_reveals_the_true_difference():
    at = run_page(PAGE)
    at.select_slider(key="compare_users").set_value(20_000).run()
    assert not at.exception
    row = at.dataframe[0].value.loc["NDCG@10 (graded)"]
    assert row["delta"] == pytest.approx(synthetic_pair(0.01, users=20_000, seed=0).true_delta)
    assert any(m.value.startswith("**B is better on NDCG@10 (graded)") for m in at.markdown)


def test_uploaded_files_are_compared_and_a_bad_file_keeps_the_last_results():
    pair = synthetic_pair(0.02, users=400, seed=3)
    at = run_page(PAGE)
    at.radio(key="compare_source").set_value("My own files").run()
    assert any("Upload the three files" in i.value for i in at.info)
    at.file_uploader(key="compare_upload_a").upload("a.csv", csv_bytes(pair.recommendations_a), "text/csv")
    at.file_uploader(key="compare_upload_b").upload("b.csv", csv_bytes(pair.recommendations_b), "text/csv")
    at.file_uploader(key="compare_upload_truth").upload("truth.csv", csv_bytes(pair.ground_truth), "text/csv")
    at.run()
    assert not at.exception
    expected = significance.compare(batch.evaluate(pair.recommendations_a.astype({"user": str, "item": str}),
                                                   pair.ground_truth.astype({"user": str, "item": str}), 10),
                                    batch.evaluate(pair.recommendations_b.astype({"user": str, "item": str}),
                                                   pair.ground_truth.astype({"user": str, "item": str}), 10))
    assert at.dataframe[0].value["delta"].to_numpy() == pytest.approx(expected["delta"].to_numpy())

    at.file_uploader(key="compare_upload_b").upload("b.csv", b"user;product\n1;2\n", "text/csv")
    at.run()
    assert not at.exception
    assert "cannot be used" in at.error[0].value and "last files" in at.error[0].value
    assert at.dataframe[0].value["delta"].to_numpy() == pytest.approx(expected["delta"].to_numpy())


def test_a_model_that_skips_users_is_named():
    pair = synthetic_pair(0.0, users=300, seed=2)
    recs_b = pair.recommendations_b[pair.recommendations_b["user"] > 40]
    at = run_page(PAGE, compare_source="My own files", compare_files=(pair.recommendations_a, recs_b, pair.ground_truth, None))
    warnings = [w.value for w in at.warning]
    assert any("Model B recommends nothing to 40 of the 300 users" in w for w in warnings), warnings


def test_settings_change_the_test_and_k():
    at = run_page(PAGE)
    at.text_input(key="_compare_k_typed").set_value("5").run()
    at.selectbox(key="compare_test").set_value("wilcoxon").run()
    assert not at.exception
    assert "NDCG@5 (graded)" in at.dataframe[0].value.index
    assert any("Wilcoxon signed-rank" in c.value for c in at.caption)


def beyond_table(at) -> pd.DataFrame:
    return next(frame.value for frame in at.dataframe if "B - A" in frame.value.columns)


def test_the_synthetic_pair_shows_intra_list_diversity_over_its_genres():
    at = run_page(PAGE)
    pair = synthetic_pair(0.01, users=20_000, seed=0)
    a, b, truth = pair.sample(1000)
    expected = beyond_accuracy.side_by_side(a, b, truth, 10, categories=pair.categories)
    shown = beyond_table(at)
    assert list(shown.index) == [words.beyond_row(key, 10) for key in expected.index]
    assert shown.loc["intra-list diversity@10", "A"] == pytest.approx(
        beyond_accuracy.intra_list_diversity(a, 10, categories=pair.categories))
    assert any("8 genres" in c.value for c in at.caption)


def test_an_uploaded_categories_file_adds_intra_list_diversity_and_a_clash_is_named():
    pair = synthetic_pair(0.02, users=300, seed=3)
    at = run_page(PAGE)
    at.radio(key="compare_source").set_value("My own files").run()
    for key, frame in (("a", pair.recommendations_a), ("b", pair.recommendations_b), ("truth", pair.ground_truth)):
        at.file_uploader(key=f"compare_upload_{key}").upload(f"{key}.csv", csv_bytes(frame), "text/csv")
    at.run()
    assert "intra-list diversity@10" not in beyond_table(at).index
    assert any("Upload item categories" in c.value for c in at.caption)

    genres = pair.categories.rename_axis("item").reset_index()
    at.file_uploader(key="compare_upload_categories").upload("genres.csv", csv_bytes(genres), "text/csv").run()
    assert not at.exception
    as_text = {"user": str, "item": str}
    expected = beyond_accuracy.intra_list_diversity(pair.recommendations_b.astype(as_text), 10,
                                                    categories=pair.categories)
    assert beyond_table(at).loc["intra-list diversity@10", "B"] == pytest.approx(expected)

    at.file_uploader(key="compare_upload_categories").upload(
        "genres.csv", b"item,category\n1,news\n2,film\n1,sport\n", "text/csv").run()
    assert not at.exception
    assert (text.markdown("item '1' has two categories, 'news' (line 2) and 'sport' (line 4): give each item one "
                          "category") + ". The results below are from the last files") in at.error[0].value  # two sentences
    assert beyond_table(at).loc["intra-list diversity@10", "B"] == pytest.approx(expected)


LABEL = metric_label("ndcg@10")  # the registry's label: "NDCG@10 (graded)"
SHOWN = LABEL  # a label of the app's own, written as it is


def test_users_needed_follows_the_data_shown_after_switching_to_files():
    """The target difference is the one of the data on screen, not the synthetic pair's left behind."""
    pair = synthetic_pair(0.05, users=300, seed=4)
    at = run_page(PAGE)
    synthetic_target = float(next(n.value for n in at.text_input if (n.key or "").startswith("compare_target")))
    at.radio(key="compare_source").set_value("My own files")
    at.session_state["compare_files"] = (pair.recommendations_a, pair.recommendations_b, pair.ground_truth, None)
    at.run()
    assert not at.exception
    delta = at.dataframe[0].value.loc[LABEL, "delta"]
    target = round(abs(float(delta)), 4)
    assert target != synthetic_target
    sentence = next(m.value for m in at.markdown if "to detect a difference" in m.value)
    assert f"difference of {target:.4f} in {SHOWN}" in sentence, sentence
    spread = significance.paired_differences(*(batch.evaluate(x, pair.ground_truth, 10)[["ndcg@10"]]
                                              for x in (pair.recommendations_a, pair.recommendations_b)))["ndcg@10"]
    needed = significance.users_needed(batch.evaluate(pair.recommendations_a, pair.ground_truth, 10),
                                       batch.evaluate(pair.recommendations_b, pair.ground_truth, 10), "ndcg@10",
                                       delta=target)
    assert f"**{needed:,} users**" in sentence and f"{spread.std(ddof=1):.4f}" in sentence
    box = next(n for n in at.text_input if (n.key or "").startswith("compare_target"))
    assert float(box.value) == pytest.approx(target)
    box.input("0.02").run()
    sentence = next(m.value for m in at.markdown if "to detect a difference" in m.value)
    assert f"difference of 0.0200 in {SHOWN}" in sentence
    at.selectbox(key="compare_test").set_value("wilcoxon").run()  # same data: what was typed stays
    assert f"difference of 0.0200 in {SHOWN}" in next(m.value for m in at.markdown if "to detect a difference" in m.value)


def test_in_turkish_the_tables_row_labels_and_index_header_are_turkish():
    at = run_page(PAGE, lang="tr")
    import json
    beyond = next(frame for frame in at.dataframe if "B - A" in frame.value.columns)
    assert "intra-list diversity@10" not in beyond.value.index
    assert any("çeşitlilik" in label for label in beyond.value.index), list(beyond.value.index)
    for frame in (at.dataframe[0], beyond):
        config = json.loads(frame.proto.columns)
        assert config["_index"]["label"] not in ("metric", None), config.get("_index")
