"""The "hide the answers" switch: cards, formulas with numbers and charts stay hidden until the learner
types a value for one metric and presses Check.

Hooks: ``ui.widgets.metric_cards`` starts with ``if practice_mode.gate(values, group, k): return``
and ``ui.widgets.formula`` passes its numbers through :func:`unless_hidden`. Every edit of the
scenario (and every page) hides the answers again, because they are revealed for one scenario
fingerprint only.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math

import streamlit as st

from content import metrics as metric_texts
from content import numbers
from content import practice as quiz_words
from content.i18n import _

from teaching import practice
from metrics.registry import RankingCase
from ui.choice import choice
from ui.input import tables
from content import text
from ui.lesson_link import collect, current_topic
from ui.input.scenario_link import to_json_bytes

def hidden_latex() -> str:
    """What a formula with numbers shows while the answers are hidden."""
    return text.latex(_("hidden: check your own answer first"))
# In the browser, charts, read-only tables (breakdowns) and every displayed formula outside the first
# column (where ``formula`` puts the general one; pages write numbers into the others) are hidden.
# The scenario editors, whose containers carry their key (``..._editor_N``), stay.
_HIDE_CSS = ("<style>[data-testid='stElementContainer']:has([data-testid='stPlotlyChart']),"
             "[data-testid='stElementContainer']:has([data-testid='stDataFrame']):not([class*='_editor_']),"
             "[data-testid='stElementContainer']:has(.katex-display)"
             ":not([data-testid='stColumn']:first-child [data-testid='stElementContainer'])"
             " {display: none;}</style>")


def _settings() -> dict:
    return st.session_state.get("practice") or {}


def _fingerprint() -> str:
    """The scenario as it is at this moment (an editor stores its edits during the run)."""
    return hashlib.sha1(to_json_bytes(collect())).hexdigest()


def hidden() -> bool:
    """Whether answers are hidden now: the switch is on and no answer was checked for this scenario."""
    return bool(_settings().get("hide_answers")) and st.session_state.get("_revealed_for") != _fingerprint()


def _toggle() -> None:
    st.session_state["practice"] = {**_settings(), "hide_answers": st.session_state["_hide_answers_widget"]}


def switch() -> None:
    """The sidebar switch; while answers are hidden, charts and breakdown tables are hidden too."""
    st.session_state["_hide_answers_widget"] = bool(_settings().get("hide_answers"))
    st.toggle(_("🙈 Hide the answers"), key="_hide_answers_widget", on_change=_toggle,
              help=_("Hide every metric card, formula with numbers and chart until you type your own value and "
                     "press Check."))
    if hidden() and current_topic() != "practice":  # the quiz needs its lists and charts
        st.html(_HIDE_CSS)
        st.session_state[HIDING_CHARTS] = True


HIDING_CHARTS = "_practice_hides_charts"
"""True in a run whose charts the switch hides (``ui.widgets.page`` clears it first): a chart's summary
and data, which state its numbers, are then left out too."""


def hides_charts() -> bool:
    return bool(st.session_state.get(HIDING_CHARTS))


def unless_hidden(substituted: str | None) -> str | None:
    """The formula with numbers, or a placeholder while answers are hidden."""
    return hidden_latex() if substituted and hidden() else substituted


def _label(key: str, k: int | None) -> str:
    return metric_texts.label(key, k)


def _ranking_case() -> RankingCase | None:
    """The shared ranking scenario as the pages compute it, to recompute the mistakes from."""
    state = st.session_state
    try:
        items = tables.parse_recommended(state["recommended"]).columns["recommended"]
        grades = tables.parse_ground_truth(state["ground_truth"]).columns["ground_truth"]
        return RankingCase(items, grades, int(state["k"]), state["gain"], state["ap_denominator"])
    except (KeyError, ValueError, TypeError):
        return None


def _mistakes(key: str, shown: float, k: int | None) -> dict[str, float]:
    """The mistake catalogue for a card, when the shared ranking scenario is what the card shows."""
    metric = practice.CARD_KEYS.get(key)
    case = _ranking_case()
    if metric is None or case is None or (k is not None and k != case.k):
        return {}
    if not practice.close(practice.QUIZ_METRICS[metric].compute(case), shown):
        return {}
    return practice.mistakes(metric, case)


def _check(group: str, values: dict, k: int | None, labels: dict[str, str]) -> None:
    key = st.session_state[f"_practice_{group}_metric"]
    value = values[key]
    typed = st.session_state.get(f"_practice_{group}_answer", "")
    if value is None or (isinstance(value, float) and math.isnan(value)):
        verdict = practice.Verdict(False, _("This metric is undefined here, so there is no number to type."))
    else:
        try:
            verdict = practice.check_number(quiz_words.for_the_engine(typed), value, _mistakes(key, value, k))
            if verdict.code:  # said in the reader's language, their typed text quoted as typed
                verdict = dataclasses.replace(verdict, message=quiz_words.verdict_message(verdict, typed))
        except numbers.NumberError as refused:
            verdict = practice.Verdict(False, numbers.parse_error_message(refused), unreadable=True)
    st.session_state["_practice_verdict"] = (group, labels.get(key) or _label(key, k), verdict.correct, verdict.message,
                                             verdict.unreadable)
    if not verdict.unreadable:  # a typo (or a comma that is no decimal mark here) is no attempt: ask again
        st.session_state["_revealed_for"] = _fingerprint()


def gate(values: dict, group: str, k: int | None = None, labels: dict[str, str] | None = None) -> bool:
    """While hidden: the answer form instead of the cards (returns True). Else: the last verdict, if any."""
    if not hidden():
        shown = st.session_state.get("_practice_verdict")
        if shown and shown[0] == group and _settings().get("hide_answers"):
            _group, label, correct, message, _unreadable = shown
            (st.success if correct else st.error)(f"**{text.markdown(label)}:** {text.markdown(message)}",
                                                  icon="✅" if correct else "❌")
        return False
    with st.container(border=True):
        shown = st.session_state.get("_practice_verdict")
        if shown and shown[0] == group and shown[4]:  # a typo: said above the form, which stays as typed
            st.error(f"**{text.markdown(shown[1])}:** {text.markdown(shown[3])}", icon="❌")
        run = st.session_state.get("_run_number")
        if st.session_state.get("_gate_explained_in") != run:  # the first form of a page says what to do
            st.session_state["_gate_explained_in"] = run
            st.markdown(_("🙈 **Answers hidden.** Work out one of these metrics yourself, type your value "
                          "and press **Check** to see every number.") + " " + quiz_words.answer_rule())
        else:
            st.markdown(_("🙈 **Answers hidden** here too: check one of these."))
        columns = st.columns([2, 2, 1], vertical_alignment="bottom")
        keys = list(values)
        with columns[0]:
            choice(st.selectbox, _("Metric"), keys, f"_practice_{group}_metric", format_func=lambda key: (labels or {}).get(key) or _label(key, k))
        with columns[1]:
            st.text_input(_("Your value"), key=f"_practice_{group}_answer",
                          placeholder=_("e.g. {a}, {b} or 9/14").format(a=numbers.general(0.643), b=numbers.general(0.6429)))
        with columns[2]:
            st.button(_("Check"), key=f"_practice_{group}_check", on_click=_check, args=(group, dict(values), k, dict(labels or {})))
    return True
