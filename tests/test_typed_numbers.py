"""Every number a reader types is read as meant or refused with a reason: never silently misread (issue 31)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from content import i18n, numbers

LANGUAGES = ["en", "tr", "zh"]


@given(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(LANGUAGES))
def test_a_cell_written_for_the_editor_reads_back_exactly_in_its_language(value, code):
    assert numbers.parse(numbers.editable(value, language=code), language=code) == value


@given(st.floats(min_value=-1e12, max_value=1e12, allow_nan=False), st.sampled_from(LANGUAGES))
def test_a_number_shown_with_all_its_decimals_reads_back_in_its_language(value, code):
    shown = numbers.number(value, 4, language=code).replace(numbers._symbols(code)[1], "")  # no grouping typed
    assert math.isclose(numbers.parse(shown, language=code), round(value, 4), abs_tol=1e-9)


@pytest.mark.parametrize(("code", "typed", "read"), [
    ("tr", "3,5", 3.5), ("tr", "0,9", 0.9), ("tr", "0,001", 0.001), ("tr", "0.001", 0.001), ("tr", "1,234", 1.234),
    ("tr", "12.5", 12.5), ("tr", "0.123", 0.123), ("en", "1.234", 1.234), ("zh", "０．５", 0.5), ("zh", "1234", 1234),
])
def test_what_a_reader_means_is_read(code, typed, read):
    assert numbers.parse(typed, language=code) == read


@pytest.mark.parametrize(("code", "typed", "why"), [
    ("en", "3,5", "comma_decimal"), ("zh", "0,001", "comma_decimal"), ("en", "1,234", "ambiguous"),
    ("zh", "12,345", "ambiguous"), ("tr", "1.234", "ambiguous"), ("tr", "-12.500", "ambiguous"),
    ("en", "0 5", "not_a_number"), ("tr", "1 000", "not_a_number"),
])
def test_what_cannot_mean_one_number_is_refused(code, typed, why):
    with pytest.raises(numbers.NumberError) as refused:
        numbers.parse(typed, language=code)
    assert refused.value.code == why


@pytest.mark.parametrize(("code", "typed", "readings"), [
    ("en", "1,234", ("1234", "1.234")), ("tr", "1.234", ("1234", "1,234")), ("zh", "1,234", ("1234", "1.234")),
])
def test_an_ambiguous_number_is_refused_with_both_readings(code, typed, readings):
    i18n.use_resolver(lambda: code)
    try:
        with pytest.raises(numbers.NumberError) as refused:
            numbers.parse(typed)
        message = numbers.parse_error_message(refused.value)
    finally:
        from ui import language  # reinstalls the session resolver
        i18n.use_resolver(language._session_language)
    assert typed in message and all(reading in message for reading in readings)


@pytest.mark.parametrize(("code", "value", "shown"), [
    ("tr", 3.5, "3,5"), ("tr", -0.5, "-0,5"), ("tr", 0.22314355, "0,2231"), ("tr", 1153.47454, "1.153,4745"),
    ("en", 1153.47454, "1,153.4745"), ("tr", 3.0, "3"), ("zh", 0.25, "0.25"), ("tr", -0.00001, "0"),
])
def test_a_table_number_is_short_and_in_the_readers_notation(code, value, shown):
    assert numbers.short(value, language=code) == shown
