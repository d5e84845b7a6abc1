"""The `string-value` fix family: replace the start of a string literal's value (`"cuda:0"` → `"npu:0"`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ascend_migrate.analysis.findings import TextEdit
from ascend_migrate.fixes.arguments import span_of
from ascend_migrate.fixes.errors import FixError
from ascend_migrate.fixes.text import LineIndex

_OPENING = re.compile(r"([rRbBuUfF]{0,2})('''|\"\"\"|'|\")")


def string_value_edits(source: str, arguments: Mapping[str, Any], index: LineIndex | None = None) -> list[TextEdit]:
    index = index or LineIndex(source)
    line, column, end_line, end_column = span_of(arguments, "span")
    old, new = arguments.get("old"), arguments.get("new")
    if not isinstance(old, str) or not isinstance(new, str) or not old:
        raise FixError(f"string-value needs 'old' and 'new' strings, got {old!r} and {new!r}")
    try:
        literal = index.slice(line, column, end_line, end_column)
    except ValueError as error:
        raise FixError(f"the string span does not fit the text: {error}") from None
    opening = _OPENING.match(literal)
    if opening is None or not literal.endswith(opening.group(2)) or len(literal) < 2 * len(opening.group(2)):
        raise FixError(f"the text at line {line} column {column} is not a string literal: {literal[:40]!r}")
    value_column = column + opening.end()
    if not literal[opening.end():].startswith(old) or len(literal) - opening.end() - len(opening.group(2)) < len(old):
        return []  # already fixed, or not the value the finding was about
    return [TextEdit(line, value_column, line, value_column + len(old), new)]
