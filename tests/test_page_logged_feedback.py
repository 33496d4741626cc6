"""The Logged feedback page as a reader uses it (AppTest): the controls move the numbers, every preset shows its
finding with charts that carry their text alternative, the Open Bandit Dataset's switch shows the real logs, or
says how to get them, and every text comes through the catalogs."""

from __future__ import annotations

import os

import pytest

from content import i18n
from offpolicy import obd, presets
from tests import pseudo
from tests.conftest import card, chart_specs, run_page, texts
from tests.test_chart_text import check_page
from tests.test_charts import BACKGROUNDS, _colours, contrast
from ui.state import TOPIC_PAGES

PAGE = TOPIC_PAGES["logged"]
TIMEOUT = 120  # a preset's first run on a busy machine (ML-100K's world, three models) takes seconds


def _colours_read(at) -> None:
    for spec in chart_specs(at):
        for where, colour in [*_colours(spec["data"]), *_colours(spec["layout"].get("shapes", []), "shapes")]:
            for background in BACKGROUNDS.values():
                assert contrast(colour, background) >= 3, (spec["layout"]["title"]["text"], where, colour)


def _titles(at) -> list[str]:
    """Each chart's title as one line (the layout wraps long titles with <br>)."""
    return [spec["layout"]["title"]["text"].replace("<br>", " ") for spec in chart_specs(at)]


def test_the_page_opens_on_the_reader_s_own_settings_with_every_view():
    at = run_page(PAGE)
    assert card(at, "True value of the target") == "0.5457"
    assert int(card(at, "Effective sample size").replace(",", "")) > 100
    titles = " | ".join(_titles(at))
    for start in ("Each estimator on one log", "The log's importance weights", "Bias and RMSE of each estimator"):
        assert start in titles
    assert "One log of 10,000 rounds" in [s.value for s in at.subheader]
    # IPS with the shown log's numbers: its value is the estimates table's IPS row.
    shown = [f.value.strip("$\n") for f in at.latex]
    substituted = [f for f in shown if f.startswith(r"\hat V_{\mathrm{IPS}}=\frac{") and "sum" not in f]
    ips = next(row for row in at.dataframe[0].value.itertuples() if row[1] == "IPS")
    assert len(substituted) == 1 and substituted[0].endswith("{10{,}000}=" + ips[2]), (substituted, ips)
    assert check_page(at) == 3
    _colours_read(at)
    assert len(at.dataframe) >= 2 and not at.exception


def test_each_slider_changes_the_numbers():
    at = run_page(PAGE)
    ess = card(at, "Effective sample size")
    at.select_slider(key="logged_temperature").set_value(0.25).run(timeout=TIMEOUT)
    assert not at.exception and card(at, "Effective sample size") != ess
    assert card(at, "True value of the target") == "0.5457"  # the target's value does not depend on the logger
    at.select_slider(key="logged_rounds").set_value(2_000).run(timeout=TIMEOUT)
    assert "One log of 2,000 rounds" in [s.value for s in at.subheader]
    assert "of 2,000 rounds" in texts(at)
    clipped = at.dataframe[0].value.set_index(at.dataframe[0].value.columns[0]).loc["clipped IPS"].tolist()
    at.select_slider(key="logged_tau").set_value(1.0).run(timeout=TIMEOUT)
    after = at.dataframe[0].value.set_index(at.dataframe[0].value.columns[0]).loc["clipped IPS"].tolist()
    assert after != clipped  # clipping at 1 pulls clipped IPS down
    assert not at.exception


@pytest.mark.parametrize("key", presets.PRESETS)
def test_each_preset_shows_its_finding_and_charts(key):
    at = run_page(PAGE)
    at.selectbox(key="logged_preset").set_value(key).run(timeout=TIMEOUT)
    assert not at.exception, [e.value for e in at.exception]
    [finding] = [i.value for i in at.info]
    assert finding.startswith("**What this page finds:** ")
    assert not at.select_slider  # a preset's settings are its own
    assert check_page(at) >= 1
    _colours_read(at)
    if key == "popularity_recall":
        assert _titles(at) == ["Recall@10: each model's place (1 = best)"]
    elif key == "clipping":
        assert _titles(at)[0].startswith("Clipped IPS as τ moves")
    assert pseudo.untranslated(run_page(PAGE, lang=i18n.PSEUDO, logged_preset=key)) == []


@pytest.fixture
def archive():
    try:
        return obd.find_source()
    except obd.SourceUnavailable as error:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must have obp's archive: {error}")
        pytest.skip(str(error))


def test_the_open_bandit_dataset_switch_shows_the_real_logs(archive):
    at = run_page(PAGE)
    at.toggle(key="logged_obd").set_value(True).run(timeout=TIMEOUT)
    assert not at.exception, [e.value for e in at.exception]
    assert card(at, "Relative value by IPS (Bernoulli TS over Random)") == "1.1981"  # obp's README: 1.198126
    assert card(at, "Effective sample size") == "1,640"
    assert not at.select_slider
    assert _titles(at) == ["Bernoulli TS estimated from the Random logs, against its own logs' click rate"]
    assert check_page(at) == 1
    assert "DR equals DM here" in texts(at)
    assert pseudo.untranslated(run_page(PAGE, lang=i18n.PSEUDO, logged_obd=True), keep={"Apache", "License"}) == []


def test_without_the_archive_the_switch_says_how_to_get_it(monkeypatch, tmp_path):
    monkeypatch.setenv(obd.ENVIRONMENT, str(tmp_path / "nowhere"))
    monkeypatch.setattr(obd, "DEFAULT", tmp_path / "nowhere.tar.gz")
    at = run_page(PAGE, logged_obd=True)
    assert not at.exception and not at.error
    [message] = [i.value for i in at.info]
    assert "pip download --no-deps --ignore-requires-python obp==0.5.7" in message
    assert "RECEVAL_OBP_SOURCE" in message and not at.get("plotly_chart")


@pytest.mark.parametrize("code", ["tr", "zh"])
def test_the_page_and_a_preset_in_each_language(code):
    at = run_page(PAGE, lang=code)
    assert check_page(at, code) == 3
    at.selectbox(key="logged_preset").set_value("doubly_robust").run(timeout=TIMEOUT)
    assert not at.exception
    [finding] = [i.value for i in at.info]
    assert finding.startswith({"tr": "**Bu sayfanın bulduğu:**", "zh": "**本页的发现：**"}[code])
    assert "{" not in finding
