"""``python -m metrics protocol``: every model's hyperparameters set with ``--param`` and refused, when wrong,
with one line and exit code 2 before any data is read; the JSON names every value each model ran with; the
per-user file under sampled candidates holds each user's sampled and expected values, recomputed here from
the ranks with scipy's own distributions.

Runs in process (``receval.cli.main``) on a small synthetic log, and through a real subprocess where the
absence of a traceback is the point."""

from __future__ import annotations

import io
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from protocols import cli as protocol_cli
from protocols import lab, models, movielens
from receval import cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "protocol-lab.md"


@pytest.fixture(scope="module")
def log_file(tmp_path_factory) -> Path:
    """60 users, 80 items, about 1,400 interactions with timestamps: every model trains in well under a second."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"user": rng.integers(0, 60, 1500), "item": rng.integers(0, 80, 1500),
                          "timestamp": rng.integers(0, 1000, 1500)}).drop_duplicates(["user", "item"])
    path = tmp_path_factory.mktemp("protocol_cli") / "log.csv"
    frame.to_csv(path, index=False)
    return path


def protocol(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return cli.main(["protocol", *argv], out=out), out.getvalue()


def as_json(log_file: Path, *argv: str) -> dict:
    code, text = protocol("--data", str(log_file), "--format", "json", *argv)
    assert code == 0
    return json.loads(text)


# ---------------------------------------------------------------- refused, with one line and exit code 2

REFUSED = {
    "no equals sign": (["ease.l2"], "--param 'ease.l2': expected MODEL.KEY=VALUE, e.g. ease.l2=250"),
    "no dot": (["ease=250"], "--param 'ease=250': expected MODEL.KEY=VALUE, e.g. ease.l2=250"),
    "no value": (["ease.l2="], "--param 'ease.l2=': expected MODEL.KEY=VALUE, e.g. ease.l2=250"),
    "unknown model": (["bpr.l2=3"], "--param 'bpr.l2=3': unknown model 'bpr'; choose from random, pop, itemknn, "
                                    "ease, mf"),
    "unknown key": (["ease.lambda=3"], "--param 'ease.lambda=3': ease has no hyperparameter 'lambda'; "
                                       "valid keys: l2"),
    "unknown key lists every valid key": (
        ["mf.rank=3"], "--param 'mf.rank=3': mf has no hyperparameter 'rank'; valid keys: factors, regularization, "
                       "alpha, iterations"),
    "a model without hyperparameters": (["pop.alpha=1"], "--param 'pop.alpha=1': pop has no hyperparameters"),
    "negative l2": (["ease.l2=-1"], "--param 'ease.l2=-1': ease.l2 must be a number > 0, got '-1'"),
    "zero l2": (["ease.l2=0"], "--param 'ease.l2=0': ease.l2 must be a number > 0, got '0'"),
    "infinite l2": (["ease.l2=inf"], "--param 'ease.l2=inf': ease.l2 must be a number > 0, got 'inf'"),
    "not a number": (["ease.l2=much"], "--param 'ease.l2=much': ease.l2 must be a number > 0, got 'much'"),
    "zero neighbours": (["itemknn.neighbours=0"],
                        "--param 'itemknn.neighbours=0': itemknn.neighbours must be an integer >= 1, got '0'"),
    "fractional neighbours": (["itemknn.neighbours=2.5"], "--param 'itemknn.neighbours=2.5': itemknn.neighbours "
                                                          "must be an integer >= 1, got '2.5'"),
    "negative shrink": (["itemknn.shrink=-0.5"],
                        "--param 'itemknn.shrink=-0.5': itemknn.shrink must be a number >= 0, got '-0.5'"),
    "a model not run": (["mf.factors=8"], "--param 'mf.factors=8': mf is not among the models run "
                                          "(pop,itemknn,ease); add it to --models or leave out the --param"),
    "the same key twice": (["ease.l2=250", "ease.l2=300"], "--param 'ease.l2=300': ease.l2 is already set by "
                                                           "--param 'ease.l2=250'; give each key once"),
}


@pytest.mark.parametrize(("params", "message"), REFUSED.values(), ids=REFUSED.keys())
def test_a_wrong_param_is_one_line_and_exit_code_2_before_any_data_is_read(params, message, capsys):
    # the data does not exist: reading it would exit 1 with another message
    argv = ["--data", "/nonexistent/log.csv", "--models", "pop,itemknn,ease"]
    code, out = protocol(*argv, *[part for param in params for part in ("--param", param)])
    err = capsys.readouterr().err
    assert (code, out) == (2, "")
    assert err == f"error: {message}\n"
    assert cli.EXIT_CODES[2].startswith("the command line is wrong")


def test_a_wrong_param_prints_no_traceback_through_either_name_of_the_command(log_file):
    for package in ("metrics", "receval"):
        done = subprocess.run([sys.executable, "-m", package, "protocol", "--data", str(log_file), "--models", "ease",
                               "--param", "ease.l2=-3"], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == "error: --param 'ease.l2=-3': ease.l2 must be a number > 0, got '-3'\n"


def test_the_help_lists_every_models_hyperparameters_with_defaults_and_ranges():
    text = protocol_cli._params_help()
    for name in models.MODELS:
        for key, spec in models.hyperparameters(name).items():
            assert f"{key} (default {spec.default:g}, {spec.allowed()})" in text


# ---------------------------------------------------------------- the values a model runs with


def test_the_models_table_is_their_dataclass_defaults_and_covers_the_tuning_grids():
    assert models.defaults("ease") == {"l2": models.EASE().l2} == {"l2": 500.0}
    assert models.defaults("itemknn") == {"neighbours": 100, "shrink": 10.0}
    assert models.defaults("pop") == models.defaults("random") == {}  # random's seed is the protocol's
    for name, grid in models.GRIDS.items():
        assert set(grid) <= set(models.hyperparameters(name)), name
        for key, values in grid.items():  # every value tried is one --param accepts, of the same type
            assert all(models.hyperparameters(name)[key].parse(str(value)) == value for value in values)


def test_an_untuned_run_reports_each_models_defaults(log_file):
    found = as_json(log_file, "--models", "random,pop,itemknn,ease,mf")
    assert {name: entry["params"] for name, entry in found["models"].items()} == {
        "random": {}, "pop": {},
        "itemknn": {"neighbours": 100, "shrink": 10.0}, "ease": {"l2": 500.0},
        "mf": {"factors": 64, "regularization": 0.05, "alpha": 2.0, "iterations": 15}}
    assert {name: entry["params"] for name, entry in found["models"].items()} == {
        name: models.defaults(name) for name in models.MODELS}


def test_a_param_changes_the_result_and_the_json_shows_it(log_file):
    argv = ("--models", "pop,ease", "--split", "random")
    default = as_json(log_file, *argv)["models"]
    small = as_json(log_file, *argv, "--param", "ease.l2=1")["models"]
    large = as_json(log_file, *argv, "--param", "ease.l2=20000")["models"]
    assert (default["ease"]["params"], small["ease"]["params"], large["ease"]["params"]) == (
        {"l2": 500.0}, {"l2": 1.0}, {"l2": 20000.0})
    ndcg = [run["ease"]["means"]["ndcg@10"] for run in (default, small, large)]
    assert len(set(ndcg)) == 3, ndcg
    assert small["pop"] == default["pop"]  # a param of one model leaves the others alone
    # and it is what the engine gives with that value
    expected = lab.run(protocol_cli._data(str(log_file)), lab.Protocol(split="random"), ["ease"],
                       params={"ease": {"l2": 1.0}}).table().loc["ease", "ndcg@10"]
    assert small["ease"]["means"]["ndcg@10"] == pytest.approx(expected)


def test_several_params_of_several_models_and_the_text_output_names_them(log_file):
    code, text = protocol("--data", str(log_file), "--models", "itemknn,ease", "--param", "ease.l2=250",
                          "--param", "itemknn.neighbours=5", "--param", "itemknn.shrink=0")
    assert code == 0
    assert text.splitlines()[-1] == "hyperparameters: itemknn neighbours=5, shrink=0; ease l2=250"


def test_a_tuned_run_reports_the_tuned_values_and_keeps_the_ones_set(log_file):
    found = as_json(log_file, "--models", "pop,itemknn,mf", "--tuned", "--param", "mf.factors=8",
                    "--param", "itemknn.neighbours=7")["models"]
    assert found["pop"]["params"] == {}
    knn, mf = found["itemknn"]["params"], found["mf"]["params"]
    assert knn["neighbours"] == 7 and knn["shrink"] in models.GRIDS["itemknn"]["shrink"]
    assert mf["factors"] == 8 and mf["iterations"] == 15  # set; not in the grid, so the default
    assert mf["alpha"] in models.GRIDS["mf"]["alpha"] and mf["regularization"] in models.GRIDS["mf"]["regularization"]


def test_the_engine_refuses_params_the_command_line_would_refuse(log_file):
    frame = protocol_cli._data(str(log_file))
    with pytest.raises(ValueError, match="ease.l2 must be a number > 0"):
        lab.run(frame, lab.Protocol(), ["ease"], params={"ease": {"l2": -1.0}})
    with pytest.raises(ValueError, match="valid keys: l2"):
        lab.run(frame, lab.Protocol(), ["ease"], params={"ease": {"lambda": 1.0}})
    with pytest.raises(ValueError, match="mf, which is not among the models run"):
        lab.run(frame, lab.Protocol(), ["ease"], params={"mf": {"factors": 8}})


# ---------------------------------------------------------------- per-user values under sampled candidates

SAMPLED = ("full_hit_rate", "full_ndcg", "sampled_hit_rate", "sampled_ndcg", "expected_hit_rate", "expected_ndcg")


def _recomputed(pairs: pd.DataFrame, k: int, how: str) -> pd.DataFrame:
    """Each user's sampled and expected HR@K and NDCG@K from the pairs' ranks, written out with scipy's
    distributions: the sampled rank - 1 is Hypergeometric(M - 1, r - 1, N) (uniform) or Binomial(N, share
    above) (popular), M the user's unseen items plus one and r the full rank."""
    rows = []
    for pair in pairs.itertuples():
        j = np.arange(k)
        if how == "uniform":
            pmf = stats.hypergeom(pair.candidates - 1, pair.full_rank - 1, pair.negatives).pmf(j)
        else:
            pmf = stats.binom(pair.negatives, pair.share_above).pmf(j)
        gain = 1 / np.log2(j + 2)
        rows.append({"user": pair.user, "sampled_hit_rate": float(pair.sampled_rank <= k),
                     "sampled_ndcg": gain[pair.sampled_rank - 1] if pair.sampled_rank <= k else 0.0,
                     "full_hit_rate": float(pair.full_rank <= k),
                     "full_ndcg": gain[pair.full_rank - 1] if pair.full_rank <= k else 0.0,
                     "expected_hit_rate": pmf.sum(), "expected_ndcg": pmf @ gain})
    return pd.DataFrame(rows).groupby("user").mean()


@pytest.mark.parametrize("candidates", ["uniform:20", "popular:15"])
def test_the_per_user_file_under_sampled_candidates_holds_each_users_sampled_and_expected_values(
        log_file, tmp_path, candidates):
    out = tmp_path / "per_user.csv"
    found = as_json(log_file, "--models", "pop,itemknn", "--candidates", candidates, "-k", "5",
                    "--per-user", str(out))["models"]
    per_user = pd.read_csv(out, dtype={"user": str})  # the command reads ids as text
    extra = ("corrected_hit_rate", "corrected_ndcg") if candidates.startswith("uniform") else ()
    assert list(per_user.columns[:2]) == ["model", "user"]
    assert set(per_user.columns) >= {*SAMPLED, *extra, "ndcg@5", "hit_rate@5"}
    assert ("corrected_ndcg" in per_user.columns) == bool(extra)
    how = candidates.partition(":")[0]
    frame = protocol_cli._data(str(log_file))
    result = lab.run(frame, lab.Protocol(candidates=candidates, k=5), ["pop", "itemknn"])
    for name in ("pop", "itemknn"):
        rows = per_user[per_user["model"] == name].set_index("user")
        # every column of the file averages to the JSON's value of the same name (the table averages users)
        for column in (*SAMPLED, *extra, "ndcg@5", "hit_rate@5"):
            assert rows[column].mean() == pytest.approx(found[name]["means"][column], rel=1e-12), (name, column)
        # and each user's values are those of its held-out items' ranks under the sampling distribution
        again = _recomputed(result.models[name].pairs, 5, how)
        assert set(again.index) <= set(rows.index)
        for column in SAMPLED:
            np.testing.assert_allclose(rows.loc[again.index, column].to_numpy(), again[column].to_numpy(),
                                       rtol=1e-9, atol=1e-12, err_msg=f"{name} {column}")
        # a user without a held-out item in the catalogue has no sampled value, rather than a zero
        assert rows.drop(index=again.index)[list(SAMPLED)].isna().all().all()


def test_the_per_user_file_on_the_full_catalogue_keeps_its_columns(log_file, tmp_path):
    out = tmp_path / "per_user.csv"
    code, _ = protocol("--data", str(log_file), "--models", "pop", "--per-user", str(out))
    assert code == 0
    assert list(pd.read_csv(out).columns) == ["model", "user", "precision@10", "recall@10", "f1@10", "hit_rate@10",
                                              "average_precision@10", "ndcg@10", "reciprocal_rank"]


def test_a_per_user_file_that_cannot_be_written_is_one_line_and_exit_code_3(log_file, tmp_path, capsys):
    code, _ = protocol("--data", str(log_file), "--models", "pop", "--per-user", str(tmp_path / "no" / "x.csv"))
    assert code == 3 and cli.EXIT_CODES[3].startswith("a file cannot be opened")
    err = capsys.readouterr().err
    assert err.startswith(f"error: cannot write the per-user file {tmp_path / 'no' / 'x.csv'}: ")
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err


# ---------------------------------------------------------------- the manual's commands


def _documented_commands() -> list[list[str]]:
    """The manual's ``python -m metrics protocol`` lines, as arguments of ``python -m metrics``."""
    text = DOCS.read_text()
    return [shlex.split(line)[3:] for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S)
            for line in block.splitlines() if line.startswith("python -m metrics protocol ")]


def test_every_command_of_the_manual_is_one_the_parser_accepts():
    commands = _documented_commands()
    assert len(commands) >= 4 and any("--param" in argv for argv in commands)
    for argv in commands:
        args = cli.build_parser().parse_args(argv)  # an unknown option would exit 2
        protocol_cli.parse_params(args.protocol_params, args.models)


def _ml100k_installed() -> bool:
    try:
        return movielens.installed_ml100k_path().is_file()
    except movielens.DataUnavailable:
        return False


@pytest.mark.skipif(not _ml100k_installed(), reason="ML-100K is not installed (recbole)")
def test_the_manuals_param_command_runs_on_ml100k_and_reports_what_it_set(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = next(argv for argv in _documented_commands() if "--param" in argv and "ml-100k" in argv)
    out = io.StringIO()
    assert cli.main(argv, out=out) == 0
    text = out.getvalue()
    if "--format" in argv:
        found = json.loads(text)
        args = cli.build_parser().parse_args(argv)
        for name, values in protocol_cli.parse_params(args.protocol_params, args.models).items():
            assert found["models"][name]["params"].items() >= values.items()


def test_the_manuals_table_of_hyperparameters_is_the_models_own():
    rows = re.findall(r"^  \| `(\w+)` \| `(\w+)` \| ([\d.]+) \| (.+?) \|$", DOCS.read_text(), flags=re.M)
    assert {(name, key): (float(default), allowed) for name, key, default, allowed in rows} == {
        (name, key): (float(spec.default), spec.allowed())
        for name in models.MODELS for key, spec in models.hyperparameters(name).items()}
