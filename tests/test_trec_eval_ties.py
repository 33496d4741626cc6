"""``--ties trec_eval --format trec -q`` equals trec_eval (through pytrec_eval) value for value on
runs full of tied scores; the other tie rules are what they say."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
import pytrec_eval

from whole_logs import batch
from receval import cli

MEASURES = {"P_5": "precision@5", "recall_5": "recall@5", "map_cut_5": "average_precision@5",
            "ndcg_cut_5": "ndcg@5", "recip_rank": "reciprocal_rank", "success_5": "hit_rate@5"}


def tied_run(seed: int):
    """Scores from four values (many ties); ids numeric-looking text or d-prefixed, so byte order matters."""
    rng = np.random.default_rng(seed)
    recs, truth = [], []
    for user in range(15):
        name = (lambda i: f"d{i}") if seed % 2 else str
        for item in rng.choice(60, rng.integers(1, 25), replace=False):
            recs.append((f"q{user}", name(item), float(rng.integers(0, 4)) / 2))
        for item in rng.choice(60, rng.integers(1, 10), replace=False):
            truth.append((f"q{user}", name(item), int(rng.integers(0, 4))))
    return pd.DataFrame(recs, columns=["user", "item", "score"]), pd.DataFrame(truth, columns=["user", "item", "relevance"])


def reference(recs: pd.DataFrame, truth: pd.DataFrame) -> dict:
    run, qrels = {}, {}
    for row in recs.itertuples():
        run.setdefault(row.user, {})[row.item] = row.score
    for row in truth.itertuples():
        qrels.setdefault(row.user, {})[row.item] = int(row.relevance)
    measures = {name.replace("_5", ".5") for name in MEASURES}
    return pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)


@pytest.mark.parametrize("seed", range(30))
def test_trec_eval_ties_equal_pytrec_eval_to_the_last_digit(seed):
    recs, truth = tied_run(seed)
    got = batch.evaluate(recs, truth, 5, ties="trec_eval", denominator="relevant")
    expected = reference(recs, truth)
    for user, values in expected.items():
        for name, column in MEASURES.items():
            assert got.loc[user, column] == pytest.approx(values[name], abs=1e-12), (user, name)


def test_item_ties_differ_from_trec_eval_on_such_runs():
    """The test above can fail: the default rule gives other numbers on the same runs."""
    differs = 0
    for seed in range(6):
        recs, truth = tied_run(seed)
        got = batch.evaluate(recs, truth, 5, denominator="relevant")
        expected = reference(recs, truth)
        differs += sum(abs(got.loc[u, "ndcg@5"] - v["ndcg_cut_5"]) > 1e-12 for u, v in expected.items())
    assert differs > 0


def test_format_trec_q_lines_equal_pytrec_eval(tmp_path):
    recs, truth = tied_run(3)
    with open(tmp_path / "run.trec", "w") as handle:
        for rank, row in enumerate(recs.itertuples(), start=1):
            handle.write(f"{row.user} Q0 {row.item} {rank} {row.score!r} tag\n")
    truth.to_csv(tmp_path / "truth.csv", index=False)
    out = io.StringIO()
    code = cli.main(["evaluate", "--recommendations", str(tmp_path / "run.trec"), "--ground-truth", str(tmp_path / "truth.csv"),
                     "-k", "5", "--ties", "trec_eval", "--format", "trec", "-q"], out=out)
    assert code == 0
    lines = [line.split("\t") for line in out.getvalue().splitlines()]
    assert lines[0] == ["num_q".ljust(22), "all", "15"]
    per_query = {(m.strip(), q): float(v) for m, q, v in lines[1:] if q != "all"}
    expected = reference(recs, truth)
    assert len(per_query) == 6 * len(expected)
    for user, values in expected.items():
        for name in MEASURES:
            assert f"{per_query[(name, user)]:.4f}" == f"{values[name]:.4f}", (user, name)
    means = {m.strip(): float(v) for m, q, v in lines[1:] if q == "all"}
    assert means["map_cut_5"] == pytest.approx(np.mean([v["map_cut_5"] for v in expected.values()]), abs=5e-5)


def test_input_ties_keep_the_file_order_and_trec_eval_compares_as_text():
    recs = pd.DataFrame({"user": ["u"] * 3, "item": [10, 9, 2], "score": [1.0, 1.0, 1.0]})
    truth = pd.DataFrame({"user": ["u"], "item": [9]})
    rr = {ties: batch.evaluate(recs, truth, 3, ties=ties).loc["u", "reciprocal_rank"] for ties in batch.TIES}
    # item: 2, 9, 10 (numbers by value); trec_eval: "9" > "2" > "10" (strcmp, descending); input: 10, 9, 2.
    assert rr == {"item": 0.5, "trec_eval": 1.0, "input": 0.5}


def test_format_trec_refuses_another_ap_denominator(tmp_path, capsys):
    code = cli.main(["evaluate", "--recommendations", "r.csv", "--ground-truth", "t.csv", "--format", "trec",
                     "--denominator", "min"])
    assert code == 2 and "map_cut" in capsys.readouterr().err


def test_library_lens_and_trap_scan_name_the_tie_option():
    from metrics.conventions import CONVENTIONS
    from content.your_data import TRAPS

    assert "--ties trec_eval" in CONVENTIONS["trec_eval"].notes and "--ties input" in CONVENTIONS["ranx"].notes
    assert "--ties trec_eval" in TRAPS["tied_scores"].app
