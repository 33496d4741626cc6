"""The labs in Turkish and Chinese: numbers in the reader's notation, the words from the catalogs."""

from __future__ import annotations

from tests.conftest import card, chart_specs, run_page, texts


def test_a_vs_b_preset_in_turkish_writes_the_decimal_comma_on_cards_deltas_and_formula():
    at = run_page("pages/11_A_vs_B.py", lang="tr")
    at.button(key="_ab_preset_top_matters_most").click().run()
    assert not at.exception
    assert card(at, "NDCG@10 (ikili)") == "0,5714"
    assert {m.delta for m in at.metric if m.label == "NDCG@10 (ikili)"} == {"-0,2263 (A'ya göre)"}
    assert any("0{,}5714-0{,}7977" in str(f.value) for f in at.latex)
    assert "NDCG@10 0,2263 düşer" in texts(at)
    assert chart_specs(at)[0]["layout"]["separators"] == ",."


def test_sensitivity_in_chinese_titles_its_chart_and_keeps_the_keys():
    at = run_page("pages/12_Sensitivity_explorer.py", lang="zh")
    at.radio(key="_sens_mode_widget").set_value("k").run()
    assert not at.exception and at.session_state["sens_mode"] == "k"
    assert chart_specs(at)[0]["layout"]["title"]["text"].startswith("K 增大时的各指标")


def test_random_baselines_in_turkish_write_percent_and_decimal_comma():
    at = run_page("pages/13_Random_baselines.py", lang="tr")
    assert all("," in m.value for m in at.metric if m.value not in ("0", "1"))
    assert "rastgele sıralamaların **%" in texts(at)


def test_sampled_negatives_in_turkish_say_the_flip():
    at = run_page("pages/14_Sampled_negatives.py", lang="tr")
    assert "**HR@10 tersine döner:** tam katalogda model A kazanır" in texts(at)
    assert card(at, "HR@10 A, tam").count(",") == 1
