"""Sensitivity explorer: one relevant item through every rank (or K through every cut-off), every metric as a line."""

import time

import streamlit as st

from metrics import registry, whatif
from metrics.ndcg import ndcg_tables
from metrics.ranked_metrics import average_precision_table, first_hit_rank
from metrics.topn_metrics import topn_counts
from content import labs
from content.i18n import _
from content.pages import sensitivity as words
from ui.markup import formulas
from ui.figures import lab_charts
from ui.widgets import chart, metric_cards, page, pitfalls

KEYS = ("precision_at_k", "recall_at_k", "hit_rate_at_k", "ap_at_k", "rr", "ndcg_binary_at_k")

page(_(words.TITLE), "🎚️", _(words.IDEA))
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
    _bound(st.radio, _(words.WHAT_MOVES), "sens_mode", options=list(words.MODES), format_func={m: _(label) for m, label in words.MODES.items()}.__getitem__, horizontal=True)
with controls[1]:
    _bound(st.number_input, _(words.ITEMS_N), "sens_n", min_value=2, max_value=50, step=1)
with controls[2]:
    _bound(st.number_input, _(words.MISSING), "sens_missing", min_value=0, max_value=5, step=1,
           help=_(words.MISSING_HELP))
n, mode, missing = int(st.session_state["sens_n"]), st.session_state["sens_mode"], int(st.session_state["sens_missing"])
step_label = _(words.RANK_OF_STAR) if mode == "rank" else "K"
fixed_label = _(words.K_CUT_OFF) if mode == "rank" else _(words.RANK_OF_STAR)
steps = st.columns([5, 2, 2, 3, 5])  # the toggle column fits "Auto-play" and its help icon at 1280 px
with steps[0]:
    _bound(st.slider, step_label, "sens_step", min_value=1, max_value=n)
steps[1].button(_(words.BACK), on_click=_step, args=(-1,), width="stretch", key="_sens_back")
steps[2].button(_(words.NEXT), on_click=_step, args=(1,), width="stretch", key="_sens_next")
with steps[3]:
    _bound(st.toggle, _(words.AUTO_PLAY), "sens_playing", help=_(words.AUTO_PLAY_HELP))
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

st.subheader(words.heading(rank, k))
metric_cards(values, group="sensitivity", k=k, columns=3)

counts = topn_counts(case.recommended, case.ground_truth, k)
ap_hits = average_precision_table(case.recommended, case.ground_truth, k)
ap_hits = ap_hits[ap_hits["hit"]]
general, substituted = st.columns(2)
with general:
    st.caption(_(words.FORMULAS))
    st.latex(r"\mathrm{NDCG@K}=\frac{\sum_{i=1}^{K}\mathrm{rel}_i/\log_2(i+1)}{\mathrm{IDCG@K}}")
    st.latex(rf"\mathrm{{RR}}=\frac{{1}}{{\mathrm{{rank}}_{{\text{{{_(words.FIRST_HIT)}}}}}}},\qquad " + labs.formula_words(registry.BY_KEY["precision_at_k"].latex))
    st.latex(r"\mathrm{AP@K}=\frac{\sum_{i\le K} \mathrm{P@}i\cdot \mathrm{rel}_i}{\min(\lvert\mathrm{Rel}\rvert,K)}")
with substituted:
    st.caption(_(words.WITH_YOUR_NUMBERS))
    st.latex(formulas.ndcg_latex(*ndcg_tables(case.recommended, case.binary_truth, k), k, values["ndcg_binary_at_k"]))
    st.latex(formulas.reciprocal_rank_latex(first_hit_rank(case.recommended, case.ground_truth), values["rr"])
             + r",\qquad " + formulas.precision_at_k_latex(counts["hits"], k, values["precision_at_k"]))
    st.latex(formulas.average_precision_latex(ap_hits["rank"], ap_hits["hits_so_far"], float(ap_hits["contribution"].sum()),
                                              min(counts["n_relevant"], k), k, values["ap_at_k"]))

sweep = whatif.rank_sweep(n, k, missing) if mode == "rank" else whatif.k_sweep(n, rank, missing)
x = "rank" if mode == "rank" else "k"
title = words.chart_title(mode, rank, k)
chart(lab_charts.metric_lines(sweep, x, KEYS, step, k if mode == "rank" else None, title=title),
                key="sens_lines")
st.caption(_(words.CHART_CAPTION))

pitfalls(*[_(line) for line in words.PITFALLS])
