"""Words of the library lens page ("Why libraries disagree"): pages/16_Library_lens.py arranges them."""

from __future__ import annotations

import math

from content import conventions as words_of
from content import numbers, text
from content.i18n import N_, _, ngettext
from metrics import conventions as conv

TITLE = N_("Why libraries disagree")
INTRO = N_(
    "trec_eval, scikit-learn, ranx, torchmetrics and six other libraries all have Precision, AP and NDCG, "
    "yet give **different numbers for the same list**. Each difference comes from one setting: the AP "
    "denominator, which items form the ideal DCG, the gain, what the library is given, a cut-off. Below, your "
    "scenario is scored the way each library scores it; every cell that differs from this app names its cause."
)

PRESETS = {
    "never_recommended": (
        N_("999 never recommended"),
        N_("The NumPy tutorial's relevant item 999 is not in the list. Libraries that are given only the recommended "
           "rows never learn it exists; torchmetrics divides AP by the hits it found.")),
    "more_relevant_than_k": (
        "|Rel| > K",
        N_("Six relevant items but only five slots: dividing AP by |Rel| = 6 means even a perfect top 5 "
           "cannot score 1; min(|Rel|, K) = 5 can.")),
    "graded": (
        N_("Graded relevance"),
        N_("The NumPy tutorial's graded example: linear or exponential gain, grades ignored, the ideal sorted or not.")),
    "short_list": (
        N_("List shorter than K"),
        N_("Five recommendations, K = 10: most libraries count the five empty slots as misses; Evidently "
           "fails outright when no list reaches K.")),
    "nothing_relevant": (
        N_("A user with nothing relevant"),
        N_("No relevant item at all: counted as 0 in the mean, or left out of it?")),
    "first_hit_below_k": (
        N_("First hit below K"),
        N_("The only relevant item is at rank 7 and K = 5: RR with a cut-off at K is 0, without one 1/7.")),
}
"""Each classic disagreement's button label and story, keyed by the preset's key (ui/controllers/library_lens.py)."""

CLASSICS = N_("**Classic disagreements** (each loads a scenario)")
THIS_APP = N_("this app")
VERSUS = N_("vs")
NO_VALUE = N_("no value")
NO_SUCH_METRIC = N_("no such metric")
LIBRARY = N_("Library")
METRIC_TO_BREAK_DOWN = N_("Metric to break down")
WHY_THEY_DIFFER = N_("Why they differ")
ALL_AGREE = N_("Every library agrees with this app on this scenario. Try a classic disagreement above.")
ONE_LIBRARY = N_("One library up close")
TABLE_NOTE = N_(
    "Highlighted: differs from this app by more than 1e-9. *no such metric*: the library has none; "
    "*no value*: it refuses this input or leaves this user out of its mean (see the differences). "
    "This app's defaults: AP divides by min(|Rel|, K), linear gain, the ideal from every relevant item.")
MEAN_INTRO = N_("**What this user does to a mean.** Averaged with the NumPy tutorial's user (101..110, relevant "
                "{101, 104, 107}), each library's way:")
MAP_ALONE = N_("MAP@K, the NumPy tutorial's user alone")
MAP_WITH = N_("MAP@K with this user")
EMPTY_USERS = N_("users with no relevant item")
SETTING = N_("setting")
DIFFERS = N_("differs")
WHAT_USERS_CALL = N_("what its users call")
TESTED = N_("Tested: the test suite runs this code and checks it prints the table's values.")
CHART_TITLE = N_("Each library's value, coloured by its difference from the app's")
CHART_DELTA = N_("library − app")
LIBRARY_COLUMN = N_("library")

WHY_NOT_RUN = {
    "torchmetrics": N_("torchmetrics needs PyTorch, whose Linux build on PyPI brings several GB of CUDA packages"),
    "Recommenders": N_("Recommenders 1.2.1 requires pandas < 3 (and Jupyter, LightGBM and transformers)"),
    "RecBole": N_("RecBole 1.2.1 breaks on numpy 2"),
}
"""Why a snippet is not run by the tests (each reason checked with pip against this app's requirements), keyed by
library; ui.library_snippets.WHY_NOT_RUN is this dict."""

PITFALLS = (
    N_("**Ties** never arise here: a ranked list has no tied scores. When libraries rank by scores, ties are "
       "averaged (scikit-learn, torchmetrics), broken by document id (trec_eval) or kept in input order (ranx); "
       "the NDCG page shows the effect."),
    N_("**Means over users.** A library that leaves a user with nothing relevant out of its mean (Evidently, "
       "cornac, Recommenders, RecBole, RecTools) reports a higher MAP than one that counts them as 0 (trec_eval "
       "for judged users, ranx, torchmetrics, Spark): adding one such user to the NumPy tutorial's user halves "
       "MAP, .6429 → .3214."),
    N_("**PySpark drops grades.** `RankingMetrics` in Python passes only the list and the labels to the JVM, so "
       "its NDCG is binary (0.6886 on the NumPy tutorial's graded example). The Scala API with relevance sums the "
       "ideal DCG in label order, which can exceed 1."),
)


def preset_label(key: str) -> str:
    return _(PRESETS[key][0])


def preset_story(key: str) -> str:
    return _(PRESETS[key][1])


def loaded_banner(key: str) -> str:
    return _("**{label}.** {story}").format(label=preset_label(key), story=preset_story(key))


def formula_caption(owner: str, metric: str) -> str:
    return _("{owner} {metric} next to this app's, for the scenario below (choose the library and metric under "
             "*One library up close*).").format(owner=owner, metric=metric)


def results_note(summary: str) -> str:
    return _("{summary} The table below has every library's value; the chart under it shows how far each is "
             "from this app's.").format(summary=summary)


def table_heading(k: int) -> str:
    return _("What each library reports (K = {k})").format(k=numbers.integer(k))


def disagreement_summary(cells: int, libraries: int) -> str:
    """How many library values differ from this app's, and in how many libraries."""
    if not cells:
        return _("**Every library agrees with this app on this scenario.**")
    values = ngettext("{n} value", "{n} values", cells).format(n=numbers.integer(cells))
    where = ngettext("{n} library", "{n} libraries", libraries).format(n=numbers.integer(libraries))
    return ngettext("**{values} in {libraries} differs from this app's on this scenario.**",
                    "**{values} in {libraries} differ from this app's on this scenario.**", cells).format(
        values=values, libraries=where)


def difference_line(library: str, metric: str, shown: str, app_value: str, explanation: str, cause: str) -> str:
    return _("- **{library}**, {metric}: {value} instead of {app_value}. {explanation} *(cause: {cause})*").format(
        library=library, metric=metric, value=shown, app_value=app_value, explanation=explanation, cause=cause)


def library_option(name: str, differing: int) -> str:
    return ngettext("{library} ({n} differing)", "{library} ({n} differing)", differing).format(
        library=name, n=numbers.integer(differing))


def conventions_heading(owner: str, version: str) -> str:
    return _("**{owner} conventions next to this app's** · {version}").format(owner=owner, version=version)


def step_by_step(metric: str, library: str) -> str:
    return _("**{metric} step by step: {library} vs this app**").format(metric=metric, library=library)


def check_it_yourself(owner: str) -> str:
    return _("**Check it yourself** with {owner} own code (this scenario filled in)").format(owner=owner)


def not_run(library: str) -> str:
    why = _(WHY_NOT_RUN[library]) if library in WHY_NOT_RUN else ""
    return _("Not run by the tests ({why}): written from the library's documentation and source. The table's "
             "values for {library} match the values measured in library-conventions.md.").format(why=why, library=library)


def _fmt(value: float) -> str:
    """A number in a formula as a learner writes it: integers plain, others to 4 places, in the reader's notation."""
    return str(int(value)) if float(value).is_integer() else numbers.latex(value, 4)


def breakdown_latex(name: str, metric: str, k: int, b: conv.Breakdown) -> str:
    """``name``'s value of ``metric`` as numerator / denominator = value, in LaTeX."""
    label = {"precision": rf"\mathrm{{P@{k}}}", "recall": rf"\mathrm{{R@{k}}}",
             "average_precision": rf"\mathrm{{AP@{k}}}", "ndcg": rf"\mathrm{{NDCG@{k}}}",
             "reciprocal_rank": r"\mathrm{RR}"}[metric]
    who = text.latex(name)
    if math.isnan(b.value):
        return rf"{label}_{{{who}}} = {text.latex(_(NO_VALUE))}"
    if math.isnan(b.denominator) or not b.denominator:
        return rf"{label}_{{{who}}} = {_fmt(b.value)}"
    return rf"{label}_{{{who}}} = \frac{{{_fmt(b.numerator)}}}{{{_fmt(b.denominator)}}} = {_fmt(b.value)}"


def library_over_app(library: str, metric: str, k: int, theirs: conv.Breakdown, ours: conv.Breakdown) -> str:
    """The library's formula above this app's, one line each, so the pair fits a phone as well as a projector."""
    return (r"\begin{aligned}&" + breakdown_latex(library, metric, k, theirs) + r"\\ " + text.latex(_(VERSUS))
            + r"\ &" + breakdown_latex(_(THIS_APP), metric, k, ours) + r"\end{aligned}")


def differences_in_words(differences, recommended, ground_truth, k: int) -> str:
    """One line per value unlike the app's (the rows of ``metrics.conventions.differences``): both values,
    what the library does with this input, and the settings that cause it."""
    lines = []
    for row in differences.itertuples():
        shown = _(NO_VALUE) if words_of.is_missing(row.library_value) else numbers.number(row.library_value, 4)
        label = conv.METRIC_LABELS[row.metric].replace("K", str(k))
        explanation = words_of.explanation(row.causes, conv.CONVENTIONS[row.library], row.metric, recommended,
                                           ground_truth, k)
        lines.append(difference_line(row.library, label, shown, numbers.number(row.app_value, 4),
                                     text.markdown(explanation), words_of.cause(row.causes)))
    return "\n".join(lines)
