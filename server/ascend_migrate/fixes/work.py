"""Counting the fixes room's costly steps (parses, renders, change-list text), so tests can pin how they grow.

`with counting() as work: fix_all(...)` fills `work` with what that call did; outside `counting()` nothing is
counted and the hooks cost one context-variable lookup. The counts are deterministic, so a test can say
"four times the fixes, at most about four times the work" without timing anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class WorkCount:
    """What the fixes room did while counting."""

    module_parses: int = 0  # whole texts parsed with `ast` (the file, the fixed file)
    module_parse_characters: int = 0
    piece_parses: int = 0  # pieces of a large module parsed one by one for its outline (fixes/outline.py)
    region_parses: int = 0  # runs of top-level statements parsed alone (the statements a fix edited)
    region_parse_characters: int = 0
    expression_parses: int = 0  # snippets parsed with libcst (a call, a new argument, an import statement)
    expression_parse_characters: int = 0
    render_characters: int = 0  # characters of libcst nodes rendered back to text
    diff_tokens: int = 0  # tokens of old and new text given to the token diff (`text.diff_edits`)
    change_characters: int = 0  # characters of the change list's before and after texts


_current: ContextVar[WorkCount | None] = ContextVar("ascend_migrate_fixes_work", default=None)


@contextmanager
def counting() -> Iterator[WorkCount]:
    """Count the work of the fixes room inside the `with` block (in this thread or task)."""
    work = WorkCount()
    token = _current.set(work)
    try:
        yield work
    finally:
        _current.reset(token)


def module_parsed(text: str) -> None:
    work = _current.get()
    if work is not None:
        work.module_parses += 1
        work.module_parse_characters += len(text)


def piece_parsed(text: str) -> None:
    work = _current.get()
    if work is not None:
        work.piece_parses += 1


def region_parsed(text: str) -> None:
    work = _current.get()
    if work is not None:
        work.region_parses += 1
        work.region_parse_characters += len(text)


def expression_parsed(text: str) -> None:
    work = _current.get()
    if work is not None:
        work.expression_parses += 1
        work.expression_parse_characters += len(text)


def rendered(text: str) -> None:
    work = _current.get()
    if work is not None:
        work.render_characters += len(text)


def diffed(tokens: int) -> None:
    work = _current.get()
    if work is not None:
        work.diff_tokens += tokens


def change_listed(before: str, after: str) -> None:
    work = _current.get()
    if work is not None:
        work.change_characters += len(before) + len(after)
