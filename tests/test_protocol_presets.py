"""Each preset of the protocol lab states, on ML-100K, what its paper found and what the page finds now:
every statement is checked here against the numbers it is written from, and the page runs in every language."""

from __future__ import annotations

import pandas as pd
import pytest

from content import i18n
from content.pages import protocols as words
from protocols import models, movielens, presets
from tests.conftest import run_page, texts

PAGE = "pages/22_Protocol_lab.py"


@pytest.fixture(scope="module")
def ml100k() -> pd.DataFrame:
    return movielens.installed_ml100k()


@pytest.fixture(scope="module")
def outcomes(ml100k):
    results = {}
    for key, preset in presets.PRESETS.items():
        runs = presets.run(preset, ml100k)
        results[key] = (runs, presets.finding(preset, runs))
    return results


def test_sampled_negatives_inflate_every_model_and_reorder_some(outcomes):
    (result, _), finding = outcomes["sampled_vs_full"]
    assert (finding["sampled"] > 4 * finding["full"]).all()
    assert finding["swaps"], "Krichene and Rendle's reordering did not show on ML-100K"
    # the pairs the page names are exactly those the two columns order differently
    for a, b in finding["swaps"]:
        assert (finding["full"][a] - finding["full"][b]) * (finding["sampled"][a] - finding["sampled"][b]) <= 0
    # the expected sampled value is the observed one up to sampling noise (943 users)
    assert (finding["expected"] - finding["sampled"]).abs().max() < 0.03
    text = words.sampled_finding(finding)
    assert f"at least {finding['inflation']:.1f} times" in text
    for a, b in finding["swaps"]:
        assert f"{words.model_name(a)} and {words.model_name(b)}" in text


def test_a_global_time_cut_trains_on_no_future_and_moves_the_models(outcomes):
    (leave_last, global_time), finding = outcomes["split_leak"]
    assert leave_last.split.counts["future_rows"] > 90_000 and global_time.split.counts["future_rows"] == 0
    assert finding["swaps"], "no model changed place between the two splits"
    text = words.split_finding(finding, leave_last.split.counts["future_rows"], 0)
    for name in finding["ranks_before"].index:
        before, after = finding["ranks_before"][name], finding["ranks_after"][name]
        assert (f"{words.model_name(name)} #{before} → #{after}" in text) == (before != after)


def test_tuning_on_a_validation_split_moves_the_matrix_factorisation_up(outcomes):
    (untuned, tuned), finding = outcomes["tuned_baselines"]
    assert finding["ranks_after"]["mf"] < finding["ranks_before"]["mf"]
    assert finding["after"]["mf"] > finding["before"]["mf"]
    # tuned from the grid (MF's factors are not its default's in the grid), the untuned run on the defaults
    assert tuned.models["ease"].params["l2"] in models.GRIDS["ease"]["l2"]
    assert tuned.models["mf"].params != models.defaults("mf") == untuned.models["mf"].params
    assert "Matrix factorisation (ALS) #3 → #2" in words.tuned_finding(finding)


def test_many_users_make_a_negligible_effect_significant(outcomes):
    (result, _), finding = outcomes["significant_but_small"]
    row = finding["row"]
    assert row["p_adjusted"] < 0.05 and abs(row["effect_size"]) < 0.2
    text = words.significance_finding("itemknn", "ease", "HR@10", 943, row)
    assert "(significant at 0.05)" in text and "a negligible effect" in text
    assert f"p = {row['p_adjusted']:.3f}" in text


@pytest.mark.parametrize("code", ["en", "tr", "zh", i18n.PSEUDO])
def test_the_page_opens_and_runs_a_preset_in_every_language(code):
    at = run_page(PAGE, lang=code, protocol_preset="significant_but_small")
    assert not at.dataframe  # nothing is trained before the reader asks
    at.button(key="protocol_run_significant_but_small").click().run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    assert at.dataframe and at.info
    if code == "tr":
        assert "0,05 düzeyinde anlamlı" in at.info[0].value
    if code == i18n.PSEUDO:
        from tests import pseudo

        assert pseudo.untranslated(at) == []


def test_a_protocol_of_the_readers_own_shows_its_sizes_and_offers_every_log_for_download():
    at = run_page(PAGE, lang="zh", protocol_preset="own")
    form_models = at.multiselect[0]
    form_models.set_value(["pop", "ease"])
    at.selectbox[1].set_value("global-time")
    at.button[0].click().run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    sizes = at.markdown[-1].value if "训练交互" in at.markdown[-1].value else next(
        m.value for m in at.markdown if "训练交互" in m.value)
    assert "79,999 条训练交互" in sizes and "192 个在训练集中没有交互的测试用户被排除" in sizes
    table = at.dataframe[0].value
    assert list(table.index) == ["最流行", "EASE"]
    assert table.loc["EASE", "NDCG@10"] == "0.1735"


QUOTED = 1.0001e-4
"""How far a measured number may be from docs/protocol-lab.md's four decimals: the last digit. The matrix
factorisation's scores go through BLAS, whose kernels differ from one CPU to the next, and 0.12885 can round either
way."""


def quoted(values) -> dict:
    """The values as docs/protocol-lab.md quotes them, each compared within its last digit."""
    return {name: pytest.approx(round(float(value), 4), abs=QUOTED) for name, value in values.items()}


def test_the_readmes_numbers_are_what_the_presets_measure(outcomes):
    """docs/protocol-lab.md's table of findings quotes these numbers (seed 0): a change in any of them must change
    it."""
    (_, _), sampled = outcomes["sampled_vs_full"]
    assert quoted(sampled["full"]) == {"pop": 0.0862, "itemknn": 0.1128, "ease": 0.1457, "mf": 0.1457}
    assert quoted(sampled["sampled"]) == {"pop": 0.4096, "itemknn": 0.6181, "ease": 0.6585, "mf": 0.6053}
    assert quoted(sampled["corrected"]) == {"pop": 0.0755, "itemknn": 0.1224, "ease": 0.1274, "mf": 0.1288}
    assert sampled["swaps"] == [("itemknn", "mf")] and sampled["corrected_swaps"] == []
    assert (sampled["expected"] - sampled["sampled"]).abs().max() < 0.011
    (leave_last, global_time), split = outcomes["split_leak"]
    assert (leave_last.split.counts["future_rows"], global_time.split.counts["cold_users"]) == (98_186, 192)
    assert split["ranks_before"].to_dict() == {"pop": 4, "itemknn": 3, "ease": 1, "mf": 2}
    assert split["ranks_after"].to_dict() == {"pop": 3, "itemknn": 2, "ease": 1, "mf": 4}
    assert (split["before"]["mf"], split["after"]["mf"]) == pytest.approx((0.0721, 0.1351), abs=QUOTED)
    (_, _), tuned = outcomes["tuned_baselines"]
    assert quoted(tuned["before"]) == {"pop": 0.216, "itemknn": 0.3943, "ease": 0.4456, "mf": 0.3574}
    assert quoted(tuned["after"][["itemknn", "ease", "mf"]]) == {"itemknn": 0.3901, "ease": 0.4456, "mf": 0.4091}
    (_, _), small = outcomes["significant_but_small"]
    row = small["row"]
    assert (round(row["mean_a"], 4), round(row["mean_b"], 4), round(row["p_adjusted"], 3),
            round(row["effect_size"], 2)) == (0.9, 0.9181, 0.035, 0.07)
    assert row["wins"] + row["ties"] + row["losses"] == 940


def test_readers_asking_for_the_same_protocol_share_one_run_and_see_rows_as_models_finish(monkeypatch):
    from protocols import lab
    from protocols.once import OncePerKey
    from ui.controllers import protocol_lab as controller

    runs, real_run = [], lab.run

    def counted(*args, on_model=None, **kwargs):
        def each(partial):
            runs.append(list(partial.models))
            on_model(partial)  # the page's own display of the rows so far
        return real_run(*args, on_model=each, **kwargs)

    monkeypatch.setattr(lab, "run", counted)
    monkeypatch.setattr(controller, "_own_results", OncePerKey(most=16))
    pages = []
    for _reader in range(2):
        at = run_page(PAGE, protocol_preset="own")
        at.multiselect[0].set_value(["pop", "random"])
        at.select_slider[0].set_value(0.5)
        at.button[0].click().run(timeout=120)
        assert not at.exception, [e.value for e in at.exception]
        pages.append(at.dataframe[0].value)
    assert runs == [["pop"], ["pop", "random"]]  # trained once, each model's row shown as it came
    pd.testing.assert_frame_equal(pages[0], pages[1])
    assert "Models trained so far" not in texts(at)  # the rows so far give way to the whole table
