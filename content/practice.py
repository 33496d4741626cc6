"""The words of practice: quiz questions, their options, the verdicts on an answer, the mistakes a
verdict names, and the goal challenges. ``teaching.practice`` and ``teaching.challenges`` keep the
numbers and the logic (and an English message for Python users); each verdict or status carries a
``code`` and its ``fields``, worded here in the reader's language.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pandas as pd

from content import labs, numbers
from content.i18n import N_, _, ngettext
from content.pages import practice as page_words
from teaching import practice
from teaching.challenges import CHALLENGE_K, MAX_SWAPS, NDCG_TARGET

# --- what an answer box says ----------------------------------------------------------------------------


def answer_rule() -> str:
    """What the answer boxes say about the precision asked (teaching.practice.ANSWER_RULE)."""
    return _("Give at least {decimals} decimals ({short} or {long}) or the exact fraction (9/14): an answer is "
             "right when it is the exact value rounded to the decimals you typed.").format(
        decimals=practice.MIN_DECIMALS, short=numbers.number(0.643, 3), long=numbers.number(0.6429, 4))


def for_the_engine(typed: str) -> str:
    """A typed answer in the engine's notation: the reader's decimal comma read as the point (Turkish
    0,5 is 0.5, %64,29 is 64.29%); a comma that is no decimal mark in the reader's language (English
    0,5) raises numbers.NumberError, so it is refused rather than read as 5."""
    typed = typed.strip()
    if typed.startswith("%"):
        typed = typed[1:].strip() + "%"
    body = typed.removesuffix("%").strip()
    if "," not in body or "/" in body:
        return typed
    numbers.parse(body)
    return typed.replace(",", ".")


def answer_placeholder(k_question: bool) -> str:
    if k_question:
        return _("a whole number K")
    return _("e.g. {short}, {long} or 9/14").format(short=numbers.number(0.643, 3), long=numbers.number(0.6429, 4))


# --- questions -------------------------------------------------------------------------------------------

_DATA_PROMPTS = {
    "ScoreCase": N_("Compute {metric} for the impressions below (clicked: 1 = a click)."),
    "ProbabilityCase": N_("Compute {metric} for the predicted click probabilities below (natural log)."),
    "RatingCase": N_("Compute {metric} for the predicted and actual ratings below."),
    "LabelCase": N_("Compute {metric} for the clicks and predicted clicks below."),
}


def prompt(question: practice.Question) -> str:
    """The question in the reader's language (``question.prompt`` is its English)."""
    label = question.label
    if question.kind == "compute":
        return _("Compute {metric} for the list below.").format(metric=label)
    if question.kind == "compare":
        return _("Which list scores higher on {metric}? Both share the same relevant items.").format(metric=label)
    if question.kind == "swap":
        return _("Which single swap of two ranks raises {metric} the most?").format(metric=label)
    if question.kind == "k_equal":
        return _("What K makes Precision@K equal Recall@K for the list below? (K from 1 to {n})").format(
            n=len(question.case.recommended))
    asked = _(_DATA_PROMPTS[type(question.case).__name__]).format(metric=label)
    if question.metric == "gauc":
        asked = _("{question} GAUC weights each user by their impressions.").format(question=asked)
    return asked


_OPTIONS = {"List A": N_("List A"), "List B": N_("List B"), "They score the same": N_("They score the same")}
_SWAP = re.compile(r"swap ranks (\d+) and (\d+)")


def option(value: str) -> str:
    """A quiz option (kept in English as the answer's value) in the reader's language."""
    if value in _OPTIONS:
        return _(_OPTIONS[value])
    swap = _SWAP.fullmatch(value)
    if swap:
        return _("swap ranks {first} and {second}").format(first=swap[1], second=swap[2])
    return value


def _either(values) -> str:
    shown = [option(v) for v in values]
    while len(shown) > 1:
        shown[-2:] = [_("{first} or {second}").format(first=shown[-2], second=shown[-1])]
    return shown[0] if shown else ""


# --- the mistakes a verdict names --------------------------------------------------------------------

_DENOMINATORS = {"min(|Rel|, K)": "min(|Rel|, K)", "|Rel|": "|Rel|", "the hits in the top K": N_("the hits in the top K")}
# Every mistake teaching.practice and teaching.practice_data can name, as a template its name fits.
MISTAKES = (
    N_("AP divided by {wrong} instead of {right}"),
    N_("ranks counted from 0 (precision at a hit = hits so far / (rank − 1))"),
    N_("RR cut at K = {k} (a first hit below rank K counted as 0)"),
    N_("ranks counted from 0 (1 / (rank − 1))"),
    N_("exponential gain 2^rel − 1 instead of the linear gain rel"),
    N_("linear gain rel instead of the exponential gain 2^rel − 1"),
    N_("the ideal ranking built from the recommended list only (relevant items never recommended left out)"),
    N_("the ideal ranking built from the top K = {k} of the list only (relevant items below rank {k} or never "
       "recommended left out)"),
    N_("ranks counted from 0 in the discount (1/log2(i + 2) at rank i)"),
    N_("log base e in the discount (1/ln(i + 1) instead of 1/log2(i + 1))"),
    N_("a tie counted 0 instead of ½ (a strict > in the pair loop)"),
    N_("the pairs counted the wrong way round (1 − AUC)"),
    N_("a plain mean over users instead of weighting each by impressions"),
    N_("one AUC over all impressions pooled, instead of one per user"),
    N_("log base 10 instead of the natural log"),
    N_("log base 2 instead of the natural log"),
    N_("the probability of a click used for every impression, clicked or not"),
    N_("the sum instead of the mean"),
    N_("MSE: the root was not taken"),
    N_("MAE instead of RMSE"),
    N_("signed errors averaged (misses up and down cancel)"),
    N_("RMSE instead of MAE"),
    N_("TN left out of the right answers, TP / n"),
    N_("recall's denominator TP + FN instead of TP + FP"),
    N_("precision's denominator TP + FP instead of TP + FN"),
    N_("the plain mean of precision and recall instead of the harmonic mean"),
    # teaching.question_mistakes: the wrong options a teacher's question proposes
    N_("Recall instead of Precision (the hits divided by the relevant items, not by K)"),
    N_("Precision instead of Recall (the hits divided by K, not by the relevant items)"),
    N_("@K ignored: the whole list of {n} counted instead of the top {k}"),
    N_("no IDCG: DCG@K not divided by the ideal DCG@K"),
)


def _pattern(template: str) -> re.Pattern:
    parts = re.split(r"\{(\w+)\}", template)
    seen, out = set(), []
    for index, part in enumerate(parts):
        if index % 2 == 0:
            out.append(re.escape(part))
        else:
            out.append(f"(?P={part})" if part in seen else f"(?P<{part}>.+?)")
            seen.add(part)
    return re.compile("".join(out))


_PATTERNS = [(template, _pattern(template)) for template in MISTAKES]


def mistake(name: str | None) -> str:
    """A mistake's name (as metrics names it, in English) in the reader's language."""
    if not name:
        return ""
    for template, pattern in _PATTERNS:
        found = pattern.fullmatch(name)
        if found:
            fields = {key: _(_DENOMINATORS[value]) if value in _DENOMINATORS else value
                      for key, value in found.groupdict().items()}
            return _(template).format(**fields)
    return name


# --- verdicts ------------------------------------------------------------------------------------------


def describe(value: float) -> str:
    """0.6429 (= 9/14) when a small fraction is exact, else the four decimals, in the reader's notation."""
    fraction = practice.as_fraction(value)
    if fraction is not None and fraction.denominator > 1:
        return _("{value} (= {fraction})").format(value=numbers.number(value, 4), fraction=fraction)
    return numbers.number(value, 4)


def _ks(values) -> str:
    return _(", ").join(numbers.integer(k) for k in values)


def _k(value) -> str:
    value = Fraction(value)
    return numbers.integer(int(value)) if value.denominator == 1 else numbers.general(float(value))


def verdict_message(verdict: practice.Verdict, typed: str | None = None) -> str:
    """What a verdict says, in the reader's language; ``typed`` is the answer as the reader typed it
    (quoted as typed, their decimal comma kept)."""
    f = dict(verdict.fields)
    shown = typed.strip() if typed is not None else f.get("shown", "")
    code = verdict.code
    if code == "empty":
        return _("Type a number first, e.g. {example} or 9/14.").format(example=numbers.number(0.6429, 4))
    if code == "too_long":
        return _("That answer is {length} characters long; a number needs at most {most}.").format(
            length=numbers.integer(f["length"]), most=numbers.integer(f["most"]))
    if code == "not_a_number":
        return _("'{text}' is not a number: type a decimal such as {decimal} or a fraction such as 9/14.").format(
            text=typed.strip() if typed is not None else f["text"], decimal=numbers.number(0.6429, 4))
    if code == "right_exact":
        return _("Right: {exact}.").format(exact=describe(f["exact"]))
    if code == "right_rounded":
        return ngettext("Right: {shown} is {exact} rounded to {decimals} decimal.",
                        "Right: {shown} is {exact} rounded to {decimals} decimals.", f["decimals"]).format(
            shown=shown, exact=numbers.number(f["exact"], 4), decimals=f["decimals"])
    if code == "mistake":
        return _("Not quite: {shown} is what you get with {mistake}. The answer is {exact}.").format(
            shown=shown, mistake=mistake(f["mistake"]), exact=describe(f["exact"]))
    if code == "too_few_decimals":
        return _("{shown} stands for anything from {low} to {high}: give at least {most} decimals, or the exact "
                 "fraction, so it can be checked.").format(shown=shown, low=numbers.general(f["low"]),
                                                          high=numbers.general(f["high"]), most=f["most"])
    if code == "wrong":
        return _("Not quite: you typed {shown}; the answer is {exact}.").format(shown=shown, exact=describe(f["exact"]))
    if code == "k_right":
        return _("Right: at K = {k}, P@K = R@K (every such K: {ks}).").format(k=_k(f["k"]), ks=_ks(f["ks"]))
    if code == "k_range":
        return _("K is a whole number from 1 to {n}; the answer is K = {ks}.").format(n=f["n"], ks=_ks(f["ks"]))
    if code == "k_wrong":
        return _("Not quite: at K = {k}, P@K = {p} and R@K = {r}. They are equal at K = {ks}: where K = |Rel| "
                 "(or where there is no hit yet).").format(k=_k(f["k"]), p=numbers.number(f["p"], 4),
                                                          r=numbers.number(f["r"], 4), ks=_ks(f["ks"]))
    if code == "option_right":
        return _("Right: {option}.").format(option=option(f["option"]))
    if code == "pick_option":
        return _("Pick one of the options first.")
    if code == "option_wrong":
        if f.get("mistake"):
            return _("Not quite: the answer is {right}. Your choice is what {mistake} gives.").format(
                right=_either(f["right"]), mistake=mistake(f["mistake"]))
        return _("Not quite: the answer is {right}.").format(right=_either(f["right"]))
    return verdict.message


# --- goal challenges -------------------------------------------------------------------------------------

CHALLENGE_TITLES = {
    "ndcg_two_swaps": N_("Reach NDCG@{k} ≥ {target} with at most {most} swaps"),
    "p_ap_disagree": N_("Make P@{k} and AP@{k} disagree on which list is better"),
}


def challenge_title(key: str) -> str:
    return _(CHALLENGE_TITLES[key]).format(k=CHALLENGE_K, target=numbers.general(NDCG_TARGET), most=MAX_SWAPS)


def _ndcg_after(f: dict) -> str:
    return ngettext("NDCG@{k} = {value} after {swaps} swap.", "NDCG@{k} = {value} after {swaps} swaps.",
                    f["swaps"]).format(k=f["k"], value=numbers.number(f["value"], 4), swaps=f["swaps"])


def _p_and_ap(f: dict) -> str:
    return _("P@{k}: yours {p_now} vs start {p_start}; AP@{k}: yours {ap_now} vs start {ap_start}.").format(
        k=f["k"], **{name: numbers.number(f[name], 4) for name in ("p_now", "p_start", "ap_now", "ap_start")})


def status_message(status) -> str:
    """What a goal challenge's status says (teaching.challenges.Status), in the reader's language."""
    f, code = status.fields, status.code
    if code == "halfway":
        return _("Halfway through a swap: {item} is missing, because another item now appears twice. Type {item} "
                 "over the second copy to finish the swap.").format(item=f["missing"])
    if code == "same_items":
        return _("Only reorder the starting list: keep the same items (move them by changing their rank).")
    if code == "ndcg_met":
        return _("Goal met: {result}").format(result=_ndcg_after(f))
    if code == "ndcg_too_many":
        return _("{result} That is more than {most} swaps: undo one.").format(result=_ndcg_after(f), most=f["most"])
    if code == "ndcg_not_yet":
        return _("{result} Not yet {target}.").format(result=_ndcg_after(f), target=numbers.general(f["target"]))
    if code == "disagree_met":
        return _("Goal met: {result} The two metrics disagree on which list is better.").format(result=_p_and_ap(f))
    if code == "disagree_not_yet":
        return _("{result} They do not yet disagree: one must prefer your list and the other the start.").format(
            result=_p_and_ap(f))
    return status.message


# --- the tables a question shows -------------------------------------------------------------------------

DATA_COLUMNS = {"impression": N_("impression"), "user": N_("user"), "score": N_("score"), "clicked": N_("clicked"),
                "predicted probability": N_("predicted probability"), "rating": N_("rating"),
                "predicted": N_("predicted"), "actual": N_("actual")}


def data_column_labels(frame: pd.DataFrame) -> dict:
    """Column configuration giving a data question's table its headers in the reader's language."""
    return {c: {"label": _(DATA_COLUMNS[c])} for c in frame.columns if c in DATA_COLUMNS}


def graded_item(item, grade: float) -> str:
    return _("{item} (grade {grade})").format(item=item, grade=numbers.general(grade))


def two_lists_table(a, b) -> pd.DataFrame:
    """Lists A and B side by side, one row per rank (teaching.practice.two_lists_table), in the reader's words."""
    def cells(case, item) -> str:
        grade = case.ground_truth.get(item, 0.0)
        return graded_item(item, grade) if grade > 0 else str(item)
    top = _("top K")
    return pd.DataFrame({_("rank"): [f"#{r} ·{top}" if r <= a.k else f"#{r}" for r in range(1, len(a.recommended) + 1)],
                         _("list A"): [cells(a, i) for i in a.recommended],
                         _("list B"): [cells(b, i) for i in b.recommended]})


def list_table(table: pd.DataFrame) -> pd.DataFrame:
    """A ranked list across, one column per rank: its items, then their grades."""
    return pd.DataFrame([table["item"].astype(str).tolist(), [numbers.general(float(g)) for g in table["grade"]]],
                        index=[_("item"), _("grade")], columns=[f"#{r}" for r in table["rank"]])


def outside(case) -> str | None:
    """The caption naming the relevant items the list never recommends, if any."""
    items = [item for item in case.ground_truth if item not in set(case.recommended)]
    if not items:
        return None
    return _("Relevant but never recommended: {items}").format(
        items=_(", ").join(graded_item(item, case.ground_truth[item]) for item in items))


# --- the worked solutions of a wrong answer (teaching.practice, teaching.practice_data) ----------------------

_WORKED_TITLES = (
    N_("P@K and R@K at every K"),
    N_("The offered swaps"),
    N_("AUC: every click/non-click pair"),
    N_("GAUC: AUC per user, weighted by impressions"),
    N_("LogLoss: the cost of each impression"),
    N_("{metric}: each rating's error"),
    N_("{metric}: the confusion matrix"),
)
_WORKED_PREFIXES = (N_("After your swap ({option}): {title}"), N_("After the best swap ({option}): {title}"),
                    N_("List A: {title}"), N_("List B: {title}"))
# Longer templates first where one starts like another ("… changes by {change}, the most of any swap").
_WORKED_STEPS = (
    N_("|Rel| = {n}: P@K = hits/K and R@K = hits/|Rel| are equal when K = |Rel|, or while there is no hit"),
    N_("at your K = {k}: P@K = {p}, R@K = {r}"),
    N_("{metric} of the list as it is: {value}"),
    N_("{option}: {metric} changes by {change}, the most of any swap"),
    N_("{option}: {metric} changes by {change}"),
    N_("{positives} clicks × {negatives} non-clicks = {pairs} pairs"),
    N_("click scored higher: {pairs} pairs, credit 1 each"),
    N_("tied: {pairs} pairs, credit ½ each"),
    N_("AUC within each user, from that user's pairs only; a user with one class has no pair and is left out"),
    N_("weight of each user: their impressions ({weights})"),
    N_("probability given to what happened: p for a click, 1 − p for a non-click"),
    N_("each costs −ln of that probability (natural log)"),
    N_("LogLoss = their mean = {total} / {n} = {value}"),
    N_("square each error and average: MSE = {value}"),
    N_("take each error without its sign"),
    N_("MAE = mean of |error| = {total} / {n} = {value}"),
    N_("count the four outcomes: TP = {tp}, FP = {fp}, TN = {tn}, FN = {fn}"),
)
_WORKED_WORDS = {  # table headers and cells of these solutions
    "hits": N_("hits"), "swap": N_("swap"), "change": N_("change"), "your K": N_("your K"), "equal": N_("equal"),
    "your choice": N_("your choice"), "best": N_("best"), "click": N_("click"), "click score": N_("click score"),
    "non-click": N_("non-click"), "non-click score": N_("non-click score"), "credit": N_("credit"),
    "user": N_("user"), "impressions": N_("impressions"), "clicks": N_("clicks"), "left out": N_("left out"),
    "clicks only": N_("clicks only"), "no click": N_("no click"), "impression": N_("impression"),
    "clicked": N_("clicked"), "p of what happened": N_("p of what happened"), "prediction": N_("prediction"),
    "actual": N_("actual"), "error": N_("error"), "|error|": N_("|error|"), "error²": N_("error²"),
    "predicted 1": N_("predicted 1"), "predicted 0": N_("predicted 0"), "clicked (1)": N_("clicked (1)"),
    "not clicked (0)": N_("not clicked (0)"),
}
_AFTER = re.compile(r"(?P<metric>.+) after")
_DECIMAL = re.compile(r"[+-]?\d+\.\d+")
_STEP_PATTERNS = [(t, _pattern(t)) for t in _WORKED_STEPS]
_TITLE_PATTERNS = [(t, _pattern(t)) for t in (*_WORKED_PREFIXES, *_WORKED_TITLES)]


def _renumber(text: str) -> str:
    """Every decimal number of an engine's English text in the reader's notation (same digits)."""
    def one(found: re.Match) -> str:
        digits = found[0].split(".")[1]
        return numbers.number(float(found[0]), len(digits), sign=found[0].startswith("+"))
    return _DECIMAL.sub(one, text)


def _fill(template: str, found: re.Match) -> str:
    fields = {}
    for key, value in found.groupdict().items():
        fields[key] = (worked_title(value) if key == "title" else option(value) if key == "option"
                       else _renumber(value))
    return _(template).format(**fields)


def worked_title(title: str) -> str:
    for template, pattern in _TITLE_PATTERNS:
        found = pattern.fullmatch(title)
        if found:
            return _fill(template, found)
    return _(title)  # a ranking solution's own title (content/worked.py words it, if it is in a catalog)


def worked_step(text: str) -> str:
    for template, pattern in _STEP_PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            return _fill(template, found)
    return _renumber(text)


def _cell(value):
    if isinstance(value, str):
        if value in _WORKED_WORDS:
            return _(_WORKED_WORDS[value])
        return option(value)
    return value


def reword(solution, own: bool):
    """A worked solution in the reader's language: its title always; its table and steps when it is one of
    practice's own (``own``: the K, swap and data solutions), else as the ranking solution wrote them."""
    from dataclasses import replace
    title = worked_title(solution.title)
    if not own:
        return replace(solution, title=title)
    table = solution.table.copy()
    headers = {}
    for column in table.columns:
        after = _AFTER.fullmatch(str(column)) if isinstance(column, str) else None
        headers[column] = (_("{metric} after").format(metric=after["metric"]) if after
                           else _cell(column) if isinstance(column, str) else column)
        if table[column].dtype == object:
            table[column] = table[column].map(_cell)
    table = table.rename(columns=headers)
    return replace(solution, title=title, table=table,
                   steps=tuple((key, worked_step(text)) for key, text in solution.steps))


def solutions(question, verdict) -> tuple:
    """A verdict's worked solutions, reworded for the reader: the K and swap tables and the data solutions
    are practice's own; the ranking solutions (teaching.worked) keep their steps."""
    shown = []
    for index, solution in enumerate(verdict.solution):
        own = question.kind in ("k_equal", "data") or (question.kind == "swap" and index == 0)
        shown.append(reword(solution, own))
    return tuple(shown)



def latex(formula: str) -> str:
    """A quiz formula (teaching.practice.QUIZ_METRICS) with its words in the reader's language."""
    return labs.formula_words(formula)


def question_latex(question: practice.Question) -> str:
    """The formula above a question; "which K" shows both P@K and R@K, their hits in the reader's language."""
    if question.kind != "k_equal":
        return latex(question.latex)
    return (rf"\mathrm{{P@K}}=\frac{{\text{{{_(page_words.HITS)}}}_K}}{{K}}\quad "
            rf"\mathrm{{R@K}}=\frac{{\text{{{_(page_words.HITS)}}}_K}}{{\lvert\mathrm{{Rel}}\rvert}}")


def checked(question: practice.Question, typed: str) -> practice.Verdict:
    """The verdict on an answer as typed: a number in the reader's notation (decimal comma in Turkish) or an
    option; a number that cannot be read is scored neither way, so the reader writes it again."""
    if question.options:
        return practice.check(question, typed)
    try:
        return practice.check(question, for_the_engine(typed))
    except numbers.NumberError as refused:
        return practice.Verdict(False, numbers.parse_error_message(refused), unreadable=True)
