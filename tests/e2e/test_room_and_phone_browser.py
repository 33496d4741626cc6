"""Issue 18's room and phone points, as a person sees them: what stays on a 1280x720 projector
screen, what a 390 px phone shows, labels that are not cut, and the Lessons presenter mode."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from content.lessons import LESSONS

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import card, open_page, settle_layout, wait_until_idle
from tests.e2e.test_browser import url_path
from ui.navigation import TOPIC_PAGES

PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}

# Every text holder inside the main area whose text is wider than its box (cut with an ellipsis or hidden).
# scrollWidth is a whole number: a text over by less than a pixel still ends in "…", so the text's own
# width (a range around it) is compared with the box's too.
CUT_TEXTS = """(selector) => [...document.querySelectorAll(selector)].filter(e => e.offsetParent)
  .flatMap(e => [e, ...e.querySelectorAll('*')])
  .filter(e => e.innerText && e.innerText.trim() && getComputedStyle(e).overflow !== 'visible'
               && (e.scrollWidth > e.clientWidth + 1 || (() => {
                 const text = document.createRange(), style = getComputedStyle(e);
                 text.selectNodeContents(e);
                 const inner = e.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
                               - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
                 return text.getBoundingClientRect().width > inner + 0.1;
               })()))
  .map(e => e.innerText.trim())"""


def _open(page: Page, server, topic: str, viewport: dict, query: str = "") -> None:
    page.set_viewport_size(viewport)
    open_page(page, server.url + url_path(TOPIC_PAGES[topic]) + query)
    settle_layout(page)  # Plotly and the columns settle once the width is known


def _inside(box: dict | None, viewport: dict) -> bool:
    return bool(box) and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5 \
        and box["y"] + box["height"] <= viewport["height"] + 0.5


# ---------- 15. cut labels ----------

def test_sensitivity_controls_are_not_cut_at_1280(server, page):
    _open(page, server, "sensitivity", PROJECTOR)
    assert page.get_by_test_id("stCheckbox").filter(has_text="Auto-play").is_visible()
    cut = page.evaluate(CUT_TEXTS, "[data-testid=stMain] label, [data-testid=stMain] button")
    assert not cut, cut
    page.screenshot(path=str(SCREENSHOTS / "projector_1280x720_sensitivity_controls.png"))


def test_random_baseline_cards_are_not_cut_and_at_chance_is_grey(server, page):
    _open(page, server, "random", PROJECTOR)
    cut = page.evaluate(CUT_TEXTS, "[data-testid=stMetric]")
    assert not cut, cut
    precision = page.get_by_test_id("stMetric").filter(has_text="Precision@10").get_by_test_id("stMetricDelta")
    assert precision.inner_text().strip() == "beats 50%"
    assert precision.locator("svg").count() == 0  # at chance: no arrow
    ap = page.get_by_test_id("stMetric").filter(has_text="AP@10").get_by_test_id("stMetricDelta")
    assert ap.locator("svg").count() == 1  # above chance: an arrow (up, green)
    colour = precision.evaluate("e => getComputedStyle(e).color")
    red, green, blue = (int(c) for c in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3])
    assert max(red, green, blue) - min(red, green, blue) < 40, colour  # grey, not green
    page.screenshot(path=str(SCREENSHOTS / "projector_1280x720_random_cards.png"))


# ---------- 16. presenter mode ----------

def test_presenter_mode_steps_by_keyboard_with_large_type_and_a_full_link(server, page):
    _open(page, server, "lessons", PROJECTOR, "?lesson=ndcg&step=1")
    normal_size = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
    page.get_by_test_id("stCheckbox").filter(has_text="Presenter mode").locator("label").click()
    wait_until_idle(page)
    assert page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)") > normal_size * 1.2
    link = page.locator(".st-key-lessons_step_link [data-testid=stCode]").inner_text().strip()
    assert link == f"{server.url}/Lessons?lesson=ndcg&step=1"
    page.screenshot(path=str(SCREENSHOTS / "projector_1280x720_presenter_step1.png"))
    # The cards sit beside the picture, both on the first screen.
    assert _inside(page.get_by_test_id("stMetric").first.bounding_box(), PROJECTOR)
    assert page.locator(".js-plotly-plot").first.bounding_box()["y"] < PROJECTOR["height"]

    page.mouse.click(PROJECTOR["width"] // 2, 10)  # nothing focused: the keys go to the page
    for key, step in (("ArrowRight", 2), ("Space", 3), ("ArrowLeft", 2)):
        page.keyboard.press(key)
        wait_until_idle(page)
        page.wait_for_url(f"**step={step}*")
        assert f"step={step}" in page.url
        expect(page.get_by_text(f"Step {step} of ")).to_be_visible()
        expect(page.locator(".st-key-lessons_step_link [data-testid=stCode]")).to_have_text(
            f"{server.url}/Lessons?lesson=ndcg&step={step}")
    page.screenshot(path=str(SCREENSHOTS / "projector_1280x720_presenter_step2.png"))


def test_without_presenter_mode_the_keys_leave_the_step_alone(server, page):
    _open(page, server, "lessons", PROJECTOR, "?lesson=ndcg&step=1")
    page.mouse.click(PROJECTOR["width"] // 2, 10)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    wait_until_idle(page)
    assert "step=1" in page.url and page.get_by_text("Step 1 of ").is_visible()
    assert page.locator(".st-key-lessons_step_link [data-testid=stCode]").count() == 0


# ---------- 13. a 1280x720 projector ----------

EXPLORE_STEPS = [(lesson.key, number) for lesson in LESSONS for number, step in enumerate(lesson.steps, 1)
                 if step.kind == "explore"]


@pytest.mark.parametrize(("lesson", "number"), EXPLORE_STEPS[:3] + [("ndcg", 4)])
def test_explore_steps_show_their_cards_beside_the_chart_at_1280(server, page, lesson, number):
    _open(page, server, "lessons", PROJECTOR, f"?lesson={lesson}&step={number}")
    cards = page.get_by_test_id("stMetric")
    assert cards.count() >= 1
    boxes = [cards.nth(i).bounding_box() for i in range(cards.count())]
    assert all(_inside(box, PROJECTOR) for box in boxes), boxes
    assert page.get_by_test_id("stSlider").first.bounding_box()["y"] > boxes[0]["y"]  # cards above the sliders
    page.screenshot(path=str(SCREENSHOTS / f"projector_1280x720_explore_{lesson}_{number}.png"))


def test_library_lens_table_shows_all_five_metrics_without_scrolling_at_1280(server, page):
    _open(page, server, "lens", PROJECTOR)
    heading = page.get_by_role("heading", name="What each library reports")
    heading.scroll_into_view_if_needed()
    table = page.get_by_test_id("stDataFrame").filter(has=page.locator(".dvn-scroller")).nth(2)
    table.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    sizes = table.locator(".dvn-scroller").evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert sizes[0] <= sizes[1], sizes  # every column is in view: nothing to scroll sideways to
    box = table.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PROJECTOR["width"], box
    assert box["y"] > heading.bounding_box()["y"]  # the table right under its heading
    page.screenshot(path=str(SCREENSHOTS / "projector_1280x720_library_lens_table.png"))


# ---------- 14. a 390 px phone ----------

def test_a_phone_has_next_and_back_at_the_end_of_a_lesson_step(server, page):
    _open(page, server, "lessons", PHONE, "?lesson=ap&step=1")
    bottom = page.locator(".st-key-lessons_next_bottom button")
    bottom.scroll_into_view_if_needed()
    assert _inside(bottom.bounding_box(), PHONE)
    top = page.locator(".st-key-lessons_next button").bounding_box()
    assert bottom.bounding_box()["y"] > top["y"] + PHONE["height"]  # a screen or more below the top one
    page.screenshot(path=str(SCREENSHOTS / "phone_390_lesson_bottom_next.png"))
    bottom.click()
    wait_until_idle(page)
    page.wait_for_url("**step=2*")
    expect(page.get_by_text("Step 2 of ")).to_be_visible()


CHART_FACTS = """() => { const p = document.querySelector('.js-plotly-plot');
  const texts = [...p.querySelectorAll('.bartext')];
  const area = p.querySelector('.nsewdrag').getBoundingClientRect();
  const marker = [...p.querySelectorAll('.scatterlayer .trace')].pop();
  let clipped = false;
  for (let e = marker && marker.querySelector('.point'); e && !e.classList.contains('scatterlayer'); e = e.parentElement)
    clipped = clipped || e.hasAttribute('clip-path');
  return {bar_texts: texts.length, shown: texts.filter(t => t.getBoundingClientRect().width > 0).length,
          play_top: p.querySelector('.updatemenu-button').getBoundingClientRect().top,
          x_title_bottom: p.querySelector('.xtitle').getBoundingClientRect().bottom,
          plot_width: area.width, plot_height: area.height, marker_clipped: clipped}; }"""


def test_lesson_bars_keep_their_labels_and_play_clears_the_axis_title_on_a_phone(server, page):
    _open(page, server, "lessons", PHONE, "?lesson=ndcg&step=2")
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    facts = page.evaluate(CHART_FACTS)
    assert facts["bar_texts"] == 10 and facts["shown"] == 10, facts  # every item named over its bar
    assert facts["play_top"] >= facts["x_title_bottom"], facts  # the Play row starts under the axis title
    page.screenshot(path=str(SCREENSHOTS / "phone_390_lesson_ndcg_bars.png"))


def test_the_roc_lesson_chart_is_not_flat_and_its_marker_is_whole_on_a_phone(server, page):
    _open(page, server, "lessons", PHONE, "?lesson=auc&step=2")
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    facts = page.evaluate(CHART_FACTS)
    assert facts["plot_height"] >= 0.6 * facts["plot_width"], facts
    assert not facts["marker_clipped"], facts
    assert facts["play_top"] >= facts["x_title_bottom"], facts
    page.screenshot(path=str(SCREENSHOTS / "phone_390_lesson_auc_roc.png"))


def test_a_vs_b_move_controls_and_cards_share_one_screen_at_1280(server, page):
    _open(page, server, "ab", PROJECTOR)
    cards = page.get_by_test_id("stMetric")
    controls = [page.locator(f".st-key-{key} button") for key in ("_ab_up", "_ab_down")]
    boxes = [cards.nth(i).bounding_box() for i in range(cards.count())] + [c.bounding_box() for c in controls]
    assert cards.count() == 8 and all(_inside(box, PROJECTOR) for box in boxes), boxes
    controls[1].click()  # a move: its effect shows on the same screen
    wait_until_idle(page)
    expect(page.get_by_test_id("stMetricDelta").first).to_be_visible()
    assert _inside(page.get_by_test_id("stMetricDelta").first.bounding_box(), PROJECTOR)
    page.screenshot(path=str(SCREENSHOTS / "projector_1280x720_ab_move_and_cards.png"))


def test_after_an_edit_every_home_card_and_its_change_stay_on_a_1280x720_screen(server, page):
    _open(page, server, "home", PROJECTOR)
    k_typed = page.get_by_label("K, typed", exact=True)
    k_typed.fill("5")
    k_typed.press("Enter")  # K 10 -> 5: a card of every row changes, so every row grows by a change figure
    wait_until_idle(page)
    expect(card(page, "NDCG@5 (graded)")).to_be_visible()
    expect(page.get_by_test_id("stMetricDelta")).to_have_count(6)
    ndcg = page.get_by_test_id("stMetric").filter(has=page.get_by_text("NDCG@5 (graded)", exact=True))
    expect(ndcg.get_by_test_id("stMetricDelta")).to_be_visible()
    deltas = page.get_by_test_id("stMetricDelta")
    boxes = [deltas.nth(i).bounding_box() for i in range(deltas.count())]
    boxes.append(ndcg.get_by_test_id("stMetricDelta").bounding_box())
    assert all(_inside(box, PROJECTOR) for box in boxes), boxes
    page.screenshot(path=str(SCREENSHOTS / "projector_1280x720_home_after_edit.png"))
