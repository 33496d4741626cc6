"""AppTest helpers for the Write-it-yourself page's code editor (a custom component, driven by its value)."""

from __future__ import annotations

import itertools
import json

from streamlit.testing.v1 import AppTest

from ui.kata_editor import CURRENT_KEY

_sendings = itertools.count(1)


def editor_element(at: AppTest):
    found = [e for e in at.get("component_instance") if e.proto.component_name == "code_editor.code_editor"]
    assert len(found) == 1, f"expected one code editor, found {len(found)}"
    return found[0]


def editor_code(at: AppTest) -> str:
    """The code the editor was mounted with (what the candidate sees before typing)."""
    return json.loads(editor_element(at).proto.json_args)["code"]


def type_code(at: AppTest, code: str, *, run: bool = True) -> AppTest:
    """What the browser sends when the candidate types ``code`` and leaves the editor."""
    at.session_state[at.session_state[CURRENT_KEY]] = {
        "id": f"t{next(_sendings)}", "type": "blur", "lang": "python", "text": code, "selected": "", "cursor": ""}
    if run:
        at.run()
        assert not at.exception, [e.value for e in at.exception]
    return at
