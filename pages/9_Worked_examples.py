"""Every worked example of both seed documents, as a one-click preset."""

import pandas as pd
import streamlit as st

from metrics.ndcg import ndcg_at_k, ndcg_tables
from metrics.registry import BY_KEY
from metrics.seed_examples import BY_KEY as EXAMPLE_BY_KEY
from metrics.seed_examples import EXAMPLES, SEED_1, SEED_2
from ui import formulas, shared_figures
from ui.state import load_example
from ui.widgets import formula, open_at_top, page, show_table

page(
    "Worked examples", "📚",
    "Every example of the two documents this project comes from. **Load** puts the example into "
    "the scenario and opens the page that explains it. Each value is computed live; the column "
    "*document prints* shows what the document says. Where they differ, the note says why.",
)

st.subheader("Where the documents print a wrong number")
st.markdown(
    "The first document prints NDCG@10 = **0.8290** for recommended 101..110 with relevant "
    "{101, 104, 107}. Its own code gives **0.82781**: written out, the sum cannot reach 0.8290."
)
misprint = EXAMPLE_BY_KEY["ndcg_binary"].data
actual, ideal = ndcg_tables(misprint["recommended"], misprint["ground_truth"], misprint["k"])
formula(BY_KEY["ndcg_binary_at_k"].latex,
        formulas.ndcg_latex(actual, ideal, misprint["k"],
                            ndcg_at_k(misprint["recommended"], misprint["ground_truth"], misprint["k"])))
st.plotly_chart(shared_figures.printed_vs_exact_chart(), key="examples_printed_vs_exact")


def values_table(example) -> pd.DataFrame:
    return pd.DataFrame([
        {"value": v.label, "document prints": v.printed or "(no number)", "exact": f"{v.exact:.5f}",
         "agrees": "—" if v.printed is None else ("✅" if not v.note else "❌ see note")}
        for v in example.values
    ])


for document in (SEED_1, SEED_2):
    st.header(document)
    for example in (e for e in EXAMPLES if e.document == document):
        with st.container(border=True):
            title, button = st.columns([5, 1])
            title.subheader(example.title)
            if button.button("Load ▶", key=f"examples_load_{example.key}", help="Load into the scenario and open its page"):
                open_at_top(load_example(example))
            show_table(values_table(example))
            # Several values can share one note (the RMSE example's six): show each note once, naming them all.
            notes: dict[str, list[str]] = {}
            for value in example.values:
                if value.note:
                    notes.setdefault(value.note, []).append(value.label)
            for note, labels in notes.items():
                st.warning(f"**{', '.join(labels)}:** {note}", icon="🔎")
            if example.note:
                st.caption(example.note)
