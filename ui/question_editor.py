"""“Make a question of this”: the widgets of the editor under the playground and each ranking metric page.

Only wiring: ``content.lessons.editor`` proposes the options and builds (and checks) the lesson. An expander, not a
dialog: at 390 px it is the page's own width, it opens with Enter or Space from the keyboard, and its content is
built only while it is open (``on_change="rerun"``), so editing the list costs nothing while it is closed.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from content import text
from content.i18n import _
from content.lessons import editor as words
from content.lessons.library import teach
from content.lessons.text import option_label
from content.pages import lessons as lesson_words
from metrics.registry import RankingCase
from ui.controllers import lesson_library
from ui.controllers.lesson_files import SESSION_FILES
from ui.controllers import lessons as engine
from ui.navigation import TOPIC_PAGES
from ui.widgets import chart

PHONE = 360
"""The preview's width in pixels: a phone's screen less the page's margins."""


def open_in_session(lesson, translations: dict) -> None:
    """Put a lesson beside the ones the lessons page's “Lesson files” opened, so the teacher can run it."""
    teach(translations)
    st.session_state.setdefault(SESSION_FILES, {})[lesson.key] = (lesson, translations)


def _wrong_options(group: str, metric: str, scenario: dict) -> tuple[words.Proposal, ...]:
    proposed = words.proposals(scenario, metric)
    if not proposed:
        st.info(_(words.NO_PROPOSALS))
        return ()
    st.markdown(_(words.WRONG_OPTIONS))
    chosen = []
    for proposal in proposed:
        name = hashlib.sha1(proposal.mistake.encode()).hexdigest()[:10]
        label = f"**{option_label(proposal.label)}**: {text.markdown(proposal.explanation())}"
        if st.checkbox(label, value=True, key=f"{group}_question_wrong_{metric}_{name}"):
            chosen.append(proposal)
    return tuple(chosen)


def _preview(draft: words.Draft) -> None:
    """The step as the lessons page shows it before an answer, in a phone's width."""
    step = draft.lesson.steps[0]
    question = step.question
    st.caption(_(words.PREVIEW))
    with st.container(border=True, width=PHONE, key="question_preview"):
        st.markdown(f"**{_(step.title)}**")
        st.markdown(_(step.text))
        st.markdown(f"**{_(question.prompt)}**")
        if question.kind == "number":
            st.text_input(_(lesson_words.TYPE_ANSWER), disabled=True, key=f"{draft.lesson.key}_preview_answer")
            st.caption(lesson_words.tolerance(question.tolerance.kind, question.tolerance.amount))
        else:
            st.radio(_(lesson_words.YOUR_ANSWER), [option_label(o.label) for o in question.options], index=None,
                     disabled=True, key=f"{draft.lesson.key}_preview_answer")
        chart(engine.puzzle_figure(step.scenario), key=f"{draft.lesson.key}_preview_chart")


def question_editor(case: RankingCase, group: str, metric: str = "ndcg_at_k") -> None:
    """The editor of a question on ``case``; ``metric`` is chosen first (the page's own metric)."""
    box = st.expander(_(words.OPEN), icon="❓", key=f"{group}_question", on_change="rerun")
    if not box.open:
        return
    with box:
        st.caption(_(words.OPEN_HELP))
        if not case.recommended:
            st.info(_(words.EMPTY_LIST))
            return
        scenario = words.scenario_of(case)
        if scenario["k"] < case.k:
            st.info(_(words.K_CUT).format(k=case.k, count=scenario["k"]))
        left, right = st.columns(2)
        metric = left.selectbox(_(words.METRIC), words.METRICS, index=words.METRICS.index(metric),
                                key=f"{group}_question_metric",
                                format_func=lambda key: words.metric_label(key, scenario["k"]))
        kind = right.radio(_(words.KIND), words.KINDS, key=f"{group}_question_kind", horizontal=True,
                           format_func={kind: _(name) for kind, name in words.KIND_NAMES.items()}.__getitem__)
        if metric == "ap_at_k" and case.ap_denominator != "min":
            st.info(_(words.AP_MIN))
        chosen, decimals = (), 2
        if kind == "value":
            st.markdown(_(words.RIGHT_OPTION).format(
                value=option_label(words.label(words.right_value(scenario, metric)))))
            chosen = _wrong_options(group, metric, scenario)
            if not chosen:  # a choice of one is no question: say what to do rather than refuse a file
                if words.proposals(scenario, metric):
                    st.info(_(words.KEEP_ONE))
                return
        else:
            decimals = st.select_slider(_(words.DECIMALS_LABEL), words.DECIMALS, value=2,
                                        key=f"{group}_question_decimals")
        draft = words.build(scenario, metric, kind, chosen, decimals)
        problems = draft.problems or (lesson_library.drawing_problems(draft.lesson, draft.text) if draft.lesson else ())
        if problems:
            st.error(_(words.NOT_MADE) + "\n\n" + "\n".join(f"- {text.markdown(p.text())}" for p in problems))
            return
        _preview(draft)
        download, run = st.columns(2)
        download.download_button(_(words.DOWNLOAD), draft.text, file_name=f"{draft.lesson.key}.toml",
                                 mime="application/toml", key=f"{group}_question_download", icon="⬇️",
                                 on_click="ignore", width="stretch")
        if run.button(_(words.OPEN_IN_LESSONS), key=f"{group}_question_open", icon="🎓", width="stretch"):
            open_in_session(draft.lesson, draft.translations)
        if draft.lesson.key in st.session_state.get(SESSION_FILES, {}):
            st.success(_(words.OPENED).format(title=text.markdown(_(draft.lesson.title))))
            st.page_link(TOPIC_PAGES["lessons"], label=_(words.RUN_IT), icon="▶️",
                         query_params={"lesson": draft.lesson.key, "step": "1"})
