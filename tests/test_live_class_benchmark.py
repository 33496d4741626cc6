"""benchmarks/live_class.py never crashes: a server that does not answer gives counted errors and a summary; a small
class with the teacher in Chromium loses nothing, and each phone's verdict on its own list is checked."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def benchmark():
    spec = importlib.util.spec_from_file_location("live_class_benchmark", ROOT / "benchmarks" / "live_class.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_against_a_port_nobody_listens_on_reports_errors_and_exits_cleanly(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    out = subprocess.run([sys.executable, "benchmarks/live_class.py", "--port", str(port), "--students", "3",
                          "--timeout", "1", "--idle", "0", "--runs", "2", "--database",
                          f"sqlite:///{tmp_path / 'live.db'}"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "Traceback" not in out.stderr + out.stdout, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("3 students") and "0 screens" in lines[0] and "idle class: not measured" in lines[0]
    assert "stream: ConnectionRefusedError" in out.stdout
    assert lines[-1].startswith("median of 2 runs")


def test_the_console_mode_against_a_port_nobody_listens_on_reports_errors_and_exits_cleanly(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = subprocess.run([sys.executable, "benchmarks/live_class.py", "--teacher", "console", "--port", str(port),
                          "--students", "3", "--timeout", "2", "--idle", "0", "--database",
                          f"sqlite:///{tmp_path / 'live.db'}"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "Traceback" not in out.stderr + out.stdout, out.stderr
    assert out.stdout.startswith("3 students, teacher in Chromium") and "console: no class started" in out.stdout


def test_a_phones_check_of_its_own_list_and_verdict_fails_when_the_server_is_wrong():
    """What each phone checks on the question with a list per student, against answers built as the server builds
    them (classroom.web.screen.own): a right one passes; a verdict meant for another answer, or another student's
    list, is caught."""
    from classroom import variants
    from classroom.web import screen

    bench = benchmark()
    _title, _text, _key, step = bench.variant_lesson()
    mine = variants.draw(step.lesson_step, "seed", "me", step.question_id)
    own = bench.OwnList()
    assert own.read(screen.own(step, mine, "open", None, step.question_id), step, "seed", "me") is None
    right, *_ = variants.truth(step.lesson_step, mine)
    assert bench.close(own.value, right)
    labels = variants.options(step.lesson_step, mine)
    good = next(v for v in labels if bench.close(float(v), right))
    bad = next(v for v in labels if not bench.close(float(v), right))

    def verdict(scenario, sent):
        return screen.own(step, scenario, "revealed", sent, step.question_id)
    for sent in (good, bad, None):
        assert bench.verdict_problem(sent, own.value, verdict(mine, sent)) is None
    assert bench.verdict_problem(bad, own.value, verdict(mine, good))
    assert bench.verdict_problem(good, own.value, verdict(mine, bad))
    other = next(s for s in (variants.draw(step.lesson_step, "seed", f"other {n}", step.question_id) for n in range(9))
                 if not bench.close(variants.truth(step.lesson_step, s)[0], right))
    assert bench.verdict_problem(good, own.value, verdict(other, good))
    assert bench.OwnList().read(screen.own(step, other, "open", None, step.question_id), step, "seed", "me")


def test_a_small_class_with_the_teacher_in_chromium_loses_nothing(tmp_path):
    """The README's mode end to end: Chromium presses Start, Next, Lock, Reveal and Back; five phones join
    through the join route from addresses of their own and follow the event stream (6 Next, 1 Lock and 1 Back:
    8 screens a phone; 2 reveals). Then the teacher picks the benchmark's lesson in the console's box and Next
    to its question with a list per student (2 screens a phone, 1 reveal): each phone asks for its own list,
    answers for it (the third a wrong option) and checks its own verdict, the database and the reveal's count."""
    out = subprocess.run([sys.executable, "benchmarks/live_class.py", "--teacher", "console", "--students", "5",
                          "--timeout", "30", "--idle", "0"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0 and "Traceback" not in out.stderr + out.stdout, out.stderr
    line, own = out.stdout.splitlines()[:2]
    assert line.startswith("5 students, teacher in Chromium, 1 process(es), SQLite"), out.stdout
    assert "(13 clicks)" in line and "(50 screens)" in line and "Reveal -> screen" in line and "(15)" in line, line
    assert "15 sent, 0 lost, 0 counted twice, 0 phones' reveal differed; 0 errors" in line, out.stdout
    assert "last answer -> console count never" not in line and "lesson " in line.rsplit("clicks in order", 1)[1]
    assert own.startswith("list per student, 5 phones: Next -> screen") and "(5 screens)" in own, out.stdout
    assert "GET mine (own list)" in own and " ms (5); Next -> own list" in own and "Reveal -> own verdict" in own, own
    assert ("5 verdicts checked (1 sent a wrong option), 0 not right for the phone's own list, 0 answers in the "
            "database differing, 0 reveals' count differing; server CPU Next -> every list: ") in own, out.stdout
