"""LaTeX of normalised entropy and calibration with the numbers substituted. No Streamlit here."""

from __future__ import annotations

import math

from ui import formulas


def ctr_latex(parts: dict, probabilities) -> dict[str, str]:
    """NE and calibration with the numbers of ``metrics.ctr_metrics.ctr_breakdown`` substituted."""
    shown = [formulas.latex_number(p) for p in probabilities]
    summed = "+".join(shown if len(shown) <= 5 else shown[:4] + [r"\cdots", shown[-1]])
    ne, calibration = parts["normalized_entropy"], parts["calibration"]
    return {
        "normalized_entropy": (rf"\mathrm{{NE}}=\frac{{{parts['log_loss']:.4f}}}{{{parts['base_rate_entropy']:.4f}}}"
                               rf"={ne:.4f},\quad \bar y=\tfrac{{{parts['clicks']}}}{{{parts['n']}}}"
                               if not math.isnan(ne) else r"\mathrm{NE}\ \text{undefined: every label is the same}"),
        "calibration": (rf"\mathrm{{Calibration}}=\frac{{{summed}}}{{{parts['clicks']}}}"
                        rf"=\frac{{{formulas.latex_number(parts['predicted_clicks'])}}}{{{parts['clicks']}}}={calibration:.4f}"
                        if not math.isnan(calibration) else r"\mathrm{Calibration}\ \text{undefined: no click}"),
    }
