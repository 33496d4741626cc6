"""The README and the manual in docs/: every relative link resolves, the README stays short, and CI still finds
the test command in it."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"(`+).*?\1")


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a page's headings: the heading's text lowercased, punctuation removed, spaces
    turned into hyphens, and -1, -2, ... added to repeats."""
    seen: dict[str, int] = {}
    found = set()
    for line in prose_lines(text):
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not heading:
            continue
        words = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1))  # a link counts by its text
        words = words.replace("`", "").replace("*", "")
        slug = re.sub(r"[^\w\- ]", "", words.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(page: Path) -> list[str]:
    """Every link and image target in a page's prose, code spans left out."""
    targets = []
    for line in prose_lines(page.read_text()):
        targets += LINK.findall(CODE_SPAN.sub("", line))
    return targets


def relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, flags=re.IGNORECASE) and not target.startswith("//")


def test_the_pages_are_found():
    """A glob that found nothing would make every test below pass on nothing."""
    assert {page.name for page in PAGES} >= {"README.md", "live-class.md", "teaching.md", "development.md"}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_points_at_an_existing_file_and_heading(page):
    broken = []
    for target in filter(relative, links(page)):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file.read_text()):
            broken.append(f"{target}: no heading with the anchor #{anchor} in {file.relative_to(ROOT)}")
    assert not broken, broken


def test_every_docs_page_has_one_title_and_a_way_back():
    for page in PAGES[1:]:
        lines = prose_lines(page.read_text())
        assert lines[0].startswith("# "), page.name
        assert [line for line in lines if line.startswith("# ")] == [lines[0]], page.name
        assert "../README.md" in links(page), page.name


def test_the_readme_links_to_every_docs_page():
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in links(ROOT / "README.md")}
    assert set(PAGES[1:]) <= linked


def test_the_readme_fits_on_a_few_screens():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 250


def test_ci_finds_the_test_command_in_the_readme():
    """.ci/run: sed -n '/^## Run every test/,/^```$/p' README.md | grep -m1 '^pip install', done in Python."""
    section, inside = [], False
    for line in (ROOT / "README.md").read_text().splitlines():
        if not inside and re.match(r"^## Run every test", line):
            inside = True
        if inside:
            section.append(line)
            if len(section) > 1 and line == "```":
                break
    command = next((line for line in section if line.startswith("pip install")), None)
    assert command is not None, "no line starting with 'pip install' in the README's Run every test section"


def test_ci_run_reads_the_test_command_the_way_this_test_does():
    """If .ci/run changes how it finds the command, the test above must change with it."""
    assert "sed -n '/^## Run every test/,/^```$/p' README.md | grep -m1 '^pip install'" in (
        ROOT / ".ci" / "run").read_text()


@pytest.mark.skipif(not (shutil.which("sed") and shutil.which("grep")), reason="no sed or grep on this machine")
def test_the_shell_pipeline_finds_the_same_command():
    out = subprocess.run(["sh", "-c", "sed -n '/^## Run every test/,/^```$/p' README.md | grep -m1 '^pip install'"],
                         cwd=ROOT, capture_output=True, text=True, timeout=10, check=True)
    assert out.stdout.startswith("pip install"), out
