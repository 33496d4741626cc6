"""Interaction logs the way the field loads them: MovieLens as GroupLens ships it, and the user's own files.

Every loader returns one table, ``user, item, timestamp, rating`` (``rating`` may be absent), one row per
interaction, ``timestamp`` in seconds since 1970 (int64).

The MovieLens licence forbids redistribution, so nothing here ships the data:

- :func:`load` reads a MovieLens folder or zip the user has (``u.data`` of ML-100K, ``ratings.dat`` of ML-1M,
  ``ratings.csv`` of the ml-latest family and ML-20M/25M);
- :func:`download` fetches a zip from GroupLens into a cache folder and checks it against the published MD5
  before anything reads it;
- :func:`installed_ml100k` reads the copy of ML-100K inside an installed ``recbole`` wheel (the tests' copy:
  ``pip install --no-deps recbole==1.2.1``), found without importing recbole (its dependencies include torch).
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import os
import zipfile
from pathlib import Path

import pandas as pd

from metrics.errors import DataError

GROUPLENS = "https://files.grouplens.org/datasets/movielens/"
CHECKSUMS = {
    "ml-100k": "0e33842e24a9c977be4e0107933c0723",
    "ml-1m": "c4d9eecfca2ab87c1945afe126590906",
    "ml-10m": "ce571fd55effeba0271552578f2648bd",
    "ml-20m": "cd245b17a1ae2cc31bb14903e1204af3",
    "ml-25m": "6b51fb2759a8657d3bfcbfc42b592ada",
}
"""The MD5 of each zip as GroupLens publishes it (``<name>.zip.md5`` beside each download)."""

CACHE = Path(os.environ.get("RECEVAL_DATA_CACHE", Path.home() / ".cache" / "receval"))
COLUMNS = ["user", "item", "rating", "timestamp"]

# Each MovieLens release names its ratings file differently and writes it in its own dialect.
_LAYOUTS = {
    "u.data": dict(sep="\t", header=None, names=COLUMNS),
    "ratings.dat": dict(sep="::", header=None, names=COLUMNS, engine="python"),
    "ratings.csv": dict(sep=",", header=0, names=COLUMNS),
}


class DataUnavailable(DataError):
    """The data asked for is not on this machine and cannot be fetched (offline, or a failed check)."""


def _typed(frame: pd.DataFrame, where: str) -> pd.DataFrame:
    if frame.empty:
        raise DataError("no_interactions", f"{where} has no interactions", where=where)
    for column in ("user", "item", "timestamp"):
        if frame[column].isna().any():
            line = int(frame.index[frame[column].isna()][0]) + 1
            raise DataError("missing_value", f"{where}: row {line} has no {column}", where=where, line=line,
                            column=column)
    frame = frame.astype({"timestamp": "int64"})
    return frame[COLUMNS].reset_index(drop=True)


def _ratings_member(names: list[str]) -> str | None:
    for wanted in _LAYOUTS:
        for name in names:
            if Path(name).name == wanted:
                return name
    return None


def load(path: str | os.PathLike) -> pd.DataFrame:
    """A MovieLens release the user has: its folder, its zip, or the ratings file itself.

    Raises :class:`metrics.errors.DataError` saying what is wrong: no ratings file, a broken zip, a row
    without a user, an item or a time.
    """
    path = Path(path)
    if not path.exists():
        raise DataError("not_found", f"{path} does not exist", path=str(path))
    if path.is_dir():
        member = _ratings_member([str(p.relative_to(path)) for p in path.rglob("*") if p.is_file()])
        if member is None:
            raise DataError("no_ratings_file", f"{path} has no MovieLens ratings file (u.data, ratings.dat or "
                            "ratings.csv)", path=str(path))
        return _read(path / member, Path(member).name, str(path / member))
    if zipfile.is_zipfile(path):
        return _load_zip(path)
    if path.suffix == ".zip":
        raise DataError("bad_zip", f"{path} is not a readable zip file (truncated or damaged?)", path=str(path))
    if path.name not in _LAYOUTS:
        raise DataError("not_movielens", f"{path.name} is not a MovieLens ratings file (u.data, ratings.dat or "
                        "ratings.csv)", path=str(path))
    return _read(path, path.name, str(path))


def _load_zip(path: Path) -> pd.DataFrame:
    try:
        with zipfile.ZipFile(path) as archive:
            member = _ratings_member(archive.namelist())
            if member is None:
                raise DataError("no_ratings_file", f"{path} has no MovieLens ratings file (u.data, ratings.dat "
                                "or ratings.csv)", path=str(path))
            data = archive.read(member)
    except (zipfile.BadZipFile, EOFError, OSError) as error:
        raise DataError("bad_zip", f"{path} is not a readable zip file (truncated or damaged?): {error}",
                        path=str(path)) from None
    return _read(io.BytesIO(data), Path(member).name, f"{path}:{member}")


def _read(source, layout: str, where: str) -> pd.DataFrame:
    try:
        frame = pd.read_csv(source, encoding="latin-1", **_LAYOUTS[layout])
    except (ValueError, pd.errors.ParserError) as error:
        raise DataError("unreadable", f"{where} could not be read as MovieLens ratings: {error}", where=where) from None
    return _typed(frame, where)


def installed_ml100k_path() -> Path:
    """Where the installed ``recbole`` wheel keeps ML-100K (``recbole/dataset_example/ml-100k/ml-100k.inter``)."""
    spec = importlib.util.find_spec("recbole")  # a top-level package: found, not imported
    if spec is None or not spec.submodule_search_locations:
        raise DataUnavailable("not_installed", "ML-100K is not installed: `pip install --no-deps recbole==1.2.1` "
                              "ships a copy")
    inter = Path(list(spec.submodule_search_locations)[0]) / "dataset_example" / "ml-100k" / "ml-100k.inter"
    if not inter.is_file():
        raise DataUnavailable("not_installed", f"the installed recbole has no {inter.name}")
    return inter


def installed_ml100k() -> pd.DataFrame:
    """ML-100K from an installed ``recbole`` wheel (:func:`installed_ml100k_path`)."""
    inter = installed_ml100k_path()
    frame = pd.read_csv(inter, sep="\t", header=0, names=["user", "item", "rating", "timestamp"])
    return _typed(frame, str(inter))


def md5(path: Path) -> str:
    digest = hashlib.md5(usedforsecurity=False)
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def download(name: str = "ml-100k", cache: Path | None = None, *, opener=None, timeout: float = 30) -> Path:
    """The release's zip in the cache folder, fetched from GroupLens once and checked against its MD5.

    A zip already in the cache is checked again before it is used. Offline, or when the checksum does not
    match (the damaged file is removed), raises :class:`DataUnavailable` in words a user can act on.
    ``opener`` is ``urllib.request.urlopen`` unless given, imported only here: the command line builds
    this module's parser at every start, and urllib's HTTP and e-mail modules took 15 ms of it.
    """
    import urllib.error
    import urllib.request

    if name not in CHECKSUMS:
        raise DataError("unknown_release", f"unknown MovieLens release {name!r}; known: {', '.join(CHECKSUMS)}",
                        name=name)
    cache = Path(cache or CACHE)
    target = cache / f"{name}.zip"
    if not target.exists():
        cache.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        try:
            with (opener or urllib.request.urlopen)(GROUPLENS + f"{name}.zip", timeout=timeout) as response, open(partial, "wb") as out:
                for block in iter(lambda: response.read(1 << 20), b""):
                    out.write(block)
        except (urllib.error.URLError, OSError, TimeoutError) as error:
            partial.unlink(missing_ok=True)
            raise DataUnavailable(
                "offline", f"{name} could not be downloaded from GroupLens ({error}). This machine seems to be offline: "
                f"download {name}.zip yourself and give its path instead", name=name) from None
        partial.replace(target)
    if md5(target) != CHECKSUMS[name]:
        target.unlink()
        raise DataUnavailable("checksum", f"{target.name} does not match GroupLens' published checksum and was removed; "
                              "try again, or give the path of a copy you trust", name=name)
    return target


def resolve(source: str | os.PathLike) -> pd.DataFrame:
    """What the command line and the lab accept: a path, or the name of a MovieLens release.

    ``ml-100k`` is read from the installed recbole copy when there is one, else from the cache, else downloaded.
    """
    text = str(source)
    if text in CHECKSUMS:
        if text == "ml-100k":
            try:
                return installed_ml100k()
            except DataUnavailable:
                pass
        return load(download(text))
    return load(Path(text))


def read_interactions(source, *, filename: str = "", max_rows: int | None = None) -> pd.DataFrame:
    """A user's own interactions file (CSV or Parquet with ``user, item, timestamp[, rating]``), read by the
    app's readers (so every awkward file gets their messages); ``timestamp`` may be seconds since 1970 or
    ISO 8601 dates and times (``2024-01-31``, ``2024-01-31T12:00:00Z``; read as UTC when they name no zone).
    Other date notations are refused rather than guessed: is 03/04 the 3rd of April or the 4th of March?"""
    from whole_logs import readers

    frame = readers.read_table(source, "ground_truth", filename=filename, max_rows=max_rows)
    if "timestamp" not in frame.columns:
        found = ", ".join(repr(str(c)) for c in frame.columns)
        raise DataError("missing_column", f"the interactions file is missing column 'timestamp' (found columns: "
                        f"{found}); every protocol but the random split needs the time of each interaction",
                        kind="interactions", missing=[["timestamp"]], found=[str(c) for c in frame.columns],
                        case_sensitive=False, hint="")
    stamps = frame["timestamp"]
    if not pd.api.types.is_numeric_dtype(stamps):
        parsed = pd.to_datetime(stamps, errors="coerce", utc=True, format="ISO8601")
        bad = parsed.isna() & stamps.notna()
        if bad.any():
            line = frame.index[bad][0]
            raise DataError("bad_timestamp", f"line {line}: the timestamp {stamps[bad].iloc[0]!r} is neither a number "
                            "(seconds since 1970) nor an ISO 8601 date such as 2024-01-31",
                            line=str(line), value=str(stamps[bad].iloc[0]))
        # pandas 3 may keep micro- rather than nanoseconds: divide by a second, not by 10**9
        seconds = (parsed - pd.Timestamp(0, tz="UTC")) // pd.Timedelta(seconds=1)
        frame = frame.assign(timestamp=seconds.astype("int64"))
    if "rating" not in frame.columns:
        frame = frame.assign(rating=1)
    return _typed(frame.reset_index(drop=True), filename or "the interactions file")
