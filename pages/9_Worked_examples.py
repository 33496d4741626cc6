"""Every worked example of both seed documents, as a one-click preset."""

import pandas as pd
import streamlit as st

from metrics.seed_examples import EXAMPLES, SEED_1, SEED_2
from ui.state import load_example
from ui.widgets import page

page(
    "Worked examples", "📚",
    "Every example of the two documents this project comes from. **Load** puts the example into "
    "the scenario and opens the page that explains it. Each value is computed live; the column "
    "*document prints* shows what the document says. Where they differ, the note says why.",
)


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
                st.switch_page(load_example(example))
            st.dataframe(values_table(example), hide_index=True, width="stretch")
            for value in example.values:
                if value.note:
                    st.warning(f"**{value.label}:** {value.note}", icon="🔎")
            if example.note:
                st.caption(example.note)
