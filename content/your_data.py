"""Words of the data pages: the formats, what each trap means, and every data error in the reader's language.

The engine's errors (``metrics.errors.DataError``: readers, batch, significance) carry a code and
fields; :func:`error_message` says each in the reader's language with its file, line and column facts.
"""

from __future__ import annotations

from typing import NamedTuple

from content import i18n, numbers
from content.i18n import N_, _, ngettext

MAX_ROWS = 2_000_000
"""Rows per uploaded file (and per synthetic log): above it the page refuses the file."""

MAX_UPLOAD_MB = 200
"""Streamlit's ``server.maxUploadSize`` in .streamlit/config.toml; the uploader refuses bigger files."""

IDEA = N_(
    "Evaluate a **whole model's log**: every user's list against every user's ground truth, the mean "
    "of each metric, how the per-user values spread, and **which users drag the mean down**. Upload your "
    "files or generate a synthetic log; open any user in the shared scenario to see every teaching page "
    "explain that user's numbers."
)

FORMATS_HELP = N_(
    "**Recommendations**: columns `user`, `item` and `rank` (1 = best) or `score` (higher = better). "
    "**Ground truth**: `user`, `item` and optionally `relevance` (a grade ≥ 0; 1 when absent). "
    "CSV needs a header row (delimiter `,` `;` tab or `|`); Parquet uses the same column names; "
    "TREC files have no header: a run `qid Q0 docid rank score tag`, qrels `qid 0 docid rel`. "
    "Up to {megabytes} MB and {rows} rows per file."
)

TIE_RULE = N_("Ties (equal ranks or scores) are broken by item id ascending, the same way for every metric, "
            "so the row order of a file never changes a number.")


class Trap(NamedTuple):
    label: str
    app: str
    libraries: str


TRAPS = {
    "duplicate_recommendations": Trap(
        N_("Duplicate (user, item) in the recommendations"),
        N_("Refuses the files and names the first duplicate rows: a repeated item would count twice as a hit. "
        "With “keep the best-ranked copy” ticked, each repeated item counts once, at its best rank."),
        N_("trec_eval stops with a duplicate-docs error; pytrec_eval and ranx build dicts, so the last "
        "duplicate silently replaces the first.")),
    "duplicate_ground_truth": Trap(
        N_("Duplicate (user, item) in the ground truth"),
        N_("Refuses the files and names the first duplicate rows: which grade counts would be a guess."),
        N_("pytrec_eval and ranx build dicts: the last grade silently wins.")),
    "tied_scores": Trap(
        N_("Tied scores (or ranks) within a user"),
        N_("Breaks ties by item id ascending, for every metric alike; the command line's --ties trec_eval "
        "(batch.evaluate(..., ties=\"trec_eval\")) orders them as trec_eval does, --ties input keeps the file's order."),
        N_("trec_eval breaks ties by document id descending, ranx and Recommenders by input order, "
        "scikit-learn's ndcg_score averages over the tie: the same file gives different numbers.")),
    "truth_without_recommendations": Trap(
        N_("Users in the ground truth but not in the recommendations"),
        N_("Scores them 0 on every metric and counts them in the means."),
        N_("trec_eval and pytrec_eval leave them out (higher means) unless trec_eval runs with -c; "
        "ranx needs make_comparable=True, which scores them 0 as here.")),
    "recommendations_without_truth": Trap(
        N_("Users in the recommendations but not in the ground truth"),
        N_("Leaves them out of the means (there is nothing to score them against) and counts them."),
        N_("trec_eval ignores such queries; ranx drops them with make_comparable=True.")),
    "shorter_than_k": Trap(
        N_("Lists shorter than K (largest K chosen)"),
        N_("Empty slots are misses: Precision@K still divides by K."),
        N_("Same in trec_eval, ranx and both source documents (the NumPy tutorial and the offline-evaluation article); Evidently and torchmetrics (adaptive_k) divide "
        "by the list length instead, which scores short lists higher.")),
    "relevant_never_recommended": Trap(
        N_("Relevant items never recommended"),
        N_("They still count: in the recall denominator and in the ideal DCG."),
        N_("Same in trec_eval and ranx; scikit-learn's ndcg_score, torchmetrics and Evidently, given only "
        "the recommended rows, never see them and report higher recall and NDCG.")),
    "graded_zero": Trap(
        N_("Ground-truth items graded 0"),
        N_("Judged but not relevant (grade > 0 is relevant); a user with only grade-0 items scores 0 and counts."),
        N_("Same in trec_eval (relevance level 1) and ranx; libraries that take the truth as a plain set of "
        "items (binary RecBole, cornac) count every listed item as relevant.")),
    "negative_grades": Trap(
        N_("Ground-truth items with a negative grade"),
        N_("Read as judged non-relevant (grade 0), as trec_eval reads them; they never count as hits or in the ideal DCG."),
        N_("trec_eval: judged non-relevant; ranx and pytrec_eval take the number as given, so a negative gain "
        "can lower DCG there.")),
}

PITFALLS = (
    N_("**The mean hides the spread.** Two models with the same MAP can differ completely in how many users "
    "get nothing: read the histograms and the worst users, not only the summary."),
    N_("**Which users are averaged changes the mean.** This page keeps users with ground truth but no list "
    "(they score 0); trec_eval without -c drops them and reports more."),
    N_("**Say your AP denominator and NDCG gain** when you report numbers: min(|Rel|, K) vs |Rel| and linear "
    "vs exponential gain move the same log's MAP and NDCG."),
    N_("**Ties and ids.** If your model writes rounded scores, ties decide orders; libraries break them "
    "differently, so fix the order yourself (write a rank column) before comparing numbers across tools."),
)


def formats_help() -> str:
    return _(FORMATS_HELP).format(megabytes=numbers.integer(MAX_UPLOAD_MB), rows=numbers.integer(MAX_ROWS))


def trap_label(key: str) -> str:
    return _(TRAPS[key].label)


# --------------------------------------------------------------------------- data errors in the reader's language

KINDS = {"recommendations": N_("recommendations"), "ground_truth": N_("ground truth"),
         "item_categories": N_("item categories")}
ARCHIVES = {
    "zip": N_("this file is a ZIP archive: unzip it and choose the file inside"),
    "bzip2": N_("this file is compressed with bzip2: decompress it (bunzip2) or save it as .csv.gz"),
    "xz": N_("this file is compressed with xz: decompress it (unxz) or save it as .csv.gz"),
    "zstd": N_("this file is compressed with zstd: decompress it (unzstd) or save it as .csv.gz"),
}


def kind_name(kind: str) -> str:
    return _(KINDS[kind]) if kind in KINDS else kind


def _listed(labels) -> str:
    labels = [str(label) for label in labels]
    if len(labels) <= 1:
        return "".join(labels)
    return _("{first} and {last}").format(first=_(", ").join(labels[:-1]), last=labels[-1])


def _quoted(names) -> str:
    return _(", ").join(f"'{name}'" for name in names) or _("none")


def _where(fields: dict) -> str:
    labels, more = fields["labels"], fields.get("more", 0)
    listed = _listed(labels)
    if fields.get("unit") == "line":
        where = ngettext("line {lines}", "lines {lines}", len(labels)).format(lines=listed)
    else:
        where = ngettext("row {rows}", "rows {rows}", len(labels)).format(rows=listed)
    if more:
        where = _("{where} (and {n} more)").format(where=where, n=numbers.integer(more))
    return where


def _missing(groups) -> str:
    return _(", ").join(_(" or ").join(f"'{c}'" for c in group) for group in groups)


def error_message(error: Exception) -> str:
    """An engine error in the reader's language: its code and fields, or its English text if it has no code."""
    code, f = getattr(error, "code", None), getattr(error, "fields", {})
    if i18n.current() == i18n.SOURCE:
        return str(error)  # the engine's own English, word for word
    integer = numbers.integer
    if code == "archive":
        return _(ARCHIVES[f["archive"]])
    if code == "binary":
        return _("this is not a text file (it holds binary data in its first bytes, e.g. a NUL byte at position "
                 "{position}); expected CSV, TREC text or Parquet").format(position=integer(f["position"]))
    if code == "gzip":
        return _("this gzip file cannot be decompressed ({detail}); is it complete?").format(detail=f["detail"])
    if code == "utf16":
        return _("this UTF-16 file has an undecodable character at byte {position}; save it as UTF-8 CSV").format(
            position=integer(f["position"]))
    if code == "parquet_not_text":
        return _("this is a Parquet file, not a text file: choose the Parquet format")
    if code == "not_utf8":
        return _("this is not a UTF-8 text file: line {line}, field {field} holds the byte {byte} (position "
                 "{position}), which UTF-8 cannot decode; save it as UTF-8 (or UTF-16 with a BOM) CSV or TREC "
                 "text").format(line=integer(f["line"]), field=integer(f["field"]), byte=f["byte"],
                                position=integer(f["position"]))
    if code == "duplicate_column":
        return _("the header names column '{column}' twice (columns {first} and {second}): name each column "
                 "once").format(column=f["column"], first=integer(f["columns"][0]), second=integer(f["columns"][1]))
    if code == "missing_column":
        message = _("the {kind} file is missing column {names} (found columns: {found})").format(
            kind=kind_name(f["kind"]), names=_missing(f["missing"]), found=_quoted(f["found"]))
        if f.get("case_sensitive"):
            message += _("; column names are case-sensitive: name them in lower case (user, item, rank, ...)")
        elif f.get("hint"):
            message += f["hint"]
        return message
    if code == "too_many_rows":
        return _("the file has more than {limit} rows, the limit here").format(limit=integer(f["limit"]))
    if code == "no_header":
        return _("the file is empty or its first line is blank; expected a header row such as user,item,rank")
    if code == "csv_unreadable":
        return _("could not read the file as CSV: {detail}").format(detail=f["detail"])
    if code == "csv_fields":
        shown = _("; ").join(ngettext("line {line} has {n} field: {text}", "line {line} has {n} fields: {text}", n)
                             .format(line=integer(line), n=integer(n), text=repr(text)) for line, n, text in f["lines"])
        message = _("could not read the file as CSV: the header names {columns} columns ({header}) but {lines}").format(
            columns=integer(f["columns"]), header=f["header"], lines=shown)
        if f.get("more"):
            message += " " + ngettext("({n} more such line)", "({n} more such lines)", f["more"]).format(
                n=integer(f["more"]))
        return message
    if code == "parquet_type":
        return _("this Parquet file has a column that does not hold one value per row: {detail}").format(
            detail=f["detail"])
    if code == "parquet_unreadable":
        return _("could not read the file as Parquet: {detail}").format(detail=f["detail"])
    if code == "trec_empty":
        return _("the file is empty; expected TREC {what} lines: {names}").format(what=f["what"], names=f["names"])
    if code == "trec_first_line":
        message = ngettext("line 1 has {found} field but a TREC {what} line has {expected}: {names}",
                           "line 1 has {found} fields but a TREC {what} line has {expected}: {names}",
                           f["found"]).format(found=integer(f["found"]), what=f["what"],
                                              expected=integer(f["expected"]), names=f["names"])
        if f.get("looks") == "csv":
            message += _("; it looks like CSV: choose CSV")
        elif f.get("looks") == "qrels":
            message += _("; it reads as TREC qrels: is this the ground truth?")
        return message
    if code == "trec_unreadable":
        return _("could not read the file as TREC {what}: {detail}").format(what=f["what"], detail=f["detail"])
    if code == "trec_short":
        return ngettext("TREC {what} lines need {expected} fields ({names}); line {lines} has fewer",
                        "TREC {what} lines need {expected} fields ({names}); lines {lines} have fewer",
                        len(f["lines"])).format(what=f["what"], expected=integer(f["expected"]), names=f["names"],
                                                lines=_listed(integer(n) for n in f["lines"]))
    if code == "trec_not_number":
        shown = _(", ").join(f"{integer(line)} ({text!r})" for line, text in f["lines"])
        return ngettext("the {column} field of a TREC {what} must be a number; line {lines}",
                        "the {column} field of a TREC {what} must be a number; lines {lines}",
                        len(f["lines"])).format(column=f["column"], what=f["what"], lines=shown)
    if code == "empty":
        return _("the file is empty")
    if code == "empty_decompressed":
        return _("the file is empty (once decompressed)")
    if code == "trec_categories":
        return _("TREC files hold runs and qrels; item categories need a CSV or Parquet file with columns item, "
                 "category")
    if code == "no_truth_rows":
        return _("the ground truth file has no data rows (only a header, blank or comment lines): there is no user "
                 "to evaluate")
    if code == "table_missing_column":
        return _("the {table} table is missing column {names} (found columns: {found})").format(
            table=kind_name(f["table"]), names=_quoted(f["missing"]), found=_quoted(f["found"]))
    if code == "empty_ids":
        return _("the {table} column '{column}' is empty at {where}").format(
            table=kind_name(f["table"]), column=f["column"], where=_where(f))
    if code == "nested_ids":
        return _("the {table} column '{column}' must hold one id per row; {where}: {type}").format(
            table=kind_name(f["table"]), column=f["column"], where=_where(f), type=f["type"])
    if code == "not_numbers":
        return _("the {table} column '{column}' must hold finite numbers; {where}: {values}").format(
            table=kind_name(f["table"]), column=f["column"], where=_where(f), values=f["values"])
    if code == "duplicate_pairs":
        return ngettext(
            "the {table} have duplicate (user, item) pairs in columns 'user' and 'item': user {user}, item {item} "
            "at {where}; {n} row in all repeats an earlier pair",
            "the {table} have duplicate (user, item) pairs in columns 'user' and 'item': user {user}, item {item} "
            "at {where}; {n} rows in all repeat an earlier pair", f["repeats"]).format(
            table=kind_name(f["table"]), user=f["user"], item=f["item"], where=_where(f), n=integer(f["repeats"]))
    if code == "no_rank_or_score":
        return _("the recommendations need a 'rank' column (1 = best) or a 'score' column (higher = better); found "
                 "columns: {found}").format(found=_quoted(f["found"]))
    if code == "id_kinds":
        template = (_("item ids are numbers in the recommendations (e.g. {recommended}) and text in the ground truth "
                      "(e.g. {truth}), and not one of them matches: every metric would be 0. Write the ids the same "
                      "way in both files") if f["numeric_in_recommendations"] else
                    _("item ids are text in the recommendations (e.g. {recommended}) and numbers in the ground truth "
                      "(e.g. {truth}), and not one of them matches: every metric would be 0. Write the ids the same "
                      "way in both files"))
        return template.format(recommended=f["example_recommendation"], truth=f["example_truth"])
    if code == "grades_too_large":
        if f["gain"] == "exponential":
            return _("the ground truth's relevance is too large for a DCG in float64: grades must be below 1024 with "
                     "exponential gain (2^rel - 1 overflows); {where}: {values}").format(where=_where(f),
                                                                                       values=f["values"])
        return _("the ground truth's relevance is too large for a DCG in float64: grades must be smaller; {where}: "
                 "{values}").format(where=_where(f), values=f["values"])
    if code == "two_categories":
        return _("item {item} has two categories, {first} ({where}) and {second} ({other}): give each item one "
                 "category").format(item=f["item"], first=f["first"], second=f["second"],
                                    where=_where({"unit": f["unit"], "labels": [f["where"]]}),
                                    other=_where({"unit": f["unit"], "labels": [f["other"]]}))
    if code == "user_twice":
        return _("one model's table lists user {user} more than once").format(user=f["user"])
    if code == "different_users":
        parts = [ngettext("{n} user is only in {side} (first: {users})", "{n} users are only in {side} (first: {users})",
                          n).format(n=integer(n), side=side, users=_(", ").join(users))
                 for side, (n, users) in f["only"].items()]
        return _("the two tables must hold the same users: {sides}").format(sides=_(" and ").join(parts))
    if code == "too_few_users":
        return _("a paired comparison needs at least 2 users, got {n}").format(n=integer(f["users"]))
    if code == "no_value":
        return _("a model has no value for user {user} in column {column}").format(user=f["user"], column=f["column"])
    return str(error)


def file_error(kind: str, filename: str, error: Exception) -> str:
    """Which file could not be read, and why."""
    return _("{kind} file “{name}”: {problem}").format(kind=_capitalized_kind(kind), name=filename,
                                                     problem=error_message(error))


def _capitalized_kind(kind: str) -> str:
    return {"recommendations": _("Recommendations"), "ground_truth": _("Ground truth"),
            "item_categories": _("Item categories")}.get(kind, kind)


def engine_error(error: Exception) -> str:
    """An error the engine's checks found in both files, with a hint where the page can fix it."""
    message = _("{problem}.").format(problem=error_message(error))
    if getattr(error, "code", None) == "duplicate_pairs" and error.fields.get("table") == "recommendations":
        message += " " + _("Tick “keep the best-ranked copy” to evaluate each repeated item once, at its best rank.")
    return message
