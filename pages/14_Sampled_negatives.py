"""Sampled negatives: HR@10 and NDCG@10 on 1 true item + n sampled items, against the full catalogue."""

from dataclasses import replace

import streamlit as st

from metrics import sampled
from ui import lab_charts
from ui.widgets import formula, page, pitfalls

page(
    "Sampled negatives: a pitfall", "🧪",
    "Many papers rank each user's held-out item among **n = 100 sampled negatives** instead of the whole "
    "catalogue. On a synthetic catalogue, model **A** (*hit or miss*: the item at the very top for some users, "
    "anywhere for the rest) beats model **B** (*always close*: the item in the top few percent, rarely the top 10) "
    "on the full ranking. Sample negatives and both scores inflate — and B overtakes A "
    "(Krichene & Rendle, *On Sampled Metrics for Item Recommendation*, KDD 2020).",
)
st.session_state.setdefault("sampled_sim", sampled.Simulation())
st.session_state.setdefault("sampled_n", 100)

formula_area = st.container()

with st.form("sampled_settings", border=True):
    sim = st.session_state["sampled_sim"]
    cols = st.columns(3)
    n_items = cols[0].number_input("Catalogue size N (items)", min_value=20, max_value=200_000, value=sim.n_items, step=1000)
    n_users = cols[1].number_input("Users", min_value=10, max_value=100_000, value=sim.n_users, step=500)
    seed = cols[2].number_input("Random seed", min_value=0, max_value=2**31 - 1, value=sim.seed, step=1)
    cols = st.columns(3)
    a_hit = cols[0].slider("Model A: share of users it nails (top 0.05%)", 0.0, 1.0, sim.a_hit_share, 0.05)
    b_spread = cols[1].slider("Model B: share of the catalogue above it, at most", 0.001, 0.2, sim.b_spread, 0.001,
                              format="%.3f")
    cols[2].markdown("Model A puts the rest anywhere in the catalogue (uniformly).")
    if st.form_submit_button("Simulate"):
        st.session_state["sampled_sim"] = replace(sim, n_items=int(n_items), n_users=int(n_users), seed=int(seed),
                                                  a_hit_share=float(a_hit), b_spread=float(b_spread))
        st.session_state["sampled_n"] = min(st.session_state["sampled_n"], int(n_items) - 1)
        st.rerun()

sim = st.session_state["sampled_sim"]
widget_n = "_sampled_n_widget"
st.session_state[widget_n] = st.session_state["sampled_n"]
choices = sorted({c for c in (*sampled.default_negatives(sim.n_items), 50, 100, st.session_state["sampled_n"])
                  if 1 <= c <= sim.n_items - 1})
st.select_slider("Sampled negatives n per user (the last step is the whole catalogue)", choices, key=widget_n,
          on_change=lambda: st.session_state.update(sampled_n=st.session_state[widget_n]))
n = int(st.session_state["sampled_n"])


@st.cache_data(max_entries=16, show_spinner=False)
def _results(sim: sampled.Simulation, n: int):
    return sampled.compare(sim, n), sampled.sweep(sim, sorted({*sampled.default_negatives(sim.n_items), n}))


table, sweep = _results(sim, n)
example_rank = max(2, sim.n_items // 50)
with formula_area:
    # The invisible rule keeps the fraction's numerator inside the formula's box (KaTeX clips it by 1 px).
    formula(r"\mathbb{E}[\mathrm{rank}_{\text{sampled}}]=1+(r-1)\,\frac{n}{N-1}\rule{0pt}{1.9em}",
            rf"r={example_rank}:\ 1+{example_rank - 1}\cdot\frac{{{n}}}{{{sim.n_items - 1}}}"
            rf"={sampled.expected_sampled_rank(example_rank, sim.n_items, n):.2f}")
    hr, nd = st.columns(2)
    hr.latex(r"\mathrm{HR@10}=\frac{1}{|U|}\sum_{u}\mathbb{1}[\mathrm{rank}_u\le 10]")
    nd.latex(r"\mathrm{NDCG@10}=\frac{1}{|U|}\sum_{u}\frac{\mathbb{1}[r_u\le 10]}{\log_2(r_u+1)},\quad r_u=\mathrm{rank}_u")
cell = table.set_index(["model", "evaluation"])
st.subheader(f"HR@{sim.k} and NDCG@{sim.k}: full catalogue of {sim.n_items:,} items vs {n} sampled negatives")
for metric, label in (("hit_rate", f"HR@{sim.k}"), ("ndcg", f"NDCG@{sim.k}")):
    cols = st.columns(4)
    for index, (model, evaluation) in enumerate([("A", "full"), ("B", "full"), ("A", "sampled"), ("B", "sampled")]):
        where = "full" if evaluation == "full" else f"n={n}"
        cols[index].metric(f"{label} {model}, {where}", f"{cell.loc[(model, evaluation), metric]:.4f}", border=True,
                           help=f"Model {model}, {'ranked against the whole catalogue' if evaluation == 'full' else f'ranked among {n} sampled negatives'}.")

labels = {"hit_rate": f"HR@{sim.k}", "ndcg": f"NDCG@{sim.k}"}
for row in sampled.winners(table).itertuples():
    if row.flips:
        st.warning(f"**{labels[row.metric]} flips:** model {row.full} wins on the full catalogue, model {row.sampled} "
                   f"wins with {n} sampled negatives.", icon="🔀")
    else:
        st.success(f"**{labels[row.metric]}:** the same winner ({row.full}) on the full catalogue and with {n} "
                   "sampled negatives.")

left, right = st.columns(2)
with left:
    st.plotly_chart(lab_charts.sampled_bars(table, sim.k), key="sampled_bars")
with right:
    st.plotly_chart(lab_charts.sampled_sweep(sweep, "hit_rate", f"HR@{sim.k}", n, sim.n_items - 1), key="sampled_sweep")
st.caption("The rank of each held-out item under each model is simulated once; every n draws its own sample of "
           "negatives from the same catalogue. With n = N − 1 every negative is drawn, which is the full ranking.")

pitfalls(
    "A sampled metric is not a smaller copy of the full one: with 100 negatives, an item at rank 200 of "
    "10,000 lands around rank 3, so a model that is *always close* looks perfect.",
    "Comparing two models with sampled metrics can give the opposite order from the full ranking; "
    "Krichene & Rendle recommend full ranking, or a correction of the sampled metric.",
    "Numbers from papers that use different n (50, 100, 1000) cannot be compared with each other.",
)
