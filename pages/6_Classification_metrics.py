"""Classification metrics: accuracy, precision, recall and F1 of predicted clicks."""

import streamlit as st

from content import i18n, numbers
from content.i18n import _
from content.pages import classification as words
from metrics import classification_metrics as cls
from metrics.registry import BY_KEY, LabelCase, evaluate
from ui.figures import charts
from ui.markup import formulas
from ui.input import tables
from ui.widgets import chart, show_table, bound, formula, loaded_example_banner, metric_cards, page, pitfalls, show_problems, table_editor

IMPRESSIONS = 1000
POSITIVE_SHARES = [i / 100 for i in range(1, 51)]
KEYS = ("accuracy", "precision", "recall", "f1")


def label_columns() -> dict:
    return {
        "label": st.column_config.NumberColumn(_(words.LABEL_COLUMN), help=_(words.LABEL_HELP), step=1),
        "predicted": st.column_config.NumberColumn(_(words.PREDICTED_COLUMN), help=_(words.PREDICTED_HELP), step=1),
    }


# Plotly figures take 30-60 ms to build; kept as objects (never mutated), keyed by what they show and the
# reader's language (their titles and axes are words).
@st.cache_resource(max_entries=64, show_spinner=False)
def _confusion_chart(tp: int, fp: int, tn: int, fn: int, reader_language: str):
    return charts.confusion_matrix({"TP": tp, "FP": fp, "TN": tn, "FN": fn})


@st.cache_resource(max_entries=64, show_spinner=False)
def _imbalance_chart(share: float, reader_language: str):
    return charts.accuracy_vs_positive_share(cls.constant_predictor_sweep(POSITIVE_SHARES, IMPRESSIONS), share)


page(_(words.TITLE), "🧮", _(words.INTRO))
loaded_example_banner("classification")
st.session_state.setdefault("classification_positive_share", 0.05)

st.subheader(_(words.FORMULAS))
formula_area = st.container()  # filled below, once the edited table is parsed

st.subheader(_(words.LABELS_AND_PREDICTIONS))
st.caption(_(words.EDITOR_CAPTION))
parsed = tables.parse_numeric_rows(table_editor("labels", label_columns()), {"label": "label", "predicted": "label"},
                                   _(words.LABELS_TABLE))
show_problems(parsed.problems)
y_true, y_pred = parsed.columns["label"], parsed.columns["predicted"]

counts = cls.confusion_counts(y_true, y_pred) if y_true else None
values = evaluate(LabelCase(y_true, y_pred)) if y_true else None
substituted = formulas.classification_latex(counts, values) if y_true else {}
with formula_area:
    for key in KEYS:
        formula(BY_KEY[key].latex, substituted.get(key))

if not y_true:
    st.info(_(words.NO_ROWS))
else:
    metric_cards(values, group="classification")
    if counts["TP"] == counts["FP"] == 0:
        st.info(_(words.NO_PREDICTED_CLICK))
    if counts["TP"] == counts["FN"] == 0:
        st.info(_(words.NO_REAL_CLICK))
    left, right = st.columns([2, 3])
    with left:
        chart(_confusion_chart(*(counts[k] for k in ("TP", "FP", "TN", "FN")), i18n.current()),
                        key="classification_confusion")
    with right:
        st.markdown(_(words.OUTCOMES))
        show_table(cls.confusion_table(y_true, y_pred),
                   column_config={column: {"label": _(label)} for column, label in words.OUTCOME_COLUMNS.items()})

st.divider()
st.subheader(_(words.IMBALANCE))
st.markdown(words.imbalance(IMPRESSIONS))
# A select_slider, not a slider: it shows each share as the reader writes it (0,05 in Turkish).
share = bound(st.select_slider, _(words.SHARE_SLIDER), "classification_positive_share",
              options=[i / 100 for i in range(1, 51)], format_func=lambda v: numbers.number(v, 2))
lazy_true, lazy_pred = cls.constant_predictor_labels(IMPRESSIONS, share)
# Own card labels, so they are not confused with the cards of your table above.
lazy_values = evaluate(LabelCase(lazy_true, lazy_pred))
lazy_labels = {key: words.always_zero(_(BY_KEY[key].label)) for key in lazy_values}  # the registry's words, common catalog
metric_cards(lazy_values, group="classification_imbalance", labels=lazy_labels,
             help_text={key: _(BY_KEY[key].meaning) for key in lazy_values})
st.caption(words.lazy_counts(cls.confusion_counts(lazy_true, lazy_pred)))
chart(_imbalance_chart(float(share), i18n.current()), key="classification_imbalance_chart")
st.markdown(_(words.ON_IMBALANCED_DATA))

pitfalls(*(_(line) for line in words.PITFALLS))
