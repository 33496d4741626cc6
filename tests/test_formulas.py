"""ui.markup.formulas: substituted formulas that stay readable in a narrow column."""

from ui.markup import formulas


def test_ap_keeps_one_line_for_early_hits_and_puts_the_result_below_a_wide_sum():
    early = formulas.average_precision_latex([1, 4, 7], [1, 2, 3], 1.9286, 3, 10, 0.6429)
    assert early == r"\mathrm{AP@10}=\frac{\tfrac{1}{1}+\tfrac{2}{4}+\tfrac{3}{7}}{3}=\frac{1.9286}{3}=0.6429"
    late = formulas.average_precision_latex(list(range(10, 101, 10)), list(range(1, 11)), 1.0, 10, 100, 0.1)
    assert late.startswith(r"\begin{aligned}\mathrm{AP@100}&=\frac{\tfrac{1}{10}+\tfrac{2}{20}")
    assert late.endswith(r"\\&=\frac{1}{10}\\&=0.1000\end{aligned}")
