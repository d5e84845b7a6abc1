"""Cutting a module into top-level statements ("chunks"), the unit of analysis, caching and recovery.

Every line of the module belongs to exactly one chunk: a chunk runs from its statement's first line (its
first decorator) to the line before the next statement. When the whole module parses, one `ast.parse`
gives every chunk. When it does not, the text is cut at lines that start at column 0 and each piece is
parsed on its own, so that a syntax error in one function hides nothing in the rest of the file.
"""

from __future__ import annotations

import ast
import gc
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field

from ascend_migrate.analysis.findings import Finding

# Lines at column 0 that continue the statement above rather than start a new one.
_CONTINUATION_STARTS = ("else", "elif", "except", "finally", "case", ")", "]", "}", "#")
MAX_NESTING_MESSAGE = "too deeply nested to analyse"


@dataclass(slots=True)  # a generated module has hundreds of thousands of chunks
class Chunk:
    start: int  # first line, 1-based
    end: int  # last line, inclusive
    statements: list[ast.stmt]  # the top-level statements, line numbers relative to `line_offset`
    line_offset: int  # add to an ast line number to get the module line
    error: str | None = None  # why the chunk could not be parsed
    error_line: int | None = None
    findings: list[Finding] = field(default_factory=list)
    # What the chunk binds at module level, as the incremental analysis compares it: `bindings` from the
    # pre-pass (imports, classes, functions), `written` from the walk (variables and their types too).
    bindings: tuple = ()
    written: tuple = ()
    # every name the walk looked up: an edit that rebinds one of them at module level re-walks this chunk
    referenced: frozenset = frozenset()
    # the classes the chunk defines at module level (name → ClassInfo), from the pre-pass
    class_infos: dict = field(default_factory=dict)
    # the first line of earlier chunks whose text a rule read for this chunk's findings (a module-level Keras
    # model made of the statements above it): an edit from there on needs this chunk walked again
    reads_from: int | None = None
    # a rule read the text after the chunk for its findings (rules/recurrent_cells.py: does the file compute in
    # float64): an edit anywhere below needs this chunk walked again
    reads_later: bool = False
    # module-level functions it defines, calls and uses (walker.function_records; from its walk without hints) and
    # the parameter hints its findings were made with (analysis/call_sites.py)
    function_records: tuple = ()
    hints: tuple = ()
    # findings that hold only if no chunk uses the name they are about (rules/unused_torch_imports.py)
    unused_candidates: tuple = ()


def parse_module(lines: list[str], first_line: int = 1) -> list[Chunk]:
    """Chunks for `lines` (a whole module, or a region starting at `first_line`)."""
    text = "\n".join(lines)
    tree = _parse(text)
    if isinstance(tree, ast.Module):
        return _chunks_from_tree(tree, len(lines), first_line)
    return _recover(lines, first_line)


@contextmanager
def collector_paused():
    """No cyclic garbage collection inside: for parsing and walking syntax trees, which hold no cycles.

    The collector does not know that. While the parser allocates a big module's nodes, and while the walk
    allocates its own objects beside them, it traverses the live tree again and again: a 4 MB file took 6 s
    to analyse with it, 2.4 s without (docs/performance.md). Reference counting still frees everything; the
    few cycles an analysis makes are collected after. Re-entrant; restores the collector as it found it.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _parse(text: str) -> ast.Module | str:
    try:
        with collector_paused(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for invalid escapes is the user's business
            return ast.parse(text)
    except SyntaxError as error:
        return f"syntax error: {error.msg}" + (f" (line {error.lineno})" if error.lineno else "")
    except (RecursionError, MemoryError):
        return MAX_NESTING_MESSAGE
    except ValueError as error:  # NUL bytes before 3.12
        return f"cannot parse: {error}"


def _first_line(statement: ast.stmt) -> int:
    decorators = getattr(statement, "decorator_list", None)
    if decorators:
        return min(decorator.lineno for decorator in decorators)
    return statement.lineno


def _chunks_from_tree(tree: ast.Module, line_count: int, first_line: int) -> list[Chunk]:
    offset = first_line - 1
    body = tree.body
    if not body:
        return [Chunk(first_line, first_line + line_count - 1, [], offset)]
    chunks: list[Chunk] = []
    starts = [_first_line(statement) for statement in body]
    # Statements on one line (`import os; import sys`) share a chunk.
    grouped: list[tuple[int, list[ast.stmt]]] = []
    for start, statement in zip(starts, body, strict=True):
        if grouped and grouped[-1][0] == start:
            grouped[-1][1].append(statement)
        else:
            grouped.append((start, [statement]))
    if grouped[0][0] > 1:  # comments and blank lines before the first statement
        chunks.append(Chunk(first_line, offset + grouped[0][0] - 1, [], offset))
    for index, (start, statements) in enumerate(grouped):
        end = grouped[index + 1][0] - 1 if index + 1 < len(grouped) else line_count
        chunks.append(Chunk(offset + start, offset + end, statements, offset))
    return chunks


def _statement_starts(lines: list[str]) -> list[int]:
    """0-based indexes of lines that may start a top-level statement (a cheap textual guess)."""
    starts = []
    for index, line in enumerate(lines):
        if not line or line[0] in " \t\f" or line.startswith(_CONTINUATION_STARTS):
            continue
        if line.startswith(("else:", "elif ", "except", "finally:")):
            continue
        starts.append(index)
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    return starts


def plan_pieces(lines: list[str], characters: int) -> list[tuple[int, int]]:
    """Line ranges [begin, end) (0-based) of about `characters` each, cut where a line may start a top-level
    statement. A cut that falls inside a statement leaves a piece that does not parse (an unclosed bracket,
    string or decorator), which the caller detects."""
    pieces: list[tuple[int, int]] = []
    begin = size = 0
    starts = iter(_statement_starts(lines))
    next_start = next(starts, None)
    for index, line in enumerate(lines):
        while next_start is not None and next_start < index:
            next_start = next(starts, None)
        if index == next_start and size >= characters and index > begin:
            pieces.append((begin, index))
            begin, size = index, 0
        size += len(line) + 1
    if begin < len(lines) or not pieces:
        pieces.append((begin, len(lines)))
    return pieces


def _recover(lines: list[str], first_line: int) -> list[Chunk]:
    """Parse piece by piece: each piece starts at a column-0 line; a piece that fails joins the next one
    (a decorator, a dangling `else`), and after a few tries it is reported and skipped."""
    starts = _statement_starts(lines)
    boundaries = starts + [len(lines)]
    chunks: list[Chunk] = []
    index = 0
    while index < len(starts):
        begin = boundaries[index]
        parsed = None
        last_error = ""
        # Grow the piece over following starts until it parses (up to a limit, to stay linear).
        for stop_index in range(index + 1, min(index + 4, len(boundaries))):
            stop = boundaries[stop_index]
            piece = lines[begin:stop]
            tree = _parse("\n".join(piece))
            if isinstance(tree, ast.Module):
                parsed = (stop_index, tree)
                break
            last_error = tree
        if parsed is None:
            stop = boundaries[index + 1]
            error_line = first_line + begin
            chunks.append(Chunk(first_line + begin, first_line + stop - 1, [], first_line + begin - 1,
                                error=last_error or "cannot parse", error_line=error_line))
            index += 1
            continue
        stop_index, tree = parsed
        stop = boundaries[stop_index]
        for chunk in _chunks_from_tree(tree, stop - begin, first_line + begin):
            chunks.append(chunk)
        index = stop_index
    return chunks
