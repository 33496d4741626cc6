"""Every seed example loads with one click, opens its page and shows its exact value."""

import pytest

from content import examples
from metrics.seed_examples import EXAMPLES
from tests.conftest import run_page, texts
from ui.state import TOPIC_PAGES


def open_examples():
    at = run_page("app.py")
    at.switch_page(TOPIC_PAGES["examples"]).run()
    assert not at.exception
    return at


def test_examples_page_opens_directly():
    at = run_page(TOPIC_PAGES["examples"])
    assert len(at.get("button")) == len(EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_load_opens_the_topic_page_with_the_exact_values(example):
    at = open_examples()
    at.button(key=f"examples_load_{example.key}").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["loaded_example"] == example.key
    page_text = texts(at) + "\n".join(str(t.value) for t in at.title)
    assert examples.title(example) in page_text
    shown = "\n".join(df.value.to_csv() for df in at.dataframe)
    for value in example.values:
        assert f"{value.exact:.5f}" in shown, (value.key, value.exact)


def test_the_ndcg_misprint_is_explained_where_it_is_loaded():
    at = open_examples()
    at.button(key="examples_load_all_metrics").click().run()
    assert "The document prints 0.8290" in texts(at) and "0.82781" in texts(at)
    shown = "\n".join(df.value.to_csv() for df in at.dataframe)
    assert "0.8290" in shown and "0.82781" in shown
