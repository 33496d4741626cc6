"""What a careful reader sees: empty states, long lists, K typed exactly, card help, sidebar labels."""

from __future__ import annotations

import json

import pytest

from metrics.seed_examples import EXAMPLES
from tests.conftest import card, chart_specs, edit, plotly_array, run_page, texts
from ui.navigation import PAGES
from ui.state import ground_truth_table, recommended_table

RANKING_PAGES = ["app.py", "pages/2_Precision_Recall_HR_F1.py", "pages/3_AP_and_MAP.py", "pages/4_RR_and_MRR.py",
                 "pages/5_NDCG.py"]


def _points(trace: dict) -> int:
    return len(plotly_array(trace.get("x", []))) + len(plotly_array(trace.get("y", [])))


@pytest.mark.parametrize("path", RANKING_PAGES)
def test_empty_lists_draw_no_empty_chart_and_say_what_to_add(path):
    at = run_page(path, recommended=recommended_table([]), ground_truth=ground_truth_table({}))
    for spec in chart_specs(at):
        assert any(_points(trace) for trace in spec["data"]), f"empty chart: {spec['layout']['title']['text']}"
    assert "add" in texts(at).lower()
    assert "every relevant item is somewhere in your list" not in texts(at)


def test_ndcg_with_empty_lists_says_what_to_add_instead_of_empty_axes():
    at = run_page("pages/5_NDCG.py", recommended=recommended_table([]), ground_truth=ground_truth_table({}))
    titles = [s["layout"]["title"]["text"] for s in chart_specs(at)]
    assert not [t for t in titles if t.startswith("Contribution")]
    assert "Both lists are empty" in texts(at)


LONG = {"recommended": recommended_table(range(1000, 1200)),
        "ground_truth": ground_truth_table({1000 + i: 1 for i in range(0, 200, 7)})}


@pytest.mark.parametrize(("path", "title"), [("app.py", "The list"), ("pages/2_Precision_Recall_HR_F1.py", "The list"),
                                             ("pages/4_RR_and_MRR.py", "1/rank")])
def test_a_200_item_list_shows_its_top_ranks_and_says_so(path, title):
    at = run_page(path, **LONG)
    spec = next(s for s in chart_specs(at) if s["layout"]["title"]["text"].startswith(title))
    assert max(plotly_array(spec["data"][0]["x"])) == 20
    assert "ranks 1-20 of 200" in spec["layout"]["title"]["text"].replace("<br>", " ")


def typed_k(at):
    return next(n for n in at.number_input if n.label == "K, typed")


def test_k_can_be_typed_exactly_beside_the_slider():
    at = run_page("pages/2_Precision_Recall_HR_F1.py", **LONG)
    typed_k(at).set_value(137).run()
    assert card(at, "Precision@137") == f"{len(range(0, 137, 7)) / 137:.4f}"
    assert at.slider(key="_k_widget").value == 137
    at.slider(key="_k_widget").set_value(12).run()
    assert typed_k(at).value == 12


def test_a_card_delta_says_what_it_compares_with():
    at = run_page("pages/2_Precision_Recall_HR_F1.py")
    at.slider(key="_k_widget").set_value(7).run()
    at.slider(key="_k_widget").set_value(6).run()
    precision = next(m for m in at.metric if m.label == "Precision@6")
    assert precision.value == "0.3333"
    # Against K = 10 (0.3000) Precision@6 rose; the delta compares with the previous step, K = 7
    # (3 hits: 0.4286), so it is negative, and the help says so.
    assert "Precision@7 = 0.4286" in precision.proto.help
    assert precision.proto.delta == "-0.0952"


def test_wide_breakdown_tables_keep_their_key_column_pinned():
    at = run_page("pages/5_NDCG.py")
    dcg_tables = [d for d in at.dataframe if "running_dcg" in d.value.columns]
    assert len(dcg_tables) == 2
    for table in dcg_tables:
        config = json.loads(table.proto.columns)
        assert config["running_dcg"].get("pinned") is True, config["running_dcg"]


@pytest.mark.parametrize(("topic", "path", "label", "icon"), [(p.topic, p.path, p.label, p.icon) for p in PAGES],
                         ids=[p.topic for p in PAGES])
def test_the_sidebar_label_and_icon_match_the_page_title(topic, path, label, icon):
    at = run_page(path)
    title = at.title[0].value
    assert title.startswith(f"{icon} "), (title, icon)
    assert label.lower() in title.lower(), (title, label)


def test_a_note_shared_by_several_values_is_shown_once_on_the_examples_page():
    at = run_page("pages/9_Worked_examples.py")
    shown = [w.value for w in at.warning]
    from content.examples import value_note

    notes = [note for example in EXAMPLES for note in {value_note(example, v) for v in example.values} if note]
    for note in set(notes):
        # once per example that has it, however many of its values share it
        assert sum(note in w for w in shown) == notes.count(note), note


def test_a_long_substituted_sum_is_shortened_and_keeps_its_total():
    at = run_page("pages/5_NDCG.py", **LONG, k=60)
    dcg = next(e.value for e in at.latex if r"\mathrm{DCG@60}" in e.value)
    assert r"\cdots" in dcg and "(9 terms)" in dcg
    lines = dcg.split(r"\\")
    assert all(line.count(r"\frac") <= 4 for line in lines), lines  # at most 3 terms a line (+ the NDCG line)
    from metrics.ndcg import ndcg_tables
    actual, _ = ndcg_tables(list(LONG["recommended"]["item"]), {i: 1 for i in LONG["ground_truth"]["item"]}, 60)
    assert f"= {actual['running_dcg'].iloc[-1]:.4f}" in dcg


def _kinds_in_order(node) -> list[str]:
    """Element kinds of the page in the order they are shown (depth first); markdown with its text."""
    kind = getattr(node, "type", "")
    kinds = [f"markdown:{node.value}" if kind == "markdown" else kind]
    for child in getattr(node, "children", {}).values():
        kinds += _kinds_in_order(child)
    return kinds


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.topic in ("home", "topn", "ap", "ndcg")],
                         ids=lambda e: e.key)
def test_the_loaded_example_banner_sits_above_the_editors_on_every_page(example):
    from ui.navigation import TOPIC_PAGES

    at = run_page(TOPIC_PAGES[example.topic])
    at.session_state["loaded_example"] = example.key
    at.run()
    kinds = _kinds_in_order(at.main)
    # Only the example's key is set, not its data, so the banner says the data changed from it.
    banner = next(i for i, k in enumerate(kinds)
                  if k.startswith(("markdown:**Loaded example:**", "markdown:**Changed from the example:**")))
    editors = next(i for i, k in enumerate(kinds) if k.startswith("markdown:**Recommended**"))
    assert banner < editors, kinds[:16]
