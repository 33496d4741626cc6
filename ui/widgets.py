"""Streamlit pieces every page shares: page frame, table editors, bound controls, metric cards."""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from content import charts as chart_words
from content import metrics as metric_texts
from content import i18n, numbers
from content.i18n import N_, _, ngettext
from content.lessons import LESSONS
from metrics.registry import BY_KEY, Metric
from metrics.seed_examples import BY_KEY as EXAMPLES
from ui import baseline, chart_text, document_language, language, lesson_link, practice_mode
from content import text
from ui.choice import as_shown, choice, not_a_choice  # noqa: F401 - choice: pages use it as widgets.choice
from ui.markup import formulas
from ui.input import readers_notation, tables
from ui.navigation import PAGES, TOPIC_PAGES, grouped
from ui.input.scenario_link import TABLES as SCENARIO_TABLES
from ui.state import changed_from_example, init_state, load_example


# Streamlit's English-only hints are hidden: an uploader's "200MB per file" (ui.uploads.file_input writes it in the
# reader's language) and a text box's "Press Enter to submit form" (on a 390 px phone it covered the Turkish placeholder).
# Less empty space above the title, a title small enough to share its line with the lesson link, a tighter line under each card's number (same font size), so
# the inputs and results of a page fit a 1280x720 projector, the home page's four rows of cards
# included once an edit adds delta lines; KaTeX shrinks on a phone so that formulas (broken over
# lines by ui.markup.formulas) fit 390 px. A page link's label (the sidebar's too), a card's label and a
# checkbox's go on to a second line where Streamlit kept them to one and cut them (a page link with no
# ellipsis at all): a Turkish or Chinese label is often longer than the English one that fitted.
# WCAG AA contrast (4.5:1 for text), in both themes: Streamlit fades captions to 60 % opacity, 3.9:1 on
# white; at 75 % they read at least 5.7:1 on every background of the light theme and 7.4:1 of the dark.
# The value over a slider's thumb is in the accent colour, and the dark theme's (#cf4250) reads 3.9:1 on
# its background: there it is lightened to 5.4:1 (light-dark() follows the color-scheme Streamlit sets on
# .stApp); the light theme keeps Streamlit's own accent, 5.2:1 on white.
# Keyboard focus (WCAG 2.4.7): one 2 px ring around what is seen, on every page. Streamlit's own were a faint pink
# halo (slider thumb, buttons), a pale grey row (radio option), a 1 px border (text boxes), nothing around the data
# grid's canvas or the sidebar links; react-aria hides the real radio, checkbox and slider inputs, so the ring goes
# on the element that draws them (:has). The grid's ring is :focus-within (shown after a click too): Chromium does not
# restyle :has(:focus-visible) when the focus moves between the cells of the canvas's hidden table, so the ring
# went out at the first arrow key. A sidebar link's ring is drawn inside it (the sidebar clips overflow).
# A collapsed sidebar is only moved off screen: its 25 links and the language picker stayed in the Tab order,
# focused unseen (the live class opens with it collapsed, and so does a phone); hidden, Tab skips them.
FOCUS_COLOUR = "#1f6feb"
"""The keyboard focus ring: at least 3:1 against white (4.6) and Streamlit's dark backgrounds (#0e1117: 4.1,
the dark sidebar #262730: 3.2), so one colour serves the light and the dark theme (WCAG 1.4.11)."""

PAGE_CSS = """
[data-testid="stMainBlockContainer"] { padding-top: 2rem; padding-bottom: 3rem; }
[data-testid="stMain"] h1 { font-size: 2.25rem; }
[data-testid="stMetricValue"] { line-height: 1.15; padding-bottom: 0; }
.katex-display { padding: 0.45em 0.2em; margin: 0.2em 0; }
.katex-display > .katex { font-size: 1.1em; }
@media (max-width: 640px) { .katex-display > .katex { font-size: 1em; } }
.st-key-document_language { display: none; }
[data-testid="stFileUploaderDropzoneInstructions"], [data-testid="InputInstructions"] { display: none; }
.stApp [data-testid="stCaptionContainer"] { opacity: 0.75; }
.stApp [data-testid="stSliderThumbValue"] { color: light-dark(#c53948, #d66c76); }
:is(a, button, summary, [role="button"], [role="tab"]):focus-visible,
[data-testid="stSlider"] [data-rac]:has(> div > input:focus-visible),
:is([data-testid="stRadioOption"], [data-testid="stCheckbox"] label):has(input:focus-visible),
:is([data-testid="stTextInputRootElement"], [data-testid="stNumberInputContainer"], [data-testid="stTextAreaRootElement"],
    [data-rac][role="group"]):has(> :is(input, textarea):focus-visible),
[data-testid="stDataFrameResizable"]:focus-within { outline: 2px solid FOCUS !important; outline-offset: 2px; }
[data-testid="stSidebar"] a:focus-visible { outline-offset: -2px; }
[data-testid="stSidebar"][data-collapsed="true"], [data-testid="stSidebar"][data-collapsed="true"] * { visibility: hidden !important; }
[data-testid="stPageLink-NavLink"] span:has(> [data-testid="stMarkdownContainer"])
  { white-space: normal; height: auto; min-height: 1.75rem; display: flex; align-items: center; }
[data-testid="stPageLink-NavLink"] [data-testid="stMarkdownContainer"], [data-testid="stPageLink-NavLink"] p
  { white-space: normal; height: auto; line-height: 1.35; }
[data-testid="stMetricLabel"] .stMarkdownEllipsis, [data-testid="stMetricLabel"] .stMarkdownEllipsis p,
[data-testid="stCheckbox"] .stMarkdownEllipsis, [data-testid="stCheckbox"] .stMarkdownEllipsis p { white-space: normal; }
""".replace("FOCUS", FOCUS_COLOUR)


LESSONS_PAGE = next(entry.path for entry in PAGES if entry.topic == "lessons")
LESSON_BY_TOPIC = {lesson.topic: lesson for lesson in LESSONS}
"""The guided lesson of each topic page."""


SCROLL_TO_TOP = """<script>
for (const delay of [0, 100, 400]) setTimeout(() => {
  for (const el of [document.scrollingElement, ...document.querySelectorAll('[data-testid="stMain"], [data-testid="stAppViewContainer"], section.main')]) {
    if (el && el.scrollTop) el.scrollTop = 0;
  }
}, delay);
</script>"""


def open_at_top(path: str) -> None:
    """Switch to another page and show it from its top (its banner and title in view)."""
    st.session_state["_scroll_to_top"] = True
    st.switch_page(path)


def page(title: str, icon: str, idea: str, *, scenario_link: bool = True) -> None:
    """Page config, the shared state, the title and the one-paragraph idea.

    ``scenario_link=False`` keeps the scenario out of the address bar and the sidebar's share link
    (the live class: a student's address holds their student id, which must not travel in a shared link).
    """
    language.choose()
    st.set_page_config(page_title=_("{title} · RecEval Lab").format(title=title), page_icon=icon, layout="wide")
    st.html(f"<style>{PAGE_CSS}</style>")
    if st.session_state.pop("_scroll_to_top", False):
        # st.switch_page keeps the scroll position of the page it leaves: open the new one at its top.
        st.html(SCROLL_TO_TOP, unsafe_allow_javascript=True)
    init_state()
    st.session_state[practice_mode.HIDING_CHARTS] = False  # set again by the practice switch below
    apply_pending_edits()
    with st.sidebar:
        st.markdown("### RecEval Lab")
        language.picker()
        # In the sidebar: hidden, its block still takes a gap, and the main column's first screen is counted in pixels.
        document_language.mark(i18n.current())
        for group, pages in grouped():
            st.caption(_(group))
            for entry in pages:
                st.page_link(entry.path, label=_(entry.label), icon=entry.icon)
    if scenario_link:
        shared = lesson_link.sync()
        with st.sidebar:
            st.caption(_("Practice and share"))
            practice_mode.switch()
            lesson_link.share(*shared)
    lesson = LESSON_BY_TOPIC.get(lesson_link.current_topic())
    if lesson is None:
        st.title(f"{icon} {title}")
    else:  # beside the title, so the inputs and cards below stay where a projector shows them
        head, link = st.columns([5, 1], vertical_alignment="center")
        head.title(f"{icon} {title}")
        steps = len(lesson.steps)
        link.page_link(LESSONS_PAGE, label=_("Lesson"), icon="🎓", query_params={"lesson": lesson.key, "step": "1"},
                       help=ngettext("This topic as a guided lesson in {steps} step: watch, predict, then explore.",
                                     "This topic as a guided lesson in {steps} steps: watch, predict, then explore.",
                                     steps).format(steps=numbers.integer(steps)))
    st.markdown(idea)


ROW_HEIGHT = 35  # pixels, Streamlit's default data-editor row


def table_editor(name: str, column_config: dict, *, reorder: Callable | None = None,
                 num_rows: str = "dynamic", max_rows: int = 17) -> pd.DataFrame:
    """An editor over the scenario table ``name``; returns the table as the user has it now.

    The editor keeps its key (and so the cursor) across its own edits: its state accumulates the
    edits over the table it started from, and the scenario table is that base plus the edits. It
    starts again from the scenario table only when ``reorder`` (e.g. a typed rank) returns a new
    order, when a preset or a reset replaces the table, when the reader's language changes, or when
    an edit cannot be applied (the table then keeps its last good content and a warning says why).

    A number column is shown and typed as text in the reader's notation and read by
    ``content.numbers``: the grid's own number cells read what is typed with the browser's locale,
    whatever language the page is in ("3,5" became 35 in an English browser, "0,9" 9 in a Turkish one).
    """
    number_columns = tuple(c for c, cfg in column_config.items() if _column_type(cfg) == "number")
    column_config = {c: _as_text_column(cfg) if c in number_columns else cfg for c, cfg in column_config.items()}
    text_columns = tuple(c for c, cfg in column_config.items() if _column_type(cfg) == "text")
    st.session_state[f"_{name}_editor_setup"] = (reorder, text_columns, number_columns)  # this session's, for page()
    key = _apply_edits(name, reorder, text_columns, number_columns)
    if key not in st.session_state:
        st.session_state[f"{name}_base"] = st.session_state[name]
        st.session_state[f"{name}_language"] = i18n.current()
    # A number in a text column (from a file, a link, an old state) would make the grid refuse the table.
    # as_text gives the same frame back once there is none, so the grid gets a new frame only then (a new
    # one on every run remounts it and the cursor leaves the grid between two keystrokes).
    base = st.session_state[f"{name}_base"] = tables.as_text(st.session_state[f"{name}_base"],
                                                             tuple(c for c in text_columns if c not in number_columns))
    shown = _shown_base(name, base, number_columns)
    # Tall enough to show every row, the empty "add" row and one row added since (so the first row typed
    # does not scroll the others away), up to max_rows rows in all, the add row counted: a table just
    # filling max_rows still shows its add row, where a person clicks to add one. It depends on the base
    # only: a height that changed with each edit would give the grid a new identity and remount it,
    # losing the cursor.
    height = (min(len(base) + 2, max_rows) + 1) * ROW_HEIGHT + 3
    st.data_editor(shown, key=key, column_config=column_config, num_rows=num_rows, hide_index=True,
                   width="stretch", height=height, placeholder=MISSING)
    rejected = st.session_state.pop(f"{name}_rejected", None)
    if rejected:
        st.warning(_("That edit was not applied ({why}), so the table keeps its last good content.")
                   .format(why=text.markdown(rejected)), icon="🚫")
    return st.session_state[name]


def _column_type(config) -> str | None:
    return (config.get("type_config") or {}).get("type") if isinstance(config, dict) else None


def _as_text_column(config: dict) -> dict:
    """A number column's config as a text column's, aligned right like numbers."""
    return {**config, "alignment": config.get("alignment") or "right", "type_config": {"type": "text"},
            "default": None if config.get("default") is None else numbers.editable(config["default"])}


def _shown_base(name: str, base: pd.DataFrame, number_columns: tuple) -> pd.DataFrame:
    """The base as the editor shows it (numbers in the reader's notation), the same frame on every run of
    one base, so the grid is not remounted between two keystrokes."""
    if not number_columns:
        return base
    cached = st.session_state.get(f"_{name}_shown")
    if cached is None or cached[0] is not base:
        cached = (base, tables.shown_numbers(base, number_columns))
        st.session_state[f"_{name}_shown"] = cached
    return cached[1]


def apply_pending_edits() -> None:
    """Bring the scenario tables up to date with what their editors received since the last run, so the
    lesson link and the scenario file (made before the page draws its editors) include the last edit;
    table_editor applying it again changes nothing. Each editor's setup is kept in this session's
    state, never in the module: sessions share nothing they change."""
    for name in SCENARIO_TABLES:
        setup = st.session_state.get(f"_{name}_editor_setup")
        if setup is not None:
            _apply_edits(name, *setup)


def _apply_edits(name: str, reorder: Callable | None, text_columns=(), number_columns=()) -> str:
    """Apply the editor's edits over its base to the scenario table; returns the editor's key now."""
    key = _editor_key(name)
    if key in st.session_state:
        try:
            # Read in the language the editor showed its numbers in: this run may be the first in another.
            edited = tables.apply_edits(st.session_state[f"{name}_base"], st.session_state[key], text_columns,
                                        number_columns, st.session_state.get(f"{name}_language"))
        except tables.RejectedEdit as why:
            st.session_state[f"{name}_rejected"] = str(why)
            key = _restart_editor(name)
        else:
            moved = reorder(edited) if reorder else None
            if moved is not None:
                st.session_state[name] = moved
                key = _restart_editor(name)
            elif _no_edits(st.session_state[key]):
                # A rerun without an edit leaves the table as given, column types included (edits turn
                # it into object columns): otherwise visiting a page would change the scenario and its link.
                st.session_state[name] = st.session_state[f"{name}_base"].reset_index(drop=True)
            else:
                st.session_state[name] = edited
        if number_columns and st.session_state.get(f"{name}_language") != i18n.current():
            key = _restart_editor(name)  # its numbers are shown in the reader's notation: show them anew
    return key


def _no_edits(edits) -> bool:
    return isinstance(edits, dict) and not any(edits.get(part) for part in ("edited_rows", "added_rows", "deleted_rows"))


def _editor_key(name: str) -> str:
    return f"{name}_editor_{st.session_state.get(f'{name}_version', 0)}"


def _restart_editor(name: str) -> str:
    """A new key, so the editor starts again from the scenario table (its old state is dropped)."""
    st.session_state[f"{name}_version"] = st.session_state.get(f"{name}_version", 0) + 1
    return _editor_key(name)


def bound(widget: Callable, label: str, state_key: str, **kwargs):
    """A widget whose value lives in ``st.session_state[state_key]``, which outlives the page.

    A stored value the widget cannot show (an option it does not offer, a number outside its
    range, e.g. K above a maximum that shrank with the list) is replaced by the nearest usable
    value, and a note under the widget says so instead of an exception.
    """
    widget_key = f"_{state_key}_widget"
    if "format_func" in kwargs:
        kwargs["format_func"] = language.in_current_language(kwargs["format_func"])
    refused = st.session_state.pop(f"_{state_key}_refused", None)
    value, note = usable(refused if refused is not None else st.session_state[state_key], label, kwargs,
                         st.session_state.get(f"_{state_key}_good"))
    st.session_state[state_key] = st.session_state[widget_key] = st.session_state[f"_{state_key}_good"] = value
    shown = widget(label, key=widget_key, on_change=_copy, args=(widget_key, state_key, label, kwargs), **kwargs)
    if note:
        st.info(note, icon="↕️")
    return shown


def usable(value, label: str, kwargs: dict, last_good):
    """``(value, None)`` when a widget built with ``kwargs`` can show ``value``, else the value to use and why."""
    if "options" in kwargs:
        options = list(kwargs["options"])
        if not isinstance(value, bool) and value in options:
            return value, None
        fallback = last_good if last_good in options else options[0]
        return fallback, not_a_choice(value, label, text.markdown(fallback))
    low, high = kwargs.get("min_value"), kwargs.get("max_value")
    if low is None and high is None:
        return value, None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        fallback = last_good if last_good is not None else low
        return fallback, _("{value} is not a number, so {label} stays {fallback}.").format(
            value=text.markdown(value), label=label, fallback=text.markdown(as_shown(fallback)))
    if isinstance(low if low is not None else high, int) and not float(value).is_integer():
        fallback = last_good if last_good is not None else low
        return fallback, _("{value} is not a whole number, so {label} stays {fallback}.").format(
            value=text.markdown(as_shown(value)), label=label, fallback=text.markdown(as_shown(fallback)))
    value = type(low if low is not None else high)(value)  # a slider needs its bounds' type
    if high is not None and value > high:
        return type(high)(high), _("{label}: {value} is above the largest value allowed now ({high}), so it is "
                                   "set to {high}.").format(label=label, value=text.markdown(as_shown(value)),
                                                            high=text.markdown(as_shown(high)))
    if low is not None and value < low:
        return type(low)(low), _("{label}: {value} is below {low}, so it is set to {low}.").format(
            label=label, value=text.markdown(as_shown(value)), low=text.markdown(as_shown(low)))
    return value, None


def _copy(source: str, target: str, label: str, kwargs: dict) -> None:
    """The widget's new value into the page's state, unless the browser sent one the widget cannot show:
    the page reads the state before it draws the widget, so that value is kept aside for bound() to refuse."""
    value = st.session_state[source]
    if usable(value, label, kwargs, None)[1] is None:
        st.session_state[target] = value
    else:
        st.session_state[f"_{target}_refused"] = value


def number_box(label: str, key: str, value: float, *, low: float, high: float, digits: int = 4) -> float:
    """A number typed in a text box in the reader's notation (0,001 in Turkish), read by ``content.numbers``;
    returns the number to use. Streamlit's number box writes and reads numbers with a point in every
    language and drops a comma it cannot read (0,001 became 1). Text that cannot be read, or a number
    outside [low, high], stays in the box as typed, and a note says why and which number is used instead."""
    good_key = f"_{key}_good"
    st.session_state.setdefault(key, numbers.number(value, digits))
    typed = st.text_input(label, key=key)
    used = st.session_state.get(good_key, value)
    try:
        number = numbers.parse(typed)
    except numbers.NumberError as refused:
        st.warning(_("{label}: {why} Until then, {value} is used.").format(
            label=label, why=text.markdown(numbers.parse_error_message(refused)),
            value=numbers.number(used, digits)), icon="🔢")
        return used
    if not low <= number <= high:
        st.warning(_("{label}: {typed} is outside {low} to {high}, so {value} is used.").format(
            label=label, typed=text.markdown(typed.strip()), low=numbers.general(low), high=numbers.general(high),
            value=numbers.number(used, digits)), icon="🔢")
        return used
    st.session_state[good_key] = number
    return number


def show_problems(problems: list[str]) -> None:
    """One warning listing every row that was left out, and why.

    The messages quote what the user typed, so each is escaped whole: it shows exactly as written.
    """
    if problems:
        st.warning(_("**Some rows are left out of the numbers below:**") + "\n\n"
                   + "\n".join(f"- {text.markdown(p)}" for p in problems), icon="⚠️")


# Readable headers for the column names the metrics package returns; any other name is shown
# with spaces for underscores. A page's own column_config wins.
COLUMN_LABELS = {
    "relevance": N_("relevance"),
    "absolute_error": N_("|error|"), "squared_error": N_("error²"), "in_top_k": N_("in the top K"),
    "used_by": N_("used by"), "chosen": N_("your choice"), "hits_so_far": N_("hits so far"),
    "precision_at_i": N_("precision@i"), "first_position": N_("first position"), "last_position": N_("last position"),
    "p_true_label": N_("p of what happened"), "was_clipped": N_("clipped?"), "first_hit_rank": N_("first hit at rank"),
    "one_over_rank": "1/rank", "running_dcg": N_("DCG so far"), "ap": "AP", "rr": "RR", "auc": "AUC", "divide_by": "D",
    "sum_of_precisions": N_("sum of precision@i at hits"), "first_hit": N_("first hit"),
    # Column names the metrics' tables share (shown with spaces for underscores when not listed here).
    "rank": N_("rank"), "item": N_("item"), "hit": N_("hit"), "relevant": N_("relevant"), "grade": N_("grade"),
    "gain": N_("gain"), "discount": N_("discount"), "contribution": N_("contribution"), "user": N_("user"),
    "label": N_("label"), "score": N_("score"), "prediction": N_("prediction"), "actual": N_("actual"),
    "probability": N_("probability"), "loss": N_("loss"), "value": N_("value"), "error": N_("error"),
    "clipped": N_("clipped"), "precision": N_("precision"), "recall": N_("recall"), "metric": N_("metric"),
    "denominator": N_("denominator"), "weight": N_("weight"), "impressions": N_("impressions"),
    "clicks": N_("clicks"), "model": N_("model"),
}
# Names that stay as they are in every language (metric names, symbols).
_SAME_IN_EVERY_LANGUAGE = {"1/rank", "AP", "RR", "AUC", "D"}
MISSING = "—"  # shown for an empty cell instead of "None"


def show_table(frame, column_config: dict | None = None, **kwargs) -> None:
    """A read-only table with readable column headers and an em dash for empty cells.

    ``frame`` may be a pandas Styler (number formats, highlights): its table gives the headers.
    """
    if not isinstance(frame, (pd.DataFrame, Styler)):
        frame = pd.DataFrame(frame)
    if isinstance(frame, pd.DataFrame):
        if readers_notation.kept_grid_notation(frame):
            st.caption(_("This table has more than {cells} numbers: to keep the page quick, it writes their "
                         "decimal mark as a point.").format(cells=numbers.integer(readers_notation.STYLED_CELLS)))
        frame = readers_notation.in_readers_notation(frame, MISSING)
    columns = frame.data.columns if isinstance(frame, Styler) else frame.columns
    labels = {str(c): column_label(c) for c in columns}
    config = {**labels, **{c: {**cfg, "label": cfg.get("label") or labels.get(c, c)} if isinstance(cfg, dict) else cfg
                           for c, cfg in (column_config or {}).items()}}
    index_name = (frame.data if isinstance(frame, Styler) else frame).index.name
    if index_name is not None and not kwargs.get("hide_index", True):
        config = {"_index": column_label(index_name), **config}  # its header, "metric", translated too
    st.dataframe(frame, column_config=config, placeholder=MISSING,
                 **{"hide_index": True, "width": "stretch", **kwargs})


def chart(figure, *, key: str, **kwargs) -> None:
    """A Plotly figure with its text alternative: every page shows its charts through this, never ``st.plotly_chart``.

    The chart is named by its title for a screen reader (``alt``); right under it, one sentence states the
    numbers it shows, and an expander holds its data as a table in the reader's notation. Plotly's
    toolbar is not reached with Tab and its hover needs a mouse: these two are what a keyboard or a
    screen reader gets. ``kwargs`` go to ``st.plotly_chart`` (``config``).
    """
    if practice_mode.hides_charts():  # the answers are hidden: so are the chart and the numbers it states
        st.plotly_chart(figure, key=key, **kwargs)
        return
    described = chart_text.describe(figure)
    st.plotly_chart(figure, key=key, alt=described.name or described.summary, **kwargs)
    st.caption(text.markdown(described.summary))
    with st.expander(_(chart_words.DATA)):
        show_table(described.table, column_config={column: {"alignment": "right"} for column in described.numeric})


def column_label(column) -> str:
    """The header a table shows for a column name of the metrics package, in the reader's language.

    A name not listed in ``COLUMN_LABELS`` is shown as it is, with spaces for underscores (a page
    that shows such a column gives its own translated label in ``column_config``).
    """
    name = str(column)
    if name in COLUMN_LABELS:
        label = COLUMN_LABELS[name]
        return label if label in _SAME_IN_EVERY_LANGUAGE else _(label)
    return name.replace("_", " ")


def _format(value: float) -> str:
    return numbers.number(value, 4)


def metric_cards(values: dict[str, float], *, group: str, k: int | None = None, columns: int = 4,
                 help_text: dict[str, str] | None = None, labels: dict[str, str] | None = None) -> None:
    """One card per metric (label from the registry), filled row by row in the order given,
    with the change since the last change of any of them.

    ``values`` maps registry keys (or a page's own keys, with their shown text in ``labels``) to
    numbers: keys never depend on the reader's language, so a change of language keeps each card's
    delta and the practice form's choice. The delta compares with the
    values shown before the most recent change (an edit, K, an option), and each card's help
    says which value that was, so a what-if edit shows its effect and a step of K reads right.
    """
    labels = {key: (labels or {}).get(key) or _label(key, k) for key in values}
    if practice_mode.gate(values, group, k, labels):
        return
    snapshot_key, previous_key = f"_cards_{group}", f"_cards_{group}_previous"
    if st.session_state.get(snapshot_key, {}).get("values") != values:
        st.session_state[previous_key] = st.session_state.get(snapshot_key, {})
        st.session_state[snapshot_key] = {"values": dict(values), "labels": labels}
    previous = st.session_state.get(previous_key, {})
    before_values, before_labels = previous.get("values", {}), previous.get("labels", {})
    pinned = baseline.compared_with(group, values, before_values)
    if pinned is not before_values:  # a pinned scenario: the deltas compare with it, not the last edit
        before_values, before_labels = pinned, {}
    keys = list(values)
    for row_start in range(0, len(keys), columns):
        cells = st.columns(columns)
        for cell, key in zip(cells, keys[row_start:row_start + columns]):
            value, metric, before = values[key], BY_KEY.get(key), before_values.get(key)
            delta = None
            help_lines = [(help_text or {}).get(key) or metric_texts.meaning(key)]
            if before is not None and not math.isnan(before) and not math.isnan(value) and before != value:
                delta = numbers.number(value - before, 4, sign=True)
                compared = _("The change below compares with the value shown when you pinned these numbers: "
                             "{label} = {value}.") if not before_labels else \
                    _("The change below compares with the value shown before your last change: {label} = {value}.")
                help_lines.append(compared.format(label=before_labels.get(key, labels[key]),
                                                  value=numbers.number(before, 4)))
            with cell:
                st.metric(
                    labels[key], _format(value), delta=delta, border=True,
                    delta_color=delta_colour(metric, before, value),
                    help="\n\n".join(line for line in help_lines if line) or None,
                )
    baseline.switch(group, values)


def delta_colour(metric: Metric | None, before: float | None, value: float) -> str:
    """Streamlit's colour for a card's change: green when the change is an improvement for that metric."""
    if metric is None or before is None or math.isnan(before) or math.isnan(value):
        return "normal"
    return "normal" if (value > before) == metric.improves(before, value) else "inverse"


def chance_delta(beats: float) -> dict:
    """``st.metric`` arguments for a card's place among random orderings (``beats``, ties half).

    The arrow and colour say only what is true at the shown precision: above chance (green, up),
    below it (red, down) or at it (grey, no arrow: a score every ordering shares sits at 50%). The
    delta is short enough not to be cut in a half-width card: the page says what it is a share of."""
    shown = round(beats * 100)
    direction = "up" if shown > 50 else "down" if shown < 50 else "off"
    return {"delta": _("beats {share}").format(share=numbers.percent(shown / 100)), "delta_arrow": direction,
            # Streamlit colours by the sign of the delta text, which never starts with "-" here: "inverse" makes it red.
            "delta_color": {"up": "normal", "down": "inverse", "off": "off"}[direction]}


def _label(key: str, k: int | None) -> str:
    return metric_texts.label(key, k)


def formula(latex: str, substituted: str | None = None) -> None:
    """The general formula, and beside it the same formula with the current numbers."""
    substituted = practice_mode.unless_hidden(substituted)
    left, right = st.columns(2)
    with left:
        st.caption(_("Formula"))
        st.latex(formulas.general(formulas.translated_words(latex)))
    if substituted:
        with right:
            st.caption(_("With your numbers"))
            st.latex(substituted)


def sources_link() -> None:
    """Name the two source documents and link the page that holds their worked examples."""
    from content import examples as example_words
    from content.i18n import _

    st.caption(_(example_words.SOURCES))
    st.page_link(TOPIC_PAGES["examples"], label=_(example_words.SOURCES_LINK), icon="📚")


def pitfalls(*lines: str) -> None:
    with st.expander(_("Pitfalls"), expanded=False):
        st.markdown("\n".join(f"- {line}" for line in lines))
        sources_link()


def loaded_example_banner(topic: str) -> None:
    """Say which seed example is loaded, with the document's printed value next to the exact one.

    Once the user edits the data, the banner says the numbers below are no longer the example's
    and offers to load it again.
    """
    key = st.session_state.get("loaded_example")
    example = EXAMPLES.get(key) if key else None
    if example is None or example.topic != topic:
        return
    from content import examples as example_words

    rows = example_words.value_rows(example, missing="—")
    with st.container(border=True):
        if changed_from_example(example):
            st.markdown(example_words.changed_banner(example))
            st.button(_(example_words.RESET), key=f"reset_example_{topic}", on_click=load_example, args=(example,),
                      help=_(example_words.RESET_HELP))
        else:
            st.markdown(example_words.loaded_banner(example))
        show_table(pd.DataFrame(rows), column_config={column: {"label": _(label)}
                                                      for column, label in example_words.BANNER_COLUMNS.items()})
        for value in example.values:
            if example_words.value_note(example, value):
                st.info(example_words.noted(example, value))
        if example_words.note(example):
            st.caption(example_words.note(example))
        sources_link()
