"""Rating errors: RMSE, MAE and MSE on your ratings, then the NumPy tutorial's three-model demo."""

import streamlit as st

from metrics import rating_metrics
from metrics.registry import BY_KEY, RatingCase, evaluate
from metrics.seed_examples import BY_KEY as EXAMPLES
from ui import charts, formulas, tables
from ui.widgets import (
    formula, loaded_example_banner, metric_cards, page, pitfalls, show_problems, table_editor, usable,
    show_table,
)

OUTLIER_SHARES = [i / 100 for i in range(31)]
MAX_SEED = 2**32 - 1  # np.random.RandomState, which the seed document's numbers come from, takes no larger seed
_DEMO_DEFAULTS = {"noise": 0.5, "outlier_share": 0.05, "seed": 42}
RATING_COLUMNS = {
    "prediction": st.column_config.NumberColumn("Prediction", help="The rating the model predicted (e.g. 3.5 stars)."),
    "actual": st.column_config.NumberColumn("Actual", help="The rating the user really gave."),
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


def _store_demo_field(widget_key: str, field: str) -> None:
    st.session_state["rating_demo"] = {**st.session_state["rating_demo"], field: st.session_state[widget_key]}


# cache_resource, not cache_data: a Plotly figure takes 30-60 ms to build and as long again to unpickle,
# so the figures are kept as objects (never mutated) alongside the simulation. Keyed on three numbers,
# the whole input, so every session with those numbers gets the same (correct) figures. The chart of
# a user's own ratings is never cached: a cache hashes a large table by a sample of its rows.
@st.cache_resource(max_entries=64, show_spinner=False)
def _demo(noise: float, outlier_share: float, seed: int):
    models = rating_metrics.simulate_rating_models(noise=noise, outlier_share=outlier_share, seed=seed)
    summary = rating_metrics.rating_models_summary(models)
    sweep = rating_metrics.outlier_sweep(OUTLIER_SHARES, noise=noise, seed=seed)
    return summary, charts.rmse_vs_mae(summary), charts.rmse_mae_over_outliers(sweep, outlier_share)


page(
    "Rating errors", "📏",
    "How far are predicted star ratings from the real ones? **MAE** averages the size of each miss; "
    "**MSE** averages the squared misses, and **RMSE** takes its square root to get back to stars. "
    "Squaring makes one big miss weigh more than many small ones, so RMSE ≥ MAE, and the gap grows "
    "with outliers. Edit the ratings and watch the three cards.",
)
loaded_example_banner("rating")

st.subheader("Formulas")
formula_area = st.container()  # filled below, once the edited table is parsed

st.subheader("Your ratings")
st.caption("One row per (user, item) rating. Add, edit or delete rows; a row with an empty or non-number "
           "cell is left out.")
ratings = tables.parse_numeric_rows(table_editor("ratings", RATING_COLUMNS),
                                    {"prediction": "number", "actual": "number"}, "Ratings")
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
    st.info("No usable rating is left: add a row with a number in both columns to see RMSE, MAE and MSE.")
else:
    metric_cards(values, group="rating", columns=3)
    st.markdown("**Each prediction's error** — MAE averages the **|error|** column, MSE the "
                "**error²** column, and RMSE is the square root of MSE.")
    show_table(breakdown)
    st.plotly_chart(charts.rating_errors(breakdown), key="rating_errors_chart")

st.divider()
st.subheader("The NumPy tutorial's demo: naive, low-noise and outlier-prone models")
st.markdown(
    "The NumPy tutorial simulates 1000 ratings (1–5 stars) and three models: the **naive** one "
    "predicts the mean rating for everyone, the **low-noise** one adds a small Gaussian error, and the "
    "**outlier-prone** one is very precise (error N(0, 0.2)) except for a share of users it misses by "
    "±4 stars. Move the sliders to change the low-noise model's noise and the outlier share."
)

controls = st.columns(3)
with controls[0]:
    noise = _demo_control(st.slider, "Noise of the low-noise model (σ, stars)", "noise",
                          min_value=0.0, max_value=2.0, step=0.05)
with controls[1]:
    share = _demo_control(st.slider, "Share of users the outlier-prone model misses by ±4", "outlier_share",
                          min_value=0.0, max_value=0.3, step=0.01)
with controls[2]:
    seed = _demo_control(st.number_input, "Random seed", "seed", min_value=0, max_value=MAX_SEED, step=1,
                         help="The NumPy tutorial uses np.random.seed(42); NumPy takes random seeds 0 to 2^32 − 1.")

summary, models_chart, outliers_chart = _demo(float(noise), float(share), int(seed))
show_table(summary,
             column_config={name: st.column_config.NumberColumn(format="%.4f") for name in ("RMSE", "MAE", "MSE")})
st.plotly_chart(models_chart, key="rating_models_chart")
st.plotly_chart(outliers_chart, key="rating_outliers_chart")

st.markdown(
    "**Why outliers inflate RMSE but not MAE.** A ±4-star miss adds 4 to the sum of absolute errors "
    "but 16 to the sum of squared errors. With 5% outliers, MAE grows by about 0.05 × 4 = 0.2 stars, "
    "while MSE grows by about 0.05 × 16 = 0.8 squared stars, which the square root turns into roughly "
    "0.9 stars of RMSE. So the outlier-prone model looks *best* by MAE, yet by RMSE it is closer to the "
    "naive model than to the low-noise one: the two metrics answer different questions (the typical miss "
    "vs. how much the big misses hurt)."
)

example = EXAMPLES["rating_models"]
with st.container(border=True):
    st.markdown(
        "**The document's printed numbers do not come from its code.** The tutorial prints its results under "
        "the code, but running that code with `np.random.seed(42)` (noise 0.5, 5% outliers, 1000 ratings, "
        "as this demo does at its defaults) gives different numbers. "
        "The lesson survives: the outlier-prone model's RMSE is far above its MAE."
    )
    show_table(
        [{"value": v.label, "document prints": v.printed, "its code gives": f"{v.exact:.4f}"} for v in example.values],
    )

pitfalls(
    "RMSE, MAE and MSE depend on the rating scale: 0.9 is poor on a 1–5 scale and good on 1–100. "
    "Compare models on the same data and scale only.",
    "MSE is in squared stars; take the square root (RMSE) before comparing it with MAE.",
    "scikit-learn takes `(y_true, y_pred)`, the NumPy tutorial's functions `(predictions, actuals)`. "
    "The errors are squared or made absolute, so the order does not change these numbers — it does for "
    "precision and recall.",
    "scikit-learn removed `mean_squared_error(..., squared=False)` (1.6); use `root_mean_squared_error`.",
    "A few ±4-star misses raise RMSE several times more than MAE (see the sweep chart): report both, and "
    "look at the error breakdown.",
    "A model that predicts the mean for everyone (the naive model) can have a decent MAE and still be useless "
    "for ranking: it recommends nothing in particular.",
)
