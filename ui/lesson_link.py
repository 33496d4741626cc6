"""Keep the scenario in the address bar, open lesson links, and share the scenario as a link or a file.

``ui.widgets.page`` calls :func:`sync` once per run, right after the session's defaults are set:
on a session's first run it opens the link the browser came with; on every run it writes the
current scenario back into the query parameters, so the address bar is always a lesson link.
A page may keep parameters of its own beside the scenario (:data:`PAGE_PARAMS`, e.g. the lessons
page's lesson and step): they are not part of the scenario, and the sync keeps them as they are.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from content import i18n, messages, numbers
from content.i18n import _
from content import text
from ui.navigation import PAGES, TOPIC_PAGES
from ui.input.scenario_link import (
    MAX_BYTES, PRACTICE_DEFAULTS, TABLES, ScenarioError, baseline_setting, baseline_table, from_json_bytes, from_query,
    to_json_bytes, to_query,
)
from ui.state import _defaults, reset_editor
from ui.uploads import file_input

ROOT = Path(__file__).resolve().parents[1]
_SETTINGS = ("k", "gain", "ap_denominator", "loaded_example", "rating_demo", "practice")
# Query parameters a page owns (by topic), kept beside the scenario's: one address bar holds both,
# so a link to a lesson step also reopens the scenario, and the scenario sync never drops the step.
PAGE_PARAMS = {"lessons": ("lesson", "step"), "kata": ("attempt",)}
# Every page keeps the reader's language beside the scenario (ui.language), so a shared link opens in it.
EVERY_PAGE_PARAMS = ("lang",)
_OWN = frozenset(name for names in PAGE_PARAMS.values() for name in names) | set(EVERY_PAGE_PARAMS)


def _own(params: dict, topic: str) -> dict:
    """The parameters of ``params`` that the page of ``topic`` keeps for itself (the language: every page)."""
    return {name: params[name] for name in (*EVERY_PAGE_PARAMS, *PAGE_PARAMS.get(topic, ())) if name in params}


def current_topic() -> str:
    """The topic of the page being run (``home`` for the entry script)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    try:
        script = Path(ctx.pages_manager.get_pages()[ctx.page_script_hash]["script_path"]).resolve()
        relative = script.relative_to(ROOT).as_posix()
    except (AttributeError, KeyError, ValueError, TypeError):
        return "home"
    return next((p.topic for p in PAGES if p.path == relative), "home")


def collect() -> dict:
    """The scenario of this session, as the codec reads it."""
    state = st.session_state
    # A table another part of the app has not set up (or renamed) travels as its version-1 default.
    scenario = {name: state[name] if name in state else baseline_table(name) for name in TABLES}
    scenario.update({key: state[key] if key in state else baseline_setting(key) for key in _SETTINGS})
    scenario["page"] = current_topic()
    return scenario


def apply(scenario: dict) -> None:
    """Replace the session's scenario by a decoded one (already validated in full)."""
    for name in TABLES:
        st.session_state[name] = editable(name, scenario[name])
        reset_editor(name)
    for key in _SETTINGS:
        st.session_state[key] = scenario[key]
    for key in list(st.session_state):  # widgets over the old values start afresh
        if isinstance(key, str) and key.startswith(("rating_demo_", "_cards_")):
            del st.session_state[key]


def _text_columns() -> dict[str, list[str]]:
    """The columns the app keeps as text (its editors show them as text columns), by table."""
    return {name: [c for c in table.columns if table[c].map(lambda v: isinstance(v, str)).all()]
            for name, table in _defaults().items() if name in TABLES}


def _as_text(value):
    if isinstance(value, str) or pd.isna(value):
        return value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def editable(name: str, table):
    """``table`` with numbers in the app's text columns turned into text (``1`` -> ``"1"``).

    A file or link may hold a number there (JSON allows it; files saved before ranks became text
    did), and a text column of the data editor cannot edit a number: the page would fail.
    """
    columns = [c for c in _text_columns().get(name, []) if c in table.columns
               and not table[c].map(lambda v: isinstance(v, str) or pd.isna(v)).all()]
    if not columns:
        return table
    return table.astype({c: object for c in columns}).assign(**{c: lambda t, c=c: t[c].map(_as_text) for c in columns})


def _open_link() -> None:
    everything = st.query_params.to_dict()
    params = {name: value for name, value in everything.items() if name not in _OWN}
    if not params:  # no link, or only a page's own parameters (a lesson step link such as ?lesson=ap&step=2)
        return
    try:
        scenario = from_query(params)
    except ScenarioError as problem:
        st.session_state["_link_problem"] = problem
        return
    apply(scenario)
    if scenario["page"] != current_topic() and scenario["page"] in TOPIC_PAGES:
        # Switching pages clears the address bar: carry over what the target page keeps there itself.
        st.switch_page(TOPIC_PAGES[scenario["page"]], query_params=_own(everything, scenario["page"]))


def sync() -> tuple[dict, dict]:
    """Open the session's link once; then mirror the scenario into the address bar.

    Returns the scenario and its link parameters (empty when it is too long for a link), for
    :func:`share` to draw in the sidebar.
    """
    st.session_state.setdefault("practice", dict(PRACTICE_DEFAULTS))
    st.session_state["_run_number"] = st.session_state.get("_run_number", 0) + 1
    if not st.session_state.get("_link_opened"):
        st.session_state["_link_opened"] = True
        _open_link()
    problem = st.session_state.pop("_link_problem", None)
    if problem:
        st.warning(_("**This link could not be opened, so the default scenario is shown.**") + " "
                   + text.markdown(messages.scenario_error(problem)), icon="🔗")
    scenario = collect()
    params = to_query(scenario)
    current = st.query_params.to_dict()
    own = _own({**current, "lang": i18n.current()}, scenario["page"])
    # Without a link (too long) the scenario parameters are dropped: a stale link would reopen an older scenario.
    wanted = {**params, **own} if params else own
    if current != wanted:
        st.query_params.from_dict(wanted)
    return scenario, wanted if params else {}


def share(scenario: dict, params: dict) -> None:
    """The sidebar's lesson link (to copy) and the scenario as a file to download or open.

    ``ui.widgets.page`` draws it under the practice switch (``ui.practice_mode``, which reads this
    module's scenario: this module never imports it back).
    """
    with st.expander(_("🔗 Lesson link and file")):
        if params:
            base = st.context.url or ""
            st.caption(_("Copy this link (the button at its right): it reopens this page with this exact scenario."))
            st.code(f"{base}?{urlencode(params)}", language=None, wrap_lines=True)
        else:
            st.warning(_("This scenario is too long for a link, even compressed (browsers accept about {limit} "
                         "characters). Download the file below and share that instead.")
                       .format(limit=numbers.integer(8000)), icon="📄")
        # Deferred (a callable): an eager file would be fetched by the browser on every rerun, and a quick second
        # rerun (dragging K) deletes it before that fetch arrives, a 404 in the console.
        st.download_button(_("Download the scenario (JSON)"), partial(to_json_bytes, scenario),
                           file_name="receval-scenario.json",
                           mime="application/json", on_click="ignore", key="_scenario_download")
        upload = file_input(_("Open a scenario file"), "_scenario_upload", types=["json"],
                            megabytes=max(1, MAX_BYTES // 1_000_000))
        _open_upload(upload)


def _open_upload(upload) -> None:
    if upload is None:
        return
    if st.session_state.get("_upload_done") == upload.file_id:
        st.caption(_("Opened {name}.").format(name=text.markdown(upload.name)))
        return
    try:
        scenario = from_json_bytes(upload.getvalue())
    except ScenarioError as problem:
        st.error(_("**{name} was not opened; your scenario is unchanged.**").format(name=text.markdown(upload.name))
                 + " " + text.markdown(messages.scenario_error(problem)), icon="🚫")
        return
    st.session_state["_upload_done"] = upload.file_id
    apply(scenario)
    st.switch_page(TOPIC_PAGES.get(scenario["page"], "app.py"))
