"""The library lens's classic disagreements: a button for each that loads its scenario, and its story while that
scenario is still the one on screen."""

from __future__ import annotations

import streamlit as st

from content.pages import lens as words
from metrics.registry import RankingCase
from ui.controllers import library_lens as lens
from ui.state import ground_truth_table, recommended_table, reset_editor


def _load(key: str) -> None:
    preset = lens.BY_KEY[key]
    st.session_state["recommended"] = recommended_table(preset.recommended)
    st.session_state["ground_truth"] = ground_truth_table(preset.ground_truth)
    for name in ("recommended", "ground_truth"):
        reset_editor(name)
    st.session_state["k"] = preset.k
    st.session_state["lens_preset"] = key


def buttons() -> None:
    columns = st.columns(3)
    for index, preset in enumerate(lens.PRESETS):
        columns[index % 3].button(preset.label, key=f"lens_load_{preset.key}", on_click=_load, args=(preset.key,),
                                  width="stretch", help=preset.story)


def story_while_on_screen(case: RankingCase) -> None:
    loaded = lens.BY_KEY.get(st.session_state.get("lens_preset"))
    if loaded and loaded.on_screen(case):
        st.info(words.loaded_banner(loaded.key), icon="🔎")
