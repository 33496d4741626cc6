""""Check it yourself": a few lines of each library's own code, with the scenario's data filled in.

No Streamlit here. Every item id a user typed enters Python code only as ``repr(str(id))`` and
Scala code only as a JSON string literal, so no id can end a literal and become code. The
trec_eval, ranx, scikit-learn, cornac, RecTools and Evidently snippets (Python; the last two in
environments of their own) and the Spark MLlib one (Scala, in the spark-shell that pyspark ships)
are run by the tests and print ``name value`` lines;
``Snippet.prints`` maps each printed name to the metric of the table it reproduces.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from content.pages import lens as lens_words
from metrics._validation import check_grades, check_k, check_ranking
from metrics.conventions import CONVENTIONS, library_view


@dataclass(frozen=True)
class Snippet:
    code: str
    language: str = "python"
    tested: bool = False
    prints: dict[str, str] = field(default_factory=dict)


def _py(item) -> str:
    return repr(str(item))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _py_dict(pairs, per_line: int = 4, indent: str = "    ") -> str:
    """A Python dict literal, a few entries per line."""
    entries = [f"{_py(key)}: {value}" for key, value in pairs]
    if len(entries) <= per_line:
        return "{" + ", ".join(entries) + "}"
    lines = [", ".join(entries[i:i + per_line]) for i in range(0, len(entries), per_line)]
    return "{\n" + ",\n".join(indent + line for line in lines) + ",\n}"


def _py_list(values, per_line: int = 6, indent: str = "    ") -> str:
    values = list(values)
    if len(values) <= per_line:
        return "[" + ", ".join(values) + "]"
    lines = [", ".join(values[i:i + per_line]) for i in range(0, len(values), per_line)]
    return "[\n" + ",\n".join(indent + line for line in lines) + ",\n]"


def _scores(items) -> list[tuple]:
    """A score per item that falls with rank, so a library that ranks by score keeps the list's order."""
    n = len(items)
    return [(item, f"{float(n - rank)}") for rank, item in enumerate(items)]


def trec_eval(recommended, ground_truth, k) -> Snippet:
    items, grades = check_ranking(recommended), check_grades(ground_truth)
    names = {f"P_{k}": "precision", f"recall_{k}": "recall", f"map_cut_{k}": "average_precision",
             f"ndcg_cut_{k}": "ndcg", "recip_rank": "reciprocal_rank"}
    code = f"""import pytrec_eval

# Judged items with whole relevance levels (trec_eval refuses fractions: int() drops them).
qrels = {{"user": {_py_dict((i, int(g)) for i, g in grades.items())}}}
# trec_eval ranks by score: scores that fall with rank keep the list's order.
run = {{"user": {_py_dict(_scores(items))}}}
measures = {{"P.{k}", "recall.{k}", "map_cut.{k}", "ndcg_cut.{k}", "recip_rank"}}
result = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
for name in {tuple(names)!r}:
    print(name, result["user"][name] if "user" in result else "left out: a query with no judged item")
"""
    return Snippet(code, tested=True, prints=names)


def ranx(recommended, ground_truth, k) -> Snippet:
    items, grades = check_ranking(recommended), check_grades(ground_truth)
    names = {f"precision@{k}": "precision", f"recall@{k}": "recall", f"map@{k}": "average_precision",
             f"ndcg@{k}": "ndcg", f"mrr@{k}": "reciprocal_rank"}
    qrels = f'Qrels.from_dict({{"user": {_py_dict((i, _number(g)) for i, g in grades.items())}}})'
    run = f'Run.from_dict({{"user": {_py_dict(_scores(items))}}})'
    call = f"evaluate(qrels, run, {list(names)!r})"
    if items and grades:
        body = f"qrels = {qrels}\nrun = {run}\nvalues = {call}\n"
    else:  # ranx needs a judged item and a ranked item: show it refusing
        body = (f"try:\n    qrels = {qrels}\n    run = {run}\n    values = {call}\n"
                f"except ValueError as error:\n    values = dict.fromkeys({list(names)!r}, f\"refused: {{error}}\")\n")
    code = f"""from ranx import Qrels, Run, evaluate

{body}for name, value in values.items():
    print(name, value)
"""
    return Snippet(code, tested=True, prints=names)


def scikit_learn(recommended, ground_truth, k) -> Snippet:
    items, grades = check_ranking(recommended), check_grades(ground_truth)
    names = {"average_precision_score": "average_precision", "ndcg_score": "ndcg"}
    code = f"""from sklearn.metrics import average_precision_score, ndcg_score

# scikit-learn sees only the recommended rows: each one's grade, and a score that falls with rank.
items = {_py_list(_py(i) for i in items)}
y_true = {_py_list(_number(grades.get(i, 0.0)) for i in items)}
y_score = list(range(len(items), 0, -1))
for name, compute in [
    ("average_precision_score", lambda: average_precision_score([g > 0 for g in y_true], y_score)),
    ("ndcg_score", lambda: ndcg_score([y_true], [y_score], k={k})),
]:
    try:
        print(name, compute())
    except (ValueError, IndexError) as error:  # e.g. ndcg_score needs two or more documents
        print(name, "refused:", error)
"""
    return Snippet(code, tested=True, prints=names)


def torchmetrics(recommended, ground_truth, k) -> Snippet:
    view = library_view(CONVENTIONS["torchmetrics"], recommended, ground_truth)
    code = f"""import torch
from torchmetrics.retrieval import (RetrievalMAP, RetrievalMRR, RetrievalNormalizedDCG,
                                    RetrievalPrecision, RetrievalRecall)

# Every candidate scored: the list, then the ground-truth items it does not show.
candidates = {_py_list(_py(i) for i in view.ranking)}
preds = torch.arange(len(candidates), 0, -1, dtype=torch.float)
target = torch.tensor({_py_list(_number(view.grades.get(i, 0.0)) for i in view.ranking)})
indexes = torch.zeros(len(candidates), dtype=torch.long)  # one user
for metric in (RetrievalPrecision(top_k={k}), RetrievalRecall(top_k={k}), RetrievalMAP(top_k={k}),
               RetrievalMRR(top_k={k})):
    print(type(metric).__name__, metric(preds, target > 0, indexes=indexes).item())
print("RetrievalNormalizedDCG", RetrievalNormalizedDCG(top_k={k})(preds, target, indexes=indexes).item())
"""
    return Snippet(code)


def recommenders(recommended, ground_truth, k) -> Snippet:
    items, grades = check_ranking(recommended), check_grades(ground_truth)
    relevant = [(i, g) for i, g in grades.items() if g > 0]
    code = f"""import pandas as pd
from recommenders.evaluation.python_evaluation import map_at_k, ndcg_at_k, precision_at_k, recall_at_k

rating_true = pd.DataFrame({{"userID": 1, "itemID": {_py_list(_py(i) for i, _ in relevant)},
                            "rating": {_py_list(_number(g) for _, g in relevant)}}})
rating_pred = pd.DataFrame({{"userID": 1, "itemID": {_py_list(_py(i) for i in items)},
                            "prediction": list(range({len(items)}, 0, -1))}})
for metric in (precision_at_k, recall_at_k, map_at_k, ndcg_at_k):  # ndcg_at_k: score_type="binary"
    print(metric.__name__, metric(rating_true, rating_pred, k={k}))
"""
    return Snippet(code)


def recbole(recommended, ground_truth, k) -> Snippet:
    view = library_view(CONVENTIONS["RecBole"], recommended, ground_truth)
    hits = [str(item in view.relevant) for item in view.ranking[:k]]
    code = f"""import numpy as np
from recbole.evaluator.metrics import MAP, MRR, NDCG, Precision, Recall

# RecBole's metrics read, per user, whether each of the top {k} ranks is relevant, and |Rel|.
config = {{"topk": [{k}], "metric_decimal_place": 4}}
pos_index = np.array([{_py_list(hits)}])
pos_len = np.array([{len(view.relevant)}])
for metric in (Precision, MRR):
    print(metric.__name__, metric(config).metric_info(pos_index)[0, {len(hits)} - 1])
for metric in (Recall, MAP, NDCG):
    print(metric.__name__, metric(config).metric_info(pos_index, pos_len)[0, {len(hits)} - 1])
"""
    return Snippet(code)


def evidently(recommended, ground_truth, k) -> Snippet:
    items, grades = check_ranking(recommended), check_grades(ground_truth)
    names = {"PrecisionTopKMetric": "precision", "RecallTopKMetric": "recall", "MAPKMetric": "average_precision",
             "NDCGKMetric": "ndcg", "MRRKMetric": "reciprocal_rank"}
    code = f"""import pandas as pd
from evidently.legacy.metrics import (MAPKMetric, MRRKMetric, NDCGKMetric, PrecisionTopKMetric,
                                      RecallTopKMetric)
from evidently.legacy.pipeline.column_mapping import ColumnMapping
from evidently.legacy.report import Report

# Evidently is given the recommended rows only, each with its rank and grade (target).
rows = pd.DataFrame({{"user": 1, "item": {_py_list(_py(i) for i in items)},
                     "rank": list(range(1, {len(items) + 1})),
                     "target": {_py_list(_number(grades.get(i, 0.0)) for i in items)}}})
mapping = ColumnMapping(recommendations_type="rank", user_id="user", item_id="item",
                        prediction="rank", target="target")
for metric in (PrecisionTopKMetric(k={k}), RecallTopKMetric(k={k}), MAPKMetric(k={k}), NDCGKMetric(k={k}),
               MRRKMetric(k={k})):
    report = Report(metrics=[metric])
    report.run(reference_data=None, current_data=rows, column_mapping=mapping)
    try:
        values = report.as_dict()["metrics"][0]["result"]
        # MRRKMetric has no current_value, only its value at each K from 1 to {k}.
        print(type(metric).__name__, values["current_value"] if "current_value" in values else values["current"][{k}])
    except (KeyError, IndexError, TypeError, ValueError) as error:  # e.g. a list shorter than K, or empty
        print(type(metric).__name__, "refused:", repr(error))
"""
    return Snippet(code, tested=True, prints=names)


def rectools(recommended, ground_truth, k) -> Snippet:
    items, grades = check_ranking(recommended), check_grades(ground_truth)
    names = {"precision": "precision", "recall": "recall", "map": "average_precision", "ndcg": "ndcg",
             "mrr": "reciprocal_rank"}
    relevant = [i for i, g in grades.items() if g > 0]
    code = f"""import pandas as pd
from rectools import Columns
from rectools.metrics import MAP, MRR, NDCG, Precision, Recall, calc_metrics

reco = pd.DataFrame({{Columns.User: 1, Columns.Item: {_py_list(_py(i) for i in items)},
                     Columns.Rank: list(range(1, {len(items) + 1}))}})
interactions = pd.DataFrame({{Columns.User: 1, Columns.Item: {_py_list(_py(i) for i in relevant)},
                             Columns.Weight: 1, Columns.Datetime: "2024-01-01"}})
metrics = {{"precision": Precision(k={k}), "recall": Recall(k={k}), "map": MAP(k={k}), "ndcg": NDCG(k={k}),
           "mrr": MRR(k={k})}}
for name, value in calc_metrics(metrics, reco=reco, interactions=interactions).items():
    print(name, value)
"""
    return Snippet(code, tested=True, prints=names)


def cornac(recommended, ground_truth, k) -> Snippet:
    view = library_view(CONVENTIONS["cornac"], recommended, ground_truth)
    names = {f"Precision@{k}": "precision", f"Recall@{k}": "recall", "MAP": "average_precision",
             f"NDCG@{k}": "ndcg", "MRR": "reciprocal_rank"}
    code = f"""import numpy as np
from cornac.metrics import MAP, MRR, NDCG, Precision, Recall

# cornac ranks every candidate by index: the list, then the ground-truth items it does not show.
candidates = {_py_list(_py(i) for i in view.ranking)}
relevant = {{{", ".join(_py(i) for i in view.relevant)}}}
gt_pos = np.array([index for index, item in enumerate(candidates) if item in relevant], dtype=int)
pd_rank = np.arange(len(candidates))  # best first
pd_scores = np.arange(len(candidates), 0, -1, dtype=float)  # scores that fall with rank
for name, compute in [
    *((metric.name, lambda metric=metric: metric.compute(gt_pos=gt_pos, pd_rank=pd_rank))
      for metric in (Precision(k={k}), Recall(k={k}), NDCG(k={k}), MRR())),
    ("MAP", lambda: MAP().compute(item_indices=pd_rank, pd_scores=pd_scores, gt_pos=gt_pos)),
]:
    if len(gt_pos) == 0:  # cornac's ranking_eval skips such a user before any metric sees it
        print(name, "left out: a user with no relevant item")
    else:
        print(name, compute())
"""
    return Snippet(code, tested=True, prints=names)


def _scala(item) -> str:
    return json.dumps(str(item), ensure_ascii=True)


def spark(recommended, ground_truth, k) -> Snippet:
    items, grades = check_ranking(recommended), check_grades(ground_truth)
    relevant = [(i, g) for i, g in grades.items() if g > 0]
    names = {f"precisionAt({k})": "precision", f"recallAt({k})": "recall",
             f"meanAveragePrecisionAt({k})": "average_precision", f"ndcgAt({k})": "ndcg"}
    code = f"""import org.apache.spark.mllib.evaluation.RankingMetrics

// Graded NDCG needs the Scala API: PySpark drops the third column (the grades).
val data = sc.parallelize(Seq((
  Array[String]({", ".join(_scala(i) for i in items)}),  // the list, best first
  Array[String]({", ".join(_scala(i) for i, _ in relevant)}),  // relevant items, in the order given
  Array[Double]({", ".join(repr(float(g)) for _, g in relevant)})  // their grades, same order
)))
val metrics = new RankingMetrics(data)
println(s"precisionAt({k}) ${{metrics.precisionAt({k})}}")
println(s"recallAt({k}) ${{metrics.recallAt({k})}}")
println(s"meanAveragePrecisionAt({k}) ${{metrics.meanAveragePrecisionAt({k})}}")
println(s"ndcgAt({k}) ${{metrics.ndcgAt({k})}}")
"""
    return Snippet(code, language="scala", tested=True, prints=names)


BUILDERS = {
    "trec_eval": trec_eval, "scikit-learn": scikit_learn, "ranx": ranx, "torchmetrics": torchmetrics,
    "Recommenders": recommenders, "RecBole": recbole, "Evidently": evidently, "RecTools": rectools,
    "cornac": cornac, "Spark MLlib": spark,
}


WHY_NOT_RUN = lens_words.WHY_NOT_RUN
"""Why a snippet is not run by the tests (each reason checked with pip against this app's requirements)."""


def snippet(library: str, recommended, ground_truth, k) -> Snippet:
    """The snippet of ``library`` (a key of :data:`metrics.conventions.CONVENTIONS`) for this input."""
    return BUILDERS[library](recommended, ground_truth, check_k(k))
