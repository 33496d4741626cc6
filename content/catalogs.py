"""Keep the catalogs in step with the code: ``python -m content.catalogs extract|update|check``.

- ``extract`` reads every marked sentence (``_``, ``N_``, ``ngettext``, ``pgettext``) of the files of
  each domain into ``content/locale/<domain>.pot`` (Babel's extractor), and every sentence of the built-in
  lesson files (``content/lessons/builtin/*.toml``) into the lessons domain.
- ``update`` merges each template into every language's ``<lang>/LC_MESSAGES/<domain>.po``: new
  sentences appear empty, changed ones fuzzy, so a translator sees what to do.
- ``check`` fails on an empty or fuzzy translation, a placeholder or markup that does not survive
  (a ``*`` CommonMark would leave on screen included), one English sentence translated two ways in
  two domains, or a marked file that belongs to no domain.

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
from markdown_it import MarkdownIt

from content import i18n

# A fixed date in every header: a regenerated catalog differs only where a sentence did.
FIXED_DATE = datetime.datetime(2026, 12, 1, tzinfo=datetime.timezone.utc)
HEADER = "# {language} translations of RecEval Lab's sentences (content/catalogs.py keeps them in step).\n#"

ROOT = Path(__file__).resolve().parents[1]
LOCALE = i18n.LOCALE_DIR

# Which files' sentences live in which domain: the first pattern a path matches wins.
DOMAINS: list[tuple[str, str]] = [
    *[(path, "common") for path in (
        "app.py", "ui/widgets.py", "ui/choice.py", "ui/integer_box.py", "ui/scenario.py", "ui/input/*", "ui/lesson_link.py", "ui/state.py",
        "ui/markup/formulas.py", "content/text.py", "ui/figures/charts.py", "ui/shared_figures.py", "ui/baseline.py",
        "ui/chart_text.py", "content/charts.py",
        "ui/practice_mode.py", "ui/language.py", "ui/navigation.py", "content/i18n.py", "content/numbers.py",
        "content/metrics.py", "content/messages.py", "content/pages/home.py")],
    *[(path, "ranking") for path in (  # the pages of the ranking metrics
        "pages/1_*", "pages/2_*", "pages/3_*", "pages/4_*", "pages/5_*", "content/pages/rating.py",
        "content/pages/topn.py", "content/pages/ap.py", "content/pages/rr.py", "content/pages/ndcg.py")],
    *[(path, "beyond") for path in (  # classification, AUC, LogLoss, the worked examples, which metric when
        "pages/6_*", "pages/7_*", "pages/8_*", "pages/9_*", "pages/21_*", "ui/markup/ctr_formulas.py",
        "ui/controllers/worked_view.py", "content/pages/classification.py", "content/pages/auc.py",
        "content/pages/logloss.py", "content/pages/examples.py", "content/pages/which_metric.py", "content/examples.py",
        "content/worked.py")],
    *[(path, "lessons") for path in (
        "pages/10_*", "ui/controllers/lesson*.py", "ui/figures/lesson_charts.py", "content/lessons/*",
        "content/pages/lessons.py")],
    *[(path, "labs") for path in (  # the labs and practice
        "pages/11_*", "pages/12_*", "pages/13_*", "pages/14_*", "pages/15_*", "ui/controllers/ab_lab.py",
        "ui/controllers/practice_*.py",
        "ui/figures/lab_charts.py", "content/pages/ab.py", "content/pages/sensitivity.py", "content/pages/random.py",
        "content/pages/sampled.py", "content/pages/practice.py", "content/labs.py", "content/practice.py")],
    *[(path, "data") for path in (  # the library lens, your data, compare two models
        "pages/16_*", "pages/17_*", "pages/18_*", "ui/library_snippets.py", "ui/controllers/library_lens.py",
        "ui/controllers/lens_*.py", "ui/controllers/your_data*.py", "ui/figures/compare_charts.py",
        "ui/figures/batch_charts.py",
        "content/pages/lens.py", "content/pages/your_data.py", "content/pages/compare.py", "content/conventions.py",
        "content/your_data.py", "content/compare.py")],
    *[(path, "protocols") for path in (  # the protocol lab
        "pages/22_*", "ui/controllers/protocol_lab.py", "ui/figures/protocol_charts.py", "content/pages/protocols.py")],
    *[(path, "offpolicy") for path in (  # logged feedback: off-policy evaluation
        "pages/23_*", "ui/controllers/logged_feedback.py", "ui/figures/offpolicy_charts.py",
        "content/pages/logged_feedback.py")],
    *[(path, "class") for path in (  # the live class and write it yourself
        "pages/19_*", "pages/20_*", "ui/controllers/live_class.py", "ui/controllers/live_teacher.py",
        "ui/controllers/live_homework.py",
        "ui/figures/live_charts.py", "ui/controllers/kata_*.py", "ui/kata_*.py", "content/pages/live.py",
        "content/pages/live_phone.py", "content/pages/live_teacher.py", "content/pages/kata*.py", "content/kata.py",
        "content/classroom.py")],
]
SCANNED = ("app.py", "pages", "ui", "content")
LESSON_FILES_DOMAIN = "lessons"
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
    lessons = catalogs.setdefault(LESSON_FILES_DOMAIN, _new_catalog(None))
    for relative, line, message in lesson_file_sentences():
        lessons.add(message, locations=[(relative, line)])
    return catalogs, homeless


def lesson_file_sentences() -> Iterator[tuple[str, int, str]]:
    """(file, line, sentence) of every built-in lesson file: their English is the catalogs' msgid, so a built-in
    lesson's translations stay in one place, the lessons catalog."""
    from content.lessons.file_reader import read_lesson
    from content.lessons.file_writer import texts
    from content.lessons.library import BUILTIN

    for path in sorted(BUILTIN.glob("*.toml")):
        source = path.read_text()
        lesson = read_lesson(source).lesson
        for message in texts(lesson):
            head = message.split(" ")[0][:40]
            line = next((n for n, text in enumerate(source.splitlines(), 1) if head and head in text), 1)
            yield path.relative_to(ROOT).as_posix(), line, message


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


_COMMONMARK = MarkdownIt("commonmark")


def stars_left(text: str) -> int:
    """How many ``*`` a reader sees after CommonMark renders ``text`` (placeholders filled with a word).

    In Chinese a bold span that closes right after full-width punctuation and runs on into a letter
    (``**均值掩盖了分布。**MAP``) does not close: CommonMark shows both ``**`` literally.
    """
    filled = PLACEHOLDER.sub("x", text)
    return sum(child.content.count("*") for token in _COMMONMARK.parse(filled) for child in token.children or ()
               if child.type == "text")


def conflicts(code: str) -> list[str]:
    """English sentences translated differently in two domains: at run time only the first domain's shows."""
    seen: dict[tuple, dict[str, tuple]] = {}
    for path in sorted((LOCALE / code / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=i18n.babel_locale(code))
        for message in catalog:
            if message.id and message.string:
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                seen.setdefault((message.context, message.id), {})[path.stem] = strings
    return [f"{' / '.join(sorted(found))}: {(key[1] if isinstance(key[1], str) else key[1][0])[:60]!r}: translated "
            f"{len(set(found.values()))} ways ({'; '.join(repr(s[0]) for s in dict.fromkeys(found.values()))})"
            for key, found in seen.items() if len(set(found.values())) > 1]


def problems(code: str, domains=None) -> list[str]:
    """Everything wrong with one language's catalogs, each as 'domain: message: what'."""
    found = [] if domains else conflicts(code)
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
                if "*" in string and stars_left(string) > stars_left(ids[0]):
                    found.append(f"{domain}: {name!r}: a '*' stays on screen (put full-width punctuation outside "
                                 f"the bold span): {string[:80]!r}")
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
