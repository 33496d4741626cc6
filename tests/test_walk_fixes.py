"""What a newcomer's walk through the app found (issue 18), pinned with AppTest."""

from __future__ import annotations

from tests.conftest import run_page
from ui.state import TOPIC_PAGES


def browser_label(at, key: str, held: str | None) -> str | None:
    """The label a browser's selectbox holds after this run: the one the server sent, else what it held."""
    proto = at.selectbox(key=key).proto
    return proto.raw_value if proto.set_value else held


def test_ab_picker_follows_the_item_it_moved_press_after_press():
    ab = run_page(TOPIC_PAGES["ab"])
    ab.selectbox(key="_ab_item").set_value("105").run()
    held = "rank 5: 105"  # what the person chose
    for rank in (6, 7, 8):
        ab.button(key="_ab_down").click().run()
        assert not ab.exception
        held = browser_label(ab, "_ab_item", held)
        assert held == f"rank {rank}: 105"
        assert ab.session_state["ab_b"]["item"].tolist().index("105") + 1 == rank
    assert ab.selectbox(key="_ab_item").value == "105"
    assert ab.session_state["ab_b"]["item"].tolist() == ["101", "102", "103", "104", "106", "107", "108", "105", "109", "110"]


def test_ab_swap_picker_follows_the_item_it_swapped():
    ab = run_page(TOPIC_PAGES["ab"])
    ab.selectbox(key="_ab_item").set_value("105").run()
    ab.selectbox(key="_ab_swap").set_value("107").run()
    ab.button(key="_ab_do_swap").click().run()
    assert ab.session_state["ab_b"]["item"].tolist()[4:7] == ["107", "106", "105"]
    assert browser_label(ab, "_ab_item", "rank 5: 105") == "rank 7: 105"
    assert browser_label(ab, "_ab_swap", "rank 7: 107") == "rank 5: 107"
