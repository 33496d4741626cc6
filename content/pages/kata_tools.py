"""The Write-it-yourself page's tools in words: the code editor, Run on my input, the history of runs."""

from __future__ import annotations

from content import numbers
from content.i18n import N_, _

EDITOR_LABEL = N_("**Your code** (Python: numpy and the standard library)")
EDITOR_PLACEHOLDER = N_("Write your function here")
KEYBOARD = N_("Tab indents and Enter keeps the indentation. With the keyboard alone: Tab to the editor, Enter to "
              "start typing, Esc to stop, then Tab to move on. Your code is sent when you leave the editor or press "
              "Ctrl+Enter.")


def too_long(length: int, limit: int) -> str:
    return _("**Your code is {length} characters long, over the limit of {limit}.** It was not saved or run; it "
             "is still in the editor: shorten it there.").format(length=numbers.integer(length),
                                                                   limit=numbers.integer(limit))
