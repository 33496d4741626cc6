"""Presenter mode of the guided lessons: large type for a projector, and Space for Next."""

import streamlit as st


def presenter_mode() -> None:
    """Large type, and Space for Next: the arrow keys are the buttons' own shortcuts (see below)."""
    st.html(PRESENTER_STYLE)
    st.html(SPACE_FOR_NEXT, unsafe_allow_javascript=True)


PRESENTER_STYLE = """<style>
html {font-size: 20px}  /* Streamlit sizes text in rem: everything grows, the layout keeps its shape */
[data-testid='stMainBlockContainer'] {max-width: none; padding-left: 2rem; padding-right: 2rem}
/* The picture stays in view while the cards and formulas beside it scroll. */
[data-testid='stMain'] [data-testid='stHorizontalBlock']:has(.js-plotly-plot) > [data-testid='stColumn']:has(.js-plotly-plot) {
  position: sticky; top: 0.5rem; align-self: flex-start}
</style>"""

# Space moves to the next step unless the focus is on something Space already means something to.
SPACE_FOR_NEXT = """<script>
if (!window.recevalSpaceForNext) {
  window.recevalSpaceForNext = true;
  document.addEventListener('keydown', (event) => {
    if (event.code !== 'Space' || event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest('input, textarea, select, button, [role=slider], [role=radio], '
        + '[role=switch], [role=checkbox], [role=option], [contenteditable=true]')) return;
    const next = document.querySelector('.st-key-lessons_next button');
    if (!next || next.disabled || !document.querySelector('.st-key-lessons_presenter input:checked')) return;
    event.preventDefault();
    next.click();
  });
}
</script>"""
