"""Every task by keyboard alone, with the focus in sight (WCAG 2.2 AA: 2.1.1 Keyboard, 2.4.7 Focus Visible,
2.4.11 Focus Not Obscured, 1.4.11 Non-text Contrast).

After the address is opened only keys are pressed: Tab and Shift+Tab to move, Enter, Space, arrows and typing
to act. At each element acted on, the focus must show a ring: an outline of 2 px or more on it or on what
draws it (react-aria hides the real radio and slider inputs; the data grid is a canvas), on screen, not
covered, of at least 3:1 against what is around it, and painted (found in a screenshot in its colour).
The lesson runs on the dark theme, the others on the light one; each focus state is kept as a screenshot.
"""

from __future__ import annotations

import io
import re

import numpy as np
from PIL import Image
from playwright.sync_api import Frame, Page, expect

from teaching.practice import QUIZ_METRICS, QuizSettings, make_quiz
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.streamlit_page import card, open_page, wait_until_idle
from tests.e2e.test_kata_browser import EDITOR, type_over
from tests.e2e.test_live_class_browser import RECALL_QUESTION
from tests.e2e.test_live_class_phone import FOLLOW, RECALL, show, store  # noqa: F401 (store: a fixture)

SLOW = 60_000
PROJECTOR = {"width": 1280, "height": 720}

# The focused element's ring: the first outline of 2 px or more on it or an ancestor (or drawn over one by its
# ::after), whether its middle is on screen and not covered, the box it is drawn in, and the colours it is seen
# against (the layers behind it, top first).
RING = """() => {
  const focused = document.activeElement;
  const layers = n => {
    const found = [];
    for (; n; n = n.parentElement) {
      const c = getComputedStyle(n).backgroundColor;
      if (!/rgba\\(.*, 0\\)$|transparent/.test(c)) found.push(c);
      if (/^rgb\\(/.test(c)) break;
    }
    return found;
  };
  for (let n = focused; n && n !== document.documentElement; n = n.parentElement) {
    const r = n.getBoundingClientRect();
    for (const s of [getComputedStyle(n), getComputedStyle(n, '::after')]) {
      if (s.outlineStyle === 'none' || parseFloat(s.outlineWidth) < 2 || r.width < 8 || r.height < 8) continue;
      const x = (Math.max(r.left, 0) + Math.min(r.right, innerWidth)) / 2;
      const y = (Math.max(r.top, 0) + Math.min(r.bottom, innerHeight)) / 2;
      const hit = document.elementFromPoint(x, y);
      const offset = parseFloat(s.outlineOffset), width = parseFloat(s.outlineWidth);
      return {ring: n.tagName + ' ' + (n.dataset.testid || n.className), colour: s.outlineColor,
              box: {x: r.left, y: r.top, width: r.width, height: r.height},
              out: Math.max(offset, 0) + width + 1, in: Math.max(-offset, 0) + width + 1,
              behind: layers(parseFloat(s.outlineOffset) < 0 ? n : n.parentElement),
              seen: r.bottom > 0 && r.top < innerHeight && !!hit && (n.contains(hit) || hit.contains(n))};
    }
  }
  return {ring: null, focused: focused.outerHTML.slice(0, 300)};
}"""
ACTIVE = """() => { const e = document.activeElement;
  return (e.tagName + ' ' + (e.getAttribute('aria-label') || e.innerText || '').slice(0, 40)).trim(); }"""


def tab_to(page: Page, test: str, what: str, most: int = 60, back: bool = False) -> None:
    """Press Tab (Shift+Tab with ``back``) until ``test``, a JavaScript expression over ``e`` (the focused
    element), holds; fail after ``most`` presses, naming the last elements passed."""
    passed = []
    for _ in range(most):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        if page.evaluate(f"() => {{ const e = document.activeElement; return Boolean({test}); }}"):
            return
        passed.append(page.evaluate(ACTIVE))
    raise AssertionError(f"{most} presses of {'Shift+Tab' if back else 'Tab'} did not reach {what}; "
                         f"the last ones focused: {passed[-8:]}")


def assert_ring(where: Page | Frame, name: str) -> None:
    """The focused element shows a ring (see the module's docstring), and the screen shows it: at least half of
    its length is painted in its colour (an outline can be declared and yet hidden under the element's own
    positioned children). The screenshot of the screen is kept."""
    found = where.evaluate(RING)
    for _ in range(20):  # a focused element is scrolled into view, smoothly on some pages: wait for it to arrive
        if not found["ring"] or found["seen"]:
            break
        where.wait_for_timeout(100)
        found = where.evaluate(RING)
    assert found["ring"], f"no focus ring: {found['focused']}"
    assert found["seen"], f"the focus ring of {found['ring']} is off screen or covered"
    colour = _rgba(found["colour"])[:3]
    behind = _over([_rgba(c) for c in found["behind"]])
    ratio = _contrast(colour, behind)
    assert ratio >= 3, f"the focus ring of {found['ring']} is {ratio:.1f}:1 against {behind}"
    page, box = where, found["box"]
    if isinstance(where, Frame):  # the frame's coordinates are inside its <iframe>
        frame_box = where.frame_element().bounding_box()
        page, box = where.page, {**box, "x": box["x"] + frame_box["x"], "y": box["y"] + frame_box["y"]}
    shot = page.screenshot()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / f"keyboard_{name}.png").write_bytes(shot)
    painted = _ring_pixels(shot, box, found["out"], found["in"], colour)
    length = 2 * (box["width"] + box["height"])
    assert painted >= length / 2, f"the focus ring of {found['ring']} is not drawn: {painted} pixels for {length:.0f}"


def _ring_pixels(png: bytes, box: dict, out: float, inside: float, colour) -> int:
    """How many pixels of the screenshot ``png`` close to ``colour`` lie in the band where a ring around ``box``
    is drawn: from ``out`` outside its edge to ``inside`` inside it."""
    image = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=float)
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]] + 0.5
    left, top, right, bottom = box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"]
    near = (xs > left - out) & (xs < right + out) & (ys > top - out) & (ys < bottom + out)
    deep = (xs > left + inside) & (xs < right - inside) & (ys > top + inside) & (ys < bottom - inside)
    like = np.linalg.norm(image - np.array(colour), axis=-1) < 40
    return int((like & near & ~deep).sum())


def _rgba(css: str) -> tuple[float, float, float, float]:
    parts = [float(p) for p in re.findall(r"[\d.]+", css)]
    return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)


def _over(layers: list[tuple[float, float, float, float]]) -> tuple[float, ...]:
    """The colour seen through ``layers`` (the top one first) over white (the page's own, if none is found)."""
    seen = (255.0, 255.0, 255.0)
    for r, g, b, a in reversed(layers):
        seen = tuple(a * c + (1 - a) * s for c, s in zip((r, g, b), seen, strict=True))
    return seen


def _contrast(one, other) -> float:
    def luminance(rgb):
        linear = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def skip_to_content(page: Page) -> None:
    """Streamlit's first stop is a skip link: Enter puts the focus in the main area, past the sidebar's links."""
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("stSkipToContent")).to_be_focused()
    assert_ring(page, "skip_link")
    page.keyboard.press("Enter")


def open_by_keyboard(page: Page, url: str) -> None:
    page.set_viewport_size(PROJECTOR)
    open_page(page, url)
    skip_to_content(page)


def test_edit_a_rank_in_the_recommended_grid(server, page: Page):
    open_by_keyboard(page, server.url)
    grid = page.locator("[class*='st-key-recommended_editor_']").get_by_test_id("stDataFrame")
    tab_to(page, "e.tagName === 'CANVAS' && e.closest(\"[class*='st-key-recommended_editor_']\")", "the list's grid")
    expect(grid.locator('#glide-cell-1-0[aria-selected="true"]')).to_have_count(1)  # the grid selects its first cell
    for _ in range(6):  # down to item 107's rank
        page.keyboard.press("ArrowDown")
    expect(grid.locator('#glide-cell-1-6[aria-selected="true"]')).to_have_count(1)
    assert_ring(page, "grid_cell")
    page.keyboard.press("2")  # the first key opens the cell's editor with it
    expect(page.locator("#portal textarea:focus, #portal input:focus")).to_have_value("2")
    page.keyboard.press("Enter")
    wait_until_idle(page)
    # The new rank reorders the list and remounts the grid: a slow rerun on a busy machine (a liveness bound).
    expect(grid.locator("#glide-cell-2-1")).to_have_text("107", timeout=SLOW)
    expect(card(page, "AP@10")).to_have_text("0.8667")  # 107 at rank 2: (1/1 + 2/2 + 3/5) / 3


def test_change_k_with_the_slider_and_the_typed_box(server, page: Page):
    open_by_keyboard(page, server.url)
    tab_to(page, "e.type === 'range' && e.getAttribute('aria-label') === 'K (cut-off)'", "the K slider")
    assert_ring(page, "k_slider")
    for _ in range(6):
        page.keyboard.press("ArrowLeft")
    wait_until_idle(page)
    expect(card(page, "Precision@4")).to_have_text("0.5000")
    tab_to(page, "e.getAttribute('aria-label') === 'K, typed'", "the typed K", most=5)
    expect(page.get_by_role("spinbutton", name="K, typed")).to_have_value("4")
    assert_ring(page, "k_typed")
    page.keyboard.press("Control+A")
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    wait_until_idle(page)
    expect(card(page, "Precision@7")).to_have_text("0.4286")  # 3 of the top 7


def test_step_through_a_lesson_with_next_and_back(dark_server, page: Page):
    """On the dark theme: the ring must read there too."""
    open_by_keyboard(page, f"{dark_server.url}/Lessons?lesson=ap&step=1")
    tab_to(page, "e.closest('.st-key-lessons_next')", "Next", most=10)
    assert_ring(page, "lesson_next_dark")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"step=2"))
    wait_until_idle(page)
    tab_to(page, "e.closest('.st-key-lessons_back')", "Back", most=10, back=True)
    assert_ring(page, "lesson_back_dark")
    page.keyboard.press("Space")
    expect(page).to_have_url(re.compile(r"step=1"))


def test_answer_a_practice_question(server, page: Page):
    question = make_quiz(QuizSettings(seed=1))[0]
    exact = QUIZ_METRICS[question.metric].compute(question.case)
    open_by_keyboard(page, server.url + "/Practice")
    tab_to(page, "e.getAttribute('aria-label') === 'Your answer'", "the answer box")
    assert_ring(page, "practice_answer")
    page.keyboard.type(f"{exact:.3f}")
    tab_to(page, "e.innerText === 'Check'", "Check", most=3)
    assert_ring(page, "practice_check")
    page.keyboard.press("Space")
    wait_until_idle(page)
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text("Right")
    expect(page.get_by_text("Score: 1 / 1")).to_be_visible()


def test_a_student_joins_a_live_class_and_answers(server, page: Page, store):  # noqa: F811
    room = store.create_room()
    show(store, room, RECALL)
    try:
        open_by_keyboard(page, f"{server.url}/Live_class?room={room.code}&lang=en")
        tab_to(page, "e.getAttribute('aria-label') === 'Nickname (leave empty to stay anonymous)'", "the nickname",
               most=15)
        assert_ring(page, "live_nickname")
        page.keyboard.type("Kim")
        page.keyboard.press("Enter")  # sends the join form
        expect(page.get_by_text("you are Kim", exact=False)).to_be_visible()
        expect(page.get_by_text(RECALL_QUESTION)).to_be_visible(timeout=FOLLOW)
        # The options come in their own fragment, a moment after the question: a person sees them, then tabs.
        expect(page.locator('[aria-label="Your answer"] input[type=radio]').first).to_be_attached(timeout=FOLLOW)
        tab_to(page, "e.type === 'radio' && e.closest('[aria-label=\"Your answer\"]')", "the first option", most=30)
        assert_ring(page, "live_option")
        page.keyboard.press("ArrowRight")  # from 0.3 to 0.75: the arrows move through a radio group and choose
        expect(page.get_by_text("Your answer '0.75' is in.", exact=False)).to_be_visible()
        assert store.tally(room.code, room.teacher_key, RECALL.question_id) == {"0.75": 1}
        store.reveal(room.code, room.teacher_key, RECALL.question_id)
        expect(page.get_by_text("Right.", exact=False)).to_be_visible(timeout=FOLLOW)
    finally:
        store.end_room(room.code, room.teacher_key)


def test_write_a_kata_and_run_the_judge(server, page: Page):
    open_by_keyboard(page, server.url + "/Write_it_yourself")
    editor = page.locator(EDITOR).element_handle(timeout=SLOW).content_frame()
    editor.wait_for_selector(".ace_editor .ace_line")
    tab_to(page, "e.tagName === 'IFRAME' && (e.contentDocument.activeElement.getAttribute('aria-label') || '')"
                 ".startsWith('Editor content')", "the editor's text", most=10)
    assert_ring(editor, "kata_editor")
    page.keyboard.press("Enter")  # into the text (Esc leaves it)
    assert_ring(editor, "kata_editing")
    type_over(page, "def precision_at_k(recommended, relevant, k):\n"
                    "    return sum(item in relevant for item in recommended[:k]) / k")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Run", exact=True)).to_be_focused()
    assert_ring(page, "kata_run")
    page.keyboard.press("Enter")
    expect(page.get_by_text(re.compile(r"Passed (\d+) of \1\. Every hidden case agrees"))).to_be_visible(timeout=SLOW)
