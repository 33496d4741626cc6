"""How a person uses a Streamlit page, in Playwright terms: open, read a card, edit a cell, slide."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Locator, Page, expect

HEADER_HEIGHT = ROW_HEIGHT = 35  # Streamlit's data-editor default, in CSS pixels


# The script has finished and nothing on the page is a placeholder or left over from the page before. The app's own
# run state is read, not only its status widget, which shows only once a run has taken 500 ms.
DRAWN = """() => document.querySelector('[data-testid=stApp]')?.dataset.testScriptState === 'notRunning'
    && !document.querySelector('[data-testid=stSkeleton], [data-stale=true], [data-testid=stStatusWidget]')"""


def open_page(page: Page, url: str) -> None:
    """Open a URL and wait until the script has finished its first run."""
    page.goto(url)
    page.wait_for_selector("h1")
    wait_until_idle(page)
    page.wait_for_function(DRAWN, timeout=30_000)


# No script runs: the app's own run state says so (a page that is not Streamlit's, the phones' light view, has none),
# and its status widget, which shows only once a run has taken 500 ms, is gone.
IDLE = """() => { const app = document.querySelector('[data-testid=stApp]');
    return !document.querySelector('[data-testid=stStatusWidget]') && (!app || app.dataset.testScriptState === 'notRunning'); }"""


def wait_until_idle(page: Page) -> None:
    """Wait until Streamlit is not running the script."""
    page.wait_for_timeout(300)  # the rerun an action starts reaches the page a moment after it
    page.wait_for_function(IDLE, timeout=20_000)


def card(page: Page, label: str) -> Locator:
    """The value of the metric card whose label is exactly ``label``."""
    metric = page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
    return metric.get_by_test_id("stMetricValue")


def editor(page: Page, index: int) -> Locator:
    """The page's ``index``-th table on screen: a chart's data table folded under it is a table too, unseen."""
    return page.locator("[data-testid=stDataFrame]:visible").nth(index)


def edit_cell(page: Page, table: Locator, column: int, row: int, text: str) -> None:
    """Type ``text`` into a data-editor cell, as a person does: select it, type, press Enter.

    The grid is a canvas: the first data cell is clicked by position and the target reached with
    the arrow keys, checking the selection the grid reports in its accessibility table.
    ``column`` counts data columns from 1, ``row`` counts rows from 0.
    """
    select_cell(page, table, column, row)
    page.keyboard.press(text[0])
    overlay = page.locator("#portal :is(input, textarea):focus")
    expect(overlay).to_have_count(1)
    overlay.fill(text)
    page.keyboard.press("Enter")
    wait_until_idle(page)


def type_onto_cell(page: Page, table: Locator, column: int, row: int, text: str) -> None:
    """Select a cell and type straight onto it, as a person does (the first key opens the cell), then Enter.
    Unlike ``edit_cell`` every key is typed, so the cell's own editor reads them as the browser would."""
    select_cell(page, table, column, row)
    page.keyboard.press(text[0])
    expect(page.locator("#portal :is(input, textarea):focus")).to_have_count(1)  # keys before it opens are lost
    page.keyboard.type(text[1:], delay=60)
    page.keyboard.press("Enter")
    wait_until_idle(page)


def select_cell(page: Page, table: Locator, column: int, row: int) -> None:
    target = table.locator(f'#glide-cell-{column}-{row}[aria-selected="true"]')
    for _ in range(5):  # a click right after a rerun or on another grid may only focus the canvas
        table.locator(".dvn-scroller").click(position={"x": 60, "y": HEADER_HEIGHT + ROW_HEIGHT / 2})
        if not _wait_for(table.locator('#glide-cell-1-0[aria-selected="true"]')):
            continue
        for _ in range(row):
            page.keyboard.press("ArrowDown")
        for _ in range(column - 1):
            page.keyboard.press("ArrowRight")
        if _wait_for(target):
            return
    expect(target).to_have_count(1)


def _wait_for(locator: Locator, timeout: int = 1500) -> bool:
    try:
        expect(locator).to_have_count(1, timeout=timeout)
    except AssertionError:
        return False
    return True


def add_row(page: Page, table: Locator) -> None:
    """Append an empty row with the editor's toolbar button, as a person does."""
    table.hover()
    table.get_by_role("button", name="Add row").click()
    wait_until_idle(page)


def set_slider(page: Page, label: str, value: int) -> None:
    """Move a slider with the keyboard, as a person with the thumb focused would."""
    thumb = page.get_by_test_id("stSlider").filter(has_text=label).locator("input[type=range]")
    thumb.focus()
    current = int(thumb.input_value())
    key = "ArrowRight" if value > current else "ArrowLeft"
    for _ in range(abs(value - current)):
        page.keyboard.press(key)
    wait_until_idle(page)


# Where the sidebar, the main column, every chart, formula and table sit, read every 50 ms: the layout has settled
# once none of them has moved for 250 ms. A resize is followed by the sidebar sliding in or out, Streamlit measuring
# each column again and Plotly and the grids drawing at the new width, each a frame or more after the one before.
LAYOUT_SETTLED = """() => {
  const boxes = [...document.querySelectorAll('[data-testid=stSidebar], [data-testid=stMain], .js-plotly-plot .main-svg,'
      + ' .katex-display, [data-testid=stDataFrame], [data-testid=stMetric]')]
    .map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(Math.round).join(); }).join(';');
  const now = performance.now();
  if (window.__layout !== boxes) { window.__layout = boxes; window.__layoutSince = now; return false; }
  return now - window.__layoutSince >= 250;
}"""


def resize(page: Page, viewport: dict) -> None:
    """Give the tab this size and wait until the page has laid itself out again (LAYOUT_SETTLED)."""
    page.set_viewport_size(viewport)
    page.wait_for_function(f"() => window.innerWidth === {viewport['width']} && window.innerHeight === {viewport['height']}")
    settle_layout(page)


def settle_layout(page: Page) -> None:
    """Wait until nothing LAYOUT_SETTLED watches has moved for 250 ms."""
    page.evaluate("() => { window.__layout = null; }")
    page.wait_for_function(LAYOUT_SETTLED, polling=50, timeout=15_000)


def screenshot(page: Page, folder: Path, name: str, *, then: dict | None = None) -> Path:
    """The whole page: Streamlit scrolls an inner container, so the viewport is made as tall as it; afterwards the
    tab gets its size back, or the size ``then`` (one layout fewer when the next check wants another width)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    viewport = page.viewport_size
    height = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    resize(page, {"width": viewport["width"], "height": min(max(height, viewport["height"]), 12_000)})
    page.screenshot(path=str(path))
    if then:
        resize(page, then)
    else:
        page.set_viewport_size(viewport)
    return path


def editor_of(page: Page, table: str) -> Locator:
    """The data editor of scenario table ``table`` (its element carries the key ``{table}_editor_N``); the one a
    rerun is replacing, still drawn as stale beside the new one on a busy machine, is not it."""
    return page.locator(f"[class*='st-key-{table}_editor_']:not([data-stale=true])").get_by_test_id("stDataFrame")


def _settle(page: Page) -> None:
    """Wait out the rerun a click or a committed cell starts, as a person reads the grid before typing on.

    On a busy machine that rerun can begin later than wait_until_idle's first 300 ms; keys typed before
    its answer arrives go into a cell the answer then redraws (the new row's first keystroke was lost)."""
    page.wait_for_timeout(900)
    wait_until_idle(page)


def type_into_new_row(page: Page, table: Locator, rows: int, keys: list[str]) -> None:
    """Click the empty "add" row under ``rows`` rows and type as a person does, e.g. ["999", "Tab", "2", "Enter"].

    Each step waits for the rerun it causes, so a rerun that takes the cursor away loses what follows.
    """
    table.locator(".dvn-scroller").click(position={"x": 60, "y": HEADER_HEIGHT + rows * ROW_HEIGHT + ROW_HEIGHT / 2})
    # The new row's first cell is selected only once the rerun the new row starts has answered; a person
    # types when they see it highlighted (a key pressed before that is lost: "dave" became "ave").
    expect(table.locator(f'#glide-cell-1-{rows}[aria-selected="true"]')).to_have_count(1, timeout=30_000)
    _settle(page)
    for key in keys:
        if key in ("Tab", "Enter"):
            page.keyboard.press(key)
            _settle(page)
        else:
            page.keyboard.type(key, delay=40)


def cell_texts(table: Locator, row: int, columns: int) -> list[str | None]:
    """The text of data columns 1..``columns`` of a row, as the grid reports it."""
    cells = [table.locator(f"#glide-cell-{column}-{row}") for column in range(1, columns + 1)]
    return [cell.text_content() if cell.count() else None for cell in cells]


def upload_files(page: Page, files: dict[str, Path]) -> None:
    """Choose each file in the main area's uploader with that label, through the browser's file input.

    By label, not by position: the sidebar's "Open a scenario file" uploader comes first on every page.
    """
    for label, path in files.items():
        uploader = page.get_by_test_id("stMain").get_by_test_id("stFileUploader").filter(has_text=label)
        uploader.locator("input[type=file]").set_input_files(str(path))
        expect(uploader.get_by_text(path.name, exact=True)).to_be_visible()  # the upload has finished
        wait_until_idle(page)


CODE_SCROLLING_SIDEWAYS = """() => [...document.querySelectorAll('[data-testid=stCode] pre')]
  .filter(p => p.offsetParent && p.scrollWidth > p.clientWidth + 1).map(p => p.textContent.slice(0, 60))"""


def code_scrolling_sideways(page: Page) -> list[str]:
    """The start of each code block on screen whose lines run past its right edge: a region a keyboard
    cannot scroll (axe's scrollable-region-focusable) and a phone reader must drag sideways to read."""
    return page.evaluate(CODE_SCROLLING_SIDEWAYS)
