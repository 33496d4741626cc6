"""The "check it yourself" snippets: the trec_eval, ranx, scikit-learn and cornac ones run in a subprocess and
print the values of their cells; no typed item id can break out of a string literal."""

from __future__ import annotations

import ast
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from metrics.conventions import library_values
from tests.test_conventions import random_case
from ui import library_snippets
from ui.controllers.library_lens import PRESETS

NASTY_IDS = ["it's", 'say "hi"', "back\\slash", "new\nline", "tab\tand\r", "\u2028para", "é ü 漢",
             "'''", '"""', "\\'; import os; os.system('echo pwned') #", "{x}", "${x}", "\x00nul", "  spaced  "]

SEED = [str(i) for i in range(101, 111)]
CASES = [(list(map(str, p.recommended)), {str(i): g for i, g in p.ground_truth.items()}, p.k) for p in PRESETS]
CASES += [(SEED, {"101": 1, "104": 1, "107": 1}, 10), (NASTY_IDS[:8], {NASTY_IDS[0]: 2, NASTY_IDS[3]: 1, NASTY_IDS[9]: 1}, 4),
          (NASTY_IDS, {i: 1 for i in NASTY_IDS[::3]}, 5), (["solo"], {"solo": 1}, 3), ([], {"a": 1}, 2),
          (["a", "b"], {"a": 0.5, "c": 2.5}, 2)]
rng = np.random.default_rng(7)
CASES += [random_case(rng) for _ in range(6)]

RUNNER = """
import contextlib, io, json, sys, warnings
warnings.simplefilter("ignore")
outputs = []
for code in json.load(sys.stdin):
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__main__"})
    outputs.append(buffer.getvalue())
print(json.dumps(outputs))
"""


def _printed(output: str) -> dict[str, float]:
    values = {}
    for line in output.splitlines():
        name, _, rest = line.partition(" ")
        try:
            values[name] = float(rest)
        except ValueError:  # "left out: ..." or "refused: ...": the library gives no number
            values[name] = float("nan")
    return values


# Libraries that need an older pandas or numpy than the app run in a virtual environment of their own,
# made once per machine (in ~/.cache) from these pins; the others are in requirements-dev.txt.
OWN_ENVIRONMENTS = {
    "RecTools": ["rectools==0.19.0", "pandas==2.3.3", "numpy==1.26.4"],
    "Evidently": ["evidently==0.7.23", "pandas==2.3.3"],
}


def python_for(library: str) -> str:
    if library not in OWN_ENVIRONMENTS:
        return sys.executable
    pins = OWN_ENVIRONMENTS[library]
    home = Path.home() / ".cache" / "receval-lab" / "venvs" / "-".join(p.replace("==", "") for p in pins)
    python = home / "bin" / "python"
    if not python.exists():
        building = home.with_name(home.name + ".building")
        shutil.rmtree(building, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(building)], check=True)
        subprocess.run([str(building / "bin" / "pip"), "install", "--quiet", *pins], check=True, timeout=900)
        shutil.rmtree(home, ignore_errors=True)
        building.rename(home)  # its python finds the environment by the pyvenv.cfg beside it, wherever it is
    return str(python)


@pytest.mark.parametrize("library", ["trec_eval", "ranx", "scikit-learn", "cornac", "RecTools", "Evidently"])
def test_tested_snippets_run_and_print_their_cells(library):
    snippets = [library_snippets.snippet(library, *case) for case in CASES]
    assert all(s.tested for s in snippets)
    done = subprocess.run([python_for(library), "-c", RUNNER], input=json.dumps([s.code for s in snippets]),
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    outputs = json.loads(done.stdout.splitlines()[-1])
    checked = 0
    for case, snip, output in zip(CASES, snippets, outputs, strict=True):
        printed = _printed(output)
        assert set(printed) == set(snip.prints), (case, output)
        row = library_values(*case).loc[library]
        for name, metric in snip.prints.items():
            expected = row[metric]
            assert (math.isnan(printed[name]) and math.isnan(expected)) or abs(printed[name] - expected) <= 1e-9, (
                case, name, printed[name], expected)
            checked += 1
    assert checked >= 5 * len(CASES) or library == "scikit-learn"


def _python_strings(code: str) -> set[str]:
    return {node.value for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Constant) and isinstance(node.value, str)}


@pytest.mark.parametrize("library", [name for name in library_snippets.BUILDERS if name != "Spark MLlib"])
def test_typed_ids_stay_inside_python_string_literals(library):
    recommended, truth = NASTY_IDS, {i: 1 for i in NASTY_IDS[::2]} | {"never'recommended\n": 2}
    code = library_snippets.snippet(library, recommended, truth, 5).code
    strings = _python_strings(code)  # parses: no id ended a literal early
    if library != "RecBole":  # RecBole's metrics read hit flags, not ids
        assert set(recommended) <= strings
    calls = {node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
             for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Call)}
    assert "system" not in calls and "eval" not in calls


def test_typed_ids_stay_inside_scala_string_literals():
    recommended = NASTY_IDS
    code = library_snippets.snippet("Spark MLlib", recommended, {i: 2 for i in NASTY_IDS[1::2]}, 5).code
    list_line = next(line for line in code.splitlines() if line.strip().startswith("Array[String](") and "best first" in line)
    literal = list_line.strip()[len("Array[String]("):list_line.strip().rindex(")")]
    assert json.loads(f"[{literal}]") == recommended
    assert all(ord(c) < 128 and c not in "\r\n" for c in literal)


def test_every_snippet_the_tests_do_not_run_says_why():
    seed = (SEED, {"101": 1, "104": 1, "107": 1}, 10)
    untested = {name for name in library_snippets.BUILDERS if not library_snippets.snippet(name, *seed).tested}
    assert untested == set(library_snippets.WHY_NOT_RUN)


def test_the_spark_snippet_runs_in_spark_shell_and_prints_its_cells():
    """Every case in one spark-shell (the Scala REPL that pyspark ships; the JVM comes from .ci/run)."""
    pyspark = pytest.importorskip("pyspark", reason="pyspark is in requirements-dev.txt")
    home = Path(pyspark.__file__).parent
    snippets = [library_snippets.snippet("Spark MLlib", *case) for case in CASES]
    assert all(s.tested and s.language == "scala" for s in snippets)
    script = ["import org.apache.spark.mllib.evaluation.RankingMetrics", 'sc.setLogLevel("OFF")']
    for number, snip in enumerate(snippets):
        body = snip.code.replace("import org.apache.spark.mllib.evaluation.RankingMetrics\n", "")
        # The semicolons keep the REPL from reading "println(...) { ... }" as one call.
        script += [f'println("=== case {number}");', "{", body, "};"]
    script += ['println("=== end")', "System.exit(0)"]
    path = Path(tempfile.mkdtemp()) / "snippets.scala"
    path.write_text("\n".join(script))
    done = subprocess.run([str(home / "bin" / "spark-shell"), "--master", "local[1]", "--conf", "spark.ui.enabled=false",
                           "-i", str(path)], capture_output=True, text=True, timeout=600, check=False,
                          stdin=subprocess.DEVNULL, env={**os.environ, "SPARK_HOME": str(home)})
    assert "=== end" in done.stdout, (done.stdout[-3000:], done.stderr[-3000:])
    outputs = done.stdout.split("=== case ")[1:]
    assert len(outputs) == len(CASES)
    for case, snip, output in zip(CASES, snippets, outputs, strict=True):
        printed = _printed("\n".join(output.splitlines()[1:]).split("=== end")[0])
        assert set(printed) == set(snip.prints), (case, output)
        row = library_values(*case).loc["Spark MLlib"]
        for name, metric in snip.prints.items():
            expected = row[metric]
            assert (math.isnan(printed[name]) and math.isnan(expected)) or abs(printed[name] - expected) <= 1e-9, (
                case, name, printed[name], expected)
