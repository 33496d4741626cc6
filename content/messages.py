"""The errors the engine and the scenario codec raise, as the reader reads them.

``metrics`` and ``ui.scenario_link`` raise errors with a ``code`` and ``fields`` (their English
``str()`` is for Python users); :func:`scenario_error` and :func:`input_error` give the same
message in the reader's language, from the templates below (one per code, the same placeholders).
"""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

SCENARIO = {}
INPUT = {}


def _localised(value):
    """A field as a message shows it: numbers in the reader's notation, a nested phrase translated."""
    if hasattr(value, "code") and hasattr(value, "fields"):
        return _render(SCENARIO, value)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return numbers.integer(value)
    if isinstance(value, float):
        return numbers.general(value)
    return str(value)


def _render(templates: dict, error) -> str:
    template = templates.get(getattr(error, "code", None))
    if template is None:
        return str(error)
    return _(template).format(**{name: _localised(v) for name, v in error.fields.items()})


def scenario_error(error) -> str:
    """A ``ui.scenario_link.ScenarioError`` (a link or file that cannot be opened) in the reader's language."""
    return _render(SCENARIO, error)


def input_error(error) -> str:
    """A ``metrics`` input error (``metrics._validation.InputError``) in the reader's language."""
    return _render(INPUT, error)
