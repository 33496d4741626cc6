"""One library up close on the library lens: the library and metric chosen (kept in the session, so the formula
at the top of the page shows them before their widgets are drawn), the library's settings beside this app's,
both values worked out step by step, and the library's own code for the scenario."""

from __future__ import annotations

from typing import NamedTuple

import streamlit as st

from content import conventions as words_of
from content import text
from content.i18n import _
from content.pages import lens as words
from metrics import conventions as conv
from metrics.registry import RankingCase
from ui.controllers import library_lens as lens
from ui.library_snippets import snippet
from ui.widgets import bound, show_table, usable


class UpClose(NamedTuple):
    library: str
    metric: str
    convention: conv.Convention
    differing: list[str]  # the metrics whose value the library gives unlike the app's
    theirs: conv.Breakdown
    ours: conv.Breakdown


def chosen(case: RankingCase, comparison: conv.Comparison) -> UpClose:
    """The library and metric in the session: at first the first library that differs and its first differing
    metric; a metric the library lacks, or one chosen for another library, gives way to that one."""
    with_differences = comparison.libraries_that_differ()
    st.session_state.setdefault("lens_library", with_differences[0] if with_differences else "torchmetrics")
    # As bound() in pick() will show it: a stored name that is no library is replaced there, and said.
    library, _unused = usable(st.session_state["lens_library"], _(words.LIBRARY), {"options": list(conv.CONVENTIONS)},
                              st.session_state.get("_lens_library_good"))
    convention = conv.CONVENTIONS[library]
    differing = comparison.differing_metrics(library)
    metrics = convention.metrics
    if st.session_state.get("lens_metric_for") != library or st.session_state.get("lens_metric") not in metrics:
        st.session_state["lens_metric"] = differing[0] if differing else metrics[0]
        st.session_state["lens_metric_for"] = library
    metric = st.session_state["lens_metric"]
    return UpClose(library, metric, convention, differing,
                   conv.breakdown(convention, metric, case.recommended, case.ground_truth, case.k),
                   conv.breakdown(conv.APP, metric, case.recommended, case.ground_truth, case.k))


def formulas(case: RankingCase, close: UpClose) -> None:
    st.latex(words.library_over_app(close.library, close.metric, case.k, close.theirs, close.ours))
    st.caption(words.formula_caption(words_of.possessive(close.library), conv.METRIC_LABELS[close.metric]))


def pick(comparison: conv.Comparison, close: UpClose) -> UpClose:
    """The library (with how many of its values differ) and the metric (≠ where it differs) to look at."""
    differ = comparison.libraries_that_differ()

    def library_option(name: str) -> str:
        return words.library_option(name, len(comparison.differing_metrics(name))) if name in differ else name

    def metric_option(metric: str) -> str:
        return conv.METRIC_LABELS[metric] + (" ≠" if metric in close.differing else "")

    library = bound(st.selectbox, _(words.LIBRARY), "lens_library", options=list(conv.CONVENTIONS),
                    format_func=library_option)
    metric = bound(st.radio, _(words.METRIC_TO_BREAK_DOWN), "lens_metric", options=close.convention.metrics,
                   horizontal=True, format_func=metric_option)
    return close._replace(library=library, metric=metric)


def settings(close: UpClose) -> None:
    st.markdown(words.conventions_heading(words_of.possessive(close.library), close.convention.version))
    st.table(lens.settings_table(close.convention, close.library))
    if close.convention.notes:
        st.caption(words_of.note(close.convention))


def step_by_step(case: RankingCase, comparison: conv.Comparison, close: UpClose) -> None:
    """Why the two values differ, then each side's value as a fraction and the tables it comes from."""
    library, metric, convention, k = close.library, close.metric, close.convention, case.k
    st.markdown(words.step_by_step(conv.METRIC_LABELS[metric], library))
    causes = comparison.causes_of(library, metric)
    if causes is not None:
        st.warning(text.markdown(words_of.explanation(causes, convention, metric, case.recommended, case.ground_truth,
                                                      k)), icon="🔎")
    sides = ((convention, library, close.theirs), (conv.APP, _(words.THIS_APP), close.ours))
    for column, (who, shown_as, b) in zip(st.columns(2), sides, strict=True):
        with column:
            st.latex(words.breakdown_latex(shown_as, metric, k, b))
            if b.reason:
                st.info(words_of.no_value_reason(who, metric, case.recommended, case.ground_truth, k))
            elif b.numerator_label:
                st.caption(words_of.breakdown_fraction(b, k))
            for title, table in b.tables.items():
                st.caption(words_of.table_title(title))
                show_table(lens.four_places(table), column_order=lens.breakdown_columns(table))


def own_code(case: RankingCase, close: UpClose) -> None:
    st.markdown(words.check_it_yourself(words_of.possessive(close.library)))
    code = snippet(close.library, case.recommended, case.ground_truth, case.k)
    # Wrapped: a line wider than the column would make the block a scrolling region a keyboard cannot reach
    # (Streamlit focuses the block around it, not the <pre> that scrolls); the copy button copies the lines as written.
    st.code(code.code, language=code.language, wrap_lines=True)
    st.caption(_(words.TESTED) if code.tested else words.not_run(close.library))
