"""Classification metrics: accuracy, precision, recall and F1 of predicted clicks."""

import streamlit as st

from metrics import classification_metrics as cls
from metrics.registry import BY_KEY, LabelCase, evaluate
from ui import charts, formulas, tables
from ui.widgets import show_table, bound, formula, loaded_example_banner, metric_cards, page, pitfalls, show_problems, table_editor

IMPRESSIONS = 1000
POSITIVE_SHARES = [i / 100 for i in range(1, 51)]
LABEL_COLUMNS = {
    "label": st.column_config.NumberColumn("Label (clicked?)", help="1 = the user clicked (positive), 0 = not.",
                                           step=1),
    "predicted": st.column_config.NumberColumn("Predicted", help="1 = the model predicts a click, 0 = not.", step=1),
}
KEYS = ("accuracy", "precision", "recall", "f1")


# Plotly figures take 30-60 ms to build; kept as objects (never mutated), keyed by what they show.
@st.cache_resource(max_entries=64, show_spinner=False)
def _confusion_chart(tp: int, fp: int, tn: int, fn: int):
    return charts.confusion_matrix({"TP": tp, "FP": fp, "TN": tn, "FN": fn})


@st.cache_resource(max_entries=64, show_spinner=False)
def _imbalance_chart(share: float):
    return charts.accuracy_vs_positive_share(cls.constant_predictor_sweep(POSITIVE_SHARES, IMPRESSIONS), share)


page(
    "Classification metrics", "🧮",
    "Treat each impression as a yes/no question: *will the user click?* Compare the model's answers "
    "with what happened and count the four outcomes — true positives (TP), false positives (FP), true "
    "negatives (TN) and false negatives (FN). **Accuracy**, **precision**, **recall** and **F1** are "
    "different ratios of these four counts. Edit the labels and predictions and watch them move.",
)
loaded_example_banner("classification")
st.session_state.setdefault("classification_positive_share", 0.05)

st.subheader("Formulas")
formula_area = st.container()  # filled below, once the edited table is parsed

st.subheader("Labels and predictions")
st.caption("One row per impression. Both columns must be 0 or 1; any other value leaves the row out.")
parsed = tables.parse_numeric_rows(table_editor("labels", LABEL_COLUMNS), {"label": "label", "predicted": "label"},
                                   "Labels")
show_problems(parsed.problems)
y_true, y_pred = parsed.columns["label"], parsed.columns["predicted"]

counts = cls.confusion_counts(y_true, y_pred) if y_true else None
values = evaluate(LabelCase(y_true, y_pred)) if y_true else None
substituted = formulas.classification_latex(counts, values) if y_true else {}
with formula_area:
    for key in KEYS:
        formula(BY_KEY[key].latex, substituted.get(key))

if not y_true:
    st.info("No usable row is left: add a row with 0 or 1 in both columns to see the metrics.")
else:
    metric_cards(values, group="classification")
    if counts["TP"] == counts["FP"] == 0:
        st.info("The model predicts no click at all, so precision is 0/0. It is shown as 0, as scikit-learn "
                "does by default (`zero_division`), and F1 follows.")
    if counts["TP"] == counts["FN"] == 0:
        st.info("There is no real click (label 1), so recall is 0/0. It is shown as 0, as scikit-learn does "
                "by default (`zero_division`).")
    left, right = st.columns([2, 3])
    with left:
        st.plotly_chart(_confusion_chart(*(counts[k] for k in ("TP", "FP", "TN", "FN"))),
                        key="classification_confusion")
    with right:
        st.markdown("**Each impression's outcome**")
        show_table(cls.confusion_table(y_true, y_pred))

st.divider()
st.subheader("Why accuracy misleads on imbalanced data")
st.markdown(
    f"Clicks are rare: often only a few percent of impressions. Take {IMPRESSIONS} impressions and a "
    "lazy model that **always predicts 0** (no click). It is right on every non-click, so its accuracy "
    "equals the share of non-clicks — high — while it finds none of the clicks: recall 0, and precision "
    "and F1 0 as well. Move the slider to change the share of clicks."
)
share = bound(st.slider, "Share of clicks (label 1) among the impressions", "classification_positive_share",
              min_value=0.01, max_value=0.5, step=0.01, format="%.2f")
lazy_true, lazy_pred = cls.constant_predictor_labels(IMPRESSIONS, share)
# Own card labels, so they are not confused with the cards of your table above.
lazy_values = evaluate(LabelCase(lazy_true, lazy_pred))
metric_cards({f"Always-0: {BY_KEY[key].label}": value for key, value in lazy_values.items()},
             group="classification_imbalance",
             help_text={f"Always-0: {BY_KEY[key].label}": BY_KEY[key].meaning for key in lazy_values})
lazy_counts = cls.confusion_counts(lazy_true, lazy_pred)
st.caption(f"TP = {lazy_counts['TP']}, FP = {lazy_counts['FP']}, TN = {lazy_counts['TN']}, "
           f"FN = {lazy_counts['FN']}: every click is a false negative.")
st.plotly_chart(_imbalance_chart(float(share)), key="classification_imbalance_chart")
st.markdown("On imbalanced data, look at precision, recall and F1 (or at AUC and LogLoss of the scores), "
            "and compare accuracy with the baseline of always predicting the majority class.")

pitfalls(
    "Argument order matters: scikit-learn takes `precision_score(y_true, y_pred)`. Swapping the two "
    "arguments swaps precision and recall (and FP with FN).",
    "When nothing is predicted positive, precision is 0/0. scikit-learn returns 0 with an "
    "`UndefinedMetricWarning` (`zero_division=\"warn\"`); `zero_division=1` or `np.nan` gives other numbers.",
    "These are classification metrics over impressions. Precision@K and Recall@K on the ranking pages "
    "count hits in a top-K list instead: same names, different inputs.",
    "Predicted labels come from thresholding a score (often at 0.5). A different threshold gives a "
    "different confusion matrix; AUC and LogLoss judge the scores without picking a threshold.",
    "Averaging over users or classes: the F1 of averaged precision and recall differs from the average "
    "of per-user F1 (`average=\"macro\"` vs `\"micro\"` in scikit-learn).",
)
