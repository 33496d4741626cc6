"""The protocol lab in a real Chromium: run a preset on MovieLens 100K, read its finding, its tables and the slope
chart of the models' places, at a 1280x720 projector and on a 390 px phone (light and dark, English, Chinese and
Turkish), and hand a model's log over to Your data."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import SCREENSHOTS, watched_tab
from tests.e2e.streamlit_page import cell_texts, open_page, screenshot, wait_until_idle

PRESET = "sampled_vs_full"  # the page's first preset: 100 sampled negatives against the full ranking
TRAINING = 300_000  # ms: a liveness bound for a server's first run of the preset (four models on a busy machine)
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1280, "height": 720}


def run_preset(page: Page, url: str) -> None:
    """Open the lab, press the preset's Run button (in any language) and wait for its finding."""
    open_page(page, url)
    expect(result_tables(page)).to_have_count(0)  # nothing is trained before the reader asks
    page.locator(f".st-key-protocol_run_{PRESET} button").click()
    expect(page.get_by_test_id("stAlertContentInfo")).to_be_visible(timeout=TRAINING)
    wait_until_idle(page)


def result_tables(page: Page):
    """The lab's tables, not a chart's own data table folded under it."""
    return page.locator("xpath=//*[@data-testid='stDataFrame'][not(ancestor::*[@data-testid='stExpander'])]")


def slope_chart(page: Page, title: str):
    return page.locator(".js-plotly-plot").filter(has_text=title)


def test_a_preset_shows_its_finding_its_tables_and_the_slope_chart_at_1280x720(server, page: Page):
    page.set_viewport_size(PROJECTOR)
    run_preset(page, server.url + "/Protocol_lab")
    finding = page.get_by_test_id("stAlertContentInfo")
    expect(finding).to_contain_text("What this page finds now:")
    expect(finding).to_contain_text("Pairs of models that change order: Item k-NN and Matrix factorisation (ALS).")
    chart = slope_chart(page, "HR@10: each model's place (1 = best)")
    expect(chart).to_have_count(1)
    expect(chart.locator(".scatterlayer .trace")).to_have_count(4)  # one line per model
    for name in ("Most popular", "Item k-NN", "EASE", "Matrix factorisation"):  # "(ALS)" on a second line
        expect(chart.locator(".textpoint").filter(has_text=name)).to_have_count(1)
    tables = result_tables(page)
    expect(tables).to_have_count(2)  # HR@10 and NDCG@10: full, sampled, expected, corrected
    tables.first.scroll_into_view_if_needed()
    # HR@10 is a count over the 940 test users: full and with 100 sampled negatives (docs/protocol-lab.md)
    for row, (model, full, sampled) in enumerate((("Most popular", "0.0862", "0.4096"), ("Item k-NN", "0.1128", "0.6181"),
                                                   ("EASE", "0.1457", "0.6585"),
                                                   ("Matrix factorisation (ALS)", "0.1457", "0.6053"))):
        expect(tables.first.locator(f"#glide-cell-0-{row}")).to_have_text(model)  # the grid draws its cells late
        assert cell_texts(tables.first, row, 2) == [full, sampled]
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PROJECTOR["width"], box
    expect(page.get_by_test_id("stException")).to_have_count(0)
    chart.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "protocol_lab_1280x720_slopes.png"))
    screenshot(page, SCREENSHOTS, "protocol_lab_1280x720")

    # Every log the lab produces opens in Your data: the chosen model's top 10 and the test set
    page.get_by_role("button", name="Open in Your data").click()
    wait_until_idle(page)
    expect(page.get_by_role("heading", name="Your data")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Showing the protocol lab's top 10 of Most popular on MovieLens 100K")).to_be_visible()
    assert "/Your_data" in page.url
    expect(page.get_by_role("radio", name="From the protocol lab")).to_be_checked()
    expect(page.get_by_role("button", name="Generate and evaluate")).to_have_count(0)  # no other source's form
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot(page, SCREENSHOTS, "protocol_lab_handed_to_your_data_1280x720")


def test_the_lab_on_a_390px_phone_in_chinese(server, page: Page):
    page.set_viewport_size(PHONE)
    run_preset(page, server.url + "/Protocol_lab?lang=zh")
    expect(page.get_by_test_id("stAlertContentInfo")).to_contain_text("本页现在的发现：")
    chart = slope_chart(page, "HR@10：每个模型的名次（1 = 最好）")
    expect(chart).to_have_count(1)
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box  # no sideways scrolling for the chart
    expect(chart.locator(".textpoint").filter(has_text="矩阵分解（ALS）")).to_have_count(1)
    expect(result_tables(page)).to_have_count(2)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    page.screenshot(path=str(SCREENSHOTS / "protocol_lab_390_zh_slopes.png"))
    screenshot(page, SCREENSHOTS, "protocol_lab_390_zh")


def test_the_lab_on_a_390px_phone_in_turkish_and_the_dark_theme(dark_server, browser):
    for page in watched_tab(browser, viewport=PHONE, locale="tr-TR"):
        run_preset(page, dark_server.url + "/Protocol_lab?lang=tr")
        expect(page.get_by_test_id("stAlertContentInfo")).to_contain_text("Bu sayfanın şimdi bulduğu:")
        expect(page.get_by_test_id("stAlertContentInfo")).to_contain_text("en az 4,2 katıdır")  # the decimal comma
        chart = slope_chart(page, "HR@10: her modelin yeri (1 = en iyi)")
        expect(chart).to_have_count(1)
        chart.scroll_into_view_if_needed()
        box = chart.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        names = chart.locator(".textpoint").filter(has_text=re.compile(r"\S"))  # each line's right end
        expect(names).to_have_count(4)
        plot = chart.locator(".nsewdrag").first.bounding_box()  # Plotly clips the names to the plot area
        for index in range(4):  # "Matris ayrıştırma (ALS)" was cut there before it took two lines
            name = names.nth(index).bounding_box()
            assert name["x"] + name["width"] <= plot["x"] + plot["width"], (names.nth(index).text_content(), name, plot)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        page.screenshot(path=str(SCREENSHOTS / "protocol_lab_390_tr_dark_slopes.png"))
        screenshot(page, SCREENSHOTS, "protocol_lab_390_tr_dark")
