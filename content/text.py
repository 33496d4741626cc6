"""Show what a user typed exactly as typed, whatever the context renders.

Streamlit's Markdown (warnings, captions, info boxes) reads ``**``, ``[..](..)``, ``$..$``,
``:red[..]`` and HTML; KaTeX reads backslashes and braces; Plotly reads ``<a>``, ``<b>`` and
``<br>`` in text. Every user-typed string goes through the one function for its context.
"""

from __future__ import annotations

import html
import re
import string

_MARKDOWN_SPECIAL = set(string.punctuation)

_LATEX_TEXT = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
    "_": r"\_", "%": r"\%", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}


# An invisible WORD JOINER after ":" and "@" and inside "www." stops GitHub-flavoured Markdown from
# turning a typed URL or e-mail address into a link; escapes cannot, as it links the rendered text.
_NO_AUTOLINK = "\u2060"


def markdown(value) -> str:
    """``value`` as Markdown that renders as the literal text: every ASCII punctuation escaped, no autolinks."""
    text = re.sub("(?i)(www)(?=\\.)", rf"\1{_NO_AUTOLINK}", str(value))
    escaped = "".join(f"\\{c}{_NO_AUTOLINK}" if c in ":@" else f"\\{c}" if c in _MARKDOWN_SPECIAL else c
                      for c in text)
    # A newline would start a new block; show it as a space instead.
    return escaped.replace("\r", " ").replace("\n", " ")


def quoted(value) -> str:
    """``value`` in single quotes, as Markdown that renders as the literal text: for names in sentences."""
    return f"'{markdown(value)}'"


def latex(value) -> str:
    r"""``value`` as KaTeX ``\text{...}`` that renders as the literal text."""
    return r"\text{" + "".join(_LATEX_TEXT.get(c, c) for c in str(value)) + "}"


def plotly(value) -> str:
    """``value`` for Plotly text, tick labels and hover: tags shown, never followed.

    ``$`` becomes an entity too: Plotly reads a string with ``$...$`` as LaTeX for MathJax.
    """
    return html.escape(str(value), quote=False).replace("$", "&#36;")


def plotly_column(table, column: str):
    """A copy of ``table`` whose ``column`` (typed names) is safe as Plotly text and tick labels."""
    return table.assign(**{column: [plotly(value) for value in table[column]]})
