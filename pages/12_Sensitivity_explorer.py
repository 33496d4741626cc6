"""Sensitivity explorer: one relevant item through every rank (or K through every cut-off), every metric as a line."""

import time

import streamlit as st

from metrics import registry, whatif
from metrics.ndcg import ndcg_tables
from metrics.ranked_metrics import average_precision_table, first_hit_rank
from metrics.topn_metrics import topn_counts
from ui import formulas, lab_charts
from ui.widgets import metric_cards, page, pitfalls

KEYS = ("precision_at_k", "recall_at_k", "hit_rate_at_k", "ap_at_k", "rr", "ndcg_binary_at_k")
MODES = {"rank": "Move the relevant item through every rank", "k": "Grow K from 1 to N"}

page(
    "Sensitivity explorer: one item through every rank", "🎚️",
    "A list of **N** items with one relevant item, **★**. Move it through every rank, or grow K, and see the "
    "shape of each metric: NDCG falls as 1/log₂(i+1), RR as 1/i, P@K and HR@K stay flat inside the top K "
    "and drop to 0 the moment the item leaves it. Press **Next ▶**, switch on **Auto-play**, or press ▶ Play under the chart to walk through.",
)
for name, value in {"sens_n": 10, "sens_k": 5, "sens_step": 1, "sens_missing": 0, "sens_mode": "rank",
                    "sens_playing": False, "_sens_last_tick": 0.0}.items():
    st.session_state.setdefault(name, value)


def _step(by: int) -> None:
    st.session_state["sens_step"] = whatif.next_step(st.session_state["sens_step"], st.session_state["sens_n"], by)


def _copy(source: str, target: str) -> None:
    st.session_state[target] = st.session_state[source]
    st.session_state["sens_step"] = min(st.session_state["sens_step"], st.session_state["sens_n"])
    st.session_state["sens_k"] = min(st.session_state["sens_k"], st.session_state["sens_n"])


def _bound(widget, label, state_key, **kwargs):
    widget_key = f"_{state_key}_widget"
    st.session_state[widget_key] = st.session_state[state_key]
    return widget(label, key=widget_key, on_change=_copy, args=(widget_key, state_key), **kwargs)


controls = st.columns([3, 2, 2, 2])
with controls[0]:
    _bound(st.radio, "What moves", "sens_mode", options=list(MODES), format_func=MODES.get, horizontal=True)
with controls[1]:
    _bound(st.number_input, "Items N", "sens_n", min_value=2, max_value=50, step=1)
with controls[2]:
    _bound(st.number_input, "Relevant but never recommended", "sens_missing", min_value=0, max_value=5, step=1,
           help="More relevant items that are in neither list: they cap Recall and NDCG below 1.")
n, mode, missing = int(st.session_state["sens_n"]), st.session_state["sens_mode"], int(st.session_state["sens_missing"])
step_label = "Rank of ★" if mode == "rank" else "K"
fixed_label = "K (cut-off)" if mode == "rank" else "Rank of ★"
steps = st.columns([5, 2, 2, 3, 5])  # the toggle column fits "Auto-play" and its help icon at 1280 px
with steps[0]:
    _bound(st.slider, step_label, "sens_step", min_value=1, max_value=n)
steps[1].button("◀ Back", on_click=_step, args=(-1,), width="stretch", key="_sens_back")
steps[2].button("Next ▶", on_click=_step, args=(1,), width="stretch", key="_sens_next")
with steps[3]:
    _bound(st.toggle, "Auto-play", "sens_playing", help="Advance one step a second; the cards and formulas follow.")
with steps[4]:
    _bound(st.slider, fixed_label, "sens_k", min_value=1, max_value=n)

if st.session_state["sens_playing"]:
    @st.fragment(run_every=1.0)
    def _ticker() -> None:
        """Each second, advance one step and rerun the page; stop at the last step."""
        if time.monotonic() - st.session_state["_sens_last_tick"] < 0.9:
            return
        st.session_state["_sens_last_tick"] = time.monotonic()
        _step(1)
        if st.session_state["sens_step"] == st.session_state["sens_n"]:
            st.session_state["sens_playing"] = False
        st.rerun(scope="app")

    st.session_state["_sens_last_tick"] = time.monotonic()
    _ticker()

step, fixed = int(st.session_state["sens_step"]), int(st.session_state["sens_k"])
rank, k = (step, fixed) if mode == "rank" else (fixed, step)
case = whatif.one_item_scenario(n, rank, k, missing)
values = {key: registry.BY_KEY[key].compute(case) for key in KEYS}

st.subheader(f"★ at rank {rank}, K = {k}")
metric_cards(values, group="sensitivity", k=k, columns=3)

counts = topn_counts(case.recommended, case.ground_truth, k)
ap_hits = average_precision_table(case.recommended, case.ground_truth, k)
ap_hits = ap_hits[ap_hits["hit"]]
general, substituted = st.columns(2)
with general:
    st.caption("Formulas")
    st.latex(r"\mathrm{NDCG@K}=\frac{\sum_{i=1}^{K}\mathrm{rel}_i/\log_2(i+1)}{\mathrm{IDCG@K}}")
    st.latex(r"\mathrm{RR}=\frac{1}{\mathrm{rank}_{\text{first hit}}},\qquad " + registry.BY_KEY["precision_at_k"].latex)
    st.latex(r"\mathrm{AP@K}=\frac{\sum_{i\le K} \mathrm{P@}i\cdot \mathrm{rel}_i}{\min(\lvert\mathrm{Rel}\rvert,K)}")
with substituted:
    st.caption("With your numbers")
    st.latex(formulas.ndcg_latex(*ndcg_tables(case.recommended, case.binary_truth, k), k, values["ndcg_binary_at_k"]))
    st.latex(formulas.reciprocal_rank_latex(first_hit_rank(case.recommended, case.ground_truth), values["rr"])
             + r",\qquad " + formulas.precision_at_k_latex(counts["hits"], k, values["precision_at_k"]))
    st.latex(formulas.average_precision_latex(ap_hits["rank"], ap_hits["hits_so_far"], float(ap_hits["contribution"].sum()),
                                              min(counts["n_relevant"], k), k, values["ap_at_k"]))

sweep = whatif.rank_sweep(n, k, missing) if mode == "rank" else whatif.k_sweep(n, rank, missing)
x = "rank" if mode == "rank" else "k"
title = (f"Each metric as ★ moves down the list (K = {k})" if mode == "rank"
         else f"Each metric as K grows (★ at rank {rank})")
st.plotly_chart(lab_charts.metric_lines(sweep, x, KEYS, step, k if mode == "rank" else None, title=title),
                key="sens_lines")
st.caption("The big markers follow the step; ▶ Play on the chart animates them through every step "
           "(the cards and formulas follow the slider and the step buttons).")

pitfalls(
    "With one relevant item, HR@K and Recall@K are the same number, and P@K is HR@K divided by K.",
    "AP@K with one relevant item equals RR cut off at K: both are 1/rank inside the top K.",
    "RR has no cut-off here (as trec_eval): it keeps falling as 1/i past K, where the @K metrics are already 0.",
)
