"""ui.markup.formulas: substituted formulas that stay readable in a narrow column."""

from hypothesis import given, settings
from hypothesis import strategies as st

from ui.markup import formulas


def test_ap_keeps_one_line_for_early_hits_and_puts_the_result_below_a_wide_sum():
    early = formulas.average_precision_latex([1, 4, 7], [1, 2, 3], 1.9286, 3, 10, 0.6429)
    assert early == r"\mathrm{AP@10}=\frac{\tfrac{1}{1}+\tfrac{2}{4}+\tfrac{3}{7}}{3}=\frac{1.9286}{3}=0.6429"
    late = formulas.average_precision_latex(list(range(10, 101, 10)), list(range(1, 11)), 1.0, 10, 100, 0.1)
    assert late.startswith(r"\begin{aligned}\mathrm{AP@100}&=\frac{\tfrac{1}{10}+\tfrac{2}{20}")
    assert late.endswith(r"\\&=\frac{1}{10}\\&=0.1000\end{aligned}")


@settings(max_examples=100, deadline=None, database=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), max_size=12), st.integers(2, 6),
       st.sampled_from(["+", ""]))
def test_a_sum_written_term_by_term_only_where_shown_reads_as_the_whole_sum_cut(values, max_terms, separator):
    """_joined writes only the terms a long sum shows (a 60,000-row table's): the same text as writing every term."""
    whole = formulas._joined([formulas.latex_number(v) for v in values], separator, max_terms)
    assert formulas._joined(values, separator, max_terms, write=formulas.latex_number) == whole
    written = []
    formulas._joined(values, separator, max_terms, write=lambda v: written.append(v) or "")
    assert len(written) == min(len(values), max_terms), "a term the sum does not show was written"
