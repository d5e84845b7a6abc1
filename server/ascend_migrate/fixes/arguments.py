"""libcst for the fix families: parsing a call and rendering nodes (counted), and the `call-arguments` rewrite.

Only the call's own text is parsed, and only the tokens that change are edited, so the formatting of the
rest of the call (line breaks, comments, trailing commas) stays as it was.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from decimal import Decimal, InvalidOperation

import libcst

from ascend_migrate.fixes import work
from ascend_migrate.fixes.errors import FixError
from ascend_migrate.fixes.families.base import Span
from ascend_migrate.fixes.text import LineIndex

_EMPTY_MODULE = libcst.Module([])
_TIGHT_EQUAL = libcst.AssignEqual(whitespace_before=libcst.SimpleWhitespace(""), whitespace_after=libcst.SimpleWhitespace(""))


def node_text(node: libcst.CSTNode) -> str:
    text = _EMPTY_MODULE.code_for_node(node)
    work.rendered(text)
    return text


def parse_expression(text: str) -> libcst.BaseExpression:
    """`libcst.parse_expression`, counted (see `work`)."""
    work.expression_parsed(text)
    return libcst.parse_expression(text)


def parse_call(index: LineIndex, span: Span) -> tuple[libcst.Call, str]:
    """The call expression at `span` and its text."""
    try:
        text = index.slice(*span)
    except ValueError as error:
        raise FixError(f"the call span {list(span)} does not fit the text: {error}") from None
    try:
        node = parse_expression(text)
    except libcst.ParserSyntaxError:
        raise FixError(f"the text at line {span[0]} column {span[1]} is not an expression: {text[:60]!r}") from None
    except RecursionError:
        raise FixError(f"the call at line {span[0]} column {span[1]} is nested too deeply to rewrite") from None
    if not isinstance(node, libcst.Call):
        raise FixError(f"the text at line {span[0]} column {span[1]} is not a call: {text[:60]!r}")
    return node, text


def rewrite_call(
    call: libcst.Call,
    rename: Mapping[str, str],
    drop: Collection[str],
    set_values: Mapping[str, str],
    defaults: Mapping[str, str],
    complement: Mapping[str, str],
    positions: Mapping[str, int],
    keep: int | None,
    additions: Sequence[str],
    callee: str | None,
    method: str | None,
) -> libcst.Call:
    """`call` with its arguments renamed, dropped, set and complemented (the `call-arguments` family's
    fields, fixes/families/call_arguments.py, as plain values: this module knows no family)."""
    args = list(call.args)
    positional = _positional_count(args)
    last_positional = positional - 1 if positional == len([arg for arg in args if arg.keyword is None]) else -1

    removed: set[int] = set()
    # From the last argument back: once a trailing positional is dropped, the one before it is the last
    # (`Dropout(0.2, True)` → `Dropout(keep_prob=0.8)`, never `Dropout(0.8)`, which ops/nn reads as keep_prob).
    for number in reversed(range(len(args))):
        arg = args[number]
        name = _parameter_name(arg, number, positional, positions)
        if name is None:
            continue
        is_keyword = arg.keyword is not None
        if name in drop and (is_keyword or number == last_positional):
            removed.add(number)
            last_positional -= 0 if is_keyword else 1
        elif name in complement:
            value = complement_of(arg.value)
            if is_keyword or number == last_positional:
                args[number] = _as_keyword(arg, complement[name], value)
                last_positional -= 0 if is_keyword else 1
            else:
                args[number] = arg.with_changes(value=value)
        elif name in rename and (is_keyword or number == last_positional):
            args[number] = _as_keyword(arg, rename[name], arg.value)
            # written by keyword, it no longer fixes a position: the positional before it is now the last
            # (`max_pool2d(x, 2, 2, 0, 1, False, False)`: both swapped parameters by keyword, never one)
            last_positional -= 0 if is_keyword else 1
    if isinstance(keep, int):
        removed.update(number for number in range(keep, positional))
    args = _without(args, removed)

    for name, value_text in set_values.items():
        found = _find(args, name, positions)
        value = _expression(value_text)
        if found is None:
            args = _appended(call, args, _keyword(name, value))
        elif node_text(args[found].value) != value_text:
            args[found] = args[found].with_changes(value=value)
    for name, value_text in defaults.items():
        if _find(args, name, positions) is None:
            args = _appended(call, args, _keyword(name, _expression(value_text)))
    if additions and not args:
        for value_text in additions:
            args = _appended(call, args, libcst.Arg(value=_expression(value_text)))

    rewritten = call.with_changes(args=args)
    if callee and node_text(call.func) != callee:
        rewritten = rewritten.with_changes(func=_expression(callee))
    if method and isinstance(call.func, libcst.Attribute) and call.func.attr.value != method:
        rewritten = rewritten.with_changes(func=call.func.with_changes(attr=libcst.Name(method)))
    return rewritten


def mapping(pairs: tuple, name: str) -> dict:
    """A field of (name, value) pairs as a dict; FixError when the data (from JSON) is not pairs."""
    try:
        return {str(key): value for key, value in pairs}
    except (TypeError, ValueError):
        raise FixError(f"{name!r} must be an object, got {pairs!r}") from None


def _positional_count(args: list[libcst.Arg]) -> int:
    """How many leading plain positional arguments the call has (a `*args` makes later positions unknown)."""
    count = 0
    for arg in args:
        if arg.keyword is not None or arg.star:
            break
        count += 1
    return count


def _parameter_name(arg: libcst.Arg, number: int, positional: int, positions: Mapping[str, int]) -> str | None:
    if arg.keyword is not None:
        return arg.keyword.value
    if number < positional:
        for name, position in positions.items():
            if position == number:
                return name
    return None


def _find(args: list[libcst.Arg], name: str, positions: Mapping[str, int]) -> int | None:
    for number, arg in enumerate(args):
        if arg.keyword is not None and arg.keyword.value == name:
            return number
    position = positions.get(name)
    if position is not None and position < _positional_count(args):
        return position
    return None


def _as_keyword(arg: libcst.Arg, name: str, value: libcst.BaseExpression) -> libcst.Arg:
    if arg.keyword is not None:
        return arg.with_changes(keyword=libcst.Name(name), value=value)
    return arg.with_changes(keyword=libcst.Name(name), equal=_TIGHT_EQUAL, value=value)


def _keyword(name: str, value: libcst.BaseExpression) -> libcst.Arg:
    return libcst.Arg(keyword=libcst.Name(name), equal=_TIGHT_EQUAL, value=value)


def _expression(text: str) -> libcst.BaseExpression:
    try:
        return parse_expression(str(text))
    except libcst.ParserSyntaxError:
        raise FixError(f"{text!r} is not a Python expression") from None


def _without(args: list[libcst.Arg], removed: set[int]) -> list[libcst.Arg]:
    """The arguments without those numbered in `removed`; the last one keeps the original last comma
    (a trailing comma and the line break before the closing bracket stay)."""
    if not removed:
        return args
    kept = [arg for number, arg in enumerate(args) if number not in removed]
    if kept and len(args) - 1 in removed:
        kept[-1] = kept[-1].with_changes(comma=closing_comma(kept[-1].comma, args[-1].comma))
    return kept


def closing_comma(own: libcst.Comma | libcst.MaybeSentinel, closing: libcst.Comma | libcst.MaybeSentinel) -> libcst.Comma | libcst.MaybeSentinel:
    """The comma for an element that becomes the last one: the old last element's comma (trailing comma or
    none, and the line break before the closing bracket), keeping the element's own end-of-line comment."""
    own_space = own.whitespace_after if isinstance(own, libcst.Comma) else None
    if isinstance(own_space, libcst.ParenthesizedWhitespace) and own_space.first_line.comment is not None:
        if isinstance(closing, libcst.Comma) and isinstance(closing_space := closing.whitespace_after, libcst.ParenthesizedWhitespace):
            merged = closing_space.with_changes(first_line=own_space.first_line)
            return closing.with_changes(whitespace_after=merged)
        return own  # keep the comma: dropping it would glue the comment to the closing bracket
    return closing


def _appended(call: libcst.Call, args: list[libcst.Arg], new: libcst.Arg) -> list[libcst.Arg]:
    """The arguments with `new` after the last, spaced like the existing ones."""
    if not args:
        return [new]
    last = args[-1]
    if len(args) >= 2 and isinstance(args[-2].comma, libcst.Comma):
        separator = args[-2].comma
    elif isinstance(call.whitespace_before_args, libcst.ParenthesizedWhitespace):
        separator = libcst.Comma(whitespace_after=call.whitespace_before_args)
    else:
        separator = libcst.Comma(whitespace_after=libcst.SimpleWhitespace(" "))
    if isinstance(last.comma, libcst.Comma):  # a trailing comma: the new argument takes it over
        return [*args[:-1], last.with_changes(comma=separator), new.with_changes(comma=last.comma)]
    return [*args[:-1], last.with_changes(comma=separator), new]


def complement_of(value: libcst.BaseExpression) -> libcst.BaseExpression:
    """`1 - value`, computed exactly for a number literal (0.2 → 0.8)."""
    if isinstance(value, (libcst.Float, libcst.Integer)) and not value.lpar:
        try:
            result = Decimal(1) - Decimal(value.value.replace("_", ""))
        except InvalidOperation:
            result = None
        if result is not None and result >= 0:
            text = format(result, "f")
            return libcst.Float(text) if "." in text else libcst.Integer(text)
    simple = isinstance(value, (libcst.Name, libcst.Attribute, libcst.Call, libcst.Subscript, libcst.Float, libcst.Integer))
    operand = value if simple or value.lpar else value.with_changes(lpar=[libcst.LeftParen()], rpar=[libcst.RightParen()])
    return libcst.BinaryOperation(left=libcst.Integer("1"), operator=libcst.Subtract(), right=operand)
