"""A module's outline for fixing it: where each top-level statement runs, and its imports, without its tree.

Fixing needs little of a module's syntax tree: the line span of each top-level statement (to widen edits to
whole statements and check that they still parse), the import statements (what is bound, where a new import
goes, which import a fix left unused), and now and then one untouched statement's names. Holding the whole
tree for that costs about 400 bytes a line (2.4 GB for a 6 MB file). So a large module is parsed in pieces
of about PIECE_CHARACTERS, as the engine analyses it (analysis/chunks.py), each piece's tree dropped once its
spans and imports are read; the untouched statements' trees are parsed again, in runs, only when asked for.
A small module (one piece) keeps its statements, so asking costs nothing.
"""

from __future__ import annotations

import ast
from array import array
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, replace

from ascend_migrate.analysis.chunks import plan_pieces
from ascend_migrate.fixes.syntax import parse, parse_piece
from ascend_migrate.fixes.text import LineIndex

# The engine's piece size (analysis/engine.py): a piece's tree is at most about 100 MB.
PIECE_CHARACTERS = 250_000


class ModuleOutline:
    """The top-level statements of a module that parses, in order, with its import statements.

    `first_lines[i]` is statement i's first line (its first decorator), `lines[i]` the line its keyword is
    on, `end_lines[i]` its last line. Raises SyntaxError when the module does not parse.
    """

    def __init__(self, source: str, index: LineIndex) -> None:
        self.source = source
        self.index = index
        self.first_lines = array("q")
        self.lines = array("q")
        self.end_lines = array("q")
        self.kinds: dict[int, ast.stmt] = {}  # statement number → the statement, for imports and a leading docstring
        self.module_sites: list[ImportSite] = []  # imports that bind module-level names
        self.all_sites: list[ImportSite] = []  # every import, in functions and classes too
        self._kept: list[ast.stmt] | None = None  # every statement, when the module was parsed whole
        pieces = self._pieces()
        if len(pieces) > 1 and self._read_pieces(pieces):
            return
        tree = parse(source)
        self._kept = tree.body
        self._read(tree, 0)

    def _read_pieces(self, pieces: list[tuple[int, int]]) -> bool:
        """Read the module piece by piece; False (with nothing read) when a piece does not parse alone: a cut
        inside a statement, or an error the whole module's parse must report."""
        for begin, end in pieces:
            try:
                tree = parse_piece(self.source[self.index.starts[begin]:self._offset_after(end)])
            except SyntaxError:
                for numbers in (self.first_lines, self.lines, self.end_lines):
                    del numbers[:]
                self.kinds.clear()
                self.module_sites.clear()
                self.all_sites.clear()
                return False
            self._read(tree, begin, piece=True)
        if len(self) == 1:  # one statement (the rest comments): an import alone in the module needs a `pass`
            self.all_sites = [replace(site, alone_in_block=True) if site.node is self.kinds.get(0) else site for site in self.all_sites]
            self.module_sites = [replace(site, alone_in_block=True) if site.node is self.kinds.get(0) else site for site in self.module_sites]
        return True

    def _pieces(self) -> list[tuple[int, int]]:
        if len(self.source) <= PIECE_CHARACTERS:
            return [(0, self.index.line_count)]
        lines = [self.index.line_text(line) for line in range(1, self.index.line_count + 1)]
        return plan_pieces(lines, PIECE_CHARACTERS)

    def _offset_after(self, end: int) -> int:
        """The offset where 0-based line `end` starts (the text's end after the last line)."""
        return self.index.starts[end] if end < self.index.line_count else len(self.source)

    def _read(self, tree: ast.Module, line_offset: int, piece: bool = False) -> None:
        base = len(self.lines)
        for position, statement in enumerate(tree.body):
            number = base + position
            decorators = getattr(statement, "decorator_list", None)
            first = min(decorator.lineno for decorator in decorators) if decorators else statement.lineno
            self.first_lines.append(first + line_offset)
            self.lines.append(statement.lineno + line_offset)
            self.end_lines.append((statement.end_lineno or statement.lineno) + line_offset)
            if isinstance(statement, (ast.Import, ast.ImportFrom)) or (number == 0 and _is_docstring(statement)):
                self.kinds[number] = statement
        module_level = {id(site.node) for site in import_sites(tree)}
        top_level = {id(statement) for statement in tree.body} if piece else set()
        for site in import_sites(tree, everywhere=True):
            if line_offset:  # the top-level imports in `kinds` are these nodes: moved with them
                ast.increment_lineno(site.node, line_offset)
            if piece and id(site.node) in top_level and site.alone_in_block:
                site = replace(site, alone_in_block=False)  # alone in its piece, not in the module
            self.all_sites.append(site)
            if id(site.node) in module_level:
                self.module_sites.append(site)

    def __len__(self) -> int:
        return len(self.lines)

    def untouched_statements(self, regions: list[tuple[int, int]]) -> Iterator[ast.stmt]:
        """The trees of the statements that share no line with the `regions` (runs of lines), in order. A
        large module's are parsed again in runs of about PIECE_CHARACTERS, lazily: a caller that stops early
        (a name found in use) parses no further."""
        touched: set[int] = set()
        for first, last in regions:
            touched.update(self.overlapping(first, last))
        if self._kept is not None:
            yield from (statement for number, statement in enumerate(self._kept) if number not in touched)
            return
        starts, count = self.index.starts, len(self)
        number = 0
        while number < count:
            if number in touched:
                number += 1
                continue
            stop = number + 1
            begin = starts[self.first_lines[number] - 1]
            while stop < count and stop not in touched and starts[self.end_lines[stop] - 1] - begin < PIECE_CHARACTERS:
                stop += 1
            yield from parse_piece(self.source[begin:self._offset_after(self.end_lines[stop - 1])]).body
            number = stop

    def overlapping(self, first: int, last: int) -> range:
        """The numbers of the statements that share a line with lines `first`..`last`."""
        start = bisect_right(self.end_lines, first - 1)  # the first statement ending on or after `first`
        stop = bisect_right(self.first_lines, last)  # past the last statement starting on or before `last`
        return range(start, max(start, stop))


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str)


_BLOCK_FIELDS = ("body", "orelse", "finalbody")


@dataclass(frozen=True)
class ImportSite:
    """One import statement: what it binds, and where it sits."""

    node: ast.Import | ast.ImportFrom
    bindings: tuple[tuple[str, str], ...]  # (bound name, qualified module or object)
    alone_in_block: bool  # the only statement of its block (removing it needs a `pass`)


def bindings_of(node: ast.Import | ast.ImportFrom) -> tuple[tuple[str, str], ...]:
    if isinstance(node, ast.Import):
        return tuple(
            (alias.asname, alias.name) if alias.asname else (alias.name.split(".", 1)[0], alias.name.split(".", 1)[0])
            for alias in node.names
        )
    module = "." * node.level + (node.module or "")
    return tuple((alias.asname or alias.name, f"{module}.{alias.name}") for alias in node.names if alias.name != "*")


def import_sites(tree: ast.Module, everywhere: bool = False) -> list[ImportSite]:
    """The imports that bind module-level names (in the module body and its if/try/with blocks), or with
    `everywhere` also those inside functions and classes."""
    sites: list[ImportSite] = []
    _collect(tree.body, sites, everywhere)
    return sites


def _collect(body: list[ast.stmt], sites: list[ImportSite], everywhere: bool) -> None:
    for statement in body:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            sites.append(ImportSite(statement, bindings_of(statement), len(body) == 1))
            continue
        if not everywhere and isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue  # their imports bind local names
        for block in _blocks(statement):
            _collect(block, sites, everywhere)


def _blocks(statement: ast.stmt) -> Iterator[list[ast.stmt]]:
    for field_name in _BLOCK_FIELDS:
        block = getattr(statement, field_name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield block
    for handler in getattr(statement, "handlers", ()) or ():
        yield handler.body
    for case in getattr(statement, "cases", ()) or ():
        yield case.body
