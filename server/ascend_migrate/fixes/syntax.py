"""Parsing a whole file with `ast`, quietly: a user's invalid escape sequences are not ours to warn about."""

from __future__ import annotations

import ast
import warnings


def parse(source: str) -> ast.Module:
    """The module's tree, or raises SyntaxError (ValueError for NUL bytes is turned into SyntaxError too)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source)
        except ValueError as error:  # "source code string cannot contain null bytes"
            raise SyntaxError(str(error)) from None
