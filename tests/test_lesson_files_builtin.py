"""The built-in lessons are lesson files, the one source of their data.

Commit "Lesson files: a TOML reader ..." checked each file equal to the Python definition it replaced (then
removed); these tests keep the files loadable and written as ``to_toml`` writes them.
"""

from pathlib import Path

import pytest

from content.lessons import LESSONS
from content.lessons.file_reader import read_lesson
from content.lessons.file_writer import to_toml
from content.lessons.library import BUILTIN

FILES = sorted(BUILTIN.glob("*.toml"))


def test_one_file_per_built_in_lesson_in_their_order():
    assert [path.stem.split("_", 1)[1] for path in FILES] == [lesson.key for lesson in LESSONS]


@pytest.mark.parametrize(("path", "lesson"), zip(FILES, LESSONS), ids=[lesson.key for lesson in LESSONS])
def test_each_file_loads_without_a_problem_and_is_written_as_to_toml_writes_it(path, lesson):
    loaded = read_lesson(path.read_bytes())
    assert loaded.problems == ()
    assert loaded.lesson == lesson
    assert read_lesson(to_toml(lesson)).lesson == lesson
    assert path.read_text() == to_toml(lesson)
