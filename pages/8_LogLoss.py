"""LogLoss: the average surprise of each true label under the predicted click probability."""

import streamlit as st

from metrics import classification_metrics as cls
from metrics.registry import BY_KEY, ProbabilityCase, evaluate
from ui import charts, formulas, tables
from ui.widgets import show_table, bound, formula, loaded_example_banner, metric_cards, page, pitfalls, show_problems, table_editor

EPS_CHOICES = {
    cls.default_log_loss_eps(): "2.2e-16: float64 machine epsilon (scikit-learn 1.9)",
    1e-15: "1e-15: RecBole",
    1e-7: "1e-7: Keras (backend epsilon)",
}
PROBABILITY_COLUMNS = {
    "label": st.column_config.NumberColumn("Label (clicked?)", help="1 = the user clicked, 0 = not.", step=1),
    "probability": st.column_config.NumberColumn("Predicted probability of a click",
                                                 help="The model's probability that the label is 1, in [0, 1]."),
}

page(
    "LogLoss", "🎲",
    "LogLoss (binary cross-entropy) judges predicted **probabilities**, not yes/no answers. Each "
    "impression costs −ln(the probability the model gave to what really happened): 0.9 for a click "
    "that happened costs 0.105, 0.1 costs 2.3, and 0 would cost infinity — so libraries clip "
    "probabilities away from 0 and 1. LogLoss is the mean cost; lower is better.",
)
loaded_example_banner("logloss")
st.session_state.setdefault("logloss_eps", cls.default_log_loss_eps())

st.subheader("Formula")
formula_area = st.container()  # filled below, once the edited table is parsed

st.subheader("Labels and predicted probabilities")
st.caption("One row per impression: the label (0 or 1) and the predicted probability of a click, in [0, 1].")
parsed = tables.parse_numeric_rows(table_editor("probabilities", PROBABILITY_COLUMNS),
                                   {"label": "label", "probability": "probability"}, "Probabilities")
eps = bound(st.radio, "Clipping ε: probabilities are moved into [ε, 1 − ε] before the log", "logloss_eps",
            options=list(EPS_CHOICES), format_func=EPS_CHOICES.get, horizontal=True)
show_problems(parsed.problems)
y_true, y_prob = parsed.columns["label"], parsed.columns["probability"]

terms = cls.log_loss_terms(y_true, y_prob, eps=eps) if y_true else None
values = evaluate(ProbabilityCase(y_true, y_prob, eps)) if y_true else None
substituted = formulas.log_loss_latex(terms, values["log_loss"], eps, max_terms=4) if y_true else None
with formula_area:
    formula(BY_KEY["log_loss"].latex, formulas.aligned_steps(substituted) if substituted else None)

if not y_true:
    st.info("No usable row is left: add a row with a label of 0 or 1 and a probability in [0, 1].")
else:
    metric_cards(values, group="logloss", columns=3)
    if terms["was_clipped"].any():
        st.info(f"Some probabilities are 0 or 1, so they were clipped to ε = {eps:.2g} or 1 − ε: without "
                "clipping a confident mistake would cost infinity. The **clipped** column shows the value used.")
    st.markdown("**Each impression's loss** — **p of what happened** is the probability given to what really "
                "happened (p for a click, 1 − p for no click); **loss** = −ln of it. LogLoss is the mean of `loss`.")
    show_table(terms)
    st.plotly_chart(charts.log_loss_curve(terms), key="logloss_curve")

st.divider()
st.subheader("Clipping decides what a confident mistake costs")
st.markdown(
    "Predicting p = 0 for an impression that was clicked is infinitely surprising: −ln 0 = ∞. Each library "
    "clips p into [ε, 1 − ε] first, so the loss becomes −ln ε — and ε differs between libraries. One such "
    "mistake among many samples can dominate the mean, so the same predictions get different LogLoss "
    "values in different libraries."
)
show_table(
    [
        {
            "clipping ε": label,
            "loss of p = 0 for a click": f"{cls.log_loss([1], [0.0], eps=choice):.2f}",
            "your LogLoss with this ε": f"{cls.log_loss(y_true, y_prob, eps=choice):.4f}" if y_true else "—",
        }
        for choice, label in EPS_CHOICES.items()
    ],
)
st.caption("Add a row with label 1 and probability 0 above to see the ε change your LogLoss.")

# --- Normalised entropy and calibration (issue 8): imported here so this block stays self-contained.
from metrics import ctr_metrics  # noqa: E402
from ui.ctr_formulas import ctr_latex  # noqa: E402
from ui.lesson_charts import base_rate_comparison  # noqa: E402

st.divider()
st.subheader("Normalised entropy and calibration: LogLoss you can compare")
st.markdown(
    "Raw LogLoss depends on how often users click: a model that only knows the click rate scores 0.056 on data "
    "with 1% clicks and 0.693 with 50%. **Normalised entropy** (NE, as TorchRec reports it) divides LogLoss by "
    "that know-nothing LogLoss, so 1 means no better than the base rate and lower is better at any click rate. "
    "**Calibration** divides the clicks the model expects (the sum of its probabilities) by the clicks that "
    "happened: 1 is right, above 1 over-predicts."
)
if y_true:
    parts = ctr_metrics.ctr_breakdown(y_true, y_prob, eps=eps)
    ctr_formulas = ctr_latex(parts, y_prob)
    left, right = st.columns(2)
    with left:
        for key in ("normalized_entropy", "calibration"):
            st.latex(BY_KEY[key].latex)
            st.latex(ctr_formulas[key])
        if parts["clicks"] in (0, parts["n"]):
            st.info("Every label is the same, so the base rate has nothing to predict (its LogLoss is 0) and NE is "
                    "undefined" + (", and with no click calibration is undefined too." if parts["clicks"] == 0 else "."))
    with right:
        st.plotly_chart(base_rate_comparison(parts), key="logloss_ctr_chart")
st.markdown("**The same know-nothing model at different click rates** (1,000 impressions, each predicted the click rate):")
show_table(ctr_metrics.base_rate_sweep([0.01, 0.05, 0.2, 0.5]),
           column_config={"click_rate": st.column_config.NumberColumn("click rate", format="percent"),
                          "log_loss": st.column_config.NumberColumn("LogLoss", format="%.4f"),
                          "base_rate_entropy": st.column_config.NumberColumn("LogLoss of the base rate", format="%.4f"),
                          "normalized_entropy": st.column_config.NumberColumn("NE", format="%.4f"),
                          "calibration": st.column_config.NumberColumn("calibration", format="%.4f")})
# --- end of the normalised entropy block

pitfalls(
    "The probability is that of the **positive** class (a click). Feeding the probability of the predicted "
    "label, or a score that is not a probability, gives a wrong LogLoss.",
    "Clipping: scikit-learn 1.9 clips at the machine epsilon of the input dtype (2.2e-16 for float64) and "
    "no longer has an `eps` argument; RecBole clips at 1e-15, Keras at 1e-7. A confident mistake then costs "
    "36.04, 34.54 or 16.12.",
    "scikit-learn 1.9 renamed `log_loss(y_true, y_pred)`'s second argument to `y_proba`.",
    "scikit-learn's `log_loss` raises an error when `y_true` holds one class only unless you pass "
    "`labels=[0, 1]`; the formula itself is defined (this page computes it).",
    "The natural log is used (nats). Some texts use log2 (bits): the value is then 1/ln 2 ≈ 1.44 times larger.",
    "LogLoss rewards calibrated probabilities; AUC only cares about the order of the scores. A model can have "
    "a good AUC and a poor LogLoss if its probabilities are all too high or too low.",
)
