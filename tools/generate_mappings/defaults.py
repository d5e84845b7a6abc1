"""Defaults compared by value, not by spelling: `(0.75, 1.3333333333333333)` and `(3.0 / 4.0, 4.0 / 3.0)` are
the same default, so a row that says they differ only because the reference's `sig_default_differs`
compared the signatures' text is no difference. Literal arithmetic is evaluated on the syntax tree, never with eval."""

from __future__ import annotations

import ast
import math
import operator
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # sources.py applies these to every row it reads
    from tools.generate_mappings.sources import MappingRow, ParameterRow

# Only the reference's own literal comparison of the two signatures is redone by value; where the doc's text
# says a default differs (`default_differs`), the doc is taken at its word.
SIGNATURE_FLAG = "sig_default_differs"
DOC_FLAG = "default_differs"
DEFAULTS_SECTION = "default differs: "
# The reference's category for a row whose flags are these, in its README's priority order.
CATEGORY_OF_FLAG = (
    ("io_differs", "different_io"), ("torch_only", "different_params"), ("position_differs", "different_params"),
    ("type_differs", "different_dtypes"), ("renamed", "different_param_names"),
    ("behavior_differs", "different_behavior"), ("mindspore_only", "different_params"), ("tf_only", "different_params"),
)
_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_SIGNS = {ast.UAdd: operator.pos, ast.USub: operator.neg}


class NotALiteral(ValueError):
    """The text is not a literal this module evaluates (a name, a call, an enum member…)."""


def literal_value(text: str) -> object:
    """The value of a literal default: numbers, strings, True/False/None, tuples and lists of them, and + - * /
    between numbers. Raises NotALiteral for anything else."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        raise NotALiteral(text) from None
    return _value(tree.body, text)


def _value(node: ast.expr, text: str) -> object:
    if isinstance(node, ast.Constant) and not isinstance(node.value, (bytes, type(...))):
        return node.value
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_value(element, text) for element in node.elts)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _SIGNS:
        operand = _value(node.operand, text)
        if _is_number(operand):
            return _SIGNS[type(node.op)](operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _value(node.left, text), _value(node.right, text)
        if _is_number(left) and _is_number(right) and not (type(node.op) is ast.Div and right == 0):
            return _OPERATORS[type(node.op)](left, right)
    raise NotALiteral(text)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def same_default(first: str, second: str) -> bool:
    """Whether two spelled defaults are the same value (False when either is no literal: then only the
    spellings are known, and they differ)."""
    try:
        return _equal(literal_value(first), literal_value(second))
    except NotALiteral:
        return False


def _equal(first: object, second: object) -> bool:
    if isinstance(first, tuple) and isinstance(second, tuple):
        return len(first) == len(second) and all(_equal(a, b) for a, b in zip(first, second))
    if _is_number(first) and _is_number(second):
        return math.isclose(first, second, rel_tol=1e-12, abs_tol=0.0)
    return type(first) is type(second) and first == second


def parameter_row_by_value(row: ParameterRow) -> ParameterRow:
    """A row that says only that the default differs, between two defaults of the same value, says nothing."""
    if set(row.flags) != {SIGNATURE_FLAG} or not same_default(row.source_default, row.mindspore_default):
        return row
    return replace(row, flags=())


def mapping_row_by_value(row: MappingRow) -> MappingRow:
    """The row with the defaults its summary lists as differing but which are the same value taken out; its
    flags and category follow (a row left with no difference at all is consistent)."""
    if SIGNATURE_FLAG not in row.diff_flags or DOC_FLAG in row.diff_flags:
        return row  # the summary's defaults may be the doc's word: kept
    sections = row.diff_summary.split("; ")
    position = next((index for index, section in enumerate(sections) if section.startswith(DEFAULTS_SECTION)), None)
    if position is None:
        return row
    items = _top_level_items(sections[position][len(DEFAULTS_SECTION):])
    differing = [item for item in items if not _same_valued_item(item)]
    if len(differing) == len(items):
        return row
    if differing:
        sections[position] = DEFAULTS_SECTION + ", ".join(differing)
        return replace(row, diff_summary="; ".join(sections))
    del sections[position]
    flags = tuple(flag for flag in row.diff_flags if flag != SIGNATURE_FLAG)
    category = row.category
    if category == "different_defaults":
        category = next((name for flag, name in CATEGORY_OF_FLAG if flag in flags), "consistent" if not sections else category)
    return replace(row, diff_summary="; ".join(sections), diff_flags=flags, category=category)


def _top_level_items(text: str) -> list[str]:
    """`a (x vs y), b ((1, 2) vs (1.0, 2.0))` → its items, split at commas outside parentheses."""
    items, depth, start = [], 0, 0
    for index, character in enumerate(text):
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth -= 1
        elif character == "," and depth == 0:
            items.append(text[start:index].strip())
            start = index + 1
    items.append(text[start:].strip())
    return [item for item in items if item]


def _same_valued_item(item: str) -> bool:
    """`ratio ((0.75, 1.3333333333333333) vs (3.0 / 4.0, 4.0 / 3.0))` → True."""
    opening = item.find(" (")
    if opening < 0 or not item.endswith(")"):
        return False
    inside = item[opening + 2:-1]
    depth = 0
    for index, character in enumerate(inside):
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth -= 1
        elif depth == 0 and inside.startswith(" vs ", index):
            return same_default(inside[:index], inside[index + 4:])
    return False
