"""Names are shown exactly as typed on every page: escaped for Markdown, LaTeX and Plotly, never followed."""

import json

import pandas as pd
import pytest

from tests.conftest import chart_specs, run_page
from content import text
from ui.state import ground_truth_table, recommended_table, scores_table

NASTY = [
    "**strong**", "$y^2$", r"$\href{javascript:alert(1)}{x}$", "[click](javascript:alert(1))",
    "![](https://example.invalid/x.png)", '<a href="https://example.invalid">x</a>', ":red[x]",
    "long_name_" * 50,
]


def nasty_state() -> dict:
    truth = ground_truth_table({name: 1 for name in NASTY[:4]})
    more = pd.DataFrame({"item": ["only:" + name for name in NASTY] + NASTY[4:], "grade": ["2"] * 8 + ["high"] * 4},
                        dtype=object)
    users = pd.DataFrame({"user": NASTY, "recommended": ["a, b, c"] * 7 + ["a, b, a"],
                          "relevant": ["b"] * 8})
    return {
        "recommended": recommended_table(NASTY),
        "ground_truth": pd.concat([truth, more], ignore_index=True),
        "users": users,
        "scores": scores_table(NASTY + ["u"] * 2, [1] * 8 + [1, 0], [0.5] * 8 + [0.9, 0.1]),
    }


MARKDOWN_KINDS = ("markdown", "caption", "warning", "info", "error", "success")
PAGES = ["app.py", "pages/2_Precision_Recall_HR_F1.py", "pages/3_AP_and_MAP.py", "pages/4_RR_and_MRR.py",
         "pages/5_NDCG.py", "pages/7_AUC_and_GAUC.py"]


@pytest.mark.parametrize("path", PAGES)
def test_typed_names_reach_markdown_and_charts_only_escaped(path):
    at = run_page(path, **nasty_state())
    shown = [str(e.value) for kind in MARKDOWN_KINDS for e in at.get(kind)]
    specs = json.dumps(chart_specs(at))
    for name in NASTY:
        raw_in_markdown = [s[:80] for s in shown if name in s]
        assert not raw_in_markdown, (name, raw_in_markdown)
        if "<" in name or "$" in name:
            assert json.dumps(name)[1:-1] not in specs, name
    # each page shows some of the names, escaped
    assert any(text.markdown(name) in s for name in NASTY for s in shown) or any(
        json.dumps(text.plotly(name))[1:-1] in specs for name in NASTY)


def test_markdown_escape_covers_every_special_character():
    for name in NASTY + ["a\\b", "`code`", "# heading", "1. list", "> quote", "~~gone~~", "|a|b|"]:
        escaped = text.markdown(name)
        assert all(f"\\{c}" in escaped for c in name if c in "*$[]()!<>:`#~|\\_")


def test_plotly_escape_shows_tags_as_text():
    assert text.plotly('<a href="https://example.invalid">x</a>') == '&lt;a href="https://example.invalid"&gt;x&lt;/a&gt;'
    assert text.plotly("<b>bold</b><br>") == "&lt;b&gt;bold&lt;/b&gt;&lt;br&gt;"
