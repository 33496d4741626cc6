"""Lesson links and scenario files: exact round trips, and every bad input named and rejected."""

import copy
import json
from urllib.parse import parse_qsl, urlencode

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ui.input import scenario_link as link
from ui.input.scenario_link import ScenarioError, from_json_bytes, from_query, same, to_json_bytes, to_query
from ui.state import _defaults, ground_truth_table, recommended_table

BASELINE = json.loads(link.BASELINE_PATH.read_text())


def default_scenario() -> dict:
    return {**_defaults(), "page": "home", "practice": dict(link.PRACTICE_DEFAULTS)}


def graded_seed() -> dict:
    return {**default_scenario(), "ground_truth": ground_truth_table({101: 5, 104: 4, 107: 3, 999: 5})}


def through_the_address_bar(params: dict) -> dict:
    """What a browser hands back: the query string encoded and parsed again."""
    return dict(parse_qsl(urlencode(params), keep_blank_values=True))


def test_the_default_scenario_is_a_short_link():
    assert to_query(default_scenario()) == {"v": "1", "page": "home", "k": "10", "gain": "linear", "ap": "min"}


def test_the_graded_seed_example_is_a_readable_link():
    params = to_query(graded_seed())
    assert params["ground_truth"] == "101:5,104:4,107:3,999:5"
    assert same(from_query(through_the_address_bar(params)), graded_seed())


def test_a_bare_version_1_link_opens_the_frozen_version_1_defaults():
    # If ui.state's defaults change later, a link made today still opens what it meant.
    assert link.to_document(from_query({"v": "1"})) == {**BASELINE}


def test_baseline_tables_and_settings_are_fresh_copies_of_the_frozen_defaults():
    table = link.baseline_table("recommended")
    assert link.table_to_json(table) == BASELINE["tables"]["recommended"]
    table.loc[0, "item"] = "changed"
    assert link.baseline_table("recommended").loc[0, "item"] == "101"
    setting = link.baseline_setting("practice")
    setting["seed"] = 99
    assert link.baseline_setting("practice") == link.PRACTICE_DEFAULTS


def test_the_apps_current_defaults_make_a_round_trip():
    assert same(from_query(through_the_address_bar(to_query(default_scenario()))), default_scenario())
    assert same(from_json_bytes(to_json_bytes(default_scenario())), default_scenario())


_text = st.text(max_size=12)
_CELLS = {
    "object": st.one_of(st.none(), _text, st.integers(-10**9, 10**9), st.booleans(),
                        st.floats(allow_nan=False, allow_infinity=False)),
    "str": st.one_of(st.none(), _text),
    "int64": st.integers(-2**63 + 1, 2**63 - 1),
    "float64": st.floats(),  # any float64, NaN and infinities included
    "bool": st.booleans(),
}
_ITEM = st.text(alphabet="0123456789abc", min_size=1, max_size=5)


@st.composite
def tables(draw, name: str) -> pd.DataFrame:
    columns = BASELINE["tables"][name]["columns"]
    if name == "recommended" and draw(st.booleans()):  # the common, readable shape: ranks 1..n
        items = draw(st.lists(_ITEM, max_size=12, unique=True))
        return recommended_table(items).assign(item=lambda t: t["item"].astype(object))
    dtypes = [draw(st.sampled_from([d, "object"])) for d in BASELINE["tables"][name]["dtypes"]]
    n = draw(st.integers(0, 8))
    data = {c: [draw(_CELLS[d]) for _ in range(n)] for c, d in zip(columns, dtypes, strict=True)}
    return pd.DataFrame({c: pd.Series(data[c], dtype=d) for c, d in zip(columns, dtypes, strict=True)})


@st.composite
def scenarios(draw) -> dict:
    scenario = {name: draw(tables(name)) for name in link.TABLES}
    scenario.update({
        "page": draw(st.sampled_from(link.TOPICS)),
        "k": draw(st.integers(1, link.MAX_K)),
        "gain": draw(st.sampled_from(["linear", "exponential"])),
        "ap_denominator": draw(st.sampled_from(["min", "relevant", "hits"])),
        "loaded_example": draw(st.sampled_from([None, *link.EXAMPLES])),
        "rating_demo": {"noise": draw(st.floats(0, 2)), "outlier_share": draw(st.floats(0, 0.3)),
                        "seed": draw(st.integers(0, 2**32 - 1))},
        "practice": {"seed": draw(st.integers(0, 2**32 - 1)), "length": draw(st.integers(3, 15)),
                     "graded": draw(st.booleans()), "k": draw(st.integers(1, 15)), "hide_answers": draw(st.booleans()),
                     "challenge": draw(st.sampled_from([None, *link.CHALLENGES])),
                     "challenge_start": draw(st.none() | st.lists(_text, max_size=5))},
    })
    return scenario


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_scenario_to_link_to_scenario_is_identical(scenario):
    params = to_query(scenario)
    assume(params)
    assert same(from_query(through_the_address_bar(params)), scenario)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_scenario_to_json_to_scenario_is_identical(scenario):
    assert same(from_json_bytes(to_json_bytes(scenario)), scenario)


def test_a_long_scenario_falls_back_to_the_compressed_link():
    scenario = default_scenario()
    scenario["recommended"] = recommended_table([f"item-{i:05d}" for i in range(1500)])
    params = to_query(scenario)
    assert set(params) == {"v", "page", "z"} and len(urlencode(params)) <= link.MAX_QUERY
    assert same(from_query(through_the_address_bar(params)), scenario)


def test_a_scenario_too_long_even_compressed_has_no_link_but_a_file():
    rng = np.random.default_rng(0)
    scenario = default_scenario()
    scenario["recommended"] = recommended_table([f"{x:x}" for x in rng.integers(0, 2**62, size=3000)])
    assert to_query(scenario) == {}
    assert same(from_json_bytes(to_json_bytes(scenario)), scenario)


def _document(**changes) -> bytes:
    document = json.loads(to_json_bytes(default_scenario()))
    for path, value in changes.items():
        target = document
        *parents, last = path.split("__")
        for part in parents:
            target = target[part]
        target[last] = value
    return json.dumps(document).encode()


REJECTED_FILES = {
    "malformed": (b'{"version": 1,', "not valid JSON"),
    "not-utf8": (b"\xff\xfe\x00", "not text"),
    "not-an-object": (b"[1, 2]", "must be a JSON object"),
    "no-version": (b"{}", "no version"),
    "unknown-version": (_document(version=99), "version 99 is unknown"),
    "unknown-key": (_document(teacher="x"), "Unknown keys: 'teacher'"),
    "k-text": (_document(k="ten"), "k must be a whole number"),
    "k-huge": (_document(k=10**30), "k must be a whole number"),
    "k-bool": (_document(k=True), "k must be a whole number"),
    "gain": (_document(gain="cubic"), "gain must be one of"),
    "page": (_document(page="../etc/passwd"), "page must be one of"),
    "example": (_document(loaded_example="<script>"), "loaded_example must be one of"),
    "nan-constant": (b'{"version": 1, "k": NaN}', "NaN"),
    "practice-key": (_document(practice__admin=True), "unknown: ['admin']"),
    "practice-length": (_document(practice__length=10**6), "practice.length"),
    "demo-noise": (_document(rating_demo__noise=-1), "rating_demo.noise"),
    "table-columns": (_document(tables__labels={"columns": ["x"], "dtypes": ["object"], "rows": []}), "must have the columns"),
    "table-dtype": (_document(tables__labels__dtypes=["int64", "complex128"]), "unknown column types"),
    "cell-type": (_document(tables__labels__rows=[[1, "yes"]]), "row 1, column 'predicted' holds 'yes'"),
    "cell-huge": (_document(tables__labels__rows=[[10**30, 1]]), "a whole number of 31 digits"),
    "cell-inf": (b'{"version": 1, "tables": {"ratings": {"columns": ["prediction", "actual"], "dtypes": '
                 b'["float64", "float64"], "rows": [[1e999, 1.0]]}}}', "too large for a 64-bit float"),
    "cell-long": (_document(tables__recommended__rows=[[1, "x" * 20_000]]), "20,000 characters"),
    "row-shape": (_document(tables__ratings__rows=[[1.0]]), "row 1 must be a list of 2 values"),
    "too-many-rows": (_document(tables__ratings__rows=[[1.0, 2.0]] * 10_001), "10,001 rows; at most 10,000"),
    "too-big": (b" " * 1_000_001, "at most 1 MB"),
}


@pytest.mark.parametrize(("data", "message"), REJECTED_FILES.values(), ids=REJECTED_FILES.keys())
def test_a_bad_file_is_rejected_with_a_message_naming_the_problem(data, message):
    with pytest.raises(ScenarioError) as raised:
        from_json_bytes(data)
    assert message in str(raised.value)


REJECTED_LINKS = {
    "no-version": ({"k": "3"}, "no format version"),
    "unknown-version": ({"v": "2"}, "version '2' is unknown"),
    "unknown-param": ({"v": "1", "admin": "1"}, "unknown parameters: 'admin'"),
    "k-text": ({"v": "1", "k": "1; DROP TABLE"}, "k must be a whole number"),
    "k-huge": ({"v": "1", "k": "9" * 400}, "k must be a whole number"),
    "k-zero": ({"v": "1", "k": "0"}, "k must be a whole number"),
    "gain": ({"v": "1", "gain": "$\\frac{1}{0}$"}, "gain must be one of"),
    "grades-shape": ({"v": "1", "ground_truth": "101"}, "must be item:grade"),
    "table-json": ({"v": "1", "ratings": "{not json"}, "ratings is not valid JSON"),
    "table-text": ({"v": "1", "ratings": "1,2"}, "ratings must be a table in JSON"),
    "practice": ({"v": "1", "practice": '{"graded": "yes"}'}, "practice.graded must be true or false"),
    "z-damaged": ({"v": "1", "z": "eJzLSM3JyQcABiwCFQ"}, "damaged"),
    "z-bomb": ({"v": "1", "z": link.base64.urlsafe_b64encode(link.zlib.compress(b" " * 3_000_000)).decode()},
               "more than 1 MB"),
    "z-mixed": ({"v": "1", "z": "x", "k": "3"}, "only v, page and z"),
}


@pytest.mark.parametrize(("params", "message"), REJECTED_LINKS.values(), ids=REJECTED_LINKS.keys())
def test_a_bad_or_tampered_link_is_rejected_with_a_message(params, message):
    with pytest.raises(ScenarioError) as raised:
        from_query(params)
    assert message in str(raised.value)


def test_rejecting_never_changes_the_scenario_it_was_given():
    # Decoding builds a new scenario; the caller's stays as it was, even when decoding fails midway.
    scenario = graded_seed()
    before = copy.deepcopy(scenario)
    for data, _ in REJECTED_FILES.values():
        with pytest.raises(ScenarioError):
            from_json_bytes(data)
    for params, _ in REJECTED_LINKS.values():
        with pytest.raises(ScenarioError):
            from_query(params)
    assert same(scenario, before)


def test_typed_text_travels_literally_in_a_link():
    scenario = default_scenario()
    scenario["recommended"] = recommended_table(["<b>x</b>", "$\\frac{1}{0}$", "a,b", "**bold**"])
    params = to_query(scenario)
    assert params["recommended"].startswith("{")  # an item with a comma needs the JSON form
    assert from_query(through_the_address_bar(params))["recommended"]["item"].tolist() == \
        ["<b>x</b>", "$\\frac{1}{0}$", "a,b", "**bold**"]


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                     lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
                     max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(path=st.lists(st.sampled_from(["tables", "recommended", "rows", 0, 1, "practice", "k", "columns", "dtypes",
                                      "rating_demo", "seed", "version", "page"]), min_size=1, max_size=4),
       junk=_json)
def test_any_damage_to_a_file_is_either_valid_or_a_named_problem(path, junk):
    document = json.loads(to_json_bytes(graded_seed()))
    target = document
    for step in path[:-1]:
        try:
            target = target[step]
        except (KeyError, IndexError, TypeError):
            break
    try:
        target[path[-1]] = junk
    except (IndexError, TypeError):
        pass
    try:
        from_json_bytes(json.dumps(document).encode())
    except ScenarioError:
        pass


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["v", "page", "k", "gain", "ap", "example", "demo", "practice", "z",
                                        *link.TABLES]), st.text(max_size=30), max_size=6))
def test_any_query_is_either_a_scenario_or_a_named_problem(params):
    try:
        from_query({"v": "1", **params} if "v" not in params else params)
    except ScenarioError:
        pass
