"""What Your data shows of the log: the settings it is evaluated with, the evaluation kept in the session until
the log, the settings or the language change (``yd_cache``, with the charts built from it), the mean's formula,
the trap scan, the means and user counts, the spread over users and each mean against K."""

from __future__ import annotations

import streamlit as st

from content import numbers, text
from content import your_data as words_of
from content.i18n import _
from content.pages import your_data as words
from metrics.ndcg import GAINS
from metrics.ranked_metrics import AP_DENOMINATORS
from ui.controllers import your_data as yd
from ui.figures import batch_charts
from ui.widgets import chart, choice, formula, show_table
from whole_logs import batch

K_OPTIONS = [1, 3, 5, 10, 20, 50, 100]


def header(column: str) -> str:
    """A results table's column header in the reader's language."""
    return _(words.COLUMNS[column])


def settings() -> yd.Settings:
    """The metrics, K values, NDCG gain and AP denominator; an emptied choice means all metrics, or K = 10."""
    metrics = st.multiselect(_(words.METRICS), list(batch.METRICS), default=list(batch.METRICS), key="yd_metrics",
                             format_func=yd.LABELS.get) or list(batch.METRICS)
    cells = st.columns(3)
    ks = cells[0].multiselect(_(words.K_VALUES), K_OPTIONS, default=[5, 10, 20], key="yd_ks") or [10]
    gain = choice(cells[1].radio, _(words.NDCG_GAIN), GAINS, "yd_gain", horizontal=True,
                  format_func=lambda g: _(words.GAINS[g]) if g in words.GAINS else g)
    denominator = choice(cells[2].radio, _(words.AP_DENOMINATOR), AP_DENOMINATORS, "yd_denominator",
                         horizontal=True, format_func=lambda d: _(words.DENOMINATORS[d]))
    return yd.Settings(metrics, sorted(ks), gain, denominator)


def evaluated(log: yd.Log, chosen: yd.Settings, progress) -> yd.Evaluation:
    """The log evaluated with ``chosen``, once per log, settings and language; settings that cannot score the log
    are said, and the page stops there."""
    key = (st.session_state["yd_log_version"], tuple(chosen.ks), tuple(chosen.metrics), chosen.gain,
           chosen.denominator, st.session_state.get("lang"))  # the cached figures hold words
    cache = st.session_state.get("yd_cache")
    if cache is None or cache["key"] != key:
        progress.progress(0.6, text=words.evaluating(log.ground_truth["user"].nunique()))
        try:
            evaluation = yd.evaluate(log, chosen)
        except ValueError as error:  # grades too large for the chosen gain: the settings can fix it
            progress.empty()
            st.error(words.not_evaluated(text.markdown(words_of.error_message(error))))
            st.stop()
        cache = {"key": key, "evaluation": evaluation, "figures": {}}
        st.session_state["yd_cache"] = cache
    progress.empty()
    return cache["evaluation"]


def _figure(name: str, build):
    """A chart built once per evaluated log and settings: reruns (choosing a user) reuse it."""
    figures = st.session_state["yd_cache"]["figures"]
    if name not in figures:
        figures[name] = build()
    return figures[name]


def mean_formula(evaluation: yd.Evaluation) -> None:
    formula(*yd.mean_formula(evaluation.settings.main_metric, evaluation.settings.main_k, evaluation.per_user))


def traps(evaluation: yd.Evaluation) -> None:
    """How many users each trap touches, and beside the table what each found one means here and elsewhere."""
    st.markdown(words.traps_found(evaluation.traps_found, len(evaluation.traps)))
    left, right = st.columns([7, 4])
    with left:
        show_table(yd.trap_table(evaluation.traps),
                   column_config={"trap": st.column_config.TextColumn(header("trap")),  # as wide as its longest trap
                                  "users": st.column_config.NumberColumn(header("users"), width=70),
                                  "rows": st.column_config.NumberColumn(header("rows"), width=70)})
    with right:
        st.markdown("\n".join(f"- {note}" for note in yd.trap_notes(evaluation.traps)) or _(words.NO_TRAP))


def overview(evaluation: yd.Evaluation) -> None:
    """The means at each K and the users counted, beside the spread of the main metric."""
    summary, ks, chosen = evaluation.summary, evaluation.settings.ks, evaluation.settings
    left, right = st.columns([3, 2])
    with left:
        st.markdown(words.means_over(int(summary.users["evaluated"])))
        means_table = yd.summary_table(summary.means, ks, chosen.metrics)
        k_columns = [f"K = {k}" for k in ks]
        show_table(means_table.style.format(lambda v: numbers.number(v, 4), subset=k_columns),
                   column_config={"metric": header("metric")} | {f"K = {k}": words.k_column(k) for k in ks})
        users_table = yd.users_table(summary.users)
        show_table(users_table.style.format(numbers.integer, subset=["users"]),
                   column_config={"users": header("users"), "meaning": header("meaning")})
    with right:
        main_column, per_user = chosen.main_column, evaluation.per_user
        chart(_figure(f"spread {main_column}", lambda: batch_charts.histograms(
            per_user, [main_column], per_row=1, title=words.spread_title(yd.column_label(main_column)))),
              key="yd_main_histogram")


def spread(evaluation: yd.Evaluation) -> None:
    """Every metric's histogram at the K chosen for them."""
    chosen = evaluation.settings
    hist_k = choice(st.selectbox, _(words.K_FOR_HISTOGRAMS), chosen.ks, "yd_hist_k",
                    index=chosen.ks.index(chosen.main_k))
    columns = chosen.columns_at(hist_k)
    chart(_figure(f"histograms_{hist_k}", lambda: batch_charts.histograms(evaluation.per_user_all, columns)),
          key="yd_histograms")


def mean_against_k(evaluation: yd.Evaluation) -> None:
    chosen = evaluation.settings
    chart(_figure("mean_vs_k", lambda: batch_charts.metric_vs_k(
        yd.curves(evaluation.summary.means, evaluation.curve_ks, chosen.against_k), chosen.ks)), key="yd_vs_k")
