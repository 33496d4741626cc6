"""The shipped table of model B's tuned qualities is what the bisection finds, so the Compare page's
synthetic pair is the same whether it is tuned afresh or read from the table."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

from whole_logs import synthetic_pair as sp


def test_the_shipped_qualities_equal_a_fresh_bisection():
    assert sp.tuned_qualities() == sp.tune_shipped()


def test_the_pair_built_from_the_table_equals_the_bisected_one():
    shipped, bisected = sp.synthetic_pair(0.01), sp.synthetic_pair(0.01, use_tuned=False)
    for name in ("recommendations_a", "recommendations_b", "ground_truth", "categories"):
        left, right = getattr(shipped, name), getattr(bisected, name)
        (pd.testing.assert_series_equal if isinstance(left, pd.Series) else pd.testing.assert_frame_equal)(left, right)
    assert (shipped.quality_b, shipped.true_delta) == (bisected.quality_b, bisected.true_delta)
    assert shipped.true_delta == pytest.approx(0.01, abs=1e-4)


def test_settings_not_in_the_table_are_still_bisected():
    pair = sp.synthetic_pair(0.02, users=500, seed=5)
    assert sp._tuned_key(0.02, 500, 20, 5, 0.5, 10, 0.7, 5) not in sp.tuned_qualities()
    assert pair.quality_b == sp.synthetic_pair(0.02, users=500, seed=5, use_tuned=False).quality_b
    assert pair.true_delta == pytest.approx(0.02, abs=1e-3)  # 500 users: NDCG moves in steps


def test_the_paired_t_test_and_the_power_do_not_load_scipy_stats():
    """scipy.stats takes seconds to import: the Compare page's default answer must not wait for it."""
    code = ("import sys; import numpy as np, pandas as pd; from whole_logs import significance as s; "
            "i = pd.Index(range(50), name='user'); a = pd.DataFrame({'m': np.linspace(0, 1, 50)}, index=i); "
            "b = a + np.sin(np.arange(50))[:, None] / 9; s.compare(a, b); s.users_needed(a, b, 'm', delta=0.01); "
            "print('scipy.stats' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"


@pytest.mark.parametrize("sample", [1, 999, 1000, 1500, 20_000])
def test_an_experiment_is_the_first_users_of_the_whole_population(sample):
    """The Compare page builds only the blocks an experiment's users fall in: the same users, the
    same logs and the whole population's true difference as when all 20,000 are built."""
    whole, part = sp.synthetic_pair(0.02), sp.experiment(0.02, sample)
    for left, right in zip(whole.sample(sample), part.sample(sample), strict=True):
        pd.testing.assert_frame_equal(left, right)
    assert (part.true_delta, part.quality_b) == (whole.true_delta, whole.quality_b)
    pd.testing.assert_series_equal(part.categories, whole.categories)


def test_an_experiment_on_settings_not_in_the_table_is_bisected_on_its_population():
    part, whole = sp.experiment(0.02, 100, users=400, seed=3), sp.synthetic_pair(0.02, users=400, seed=3)
    assert part.true_delta == whole.true_delta
    pd.testing.assert_frame_equal(part.recommendations_a, whole.sample(100)[0])
