"""Read recommendation logs and ground truth from the files people already have.

Each reader returns the two tables :func:`whole_logs.batch.evaluate` takes:

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

import codecs
import csv
import gzip
import io
import mmap
import re
import zlib
from concurrent.futures import ThreadPoolExecutor
from os import PathLike
from pathlib import Path

import numpy as np
import pandas as pd

from metrics.errors import DataError

FORMATS = ("csv", "parquet", "trec")
KINDS = ("recommendations", "ground_truth", "item_categories", "logged_rounds", "target_policy")
TEXT_COLUMNS = ("user", "item", "category")  # ids and labels stay text: "007" is not 7
NUMBER_COLUMNS = ("rank", "score", "relevance")
KIND_COLUMNS = {"logged_rounds": (("context", "action", "position"), ("reward", "propensity")),
                "target_policy": (("context", "action"), ("probability",))}
"""The off-policy files' own id and number columns (``python -m metrics offpolicy``), beside the ones above."""
DELIMITERS = (",", ";", "\t", "|")
TREC_RUN = ["user", "q0", "item", "rank", "score", "tag"]
TREC_QRELS = ["user", "iteration", "item", "relevance"]
PARQUET_MAGIC = b"PAR1"
GZIP_MAGIC = b"\x1f\x8b"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
UTF8_BOM = b"\xef\xbb\xbf"
ARCHIVES = {b"PK\x03\x04": "a ZIP archive: unzip it and choose the file inside",
            b"BZh": "compressed with bzip2: decompress it (bunzip2) or save it as .csv.gz",
            b"\xfd7zXZ\x00": "compressed with xz: decompress it (unxz) or save it as .csv.gz",
            b"\x28\xb5\x2f\xfd": "compressed with zstd: decompress it (unzstd) or save it as .csv.gz"}
ARCHIVE_KINDS = dict(zip(ARCHIVES, ("zip", "bzip2", "xz", "zstd"), strict=True))
SNIFF_BYTES = 64 * 1024
SHOWN = 5  # offending lines listed in a message
LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""Where pyarrow ends a CSV row: LF, CRLF, or CR alone (an old Mac file)."""
QUOTE_OR_BREAK = (b'"', b"\n", b"\r")
BLOCK_BYTES = 1 << 24
"""The CSV parser's blocks: each is parsed on a core of its own."""


def _bytes(source) -> bytes:
    """The file's content: bytes, or a read-only memory map of the file as it is (the command line
    maps large files instead of copying them: the readers use only what both offer)."""
    if isinstance(source, mmap.mmap):
        return source
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, PathLike)):
        return Path(source).read_bytes()
    if hasattr(source, "getvalue"):
        return source.getvalue()
    return source.read()


def check_head(head: bytes) -> None:
    """Refuse, from a file's first bytes alone, what no reader here can read (binary data, archives).

    Meant to run on the first :data:`SNIFF_BYTES` before a large file is read whole.

    Examples
    --------
    >>> check_head(b"user,item,rank\\n")
    >>> check_head(b"\\x00" * 10)
    Traceback (most recent call last):
    metrics.errors.DataError: this is not a text file (it holds binary data in its first bytes, e.g. a NUL byte at position 0); expected CSV, TREC text or Parquet
    """
    if head.startswith((PARQUET_MAGIC, GZIP_MAGIC, *UTF16_BOMS)):
        return
    for magic, what in ARCHIVES.items():
        if head.startswith(magic):
            raise DataError("archive", f"this file is {what}", archive=ARCHIVE_KINDS[magic])
    nul = head[:SNIFF_BYTES].find(b"\x00")
    if nul >= 0:
        raise DataError("binary", "this is not a text file (it holds binary data in its first bytes, e.g. a NUL byte "
                        f"at position {nul}); expected CSV, TREC text or Parquet", position=nul)


def unwrap(data: bytes) -> bytes:
    """The file's content as Parquet or UTF-8 bytes: gzip is decompressed, UTF-16 with a BOM re-encoded."""
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise DataError("gzip", f"this gzip file cannot be decompressed ({error}); is it complete?",
                            detail=str(error)) from None
    if data[:2] in UTF16_BOMS:
        try:
            data = bytes(data).decode("utf-16").encode("utf-8")
        except UnicodeDecodeError as error:
            raise DataError("utf16", f"this UTF-16 file has an undecodable character at byte {error.start}; "
                            "save it as UTF-8 CSV", position=error.start) from None
    if data[:3] == UTF8_BOM:
        data = data[len(UTF8_BOM):]
    check_head(data[:SNIFF_BYTES])
    return data


def _text_head(data: bytes) -> str:
    """The first lines of a file as text, or a ValueError if it is not a text file."""
    head = data[:SNIFF_BYTES]
    if head.startswith(PARQUET_MAGIC):
        raise DataError("parquet_not_text", "this is a Parquet file, not a text file: choose the Parquet format")
    check_head(head)
    try:
        return head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 4:  # not just a character cut at the sniffing boundary
            raise _undecodable(data, error.start) from None
        return head[: error.start].decode("utf-8")


def _line_at(data: bytes, offset: int) -> int:
    """The line (from 1) holding the byte at ``offset``; LF, CRLF and a lone CR each end a line."""
    before = bytes(data[:offset])
    return before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1


def _first_undecodable(data: bytes) -> int:
    """The position of the first byte that is not UTF-8, or -1; read in slices, never decoded whole."""
    decoder, step = codecs.getincrementaldecoder("utf-8")(), 1 << 24
    for at in range(0, len(data), step):
        pending = len(decoder.getstate()[0])  # a character's first bytes, carried from the previous slice
        try:
            decoder.decode(data[at:at + step], final=at + step >= len(data))
        except UnicodeDecodeError as error:
            return at - pending + error.start
    return -1


def _undecodable(data: bytes, at: int) -> DataError:
    """The refusal of a byte that is not UTF-8, naming its line and field (counted by the delimiter of
    the file's first line, or by blanks in a TREC file; a quoted delimiter may shift the count)."""
    line = _line_at(data, at)
    start = max(data.rfind(b"\n", 0, at), data.rfind(b"\r", 0, at)) + 1
    before = bytes(data[start:at]).decode("utf-8", errors="replace")
    first = LINE_BREAK.split(bytes(data[:SNIFF_BYTES]).decode("utf-8", errors="replace"), 1)[0]
    delimiter = max(DELIMITERS, key=first.count)
    field = before.count(delimiter) + 1 if first.count(delimiter) else len((before + "x").split())
    byte = data[at]
    return DataError("not_utf8", f"this is not a UTF-8 text file: line {line}, field {field} holds the byte 0x{byte:02X} "
                     f"(position {at}), which UTF-8 cannot decode; save it as UTF-8 (or UTF-16 with a BOM) CSV or "
                     "TREC text", line=line, field=field, byte=f"0x{byte:02X}", position=at)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _content_lines(head: str) -> list[str]:
    """The first lines that are neither blank nor '#' comments."""
    return [line for line in LINE_BREAK.split(head, 50)[:50] if line.strip() and not line.lstrip().startswith("#")][:5]


def looks_trec(head: str) -> str | None:
    """``"run"`` or ``"qrels"`` when the first content lines are TREC lines, else None.

    A run line is ``qid Q0 docid rank score tag [more]`` (rank and score numbers); a qrels line
    ``qid iteration docid rel`` (iteration and rel numbers). Any separator of spaces or tabs.

    Examples
    --------
    >>> looks_trec("q1\\tQ0\\td1\\t1\\t0.5\\tbm25\\n"), looks_trec("q1 0 d1 2\\n"), looks_trec("user,item\\n")
    ('run', 'qrels', None)
    """
    lines = _content_lines(head)[:3]
    if not lines:
        return None
    fields = [line.split() for line in lines]
    if all(len(f) >= 6 and _is_number(f[3]) and _is_number(f[4]) for f in fields):
        return "run"
    if all(len(f) == 4 and _is_number(f[1]) and _is_number(f[3]) for f in fields):
        return "qrels"
    return None


def _header_names(header: str, delimiter: str) -> list[str]:
    """The names in a header line (the first line of ``header``, whatever ends it)."""
    return [name.strip() for name in next(csv.reader(LINE_BREAK.split(header, 1)[:1], delimiter=delimiter))]


def _named_once(names: list[str]) -> list[str]:
    """The column names, refused when a column the readers use is named twice (which one would be a guess);
    a repeated name the readers do not use becomes "name (column N)"."""
    seen: dict[str, int] = {}
    unique = []
    for number, name in enumerate(names, start=1):
        if name in seen and name in (*TEXT_COLUMNS, *NUMBER_COLUMNS):
            raise DataError("duplicate_column", f"the header names column '{name}' twice (columns {seen[name]} and "
                            f"{number}): name each column once", column=name, columns=[seen[name], number])
        unique.append(f"{name} (column {number})" if name in seen else name)
        seen.setdefault(name, number)
    return unique


def looks_csv(head: str) -> bool:
    """The first content line names a ``user`` or ``item`` column between CSV delimiters."""
    lines = _content_lines(head)
    if not lines:
        return False
    header = lines[0]
    delimiter = max(DELIMITERS, key=header.count)
    return bool({"user", "item"} & {n.lower() for n in _header_names(header, delimiter)})


def sniff_format(data: bytes, filename: str = "") -> str:
    """``"parquet"``, ``"csv"`` or ``"trec"``, from the file's first bytes and its name.

    TREC is recognised by its content (a ``.txt`` or ``.tsv`` file may be either).

    Examples
    --------
    >>> sniff_format(b"user,item,rank\\n1,2,1\\n"), sniff_format(b"q1 Q0 d1 1 0.9 run\\n")
    ('csv', 'trec')
    >>> sniff_format(b"q1\\t0\\td1\\t1\\n", "qrels.tsv")
    'trec'
    """
    if data[:4] == PARQUET_MAGIC or filename.lower().endswith((".parquet", ".pq")):
        return "parquet"
    if data[:2] in (GZIP_MAGIC, *UTF16_BOMS):
        return sniff_format(unwrap(data), filename.removesuffix(".gz"))
    head = _text_head(data).lstrip("\ufeff")
    if looks_csv(head):
        return "csv"
    if looks_trec(head):
        return "trec"
    first = next(iter(_content_lines(head)), "")
    if any(d in first for d in DELIMITERS) or "user" in first.lower():
        return "csv"
    return "trec"


def _required(kind: str) -> tuple[list[str], list[str]]:
    """The columns a table must have, and the columns of which it needs at least one."""
    if kind == "recommendations":
        return ["user", "item"], ["rank", "score"]
    if kind == "item_categories":
        return ["item", "category"], []
    if kind == "logged_rounds":
        return ["context", "action", "reward", "propensity"], []
    if kind == "target_policy":
        return ["context", "action", "probability"], []
    return ["user", "item"], []


def _check_columns(frame: pd.DataFrame, kind: str, hint: str = "") -> pd.DataFrame:
    needed, one_of = _required(kind)
    missing = [f"'{c}'" for c in needed if c not in frame.columns]
    absent = [[c] for c in needed if c not in frame.columns]
    if one_of and not any(c in frame.columns for c in one_of):
        missing.append(" or ".join(f"'{c}'" for c in one_of))
        absent.append(list(one_of))
    if missing:
        found = ", ".join(repr(str(c)) for c in frame.columns)
        names = ", ".join(missing)
        lower = {str(c).lower() for c in frame.columns}
        # only a missing name written in other letters: "user,item" without a rank is no matter of case
        case = not hint and any(c in lower for c in needed + one_of if c not in frame.columns)
        if case:
            examples = ", ".join(needed[:3]) if kind in KIND_COLUMNS else "user, item, rank"
            hint = f"; column names are case-sensitive: name them in lower case ({examples}, ...)"
        raise DataError("missing_column", f"the {kind.replace('_', ' ')} file is missing column {names} "
                        f"(found columns: {found}){hint}", kind=kind, missing=absent,
                        found=[str(c) for c in frame.columns], case_sensitive=case, hint=hint)
    return frame


def _too_many(n_rows: int, max_rows: int | None) -> None:
    if max_rows is not None and n_rows > max_rows:
        raise DataError("too_many_rows", f"the file has more than {max_rows:,} rows, the limit here", limit=max_rows)


def _label_lines(frame: pd.DataFrame, first_line: int) -> pd.DataFrame:
    """Label rows by their line in the file and drop blank lines (rows with every field empty)."""
    frame.index = pd.RangeIndex(first_line, first_line + len(frame), name="line")
    return frame[~frame.isna().all(axis=1)]


def _leading_comments(lines: list[str]) -> int:
    """How many lines before the header are '#' comments or blank."""
    return next((i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")), len(lines))


def _holds(buffer, marks: tuple[bytes, ...]) -> bool:
    """Whether an Arrow buffer holds any of ``marks`` (single bytes), read a MiB at a time."""
    if buffer is None:
        return False
    view, step = memoryview(buffer), 1 << 20
    for at in range(0, len(view), step):
        piece = view[at:at + step].tobytes()
        if any(mark in piece for mark in marks):
            return True
    return False


def _text_values(table):
    """``(first row, chunk, values)`` for every chunk of text of a table (values: a dictionary
    column's distinct values, else the chunk itself)."""
    import pyarrow as pa

    for column in table.columns:
        at = 0
        for chunk in column.chunks:
            values = chunk.dictionary if pa.types.is_dictionary(chunk.type) else chunk
            if pa.types.is_string(values.type) or pa.types.is_binary(values.type):
                yield at, chunk, values
            at += len(chunk)


def _row_lines(table, first: int, may_break: bool) -> pd.Index:
    """The line of the file where each CSV row starts (line 1 = the file's first line).

    ``first`` is the line of the first data row. The parser keeps blank lines as rows (dropped
    later), so a row starts one line after the previous one, plus the line breaks inside its quoted
    values: when no value may hold one (``may_break`` False: see :func:`_parse_csv`) or no text value
    holds one, that is ``first, first + 1, ...``.
    """
    import pyarrow.compute as pc

    if not may_break or not any(_holds(values.buffers()[2], (b"\n", b"\r")) for _, _, values in _text_values(table)):
        return pd.RangeIndex(first, first + table.num_rows, name="line")
    breaks = np.zeros(table.num_rows, dtype=np.int64)
    for at, chunk, values in _text_values(table):
        counts = pc.count_substring_regex(values, LINE_BREAK.pattern)
        if values is not chunk:
            counts = counts.take(chunk.indices)
        breaks[at:at + len(chunk)] += counts.fill_null(0).to_numpy(zero_copy_only=False)
    starts = first + np.arange(table.num_rows) + np.concatenate(([0], np.cumsum(breaks)[:-1]))
    return pd.Index(starts, name="line")


def _line_of(data: bytes, text: str, start: int) -> int:
    at = data.find(text.encode("utf-8"), start)
    return _line_at(data, at) if at >= 0 else 0


def read_csv(source, kind: str = "recommendations", *, max_rows: int | None = None,
             compact_ids: bool = False) -> pd.DataFrame:
    """A CSV file with a header row; ``user`` and ``item`` are read as text, exactly as written.

    ``NA``, ``null`` or ``None`` in an id column are ids, not missing values; leading ``#``
    comment lines are skipped; gzip and UTF-16 (with a BOM) are read. Read with pyarrow's
    multithreaded CSV reader. With ``compact_ids`` the user column becomes int64 when every user id
    is an integer written as Python writes it (``7``, ``-12``; not ``007``, ``-0``, ``0x1f`` or
    `` 7``), else a pandas Categorical, and the other id columns are Categoricals: the same ids, in
    the forms the batch engine codes fastest. Item ids stay text even when they are integers: ties
    between items are broken by their text ("10" before "9"), as when read without it.

    Examples
    --------
    >>> read_csv(b"user;item;score\\nu1;007;0.5\\n").to_dict("index")
    {2: {'user': 'u1', 'item': '007', 'score': 0.5}}
    """
    import pyarrow as pa

    data = unwrap(_bytes(source))
    head = _text_head(data)
    lines = LINE_BREAK.split(head)
    skipped = _leading_comments(lines)
    header = lines[skipped] if len(lines) > skipped else ""
    if not header.strip():
        raise DataError("no_header", "the file is empty or its first line is blank; expected a header row such as "
                        "user,item,rank")
    delimiter = max(DELIMITERS, key=header.count)
    if header.count(delimiter) == 0:
        delimiter = ","
    names = _header_names(header, delimiter)
    names = [name or f"column {i + 1}" for i, name in enumerate(names)]
    first_row = lines[skipped + 1] if len(lines) > skipped + 1 else ""
    if first_row.endswith(delimiter) and len(_header_names(first_row, delimiter)) == len(names) + 1:
        names.append("trailing delimiter")  # "1,2,3," under "user,item,rank": an empty last field
    names = _named_once(names)
    text = pa.dictionary(pa.int32(), pa.string()) if compact_ids else pa.string()
    text_columns = (*TEXT_COLUMNS, *KIND_COLUMNS.get(kind, ((), ()))[0])
    types = {name: text for name in names if name in text_columns}
    if compact_ids and "user" in types:
        types["user"] = pa.string()  # read as integers if it can be: see _compact_users
    table, bad_rows, may_break = _parse_csv(data, skipped + 1, names, delimiter, types, compact_ids)
    if bad_rows:
        shown = "; ".join(f"line {_line_of(data, row.text, len(header))} has {row.actual_columns} fields: {row.text!r}"
                          for row in bad_rows[:SHOWN])
        more = f" ({len(bad_rows) - SHOWN} more such lines)" if len(bad_rows) > SHOWN else ""
        raise DataError("csv_fields", f"could not read the file as CSV: the header names {len(names)} columns "
                        f"({delimiter.join(names)}) but {shown}{more}", columns=len(names),
                        header=delimiter.join(names), more=max(len(bad_rows) - SHOWN, 0),
                        lines=[(_line_of(data, row.text, len(header)), row.actual_columns, row.text)
                               for row in bad_rows[:SHOWN]])
    _too_many(table.num_rows, max_rows)
    row_lines = _row_lines(table, skipped + 2, may_break)  # before the ids are trimmed: "u\n" holds a line break
    table = _trim_ids(table)
    frame = table.to_pandas(split_blocks=True)  # each column on its own: an int64 id column is not copied
    frame.columns = [str(c).strip() for c in frame.columns]
    hint = ""
    trec = looks_trec(head)
    if trec:
        hint = f"; the file reads as a TREC {trec} (no header, fields separated by spaces or tabs): choose TREC"
    elif len(frame.columns) == 1 and len(header.split()) > 1:
        hint = ("; the header has no , ; tab or | between names: is this a TREC file "
                "(choose TREC) or separated by spaces?")
    _check_columns(frame, kind, hint)
    frame.index = row_lines
    return _drop_blank(frame)


def _parse_csv(data: bytes, skip: int, names: list[str], delimiter: str, types: dict, compact_ids: bool = False):
    """The table pyarrow parses (its user ids compacted, see :func:`_compact_users`), the rows it
    refused (wrong number of fields), and whether a value may hold a line break.

    Parsed first as if no quoted value held a line break, so pyarrow splits the file into blocks at
    any line break and parses them on every core (the fast way, quoted or not). A line break inside
    a quoted value can fall where a block is cut, and then the parse goes wrong, but never without
    trace: it fails, refuses a row, or leaves a quote or a line break in a value. Any of these, and
    the file is parsed again the slow way (blocks cut between whole rows), which the parse of a file
    with quoted line breaks always needs. The trace is looked for in the parsed text, not in the file:
    a dictionary-encoded column's distinct values, and no integer column (a 300 MB file: 0.1 s saved).
    """
    import pyarrow as pa
    import pyarrow.csv as pacsv

    def parse(newlines_in_values: bool):
        bad_rows: list = []

        def invalid(row) -> str:
            bad_rows.append(row)
            return "skip"

        table = pacsv.read_csv(
            pa.py_buffer(data),
            read_options=pacsv.ReadOptions(skip_rows=skip, column_names=names, block_size=BLOCK_BYTES),
            parse_options=pacsv.ParseOptions(delimiter=delimiter, newlines_in_values=newlines_in_values,
                                              ignore_empty_lines=False, invalid_row_handler=invalid),
            convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False),
        )
        return (_compact_users(table) if compact_ids else table), bad_rows

    try:
        try:
            table, bad_rows = parse(False)
            if not bad_rows and not any(_holds(values.buffers()[2], QUOTE_OR_BREAK) for _, _, values in
                                        _text_values(table)):
                return table, bad_rows, False
        except pa.ArrowInvalid:
            pass
        return *parse(True), True
    except pa.ArrowInvalid as error:
        at = _first_undecodable(data) if "invalid UTF8" in str(error) else -1
        if at >= 0:
            raise _undecodable(data, at) from None
        raise DataError("csv_unreadable", f"could not read the file as CSV: {str(error).strip()}",
                        detail=str(error).strip()) from None


def _trim_ids(table):
    """Id columns without surrounding spaces (" 7" is the id "7")."""
    import pyarrow as pa
    import pyarrow.compute as pc

    for column in TEXT_COLUMNS:
        if column not in table.column_names:
            continue
        kind = table.schema.field(column).type
        values = table.column(column)
        if pa.types.is_dictionary(kind):  # each block's dictionary is checked; re-encode if one has spaces
            if all(pc.utf8_trim_whitespace(chunk.dictionary).equals(chunk.dictionary) for chunk in values.chunks):
                continue
            chunks = values.combine_chunks() if values.num_chunks != 1 else values.chunk(0)
            values = pc.dictionary_encode(pc.utf8_trim_whitespace(chunks.cast(pa.string())))
        elif pa.types.is_string(kind) or pa.types.is_large_string(kind):
            values = pc.utf8_trim_whitespace(values)
        else:
            continue
        table = table.set_column(table.column_names.index(column), column, values)
    return table


def _compact_users(table):
    """The user column as int64 when :func:`_canonical_integers` reads it, else dictionary-encoded
    (block by block, as pyarrow encodes the other id columns while parsing). Integers are what the
    batch engine codes fastest (no hash of text: a log whose users' rows are apart holds nearly every
    user in every block); the ids are the same, and only the user ids, whose order changes no number."""
    import pyarrow as pa

    if "user" not in table.column_names or not pa.types.is_string(table.schema.field("user").type):
        return table
    column = table.column("user")
    numbers = _canonical_integers(column)
    column = column.dictionary_encode() if numbers is None else pa.array(numbers)
    return table.set_column(table.column_names.index("user"), "user", column)


def _canonical_integers(column) -> np.ndarray | None:
    """A text column as int64 when every value is an integer written as Python writes it, else None.

    pyarrow's cast reads plain decimal integers and also ``007``, ``00``, ``-0``, ``-07``, ``0x1f``
    and ``0xffffffffffffffff`` (-1), never ``+7``, `` 7`` or ``-0x1f``. Every writing it reads that
    Python would not write starts with ``0`` and is longer than one byte, or starts with ``-0``; so
    after the cast only the first two bytes of each value are looked at (an exhaustive check of every
    text of up to 4 characters drawn from digits, signs, ``x``, letters and spaces agrees). Block by
    block on two threads (pyarrow and numpy leave the interpreter's lock while they work)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    values = np.empty(len(column), dtype=np.int64)
    starts = np.r_[0, np.cumsum([len(chunk) for chunk in column.chunks])]

    def written_plainly(b: int) -> bool:
        chunk = column.chunk(b)
        if not len(chunk):
            return True
        try:
            numbers = pc.cast(chunk, pa.int64()).to_numpy()
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return False  # text that is not an integer, an empty id, a space
        offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int32)[chunk.offset:chunk.offset + len(chunk) + 1]
        text = np.frombuffer(chunk.buffers()[2], dtype=np.uint8)
        first = text[offsets[:-1]]
        zero = np.flatnonzero(first == ord("0"))
        if zero.size and np.any(offsets[zero + 1] - offsets[zero] > 1):
            return False  # 007, 00, 0x1f
        minus = offsets[:-1][first == ord("-")]
        if minus.size and np.any(text[minus + 1] == ord("0")):
            return False  # -0, -07 (the cast refuses a lone "-", so the byte after it is the value's)
        values[starts[b]:starts[b + 1]] = numbers
        return True

    with ThreadPoolExecutor(2) as pool:
        plain = list(pool.map(written_plainly, range(column.num_chunks)))
    return values if all(plain) else None


def _drop_blank(frame: pd.DataFrame) -> pd.DataFrame:
    """Without rows whose every field is empty (blank lines and ",,," lines)."""
    ids = [c for c in frame.columns if c in TEXT_COLUMNS]
    if ids and not (frame[ids[0]] == "").any():
        return frame
    empty = np.ones(len(frame), dtype=bool)
    for name in frame.columns:
        column = frame[name]
        blank = column.isna()
        if not pd.api.types.is_numeric_dtype(column.dtype):
            blank |= column.astype(str) == ""
        empty &= blank.to_numpy()
    return frame[~empty] if empty.any() else frame


def _arrow_type_problem(schema, columns) -> str:
    """Why a Parquet id or number column cannot be read as one value per row, or ''."""
    import pyarrow.types as t

    for name in columns:
        if name not in schema.names:
            continue
        kind = schema.field(name).type
        if t.is_list(kind) or t.is_large_list(kind) or t.is_fixed_size_list(kind):
            return f"column '{name}' holds lists ({kind}); each row needs one value: explode the lists into rows first"
        if t.is_struct(kind) or t.is_map(kind) or t.is_union(kind):
            return f"column '{name}' holds nested records ({kind}); each row needs one value: flatten it first"
        if t.is_binary(kind) or t.is_large_binary(kind):
            return f"column '{name}' holds raw bytes ({kind}); store ids as text or integers"
        if name in NUMBER_COLUMNS and not (t.is_integer(kind) or t.is_floating(kind) or t.is_boolean(kind)
                                           or t.is_decimal(kind) or t.is_string(kind) or t.is_large_string(kind)
                                           or t.is_dictionary(kind)):
            return f"column '{name}' holds {kind}, not numbers"
    return ""


def read_parquet(source, kind: str = "recommendations", *, max_rows: int | None = None) -> pd.DataFrame:
    """A Parquet file whose columns are named as in a CSV file; rows are numbered from 1."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    data = _bytes(source)
    try:
        table_file = pq.ParquetFile(pa.BufferReader(data))
        _too_many(table_file.metadata.num_rows, max_rows)
        schema = table_file.schema_arrow
        _named_once([str(name).strip() for name in schema.names])
        problem = _arrow_type_problem(schema, [*TEXT_COLUMNS, *NUMBER_COLUMNS])
        if problem:
            raise DataError("parquet_type", problem, detail=problem)
        table = table_file.read()
        names = [str(c).strip() for c in table.column_names]
        table = table.rename_columns(names)
        _check_columns(pd.DataFrame(columns=names), kind)
        kept = (*TEXT_COLUMNS, *NUMBER_COLUMNS, *(c for group in KIND_COLUMNS.get(kind, ()) for c in group))
        table = table.select([c for c in names if c in kept] or names)
        table = _trim_ids(table)
        frame = table.to_pandas()
    except (pa.ArrowException, OSError) as error:
        raise DataError("parquet_unreadable", f"could not read the file as Parquet: {str(error).strip()}",
                        detail=str(error).strip()) from None
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="row")
    return frame


def _comment_lines(data: bytes) -> np.ndarray:
    """The 0-based numbers of the lines that start with '#' (comments, which trec_eval skips)."""
    if not (data[:1] == b"#" or data.find(b"\n#") >= 0):
        return np.zeros(0, dtype=np.int64)
    starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]
    return np.array([i for i, at in enumerate(starts) if data[at:at + 1] == b"#"], dtype=np.int64)


def _read_trec(source, names: list[str], what: str, max_rows: int | None) -> pd.DataFrame:
    data = unwrap(_bytes(source))
    head = _text_head(data)
    comments = _comment_lines(data)
    first = next(iter(_content_lines(head)), "")
    if not first:
        raise DataError("trec_empty", f"the file is empty; expected TREC {what} lines: {' '.join(names)}",
                        what=what, names=" ".join(names))
    fields = first.split()
    if len(fields) < len(names) or (what == "qrels" and len(fields) != len(names)):
        hint, looks = "", ""
        if looks_csv(head) or any(d in first for d in DELIMITERS if d != "\t"):
            hint, looks = "; it looks like CSV: choose CSV", "csv"
        elif what == "run" and looks_trec(head) == "qrels":
            hint, looks = "; it reads as TREC qrels: is this the ground truth?", "qrels"
        raise DataError(
            "trec_first_line", f"line 1 has {len(fields)} field(s) but a TREC {what} line has {len(names)}: "
            f"{' '.join(names)}" + hint, found=len(fields), expected=len(names), what=what, names=" ".join(names),
            looks=looks,
        )
    try:
        frame = pd.read_csv(
            io.BytesIO(data), sep=r"\s+", header=None, usecols=range(len(names)), dtype=str, skip_blank_lines=False,
            nrows=None if max_rows is None else max_rows + 1, engine="c", keep_default_na=False,
            skiprows=set(comments.tolist()) or None,
        )
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as error:
        at = _first_undecodable(data) if isinstance(error, UnicodeDecodeError) else -1
        if at >= 0:
            raise _undecodable(data, at) from None
        raise DataError("trec_unreadable", f"could not read the file as TREC {what}: {str(error).strip()}",
                        what=what, detail=str(error).strip()) from None
    frame.columns = names
    _too_many(len(frame), max_rows)
    frame = frame.replace("", np.nan) if (frame == "").any(axis=None) else frame
    if comments.size:
        lines = np.setdiff1d(np.arange(1, len(frame) + comments.size + 1), comments + 1)[:len(frame)]
        frame.index = pd.Index(lines, name="line")
        frame = frame[~frame.isna().all(axis=1)]
    else:
        frame = _label_lines(frame, 1)
    short = np.flatnonzero(frame.isna().any(axis=1).to_numpy())
    if short.size:
        lines = ", ".join(str(n) for n in frame.index[short[:5]])
        raise DataError("trec_short", f"TREC {what} lines need {len(names)} fields ({' '.join(names)}); line(s) "
                        f"{lines} have fewer", what=what, expected=len(names), names=" ".join(names),
                        lines=[int(n) for n in frame.index[short[:5]]])
    return frame


def _numbers(frame: pd.DataFrame, column: str, what: str) -> pd.Series:
    values = pd.to_numeric(frame[column], errors="coerce")
    bad = np.flatnonzero(values.isna().to_numpy())
    if bad.size:
        shown = ", ".join(f"{line} ({frame[column].iloc[i]!r})" for i, line in zip(bad[:5], frame.index[bad[:5]], strict=True))
        raise DataError("trec_not_number", f"the {column} field of a TREC {what} must be a number; line(s) {shown}",
                        column=column, what=what,
                        lines=[(int(line), str(frame[column].iloc[i])) for i, line in
                               zip(bad[:5], frame.index[bad[:5]], strict=True)])
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


def read_table(source, kind: str, fmt: str = "auto", *, filename: str = "", max_rows: int | None = None,
               compact_ids: bool = False) -> pd.DataFrame:
    """Read ``kind`` (one of :data:`KINDS`) from a path, bytes or file.

    ``fmt`` is one of :data:`FORMATS` or ``"auto"`` (:func:`sniff_format`). A TREC file is a run
    for recommendations and qrels for ground truth; item categories (columns item, category) come
    as CSV or Parquet only. ``compact_ids``: see :func:`read_csv` (CSV only).
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    data = _bytes(source)
    if not data:
        raise DataError("empty", "the file is empty")
    data = unwrap(data)
    if not data:
        raise DataError("empty_decompressed", "the file is empty (once decompressed)")
    if fmt == "auto":
        fmt = sniff_format(data, filename or str(source if isinstance(source, (str, PathLike)) else ""))
    if fmt == "csv":
        return _has_rows(read_csv(data, kind, max_rows=max_rows, compact_ids=compact_ids), kind)
    if fmt == "parquet":
        return _has_rows(read_parquet(data, kind, max_rows=max_rows), kind)
    if fmt == "trec" and kind == "item_categories":
        raise DataError("trec_categories", "TREC files hold runs and qrels; item categories need a CSV or Parquet "
                        "file with columns item, category")
    if fmt == "trec":
        reader = read_trec_run if kind == "recommendations" else read_trec_qrels
        return _has_rows(reader(data, max_rows=max_rows), kind)
    raise ValueError(f"format must be one of auto, {', '.join(FORMATS)}, got {fmt!r}")


def _has_rows(frame: pd.DataFrame, kind: str) -> pd.DataFrame:
    """A ground truth with no rows is refused: every mean would be undefined."""
    if kind == "ground_truth" and not len(frame):
        raise DataError("no_truth_rows", "the ground truth file has no data rows (only a header, blank or comment "
                        "lines): there is no user to evaluate")
    return frame
