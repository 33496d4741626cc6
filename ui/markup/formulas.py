"""LaTeX of each formula with the current numbers substituted. No Streamlit here.

General formulas come from ``metrics.registry``; these builders fill in the numbers a learner
would write when checking a hand calculation.
"""

from __future__ import annotations


from content import metrics as metric_texts
from content import numbers
from content.i18n import _
from content import text as escape


def _decimal(written: str) -> str:
    """A number written with the point, in the reader's notation for KaTeX (Turkish ``0{,}75``)."""
    return written.replace(".", "{,}") if numbers.decimal_mark() == "," else written


def _n(value: float, digits: int = 4) -> str:
    """``value`` to ``digits`` places for KaTeX, in the reader's notation (0.8290; Turkish 0{,}8290)."""
    return numbers.latex(value, digits)


def _words(sentence: str) -> str:
    """Translated words inside a formula: KaTeX ``\text{...}``, escaped."""
    return escape.latex(sentence)


translated_words = metric_texts.formula_words


def fmt(value: float, digits: int = 4) -> str:
    """A number as a learner would write it: integers plain, others to ``digits`` places."""
    return str(int(value)) if float(value).is_integer() else _n(value, digits)


def _short(value: float) -> str:
    """A number to at most 4 places without trailing zeros: 0.3, 0.75, 0.4286, 1."""
    return _decimal(f"{value:.4f}".rstrip("0").rstrip("."))


def precision_at_k_latex(hits: int, k: int, value: float) -> str:
    """P@K with the hit count and K substituted, e.g. P@10 = 3/10 = 0.3000."""
    return rf"\mathrm{{P@{k}}}=\frac{{{hits}}}{{{k}}}={_n(value)}"


def recall_at_k_latex(hits: int, n_relevant: int, k: int, value: float) -> str:
    """R@K with the hit count and |Rel| substituted; an empty ground truth is scored 0."""
    if n_relevant == 0:
        return rf"\mathrm{{R@{k}}}=\frac{{0}}{{0}}\to 0\ " + _words(_("(no relevant item: scored 0)"))
    return rf"\mathrm{{R@{k}}}=\frac{{{hits}}}{{{n_relevant}}}={_n(value)}"


def f1_at_k_latex(p: float, r: float, k: int, value: float) -> str:
    """F1@K with P@K and R@K substituted; 0 when both are 0."""
    if p == 0 and r == 0:
        return rf"\mathrm{{F1@{k}}}=0\ " + _words(_("(P@{k} and R@{k} are both 0)").format(k=k))
    p_, r_ = _short(p), _short(r)
    return rf"\mathrm{{F1@{k}}}=\frac{{2\cdot {p_}\cdot {r_}}}{{{p_}+{r_}}}={_n(value)}"


def hit_rate_at_k_latex(hits: int, k: int, value: float) -> str:
    """HR@K for one user with the hit count substituted."""
    return rf"\mathrm{{HR@{k}}}=\mathbb{{1}}\left[{hits}>0\right]={_short(value)}"


def average_precision_latex(ranks, hits_so_far, total: float, divide_by: int, k: int, value: float) -> str:
    """AP@K written out: (hits so far / rank at each hit) summed, over the denominator D.

    ``ranks`` and ``hits_so_far`` are the hit rows of ``average_precision_table``.
    """
    terms = [rf"\tfrac{{{h}}}{{{r}}}" for h, r in zip(hits_so_far, ranks, strict=True)]
    if not terms:
        return rf"\mathrm{{AP@{k}}}=0\ " + _words(_("(no relevant item in the top {k})").format(k=k))
    latex = (rf"\mathrm{{AP@{k}}}=\frac{{{_joined(terms)}}}{{{divide_by}}}"
             rf"=\frac{{{_short(total)}}}{{{divide_by}}}={_n(value)}")
    # Ranks of two or three digits make the sum too wide for a phone on one line: the result goes below.
    shown = _joined(ranks, separator="")
    return aligned_steps(latex) if len(shown.replace(r"\cdots", "")) > 8 else latex


def reciprocal_rank_latex(rank: int | None, value: float) -> str:
    """RR with the first hit's rank substituted; 0 when nothing relevant is in the list."""
    if rank is None:
        return r"\mathrm{RR}=0\ " + _words(_("(no relevant item anywhere in the list)"))
    return rf"\mathrm{{RR}}=\frac{{1}}{{{rank}}}={_n(value)}"


def mean_over_users_latex(label: str, values, value: float) -> str:
    """A mean over users written out, e.g. MAP@10 = (0.75 + 0.3333 + 0) / 3 = 0.3611."""
    values = list(values)
    terms = _joined([_short(v) for v in values])
    return rf"\mathrm{{{label}}}=\frac{{{terms}}}{{{len(values)}}}={_n(value)}"


def general(latex: str) -> str:
    r"""A general formula with clauses (``A,\ B``) as one clause per line, so it fits a narrow column.

    >>> general(r"a=\frac{b}{c},\ c=\{0,1\}")
    '\\begin{gathered}a=\\frac{b}{c}\\\\ c=\\{0,1\\}\\end{gathered}'
    """
    clauses, depth, start = [], 0, 0
    for index, char in enumerate(latex):
        depth += {"{": 1, "}": -1}.get(char, 0) if latex[index - 1:index] != "\\" else 0
        if depth == 0 and latex.startswith(r",\ ", index):
            clauses.append(latex[start:index])
            start = index + 3
    clauses.append(latex[start:])
    if len(clauses) == 1:
        return latex
    return r"\begin{gathered}" + r"\\ ".join(clauses) + r"\end{gathered}"


def latex_number(value: float) -> str:
    """A typed-in number for LaTeX: at most 4 decimals without trailing zeros, tiny ones as a×10^b."""
    value = float(value)
    if value != 0 and abs(value) < 1e-3:
        mantissa, exponent = f"{value:.2e}".split("e")
        return rf"{_decimal(mantissa)}\times10^{{{int(exponent)}}}"
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else _decimal(text)


def _signed(value: float) -> str:
    text = latex_number(value)
    return f"({text})" if float(value) < 0 else text


def _joined(terms, separator: str = "+", max_terms: int = 5, write=str) -> str:
    """The terms of a sum; long sums show the first few, a \\cdots and the last one. ``write`` turns a term into
    its text and is called only for the terms shown: a 60,000-row table's sum shows five, and writing every term in
    the reader's notation took seconds a run."""
    terms = list(terms)
    if len(terms) > max_terms:
        return separator.join([*map(write, terms[: max_terms - 1]), r"\cdots", write(terms[-1])])
    return separator.join(map(write, terms))


def rating_errors_latex(table, values: dict[str, float], max_terms: int = 5) -> dict[str, str]:
    """RMSE, MAE and MSE with the ratings of ``rating_errors_table`` substituted.

    ``values`` holds the metrics' results (keys rmse, mae, mse), computed by ``metrics``.
    """
    n = len(table)
    pairs = list(zip(table["prediction"], table["actual"], strict=True))
    squares = _joined(pairs, max_terms=max_terms, write=lambda pa: f"({latex_number(pa[0])}-{_signed(pa[1])})^2")
    absolutes = _joined(pairs, max_terms=max_terms,
                        write=lambda pa: rf"\lvert {latex_number(pa[0])}-{_signed(pa[1])}\rvert")
    squared = _joined(table["squared_error"], max_terms=max_terms, write=latex_number)
    absolute = _joined(table["absolute_error"], max_terms=max_terms, write=latex_number)
    mse, rmse, mae = (_n(values[key]) for key in ("mse", "rmse", "mae"))
    return {
        "mse": rf"\mathrm{{MSE}}=\tfrac{{1}}{{{n}}}\left[{squares}\right]=\tfrac{{1}}{{{n}}}\left[{squared}\right]={mse}",
        "rmse": rf"\mathrm{{RMSE}}=\sqrt{{\tfrac{{1}}{{{n}}}\left[{squared}\right]}}=\sqrt{{{mse}}}={rmse}",
        "mae": rf"\mathrm{{MAE}}=\tfrac{{1}}{{{n}}}\left[{absolutes}\right]=\tfrac{{1}}{{{n}}}\left[{absolute}\right]={mae}",
    }


def classification_latex(counts: dict[str, int], values: dict[str, float]) -> dict[str, str]:
    """Accuracy, precision, recall and F1 with TP, FP, TN, FN substituted.

    ``values`` holds the metrics' results (keys accuracy, precision, recall, f1). A 0/0 is shown
    as such, with the 0 that scikit-learn's ``zero_division`` default (and ``metrics``) returns.
    """
    tp, fp, tn, fn = (counts[k] for k in ("TP", "FP", "TN", "FN"))
    shown = {key: _n(value) for key, value in values.items()}
    zero = r"\;\to\;0\ " + _words(_("(0/0, taken as 0)"))
    p, r = shown["precision"], shown["recall"]
    return {
        "accuracy": rf"\mathrm{{Accuracy}}=\frac{{{tp}+{tn}}}{{{tp}+{fp}+{tn}+{fn}}}={shown['accuracy']}",
        "precision": rf"\mathrm{{Precision}}=\frac{{{tp}}}{{{tp}+{fp}}}" + (zero if tp == fp == 0 else f"={p}"),
        "recall": rf"\mathrm{{Recall}}=\frac{{{tp}}}{{{tp}+{fn}}}" + (zero if tp == fn == 0 else f"={r}"),
        "f1": rf"F_1=\frac{{2\cdot {p}\cdot {r}}}{{{p}+{r}}}"
              + (zero if values["precision"] == values["recall"] == 0 else f"={shown['f1']}"),
    }


def log_loss_latex(terms, value: float, eps: float, max_terms: int = 5) -> str:
    """LogLoss with each sample's −ln(probability of its true label) written out.

    ``terms`` is ``metrics.classification_metrics.log_loss_terms``; a clipped probability is
    written as ε or 1 − ε, with ε's value at the end.
    """
    n = len(terms)

    def loss_term(row) -> str:
        label, probability, p_true, clipped = row
        if clipped:
            return r"-\ln\varepsilon" if p_true < 0.5 else r"-\ln(1-\varepsilon)"
        return rf"-\ln {latex_number(probability)}" if label == 1 else rf"-\ln(1-{latex_number(probability)})"

    rows = zip(terms["label"], terms["probability"], terms["p_true_label"], terms["was_clipped"], strict=True)
    written = _joined(rows, separator="", max_terms=max_terms, write=loss_term)
    losses = _joined(terms["loss"], max_terms=max_terms, write=latex_number)
    text = (rf"\mathrm{{LogLoss}}=\tfrac{{1}}{{{n}}}\left[{written}\right]"
            rf"=\tfrac{{1}}{{{n}}}\left[{losses}\right]={_n(value)}")
    if terms["was_clipped"].any():
        text += rf",\quad \varepsilon={latex_number(eps)}"
    return text


def _wrapped_sum(terms: list[str], per_line: int = 3, max_terms: int = 8) -> str:
    """Terms joined by +, broken onto new aligned lines every ``per_line`` terms; past
    ``max_terms`` only the first few, a \\cdots and the last one are written."""
    if len(terms) > max_terms:
        terms = terms[: per_line - 1] + [r"\cdots", terms[-1]]
    lines = ["+".join(terms[i:i + per_line]) for i in range(0, len(terms), per_line)]
    return r"\\&\quad+".join(lines) if lines else "0"


def dcg_terms_latex(table, name: str, k: int) -> str:
    r"""Aligned lines ``DCG@K &= g/\log_2(i+1) + ... = total`` listing only the nonzero terms.

    ``table`` is a DCG table of ``metrics.ndcg`` (columns rank, gain, contribution, running_dcg).
    A sum that needs more than one line gets its total on a line of its own, so it is never cut.
    """
    terms = [rf"\frac{{{latex_number(g)}}}{{\log_2 {int(r) + 1}}}"
             for r, g, c in zip(table["rank"], table["gain"], table["contribution"], strict=True) if c != 0]
    total = float(table["running_dcg"].iloc[-1]) if len(table) else 0.0
    if len(terms) <= 3:  # one line, total included, fits a 390 px phone
        return rf"\mathrm{{{name}@{k}}} &= {_wrapped_sum(terms)} = {_n(total)}"
    count = r"\ " + _words(_("({count} terms)").format(count=numbers.integer(len(terms)))) if len(terms) > 8 else ""
    return rf"\mathrm{{{name}@{k}}} &= {_wrapped_sum(terms)}\\&= {_n(total)}{count}"


def ndcg_latex(actual, ideal, k: int, value: float) -> str:
    """DCG@K, IDCG@K and NDCG@K with the numbers substituted, from the two tables of ``ndcg_tables``.

    ``value`` is the NDCG computed by ``metrics``; an IDCG of 0 is written as scored 0.
    """
    dcg = float(actual["running_dcg"].iloc[-1]) if len(actual) else 0.0
    idcg = float(ideal["running_dcg"].iloc[-1]) if len(ideal) else 0.0
    if idcg == 0:
        last = rf"\mathrm{{NDCG@{k}}} &= 0\ " + _words(_("(IDCG = 0: no item has a grade above 0, scored 0)"))
    else:
        last = rf"\mathrm{{NDCG@{k}}} &= \frac{{{_n(dcg)}}}{{{_n(idcg)}}} = {_n(value)}"
    lines = [dcg_terms_latex(actual, "DCG", k), dcg_terms_latex(ideal, "IDCG", k), last]
    return r"\begin{aligned}" + r"\\".join(lines) + r"\end{aligned}"


def auc_pairs_latex(counts: dict) -> dict[str, str]:
    """AUC from pair counts (``metrics.classification_metrics.auc_pair_counts``), ties 1/2 and strict >.

    Keys ``"ties_half"`` (scikit-learn) and ``"strict"`` (the seed's loop, cornac).
    """
    p, n, higher, tied = counts["positives"], counts["negatives"], counts["higher"], counts["tied"]
    if p == 0 or n == 0:
        undefined = rf"=\frac{{0}}{{{p}\cdot {n}}}\ " + _words(_(": undefined (no positive/negative pair)"))
        return {"ties_half": r"\mathrm{AUC}" + undefined, "strict": r"\mathrm{AUC}_{>}" + undefined}
    return {
        "ties_half": rf"\mathrm{{AUC}}=\frac{{n_{{>}}+\tfrac12\,n_{{=}}}}{{P\cdot N}}"
                     rf"=\frac{{{higher}+{_decimal('0.5')}\cdot {tied}}}{{{p}\cdot {n}}}={_n(counts['auc'])}",
        "strict": rf"\mathrm{{AUC}}_{{>}}=\frac{{n_{{>}}}}{{P\cdot N}}=\frac{{{higher}}}{{{p}\cdot {n}}}"
                  rf"={_n(counts['auc_strict'])}",
    }


def gauc_latex(table, weight: str, value: float, max_terms: int = 5) -> str:
    """GAUC written out as sum(w_u * AUC_u) / sum(w_u) over the users of ``gauc_table`` that have an AUC."""
    used = table[table["skipped_because"] == ""]
    if used.empty:
        return r"\mathrm{GAUC}\ " + _words(_("undefined: every user has only one class"))
    weights = [latex_number(w) for w in used[weight]]
    products = [rf"{w}\cdot {_n(a)}" for w, a in zip(weights, used["auc"], strict=True)]
    return (rf"\mathrm{{GAUC}}_{{{_words(_weight_name(weight))}}}=\frac{{{_joined(products, max_terms=max_terms)}}}"
            rf"{{{_joined(weights, max_terms=max_terms)}}}={_n(value)}")


def _weight_name(weight: str) -> str:
    return {"impressions": _("impressions"), "clicks": _("clicks"), "uniform": _("uniform")}.get(weight, weight)


def aligned_steps(latex: str) -> str:
    r"""An equation chain ``a=b=c`` as aligned lines (``a &= b \\ &= c``) so it fits a narrow column.

    Splits at each ``=`` outside braces (escaped braces ``\{`` are not supported); a trailing
    ``,\quad`` note stays on the last line.
    """
    body, separator, note = latex.partition(r",\quad")
    parts, depth, start = [], 0, 0
    for index, char in enumerate(body):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "=" and depth == 0:
            parts.append(body[start:index])
            start = index + 1
    parts.append(body[start:])
    if len(parts) < 2:
        return latex
    lines = [f"{parts[0]}&={parts[1]}"] + [f"&={part}" for part in parts[2:]]
    return r"\begin{aligned}" + r"\\".join(lines) + separator + note + r"\end{aligned}"
