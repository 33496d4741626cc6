"""The words of the LogLoss page (pages/8_LogLoss.py), with normalised entropy and calibration."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

TITLE = N_("LogLoss")
INTRO = N_(
    "LogLoss (binary cross-entropy) judges predicted **probabilities**, not yes/no answers. Each "
    "impression costs −ln(the probability the model gave to what really happened): 0.9 for a click "
    "that happened costs 0.105, 0.1 costs 2.3, and 0 would cost infinity — so libraries clip "
    "probabilities away from 0 and 1. LogLoss is the mean cost; lower is better.")

# The clipping ε of each library, by its value (metrics.classification_metrics.default_log_loss_eps first).
EPS_MACHINE = N_("{eps}: float64 machine epsilon (scikit-learn 1.9)")
EPS_RECBOLE = N_("{eps}: RecBole")
EPS_KERAS = N_("{eps}: Keras (backend epsilon)")

LABEL = N_("Label")
LABEL_HELP = N_("1 = the user clicked, 0 = not.")
PROBABILITY = N_("Click probability")
PROBABILITY_HELP = N_("The model's probability that the label is 1, in [0, 1].")
FORMULA = N_("Formula")
LABELS_AND_PROBABILITIES = N_("Labels and predicted probabilities")
EDITOR_CAPTION = N_("One row per impression: the label (0 or 1) and the predicted probability of a click, in [0, 1].")
PROBABILITIES_TABLE = N_("Probabilities")
EPS_RADIO = N_("Clipping ε: probabilities are moved into [ε, 1 − ε] before the log")
NO_ROWS = N_("No usable row is left: add a row with a label of 0 or 1 and a probability in [0, 1].")
EACH_LOSS = N_(
    "**Each impression's loss** — **p of what happened** is the probability given to what really "
    "happened (p for a click, 1 − p for no click); **loss** = −ln of it. LogLoss is the mean of `loss`.")
# The columns of the per-impression table (metrics.classification_metrics.log_loss_terms); EACH_LOSS names two.
TERMS_COLUMNS = {"label": N_("label"), "probability": N_("probability"), "clipped": N_("clipped"), "loss": N_("loss"),
                 "p_true_label": N_("p of what happened"), "was_clipped": N_("clipped?")}
CLIPPING = N_("Clipping decides what a confident mistake costs")
CLIPPING_TEXT = N_(
    "Predicting p = 0 for an impression that was clicked is infinitely surprising: −ln 0 = ∞. Each library "
    "clips p into [ε, 1 − ε] first, so the loss becomes −ln ε — and ε differs between libraries. One such "
    "mistake among many samples can dominate the mean, so the same predictions get different LogLoss "
    "values in different libraries.")
EPS_COLUMNS = {"eps": N_("clipping ε"), "loss_at_zero": N_("loss of p = 0 for a click"),
               "your_log_loss": N_("your LogLoss with this ε")}
EPS_CAPTION = N_("Add a row with label 1 and probability 0 above to see the ε change your LogLoss.")

NE_HEADER = N_("Normalised entropy and calibration: LogLoss you can compare")
NE_TEXT = N_(
    "Raw LogLoss depends on how often users click: a model that only knows the click rate scores 0.056 on data "
    "with 1% clicks and 0.693 with 50%. **Normalised entropy** (NE, as TorchRec reports it) divides LogLoss by "
    "that know-nothing LogLoss, so 1 means no better than the base rate and lower is better at any click rate. "
    "**Calibration** divides the clicks the model expects (the sum of its probabilities) by the clicks that "
    "happened: 1 is right, above 1 over-predicts.")
SAME_LABEL = N_("Every label is the same, so the base rate has nothing to predict (its LogLoss is 0) and NE is "
                "undefined.")
SAME_LABEL_NO_CLICK = N_("Every label is the same, so the base rate has nothing to predict (its LogLoss is 0) and "
                         "NE is undefined, and with no click calibration is undefined too.")
SWEEP_COLUMNS = {"click_rate": N_("click rate"), "log_loss": "LogLoss",
                 "base_rate_entropy": N_("LogLoss of the base rate"), "normalized_entropy": "NE",
                 "calibration": N_("calibration")}

# The words inside the formulas of ui/markup/ctr_formulas.py (KaTeX \text{}).
NE_UNDEFINED = N_("undefined: every label is the same")
CALIBRATION_UNDEFINED = N_("undefined: no click")
CALIBRATION = N_("Calibration")


def eps_text(eps: float) -> str:
    """ε as the documents write it (2.2e-16, 1e-7), with the reader's decimal mark."""
    return f"{eps:.2g}".replace("e-0", "e-").replace(".", numbers.decimal_mark())


def sweep_title(impressions: int) -> str:
    return _("**The same know-nothing model at different click rates** ({impressions} impressions, each predicted "
             "the click rate):").format(impressions=numbers.integer(impressions))


def clipped(eps: float) -> str:
    return _("Some probabilities are 0 or 1, so they were clipped to ε = {eps} or 1 − ε: without clipping a "
             "confident mistake would cost infinity. The **clipped** column shows the value used.").format(
        eps=eps_text(eps))


PITFALLS = (
    N_("The probability is that of the **positive** class (a click). Feeding the probability of the predicted "
       "label, or a score that is not a probability, gives a wrong LogLoss."),
    N_("Clipping: scikit-learn 1.9 clips at the machine epsilon of the input dtype (2.2e-16 for float64) and "
       "no longer has an `eps` argument; RecBole clips at 1e-15, Keras at 1e-7. A confident mistake then costs "
       "36.04, 34.54 or 16.12."),
    N_("scikit-learn 1.9 renamed `log_loss(y_true, y_pred)`'s second argument to `y_proba`."),
    N_("scikit-learn's `log_loss` raises an error when `y_true` holds one class only unless you pass "
       "`labels=[0, 1]`; the formula itself is defined (this page computes it)."),
    N_("The natural log is used (nats). Some texts use log2 (bits): the value is then 1/ln 2 ≈ 1.44 times larger."),
    N_("LogLoss rewards calibrated probabilities; AUC only cares about the order of the scores. A model can have "
       "a good AUC and a poor LogLoss if its probabilities are all too high or too low."),
)
