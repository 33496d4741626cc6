"""Rating errors: RMSE, MAE and MSE on your ratings, then the NumPy tutorial's three-model demo."""

import streamlit as st

from content import i18n, numbers
from content.i18n import _
from content.pages import rating as words
from metrics import rating_metrics
from metrics.registry import BY_KEY, RatingCase, evaluate
from metrics.seed_examples import BY_KEY as EXAMPLES
from ui.figures import charts
from ui.markup import formulas
from ui.input import tables
from ui.integer_box import integer_box
from ui.widgets import (
    chart,
    formula, loaded_example_banner, metric_cards, page, pitfalls, show_problems, table_editor, usable,
    show_table,
)

OUTLIER_SHARES = [i / 100 for i in range(31)]
NOISES = [round(i * 0.05, 2) for i in range(41)]
MAX_SEED = 2**32 - 1  # np.random.RandomState, which the seed document's numbers come from, takes no larger seed
_DEMO_DEFAULTS = {"noise": 0.5, "outlier_share": 0.05, "seed": 42}


def _rating_columns() -> dict:
    return {
        "prediction": st.column_config.NumberColumn(_(words.PREDICTION), help=_(words.PREDICTION_HELP)),
        "actual": st.column_config.NumberColumn(_(words.ACTUAL), help=_(words.ACTUAL_HELP)),
    }


def _demo_control(widget, label: str, field: str, **kwargs):
    """A widget over one field of the shared ``rating_demo`` dict (a loaded example sets the dict)."""
    widget_key = f"rating_demo_{field}"
    value, note = usable(st.session_state["rating_demo"][field], label, kwargs, _DEMO_DEFAULTS[field])
    st.session_state["rating_demo"] = {**st.session_state["rating_demo"], field: value}
    st.session_state[widget_key] = value
    shown = widget(label, key=widget_key, on_change=_store_demo_field, args=(widget_key, field), **kwargs)
    if note:
        st.info(note, icon="↕️")
    return shown


def _two_decimals(value: float) -> str:
    return numbers.number(value, 2)


def _store_demo_field(widget_key: str, field: str) -> None:
    st.session_state["rating_demo"] = {**st.session_state["rating_demo"], field: st.session_state[widget_key]}


# cache_resource, not cache_data: a Plotly figure takes 30-60 ms to build and as long again to unpickle,
# so the figures are kept as objects (never mutated) alongside the simulation. Keyed on three numbers,
# the whole input, so every session with those numbers gets the same (correct) figures. The chart of
# a user's own ratings is never cached: a cache hashes a large table by a sample of its rows.
# The figures hold words, so the reader's language is part of the key.
@st.cache_resource(max_entries=64, show_spinner=False)
def _demo(noise: float, outlier_share: float, seed: int, language: str):
    models = rating_metrics.simulate_rating_models(noise=noise, outlier_share=outlier_share, seed=seed)
    summary = rating_metrics.rating_models_summary(models)
    summary = summary.assign(model=summary["model"].map(words.model_name))
    sweep = rating_metrics.outlier_sweep(OUTLIER_SHARES, noise=noise, seed=seed)
    return summary, charts.rmse_vs_mae(summary), charts.rmse_mae_over_outliers(sweep, outlier_share)


page(_(words.TITLE), "📏", _(words.IDEA))
loaded_example_banner("rating")

st.subheader(_(words.FORMULAS))
formula_area = st.container()  # filled below, once the edited table is parsed

st.subheader(_(words.YOUR_RATINGS))
st.caption(_(words.YOUR_RATINGS_CAPTION))
ratings = tables.parse_numeric_rows(table_editor("ratings", _rating_columns()),
                                    {"prediction": "number", "actual": "number"}, _(words.RATINGS_TABLE))
predictions, actuals = ratings.columns["prediction"], ratings.columns["actual"]
breakdown = rating_metrics.rating_errors_table(predictions, actuals) if predictions else None
values = evaluate(RatingCase(predictions, actuals)) if breakdown is not None else None
# three terms and the last one fit the half-width column; the breakdown table lists every row
substituted = formulas.rating_errors_latex(breakdown, values, max_terms=3) if values else {}
with formula_area:
    for key in ("rmse", "mae", "mse"):
        formula(BY_KEY[key].latex, formulas.aligned_steps(substituted[key]) if substituted else None)
show_problems(ratings.problems)

if values is None:
    st.info(_(words.NO_RATING))
else:
    metric_cards(values, group="rating", columns=3)
    st.markdown(_(words.EACH_ERROR))
    show_table(breakdown)
    chart(charts.rating_errors(breakdown), key="rating_errors_chart")

st.divider()
st.subheader(_(words.DEMO_HEADING))
st.markdown(_(words.DEMO_TEXT))

controls = st.columns(3)
with controls[0]:
    # select_slider, not slider: it shows each value as the reader writes it (0,50 in Turkish).
    noise = _demo_control(st.select_slider, _(words.NOISE), "noise", options=NOISES, format_func=_two_decimals)
with controls[1]:
    share = _demo_control(st.select_slider, _(words.OUTLIER_SHARE), "outlier_share", options=OUTLIER_SHARES,
                          format_func=_two_decimals)
with controls[2]:
    seed = _demo_control(integer_box, _(words.SEED), "seed", min_value=0, max_value=MAX_SEED,
                         help=_(words.SEED_HELP))

summary, models_chart, outliers_chart = _demo(float(noise), float(share), int(seed), i18n.current())
show_table(summary.style.format({name: lambda v: numbers.number(v, 4) for name in ("RMSE", "MAE", "MSE")}),
           column_config={"model": _(words.MODEL)})
chart(models_chart, key="rating_models_chart")
chart(outliers_chart, key="rating_outliers_chart")

st.markdown(_(words.WHY_OUTLIERS))

example = EXAMPLES["rating_models"]
with st.container(border=True):
    st.markdown(_(words.NOT_FROM_CODE))
    show_table(
        [{words.VALUE: words.model_metric(*v.label.rsplit(" ", 1)), words.DOCUMENT_PRINTS: words.printed(v.printed),
          words.CODE_GIVES: numbers.number(v.exact, 4)} for v in example.values],
        column_config={column: _(column) for column in (words.VALUE, words.DOCUMENT_PRINTS, words.CODE_GIVES)},
    )

pitfalls(*(_(line) for line in words.PITFALLS))
