"""What a run leaves in the attempt file, and the interview clock's minutes and seconds."""

import json

from kata.attempts import minutes_and_seconds, verdict_record
from kata.judge import Failure, Result


def test_a_passing_run_is_kept_with_its_counts_seed_and_time():
    record = verdict_record(Result(passed=200, total=200, error=None, failure=None, stdout="hi\n", seed=7),
                            "2026-12-07T21:00:00+00:00")
    assert record == {"passed": 200, "total": 200, "error": None, "stdout": "hi\n", "at": "2026-12-07T21:00:00+00:00",
                      "seed": 7, "ok": True, "failure": None}


def test_a_failing_case_keeps_its_inputs_as_typed_and_survives_json():
    failure = Failure(inputs={"recommended": (1, 2), "k": 2}, expected=0.5, got=1.0, matches="ap_denominator=hits",
                      shrunk_from=3)
    record = verdict_record(Result(passed=3, total=200, error=None, failure=failure, stdout=""), "now")
    assert not record["ok"]
    assert record["failure"] == {"inputs": "{'recommended': (1, 2), 'k': 2}", "expected": 0.5, "got": 1.0,
                                 "matches": "ap_denominator=hits", "shrunk_from": 3}
    assert json.loads(json.dumps(record)) == record


def test_the_clock_drops_the_fraction_and_carries_the_minutes():
    assert minutes_and_seconds(0.9) == (0, 0)
    assert minutes_and_seconds(59.99) == (0, 59)
    assert minutes_and_seconds(125.5) == (2, 5)
