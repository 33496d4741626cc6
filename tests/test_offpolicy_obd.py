"""The Open Bandit Dataset from obp's source archive: obp's README figure reproduced within its Monte Carlo
error (exactly, in fact), Bernoulli TS's draws made as obp makes them, and the archive's licence read.

The archive comes from ``pip download --no-deps --ignore-requires-python obp==0.5.7 -d DIR`` (.ci/run does it
and sets RECEVAL_OBP_SOURCE). Without it these tests skip, saying so; under CI=true they fail instead."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from offpolicy import obd


@pytest.fixture(scope="module")
def source():
    try:
        return obd.find_source()
    except obd.SourceUnavailable as error:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must have obp's archive: {error}")
        pytest.skip(str(error))


@pytest.fixture(scope="module")
def reproduction(source):
    return obd.reproduce(source)


def test_obp_readme_figure_is_reproduced_within_its_monte_carlo_error(reproduction):
    assert reproduction.n_sim == 100_000
    assert 0 < reproduction.monte_carlo_error < 0.01
    assert abs(reproduction.relative_value - obd.README_VALUE) < 3 * reproduction.monte_carlo_error
    assert round(reproduction.relative_value, 6) == obd.README_VALUE  # the same draws: the same digits
    # What our README and docs/off-policy.md state: the figure and its Monte Carlo error.
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert f"**{reproduction.relative_value:.4f}** (obp: {obd.README_VALUE};" in readme
    assert f"Monte Carlo error {reproduction.monte_carlo_error:.4f}" in readme


def test_each_estimate_is_set_against_the_bts_logs_on_policy_click_rate(reproduction):
    table = reproduction.estimates
    assert set(table.index) == {"ips", "snips", "dm", "dr"}
    assert reproduction.bts_mean_click == pytest.approx(0.0042, abs=5e-5)
    assert reproduction.random_mean_click == pytest.approx(0.0038, abs=5e-5)
    ratio = table["value"] / reproduction.bts_mean_click
    assert np.allclose(table["relative_to_bts_on_policy"], ratio)
    weighted = table.loc[["ips", "snips", "dr"]]
    assert (weighted["low"] < reproduction.bts_mean_click).all() and (weighted["high"] > reproduction.bts_mean_click).all()
    # DM's interval covers the sampling of rounds only, never the model's error: far narrower than DR's
    assert table.loc["dm", "high"] - table.loc["dm", "low"] < 0.1 * (table.loc["dr", "high"] - table.loc["dr", "low"])
    assert table.loc["dr", "value"] == pytest.approx(table.loc["dm", "value"])  # constant propensity per arm


def test_bulk_draws_are_obp_s_one_call_per_simulation(source):
    alpha, beta = obd.bts_prior(source)
    assert alpha.shape == beta.shape == (80,)
    state = np.random.RandomState(12345)  # obp: select_action draws random_.beta(a, b) once per simulation
    by_calls = np.array([state.beta(alpha, beta).argsort()[::-1][:3] for _ in range(500)])
    assert np.array_equal(obd.bts_rankings(alpha, beta, 3, n_sim=500), by_calls)


def test_the_logs_are_read_as_obp_reads_them(source):
    logs = obd.read_logs(source, "random", "all")
    assert (logs.n_actions, logs.len_list, len(logs.reward)) == (80, 3, 10_000)
    assert set(np.unique(logs.position)) == {0, 1, 2}
    assert ((logs.propensity > 0) & (logs.propensity <= 1)).all()


def test_the_archive_s_licence_is_apache_2_0(source):
    assert obd.licence(source) == "Apache License"
    assert "Version 2.0" in obd.read_member(source, "LICENSE").decode()


def test_the_unpacked_source_folder_reads_as_the_archive_does(source, tmp_path):
    import tarfile

    if source.is_dir():
        pytest.skip("the source given is a folder already")
    with tarfile.open(source) as archive:
        archive.extractall(tmp_path, filter="data")
    folder = obd.find_source(tmp_path / "obp-0.5.7")
    by_folder, by_archive = obd.read_logs(folder, "bts", "all"), obd.read_logs(source, "bts", "all")
    assert np.array_equal(by_folder.reward, by_archive.reward) and np.array_equal(by_folder.action, by_archive.action)
    assert all(np.array_equal(a, b) for a, b in zip(obd.bts_prior(folder), obd.bts_prior(source), strict=True))


def test_a_folder_without_the_archive_is_refused_with_the_download_command(tmp_path):
    with pytest.raises(obd.SourceUnavailable, match="holds neither .*pip download --no-deps"):
        obd.find_source(tmp_path)
    with pytest.raises(obd.SourceUnavailable, match="does not exist"):
        obd.find_source(tmp_path / "nope.tar.gz")
