"""The layout's arrows: pages on top, ui/ draws, its sub-folders and content/ build values without
Streamlit, and the engines (metrics/, kata/, protocols/) import nothing above them."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT


def _imports(path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


PURE = [p for folder in ("ui/figures", "ui/markup", "ui/input", "content", "metrics", "teaching", "whole_logs", "receval",
                          "kata", "classroom", "protocols", "offpolicy")
        for p in sorted((ROOT / folder).rglob("*.py"))]
ENGINES = [p for folder in ("metrics", "teaching", "whole_logs", "receval", "kata", "protocols", "offpolicy") for p in sorted((ROOT / folder).rglob("*.py"))]


@pytest.mark.parametrize("path", PURE, ids=[str(p.relative_to(ROOT)) for p in PURE])
def test_builders_content_and_engines_never_import_streamlit(path):
    assert "streamlit" not in _imports(path)


@pytest.mark.parametrize("path", ENGINES, ids=[str(p.relative_to(ROOT)) for p in ENGINES])
def test_the_engines_import_nothing_above_them(path):
    assert not {"content", "ui", "pages"} & _imports(path)


def test_content_imports_no_ui():
    for path in sorted((ROOT / "content").rglob("*.py")):
        assert "ui" not in _imports(path), path
