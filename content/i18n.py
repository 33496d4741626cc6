"""The reader's language and the catalogs that translate every sentence.

Each sentence is written in English in the code, marked ``_("...")`` where it is shown (or
``N_("...")`` where it is defined ahead of time and translated when shown), and translated from
the gettext catalogs under ``content/locale``. Which language applies is asked of a resolver the
UI layer installs (the session's choice); there is no process-wide ``gettext.install``, which
would show one reader's language to another.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext
import io
from collections.abc import Callable, Iterator
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).parent / "locale"
SOURCE = "en"
PSEUDO = "qps"  # the pseudo-language of the tests: every translated string wrapped in markers
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"


def languages() -> tuple[str, ...]:
    """English first, then every language that has a catalog folder."""
    found = sorted(p.name for p in LOCALE_DIR.iterdir() if (p / "LC_MESSAGES").is_dir())
    return (SOURCE, *[code for code in found if code != SOURCE])


@functools.cache
def language_name(code: str) -> str:
    """The language's name in that language (Türkçe, 中文), for the picker."""
    if code == PSEUDO:
        return "Pseudo"
    return Locale.parse(code).get_display_name(code).split(" (")[0].capitalize() if code != "zh" else "中文"


def html_lang(code: str) -> str:
    """The BCP 47 tag for ``<html lang>``: a screen reader's voice and the glyph shapes (Simplified Chinese,
    not the Japanese shapes Chromium picks for a bare ``zh`` on some systems)."""
    return {"zh": "zh-Hans", PSEUDO: SOURCE}.get(code, code)


def babel_locale(code: str) -> str:
    """The Babel/CLDR locale for a language code: number symbols, percent and plural rules."""
    return {"zh": "zh_Hans_CN", PSEUDO: SOURCE}.get(code, code)


class _Pseudo(gettext.NullTranslations):
    def gettext(self, message):
        return f"{PSEUDO_OPEN}{message}{PSEUDO_CLOSE}"

    def ngettext(self, singular, plural, n):
        return self.gettext(singular if n == 1 else plural)

    def pgettext(self, context, message):
        return self.gettext(message)


@functools.cache
def translation(code: str) -> gettext.NullTranslations:
    """The translations of one language, read once per process from its .po files (one per domain).

    The .po files are compiled in memory (Babel), so no compiled .mo file is kept in the repository.
    Fuzzy and empty entries are left out, so they show in English rather than wrongly.
    """
    if code == PSEUDO:
        return _Pseudo()
    folder = LOCALE_DIR / code / "LC_MESSAGES"
    if code == SOURCE or not folder.is_dir():
        return gettext.NullTranslations()
    chain: gettext.NullTranslations | None = None
    for po in sorted(folder.glob("*.po")):
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=babel_locale(code))
        compiled = io.BytesIO()
        write_mo(compiled, catalog, use_fuzzy=False)
        compiled.seek(0)
        domain = gettext.GNUTranslations(compiled)
        if chain is None:
            chain = domain
        else:
            chain.add_fallback(domain)
    return chain or gettext.NullTranslations()


def _source_language() -> str:
    return SOURCE


_resolver: Callable[[], str] = _source_language


def use_resolver(resolver: Callable[[], str]) -> None:
    """Install the function that says the current reader's language (the UI layer's session)."""
    global _resolver
    _resolver = resolver


# A language set for one task or thread (an HTTP request of the class's light view), over the resolver's.
_speaking: contextvars.ContextVar[str | None] = contextvars.ContextVar("receval_speaking", default=None)


@contextlib.contextmanager
def speaking(code: str) -> Iterator[None]:
    """Translate in ``code`` inside the block, for this task or thread only (no Streamlit session needed)."""
    token = _speaking.set(code)
    try:
        yield
    finally:
        _speaking.reset(token)


def current() -> str:
    """The language of the reader this code runs for (English outside a session: tests, scripts)."""
    return _speaking.get() or _resolver()


# Translations a lesson file brings (content.lessons.library.teach): {language: {English: translated}}. Used only
# where the catalogs have none, so a built-in sentence keeps its one translation.
_lesson_file_messages: dict[str, dict[str, str]] = {}


def add_translations(code: str, messages: dict[str, str]) -> None:
    _lesson_file_messages.setdefault(code, {}).update(messages)


def _(message: str) -> str:
    """``message`` in the current reader's language."""
    code = current()
    said = translation(code).gettext(message)
    if said == message and code in _lesson_file_messages:
        return _lesson_file_messages[code].get(message, message)
    return said


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, by the current language's plural rule."""
    return translation(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` translated in ``context``: one English word that two languages tell apart."""
    return translation(current()).pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs where it is defined; translate it with ``_`` where it is shown."""
    return message


def upper(text: str) -> str:
    """Upper case with the language's own rules (Turkish i -> İ, ı -> I)."""
    if current() == "tr":
        text = text.replace("i", "İ").replace("ı", "I")
    return text.upper()


def lower(text: str) -> str:
    """Lower case with the language's own rules (Turkish I -> ı, İ -> i)."""
    if current() == "tr":
        text = text.replace("I", "ı").replace("İ", "i")
    return text.lower()


def capitalize(text: str) -> str:
    """The first letter upper-cased with the language's rules, the rest unchanged."""
    return upper(text[:1]) + text[1:] if text else text
