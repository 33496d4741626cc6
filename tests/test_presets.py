"""Every preset loads data whose numbers are the ones its banner calls exact, and the banner follows edits."""

import re

import pytest

from metrics.seed_examples import EXAMPLES
from tests.conftest import edit, latex, run_page, texts
from ui.state import TOPIC_PAGES


def load(example):
    at = run_page(TOPIC_PAGES["examples"])
    at.button(key=f"examples_load_{example.key}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown_numbers(at) -> set[str]:
    """Every number the page shows outside the banner, at 4 decimals: cards, tables and formulas."""
    numbers = {m.value for m in at.metric}
    for frame in (d.value for d in at.dataframe):
        if "document prints" in frame.columns:
            continue
        for value in frame.to_numpy().ravel():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                numbers.add(f"{value:.4f}")
    numbers |= {f"{float(n):.4f}" for n in re.findall(r"\d+\.\d+", latex(at))}
    return numbers


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_the_loaded_data_gives_every_exact_value_of_the_banner(example):
    at = load(example)
    shown = shown_numbers(at)
    missing = [(v.label, f"{v.exact:.4f}") for v in example.values if f"{v.exact:.4f}" not in shown]
    assert not missing, missing
