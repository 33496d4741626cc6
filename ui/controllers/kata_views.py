"""What the Write-it-yourself page shows about a failure, built without Streamlit.

The breakdown tables are the topic pages' own (from ``metrics/``); the scenario that opens the
case on its topic page goes through ``ui.input.scenario_link`` like every lesson link.
"""

from __future__ import annotations

import math

import pandas as pd

from content import kata as kata_texts
from content import numbers
from content.i18n import _
from content.pages import kata as words
from kata.judge import Failure, close
from kata.problems import LOG_LOSS_EPS, Problem
from metrics import classification_metrics as cls
from metrics import ndcg, ranked_metrics, rating_metrics, topn_metrics
from ui.input.scenario_link import from_document
from content import text

HIGHLIGHT = "background-color: rgba(255, 75, 75, 0.25)"


def show_value(value, digits: int = 6) -> str:
    """A value in a table: ``digits`` significant digits in the reader's notation; a returned non-number as
    the judge describes it (its repr as typed: :func:`card_values` escapes it where Markdown renders)."""
    if value is None:
        return _(words.NO_VALUE)
    if isinstance(value, str):
        return kata_texts.not_a_number(value) or value
    # Six significant digits as before (1.23457e+06 stays so); only the decimal mark follows the reader.
    return _(words.UNDEFINED) if math.isnan(value) else f"{value:.{digits}g}".replace(".", numbers.decimal_mark())


def show_pair(expected, got) -> tuple[str, str]:
    """The right value and the candidate's, with as many digits as it takes to see where they differ
    (a float32 result differs from the float64 one beyond the sixth digit)."""
    for digits in range(6, 18):
        shown = show_value(expected, digits), show_value(got, digits)
        if shown[0] != shown[1] or not isinstance(got, float) or close(expected, got):
            return shown


def card_values(expected, got) -> tuple[str, str]:
    """:func:`show_pair` for the value cards, which render Markdown: a returned object's repr (say
    ``:red[PASSED]`` or a link) shows as typed."""
    right, yours = show_pair(expected, got)
    return right, text.markdown(yours) if isinstance(got, str) else yours


def breakdown(problem: Problem, inputs: dict) -> list[tuple[str, pd.DataFrame]]:
    """The topic page's step-by-step tables for this case, computed by ``metrics/``."""
    kind, case = problem.kind, inputs
    if kind in ("users", "users_no_k"):  # users numbered from 1, as in the step table
        users = list(range(1, len(case["all_recommended"]) + 1))
        return [(_(words.BREAKDOWN["users"]), ranked_metrics.per_user_table(
            users, case["all_recommended"], case["all_ground_truth"], case.get("k", 10**6)))]
    if kind in ("ranking", "ranking_no_k"):
        if problem.key == "average_precision_at_k":
            return [(_(words.BREAKDOWN["ap"]), ranked_metrics.average_precision_table(case["recommended"], case["relevant"],
                                                                                   case["k"]))]
        if problem.key == "reciprocal_rank":
            return [(_(words.BREAKDOWN["rr"]), ranked_metrics.reciprocal_rank_table(case["recommended"], case["relevant"]))]
        return [(_(words.BREAKDOWN["topk"]), topn_metrics.top_k_table(case["recommended"], case["relevant"], case["k"]))]
    if kind == "graded":
        actual, ideal = ndcg.ndcg_tables(case["recommended"], case["relevance"], case["k"])
        return [(_(words.BREAKDOWN["dcg_list"]), actual), (_(words.BREAKDOWN["dcg_ideal"]), ideal)]
    if kind == "relevances":
        return [(_(words.BREAKDOWN["dcg"]), ndcg.dcg_table(case["relevances"], case["k"]))]
    if kind == "scores":
        return [(_(words.BREAKDOWN["pairs"]), cls.auc_pairs_table(case["y_true"], case["y_score"]))]
    if kind == "groups":
        return [(_(words.BREAKDOWN["gauc"]), cls.gauc_table(case["user_ids"], case["y_true"], case["y_score"]))]
    if kind == "probabilities":
        return [(_(words.BREAKDOWN["logloss"]), cls.log_loss_terms(case["y_true"], case["y_prob"], eps=LOG_LOSS_EPS))]
    return [(_(words.BREAKDOWN["ratings"]), rating_metrics.rating_errors_table(case["predictions"], case["actuals"]))]


def _row_label(inputs: dict, row: int) -> str:
    if "all_recommended" in inputs:
        return words.sample(row, f"recommended={inputs['all_recommended'][row - 1]!r}, "
                                 f"relevant={inputs['all_ground_truth'][row - 1]!r}")
    if "recommended" in inputs:
        return words.rank_item(row, repr(inputs["recommended"][row - 1]))
    if "relevances" in inputs:
        return words.rank_relevance(row, numbers.general(inputs["relevances"][row - 1]))
    parts = [f"{name}={inputs[name][row - 1]!r}" for name in ("user_ids", "y_true", "y_score", "y_prob",
                                                                 "predictions", "actuals") if name in inputs]
    return words.sample(row, ", ".join(parts))


def steps_table(failure: Failure) -> tuple[pd.DataFrame, int | None]:
    """Right value and the candidate's after each row, and the index of the first row where they differ."""
    rows = [{"row": _row_label(failure.inputs, row), **dict(zip(("right_so_far", "yours_so_far"),
                                                                show_pair(expected, got)))}
            for row, expected, got in failure.steps]
    first = next((i for i, (_, expected, got) in enumerate(failure.steps) if not close(expected, got)), None)
    return pd.DataFrame(rows, columns=["row", "right_so_far", "yours_so_far"]), first


def highlight_row(table: pd.DataFrame, index: int | None):
    """A Styler with row ``index`` highlighted (the first where the candidate's value diverges)."""
    def style(row):
        return [HIGHLIGHT if row.name == index else ""] * len(row)
    return table.style.apply(style, axis=1)


def _table(columns, dtypes, rows) -> dict:
    return {"columns": columns, "dtypes": dtypes, "rows": rows}


def scenario_for(problem: Problem, inputs: dict) -> dict:
    """The shrunk case as a scenario of the app, opened on the problem's topic page."""
    document = {"version": 1, "page": problem.topic, "tables": {}}
    tables = document["tables"]
    if "all_recommended" in inputs:  # the topic page's table of several users
        tables["users"] = _table(["user", "recommended", "relevant"], ["object"] * 3, [
            [f"u{n}", ", ".join(map(str, rec)), ", ".join(map(str, sorted(rel, key=repr)))]
            for n, (rec, rel) in enumerate(zip(inputs["all_recommended"], inputs["all_ground_truth"]), start=1)])
        document["k"] = inputs.get("k", max(map(len, inputs["all_recommended"]), default=1) or 1)
    elif "recommended" in inputs:
        tables["recommended"] = _table(["rank", "item"], ["object", "object"],
                                       [[str(r), str(item)] for r, item in enumerate(inputs["recommended"], start=1)])
        grades = inputs.get("relevance", dict.fromkeys(inputs.get("relevant", ()), 1))
        tables["ground_truth"] = _table(["item", "grade"], ["object", "object"],
                                        [[str(item), f"{grade:g}"] for item, grade in grades.items()])
        document["k"] = inputs.get("k", max(len(inputs["recommended"]), 1))
    elif "relevances" in inputs:
        items = [f"i{r}" for r in range(1, len(inputs["relevances"]) + 1)]
        tables["recommended"] = _table(["rank", "item"], ["object", "object"],
                                       [[str(r), item] for r, item in enumerate(items, start=1)])
        tables["ground_truth"] = _table(["item", "grade"], ["object", "object"],
                                        [[item, f"{g:g}"] for item, g in zip(items, inputs["relevances"]) if g > 0])
        document["k"] = inputs["k"]
    elif "y_score" in inputs:
        users = inputs.get("user_ids", ["user1"] * len(inputs["y_true"]))
        tables["scores"] = _table(["user", "label", "score"], ["str", "int64", "float64"],
                                  [[str(u), int(y), float(s)] for u, y, s in zip(users, inputs["y_true"], inputs["y_score"])])
    elif "y_prob" in inputs:
        tables["probabilities"] = _table(["label", "probability"], ["int64", "float64"],
                                         [[int(y), float(p)] for y, p in zip(inputs["y_true"], inputs["y_prob"])])
    else:
        tables["ratings"] = _table(["prediction", "actual"], ["float64", "float64"],
                                   [[float(p), float(a)] for p, a in zip(inputs["predictions"], inputs["actuals"])])
    return from_document(document)


def inputs_literal(inputs: dict) -> str:
    """The call's arguments as Python, to paste into a REPL."""
    return ", ".join(f"{name}={value!r}" for name, value in inputs.items())


def first_failing(cases) -> int | None:
    """The index of the first case that did not pass (the one the page opens)."""
    return next((i for i, case in enumerate(cases) if not case.passed), None)


def _yours(case) -> str:
    if case.error is not None:
        return (getattr(case.error, "fields", {}).get("kind") or str(case.error)).split("\n")[0]
    return show_pair(case.expected, case.got)[1] if case.got is not None else _(words.NOT_RUN)


def cases_table(cases, kind: str) -> pd.DataFrame:
    """The cases of one kind (``example``, ``edge``, ``random``): the call, the right value, the candidate's."""
    rows = [{"case": number, "call": f"{inputs_literal(case.inputs)}", "right": show_pair(case.expected, case.got)[0],
             "yours": _yours(case), "verdict": "✅" if case.passed else "❌"}
            for number, case in enumerate((c for c in cases if c.kind == kind), start=1)]
    return pd.DataFrame(rows, columns=["case", "call", "right", "yours", "verdict"])


def interview_runs_table(runs: list[dict]) -> pd.DataFrame:
    """An interview's runs, in order: when (since the start), and the verdict."""
    rows = [{"run": number, "at": f"{run['second'] // 60:02d}:{run['second'] % 60:02d}",
             "verdict": words.run_verdict(run["passed"], run["total"], run["error"])}
            for number, run in enumerate(runs, start=1)]
    return pd.DataFrame(rows, columns=["run", "at", "verdict"])
