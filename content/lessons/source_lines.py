"""Where each key of a TOML document is written. ``tomllib`` gives the line of a syntax error but no positions
for a valid document, so a problem's line comes from this small scan of the text: table headers (counting the
elements of arrays of tables) and ``key =`` lines, skipping multi-line strings and arrays."""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-\" ]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\".]+(?:\s*\.\s*[A-Za-z0-9_\-\"]+)*)\s*=")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'')


def _names(dotted: str) -> list[str]:
    return [part.strip().strip('"') for part in dotted.split(".")]


class SourceLines:
    def __init__(self, text: str):
        self._lines: dict[tuple, int] = {}
        counts: dict[tuple, int] = {}
        table: tuple = ()
        in_string = False
        depth = 0
        for number, line in enumerate(text.splitlines(), start=1):
            if in_string:
                in_string = line.count('"""') % 2 == 0
                continue
            if depth > 0:
                depth += self._depth_change(line)
                continue
            header = _HEADER.match(line)
            if header:
                table = self._resolve(_names(header.group(2)), counts, is_array=header.group(1) == "[[")
                self._lines.setdefault(table, number)
                continue
            key = _KEY.match(line)
            if key:
                self._lines.setdefault(table + tuple(_names(key.group(1))), number)
                rest = line[key.end():]
                if rest.count('"""') % 2 == 1:
                    in_string = True
                else:
                    depth = max(self._depth_change(rest), 0)

    @staticmethod
    def _depth_change(line: str) -> int:
        bare = _STRING.sub("", line.split("#", 1)[0] if '"' not in line else line)
        return bare.count("[") + bare.count("{") - bare.count("]") - bare.count("}")

    def _resolve(self, names: list[str], counts: dict[tuple, int], is_array: bool) -> tuple:
        path: tuple = ()
        for position, name in enumerate(names):
            path += (name,)
            if is_array and position == len(names) - 1:
                counts[path] = counts.get(path, 0) + 1
                path += (counts[path] - 1,)
            elif path in counts:
                path += (counts[path] - 1,)
        return path

    def find(self, path: tuple) -> int | None:
        """The line of ``path`` (keys and 0-based array indices), else of its nearest written ancestor."""
        for end in range(len(path), 0, -1):
            if path[:end] in self._lines:
                return self._lines[path[:end]]
        return None


def field_name(path: tuple) -> str:
    """``("steps", 1, "question", "options", 0)`` as a teacher reads it: ``steps[2].question.options[1]``."""
    shown = ""
    for part in path:
        shown += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if shown else part)
    return shown
