"""The batch engine in bounded memory: a log larger than memory, one partition of users at a time.

:func:`evaluate_files` streams both files in record batches, hash-partitions their rows by user
into Parquet spill files (every row of a user, recommended or judged, in the same partition),
then runs :func:`whole_logs.batch.evaluate`, the same kernel as in memory, on each partition and
joins the results with :func:`whole_logs.batch.combine`. Peak memory is about one record batch per
open partition writer plus one partition's tables, whatever the size of the files.

Rows keep their order within a partition, so every tie rule gives what it gives in memory. Error
messages name the row by its number in the file (``row 12``: the 12th data row, header not
counted), since a streamed CSV reader cannot count lines.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd

from whole_logs import batch, readers

PARTITION_ROWS = 5_000_000
"""Recommendation rows per partition by default (about 0.6 GiB in the engine)."""

BYTES_PER_ROW = {"csv": 130, "parquet": 100, "trec": 160}
"""Peak memory of the in-memory path per recommendation row, measured on 10M-row logs (peak
resident memory / rows, with the ground truth), used to warn before a file is read whole."""

ROW = "__row"
MAX_WORKERS = 2
"""Processes evaluating partitions at once (each holds one partition, about 0.6 GiB by default)."""


def _warm(_):
    """Nothing: a worker that has run it has imported this module, pandas and pyarrow."""


def _batches(path: Path, fmt: str, kind: str):
    """Record batches of the columns the engine needs, ids as text or integers, numbers as numbers."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    if fmt == "parquet":
        source = pq.ParquetFile(path)
        readers._named_once(source.schema_arrow.names)
        problem = readers._arrow_type_problem(source.schema_arrow, [*readers.TEXT_COLUMNS, *readers.NUMBER_COLUMNS])
        if problem:
            raise ValueError(problem)
        names = [n for n in source.schema_arrow.names if n in ("user", "item", "rank", "score", "relevance")]
        readers._check_columns(pd.DataFrame(columns=names), kind)
        yield from source.iter_batches(batch_size=1 << 20, columns=names)
        return
    if fmt != "csv":
        raise ValueError("streaming reads CSV and Parquet files; convert a TREC file to either first")
    with open(path, "rb") as handle:
        head = handle.read(readers.SNIFF_BYTES)
    readers.check_head(head)
    if head.startswith((readers.GZIP_MAGIC, *readers.UTF16_BOMS)):
        raise ValueError("streaming reads plain UTF-8 CSV: decompress or re-encode the file first")
    header = readers.LINE_BREAK.split(readers._text_head(head), 1)[0]
    delimiter = max(readers.DELIMITERS, key=header.count)
    names = readers._named_once(readers._header_names(header, delimiter))
    readers._check_columns(pd.DataFrame(columns=names), kind)
    types = {n: pa.string() for n in names if n in readers.TEXT_COLUMNS}
    stream = pacsv.open_csv(path, read_options=pacsv.ReadOptions(block_size=1 << 24),
                            parse_options=pacsv.ParseOptions(delimiter=delimiter),
                            convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False,
                                                                 include_columns=[n for n in names if n in
                                                                                  ("user", "item", "rank", "score", "relevance")]))
    for record_batch in stream:
        yield readers._trim_ids(pa.Table.from_batches([record_batch])).to_batches()[0] if record_batch.num_rows else record_batch


def _part_of(users, n_parts: int) -> np.ndarray:
    """Each row's partition, from a hash of the user id's text: a user written 7 in one file and
    "7" (or 7.0) in the other lands in the same partition, as the engine matches them. Only the
    distinct ids of the batch are hashed. Small integers, so a stable argsort is a radix sort."""
    import pyarrow as pa
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(users)
    uniques = encoded.dictionary
    if pa.types.is_floating(uniques.type):
        text = batch.as_id_text(pd.Series(uniques.to_numpy(zero_copy_only=False))).to_numpy(dtype=object)
    else:
        text = np.asarray(pc.cast(uniques, pa.string()).to_pylist(), dtype=object)
    part_type = np.int16 if n_parts <= np.iinfo(np.int16).max else np.int32
    part_of_unique = (pd.util.hash_array(text) % np.uint64(n_parts)).astype(part_type)
    return part_of_unique[encoded.indices.to_numpy(zero_copy_only=False)]


def _spill(path: Path, fmt: str, kind: str, folder: Path, n_parts: int) -> list[Path | None]:
    """Each partition's rows in an Arrow IPC file of its own (uncompressed: written and read back
    at memory speed, where Parquet's encoding took half the time of a 100M-row log)."""
    import pyarrow as pa

    files = [folder / f"{kind}-{i}.arrow" for i in range(n_parts)]
    writers: list = [None] * n_parts
    schema = None  # the first batch's: a later CSV block whose types were inferred otherwise is cast to it
    offset = 0
    try:
        for record_batch in _batches(path, fmt, kind):
            table = pa.Table.from_batches([record_batch])
            table = table.append_column(ROW, pa.array(np.arange(offset + 1, offset + 1 + table.num_rows)))
            offset += table.num_rows
            parts = _part_of(table.column("user").combine_chunks(), n_parts)
            order = np.argsort(parts, kind="stable")
            bounds = np.concatenate([[0], np.cumsum(np.bincount(parts, minlength=n_parts))])
            table = table.take(pa.array(order))
            for i in range(n_parts):
                if bounds[i + 1] > bounds[i]:
                    piece = table.slice(bounds[i], bounds[i + 1] - bounds[i])
                    schema = schema or piece.schema
                    if writers[i] is None:
                        writers[i] = pa.ipc.new_stream(pa.OSFile(str(files[i]), "wb"), schema)
                    writers[i].write_table(piece.cast(schema) if piece.schema != schema else piece)
    finally:
        for writer in writers:
            if writer is not None:
                writer.close()
    return [f if w is not None else None for f, w in zip(files, writers, strict=True)]


def _load(file: Path | None) -> pd.DataFrame | None:
    import pyarrow as pa

    if file is None:
        return None
    with pa.memory_map(str(file)) as source:
        frame = pa.ipc.open_stream(source).read_all().to_pandas()
    return frame.set_index(pd.Index(frame.pop(ROW).to_numpy(), name="row"))


def _evaluate_partition(rec_file: Path | None, truth_file: Path | None, k, settings: dict) -> pd.DataFrame:
    recs, truth = _load(rec_file), _load(truth_file)
    if recs is None:  # users with ground truth only: an empty list of the same kind of ids
        recs = truth[["user", "item"]].iloc[:0].assign(rank=np.zeros(0))
    if truth is None:
        truth = recs[["user", "item"]].iloc[:0]
    return batch.evaluate(recs, truth, k, **settings)


SAMPLES = 32
"""Windows of :data:`whole_logs.readers.SNIFF_BYTES` read across a text file to estimate its rows."""


def _line_breaks(text: bytes) -> int:
    return text.count(b"\n") + text.count(b"\r") - text.count(b"\r\n")


def count_rows(path: Path, fmt: str) -> int:
    """The rows of a Parquet file (from its footer), or an estimate for a text file: its size over
    the mean length of a line in windows spread evenly over the whole file (a log's first lines
    can be shorter than the rest: small ids first, say), or over its decompressed start for gzip."""
    if fmt == "parquet":
        import pyarrow.parquet as pq

        return pq.ParquetFile(path).metadata.num_rows
    size, window = path.stat().st_size, readers.SNIFF_BYTES
    with open(path, "rb") as handle:
        if handle.read(2) == readers.GZIP_MAGIC:
            return _gzip_rows(handle, size)
        if size <= SAMPLES * window:
            handle.seek(0)
            return _line_breaks(handle.read()) + 1
        sampled = lines = 0
        for sample in range(SAMPLES):
            handle.seek(sample * (size - window) // (SAMPLES - 1))
            text = handle.read(window)
            sampled, lines = sampled + len(text), lines + _line_breaks(text)
    return int(size * max(lines, 1) / sampled)


def _gzip_rows(handle, size: int) -> int:
    """The rows of a gzip text file, estimated from its first MiBs: lines per decompressed byte, and
    decompressed bytes per compressed byte."""
    import zlib

    handle.seek(0)
    decompressor, read, text = zlib.decompressobj(wbits=31), 0, b""
    while len(text) < 1 << 22 and not decompressor.eof:
        chunk = handle.read(readers.SNIFF_BYTES)
        if not chunk:
            break
        read += len(chunk)
        text += decompressor.decompress(chunk)
    used = read - len(decompressor.unused_data)
    return int(_line_breaks(text) * size / max(used, 1))


def evaluate_files(recs_path, truth_path, k, *, recs_format: str, truth_format: str,
                   partition_rows: int = PARTITION_ROWS, progress: Callable | None = None,
                   workers: int | None = None, **settings) -> pd.DataFrame:
    """:func:`whole_logs.batch.evaluate` of two files, one hash partition of users at a time.

    ``settings`` are the keyword arguments of :func:`whole_logs.batch.evaluate` (metrics, gain,
    denominator, ties). ``progress(done, total)`` is called after each partition. Partitions are
    evaluated by ``workers`` processes (default: one a core, at most two, as each holds one
    partition), started while the files are split; 1 evaluates them in this process.
    """
    recs_path, truth_path = Path(recs_path), Path(truth_path)
    n_parts = max(1, math.ceil(count_rows(recs_path, recs_format) / max(partition_rows, 1)))
    workers = min(workers or min(os.cpu_count() or 1, MAX_WORKERS), n_parts)
    with tempfile.TemporaryDirectory(prefix="receval-spill-") as tmp, _pool(workers) as pool:
        folder = Path(tmp)
        rec_files = _spill(recs_path, recs_format, "recommendations", folder, n_parts)
        truth_files = _spill(truth_path, truth_format, "ground_truth", folder, n_parts)
        if all(f is None for f in truth_files):
            raise ValueError("the ground truth file has no data rows: there is no user to evaluate")
        pairs = [(r, t) for r, t in zip(rec_files, truth_files, strict=True) if r is not None or t is not None]
        if pool is None:
            results = (_evaluate_partition(r, t, k, settings) for r, t in pairs)
        else:
            futures = [pool.submit(_evaluate_partition, r, t, k, settings) for r, t in pairs]
            results = (future.result() for future in futures)
        parts = []
        for done, part in enumerate(results, start=1):
            parts.append(part)
            if progress:
                progress(done, len(pairs))
    return batch.combine(parts)


@contextmanager
def _pool(workers: int):
    """Worker processes started by spawn (forking a process that runs pyarrow's threads is unsafe),
    or None for one worker."""
    if workers <= 1:
        yield None
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for _ in range(workers):  # start the workers now: their imports overlap the split
            pool.submit(_warm, None)
        yield pool
