"""LaTeX of normalised entropy and calibration with the numbers substituted. No Streamlit here."""

from __future__ import annotations

import math

from content import numbers
from content.i18n import _
from content.pages import logloss as words
from ui.markup import formulas


def ctr_latex(parts: dict, probabilities) -> dict[str, str]:
    """NE and calibration with the numbers of ``metrics.ctr_metrics.ctr_breakdown`` substituted."""
    shown = [formulas.latex_number(p) for p in probabilities]
    summed = "+".join(shown if len(shown) <= 5 else shown[:4] + [r"\cdots", shown[-1]])
    ne, calibration = parts["normalized_entropy"], parts["calibration"]
    name = rf"\text{{{_(words.CALIBRATION)}}}"
    return {
        "normalized_entropy": (rf"\mathrm{{NE}}=\frac{{{numbers.latex(parts['log_loss'], 4)}}}"
                               rf"{{{numbers.latex(parts['base_rate_entropy'], 4)}}}"
                               rf"={numbers.latex(ne, 4)},\quad \bar y=\tfrac{{{parts['clicks']}}}{{{parts['n']}}}"
                               if not math.isnan(ne) else rf"\mathrm{{NE}}\ \text{{{_(words.NE_UNDEFINED)}}}"),
        "calibration": (rf"{name}=\frac{{{summed}}}{{{parts['clicks']}}}"
                        rf"=\frac{{{formulas.latex_number(parts['predicted_clicks'])}}}{{{parts['clicks']}}}"
                        rf"={numbers.latex(calibration, 4)}"
                        if not math.isnan(calibration) else rf"{name}\ \text{{{_(words.CALIBRATION_UNDEFINED)}}}"),
    }
