"""The words of the Rating errors page (pages/1_Rating_errors.py): RMSE, MAE and MSE."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

TITLE = N_("Rating errors")
IDEA = N_(
    "How far are predicted star ratings from the real ones? **MAE** averages the size of each miss; "
    "**MSE** averages the squared misses, and **RMSE** takes its square root to get back to stars. "
    "Squaring makes one big miss weigh more than many small ones, so RMSE ≥ MAE, and the gap grows "
    "with outliers. Edit the ratings and watch the three cards.")

PREDICTION = N_("Prediction")
PREDICTION_HELP = N_("The rating the model predicted (e.g. 3.5 stars).")
ACTUAL = N_("Actual")
ACTUAL_HELP = N_("The rating the user really gave.")

FORMULAS = N_("Formulas")
YOUR_RATINGS = N_("Your ratings")
YOUR_RATINGS_CAPTION = N_("One row per (user, item) rating. Add, edit or delete rows; a row with an empty or "
                          "non-number cell is left out.")
# TRANSLATORS: the name of the ratings table in the messages about rows left out ("Ratings, row 3: ...").
RATINGS_TABLE = N_("Ratings")
NO_RATING = N_("No usable rating is left: add a row with a number in both columns to see RMSE, MAE and MSE.")
EACH_ERROR = N_("**Each prediction's error** — MAE averages the **|error|** column, MSE the "
                "**error²** column, and RMSE is the square root of MSE.")

DEMO_HEADING = N_("The NumPy tutorial's demo: naive, low-noise and outlier-prone models")
DEMO_TEXT = N_(
    "The NumPy tutorial simulates 1000 ratings (1–5 stars) and three models: the **naive** one "
    "predicts the mean rating for everyone, the **low-noise** one adds a small Gaussian error, and the "
    "**outlier-prone** one is very precise (error N(0, 0.2)) except for a share of users it misses by "
    "±4 stars. Move the sliders to change the low-noise model's noise and the outlier share.")
NOISE = N_("Noise of the low-noise model (σ, stars)")
OUTLIER_SHARE = N_("Share of users the outlier-prone model misses by ±4")
SEED = N_("Random seed")
SEED_HELP = N_("The NumPy tutorial uses np.random.seed(42); NumPy takes random seeds 0 to 2^32 − 1.")
MODEL = N_("model")

# The three models of the NumPy tutorial's demo, by the names metrics.rating_metrics gives them.
MODEL_NAMES = {
    "Naive (mean for everyone)": N_("Naive (mean for everyone)"),
    "Low-noise": N_("Low-noise"),
    "Outlier-prone": N_("Outlier-prone"),
}

WHY_OUTLIERS = N_(
    "**Why outliers inflate RMSE but not MAE.** A ±4-star miss adds 4 to the sum of absolute errors "
    "but 16 to the sum of squared errors. With 5% outliers, MAE grows by about 0.05 × 4 = 0.2 stars, "
    "while MSE grows by about 0.05 × 16 = 0.8 squared stars, which the square root turns into roughly "
    "0.9 stars of RMSE. So the outlier-prone model looks *best* by MAE, yet by RMSE it is closer to the "
    "naive model than to the low-noise one: the two metrics answer different questions (the typical miss "
    "vs. how much the big misses hurt).")
NOT_FROM_CODE = N_(
    "**The document's printed numbers do not come from its code.** The tutorial prints its results under "
    "the code, but running that code with `np.random.seed(42)` (noise 0.5, 5% outliers, 1000 ratings, "
    "as this demo does at its defaults) gives different numbers. "
    "The lesson survives: the outlier-prone model's RMSE is far above its MAE.")
VALUE = N_("value")
DOCUMENT_PRINTS = N_("document prints")
CODE_GIVES = N_("its code gives")

PITFALLS = (
    N_("RMSE, MAE and MSE depend on the rating scale: 0.9 is poor on a 1–5 scale and good on 1–100. "
       "Compare models on the same data and scale only."),
    N_("MSE is in squared stars; take the square root (RMSE) before comparing it with MAE."),
    N_("scikit-learn takes `(y_true, y_pred)`, the NumPy tutorial's functions `(predictions, actuals)`. "
       "The errors are squared or made absolute, so the order does not change these numbers — it does for "
       "precision and recall."),
    N_("scikit-learn removed `mean_squared_error(..., squared=False)` (1.6); use `root_mean_squared_error`."),
    N_("A few ±4-star misses raise RMSE several times more than MAE (see the sweep chart): report both, and "
       "look at the error breakdown."),
    N_("A model that predicts the mean for everyone (the naive model) can have a decent MAE and still be useless "
       "for ranking: it recommends nothing in particular."),
)


def model_name(name: str) -> str:
    """One of the demo's models in the reader's language (a name it does not know stays as it is)."""
    return _(MODEL_NAMES[name]) if name in MODEL_NAMES else name


def model_metric(model: str, metric: str) -> str:
    """'Low-noise RMSE': a model's metric, in the reader's word order."""
    # TRANSLATORS: {model} is a model of the demo (Low-noise), {metric} a metric name (RMSE, MAE).
    return _("{model} {metric}").format(model=model_name(model), metric=metric)


def printed(text: str) -> str:
    """A number the document prints, in the reader's notation (the digits as printed)."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return text or "—"
    digits = len(text.split(".", 1)[1]) if "." in text else 0
    return numbers.number(value, digits)
