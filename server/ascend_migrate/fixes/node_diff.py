"""Minimal edits from a libcst node to its rewrite, in time linear in the node's size.

A rewrite (`node.with_changes(...)`) keeps every unchanged subtree as the same object, so the text of
those subtrees is equal in both renderings and needs no diffing. A small node is diffed by tokens whole
(`text.diff_edits`); in a large one (a call whose argument is a 20,000-element literal), only the text
between the kept subtrees is: a token diff of the whole would take time quadratic in its length.
"""

from __future__ import annotations

import libcst
from libcst.metadata import MetadataWrapper, WhitespaceInclusivePositionProvider

from ascend_migrate.fixes import work
from ascend_migrate.fixes.text import LineIndex, TextEdit, absolute, diff_edits

# Below this many characters the whole text is diffed by tokens (at most some milliseconds).
LARGE_NODE = 2000


def rewrite_edits(old: libcst.CSTNode, new: libcst.CSTNode, old_text: str, line: int, column: int,
                  large: int = LARGE_NODE) -> list[TextEdit]:
    """The smallest edits that turn `old_text` (the rendering of `old`, starting at line, column) into
    the rendering of `new`, a rewrite of `old`."""
    new_text = _render(new)
    if len(old_text) < large or old_text == new_text:
        return diff_edits(old_text, new_text, line, column)
    old_spans = _spans(old, old_text)
    new_spans = _spans(new, new_text)
    if old_spans is None or new_spans is None:
        return diff_edits(old_text, new_text, line, column)
    local = LineIndex(old_text)
    edits: list[TextEdit] = []
    old_cursor = new_cursor = 0
    for old_start, old_end, new_start, new_end in _kept(new, old_spans, new_spans, old_text, new_text):
        edits.extend(_gap_edits(old_text[old_cursor:old_start], new_text[new_cursor:new_start], local, old_cursor, line, column))
        old_cursor, new_cursor = old_end, new_end
    edits.extend(_gap_edits(old_text[old_cursor:], new_text[new_cursor:], local, old_cursor, line, column))
    return edits


def _render(node: libcst.CSTNode) -> str:
    text = libcst.Module([]).code_for_node(node)
    work.rendered(text)
    return text


def _gap_edits(old: str, new: str, local: LineIndex, offset: int, line: int, column: int) -> list[TextEdit]:
    return diff_edits(old, new, *absolute(local.position(offset), line, column))


def _spans(node: libcst.CSTNode, text: str) -> dict[libcst.CSTNode, tuple[int, int]] | None:
    """Every subtree of `node` with its (start, end) offsets in `text` (the node's rendering), or None when
    the node cannot be placed in a module to be measured. A subtree used twice gets one of its places;
    `_kept` checks the texts, so that can cost a larger diff but never a wrong edit."""
    if isinstance(node, libcst.BaseExpression):
        statement = libcst.SimpleStatementLine([libcst.Expr(node)])
    elif isinstance(node, libcst.BaseSmallStatement):
        statement = libcst.SimpleStatementLine([node])
    else:
        return None
    wrapper = MetadataWrapper(libcst.Module([statement]), unsafe_skip_copy=True)  # keep the nodes' identity
    ranges = wrapper.resolve(WhitespaceInclusivePositionProvider)
    work.rendered(text)
    starts = LineIndex(text).starts
    spans = {
        each: (starts[where.start.line - 1] + where.start.column, starts[where.end.line - 1] + where.end.column)
        for each, where in ranges.items()
        if where.end.line <= len(starts)
    }
    if spans.get(node) != (0, len(text)):
        return None  # not measured as rendered alone: diff the whole instead
    return spans


def _kept(new: libcst.CSTNode, old_spans: dict, new_spans: dict, old_text: str, new_text: str) -> list[tuple[int, int, int, int]]:
    """The largest subtrees of `new` that are subtrees of `old` too, in text order, as (old start, old end,
    new start, new end): each after the previous in both texts, with the same text in both."""
    kept: list[tuple[int, int, int, int]] = []
    old_end = new_end = 0
    pending = [new]
    while pending:
        node = pending.pop()
        old_span, new_span = old_spans.get(node), new_spans.get(node)
        if (
            old_span is not None
            and new_span is not None
            and old_end <= old_span[0] < old_span[1]
            and new_end <= new_span[0]
            and old_text[old_span[0]:old_span[1]] == new_text[new_span[0]:new_span[1]]
        ):
            kept.append((*old_span, *new_span))
            old_end, new_end = old_span[1], new_span[1]
            continue
        pending.extend(reversed(node.children))
    return kept
