"""LogLoss: the average surprise of each true label under the predicted click probability."""

import pandas as pd
import streamlit as st

from content import numbers
from content.i18n import _
from content.pages import logloss as words
from metrics import classification_metrics as cls
from metrics.registry import BY_KEY, ProbabilityCase, evaluate
from ui.figures import charts
from ui.markup import formulas
from ui.input import tables
from ui.widgets import chart, show_table, bound, formula, loaded_example_banner, metric_cards, page, pitfalls, show_problems, table_editor

EPS_CHOICES = {cls.default_log_loss_eps(): words.EPS_MACHINE, 1e-15: words.EPS_RECBOLE, 1e-7: words.EPS_KERAS}
SWEEP_IMPRESSIONS = 1000


def eps_label(eps: float) -> str:
    return _(EPS_CHOICES[eps]).format(eps=words.eps_text(eps))


def probability_columns() -> dict:
    return {
        "label": st.column_config.NumberColumn(_(words.LABEL), help=_(words.LABEL_HELP), step=1, width=110),
        "probability": st.column_config.NumberColumn(_(words.PROBABILITY), help=_(words.PROBABILITY_HELP),
                                                     width=210),
    }


page(_(words.TITLE), "🎲", _(words.INTRO))
loaded_example_banner("logloss")
st.session_state.setdefault("logloss_eps", cls.default_log_loss_eps())

st.subheader(_(words.FORMULA))
formula_area = st.container()  # filled below, once the edited table is parsed

st.subheader(_(words.LABELS_AND_PROBABILITIES))
st.caption(_(words.EDITOR_CAPTION))
parsed = tables.parse_numeric_rows(table_editor("probabilities", probability_columns()),
                                   {"label": "label", "probability": "probability"}, _(words.PROBABILITIES_TABLE))
eps = bound(st.radio, _(words.EPS_RADIO), "logloss_eps",
            options=list(EPS_CHOICES), format_func=eps_label, horizontal=True)
show_problems(parsed.problems)
y_true, y_prob = parsed.columns["label"], parsed.columns["probability"]

terms = cls.log_loss_terms(y_true, y_prob, eps=eps) if y_true else None
values = evaluate(ProbabilityCase(y_true, y_prob, eps)) if y_true else None
substituted = formulas.log_loss_latex(terms, values["log_loss"], eps, max_terms=4) if y_true else None
with formula_area:
    formula(BY_KEY["log_loss"].latex, formulas.aligned_steps(substituted) if substituted else None)

if not y_true:
    st.info(_(words.NO_ROWS))
else:
    metric_cards(values, group="logloss", columns=3)
    if terms["was_clipped"].any():
        st.info(words.clipped(eps))
    st.markdown(_(words.EACH_LOSS))
    show_table(terms, column_config={column: {"label": _(label)} for column, label in words.TERMS_COLUMNS.items()})
    chart(charts.log_loss_curve(terms), key="logloss_curve")

st.divider()
st.subheader(_(words.CLIPPING))
st.markdown(_(words.CLIPPING_TEXT))
show_table(
    [
        {
            "eps": eps_label(choice),
            "loss_at_zero": numbers.number(cls.log_loss([1], [0.0], eps=choice), 2),
            "your_log_loss": numbers.number(cls.log_loss(y_true, y_prob, eps=choice), 4) if y_true else "—",
        }
        for choice in EPS_CHOICES
    ],
    column_config={column: {"label": _(label)} for column, label in words.EPS_COLUMNS.items()},
)
st.caption(_(words.EPS_CAPTION))

# --- Normalised entropy and calibration (issue 8): imported here so this block stays self-contained.
from metrics import ctr_metrics  # noqa: E402
from ui.markup.ctr_formulas import ctr_latex  # noqa: E402
from ui.figures.lesson_charts import base_rate_comparison  # noqa: E402

st.divider()
st.subheader(_(words.NE_HEADER))
st.markdown(_(words.NE_TEXT))
if y_true:
    parts = ctr_metrics.ctr_breakdown(y_true, y_prob, eps=eps)
    ctr_formulas = ctr_latex(parts, y_prob)
    left, right = st.columns(2)
    with left:
        for key in ("normalized_entropy", "calibration"):
            st.latex(BY_KEY[key].latex)
            st.latex(ctr_formulas[key])
        if parts["clicks"] in (0, parts["n"]):
            st.info(_(words.SAME_LABEL_NO_CLICK if parts["clicks"] == 0 else words.SAME_LABEL))
    with right:
        chart(base_rate_comparison(parts), key="logloss_ctr_chart")
st.markdown(words.sweep_title(SWEEP_IMPRESSIONS))
sweep = ctr_metrics.base_rate_sweep([0.01, 0.05, 0.2, 0.5], n=SWEEP_IMPRESSIONS)
show_table(pd.DataFrame({
    "click_rate": [numbers.percent(rate) for rate in sweep["click_rate"]],
    **{column: [numbers.number(v, 4) for v in sweep[column]]
       for column in ("log_loss", "base_rate_entropy", "normalized_entropy", "calibration")},
}), column_config={column: {"label": _(label)} for column, label in words.SWEEP_COLUMNS.items()})
# --- end of the normalised entropy block

pitfalls(*(_(line) for line in words.PITFALLS))
