"""The library lens in a real Chromium: a preset button replaces the scenario in the editors and the
heatmap, the way a teacher switches between classic disagreements on a projector."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import editor, open_page, screenshot, wait_until_idle


def test_graded_preset_fills_the_editors_and_the_heatmap(server, page):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_page(page, server.url + "/Library_lens")
    # The first line of the title: it wraps (<br>) to fit a phone, and Plotly draws each line as its own tspan.
    heatmap = page.locator(".js-plotly-plot").filter(has_text="Each library's value, coloured by")
    heatmap.scroll_into_view_if_needed()
    expect(heatmap.get_by_text("0.3882")).to_be_visible(timeout=20_000)  # RecTools' K-slot ideal on the seed

    page.get_by_role("button", name="Graded relevance").click()  # scrolls back up to the presets
    wait_until_idle(page)
    story = page.locator("[data-testid^='stAlert']").filter(has_text="The NumPy tutorial's graded example: linear or exponential")
    expect(story.first).to_be_visible()
    truth = editor(page, 1)
    expect(truth.locator("#glide-cell-1-3")).to_have_text("999")  # the ground-truth editor shows the preset
    expect(truth.locator("#glide-cell-2-3")).to_have_text("5")
    heatmap.scroll_into_view_if_needed()
    expect(heatmap.get_by_text("0.6943")).to_be_visible(timeout=20_000)  # Spark's label-order ideal
    expect(heatmap.get_by_text("0.8558")).to_have_count(2)  # scikit-learn and Evidently: 999 never in the ideal
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot(page, SCREENSHOTS, "lens_graded_preset")
