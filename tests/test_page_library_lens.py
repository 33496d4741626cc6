"""Library lens page: the per-library table, the differences in words, presets, one library up close."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

import numpy as np

from content import conventions as conventions_words
from content.pages import lens as lens_words
from metrics import conventions as conv
from metrics.registry import RankingCase
from tests.conftest import chart_specs, edit, latex, plotly_array, run_page, texts
from ui.controllers import library_lens
from ui.state import TOPIC_PAGES

PAGE = TOPIC_PAGES["lens"]


def plain(shown: str) -> str:
    """Text as a reader sees it: content.text.markdown's escapes removed."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", shown)


def library_table(at: AppTest):
    table = next(d.value for d in at.dataframe if "RecEval Lab (this app)" in list(getattr(d.value, "index", [])))
    return table


@pytest.fixture
def lens() -> AppTest:
    return run_page(PAGE)


def test_deep_link_shows_every_library_the_formula_and_the_chart(lens):
    table = library_table(lens)
    assert list(table.index) == ["RecEval Lab (this app)", "trec_eval", "scikit-learn", "ranx", "torchmetrics",
                                 "Recommenders", "RecBole", "Evidently", "RecTools", "cornac", "Spark MLlib"]
    assert table.loc["RecTools", "NDCG@10"] == "0.3882"
    assert table.loc["RecEval Lab (this app)", "NDCG@10"] == "0.8278"
    assert table.loc["scikit-learn", "Precision@10"] == "no such metric"
    assert r"\mathrm{NDCG@10}_{\text{RecTools}} = \frac{1.7640}{4.5436} = 0.3882" in latex(lens)
    chart = chart_specs(lens)[0]["data"][0]
    assert chart["y"][7] == "RecTools" and chart["text"][7][3] == "0.3882"
    np.testing.assert_allclose(plotly_array(chart["z"])[7 * 5 + 3], 0.3882 - 0.8278, atol=1e-4)
    assert plotly_array(chart["z"])[0] == 0 and chart["text"][1][0] == ""  # same value; scikit-learn has no P@K
    shown = plain(texts(lens))
    assert "**RecTools**, NDCG@10: 0.3882 instead of 0.8278. RecTools builds the ideal DCG from K slots, all relevant" in shown


PRESET_CELLS = [
    ("never_recommended", "torchmetrics", "AP@10", "0.3694",
     "torchmetrics divides AP by the 3 hits in the top 10, not by min(|Rel|, K) = min(4, 10) = 4."),
    ("more_relevant_than_k", "trec_eval", "AP@5", "0.1667", "trec_eval divides AP by |Rel| = 6, not by min(|Rel|, K) = min(6, 5) = 5."),
    ("graded", "Spark MLlib", "NDCG@10", "0.6943", "Spark MLlib's gain is 2^rel − 1 (exponential), not rel (linear)."),
    ("short_list", "Evidently", "Precision@10", "no value", "Evidently refuses this input: every metric of a list shorter than K (the list has 5)."),
    ("nothing_relevant", "Evidently", "AP@10", "no value",
     "Evidently leaves a user with no relevant item out of its mean; the app scores such a user 0 and counts them."),
    ("first_hit_below_k", "ranx", "RR", "0.0000", "ranx counts RR only up to rank K = 5; the app's RR has no cut-off (the first hit is at rank 7)."),
]


@pytest.mark.parametrize(("preset", "library", "column", "cell", "sentence"), PRESET_CELLS, ids=[p[0] for p in PRESET_CELLS])
def test_each_preset_loads_its_classic_disagreement(lens, preset, library, column, cell, sentence):
    lens.button(key=f"lens_load_{preset}").click().run()
    assert not lens.exception
    assert library_table(lens).loc[library, column] == cell
    shown = plain(texts(lens))
    assert sentence in shown
    assert any(preset_label in shown for preset_label in (
        "999 never recommended.", "|Rel| > K.", "Graded relevance.", "List shorter than K.",
        "A user with nothing relevant.", "First hit below K."))


def test_nothing_relevant_shows_who_counts_the_user_and_who_leaves_it_out(lens):
    lens.button(key="lens_load_nothing_relevant").click().run()
    table = library_table(lens)
    assert table.loc["trec_eval", "Precision@10"] == "no value"  # a query with no judgments is left out
    assert table.loc["Spark MLlib", "AP@10"] == "0.0000" and table.loc["torchmetrics", "NDCG@10"] == "0.0000"
    assert "trec_eval leaves a user with no judged item at all out of its mean" in plain(texts(lens))


def test_choosing_a_library_shows_its_conventions_breakdown_and_snippet(lens):
    lens.button(key="lens_load_never_recommended").click().run()
    lens.selectbox(key="_lens_library_widget").set_value("torchmetrics").run()
    assert not lens.exception
    conventions = lens.table[0].value
    row = conventions.loc["AP denominator"]
    assert (row["torchmetrics"], row["this app"], row["differs"]) == ("the hits in the top K", "min(|Rel|, K)", "≠")
    assert r"\mathrm{AP@10}_{\text{torchmetrics}} = \frac{1.1083}{3} = 0.3694" in latex(lens)
    assert r"\mathrm{AP@10}_{\text{this app}} = \frac{1.1083}{4} = 0.2771" in latex(lens)
    steps = [d.value for d in lens.dataframe if "precision_at_i" in getattr(d.value, "columns", [])]
    assert len(steps) == 2 and steps[0]["item"].tolist()[:3] == ["101", "102", "103"]
    code = lens.code[0].value
    assert "RetrievalMAP(top_k=10)" in code and "'999'" in code


def test_switching_to_a_tested_library_offers_its_own_code(lens):
    lens.selectbox(key="_lens_library_widget").set_value("trec_eval").run()
    code = lens.code[0].value
    assert "import pytrec_eval" in code and '"ndcg_cut.10"' in code
    assert "Tested: the test suite runs this code" in texts(lens)
    lens.radio(key="_lens_metric_widget").set_value("reciprocal_rank").run()
    assert r"\mathrm{RR}_{\text{trec\_eval}} = \frac{1}{1} = 1" in latex(lens)


def test_a_typed_id_reaches_the_snippet_as_a_string_literal_and_the_text_literally(lens):
    typed = "x'); print(\"pwned\") #*bold*"
    edit(lens, "ground_truth", added_rows=[{"item": typed, "grade": "2"}])
    lens.selectbox(key="_lens_library_widget").set_value("scikit-learn").run()
    # escaped for Markdown, so shown literally (texts() reads escapes as what they show: look at what is sent)
    sent = "\n".join(str(e.value) for kind in ("markdown", "caption", "warning", "info") for e in lens.get(kind))
    assert f"sees {typed}" not in sent
    assert f"so it never sees {typed}:" in plain(texts(lens))
    lens.selectbox(key="_lens_library_widget").set_value("ranx").run()
    assert repr(typed) in lens.code[0].value


def test_an_empty_list_gives_no_traceback(lens):
    edit(lens, "recommended", deleted_rows=list(range(10)))
    table = library_table(lens)
    assert table.loc["RecEval Lab (this app)", "Precision@10"] == "0.0000"
    assert table.loc["scikit-learn", "NDCG@10"] == "no value"
    assert "The recommended list is empty" in texts(lens)


def test_a_user_with_nothing_relevant_shows_what_it_does_to_each_mean(lens):
    lens.button(key="lens_load_nothing_relevant").click().run()
    means = next(d.value for d in lens.dataframe if "MAP@K with this user" in getattr(d.value, "columns", []))
    assert means.loc["Spark MLlib", "MAP@K with this user"] == pytest.approx((3 / 7 + 2 / 4 + 1) / 3 / 2)
    assert means.loc["Evidently", "MAP@K with this user"] == pytest.approx((3 / 7 + 2 / 4 + 1) / 3)
    assert means.loc["trec_eval", "MAP@K with this user"] == pytest.approx((3 / 7 + 2 / 4 + 1) / 3)


# --------------------------------------------------------------------------- helpers alone


def _case(ground_truth: dict, k: int = 10, recommended=None) -> RankingCase:
    return RankingCase([str(i) for i in (recommended or range(101, 111))], ground_truth, k)


def test_a_preset_is_on_screen_until_its_list_grades_or_k_change():
    preset = library_lens.BY_KEY["graded"]
    shown = _case({"101": 5.0, "104": 4.0, "107": 3.0, "999": 5.0})
    assert preset.on_screen(shown)
    assert not preset.on_screen(_case({"101": 5.0, "104": 4.0, "107": 2.0, "999": 5.0}))
    assert not preset.on_screen(_case({"101": 5.0, "104": 4.0, "107": 3.0, "999": 5.0}, k=9))
    assert not preset.on_screen(_case({"101": 5.0, "104": 4.0, "107": 3.0, "999": 5.0}, recommended=range(101, 110)))
    nothing = library_lens.BY_KEY["nothing_relevant"]
    assert nothing.on_screen(_case({})) and not nothing.on_screen(shown)


def test_a_user_with_nothing_relevant_halves_the_map_of_libraries_that_count_them():
    assert library_lens.nothing_relevant(_case({})) and library_lens.nothing_relevant(_case({"101": 0.0}))
    assert not library_lens.nothing_relevant(_case({"101": 0.0, "102": 1.0}))
    table = library_lens.mean_with_the_tutorial_user(_case({"101": 0.0}))
    alone, with_user, empty_users = table.columns
    assert (alone, with_user) == ("MAP@K, the NumPy tutorial's user alone", "MAP@K with this user")
    assert table.index.name == "library" and list(table.index) == list(conv.CONVENTIONS)
    seed_ap = (1 + 2 / 4 + 3 / 7) / 3
    assert table.loc["Spark MLlib", alone] == pytest.approx(seed_ap)
    assert table.loc["Spark MLlib", with_user] == pytest.approx(seed_ap / 2)
    assert table.loc["Evidently", with_user] == pytest.approx(seed_ap)
    assert table[empty_users].str.len().min() > 0


def test_a_librarys_settings_stand_beside_this_apps_and_differ_where_marked():
    table = library_lens.settings_table(conv.CONVENTIONS["torchmetrics"], "torchmetrics")
    assert list(table.columns) == ["torchmetrics", "this app", "differs"] and table.index.name == "setting"
    assert tuple(table.loc["AP denominator"]) == ("the hits in the top K", "min(|Rel|, K)", "≠")
    assert table["differs"].tolist().count("≠") == sum(
        conv.CONVENTIONS["torchmetrics"].describe(f) != conv.APP.describe(f) for f in conv.FIELD_LABELS)
    assert table.loc["what its users call", "torchmetrics"].startswith("Precision@K: ")
    calls = library_lens.settings_table(conv.CONVENTIONS["scikit-learn"], "x").loc["what its users call", "x"]
    assert "Precision@K" not in calls and calls.startswith("AP@K: ")


def test_breakdown_tables_show_their_fractions_to_four_places():
    b = conv.breakdown(conv.APP, "ndcg", [str(i) for i in range(101, 111)], {"101": 2, "104": 1}, 10)
    table = b.tables["DCG of the list"]
    shown = library_lens.four_places(table).to_html()
    discount = table["discount"].iloc[1]  # 1 / log2(3)
    assert f">{discount:.4f}<" in shown and f"{discount:.6f}" not in shown
    whole = table[["rank", "item"]]
    assert library_lens.four_places(whole) is whole  # nothing fractional: the table as it is


def test_the_formula_pair_and_the_differences_in_words():
    rec, truth = [str(i) for i in range(101, 111)], {"103": 1, "105": 1, "108": 1, "999": 1}
    theirs = conv.breakdown(conv.CONVENTIONS["torchmetrics"], "average_precision", rec, truth, 10)
    ours = conv.breakdown(conv.APP, "average_precision", rec, truth, 10)
    pair = lens_words.library_over_app("torchmetrics", "average_precision", 10, theirs, ours)
    assert pair == (r"\begin{aligned}&\mathrm{AP@10}_{\text{torchmetrics}} = \frac{1.1083}{3} = 0.3694\\ \text{vs}\ &"
                    r"\mathrm{AP@10}_{\text{this app}} = \frac{1.1083}{4} = 0.2771\end{aligned}")
    assert conventions_words.breakdown_fraction(theirs, 10) == "sum of precision@i at hits ÷ the hits in the top K"
    differences = conv.compare(rec, truth, 10).differences
    lines = lens_words.differences_in_words(differences, rec, truth, 10).split("\n")
    assert len(lines) == len(differences)
    assert lines[2].startswith("- **torchmetrics**, AP@10: 0.3694 instead of 0.2771. torchmetrics divides AP by")
    assert lines[2].endswith("*(cause: AP denominator)*")
