"""Random and perfect baselines: how your list compares with every random order of the same items."""

import streamlit as st

from metrics import baselines
from metrics.registry import BY_KEY
from ui import formulas, lab_charts
from ui.scenario import ranking_scenario
from ui.widgets import chance_delta, formula, page, pitfalls, show_table

# baselines.KEYS -> the registry metric whose label and meaning describe it
REGISTRY_KEY = {"precision_at_k": "precision_at_k", "recall_at_k": "recall_at_k", "hit_rate_at_k": "hit_rate_at_k",
                "average_precision_at_k": "ap_at_k", "reciprocal_rank": "rr", "ndcg_at_k": "ndcg_graded_at_k"}
ORDERINGS = 10_000

page(
    "Random and perfect baselines", "🎰",
    "Is 0.35 good? It depends on what a **random** order of the same items would score and what the **best** "
    "order could score. Here your recommended list is compared with 10,000 random orderings of its own items: "
    "where it falls in their histogram, the exact expected random score, the perfect score and the "
    "chance-corrected score (0 = no better than chance, 1 = perfect).",
)
formula_area = st.container()
case, _, results = ranking_scenario(show_denominator=True)


@st.cache_data(max_entries=32, show_spinner=False)
def _samples(items: tuple, truth: tuple, k: int, gain: str, denominator: str):
    return baselines.random_distribution(list(items), dict(truth), k, n=ORDERINGS, seed=0, gain=gain,
                                         denominator=denominator)


truth, options = dict(case.ground_truth), {"gain": case.gain, "denominator": case.ap_denominator}
samples = _samples(tuple(case.recommended), tuple(truth.items()), case.k, case.gain, case.ap_denominator)
table = baselines.baseline_table(case.recommended, truth, case.k, samples, **options)
labels = {key: BY_KEY[REGISTRY_KEY[key]].display_label(case.k if BY_KEY[REGISTRY_KEY[key]].needs_k else None)
          for key in baselines.KEYS}
rows = table.set_index("metric")

with formula_area:
    m = baselines.relevant_candidates(case.recommended, truth)
    n = len(case.recommended)
    ap = rows.loc["average_precision_at_k"]
    formula(r"\mathbb{E}[\mathrm{P@K}]=\frac{\lvert \mathrm{Rel}\cap C\rvert\cdot\min(K,N)}{K\cdot N}",
            rf"\mathbb{{E}}[\mathrm{{P@{case.k}}}]=\frac{{{m}\cdot{min(case.k, n)}}}{{{case.k}\cdot{n}}}"
            rf"={rows.loc['precision_at_k', 'expected']:.4f}" if n else None)
    formula(r"\text{chance-corrected}=\frac{\text{value}-\mathbb{E}[\text{random}]}{\text{perfect}-\mathbb{E}[\text{random}]}",
            rf"\mathrm{{AP@{case.k}}}:\ \frac{{{ap['value']:.4f}-{ap['expected']:.4f}}}{{{ap['perfect']:.4f}-{ap['expected']:.4f}}}"
            rf"={ap['chance_corrected']:.4f}" if ap["chance_corrected"] == ap["chance_corrected"] else None)

with results:
    st.subheader("Your list against chance")
    st.caption(f"Under each score: the share of the {ORDERINGS:,} random orderings of your items it beats (ties "
               "count half). Green: above chance; grey: at chance; red: below.")
    cells = st.columns(2)
    for index, key in enumerate(baselines.KEYS):
        row = rows.loc[key]
        corrected = "undefined" if row["chance_corrected"] != row["chance_corrected"] else f"{row['chance_corrected']:.2f}"
        with cells[index % 2]:
            st.metric(labels[key], f"{row['value']:.4f}", border=True, **chance_delta(row["beats"]),
                      help=f"E[random] = {row['expected']:.4f}, perfect = {row['perfect']:.4f}, "
                           f"chance-corrected = {corrected}. {BY_KEY[REGISTRY_KEY[key]].meaning}")
    if n:
        best = rows["beats"].idxmax()
        st.markdown(f"Your list beats **{rows.loc[best, 'beats']:.0%}** of random orderings on {labels[best]}; "
                    f"ties count half, so a score every ordering shares sits at 50%.")

if n:
    st.plotly_chart(lab_charts.random_histograms(samples, table, labels), key="random_histograms")
else:
    st.info("The recommended list is empty: there is nothing to put in a random order. Add an item to the list.")
shown = table.assign(metric=[labels[key] for key in table["metric"]])
show_table(shown.rename(columns={"value": "your list", "expected": "E[random] (exact)", "perfect": "perfect order",
                                 "beats": "beats (share)", "chance_corrected": "chance-corrected"}),
           column_config={c: st.column_config.NumberColumn(format="%.4f")
                          for c in ("your list", "E[random] (exact)", "perfect order", "beats (share)", "chance-corrected")})
st.caption("A dash in chance-corrected means undefined: the perfect order scores no better than chance. "
           f"{ORDERINGS:,} random orderings of the {n} recommended items, random seed 0. The expectation is exact "
           "(closed forms, see metrics/baselines.py), not the histogram's mean.")

pitfalls(
    "A random ranker is not a zero baseline: with 3 relevant items among 10 and K = 10, every order has "
    "Precision@10 = 0.3, so that number says nothing about the ordering at all.",
    "The perfect score can be below 1: a relevant item that was never recommended caps Recall and NDCG.",
    "The chance-corrected score is undefined when the perfect order scores no better than chance "
    "(for example when every item is relevant).",
)
