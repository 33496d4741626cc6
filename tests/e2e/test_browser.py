"""The dashboard in a real Chromium, used the way a teacher in front of a class uses it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from playwright.sync_api import Page, expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import (
    add_row, card, edit_cell, editor, open_page, screenshot, set_slider, upload_files, wait_until_idle,
)

TITLES = {
    "home": "RecEval Lab: the playground", "rating": "Rating errors", "topn": "Precision, Recall, HR and F1 @K",
    "ap": "AP and MAP", "rr": "RR and MRR", "ndcg": "NDCG", "classification": "Classification metrics",
    "auc": "AUC and GAUC", "logloss": "LogLoss", "examples": "Worked examples",
    "your_data": "Your data",
    "lens": "Why libraries disagree",
    "lessons": "Guided lessons",
    "ab": "A vs B: what one move does", "sensitivity": "Sensitivity explorer", "random": "Random and perfect baselines",
    "sampled": "Sampled negatives",
    "practice": "Practice",
    "compare": "Compare two models",
    "live": "Live class",
    "kata": "Write it yourself",
    "which_metric": "Which metric when",
    "protocols": "How offline evaluation lies",
    "logged": "Logged feedback",
}
# Pages whose first screen has no formula and no chart, and the button that shows they are drawn: the
# live class starts with a join form, Write it yourself with its editor (Which metric when: its links), the
# protocol lab trains nothing until asked.
FIRST_BUTTON = {"live": "Start a class", "kata": "Run", "protocols": "Run on MovieLens 100K"}


def url_path(page_path: str) -> str:
    """Streamlit's URL for a page file: pages/3_AP_and_MAP.py -> /AP_and_MAP."""
    if page_path == "app.py":
        return "/"
    return "/" + Path(page_path).stem.split("_", 1)[1]


def no_exception_box(page: Page) -> None:
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_home_ndcg_card_follows_grade_and_rank_edits(server, page):
    open_page(page, server.url)
    expect(card(page, "NDCG@10 (binary)")).to_have_text("0.8278")
    expect(card(page, "NDCG@10 (graded)")).to_have_text("0.8278")

    edit_cell(page, editor(page, 1), column=2, row=1, text="3")  # grade of item 104
    expect(card(page, "NDCG@10 (graded)")).to_have_text("0.6355")
    expect(card(page, "NDCG@10 (binary)")).to_have_text("0.8278")

    edit_cell(page, editor(page, 0), column=1, row=6, text="2")  # move item 107 to rank 2
    # DCG = 1/log2(2) + 1/log2(3) + 3/log2(6); IDCG = 3/log2(2) + 1/log2(3) + 1/log2(4)
    expected = (1 + 1 / np.log2(3) + 3 / np.log2(6)) / (3 + 1 / np.log2(3) + 1 / np.log2(4))
    expect(card(page, "NDCG@10 (graded)")).to_have_text(f"{expected:.4f}")
    expect(card(page, "AP@10")).to_have_text("0.8667")
    no_exception_box(page)
    screenshot(page, SCREENSHOTS, "home_after_edits")


def test_k_slider_changes_precision_and_the_highlighted_k(server, page):
    open_page(page, server.url)
    expect(card(page, "Precision@10")).to_have_text("0.3000")
    set_slider(page, "K (cut-off)", 4)
    expect(card(page, "Precision@4")).to_have_text("0.5000")
    marker = page.locator(".js-plotly-plot").filter(has_text="Each metric as K grows").locator(".annotation-text")
    expect(marker.filter(has_text="K = 4")).to_have_count(1)
    no_exception_box(page)


def test_duplicate_item_shows_the_message_and_keeps_the_metrics(server, page):
    page.set_viewport_size({"width": 1280, "height": 720})  # a projector: the message must show without scrolling
    open_page(page, server.url)
    add_row(page, editor(page, 0))
    edit_cell(page, editor(page, 0), column=2, row=10, text="103")
    expect(page.get_by_text("item '103' appears twice, at ranks 3 and 11")).to_be_in_viewport()
    expect(card(page, "Precision@10")).to_have_text("0.3000")
    expect(card(page, "NDCG@10 (binary)")).to_have_text("0.8278")
    no_exception_box(page)
    screenshot(page, SCREENSHOTS, "home_duplicate_item")


def test_scenario_survives_switching_pages_through_the_sidebar(server, page):
    open_page(page, server.url)
    edit_cell(page, editor(page, 1), column=2, row=1, text="3")
    expect(card(page, "NDCG@10 (graded)")).to_have_text("0.6355")

    page.get_by_test_id("stSidebar").get_by_role("link", name="NDCG").click()
    wait_until_idle(page)
    expect(page.locator("h1").first).to_contain_text("NDCG")
    expect(card(page, "NDCG@10 (graded, linear)").or_(card(page, "NDCG@10 (graded)")).first).to_have_text("0.6355")

    page.get_by_test_id("stSidebar").get_by_role("link", name="Playground").click()
    wait_until_idle(page)
    expect(card(page, "NDCG@10 (graded)")).to_have_text("0.6355")
    no_exception_box(page)


def choose_your_data_files(page: Page, url: str, recommendations: Path, ground_truth: Path):
    """Open "Your data", switch to uploads and choose both files; returns the button that reads them."""
    open_page(page, url + "/Your_data")
    page.get_by_text("Upload files").click()
    wait_until_idle(page)
    upload_files(page, {"Recommendations file": recommendations, "Ground-truth file": ground_truth})
    return page.get_by_role("button", name="Read and evaluate the files")


def test_your_data_reads_files_through_the_real_file_input(server, page, tmp_path):
    """Upload a recommendations CSV and TREC qrels with the browser's own file input."""
    recs = tmp_path / "my recs.csv"
    recs.write_text("user,item,score\nu1,a,0.9\nu1,b,0.8\nu1,c,0.7\nu2,a,0.5\nu2,d,0.4\n")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("u1 0 c 2\nu2 0 a 1\nu3 0 z 1\n")
    button = choose_your_data_files(page, server.url, recs, qrels)
    expect(button).to_be_enabled()
    button.click()
    wait_until_idle(page)
    expect(page.get_by_text("Showing files “my recs.csv” and “qrels.txt”: 5 recommendation rows")).to_be_visible()
    # AP@10: u1's only relevant item c at rank 3 -> 1/3; u2's a at rank 1 -> 1; u3 has no list -> 0.
    expect(page.locator(".katex").filter(has_text=r"\frac{1.3333}{3}=0.4444")).to_have_count(1)
    no_exception_box(page)
    screenshot(page, SCREENSHOTS, "your_data_uploaded")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the per-user results (CSV)").click()
    saved = tmp_path / "per_user.csv"
    download.value.save_as(saved)
    per_user = pd.read_csv(saved, index_col=0)
    assert sorted(per_user.index) == ["u1", "u2", "u3"]
    assert per_user["average_precision@10"].round(4).to_dict() == {"u1": 0.3333, "u2": 1.0, "u3": 0.0}


def test_your_data_reads_a_log_with_repeated_items_once_the_switch_is_on(server, page, tmp_path):
    recs = tmp_path / "repeats.csv"
    recs.write_text("user,item,rank\nu1,a,1\nu1,b,2\nu1,a,3\nu2,c,1\n")
    qrels = tmp_path / "truth.csv"
    qrels.write_text("user,item\nu1,b\nu2,c\n")
    read = choose_your_data_files(page, server.url, recs, qrels)
    read.click()
    wait_until_idle(page)
    expect(page.get_by_text("item 'a' at lines 2 and 4")).to_be_visible()
    page.get_by_text("Keep the best-ranked copy of an item recommended twice to a user").click()
    wait_until_idle(page)
    read.click()
    wait_until_idle(page)
    expect(page.get_by_text("1 repeated recommendation row left out")).to_be_visible()
    # MRR: u1's b at rank 2 (a's second copy gone), u2's c at rank 1: (1/2 + 1) / 2.
    expect(page.locator(".katex").filter(has_text=r"\frac{1.5000}{2}=0.7500")).to_have_count(1)
    no_exception_box(page)


def test_compare_reads_four_files_through_the_real_file_inputs(server, page, tmp_path):
    from whole_logs.synthetic_pair import synthetic_pair

    pair = synthetic_pair(0.02, users=300, seed=3)
    a, b, truth = pair.sample(200)
    for name, frame in (("a.csv", a), ("b.csv", b), ("truth.csv", truth),
                        ("genres.csv", pair.categories.rename_axis("item").reset_index())):
        frame.to_csv(tmp_path / name, index=False)
    open_page(page, server.url + "/Compare_two_models")
    page.get_by_text("My own files").click()
    wait_until_idle(page)
    upload_files(page, {"Model A's recommendations": tmp_path / "a.csv", "Model B's recommendations": tmp_path / "b.csv",
                        "Ground truth": tmp_path / "truth.csv", "Item categories (optional)": tmp_path / "genres.csv"})
    expect(page.get_by_text("Intra-list diversity: the share of pairs")).to_be_visible()
    expect(page.locator(".js-plotly-plot").filter(has_text="Difference B − A")).to_have_count(1)
    no_exception_box(page)
    screenshot(page, SCREENSHOTS, "compare_uploaded_with_categories")
