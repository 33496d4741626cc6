"""Figures that depend only on the scenario, built once and shared by every session that shows them.

A Plotly figure costs 10-20 ms to build, most of a rerun. Kept as objects (``cache_resource``:
unpickling a figure costs as much as building it), never mutated, keyed by the full content they
show: a class working on the same example shares them, and no session gets anything its own
scenario would not give it. Defined here rather than in a page so the cache key is computed once
per process, not on every rerun. Each figure holds words and numbers in the reader's language, so
the language is part of every key (``language``: ``content.i18n.current()``, given by the caller).
"""

from __future__ import annotations

import streamlit as st

from content import i18n
from metrics import registry
from metrics.seed_examples import printed_vs_exact
from metrics.topn_metrics import top_k_table
from ui.figures import charts
from content import text


def ranking_charts(recommended: tuple, ground_truth: tuple, k: int, gain: str, ap_denominator: str,
                   language: str | None = None):
    """The top-K window and the metrics-over-K curves of one ranking scenario, in ``language``."""
    return _ranking_charts(recommended, ground_truth, k, gain, ap_denominator, language or i18n.current())


@st.cache_resource(max_entries=128, show_spinner=False)
def _ranking_charts(recommended: tuple, ground_truth: tuple, k: int, gain: str, ap_denominator: str, language: str):
    case = registry.RankingCase(list(recommended), dict(ground_truth), k, gain, ap_denominator)
    max_k = max(len(case.recommended), case.k, 1)
    window = text.plotly_column(top_k_table(case.recommended, case.ground_truth, case.k), "item")
    return (charts.top_k_window(window, case.k),
            charts.metrics_vs_k(registry.evaluate_over_k(case, range(1, max_k + 1)), case.k))


def printed_vs_exact_chart(language: str | None = None):
    """The seed documents' printed numbers against the exact ones: the same for every reader of a language."""
    return _printed_vs_exact_chart(language or i18n.current())


@st.cache_resource(show_spinner=False)
def _printed_vs_exact_chart(language: str):
    return charts.printed_vs_exact(printed_vs_exact())
