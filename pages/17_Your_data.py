"""Your data: a whole model's log evaluated, its traps, its spread and its worst users."""

import streamlit as st

from metrics import batch
from metrics.ndcg import GAINS
from metrics.ranked_metrics import AP_DENOMINATORS
from metrics.synthetic import synthetic_log
from ui import batch_charts, text
from ui import your_data as yd
from ui.state import _put, ground_truth_table, recommended_table
from ui.widgets import choice, formula, page, pitfalls, show_table
from ui.your_data_content import FORMATS_HELP, IDEA, MAX_ROWS, PITFALLS, TIE_RULE

page("Your data", "🗂️", IDEA)
stale_notice = st.container()  # above the old numbers: says when they are not those of the files just chosen
formula_area = st.container()
overview_area = st.container()  # the summary and the main histogram, filled once the log is evaluated

SYNTHETIC = {"users": 2000, "list_length": 20, "relevant": 5, "quality": 0.5, "seed": 0}
K_OPTIONS = [1, 3, 5, 10, 20, 50, 100]
FORMAT_LABELS = {"auto": "detect", "csv": "CSV", "parquet": "Parquet", "trec": "TREC"}
TEACHING_PAGES = [("app.py", "Playground", "🎯"), ("pages/2_Precision_Recall_HR_F1.py", "Precision, Recall, HR, F1", "🎣"),
                  ("pages/3_AP_and_MAP.py", "AP and MAP", "📈"), ("pages/4_RR_and_MRR.py", "RR and MRR", "🥇"),
                  ("pages/5_NDCG.py", "NDCG", "🪜")]


def synthetic(settings: dict) -> yd.Log:
    recs, truth = synthetic_log(**settings)
    described = ", ".join(f"{'random seed' if name == 'seed' else name.replace('_', ' ')} {value}" for name, value in settings.items())
    return yd.Log(recs, truth, f"a synthetic log ({described})")


def chosen_files(*uploads) -> tuple | None:
    """What identifies the files in the uploaders, to tell whether the log shown was read from them."""
    return tuple(None if u is None else u.file_id for u in uploads) if any(uploads) else None


def replace_log(log: yd.Log, files: tuple | None = None) -> None:
    st.session_state["yd_log"] = log
    st.session_state["yd_log_files"] = files
    st.session_state["yd_log_version"] = st.session_state.get("yd_log_version", 0) + 1
    st.session_state["yd_error"] = None
    st.session_state["yd_opened"] = None


if st.session_state.get("yd_log") is None:
    replace_log(synthetic(SYNTHETIC))

# ----------------------------------------------------------------------------- the log
st.subheader("The log")
source = choice(st.radio, "Where the log comes from", ["Synthetic log", "Upload files"], "yd_source", horizontal=True)
progress = st.empty()
if source == "Synthetic log":
    with st.form("yd_synthetic", border=True):
        cells = st.columns(5)
        settings = {
            "users": cells[0].number_input("Users", 1, 100_000, SYNTHETIC["users"], key="yd_users"),
            "list_length": cells[1].number_input("List length", 1, 200, SYNTHETIC["list_length"], key="yd_list_length"),
            "relevant": cells[2].number_input("Relevant per user", 1, 100, SYNTHETIC["relevant"], key="yd_relevant"),
            "quality": cells[3].slider("Model quality", 0.0, 1.0, SYNTHETIC["quality"], 0.05, key="yd_quality",
                                       help="0 ranks at random; 1 puts most relevant items, best graded first, on top."),
            "seed": cells[4].number_input("Random seed", 0, 10_000, SYNTHETIC["seed"], key="yd_seed"),
        }
        generate = st.form_submit_button("Generate and evaluate", type="primary")
    if generate:
        if settings["users"] * settings["list_length"] > MAX_ROWS:
            st.session_state["yd_error"] = (f"{settings['users']:,} users × {settings['list_length']} items is more "
                                            f"than the {MAX_ROWS:,} rows this page evaluates; choose fewer.")
        else:
            progress.progress(0.3, text="Generating the log…")
            replace_log(synthetic(settings))
else:
    st.markdown(FORMATS_HELP)
    left, right = st.columns(2)
    with left:
        recs_file = st.file_uploader("Recommendations file", key="yd_recs_file")
        recs_format = choice(st.selectbox, "Its format", list(FORMAT_LABELS), "yd_recs_format", format_func=FORMAT_LABELS.get)
    with right:
        truth_file = st.file_uploader("Ground-truth file", key="yd_truth_file")
        truth_format = choice(st.selectbox, "Its format", list(FORMAT_LABELS), "yd_truth_format",
                              format_func=FORMAT_LABELS.get)
    keep_best = st.checkbox("Keep the best-ranked copy of an item recommended twice to a user", key="yd_keep_best",
                            help="Off: such a log is refused, since the item would count twice as a hit. On: each "
                                 "repeated (user, item) pair keeps its best-ranked row and the others are left out.")
    if st.button("Read and evaluate the files", type="primary", disabled=not (recs_file and truth_file), key="yd_read"):
        progress.progress(0.2, text="Reading and checking the files…")
        try:
            log = yd.load_files(yd.Upload(recs_file.name, recs_file.getvalue(), recs_format),
                                yd.Upload(truth_file.name, truth_file.getvalue(), truth_format), keep_best)
        except ValueError as error:
            st.session_state["yd_error"] = str(error)
        else:
            replace_log(log, chosen_files(recs_file, truth_file))
    chosen = chosen_files(recs_file, truth_file)
    if chosen is not None and chosen != st.session_state.get("yd_log_files"):
        stale_notice.warning(
            f"**Old results.** Everything below is still {text.markdown(st.session_state['yd_log'].source)}, "
            "not the files you chose: press **Read and evaluate the files** to see yours.", icon="⏳")

if st.session_state.get("yd_error"):
    st.error(f"**Not loaded:** {text.markdown(st.session_state['yd_error'])}  \n"
             "The results below are still those of the previous log.", icon="🚫")
log: yd.Log = st.session_state["yd_log"]
st.caption(f"Showing {text.markdown(log.source)}: {len(log.recommendations):,} recommendation rows, "
           f"{len(log.ground_truth):,} ground-truth rows. {TIE_RULE}")

# ----------------------------------------------------------------------------- settings
metrics = st.multiselect("Metrics", list(batch.METRICS), default=list(batch.METRICS), key="yd_metrics",
                         format_func=yd.LABELS.get) or list(batch.METRICS)
cells = st.columns(3)
ks = cells[0].multiselect("K values", K_OPTIONS, default=[5, 10, 20], key="yd_ks") or [10]
gain = choice(cells[1].radio, "NDCG gain", GAINS, "yd_gain", horizontal=True)
denominator = choice(cells[2].radio, "AP denominator", AP_DENOMINATORS, "yd_denominator", horizontal=True,
                     format_func={"min": "min(|Rel|, K)", "relevant": "|Rel|", "hits": "hits"}.get)
ks = sorted(ks)

cache_key = (st.session_state["yd_log_version"], tuple(ks), tuple(metrics), gain, denominator)
cache = st.session_state.get("yd_cache")
if cache is None or cache["key"] != cache_key:
    progress.progress(0.6, text=f"Evaluating {log.ground_truth['user'].nunique():,} users…")
    longest = int(log.recommendations.groupby("user").size().max()) if len(log.recommendations) else 1
    curve_ks = yd.curve_ks(ks, longest)
    try:
        per_user_all = batch.evaluate(log.recommendations, log.ground_truth, curve_ks, metrics=metrics,
                                      gain=gain, denominator=denominator)
    except ValueError as error:  # grades too large for the chosen gain: the settings can fix it
        progress.empty()
        st.error(f"**Not evaluated:** {text.markdown(error)}")
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
st.subheader("Trap scan")
traps = cache["traps"]
found = int((traps["users"] > 0).sum())
st.markdown(f"**{found} of {len(traps)} traps found** before any number is computed: how many users each "
            "touches, what this page does about it, and how other libraries treat the same thing.")
left, right = st.columns([7, 4])
with left:
    show_table(yd.trap_table(traps),
               column_config={"trap": st.column_config.TextColumn(width=320),
                              "users": st.column_config.NumberColumn(width=70),
                              "rows": st.column_config.NumberColumn(width=70)})
with right:
    st.markdown("\n".join(f"- {note}" for note in yd.trap_notes(traps)) or "No trap in this log.")

with overview_area:
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**Means over {summary.users['evaluated']:,} users**")
        show_table(yd.summary_table(summary.means, ks, metrics),
                   column_config={f"K = {k}": st.column_config.NumberColumn(format="%.4f") for k in ks})
        show_table(yd.users_table(summary.users))
    with right:
        main_column = batch.column_name(main_metric, main_k)
        st.plotly_chart(figure(f"spread {main_column}", lambda: batch_charts.histograms(
            per_user, [main_column], per_row=1, title=f"Spread of {yd.column_label(main_column)} over users")),
                        key="yd_main_histogram")

st.subheader("Spread over users")
hist_k = choice(st.selectbox, "K for the histograms", ks, "yd_hist_k", index=ks.index(main_k))
hist_columns = [batch.column_name(m, hist_k) for m in metrics]
st.plotly_chart(figure(f"histograms {hist_k}", lambda: batch_charts.histograms(per_user_all, hist_columns)),
                key="yd_histograms")

st.subheader("Mean against K")
at_k = [m for m in metrics if m != "reciprocal_rank"] or metrics
st.plotly_chart(figure("against K", lambda: batch_charts.metric_vs_k(yd.curves(summary.means, curve_ks, at_k), ks)),
                key="yd_vs_k")

# ----------------------------------------------------------------------------- worst users
st.subheader("Worst users")
worst_column = choice(st.selectbox, "Rank users by", columns, "yd_worst_column",
                      index=columns.index(batch.column_name(main_metric, main_k)), format_func=yd.column_label)
worst = yd.worst_users(per_user, worst_column)
show_table(worst.rename(columns={c: yd.column_label(c) for c in columns}),
           column_config={yd.column_label(c): st.column_config.NumberColumn(format="%.4f") for c in columns})
st.caption(f"The {len(worst)} lowest {yd.column_label(worst_column)} of {len(per_user):,} users (ties: the "
           "user listed first). All columns of every user are in the download below.")
left, right = st.columns([2, 3])
with left:
    chosen = choice(st.selectbox, "User to explain", worst["user"].tolist(), "yd_worst_user")
    if st.button("Open this user in the scenario", key="yd_open", disabled=chosen is None):
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
        st.success(f"User **{text.markdown(st.session_state['yd_opened'])}** is now the shared scenario (list, "
                   f"ground truth, K = {st.session_state['k']}): every teaching page explains this user.", icon="🔎")
        for path, label, icon in TEACHING_PAGES:
            st.page_link(path, label=label, icon=icon)

st.download_button("Download the per-user results (CSV)", lambda: per_user.to_csv().encode("utf-8"),
                   file_name="per_user_metrics.csv", mime="text/csv", on_click="ignore", key="yd_download")

pitfalls(*PITFALLS)
