"""Words of the off-policy lesson's views ("What the log did not show"): card labels. The numbers are
``ui.controllers.lesson_offpolicy``'s, from the Logged feedback page's presets (``offpolicy.presets``); the charts
and their words are the page's (``ui.figures.offpolicy_charts``, ``content.pages.logged_feedback``).

A value key names a measure, then what it is measured on (``rmse_cold_ips``: IPS's RMSE with the cold logger,
``bias_tau_100``: clipped IPS's bias at τ = 100, ``bias_poor_poor_dr``: DR's bias with a poor reward model and a
poor propensity, ``snips_recall_itemknn``). Every key the views give is in :data:`KEYS` once a view has been built.
"""

from __future__ import annotations

from content.i18n import N_, _
from content.pages import logged_feedback as page
from content.pages.protocols import MODEL_NAMES, model_name

MEASURES = {"bias": page.BIAS, "rmse": page.RMSE, "sd": page.SD, "standard_error": page.STANDARD_ERROR,
            "bias_size": N_("size of the bias"), "mean": page.ESTIMATE}
RECALLS = {"recall": page.NAIVE_RECALL, "ips_recall": page.IPS_RECALL, "snips_recall": page.SNIPS_RECALL}
SIDES = ("cold", "usual")
CONDITIONS = ("right_right", "poor_right", "right_poor", "poor_poor")
TAUS = ("1", "10", "100", "1000", "10000", "inf")
SIDE_NAMES = {"cold": N_("the cold logger"), "usual": N_("the usual logger")}
"""The rare-target preset's two loggers: cold (temperature 0.25, it rarely shows the target's pick) and usual (1)."""
SIDE_LABEL = N_("{estimator}: {measure}, {logger}")
TAU_LABEL = N_("clipped IPS at τ = {tau}: {measure}")
CONDITION_LABEL = N_("{estimator}, {condition}: {measure}")
ESS_LABEL = N_("{ess}, {logger}")
MODEL_LABEL = N_("{model}: {measure}")
OFF_CASE = N_("the case where DR's bias is largest (1: poor model, 2: poor propensity, 3: both)")

def _split(key: str, names) -> tuple[str, str] | None:
    """(measure, rest) if ``key`` is ``<measure>_<rest>`` with a measure of ``names``, the longest first."""
    for measure in sorted(names, key=len, reverse=True):
        if key.startswith(measure + "_"):
            return measure, key[len(measure) + 1:]
    return None


def is_key(key: str) -> bool:
    try:
        label(key)
    except (KeyError, ValueError):
        return False
    return True


def label(key: str) -> str:
    """A card's label; raises KeyError for a key of no off-policy view."""
    if key == "truth":
        return _(page.TRUE_VALUE)
    if key == "dr_off_case":
        return _(OFF_CASE)
    if key.startswith("ess_") and key[4:] in SIDES:
        return _(ESS_LABEL).format(ess=_(page.ESS), logger=_(SIDE_NAMES[key[4:]]))
    found = _split(key, RECALLS)
    if found and found[1] in MODEL_NAMES:
        return _(MODEL_LABEL).format(model=model_name(found[1]), measure=_(RECALLS[found[0]]))
    found = _split(key, MEASURES)
    if found is None:
        raise KeyError(key)
    measure, rest = found
    shown = _(MEASURES[measure])
    if rest.startswith("tau_") and rest[4:] in TAUS:
        tau = rest[4:]
        return _(TAU_LABEL).format(tau=page.tau_label(float(tau)), measure=shown)
    for side in SIDES:
        if rest.startswith(side + "_") and rest[len(side) + 1:] in page.ESTIMATOR_NAMES:
            return _(SIDE_LABEL).format(estimator=page.estimator_name(rest[len(side) + 1:]), measure=shown,
                                        logger=_(SIDE_NAMES[side]))
    for condition in CONDITIONS:
        if rest.startswith(condition + "_") and rest[len(condition) + 1:] in page.ESTIMATOR_NAMES:
            return _(CONDITION_LABEL).format(estimator=page.estimator_name(rest[len(condition) + 1:]), measure=shown,
                                             condition=_(page.CONDITION_NAMES[tuple(condition.split("_"))]))
    raise KeyError(key)

