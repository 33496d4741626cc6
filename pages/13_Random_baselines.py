"""Random and perfect baselines: how your list compares with every random order of the same items."""

import streamlit as st

from content import metrics as metric_texts
from metrics import baselines
from metrics.registry import BY_KEY
from content import numbers
from content.i18n import _
from content.pages import random as words
from ui.figures import lab_charts
from ui.scenario import ranking_scenario
from ui.widgets import chart, chance_delta, formula, page, pitfalls, show_table

# baselines.KEYS -> the registry metric whose label and meaning describe it
REGISTRY_KEY = {"precision_at_k": "precision_at_k", "recall_at_k": "recall_at_k", "hit_rate_at_k": "hit_rate_at_k",
                "average_precision_at_k": "ap_at_k", "reciprocal_rank": "rr", "ndcg_at_k": "ndcg_graded_at_k"}
ORDERINGS = 10_000

page(_(words.TITLE), "🎰", words.idea(ORDERINGS))
formula_area = st.container()
case, _tables, results = ranking_scenario(show_denominator=True)


@st.cache_data(max_entries=32, show_spinner=False)
def _samples(items: tuple, truth: tuple, k: int, gain: str, denominator: str):
    return baselines.random_distribution(list(items), dict(truth), k, n=ORDERINGS, seed=0, gain=gain,
                                         denominator=denominator)


truth, options = dict(case.ground_truth), {"gain": case.gain, "denominator": case.ap_denominator}
samples = _samples(tuple(case.recommended), tuple(truth.items()), case.k, case.gain, case.ap_denominator)
table = baselines.baseline_table(case.recommended, truth, case.k, samples, **options)
labels = {key: metric_texts.label(REGISTRY_KEY[key], case.k) for key in baselines.KEYS}
rows = table.set_index("metric")

with formula_area:
    m = baselines.relevant_candidates(case.recommended, truth)
    n = len(case.recommended)
    ap = rows.loc["average_precision_at_k"]
    formula(r"\mathbb{E}[\mathrm{P@K}]=\frac{\lvert \mathrm{Rel}\cap C\rvert\cdot\min(K,N)}{K\cdot N}",
            rf"\mathbb{{E}}[\mathrm{{P@{case.k}}}]=\frac{{{m}\cdot{min(case.k, n)}}}{{{case.k}\cdot{n}}}"
            rf"={numbers.latex(rows.loc['precision_at_k', 'expected'])}" if n else None)
    corrected, value, random_, perfect = (_(w) for w in (words.CHANCE_CORRECTED, words.VALUE, words.RANDOM, words.PERFECT))
    formula(rf"\text{{{corrected}}}=\frac{{\text{{{value}}}-\mathbb{{E}}[\text{{{random_}}}]}}"
            rf"{{\text{{{perfect}}}-\mathbb{{E}}[\text{{{random_}}}]}}",
            rf"\mathrm{{AP@{case.k}}}:\ \frac{{{numbers.latex(ap['value'])}-{numbers.latex(ap['expected'])}}}"
            rf"{{{numbers.latex(ap['perfect'])}-{numbers.latex(ap['expected'])}}}"
            rf"={numbers.latex(ap['chance_corrected'])}" if ap["chance_corrected"] == ap["chance_corrected"] else None)

with results:
    st.subheader(_(words.SUBHEADER))
    st.caption(words.cards_caption(ORDERINGS))
    cells = st.columns(2)
    for index, key in enumerate(baselines.KEYS):
        row = rows.loc[key]
        with cells[index % 2]:
            st.metric(labels[key], numbers.number(row["value"], 4), border=True, **chance_delta(row["beats"]),
                      help=words.card_help(row["expected"], row["perfect"], row["chance_corrected"],
                                           _(BY_KEY[REGISTRY_KEY[key]].meaning)))
    if n:
        best = rows["beats"].idxmax()
        st.markdown(words.best_beats(rows.loc[best, "beats"], labels[best]))

if n:
    chart(lab_charts.random_histograms(samples, table, labels), key="random_histograms")
else:
    st.info(_(words.EMPTY))
shown = table.assign(metric=[labels[key] for key in table["metric"]])
headers = {name: words.COLUMNS[name] for name in ("value", "expected", "perfect", "beats", "chance_corrected")}
shown = shown.rename(columns=headers)
show_table(shown.style.format(lambda v: numbers.number(v, 4), subset=list(headers.values()), na_rep="—"),
           column_config={shown_name: st.column_config.Column(label=_(words.COLUMNS[name]))
                          for name, shown_name in {"metric": "metric", **headers}.items()})
st.caption(words.table_caption(ORDERINGS, n))

pitfalls(*[_(line) for line in words.PITFALLS])
