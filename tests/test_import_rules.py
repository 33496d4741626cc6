"""The house's import rules (docs/development.md, .importlinter): layers that only import downwards, no import
circle between any two modules, a metric library of numpy, pandas and scipy alone, and every package saying
what it is for and what it may import."""

from __future__ import annotations

import ast
import subprocess
import sys
from configparser import ConfigParser
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / ".importlinter"
_config = ConfigParser()
_config.read(CONFIG)
PACKAGES = _config["importlinter"]["root_packages"].split()
METRICS_MAY_IMPORT = {"numpy", "pandas", "scipy"}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    sys.path.insert(0, str(ROOT))
    return grimp.build_graph(*PACKAGES, include_external_packages=True, cache_dir=None)


def test_every_contract_of_the_import_rules_is_kept():
    done = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
                           f"sys.exit(lint_imports(config_filename={str(CONFIG)!r}, no_cache=True, no_logo=True))"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout, done.stdout


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found = []
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_circle_and_no_false_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}) == []


def _internal_edges(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    """Module -> modules it imports, anywhere in its code (a function's own import counts too), where a
    package's ``__init__`` importing its own submodules is not an edge back (``import a.b`` runs ``a`` first)."""
    ours = {m for m in graph.modules if m.split(".")[0] in PACKAGES}
    edges = {}
    for module in ours:
        edges[module] = {m for m in graph.find_modules_directly_imported_by(module)
                         if m in ours and not module.startswith(m + ".")}
    return edges


def test_no_import_circle_anywhere(graph):
    assert _cycles(_internal_edges(graph)) == []


def test_the_metric_library_imports_numpy_pandas_and_scipy_and_nothing_else_of_the_project(graph):
    imported = set()
    for module in graph.find_descendants("metrics") | {"metrics"}:
        imported |= {m.split(".")[0] for m in graph.find_modules_directly_imported_by(module)}
    outside = imported - {"metrics"} - set(sys.stdlib_module_names)
    assert outside <= METRICS_MAY_IMPORT, outside


def test_the_old_command_name_only_runs_the_command_and_imports_nothing_of_it():
    """``python -m metrics`` hands over with runpy: the one way out of metrics/, by design (receval/__init__)."""
    tree = ast.parse((ROOT / "metrics" / "__main__.py").read_text())
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [a.name for n in imports for a in n.names] == ["runpy"]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_says_what_it_is_for_and_what_it_may_import(package):
    docstring = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text())) or ""
    purpose, _, rest = docstring.partition("May import:")
    assert purpose.strip().count(".") >= 1 and rest.strip(), docstring


def test_nothing_imports_a_page_a_test_or_a_benchmark(graph):
    for module in graph.modules:
        if module.split(".")[0] in PACKAGES:
            reached = {m.split(".")[0] for m in graph.find_modules_directly_imported_by(module)}
            assert not reached & {"pages", "tests", "benchmarks", "app"}, module
