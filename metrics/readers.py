"""Read recommendation logs and ground truth from the files people already have.

Each reader returns the two tables :func:`metrics.batch.evaluate` takes:

* recommendations: ``user``, ``item`` and ``rank`` or ``score``;
* ground truth: ``user``, ``item`` and optionally ``relevance``.

Formats: CSV (a header row naming those columns; the delimiter is found among ``, ; tab |``),
Parquet (columns named the same) and the two TREC formats, whitespace-separated with no header:
a run ``qid Q0 docid rank score tag`` and qrels ``qid 0 docid rel``. A TREC run is read as
``user, item, score``: like trec_eval, the order comes from the score and the rank column is only
checked to be a number.

Ids from CSV and TREC files are kept as text (``"007"`` stays ``"007"``). Rows are labelled by
their line in the file (``line`` index, header = line 1) or, for Parquet, by their row number
from 1, so every error can point at the place to fix. Errors are ``ValueError`` with a message
meant for the person who made the file.
"""

from __future__ import annotations

import csv
import io
from os import PathLike
from pathlib import Path

import numpy as np
import pandas as pd

FORMATS = ("csv", "parquet", "trec")
KINDS = ("recommendations", "ground_truth", "item_categories")
TEXT_COLUMNS = ("user", "item", "category")  # ids and labels stay text: "007" is not 7
DELIMITERS = (",", ";", "\t", "|")
TREC_RUN = ["user", "q0", "item", "rank", "score", "tag"]
TREC_QRELS = ["user", "iteration", "item", "relevance"]
PARQUET_MAGIC = b"PAR1"
SNIFF_BYTES = 64 * 1024


def _bytes(source) -> bytes:
    if isinstance(source, (bytes, bytearray)):
        return bytes(source)
    if isinstance(source, (str, PathLike)):
        return Path(source).read_bytes()
    if hasattr(source, "getvalue"):
        return source.getvalue()
    return source.read()


def _text_head(data: bytes) -> str:
    """The first lines of a file as text, or a ValueError if it is not a text file."""
    head = data[:SNIFF_BYTES]
    if head.startswith(PARQUET_MAGIC):
        raise ValueError("this is a Parquet file, not a text file: choose the Parquet format")
    if b"\x00" in head:
        raise ValueError("this is not a text file (it holds binary data); expected CSV or TREC text")
    try:
        return head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 4:  # not just a character cut at the sniffing boundary
            raise ValueError(
                f"this is not a UTF-8 text file (undecodable byte at position {error.start}); "
                "save it as UTF-8 CSV or TREC text"
            ) from None
        return head[: error.start].decode("utf-8")


def sniff_format(data: bytes, filename: str = "") -> str:
    """``"parquet"``, ``"csv"`` or ``"trec"``, from the file's first bytes and its name.

    Examples
    --------
    >>> sniff_format(b"user,item,rank\\n1,2,1\\n"), sniff_format(b"q1 Q0 d1 1 0.9 run\\n")
    ('csv', 'trec')
    """
    if data[:4] == PARQUET_MAGIC or filename.lower().endswith((".parquet", ".pq")):
        return "parquet"
    first = _text_head(data).lstrip("\ufeff").split("\n", 1)[0]
    if any(d in first for d in DELIMITERS) or "user" in first.lower():
        return "csv"
    return "trec"


def _required(kind: str) -> tuple[list[str], list[str]]:
    """The columns a table must have, and the columns of which it needs at least one."""
    if kind == "recommendations":
        return ["user", "item"], ["rank", "score"]
    if kind == "item_categories":
        return ["item", "category"], []
    return ["user", "item"], []


def _check_columns(frame: pd.DataFrame, kind: str, hint: str = "") -> pd.DataFrame:
    needed, one_of = _required(kind)
    missing = [f"'{c}'" for c in needed if c not in frame.columns]
    if one_of and not any(c in frame.columns for c in one_of):
        missing.append(" or ".join(f"'{c}'" for c in one_of))
    if missing:
        found = ", ".join(repr(str(c)) for c in frame.columns)
        names = ", ".join(missing)
        raise ValueError(f"the {kind.replace('_', ' ')} file is missing column {names} "
                         f"(found columns: {found}){hint}")
    return frame


def _too_many(n_rows: int, max_rows: int | None) -> None:
    if max_rows is not None and n_rows > max_rows:
        raise ValueError(f"the file has more than {max_rows:,} rows, the limit here")


def _label_lines(frame: pd.DataFrame, first_line: int) -> pd.DataFrame:
    """Label rows by their line in the file and drop blank lines (rows with every field empty)."""
    frame.index = pd.RangeIndex(first_line, first_line + len(frame), name="line")
    return frame[~frame.isna().all(axis=1)]


def read_csv(source, kind: str = "recommendations", *, max_rows: int | None = None) -> pd.DataFrame:
    """A CSV file with a header row; ``user`` and ``item`` are read as text.

    Examples
    --------
    >>> read_csv(b"user;item;score\\nu1;007;0.5\\n").to_dict("index")
    {2: {'user': 'u1', 'item': '007', 'score': 0.5}}
    """
    data = _bytes(source)
    head = _text_head(data).lstrip("\ufeff")
    header = head.split("\n", 1)[0]
    if not header.strip():
        raise ValueError("the file is empty or its first line is blank; expected a header row such as user,item,rank")
    delimiter = max(DELIMITERS, key=header.count)
    if header.count(delimiter) == 0:
        delimiter = ","
    try:
        frame = pd.read_csv(
            io.BytesIO(data), sep=delimiter, dtype=dict.fromkeys(TEXT_COLUMNS, str), skip_blank_lines=False,
            nrows=None if max_rows is None else max_rows + 1, encoding="utf-8-sig", quoting=csv.QUOTE_MINIMAL,
        )
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"could not read the file as CSV: {str(error).strip()}") from None
    frame.columns = [str(c).strip() for c in frame.columns]
    _too_many(len(frame), max_rows)
    hint = ""
    if len(frame.columns) == 1 and len(header.split()) > 1:
        hint = ("; the header has no , ; tab or | between names: is this a TREC file "
                "(choose TREC) or separated by spaces?")
    _check_columns(frame, kind, hint)
    for column in TEXT_COLUMNS:
        if column in frame.columns:
            frame[column] = frame[column].str.strip()
    return _label_lines(frame, 2)


def read_parquet(source, kind: str = "recommendations", *, max_rows: int | None = None) -> pd.DataFrame:
    """A Parquet file whose columns are named as in a CSV file; rows are numbered from 1."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    data = _bytes(source)
    try:
        table_file = pq.ParquetFile(io.BytesIO(data))
        _too_many(table_file.metadata.num_rows, max_rows)
        frame = table_file.read().to_pandas()
    except (pa.ArrowException, OSError) as error:
        raise ValueError(f"could not read the file as Parquet: {str(error).strip()}") from None
    frame.columns = [str(c).strip() for c in frame.columns]
    _check_columns(frame, kind)
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="row")
    return frame


def _read_trec(source, names: list[str], what: str, max_rows: int | None) -> pd.DataFrame:
    data = _bytes(source)
    head = _text_head(data)
    first = next((line for line in head.splitlines() if line.strip()), "")
    if not first:
        raise ValueError(f"the file is empty; expected TREC {what} lines: {' '.join(names)}")
    fields = first.split()
    if len(fields) != len(names):
        looks_csv = any(d in first for d in DELIMITERS)
        raise ValueError(
            f"line 1 has {len(fields)} field(s) but a TREC {what} line has {len(names)}: "
            f"{' '.join(names)}" + ("; it looks like CSV: choose CSV" if looks_csv else "")
        )
    try:
        frame = pd.read_csv(
            io.BytesIO(data), sep=r"\s+", header=None, names=names, dtype=str, skip_blank_lines=False,
            nrows=None if max_rows is None else max_rows + 1, engine="c",
        )
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"could not read the file as TREC {what}: {str(error).strip()}") from None
    _too_many(len(frame), max_rows)
    frame = _label_lines(frame, 1)
    short = np.flatnonzero(frame.isna().any(axis=1).to_numpy())
    if short.size:
        lines = ", ".join(str(n) for n in frame.index[short[:5]])
        raise ValueError(f"TREC {what} lines need {len(names)} fields ({' '.join(names)}); line(s) {lines} have fewer")
    return frame


def _numbers(frame: pd.DataFrame, column: str, what: str) -> pd.Series:
    values = pd.to_numeric(frame[column], errors="coerce")
    bad = np.flatnonzero(values.isna().to_numpy())
    if bad.size:
        shown = ", ".join(f"{line} ({frame[column].iloc[i]!r})" for i, line in zip(bad[:5], frame.index[bad[:5]], strict=True))
        raise ValueError(f"the {column} field of a TREC {what} must be a number; line(s) {shown}")
    return values


def read_trec_run(source, *, max_rows: int | None = None) -> pd.DataFrame:
    """A TREC run, ``qid Q0 docid rank score tag``, as ``user, item, score``.

    Examples
    --------
    >>> read_trec_run(b"q1 Q0 d7 1 2.5 mine\\nq1 Q0 d3 2 1.5 mine\\n").to_dict("index")
    {1: {'user': 'q1', 'item': 'd7', 'score': 2.5}, 2: {'user': 'q1', 'item': 'd3', 'score': 1.5}}
    """
    frame = _read_trec(source, TREC_RUN, "run", max_rows)
    _numbers(frame, "rank", "run")
    return frame[["user", "item"]].assign(score=_numbers(frame, "score", "run"))


def read_trec_qrels(source, *, max_rows: int | None = None) -> pd.DataFrame:
    """TREC qrels, ``qid 0 docid rel``, as ``user, item, relevance``.

    Examples
    --------
    >>> read_trec_qrels(b"q1 0 d7 2\\n").to_dict("records")
    [{'user': 'q1', 'item': 'd7', 'relevance': 2}]
    """
    frame = _read_trec(source, TREC_QRELS, "qrels", max_rows)
    return frame[["user", "item"]].assign(relevance=_numbers(frame, "relevance", "qrels"))


def read_table(source, kind: str, fmt: str = "auto", *, filename: str = "", max_rows: int | None = None) -> pd.DataFrame:
    """Read ``kind`` (one of :data:`KINDS`) from a path, bytes or file.

    ``fmt`` is one of :data:`FORMATS` or ``"auto"`` (:func:`sniff_format`). A TREC file is a run
    for recommendations and qrels for ground truth; item categories (columns item, category) come
    as CSV or Parquet only.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    data = _bytes(source)
    if not data:
        raise ValueError("the file is empty")
    if fmt == "auto":
        fmt = sniff_format(data, filename or str(source if isinstance(source, (str, PathLike)) else ""))
    if fmt == "csv":
        return read_csv(data, kind, max_rows=max_rows)
    if fmt == "parquet":
        return read_parquet(data, kind, max_rows=max_rows)
    if fmt == "trec" and kind == "item_categories":
        raise ValueError("TREC files hold runs and qrels; item categories need a CSV or Parquet file "
                         "with columns item, category")
    if fmt == "trec":
        reader = read_trec_run if kind == "recommendations" else read_trec_qrels
        return reader(data, max_rows=max_rows)
    raise ValueError(f"format must be one of auto, {', '.join(FORMATS)}, got {fmt!r}")
