"""The built-in lessons as lesson files: the files equal the Python definitions they replace."""

from pathlib import Path

import pytest

from content.lessons import LESSONS
from content.lessons.file_reader import read_lesson
from content.lessons.file_writer import to_toml

BUILTIN = Path(__file__).resolve().parents[1] / "content" / "lessons" / "builtin"
FILES = sorted(BUILTIN.glob("*.toml"))


def test_one_file_per_built_in_lesson_in_their_order():
    assert [path.stem.split("_", 1)[1] for path in FILES] == [lesson.key for lesson in LESSONS]


@pytest.mark.parametrize(("path", "lesson"), zip(FILES, LESSONS), ids=[lesson.key for lesson in LESSONS])
def test_each_file_loads_to_the_python_lesson_it_replaces(path, lesson):
    loaded = read_lesson(path.read_bytes())
    assert loaded.problems == ()
    assert loaded.lesson == lesson
    assert path.read_text() == to_toml(lesson)
