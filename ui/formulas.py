"""LaTeX of each formula with the current numbers substituted. No Streamlit here.

General formulas come from ``metrics.registry``; these builders fill in the numbers a learner
would write when checking a hand calculation.
"""

from __future__ import annotations


def fmt(value: float, digits: int = 4) -> str:
    """A number as a learner would write it: integers plain, others to ``digits`` places."""
    return str(int(value)) if float(value).is_integer() else f"{value:.{digits}f}"
