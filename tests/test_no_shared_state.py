"""Sessions share nothing they change: no module of the app writes into a module-level container at
run time (every Streamlit session runs the same imported modules, so such a container is everyone's)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

MUTATORS = {"append", "extend", "insert", "add", "update", "setdefault", "pop", "popitem", "clear", "remove",
            "discard", "__setitem__", "__delitem__", "sort", "reverse"}
CONTAINERS = {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque"}


def _is_container(node: ast.AST) -> bool:
    if isinstance(node, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
            and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) in CONTAINERS)


def _module_containers(tree: ast.Module) -> set[str]:
    names = set()
    for statement in tree.body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None and _is_container(statement.value):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def _written_in_functions(tree: ast.Module, names: set[str]) -> list[str]:
    found = []
    for function in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))):
        local = {a.arg for a in function.args.args + function.args.kwonlyargs}
        for node in ast.walk(function):
            if isinstance(node, ast.Global):
                found += [f"line {node.lineno}: global {n}" for n in node.names]
            target = None
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
                for t in (node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]):
                    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
                        target = t.value.id
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS
                  and isinstance(node.func.value, ast.Name)):
                target = node.func.value.id
            if target in names and target not in local:
                found.append(f"line {node.lineno}: {target}")
    return found


def app_modules() -> list[Path]:
    return [ROOT / "app.py", *sorted((ROOT / "ui").glob("*.py")), *sorted((ROOT / "pages").glob("*.py"))]


def test_no_module_level_container_is_written_at_run_time():
    written = {}
    for path in app_modules():
        tree = ast.parse(path.read_text())
        if found := _written_in_functions(tree, _module_containers(tree)):
            written[str(path.relative_to(ROOT))] = found
    assert not written, written


def test_the_scan_finds_a_module_level_dict_written_in_a_function():
    tree = ast.parse("CACHE: dict = {}\nITEMS = []\ndef f(k, v):\n    CACHE[k] = v\n    ITEMS.append(v)\n"
                     "def g(CACHE):\n    CACHE[1] = 2\n")
    assert _written_in_functions(tree, _module_containers(tree)) == ["line 4: CACHE", "line 5: ITEMS"]


def test_two_sessions_edit_and_read_without_touching_each_other():
    """One process, two sessions, interleaved: what one edits and draws never shows in the other."""
    from tests.conftest import edit, run_page
    from ui.navigation import TOPIC_PAGES

    first, second = run_page(TOPIC_PAGES["ap"]), run_page(TOPIC_PAGES["lessons"])
    lessons_before = [c.value for c in second.caption] + [m.value for m in second.markdown]
    edit(first, "users", edited_rows={0: {"user": "eve"}})
    edit(first, "recommended", edited_rows={6: {"rank": "1"}})  # a typed rank: the editor restarts
    assert first.session_state["recommended"]["item"].tolist()[0] == "107"
    second.run()
    assert not second.exception
    assert [c.value for c in second.caption] + [m.value for m in second.markdown] == lessons_before
    assert sum("Link to this step" in c.value for c in second.caption) == 1
    second.switch_page(TOPIC_PAGES["ap"]).run()
    assert second.session_state["recommended"]["item"].tolist()[0] == "101"
    assert second.session_state["users"]["user"].tolist()[0] == "alice"
    assert "_users_editor_setup" in first.session_state  # each session keeps its own editors' setup
