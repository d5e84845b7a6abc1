"""The one exception of the fixes room: a fix that cannot be turned into edits for this text."""

from __future__ import annotations


class FixError(ValueError):
    """A fix's data does not fit the text (a span that is not a call, an import that would clash, ...)."""
