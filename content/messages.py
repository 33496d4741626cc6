"""The errors the engine and the scenario codec raise, as the reader reads them.

``metrics`` and ``ui.input.scenario_link`` raise errors with a ``code`` and ``fields``; their English
``str()`` is for Python users (and comes from the same templates). :func:`scenario_error` and
:func:`input_error` give the message in the reader's language: one template per code below,
with the same placeholders; numbers among the fields are written in the reader's notation.
"""

from __future__ import annotations

from content import i18n, numbers
from content.i18n import N_

# A link or a scenario file that cannot be opened (ui.input.scenario_link.ScenarioError).
SCENARIO = {
    "cell": N_("table {table}, row {row}, column {column}"),
    "cell_too_long": N_("{where} holds {length} characters; at most {limit}."),
    "cell_too_many_digits": N_("{where} holds a whole number of {digits} digits; at most 18 fit."),
    "cell_too_large": N_("{where} holds a number too large for a 64-bit float."),
    "cell_wrong_type": N_("{where} holds {value}, which does not fit a column of type {dtype}."),
    "table_shape": N_("table {table} must be an object with exactly columns, dtypes and rows."),
    "table_columns": N_("table {table} must have the columns {columns}, got {got}."),
    "table_dtypes": N_("table {table} has unknown column types {got}; known: {known}."),
    "table_rows_list": N_("table {table}: rows must be a list."),
    "table_too_many_rows": N_("table {table} has {rows} rows; at most {limit}."),
    "table_row_shape": N_("table {table}, row {row} must be a list of {count} values."),
    "table_int_empty": N_("table {table}, column {column} of type int64 has an empty cell."),
    "whole_number": N_("{name} must be a whole number from {low} to {high}, got {value}."),
    "number": N_("{name} must be a number from {low} to {high}, got {value}."),
    "choice": N_("{name} must be one of {choices}; got {value}."),
    "rating_demo": N_("rating_demo must be an object with exactly the keys noise, outlier_share and 'seed' "
                      "(its random seed)."),
    "practice_keys": N_("practice must be an object with the keys {keys}; unknown: {unknown}."),
    "practice_flag": N_("practice.{flag} must be true or false, got {value}."),
    "practice_start": N_("practice.challenge_start must be a list of at most {limit} item ids (text)."),
    "not_an_object": N_("The scenario must be a JSON object."),
    "no_version": N_("The scenario has no version: it was not made by RecEval Lab."),
    "unknown_version": N_("Format version {version} is unknown; this app reads version {current}."),
    "unknown_keys": N_("Unknown keys: {keys}."),
    "tables_keys": N_("tables must be an object whose keys are among {tables}."),
    "file_too_big": N_("The file is {size} MB; at most {limit} MB."),
    "file_not_text": N_("The file is not text (UTF-8): choose the .json file the app saved."),
    "file_not_json": N_("The file is not valid JSON: {problem} at line {line}, column {column}."),
    "json_constant": N_("The scenario holds {name}, which is not a number JSON allows."),
    "grade_pair": N_("ground_truth: {pair} must be item:grade."),
    "param_too_long": N_("{name} is longer than {limit} characters."),
    "param_not_json": N_("{name} is not valid JSON: {problem} at character {position}."),
    "link_unknown_params": N_("The link has unknown parameters: {names}."),
    "link_no_version": N_("The link has no format version (v=...): it was not made by RecEval Lab."),
    "link_unknown_version": N_("Link format version {version} is unknown; this app reads version {current}."),
    "link_compressed_only": N_("A compressed link holds only v, page and z."),
    "link_k": N_("k must be a whole number from 1 to {limit}, got {value}."),
    "link_table_json": N_("{name} must be a table in JSON, got {value}."),
    "link_damaged": N_("The compressed part of the link (z=...) is damaged: it may have been cut short."),
    "link_too_big": N_("The compressed scenario unpacks to more than {limit} MB."),
    "link_no_params": N_("The compressed part of the link (z=...) does not hold lesson parameters."),
    "link_nested": N_("The compressed part of the link (z=...) holds another compressed part."),
}

# The metrics' input checks (metrics._validation.InputError).
INPUT = {
    "k": N_("{name} must be a positive integer, got {value}"),
    "choice": N_("{name} must be one of {choices}, got {value}"),
    "duplicate": N_("{name} has duplicate item {item} at ranks {first} and {second}"),
    "grade": N_("{name} grade of item {item} must be a finite number >= 0, got {value}"),
    "not_numbers": N_("{name} must contain numbers only, got {value}"),
    "not_1d": N_("{name} must be one-dimensional, got shape {shape}"),
    "empty": N_("{name} is empty"),
    "not_finite": N_("{name} must be finite, got {value} at position {position}"),
    "lengths": N_("inputs must have the same length: {lengths}"),
    "length_of": N_("{name} has {count}"),
    "and": N_("{first} and {second}"),
    "binary": N_("{name} must contain only 0 and 1, got {value} at position {position}"),
    "probabilities": N_("{name} must be probabilities in [0, 1], got {value} at position {position}"),
}


class Phrase:
    """A part of a message (a place, a list) with its own template: ``code`` and ``fields``."""

    def __init__(self, code: str, **fields):
        self.code, self.fields = code, fields

    def __repr__(self) -> str:
        return f"Phrase({self.code!r}, {self.fields!r})"


def _localised(templates: dict, value, language: str):
    """A field as a message shows it: numbers in the reader's notation, a nested phrase rendered."""
    if isinstance(value, Phrase):
        return render(templates, value.code, value.fields, language)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return numbers.integer(value, language=language)
    if isinstance(value, float):
        return numbers.general(value, language=language)
    return str(value)


def render(templates: dict, code: str, fields: dict, language: str | None = None) -> str:
    """The message of ``code`` with its ``fields``, in ``language`` (the reader's; ``"en"``: the source text)."""
    language = language or i18n.current()
    template = templates[code]
    if language != i18n.SOURCE:
        template = i18n.translation(language).gettext(template)
    return template.format(**{name: _localised(templates, v, language) for name, v in fields.items()})


def english(templates: dict, code: str, fields: dict) -> str:
    """The English message (an exception's ``str()``, for Python users)."""
    return render(templates, code, fields, i18n.SOURCE)


def _translated(templates: dict, error) -> str:
    if getattr(error, "code", None) not in templates or not isinstance(getattr(error, "fields", None), dict):
        return str(error)
    return render(templates, error.code, error.fields)


def scenario_error(error) -> str:
    """A ``ui.input.scenario_link.ScenarioError`` (a link or file that cannot be opened) in the reader's language."""
    return _translated(SCENARIO, error)


def input_error(error) -> str:
    """A ``metrics`` input error (``metrics._validation.InputError``) in the reader's language."""
    if getattr(error, "code", None) == "lengths" and isinstance(error.fields.get("lengths_by_name"), dict):
        parts = [render(INPUT, "length_of", {"name": name, "count": n}) for name, n in error.fields["lengths_by_name"].items()]
        described = parts[0] if parts else ""
        for part in parts[1:]:
            described = render(INPUT, "and", {"first": described, "second": part})
        return render(INPUT, "lengths", {"lengths": described})
    return _translated(INPUT, error)


def upload_limit(megabytes: int, types: list[str] | None) -> str:
    """What an uploader takes, under it (Streamlit's own line, "200MB per file", is English only)."""
    limit = i18n._("Up to {megabytes} MB per file").format(megabytes=numbers.integer(megabytes))
    if not types:
        return limit
    return i18n._("{limit} · {types}").format(limit=limit, types=", ".join(t.upper() for t in types))
