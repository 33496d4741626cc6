"""``python -m metrics offpolicy``: each estimator's value, interval and the ESS as JSON, computed as
offpolicy.estimators computes them; every bad input refused with its row and the reason, exit code 4 and no
traceback, through a real subprocess as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from offpolicy import estimators
from receval import cli

ROOT = Path(__file__).resolve().parents[1]

LOG = "context,action,reward,propensity\nu1,a,1,0.5\nu1,b,0,0.5\nu2,a,1,0.25\nu2,b,0,0.75\nu2,a,0,0.25\n"
TARGET = "context,action,probability\nu1,a,1\nu1,b,0\nu2,a,0.5\nu2,b,0.5\n"


def offpolicy(folder: Path, log: str = LOG, target: str = TARGET, *extra: str, log_name: str = "log.csv"):
    (folder / log_name).write_text(log) if isinstance(log, str) else None
    (folder / "target.csv").write_text(target)
    done = subprocess.run([sys.executable, "-m", "metrics", "offpolicy", "--log", str(folder / log_name),
                           "--target", str(folder / "target.csv"), *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def test_the_json_holds_each_estimator_its_interval_and_the_effective_sample_size(tmp_path):
    done = offpolicy(tmp_path, LOG, TARGET, "--clip", "3")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    reward = np.array([1, 0, 1, 0, 0.0])
    weight = np.array([1 / 0.5, 0 / 0.5, 0.5 / 0.25, 0.5 / 0.75, 0.5 / 0.25])
    assert found["rounds"] == 5 and found["tau"] == 3.0
    assert found["effective_sample_size"] == pytest.approx(float(estimators.effective_sample_size(weight)))
    ips = estimators.ips(reward, weight)
    assert found["estimates"]["ips"] == pytest.approx({"value": ips.value, "low": ips.low, "high": ips.high,
                                                       "standard_error": ips.standard_error})
    assert found["estimates"]["snips"]["value"] == pytest.approx((weight * reward).sum() / weight.sum())
    # q̂: the log's mean reward per action, a = 2/3, b = 0; DM = mean over rounds of Σ_a π(a|x) q̂(a)
    dm_terms = np.array([2 / 3, 2 / 3, 1 / 3, 1 / 3, 1 / 3])
    assert found["estimates"]["dm"]["value"] == pytest.approx(dm_terms.mean())
    q_logged = np.array([2 / 3, 0.0, 2 / 3, 0.0, 2 / 3])
    assert found["estimates"]["dr"]["value"] == pytest.approx((dm_terms + weight * (reward - q_logged)).mean())
    assert set(found["estimates"]) == set(estimators.ESTIMATORS)


def test_a_log_the_target_gives_no_weight_prints_nulls_not_invalid_json(tmp_path):
    done = offpolicy(tmp_path, "context,action,reward,propensity\nu1,b,1,0.5\n", TARGET)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)  # strict JSON: NaN would not parse in most readers
    assert found["effective_sample_size"] is None and found["estimates"]["snips"]["value"] is None
    assert "NaN" not in done.stdout


def test_parquet_files_and_a_choice_of_estimators(tmp_path):
    pd.read_csv(pd.io.common.StringIO(LOG)).to_parquet(tmp_path / "log.parquet")
    done = offpolicy(tmp_path, None, TARGET, "--estimators", "ips", "snips", log_name="log.parquet")
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)["estimates"]) == {"ips", "snips"}


def test_a_log_with_positions_makes_each_action_and_position_an_arm_of_the_reward_model(tmp_path):
    log = ("context,action,reward,propensity,position\nu1,a,1,0.5,1\nu1,b,0,0.5,2\nu2,a,1,0.25,1\n"
           "u2,b,0,0.75,2\nu2,a,0,0.25,2\n")
    done = offpolicy(tmp_path, log, TARGET, "--estimators", "dm", "dr", "ips")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)["estimates"]
    # q̂(a,1) = 1, q̂(a,2) = 0, q̂(b,2) = 0, q̂(b,1) unseen: the log's mean 0.4
    dm_terms = [1.0, 0.0, 0.5 + 0.5 * 0.4, 0.0, 0.0]
    assert found["dm"]["value"] == pytest.approx(np.mean(dm_terms))
    assert found["dr"]["value"] == pytest.approx(np.mean(dm_terms))  # every logged arm's residuals sum to zero
    assert found["ips"]["value"] == pytest.approx(np.mean([2.0, 0.0, 2.0, 0.0, 0.0]))


BAD = {
    "propensity zero": (LOG.replace("u1,b,0,0.5", "u1,b,0,0"), TARGET,
                        r"line 3: propensity 0\.0 is outside \(0, 1\]"),
    "propensity above one": (LOG.replace("u1,b,0,0.5", "u1,b,0,1.5"), TARGET,
                             r"line 3: propensity 1\.5 is outside \(0, 1\]: a probability is at most 1"),
    "unscored action": (LOG + "u1,c,1,0.2\n", TARGET, r"line 7: the target file never scores action 'c' for context 'u1'"),
    "missing column": (LOG.replace("propensity", "prop"), TARGET, r"missing column 'propensity' \(found columns: "
                       r"'context', 'action', 'reward', 'prop'\)"),
    "probabilities off": (LOG, TARGET.replace("u2,b,0.5", "u2,b,0.4"),
                          r"context 'u2' \(line 4\): its probabilities sum to 0\.9, not 1"),
    "missing context": (LOG + "u3,a,1,0.5\n", TARGET, r"line 7: context 'u3' is not in the target file"),
    "reward not a number": (LOG.replace("u2,a,1,0.25", "u2,a,yes,0.25"), TARGET, r"line 4: reward 'yes' is not a finite number"),
    "propensity empty": (LOG.replace("u2,a,1,0.25", "u2,a,1,"), TARGET, r"line 4: propensity is empty or NaN"),
    "empty log": ("context,action,reward,propensity\n", TARGET, r"the log file has no data rows"),
    "repeated target pair": (LOG, TARGET + "u1,a,0\n", r"the target file's line 6: context 'u1' and action 'a' appear twice"),
}


@pytest.mark.parametrize("name", BAD)
def test_every_bad_input_is_refused_with_its_row_and_reason(tmp_path, name):
    log, target, message = BAD[name]
    done = offpolicy(tmp_path, log, target)
    assert done.returncode == 4, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("error: ") and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert __import__("re").search(message, done.stderr), done.stderr


def test_a_missing_file_and_a_bad_clip_have_their_own_exit_codes(tmp_path):
    (tmp_path / "target.csv").write_text(TARGET)
    done = subprocess.run([sys.executable, "-m", "metrics", "offpolicy", "--log", str(tmp_path / "nope.csv"),
                           "--target", str(tmp_path / "target.csv")], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 3 and "cannot be opened" in done.stderr and "Traceback" not in done.stderr
    assert offpolicy(tmp_path, LOG, TARGET, "--clip", "0").returncode == 2


def test_the_command_s_estimator_names_are_the_engine_s():
    assert cli.OFFPOLICY_ESTIMATORS == estimators.ESTIMATORS
