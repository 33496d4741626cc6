"""Sampled negatives: HR@10 and NDCG@10 on 1 true item + n sampled items, against the full catalogue."""

from dataclasses import replace

import streamlit as st

from metrics import sampled
from content import numbers
from content.i18n import _
from content.pages import sampled as words
from ui.figures import lab_charts
from ui.integer_box import integer_box
from ui.widgets import chart, formula, page, pitfalls

page(_(words.TITLE), "🧪", _(words.IDEA))
st.session_state.setdefault("sampled_sim", sampled.Simulation())
st.session_state.setdefault("sampled_n", 100)

formula_area = st.container()

with st.form("sampled_settings", border=True):
    sim = st.session_state["sampled_sim"]
    cols = st.columns(3)
    with cols[0]:
        n_items = integer_box(_(words.CATALOGUE), min_value=20, max_value=200_000, value=sim.n_items, key="sampled_items")
    with cols[1]:
        n_users = integer_box(_(words.USERS), min_value=10, max_value=100_000, value=sim.n_users, key="sampled_users")
    with cols[2]:
        seed = integer_box(_(words.SEED), min_value=0, max_value=2**31 - 1, value=sim.seed, key="sampled_seed")
    cols = st.columns(3)
    # select sliders: Streamlit's slider writes its numbers with a point in every language (0.05, not 0,05)
    a_hit = cols[0].select_slider(_(words.A_HIT), sampled.HIT_SHARES, sim.a_hit_share,
                                  format_func=lambda v: numbers.number(v, 2))
    b_spread = cols[1].select_slider(_(words.B_SPREAD), sampled.SPREADS, sim.b_spread,
                                     format_func=lambda v: numbers.number(v, 3))
    cols[2].markdown(_(words.A_REST))
    if st.form_submit_button(_(words.SIMULATE)):
        st.session_state["sampled_sim"] = replace(sim, n_items=int(n_items), n_users=int(n_users), seed=int(seed),
                                                  a_hit_share=float(a_hit), b_spread=float(b_spread))
        st.session_state["sampled_n"] = min(st.session_state["sampled_n"], int(n_items) - 1)
        st.rerun()

sim = st.session_state["sampled_sim"]
widget_n = "_sampled_n_widget"
st.session_state[widget_n] = st.session_state["sampled_n"]
choices = sorted({c for c in (*sampled.default_negatives(sim.n_items), 50, 100, st.session_state["sampled_n"])
                  if 1 <= c <= sim.n_items - 1})
st.select_slider(_(words.NEGATIVES), choices, key=widget_n,
          on_change=lambda: st.session_state.update(sampled_n=st.session_state[widget_n]))
n = int(st.session_state["sampled_n"])


@st.cache_data(max_entries=16, show_spinner=False)
def _results(sim: sampled.Simulation, n: int):
    return sampled.compare(sim, n), sampled.sweep(sim, sorted({*sampled.default_negatives(sim.n_items), n}))


table, sweep = _results(sim, n)
example_rank = max(2, sim.n_items // 50)
with formula_area:
    # The invisible rule keeps the fraction's numerator inside the formula's box (KaTeX clips it by 1 px).
    formula(rf"\mathbb{{E}}[\mathrm{{rank}}_{{\text{{{_(words.SAMPLED)}}}}}]=1+(r-1)\,\frac{{n}}{{N-1}}\rule{{0pt}}{{1.9em}}",
            rf"r={example_rank}:\ 1+{example_rank - 1}\cdot\frac{{{n}}}{{{sim.n_items - 1}}}"
            rf"={numbers.latex(sampled.expected_sampled_rank(example_rank, sim.n_items, n), 2)}")
    hr, nd = st.columns(2)
    hr.latex(r"\mathrm{HR@10}=\frac{1}{|U|}\sum_{u}\mathbb{1}[\mathrm{rank}_u\le 10]")
    nd.latex(r"\mathrm{NDCG@10}=\frac{1}{|U|}\sum_{u}\frac{\mathbb{1}[r_u\le 10]}{\log_2(r_u+1)},\quad r_u=\mathrm{rank}_u")
cell = table.set_index(["model", "evaluation"])
st.subheader(words.heading(sim.k, sim.n_items, n))
for metric, label in (("hit_rate", f"HR@{sim.k}"), ("ndcg", f"NDCG@{sim.k}")):
    cols = st.columns(4)
    for index, (model, evaluation) in enumerate([("A", "full"), ("B", "full"), ("A", "sampled"), ("B", "sampled")]):
        full = evaluation == "full"
        cols[index].metric(words.card_label(label, model, full, n), numbers.number(cell.loc[(model, evaluation), metric], 4),
                           border=True, help=words.card_help(model, full, n))

labels = {"hit_rate": f"HR@{sim.k}", "ndcg": f"NDCG@{sim.k}"}
for row in sampled.winners(table).itertuples():
    if row.flips:
        st.warning(words.flips(labels[row.metric], row.full, row.sampled, n), icon="🔀")
    else:
        st.success(words.same_winner(labels[row.metric], row.full, n))

left, right = st.columns(2)
with left:
    chart(lab_charts.sampled_bars(table, sim.k), key="sampled_bars")
with right:
    chart(lab_charts.sampled_sweep(sweep, "hit_rate", f"HR@{sim.k}", n, sim.n_items - 1), key="sampled_sweep")
st.caption(_(words.CHART_CAPTION))

pitfalls(*[_(line) for line in words.PITFALLS])
