"""Run on my input: the input box, the run through the judge's sandbox and pool, the values side by side."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from content import kata as kata_texts
from content.i18n import _
from content.pages import kata as words
from content.pages import kata_tools as tool_words
from kata import SandboxUnavailable, tryout
from kata.judge import close
from kata.problems import Problem
from ui.controllers.kata_views import inputs_literal, show_value
from content import text

_RESULTS = "_kata_tryouts"


def _input_key(problem: Problem) -> str:
    return f"kata_input_{problem.key}"


def input_box(problem: Problem) -> None:
    """The candidate's own input, starting from the last example (kept per problem for the session)."""
    st.session_state.setdefault(_input_key(problem), inputs_literal(tryout.examples(problem)[-1]))
    with st.expander(_(tool_words.INPUT_EXPANDER)):
        st.caption(_(tool_words.TRY_HELP))
        # No max_chars: a browser cuts a long paste silently; parse_input refuses it and says so.
        st.text_area(_(tool_words.INPUT_LABEL), key=_input_key(problem), height=90)


def run(problem: Problem, code: str) -> None:
    """Parse the input, run the code in the sandbox, keep the outcome for this session."""
    st.session_state.setdefault(_RESULTS, {}).pop(problem.key, None)
    try:
        own = tryout.parse_input(problem, st.session_state.get(_input_key(problem), ""))
    except tryout.InputError as refused:
        st.session_state[_RESULTS][problem.key] = (code, refused)
        return
    with st.spinner(_(words.RUNNING)):
        try:
            outcome = tryout.submit(problem.key, code, own).wait()
        except SandboxUnavailable as problem_text:
            outcome = words.no_sandbox(text.markdown(str(problem_text)), kept=True)
        except (RuntimeError, OSError) as problem_text:
            outcome = words.judge_failed(text.markdown(str(problem_text)))
    st.session_state[_RESULTS][problem.key] = (code, outcome)


def _table(problem: Problem, outcome: tryout.Tryout) -> pd.DataFrame:
    examples = len(tryout.examples(problem))
    rows = []
    for number, row in enumerate(outcome.rows, start=1):
        label = _(tool_words.EXAMPLE).format(n=number) if number <= examples else _(tool_words.YOUR_INPUT)
        if row.error is not None:
            yours = kata_texts.judge_message(row.error, problem.function).splitlines()[0]
        elif row.got is None:
            yours = _(tool_words.NOT_RUN)
        else:
            yours = show_value(row.got)
        same = row.error is None and row.got is not None and close(row.expected, row.got)
        rows.append({"input": f"{label}: {inputs_literal(row.case)}", "right": show_value(row.expected),
                     "yours": yours, "same": _(tool_words.SAME) if same else _(tool_words.DIFFERENT)})
    return pd.DataFrame(rows, columns=list(tool_words.TRY_COLUMNS))


def show(problem: Problem, code: str) -> None:
    """The last try of this problem, while the code is still the one it ran (an edit makes it stale)."""
    ran, outcome = st.session_state.get(_RESULTS, {}).get(problem.key, (None, None))
    if outcome is None or ran != code:
        return
    if isinstance(outcome, tryout.InputError):
        st.error(tool_words.input_refused(outcome.code, {k: text.markdown(str(v)) if isinstance(v, str) else v
                                                        for k, v in outcome.fields.items()}), icon="✍️")
        return
    if isinstance(outcome, str):
        st.error(outcome, icon="⚠️")
        return
    st.markdown(_(tool_words.TRY_HEADING))
    if outcome.error:
        st.code(kata_texts.judge_message(outcome.error, problem.function), language=None, wrap_lines=True)
    if outcome.rows:
        st.dataframe(_table(problem, outcome), hide_index=True, width="stretch",
                     column_config={name: _(label) for name, label in tool_words.TRY_COLUMNS.items()})
    if outcome.stdout:
        with st.expander(_(words.PRINTED)):
            st.code(outcome.stdout, language=None, wrap_lines=True)
