"""The whole scenario as a lesson link (URL query parameters) or a JSON file, and back. No Streamlit.

A scenario is the dict of everything a teacher sets up: every table of ``ui.state``, K, the gain,
the AP denominator, the loaded example, the page and the practice settings. Links and files carry
:data:`VERSION`; a version-1 link leaves out what equals the version-1 defaults (frozen in
``scenario_v1_defaults.json``, so later changes of the app's defaults do not change old links).
Anything that does not validate raises :class:`ScenarioError` with a message naming the problem;
nothing is half-applied, because decoding builds a new scenario and never touches the old one.
"""

from __future__ import annotations

import base64
import copy
import functools
import json
import math
import zlib
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

import numpy as np
import pandas as pd

from content import messages
from content.messages import Phrase
from metrics.ndcg import GAINS
from teaching.challenges import CHALLENGES
from metrics.ranked_metrics import AP_DENOMINATORS
from metrics.seed_examples import BY_KEY as EXAMPLES
from ui.navigation import PAGES

VERSION = 1
MAX_ROWS = 10_000
MAX_BYTES = 1_000_000
MAX_QUERY = 7_900  # characters of query string; with the address, under the ~8,000 browsers and proxies accept
MAX_TEXT = 10_000  # characters in one cell
MAX_K = 10_000
MAX_INTEGER = 2**63  # what a 64-bit integer column holds

TABLES = ("recommended", "ground_truth", "users", "ratings", "labels", "scores", "probabilities", "ndcg_scores")
SCALARS = ("page", "k", "gain", "ap_denominator", "loaded_example", "rating_demo", "practice")
PRACTICE_DEFAULTS = {"seed": 1, "length": 8, "graded": False, "k": 5, "hide_answers": False,
                     "challenge": None, "challenge_start": None}
DTYPES = ("object", "str", "string", "int64", "Int64", "float64", "Float64", "bool", "boolean")
TOPICS = tuple(p.topic for p in PAGES)

BASELINE_PATH = Path(__file__).with_name("scenario_v1_defaults.json")


class ScenarioError(ValueError):
    """A link or file that cannot be opened; the message says what is wrong and where.

    ``code`` and ``fields`` name the problem (``content.messages.SCENARIO`` holds one template per
    code); ``str()`` is the English message, and ``content.messages.scenario_error`` the reader's.
    """

    def __init__(self, code: str, **fields):
        self.code, self.fields = code, fields
        super().__init__(messages.english(messages.SCENARIO, code, fields))


# --- tables ---------------------------------------------------------------------------------------

def _cell(value, dtype: str):
    if value is None or value is pd.NA or (isinstance(value, float | np.floating) and math.isnan(value)):
        return None
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        value = float(value)
        if math.isinf(value) and dtype in ("float64", "Float64"):
            return "inf" if value > 0 else "-inf"
        return value
    return str(value)


def table_to_json(table: pd.DataFrame) -> dict:
    dtypes = [str(t) if str(t) in DTYPES else "object" for t in table.dtypes]
    columns = [str(c) for c in table.columns]
    rows = [[_cell(v, d) for v, d in zip(row, dtypes, strict=True)] for row in table.itertuples(index=False, name=None)]
    return {"columns": columns, "dtypes": dtypes, "rows": rows}


def _where(name: str, row: int, column: str) -> Phrase:
    return Phrase("cell", table=repr(name), row=row + 1, column=repr(column))


def _check_cell(value, dtype: str, where: str):
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise ScenarioError("cell_too_long", where=where, length=len(value), limit=MAX_TEXT)
        if dtype in ("float64", "Float64") and value in ("inf", "-inf"):
            return float(value)
        if dtype in ("object", "str", "string"):
            return value
    elif value is None:
        return value
    elif isinstance(value, bool):
        if dtype in ("bool", "boolean", "object"):
            return value
    elif isinstance(value, int | float):
        if isinstance(value, int) and abs(value) >= MAX_INTEGER:
            raise ScenarioError("cell_too_many_digits", where=where, digits=len(str(abs(value))))
        if isinstance(value, float) and not math.isfinite(value):  # json reads 1e999 as infinity
            raise ScenarioError("cell_too_large", where=where)
        if dtype == "object" or dtype in ("float64", "Float64") or (isinstance(value, int) and dtype in ("int64", "Int64")):
            return value
    shown = repr(value)[:40]
    raise ScenarioError("cell_wrong_type", where=where, value=shown, dtype=dtype)


def _current_columns() -> dict[str, list[str]]:
    """The columns the app's editors have today (a later version may add one; old links keep theirs)."""
    from ui.state import _defaults  # noqa: PLC0415  (ui.state imports Streamlit; only its data is used)

    return {name: [str(c) for c in table.columns] for name, table in _defaults().items() if name in TABLES}


def table_from_json(name: str, value, columns: list[str], current: list[str] | None = None) -> pd.DataFrame:
    if not isinstance(value, Mapping) or set(value) != {"columns", "dtypes", "rows"}:
        raise ScenarioError("table_shape", table=repr(name))
    if value["columns"] not in (columns, current or columns):
        raise ScenarioError("table_columns", table=repr(name), columns=str(columns), got=str(value["columns"])[:80])
    dtypes, rows = value["dtypes"], value["rows"]
    if not isinstance(dtypes, list) or len(dtypes) != len(columns) or any(d not in DTYPES for d in dtypes):
        raise ScenarioError("table_dtypes", table=repr(name), got=str(dtypes)[:80], known=", ".join(DTYPES))
    if not isinstance(rows, list):
        raise ScenarioError("table_rows_list", table=repr(name))
    if len(rows) > MAX_ROWS:
        raise ScenarioError("table_too_many_rows", table=repr(name), rows=len(rows), limit=MAX_ROWS)
    checked = []
    for index, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != len(columns):
            raise ScenarioError("table_row_shape", table=repr(name), row=index + 1, count=len(columns))
        checked.append([_check_cell(v, d, _where(name, index, c)) for v, d, c in zip(row, dtypes, columns, strict=True)])
    table = pd.DataFrame(checked, columns=columns, dtype=object)
    for column, dtype in zip(columns, dtypes, strict=True):
        if dtype == "int64" and table[column].isna().any():
            raise ScenarioError("table_int_empty", table=repr(name), column=repr(column))
        if dtype != "object":
            table[column] = table[column].astype(dtype)
    return table


# --- the document: what a JSON file holds, and what a link encodes ---------------------------------

def to_document(scenario: Mapping) -> dict:
    document = {"app": "RecEval Lab", "version": VERSION}
    for key in SCALARS:
        document[key] = scenario[key]
    document["rating_demo"] = {k: _cell(v, "object") for k, v in scenario["rating_demo"].items()}
    document["practice"] = {**PRACTICE_DEFAULTS, **scenario["practice"]}
    document["tables"] = {name: table_to_json(scenario[name]) for name in TABLES}
    return document


@functools.cache
def _baseline() -> dict:
    """The version-1 defaults (read once; callers never change it)."""
    return json.loads(BASELINE_PATH.read_text())


def _whole_number(value, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ScenarioError("whole_number", name=name, low=low, high=high, value=repr(value)[:40])
    return value


def _number(value, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ScenarioError("number", name=name, low=float(low), high=float(high), value=repr(value)[:40])
    return value


def _choice(value, name: str, choices) -> str:
    if value not in choices:
        raise ScenarioError("choice", name=name, choices=", ".join(map(str, choices)), value=repr(value)[:40])
    return value


def _rating_demo(value) -> dict:
    if not isinstance(value, Mapping) or set(value) != {"noise", "outlier_share", "seed"}:
        raise ScenarioError("rating_demo")
    return {"noise": _number(value["noise"], "rating_demo.noise", 0, 2),
            "outlier_share": _number(value["outlier_share"], "rating_demo.outlier_share", 0, 0.3),
            "seed": _whole_number(value["seed"], "rating_demo.seed", 0, 2**63 - 1)}


def _practice(value) -> dict:
    if not isinstance(value, Mapping) or not set(value) <= set(PRACTICE_DEFAULTS):
        unknown = sorted(set(value) - set(PRACTICE_DEFAULTS)) if isinstance(value, Mapping) else value
        raise ScenarioError("practice_keys", keys=", ".join(PRACTICE_DEFAULTS), unknown=str(unknown)[:80])
    value = {**PRACTICE_DEFAULTS, **value}
    for flag in ("graded", "hide_answers"):
        if not isinstance(value[flag], bool):
            raise ScenarioError("practice_flag", flag=flag, value=repr(value[flag])[:40])
    start = value["challenge_start"]
    if start is not None and (not isinstance(start, list) or len(start) > MAX_ROWS
                              or not all(isinstance(i, str) and len(i) <= MAX_TEXT for i in start)):
        raise ScenarioError("practice_start", limit=MAX_ROWS)
    return {
        "seed": _whole_number(value["seed"], "practice.seed", 0, 2**32 - 1),
        "length": _whole_number(value["length"], "practice.length", 3, 15),
        "graded": value["graded"],
        "k": _whole_number(value["k"], "practice.k", 1, 15),
        "hide_answers": value["hide_answers"],
        "challenge": _choice(value["challenge"], "practice.challenge", (None, *CHALLENGES)),
        "challenge_start": start,
    }


def from_document(document) -> dict:
    """The scenario a document describes; what it leaves out comes from the version-1 defaults."""
    if not isinstance(document, Mapping):
        raise ScenarioError("not_an_object")
    if "version" not in document:
        raise ScenarioError("no_version")
    if document["version"] != VERSION:
        raise ScenarioError("unknown_version", version=repr(document["version"])[:20], current=VERSION)
    unknown = sorted(set(document) - {"app", "version", "tables", *SCALARS})
    if unknown:
        raise ScenarioError("unknown_keys", keys=", ".join(repr(u)[:40] for u in unknown[:5]))
    baseline = _baseline()
    merged = {**baseline, **document}
    tables = document.get("tables", {})
    if not isinstance(tables, Mapping) or not set(tables) <= set(TABLES):
        raise ScenarioError("tables_keys", tables=", ".join(TABLES))
    scenario = {
        "page": _choice(merged["page"], "page", TOPICS),
        "k": _whole_number(merged["k"], "k", 1, MAX_K),
        "gain": _choice(merged["gain"], "gain", GAINS),
        "ap_denominator": _choice(merged["ap_denominator"], "ap_denominator", AP_DENOMINATORS),
        "loaded_example": _choice(merged["loaded_example"], "loaded_example", (None, *EXAMPLES)),
        "rating_demo": _rating_demo(merged["rating_demo"]),
        "practice": _practice(merged["practice"]),
    }
    current = _current_columns()
    for name in TABLES:
        columns = baseline["tables"][name]["columns"]
        scenario[name] = table_from_json(name, tables.get(name, baseline["tables"][name]), columns, current.get(name))
    return scenario


def baseline_table(name: str) -> pd.DataFrame:
    """A fresh copy of a table as the version-1 defaults hold it."""
    table = _baseline()["tables"][name]
    return table_from_json(name, table, table["columns"])


def baseline_setting(key: str):
    """A fresh copy of a setting (K, gain, ...) as the version-1 defaults hold it."""
    return copy.deepcopy(_baseline()[key])


def to_json_bytes(scenario: Mapping) -> bytes:
    return json.dumps(to_document(scenario), ensure_ascii=False, indent=1).encode()


def from_json_bytes(data: bytes) -> dict:
    """The scenario of an uploaded file, or :class:`ScenarioError` naming what is wrong with it."""
    if len(data) > MAX_BYTES:
        raise ScenarioError("file_too_big", size=round(len(data) / 1e6, 1), limit=MAX_BYTES / 1e6)
    try:
        document = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise ScenarioError("file_not_text") from None
    except json.JSONDecodeError as problem:
        raise ScenarioError("file_not_json", problem=problem.msg, line=problem.lineno, column=problem.colno) from None
    return from_document(document)


def _no_constant(name: str):
    raise ScenarioError("json_constant", name=name)


# --- the link -------------------------------------------------------------------------------------

_SHORT = {"k": "k", "gain": "gain", "ap_denominator": "ap", "loaded_example": "example",
          "rating_demo": "demo", "practice": "practice"}
_UNSAFE_IN_LIST = set(",:{}[]")


def _readable_recommended(table: dict) -> str | None:
    """``101,102,103`` when the ranks are the text 1..n (as the app keeps them) and the items are plain ids."""
    ranks = [row[0] for row in table["rows"]]
    items = [row[1] for row in table["rows"]]
    if table["dtypes"] != ["object", "object"] or ranks != _text_ranks(len(ranks)) or not _plain(items):
        return None
    return ",".join(items)


def _text_ranks(n: int) -> list[str]:
    """Ranks 1..n as text, the form of ``ui.state.recommended_table`` (the Rank column is a text column)."""
    return [str(rank) for rank in range(1, n + 1)]


def _readable_grades(table: dict) -> str | None:
    """``101:5,104:4`` when items and grades are plain text."""
    items = [row[0] for row in table["rows"]]
    grades = [row[1] for row in table["rows"]]
    if table["dtypes"] != ["object", "object"] or not _plain(items) or not _plain(grades):
        return None
    return ",".join(f"{i}:{g}" for i, g in zip(items, grades, strict=True))


def _plain(values) -> bool:
    return all(isinstance(v, str) and v and v == v.strip() and not set(v) & _UNSAFE_IN_LIST for v in values)


def _compact(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def to_query(scenario: Mapping) -> dict[str, str]:
    """The query parameters of the lesson link: readable where possible, else one compressed value.

    Returns ``{}`` when even the compressed form is longer than :data:`MAX_QUERY` (use the file).
    """
    document, baseline = to_document(scenario), _baseline()
    params = {"v": str(VERSION), "page": document["page"], "k": str(document["k"]), "gain": document["gain"],
              "ap": document["ap_denominator"]}
    if document["loaded_example"] is not None:
        params["example"] = document["loaded_example"]
    for key in ("rating_demo", "practice"):
        if document[key] != baseline[key]:
            params[_SHORT[key]] = _compact(document[key])
    for name, table in document["tables"].items():
        if table == baseline["tables"][name]:
            continue
        readable = {"recommended": _readable_recommended, "ground_truth": _readable_grades}.get(name, lambda t: None)(table)
        params[name] = readable if readable is not None else _compact(table)
    if len(urlencode(params)) <= MAX_QUERY:
        return params
    # The compressed form packs the same parameters, so it is as short as the readable form allows.
    packed = base64.urlsafe_b64encode(zlib.compress(urlencode(params).encode(), 9)).decode()
    compressed = {"v": str(VERSION), "page": document["page"], "z": packed}
    return compressed if len(urlencode(compressed)) <= MAX_QUERY else {}


def _parse_recommended(text: str) -> dict:
    items = text.split(",") if text else []
    return {"columns": ["rank", "item"], "dtypes": ["object", "object"],
            "rows": [list(row) for row in zip(_text_ranks(len(items)), items, strict=True)]}


def _parse_grades(text: str) -> dict:
    rows = []
    for pair in text.split(",") if text else []:
        item, sep, grade = pair.partition(":")
        if not sep:
            raise ScenarioError("grade_pair", pair=repr(pair[:40]))
        rows.append([item, grade])
    return {"columns": ["item", "grade"], "dtypes": ["object", "object"], "rows": rows}


def _json_param(name: str, text: str):
    if len(text) > MAX_BYTES:
        raise ScenarioError("param_too_long", name=name, limit=MAX_BYTES)
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as problem:
        raise ScenarioError("param_not_json", name=name, problem=problem.msg, position=problem.pos + 1) from None


def from_query(params: Mapping[str, str]) -> dict:
    """The scenario of a lesson link's query parameters, or :class:`ScenarioError`."""
    unknown = sorted(set(params) - {"v", "page", "z", *_SHORT.values(), *TABLES})
    if unknown:
        raise ScenarioError("link_unknown_params", names=", ".join(repr(u)[:40] for u in unknown[:5]))
    if "v" not in params:
        raise ScenarioError("link_no_version")
    if params["v"] != str(VERSION):
        raise ScenarioError("link_unknown_version", version=repr(params["v"][:20]), current=VERSION)
    if "z" in params:
        if set(params) - {"v", "page", "z"}:
            raise ScenarioError("link_compressed_only")
        return _from_compressed(params["z"])
    document: dict = {"version": VERSION, "tables": {}}
    if "page" in params:
        document["page"] = params["page"]
    if "k" in params:
        if not params["k"].isdigit() or len(params["k"]) > 6:
            raise ScenarioError("link_k", limit=MAX_K, value=repr(params["k"][:40]))
        document["k"] = int(params["k"])
    for key in ("gain", "ap_denominator", "loaded_example"):
        if _SHORT[key] in params:
            document[key] = params[_SHORT[key]]
    for key in ("rating_demo", "practice"):
        if _SHORT[key] in params:
            document[key] = _json_param(_SHORT[key], params[_SHORT[key]])
    for name in TABLES:
        if name not in params:
            continue
        text = params[name]
        if text.startswith("{"):
            document["tables"][name] = _json_param(name, text)
        elif name == "recommended":
            document["tables"][name] = _parse_recommended(text)
        elif name == "ground_truth":
            document["tables"][name] = _parse_grades(text)
        else:
            raise ScenarioError("link_table_json", name=name, value=repr(text[:40]))
    return from_document(document)


def _from_compressed(packed: str) -> dict:
    try:
        raw = base64.urlsafe_b64decode(packed.encode("ascii"))
        inflater = zlib.decompressobj()
        data = inflater.decompress(raw, MAX_BYTES + 1)
    except (ValueError, zlib.error, UnicodeEncodeError):
        raise ScenarioError("link_damaged") from None
    if len(data) > MAX_BYTES or inflater.unconsumed_tail:
        raise ScenarioError("link_too_big", limit=MAX_BYTES / 1e6)
    try:
        params = dict(parse_qsl(data.decode("utf-8"), keep_blank_values=True, strict_parsing=True))
    except (UnicodeDecodeError, ValueError):
        raise ScenarioError("link_no_params") from None
    if "z" in params:
        raise ScenarioError("link_nested")
    return from_query(params)


def same(a: Mapping, b: Mapping) -> bool:
    """Whether two scenarios are identical: every table cell by cell with its types, every setting."""
    for key in SCALARS:
        if key == "practice":
            if {**PRACTICE_DEFAULTS, **a[key]} != {**PRACTICE_DEFAULTS, **b[key]}:
                return False
        elif a[key] != b[key]:
            return False
    return all(table_to_json(a[name]) == table_to_json(b[name]) and a[name].equals(b[name]) for name in TABLES)
