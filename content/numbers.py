"""Numbers as the reader writes them, and numbers the reader types read back exactly.

Turkish writes the decimal comma (0,8290) and the percent sign first (%45); Chinese and English the
point. The symbols come from CLDR through Babel; formatting itself is Python's, so a shown number
is the same digits in every language, only its separators differ.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata

from babel import Locale
from babel.numbers import format_percent, get_decimal_symbol, get_group_symbol

from content import i18n


@functools.cache
def _symbols(code: str) -> tuple[str, str]:
    locale = i18n.babel_locale(code)
    return get_decimal_symbol(locale), get_group_symbol(locale)


def _localise(text: str, code: str) -> str:
    decimal, group = _symbols(code)
    if (decimal, group) == (".", ","):
        return text
    return text.translate(str.maketrans({".": decimal, ",": group}))


def number(value, digits: int = 4, *, sign: bool = False, grouped: bool = False, language: str | None = None) -> str:
    """``value`` with ``digits`` decimals in the reader's notation (its thousands grouped when ``grouped``:
    1.153,4745 in Turkish, for a number shown beside grouped ones); "undefined" (translated) for NaN or None."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return i18n._("undefined")
    return _localise(f"{value:{'+' if sign else ''}{',' if grouped else ''}.{digits}f}", language or i18n.current())


def integer(value: int, *, language: str | None = None) -> str:
    """A whole number with the reader's thousands separator (6,731; Turkish 6.731)."""
    return _localise(f"{int(value):,}", language or i18n.current())


def general(value, *, language: str | None = None) -> str:
    """A number in the shortest form that reads back the same (0.1, 3, 1e-15), in the reader's notation."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    return _localise(f"{value:g}" if isinstance(value, float) else str(value), language or i18n.current())


def percent(value: float, digits: int = 0, *, language: str | None = None) -> str:
    """``value`` (a share: 0.45) as a percentage the way the reader writes it (45%; Turkish %45)."""
    code = language or i18n.current()
    locale = Locale.parse(i18n.babel_locale(code))
    pattern = locale.percent_formats[None].pattern.replace("#,##0", "#,##0" + ("." + "0" * digits if digits else ""))
    return format_percent(value, format=pattern, locale=locale)


def latex(value, digits: int = 4, *, sign: bool = False, grouped: bool = False, language: str | None = None) -> str:
    """``number`` for KaTeX: a decimal comma in braces (``0{,}8290``) so KaTeX adds no space after it."""
    return number(value, digits, sign=sign, grouped=grouped, language=language).replace(",", "{,}")


def latex_integer(value: int, *, language: str | None = None) -> str:
    """``integer`` for KaTeX: a comma in braces (``1{,}000``) so KaTeX adds no space after it."""
    return integer(value, language=language).replace(",", "{,}")


def plotly_separators(language: str | None = None) -> str:
    """Plotly's layout ``separators``: the decimal mark, then the thousands mark."""
    return "".join(_symbols(language or i18n.current()))


def decimal_mark(language: str | None = None) -> str:
    return _symbols(language or i18n.current())[0]


class NumberError(ValueError):
    """Typed text that is not one number; ``code`` and ``text`` say why in any language."""

    def __init__(self, code: str, text: str):
        self.code, self.text = code, text
        super().__init__(f"{text!r} is not a number ({code})")


_PLAIN = re.compile(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?")
_ONE_GROUP = re.compile(r"[+-]?[1-9]\d{0,2}[.,]\d{3}")


def parse(text: str, *, language: str | None = None) -> float:
    """The number a reader typed, in their notation or with the point.

    The point is a decimal mark in every language. The comma is one only where the language writes
    it so (Turkish): in English or Chinese "0,5" is refused, never read as 5 or as 0.5 behind the
    reader's back. Thousands separators are refused everywhere ("1.000" or "1,000" cannot mean one
    number for every reader), and so is text that reads as a whole number with a thousands separator
    in the reader's language ("1,234" in English, "1.234" in Turkish): the message offers both readings.
    Full-width digits and marks (a Chinese input method's ０．５) are read as their ASCII forms.
    """
    code = language or i18n.current()
    cleaned = unicodedata.normalize("NFKC", str(text)).strip().replace("\u2212", "-")
    if cleaned.lower() in ("nan", "inf", "+inf", "-inf", "infinity", "-infinity"):
        return float(cleaned)
    if not _PLAIN.fullmatch(cleaned):
        raise NumberError("not_a_number" if cleaned.count(".") + cleaned.count(",") < 2 else "grouping", str(text))
    decimal, group = _symbols(code)
    if _ONE_GROUP.fullmatch(cleaned) and group in cleaned:
        raise NumberError("ambiguous", str(text))
    if "," in cleaned and decimal != ",":
        raise NumberError("comma_decimal", str(text))
    return float(cleaned.replace(",", "."))


def editable(value, *, language: str | None = None) -> str:
    """``value`` as an editor cell shows it: every digit it has (the shortest text that reads back the same),
    the reader's decimal mark, no thousands separator, so ``parse`` in that language gives ``value`` back."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        value = int(value)
    return _localise(repr(float(value)) if isinstance(value, float) else str(value), language or i18n.current())


def short(value, digits: int = 4, *, language: str | None = None) -> str:
    """A number in a table: at most ``digits`` decimals, no trailing zeros (0.25, 3, 0.2231), thousands
    grouped, in the reader's notation; "undefined" (translated) for NaN."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return i18n._("undefined")
    text = f"{value:,.{digits}f}".rstrip("0").rstrip(".") if digits else f"{value:,.0f}"
    return _localise("0" if text in ("-0", "") else text, language or i18n.current())


def parse_error_message(error: NumberError) -> str:
    """What is wrong with the typed text, in the reader's language."""
    shown = error.text
    if error.code == "comma_decimal":
        return i18n._("“{text}” has a comma: write the decimal point, as in 0.5.").format(text=shown)
    if error.code == "ambiguous":
        whole = re.sub(r"[.,]", "", shown.strip())
        return i18n._("“{text}” can be read two ways: write {whole} for the whole number, or {decimal} with the "
                      "decimal mark.").format(text=shown, whole=whole,
                                              decimal=shown.strip().replace(_symbols(i18n.current())[1],
                                                                            decimal_mark()))
    if error.code == "grouping":
        return i18n._("“{text}” has more than one separator: write the number without thousands "
                      "separators, as in 1000 or 0.25.").format(text=shown)
    return i18n._("“{text}” is not a number.").format(text=shown)
