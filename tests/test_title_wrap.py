"""Chart titles are wrapped by the width they take on screen, not by their number of characters:
a Chinese character is as wide as two Latin ones, so a Chinese title wrapped at 38 characters ran
past a 390 px phone's chart and lost its end."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ui.figures.charts import TITLE_WIDTH, _wrap, display_width

LOCALE = Path(__file__).resolve().parents[1] / "content" / "locale"


def _by_characters(title: str, width: int = TITLE_WIDTH) -> list[str]:
    """The wrapping before: words by spaces, a line of at most ``width`` characters."""
    lines: list[str] = []
    for word in title.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _chinese_texts() -> list[str]:
    texts = set()
    for path in (LOCALE / "zh" / "LC_MESSAGES").glob("*.po"):
        with path.open("rb") as file:
            for message in read_po(file):
                for text in message.string if isinstance(message.string, tuple) else (message.string,):
                    if text and "\n" not in text:
                        texts.add(text)
    return sorted(texts)


def test_a_wide_or_full_width_character_takes_two_columns():
    assert display_width("NDCG@10") == 7
    assert display_width("命中") == 4
    assert display_width("（，）") == 6  # full-width punctuation
    assert display_width("Ａ1") == 3  # a full-width Latin letter
    assert display_width("Kütüphaneler") == 12  # Turkish letters are narrow


def test_a_chinese_title_breaks_between_characters_at_half_the_characters_of_an_english_one():
    title = "从不预测点击的模型准确率看起来很好召回率却是零而精确率无从谈起"  # 31 characters, no space
    lines = _wrap(title)
    assert lines == [title[:19], title[19:]]
    assert [display_width(line) for line in lines] == [38, 24]


def test_a_mixed_title_breaks_at_spaces_and_beside_chinese_characters_never_before_closing_punctuation():
    assert _wrap("每次命中处的 precision@i（绿色柱子之和就是 AP@10 的分子）") == [
        "每次命中处的 precision@i（绿色柱子之和", "就是 AP@10 的分子）"]
    # "，" would fit only on the next line: it takes the character before it along.
    assert _wrap("列表绿色前中的命中琥珀色相关但在之后灰，色未命中") == ["列表绿色前中的命中琥珀色相关但在之后", "灰，色未命中"]
    # "（" and "[" stay with what they open.
    assert _wrap("一二三四五六七八九十一二三四五六七八（九十）") == ["一二三四五六七八九十一二三四五六七八", "（九十）"]
    assert _wrap("你的物品的随机排序红色你的列表虚线等于 E[随机]") == ["你的物品的随机排序红色你的列表虚线等于", "E[随机]"]


@pytest.mark.parametrize("title", [
    "Precision@i at each hit (the green bars sum to the numerator of AP@10)",
    "List: green = hit in the top K, amber = relevant but after K, grey = miss",
    "Kütüphaneler neden farklı sonuç verir: aynı liste, aynı gerçek değerler, farklı NDCG",
    "A-very-long-word-that-is-longer-than-a-whole-title-line-on-its-own and more",
    "",
])
def test_a_title_without_wide_characters_is_wrapped_as_before(title):
    assert _wrap(title) == _by_characters(title)


def test_every_chinese_translation_wraps_within_the_title_width_and_loses_nothing():
    texts = _chinese_texts()
    assert len(texts) > 500
    for text in texts:
        lines = _wrap(text)
        assert "".join(lines).replace(" ", "") == text.replace(" ", ""), text
        for line in lines:
            # Longer than a line only where nothing lets it break (a long English word, a formula).
            assert display_width(line) <= TITLE_WIDTH or _wrap(line, width=1) == [line], (text, line)
        for line in lines[1:]:  # a continued line never starts with closing punctuation
            assert line[0] not in "，。、；：！？）》」)", (text, line)
