"""Your data: a whole model's log evaluated, its traps, its spread and its worst users."""

import streamlit as st

from content import numbers
from content import your_data as words_of
from content.i18n import _
from content.pages import your_data as words
from whole_logs import batch
from metrics.ndcg import GAINS
from metrics.ranked_metrics import AP_DENOMINATORS
from ui.figures import batch_charts
from content import text
from ui.controllers import your_data as yd
from ui.controllers import your_data_log as the_log
from ui.state import _put, ground_truth_table, recommended_table
from ui.widgets import chart, choice, formula, page, pitfalls, show_table
from content.your_data import IDEA, PITFALLS

page(_(words.TITLE), "🗂️", _(IDEA))
stale_notice = st.container()  # above the old numbers: says when they are not those of the files just chosen
formula_area = st.container()
overview_area = st.container()  # the summary and the main histogram, filled once the log is evaluated

K_OPTIONS = [1, 3, 5, 10, 20, 50, 100]
TEACHING_PAGES = [("app.py", "🎯"), ("pages/2_Precision_Recall_HR_F1.py", "🎣"), ("pages/3_AP_and_MAP.py", "📈"),
                  ("pages/4_RR_and_MRR.py", "🥇"), ("pages/5_NDCG.py", "🪜")]
the_log.open_with_a_synthetic_log()

# ----------------------------------------------------------------------------- the log
st.subheader(_(words.THE_LOG))
source = the_log.source()
progress = st.empty()
if source == words.LAB:
    st.info(_(words.HANDED), icon="🧫")
elif source == words.SYNTHETIC:
    the_log.generator(progress)
else:
    the_log.files(progress, stale_notice)
log = the_log.shown()

# ----------------------------------------------------------------------------- settings
metrics = st.multiselect(_(words.METRICS), list(batch.METRICS), default=list(batch.METRICS), key="yd_metrics",
                         format_func=yd.LABELS.get) or list(batch.METRICS)
cells = st.columns(3)
ks = cells[0].multiselect(_(words.K_VALUES), K_OPTIONS, default=[5, 10, 20], key="yd_ks") or [10]
gain = choice(cells[1].radio, _(words.NDCG_GAIN), GAINS, "yd_gain", horizontal=True,
              format_func=lambda g: _(words.GAINS[g]) if g in words.GAINS else g)
denominator = choice(cells[2].radio, _(words.AP_DENOMINATOR), AP_DENOMINATORS, "yd_denominator", horizontal=True,
                     format_func=lambda d: _(words.DENOMINATORS[d]))
ks = sorted(ks)

cache_key = (st.session_state["yd_log_version"], tuple(ks), tuple(metrics), gain, denominator,
             st.session_state.get("lang"))  # the cached figures hold words
cache = st.session_state.get("yd_cache")
if cache is None or cache["key"] != cache_key:
    progress.progress(0.6, text=words.evaluating(log.ground_truth["user"].nunique()))
    longest = int(log.recommendations.groupby("user").size().max()) if len(log.recommendations) else 1
    curve_ks = yd.curve_ks(ks, longest)
    try:
        per_user_all = batch.evaluate(log.recommendations, log.ground_truth, curve_ks, metrics=metrics,
                                      gain=gain, denominator=denominator)
    except ValueError as error:  # grades too large for the chosen gain: the settings can fix it
        progress.empty()
        st.error(words.not_evaluated(text.markdown(words_of.error_message(error))))
        st.stop()
    cache = {"key": cache_key, "per_user": per_user_all, "curve_ks": curve_ks,
             "traps": batch.scan_traps(log.recommendations, log.ground_truth, ks[-1])}
    st.session_state["yd_cache"] = cache
progress.empty()
per_user_all, curve_ks = cache["per_user"], cache["curve_ks"]


def figure(name: str, build):
    """A chart built once per evaluated log and settings: reruns (choosing a user) reuse it."""
    figures = cache.setdefault("figures", {})
    if name not in figures:
        figures[name] = build()
    return figures[name]


summary = batch.summarize(per_user_all)
columns = [batch.column_name(m, k) for m in metrics if m != "reciprocal_rank" for k in ks]
columns += ["reciprocal_rank"] if "reciprocal_rank" in metrics else []
per_user = per_user_all[columns]

main_metric = next((m for m in ("average_precision", "ndcg", "precision") if m in metrics), metrics[0])
main_k = 10 if 10 in ks else ks[0]
with formula_area:
    formula(*yd.mean_formula(main_metric, main_k, per_user))

# ----------------------------------------------------------------------------- traps
st.subheader(_(words.TRAP_SCAN))
traps = cache["traps"]
found = int((traps["users"] > 0).sum())
st.markdown(words.traps_found(found, len(traps)))
COLUMN_WORDS = {name: _(label) for name, label in words.COLUMNS.items()}
left, right = st.columns([7, 4])
with left:
    show_table(yd.trap_table(traps),
               column_config={"trap": st.column_config.TextColumn(COLUMN_WORDS["trap"]),  # as wide as its longest trap
                              "users": st.column_config.NumberColumn(COLUMN_WORDS["users"], width=70),
                              "rows": st.column_config.NumberColumn(COLUMN_WORDS["rows"], width=70)})
with right:
    st.markdown("\n".join(f"- {note}" for note in yd.trap_notes(traps)) or _(words.NO_TRAP))

with overview_area:
    left, right = st.columns([3, 2])
    with left:
        st.markdown(words.means_over(int(summary.users["evaluated"])))
        means_table = yd.summary_table(summary.means, ks, metrics)
        k_columns = [f"K = {k}" for k in ks]
        show_table(means_table.style.format(lambda v: numbers.number(v, 4), subset=k_columns),
                   column_config={"metric": COLUMN_WORDS["metric"]} | {f"K = {k}": words.k_column(k) for k in ks})
        users_table = yd.users_table(summary.users)
        show_table(users_table.style.format(numbers.integer, subset=["users"]),
                   column_config={"users": COLUMN_WORDS["users"], "meaning": COLUMN_WORDS["meaning"]})
    with right:
        main_column = batch.column_name(main_metric, main_k)
        chart(figure(f"spread {main_column}", lambda: batch_charts.histograms(
            per_user, [main_column], per_row=1, title=words.spread_title(yd.column_label(main_column)))),
                        key="yd_main_histogram")

st.subheader(_(words.SPREAD))
hist_k = choice(st.selectbox, _(words.K_FOR_HISTOGRAMS), ks, "yd_hist_k", index=ks.index(main_k))
hist_columns = [batch.column_name(m, hist_k) for m in metrics]
chart(figure(f"histograms_{hist_k}", lambda: batch_charts.histograms(per_user_all, hist_columns)),
                key="yd_histograms")

st.subheader(_(words.MEAN_AGAINST_K))
at_k = [m for m in metrics if m != "reciprocal_rank"] or metrics
chart(figure("mean_vs_k", lambda: batch_charts.metric_vs_k(yd.curves(summary.means, curve_ks, at_k), ks)),
                key="yd_vs_k")

# ----------------------------------------------------------------------------- worst users
st.subheader(_(words.WORST_USERS))
worst_column = choice(st.selectbox, _(words.RANK_BY), columns, "yd_worst_column",
                      index=columns.index(batch.column_name(main_metric, main_k)), format_func=yd.column_label)
worst = yd.worst_users(per_user, worst_column)
worst_shown = worst.rename(columns={c: yd.column_label(c) for c in columns})
show_table(worst_shown.style.format(lambda v: numbers.number(v, 4),
                                    subset=[yd.column_label(c) for c in columns if c in worst.columns]),
           column_config={"user": COLUMN_WORDS["user"]})
st.caption(words.worst_caption(len(worst), yd.column_label(worst_column), len(per_user)))
left, right = st.columns([2, 3])
with left:
    chosen = choice(st.selectbox, _(words.USER_TO_EXPLAIN), worst["user"].tolist(), "yd_worst_user")
    if st.button(_(words.OPEN_USER), key="yd_open", disabled=chosen is None):
        items, grades = yd.user_case(log, chosen)
        _put("recommended", recommended_table(items))
        _put("ground_truth", ground_truth_table(grades))
        # The K of the ranking column; the teaching pages' K slider reaches max(20, list length).
        st.session_state["k"] = min(int(worst_column.partition("@")[2] or main_k), max(20, len(items)))
        st.session_state["gain"], st.session_state["ap_denominator"] = gain, denominator
        st.session_state["loaded_example"] = None
        st.session_state["yd_opened"] = chosen
with right:
    if st.session_state.get("yd_opened") is not None:
        st.success(words.opened(text.markdown(st.session_state["yd_opened"]), st.session_state["k"]), icon="🔎")
        for path, icon in TEACHING_PAGES:
            st.page_link(path, label=_(words.TEACHING_PAGES[path]), icon=icon)

st.download_button(_(words.DOWNLOAD), lambda: per_user.to_csv().encode("utf-8"),
                   file_name="per_user_metrics.csv", mime="text/csv", on_click="ignore", key="yd_download")

pitfalls(*[_(line) for line in PITFALLS])
