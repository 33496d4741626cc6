"""Every worked example of both seed documents, as a one-click preset."""

import pandas as pd
import streamlit as st

from content import examples as example_words
from content import i18n
from content.i18n import _
from content.pages import examples as words
from metrics.ndcg import ndcg_at_k, ndcg_tables
from metrics.registry import BY_KEY
from metrics.seed_examples import BY_KEY as EXAMPLE_BY_KEY
from metrics.seed_examples import EXAMPLES, SEED_1, SEED_2, printed_vs_exact
from ui.figures import charts
from ui.markup import formulas
from ui.state import load_example
from ui.widgets import chart, formula, open_at_top, page, show_table


@st.cache_resource(max_entries=8, show_spinner=False)
def _printed_vs_exact_chart(reader_language: str):
    """The documents' printed numbers against the exact ones, labelled in ``reader_language``."""
    return charts.printed_vs_exact(printed_vs_exact(label=example_words.label))



page(_(words.TITLE), "📚", _(words.INTRO))

st.subheader(_(words.MISPRINTS))
misprint = EXAMPLE_BY_KEY["ndcg_binary"]
(misprinted,) = misprint.values
st.markdown(words.misprint(misprinted.printed, misprinted.exact))
data = misprint.data
actual, ideal = ndcg_tables(data["recommended"], data["ground_truth"], data["k"])
formula(BY_KEY["ndcg_binary_at_k"].latex,
        formulas.ndcg_latex(actual, ideal, data["k"], ndcg_at_k(data["recommended"], data["ground_truth"], data["k"])))
chart(_printed_vs_exact_chart(i18n.current()), key="examples_printed_vs_exact")

columns = {column: {"label": _(label)} for column, label in words.COLUMNS.items()}
for document in (SEED_1, SEED_2):
    st.header(example_words.document(document))
    for example in (e for e in EXAMPLES if e.document == document):
        with st.container(border=True):
            title, button = st.columns([5, 1])
            title.subheader(example_words.title(example))
            if button.button(_(words.LOAD), key=f"examples_load_{example.key}", help=_(words.LOAD_HELP)):
                open_at_top(load_example(example))
            show_table(pd.DataFrame(example_words.value_rows(example, missing=_(words.NO_NUMBER),
                                                             disagrees=_(words.AGREES_NOT))), column_config=columns)
            # Several values can share one note (the RMSE example's six): show each note once, naming them all.
            notes: dict[str, list[str]] = {}
            for value in example.values:
                if example_words.value_note(example, value):
                    notes.setdefault(example_words.value_note(example, value), []).append(
                        example_words.label(example, value))
            for note, labels in notes.items():
                st.warning(words.noted(labels, note), icon="🔎")
            if example_words.note(example):
                st.caption(example_words.note(example))
