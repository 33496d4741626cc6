"""Words of the "Your data" page: the idea, the limits, and what each trap means."""

from __future__ import annotations

from typing import NamedTuple

MAX_ROWS = 2_000_000
"""Rows per uploaded file (and per synthetic log): above it the page refuses the file."""

MAX_UPLOAD_MB = 200
"""Streamlit's ``server.maxUploadSize`` in .streamlit/config.toml; the uploader refuses bigger files."""

IDEA = (
    "Evaluate a **whole model's log**: every user's list against every user's ground truth, the mean "
    "of each metric, how the per-user values spread, and **which users drag the mean down**. Upload your "
    "files or generate a synthetic log; open any user in the shared scenario to see every teaching page "
    "explain that user's numbers."
)

FORMATS_HELP = (
    "**Recommendations**: columns `user`, `item` and `rank` (1 = best) or `score` (higher = better). "
    "**Ground truth**: `user`, `item` and optionally `relevance` (a grade ≥ 0; 1 when absent). "
    "CSV needs a header row (delimiter `,` `;` tab or `|`); Parquet uses the same column names; "
    "TREC files have no header: a run `qid Q0 docid rank score tag`, qrels `qid 0 docid rel`. "
    f"Up to {MAX_UPLOAD_MB} MB and {MAX_ROWS:,} rows per file."
)

TIE_RULE = ("Ties (equal ranks or scores) are broken by item id ascending, the same way for every metric, "
            "so the row order of a file never changes a number.")


class Trap(NamedTuple):
    label: str
    app: str
    libraries: str


TRAPS = {
    "duplicate_recommendations": Trap(
        "Duplicate (user, item) in the recommendations",
        "Refuses the files and names the first duplicate rows: a repeated item would count twice as a hit. "
        "With “keep the best-ranked copy” ticked, each repeated item counts once, at its best rank.",
        "trec_eval stops with a duplicate-docs error; pytrec_eval and ranx build dicts, so the last "
        "duplicate silently replaces the first."),
    "duplicate_ground_truth": Trap(
        "Duplicate (user, item) in the ground truth",
        "Refuses the files and names the first duplicate rows: which grade counts would be a guess.",
        "pytrec_eval and ranx build dicts: the last grade silently wins."),
    "tied_scores": Trap(
        "Tied scores (or ranks) within a user",
        "Breaks ties by item id ascending, for every metric alike; the command line's --ties trec_eval "
        "(batch.evaluate(..., ties=\"trec_eval\")) orders them as trec_eval does, --ties input keeps the file's order.",
        "trec_eval breaks ties by document id descending, ranx and Recommenders by input order, "
        "scikit-learn's ndcg_score averages over the tie: the same file gives different numbers."),
    "truth_without_recommendations": Trap(
        "Users in the ground truth but not in the recommendations",
        "Scores them 0 on every metric and counts them in the means.",
        "trec_eval and pytrec_eval leave them out (higher means) unless trec_eval runs with -c; "
        "ranx needs make_comparable=True, which scores them 0 as here."),
    "recommendations_without_truth": Trap(
        "Users in the recommendations but not in the ground truth",
        "Leaves them out of the means (there is nothing to score them against) and counts them.",
        "trec_eval ignores such queries; ranx drops them with make_comparable=True."),
    "shorter_than_k": Trap(
        "Lists shorter than K (largest K chosen)",
        "Empty slots are misses: Precision@K still divides by K.",
        "Same in trec_eval, ranx and both source documents (the NumPy tutorial and the offline-evaluation article); Evidently and torchmetrics (adaptive_k) divide "
        "by the list length instead, which scores short lists higher."),
    "relevant_never_recommended": Trap(
        "Relevant items never recommended",
        "They still count: in the recall denominator and in the ideal DCG.",
        "Same in trec_eval and ranx; scikit-learn's ndcg_score, torchmetrics and Evidently, given only "
        "the recommended rows, never see them and report higher recall and NDCG."),
    "graded_zero": Trap(
        "Ground-truth items graded 0",
        "Judged but not relevant (grade > 0 is relevant); a user with only grade-0 items scores 0 and counts.",
        "Same in trec_eval (relevance level 1) and ranx; libraries that take the truth as a plain set of "
        "items (binary RecBole, cornac) count every listed item as relevant."),
    "negative_grades": Trap(
        "Ground-truth items with a negative grade",
        "Read as judged non-relevant (grade 0), as trec_eval reads them; they never count as hits or in the ideal DCG.",
        "trec_eval: judged non-relevant; ranx and pytrec_eval take the number as given, so a negative gain "
        "can lower DCG there."),
}

PITFALLS = (
    "**The mean hides the spread.** Two models with the same MAP can differ completely in how many users "
    "get nothing: read the histograms and the worst users, not only the summary.",
    "**Which users are averaged changes the mean.** This page keeps users with ground truth but no list "
    "(they score 0); trec_eval without -c drops them and reports more.",
    "**Say your AP denominator and NDCG gain** when you report numbers: min(|Rel|, K) vs |Rel| and linear "
    "vs exponential gain move the same log's MAP and NDCG.",
    "**Ties and ids.** If your model writes rounded scores, ties decide orders; libraries break them "
    "differently, so fix the order yourself (write a rank column) before comparing numbers across tools.",
)
