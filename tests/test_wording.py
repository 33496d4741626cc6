"""Words on screen: the two source documents are named by what they are, never "the seed".

"seed" is allowed only as a random seed, written "random seed", so a reader never wonders which
document "the seed" is. Both every reader-facing string in the sources and the rendered text of
every page are scanned.
"""

import ast
import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT, texts
from ui.navigation import PAGES

SOURCES = sorted({*ROOT.glob("pages/*.py"), ROOT / "app.py", *ROOT.glob("ui/**/*.py"), *ROOT.glob("content/**/*.py"),
                  *(ROOT / name for name in (
                      "metrics/seed_examples.py", "metrics/registry.py", "teaching/mistakes.py", "metrics/conventions.py",
                      "teaching/practice.py", "teaching/practice_data.py", "teaching/worked.py", "teaching/challenges.py",
                      "receval/cli.py"))})


def seed_words(text: str) -> list[str]:
    return [text[max(0, m.start() - 30): m.end() + 20]
            for m in re.finditer(r"""(?<!random )(?<!random\.)(?<!["'`{])\bseeds?\b(?!["`])(?!'(?!s\b))""", text,
                                 re.IGNORECASE)]


def reader_strings(path) -> list[str]:
    """The string literals of a file that can reach a reader: prose (with a space), not docstrings."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings and " " in node.value.strip()]


def test_the_scan_finds_the_old_wording():
    assert seed_words("The seed's hits at ranks 1, 4 and 7") and seed_words("the second seed's formula")
    assert seed_words("Seed 1 (Turkish)") and not seed_words("a random seed of the population")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_source_string_calls_a_document_the_seed(path):
    found = [hit for string in reader_strings(path) for hit in seed_words(string)]
    assert not found, found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.topic)
def test_no_page_calls_a_document_the_seed(page):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    if page.path != "app.py":
        at.switch_page(page.path)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = texts(at) + "\n".join(str(getattr(e, "label", "")) + str(getattr(e, "help", "") or "")
                                  for kind in ("button", "selectbox", "number_input", "slider", "toggle", "radio",
                                               "expander", "tabs", "text_input")
                                  for e in at.get(kind))
    shown += "\n".join(" ".join(map(str, d.value.columns)) for d in at.dataframe)
    assert not seed_words(shown), seed_words(shown)



def test_the_lessons_and_every_pitfalls_list_name_the_sources_and_link_the_worked_examples():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/10_Lessons.py")
    at.run()
    assert "the NumPy tutorial on accuracy metrics" in texts(at)
    links = [e for e in at.get("page_link")]
    assert any(link.proto.page == "Worked_examples" for link in links), [link.proto.page for link in links]
    at.switch_page("pages/3_AP_and_MAP.py")
    at.run()
    assert "Sources: the NumPy tutorial on accuracy metrics" in texts(at), "the Pitfalls list names the sources"
    assert any(link.proto.page == "Worked_examples" for link in at.get("page_link"))
