"""Keep the catalogs in step with the code: ``python -m content.catalogs extract|update|check``.

- ``extract`` reads every marked sentence (``_``, ``N_``, ``ngettext``, ``pgettext``) of the files of
  each domain into ``content/locale/<domain>.pot`` (Babel's extractor).
- ``update`` merges each template into every language's ``<lang>/LC_MESSAGES/<domain>.po``: new
  sentences appear empty, changed ones fuzzy, so a translator sees what to do.
- ``check`` fails on an empty or fuzzy translation, a placeholder or markup that does not survive,
  or a marked file that belongs to no domain.

A domain is one part of the app, so a translator (or a branch) can work on one file at a time;
at run time every domain of a language is one chain of translations (content.i18n).
"""

from __future__ import annotations

import datetime
import fnmatch
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po, write_po

from content import i18n

# A fixed date in every header: a regenerated catalog differs only where a sentence did.
FIXED_DATE = datetime.datetime(2026, 12, 1, tzinfo=datetime.timezone.utc)
HEADER = "# {language} translations of RecEval Lab's sentences (content/catalogs.py keeps them in step).\n#"

ROOT = Path(__file__).resolve().parents[1]
LOCALE = i18n.LOCALE_DIR

# Which files' sentences live in which domain: the first pattern a path matches wins.
DOMAINS: list[tuple[str, str]] = [
    ("content/pages/home.py", "core"), ("content/core/*", "core"), ("content/i18n.py", "core"),
    ("content/numbers.py", "core"), ("content/metrics.py", "core"), ("content/examples.py", "core"),
    ("app.py", "core"), ("ui/widgets.py", "core"), ("ui/scenario*.py", "core"), ("ui/lesson_link.py", "core"),
    ("ui/tables.py", "core"), ("ui/state.py", "core"), ("ui/formulas.py", "core"), ("ui/charts.py", "core"),
    ("ui/shared_figures.py", "core"), ("ui/baseline.py", "core"), ("ui/practice_mode.py", "core"),
    ("ui/language.py", "core"), ("ui/navigation.py", "core"), ("ui/text.py", "core"),
    ("content/pages/rating.py", "topics"), ("content/pages/topn.py", "topics"), ("content/pages/ap.py", "topics"),
    ("content/pages/rr.py", "topics"), ("content/pages/ndcg.py", "topics"), ("content/topics/*", "topics"),
    ("pages/1_*", "topics"), ("pages/2_*", "topics"), ("pages/3_*", "topics"), ("pages/4_*", "topics"),
    ("pages/5_*", "topics"),
    ("content/pages/classification.py", "topics2"), ("content/pages/auc.py", "topics2"),
    ("content/pages/logloss.py", "topics2"), ("content/pages/examples.py", "topics2"),
    ("content/pages/which_metric.py", "topics2"), ("content/topics2/*", "topics2"),
    ("pages/6_*", "topics2"), ("pages/7_*", "topics2"), ("pages/8_*", "topics2"), ("pages/9_*", "topics2"),
    ("pages/21_*", "topics2"), ("ui/ctr_formulas.py", "topics2"), ("ui/worked_view.py", "topics2"),
    ("ui/which_metric*.py", "topics2"),
    ("content/lessons/*", "lessons"), ("content/pages/lessons.py", "lessons"), ("lessons/*", "lessons"),
    ("pages/10_*", "lessons"), ("ui/lesson*.py", "lessons"),
    ("content/pages/practice.py", "labs"), ("content/pages/ab.py", "labs"), ("content/pages/sensitivity.py", "labs"),
    ("content/pages/random.py", "labs"), ("content/pages/sampled.py", "labs"), ("content/labs/*", "labs"),
    ("pages/11_*", "labs"), ("pages/12_*", "labs"), ("pages/13_*", "labs"), ("pages/14_*", "labs"),
    ("pages/15_*", "labs"), ("ui/ab_lab.py", "labs"), ("ui/lab_*.py", "labs"),
    ("content/pages/lens.py", "data"), ("content/pages/your_data.py", "data"), ("content/pages/compare.py", "data"),
    ("content/data/*", "data"), ("pages/16_*", "data"), ("pages/17_*", "data"), ("pages/18_*", "data"),
    ("ui/library_*.py", "data"), ("ui/your_data*.py", "data"), ("ui/compare_charts.py", "data"),
    ("ui/batch_charts.py", "data"),
    ("content/pages/live.py", "class"), ("content/pages/kata.py", "class"), ("content/class/*", "class"),
    ("pages/19_*", "class"), ("pages/20_*", "class"), ("ui/live_*.py", "class"), ("ui/kata_*.py", "class"),
]
SCANNED = ("app.py", "pages", "ui", "content", "lessons")
KEYWORDS = {**DEFAULT_KEYWORDS, "_": None}
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sd]|%[sd]")
MARKUP = ("**", "`", "$", "<", ">", "[", "](", "\n")


def _new_catalog(locale: str | None) -> Catalog:
    return Catalog(locale=locale, project="RecEval Lab", version="1", fuzzy=False, creation_date=FIXED_DATE,
                   revision_date=FIXED_DATE, header_comment=HEADER.format(language=locale or "English"),
                   msgid_bugs_address="", copyright_holder="RecEval Lab")


def domain_of(path: str) -> str | None:
    return next((domain for pattern, domain in DOMAINS if fnmatch.fnmatch(path, pattern)), None)


def _sources() -> Iterator[Path]:
    for name in SCANNED:
        target = ROOT / name
        yield from ([target] if target.is_file() else sorted(target.rglob("*.py")))


def templates() -> tuple[dict[str, Catalog], list[str]]:
    """Every domain's catalog of English sentences, and the marked files that belong to no domain."""
    catalogs: dict[str, Catalog] = {}
    homeless = []
    for path in _sources():
        relative = path.relative_to(ROOT).as_posix()
        found = list(extract_from_file("python", path, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
                                       strip_comment_tags=True))
        if not found:
            continue
        domain = domain_of(relative)
        if domain is None:
            homeless.append(relative)
            continue
        catalog = catalogs.setdefault(domain, _new_catalog(None))
        for line, message, comments, context in found:
            catalog.add(message, locations=[(relative, line)], auto_comments=comments, context=context)
    return catalogs, homeless


def extract(domains=None) -> None:
    catalogs, homeless = templates()
    for domain, catalog in catalogs.items():
        if domains and domain not in domains:
            continue
        with (LOCALE / f"{domain}.pot").open("wb") as handle:
            write_po(handle, catalog, width=100, sort_by_file=True)
    for path in homeless:
        print(f"warning: {path} has marked sentences but no domain (content/catalogs.py DOMAINS)")


def update(domains=None) -> None:
    """Extract, then merge each template (of ``domains``, else every one) into every language's catalog."""
    extract(domains)
    for template_path in sorted(LOCALE.glob("*.pot")):
        if domains and template_path.stem not in domains:
            continue
        with template_path.open("rb") as handle:
            template = read_po(handle)
        for code in [c for c in i18n.languages() if c != i18n.SOURCE]:
            target = LOCALE / code / "LC_MESSAGES" / f"{template_path.stem}.po"
            if target.exists():
                with target.open("rb") as handle:
                    catalog = read_po(handle, locale=i18n.babel_locale(code))
                catalog.update(template, update_creation_date=False)
            else:
                catalog = _new_catalog(code)
                catalog.update(template, update_creation_date=False)
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("wb") as handle:
                write_po(handle, catalog, width=100, sort_by_file=True, ignore_obsolete=True)


def _shape(text: str) -> tuple:
    return sorted(PLACEHOLDER.findall(text)), tuple(text.count(mark) % 2 if mark in "`$" else 0 for mark in MARKUP)


def problems(code: str, domains=None) -> list[str]:
    """Everything wrong with one language's catalogs, each as 'domain: message: what'."""
    found = []
    catalogs, homeless = templates()
    found += [f"{path}: marked sentences but no domain (content/catalogs.py DOMAINS)" for path in homeless]
    for domain, template in catalogs.items():
        if domains and domain not in domains:
            continue
        path = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
        if not path.exists():
            found.append(f"{domain}: no catalog {path.relative_to(ROOT)}")
            continue
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=i18n.babel_locale(code))
        for message in template:
            if not message.id:
                continue
            entry = catalog.get(message.id, context=message.context)
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            name = ids[0][:60]
            if entry is None or not entry.string or not all(entry.string if isinstance(entry.string, tuple)
                                                             else (entry.string,)):
                found.append(f"{domain}: {name!r}: not translated")
                continue
            if entry.fuzzy:
                found.append(f"{domain}: {name!r}: fuzzy")
            strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            for string in strings:
                if sorted(PLACEHOLDER.findall(string)) != sorted(PLACEHOLDER.findall(ids[0])):
                    found.append(f"{domain}: {name!r}: placeholders {PLACEHOLDER.findall(ids[0])} "
                                 f"became {PLACEHOLDER.findall(string)}")
                for mark in ("**", "`", "$", "\n\n", "](" ):
                    if string.count(mark) != ids[0].count(mark):
                        found.append(f"{domain}: {name!r}: markup {mark!r} appears {ids[0].count(mark)} times in "
                                     f"English, {string.count(mark)} in the translation")
    return found


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "extract":
        extract(argv[1:] or None)
    elif command == "update":
        update(argv[1:] or None)
    elif command == "check":
        found = [f"{code}: {p}" for code in i18n.languages() if code != i18n.SOURCE
                 for p in problems(code, argv[1:] or None)]
        print("\n".join(found) or "every catalog is complete")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
