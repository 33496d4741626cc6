"""Errors about a reader's data that a page shows in the reader's language.

Each carries a ``code`` (what went wrong) and ``fields`` (the facts: a file kind, a column, line
numbers), and its ``str()`` is the English sentence Python users and the command line read. The
UI translates the code with its fields (``content/your_data.py``); nothing here knows a language.
"""

from __future__ import annotations


class DataError(ValueError):
    """A ValueError with a ``code`` and ``fields`` beside its English message."""

    def __init__(self, code: str, message: str, **fields):
        super().__init__(message)
        self.code, self.fields = code, fields

    def __reduce__(self):
        # A worker process's error reaches the parent whole (Exception pickles only its args).
        return _restore, (type(self), self.args, self.__dict__)


def _restore(cls, args, state):
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error
