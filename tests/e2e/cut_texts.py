"""Issue 31, point 8: what fits in English must not be cut in Turkish or Chinese. The probes that
tests/e2e/test_every_page_browser.py runs on every page in both languages at 1280x720 and 390 px: no label, button, card, heading or link cut in the main
area or the open sidebar, no chart title running out of its chart, no table text cut by its own column,
and no input table hiding a column to the right, at 1280 (the ground-truth editor's Grade column did) or
on a phone (the MAP and MRR per-user lists and the LogLoss editor scrolled sideways in every language:
a student typing had to scroll to reach a column). Read-only tables may scroll sideways: a data table
needs its two dimensions (WCAG 1.4.10's exception)."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.e2e.test_room_and_phone_browser import CUT_TEXTS

TEXT_HOLDERS = ", ".join(
    [f"[data-testid=stMain] {part}" for part in
     ("label", "button", "[data-testid=stMetric]", "[data-testid=stPageLink]", "h1", "h2", "h3")]
    + ["[data-testid=stSidebar]:not([data-collapsed=true]) [data-testid=stPageLink]"])

# A chart title whose last line runs past the chart's right edge.
CUT_TITLES = """() => [...document.querySelectorAll('.js-plotly-plot')].filter(p => p.offsetParent).flatMap(p => {
  const right = p.getBoundingClientRect().right;
  return [...p.querySelectorAll('.gtitle')].filter(t => t.getBoundingClientRect().right > right + 1).map(t => t.textContent);
})"""

# An input table (ui.widgets.table_editor: key "<table>_editor_<n>") wider than its box: a column is hidden.
SIDEWAYS_EDITORS = """() => [...document.querySelectorAll('[class*="_editor_"] [data-testid=stDataFrame] .dvn-scroller')]
  .filter(s => s.offsetParent && s.scrollWidth > s.clientWidth + 1).map(s => s.closest('[class*="_editor_"]').className)"""

# Tables are drawn on a canvas: the grid clips each column to its width and writes no ellipsis. Noting
# each text drawn and the column clip it is drawn in finds a text wider than its column (a wide table
# that scrolls sideways is not counted: its columns are whole, only the table's edge hides them).
GRID_TEXTS = """(() => {
  const P = CanvasRenderingContext2D.prototype, states = new WeakMap(), drawn = new Map(), ids = new WeakMap();
  const of = c => states.get(c) || (states.set(c, {stack: [], clip: null, rect: null}), states.get(c));
  const wrap = (name, before) => { const own = P[name]; P[name] = function (...a) { before(this, a); return own.apply(this, a); }; };
  const deviceX = (c, x, y) => { const m = c.getTransform(); return m.a * x + m.c * y + m.e; };
  wrap('save', c => { const s = of(c); s.stack.push(s.clip); });
  wrap('restore', c => { const s = of(c); s.clip = s.stack.length ? s.stack.pop() : null; });
  wrap('beginPath', c => { of(c).rect = null; });
  wrap('rect', (c, [x, y, w]) => { of(c).rect = {l: deviceX(c, x, y), r: deviceX(c, x + w, y)}; });
  wrap('clip', c => { const s = of(c);
    if (s.rect) s.clip = s.clip ? {l: Math.max(s.clip.l, s.rect.l), r: Math.min(s.clip.r, s.rect.r)} : s.rect; });
  wrap('fillText', (c, [text, x, y]) => {
    const canvas = c.canvas, clip = of(c).clip;
    if (!canvas.closest || !canvas.closest('[data-testid=stDataFrame]') || !String(text).trim() || !clip) return;
    if (!ids.has(canvas)) ids.set(canvas, ids.size + 1);
    const width = c.measureText(text).width, align = c.textAlign;
    const start = align === 'right' || align === 'end' ? x - width : align === 'center' ? x - width / 2 : x;
    // The last drawing of a text at a place counts: the grid draws again once its columns are sized.
    drawn.set(`${ids.get(canvas)}|${Math.round(c.getTransform().f + y)}|${text}`,
              {canvas, text: String(text), size: canvas.width,
               cut: clip.r <= canvas.width && deviceX(c, start + width, y) > clip.r + 1});
  });
  window.cutInGrids = () => [...drawn.values()].filter(d => d.cut && d.canvas.isConnected && d.canvas.offsetParent
                                                      && d.size === d.canvas.width).map(d => d.text);
})()"""


def cut_on(page: Page) -> dict[str, list[str]]:
    found = {"texts": page.evaluate(CUT_TEXTS, TEXT_HOLDERS), "chart titles": page.evaluate(CUT_TITLES),
             "tables": sorted(set(page.evaluate("window.cutInGrids()"))),
             "input tables scrolling sideways": page.evaluate(SIDEWAYS_EDITORS)}
    return {kind: texts for kind, texts in found.items() if texts}
