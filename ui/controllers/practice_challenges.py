"""The practice page's goal challenges: pick one, Start loads its list into the shared scenario, and the goal is
checked live on the scenario as the reader edits it."""

from __future__ import annotations

import streamlit as st

from content import practice as quiz_words
from content import text
from content.i18n import _
from content.pages import practice as words
from teaching.challenges import CHALLENGE_K, CHALLENGES
from ui.scenario import ranking_scenario
from ui.state import ground_truth_table, recommended_table, reset_editor
from ui.widgets import choice


def _start(key: str) -> None:
    challenge = CHALLENGES[key]
    items = [str(i) for i in challenge.recommended]
    st.session_state["recommended"] = recommended_table(items)
    st.session_state["ground_truth"] = ground_truth_table(challenge.ground_truth)
    for name in ("recommended", "ground_truth"):
        reset_editor(name)
    st.session_state["k"] = CHALLENGE_K
    st.session_state["loaded_example"] = None
    st.session_state["practice"] = {**st.session_state["practice"], "challenge": key, "challenge_start": items}


def picker() -> str | None:
    """The goals and Start (Start again on the one under way); returns the goal under way, if any."""
    st.markdown(_(words.CHALLENGES_INTRO))
    keys = list(CHALLENGES)
    active = st.session_state["practice"]["challenge"]
    chosen = choice(st.radio, _(words.GOAL), keys, "_challenge_choice",
                    format_func={k: quiz_words.challenge_title(k) for k in keys}.__getitem__,
                    index=keys.index(active) if active in keys else 0)
    st.button(_(words.START) if active != chosen else _(words.START_AGAIN), on_click=_start, args=(chosen,),
              key="_challenge_start")
    return active


def live_goal(active: str) -> None:
    """The goal and its starting list, the shared scenario, and whether the goal is met yet."""
    challenge = CHALLENGES[active]
    start = st.session_state["practice"]["challenge_start"] or []
    st.markdown(words.goal(quiz_words.challenge_title(active), text.markdown(_(", ").join(start))))
    case, _tables, results = ranking_scenario(show_gain=False)
    status = challenge.check(start, [str(i) for i in case.recommended], dict(case.ground_truth))
    with results:
        (st.success if status.met else st.info)(quiz_words.status_message(status),
                                                icon="🏁" if status.met else "🎯")
