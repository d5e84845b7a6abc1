"""Import management for fixes: add a needed import once, beside its family; remove imports a fix left unused."""

from __future__ import annotations

import ast
from bisect import bisect_right
from collections.abc import Iterable, Mapping

import libcst

from ascend_migrate.analysis.findings import TextEdit
from ascend_migrate.fixes import work
from ascend_migrate.fixes.arguments import closing_comma, node_text
from ascend_migrate.fixes.errors import FixError
from ascend_migrate.fixes.node_diff import rewrite_edits
from ascend_migrate.fixes.outline import ImportSite, ModuleOutline, bindings_of
from ascend_migrate.fixes.text import LineIndex, newline_of


def family_of(module: str) -> str:
    """The group an import belongs with: its top package, with torch_npu counted as torch."""
    top = module.split(".", 1)[0]
    return "torch" if top == "torch_npu" else top


class ModuleImports:
    """What a module imports at module level, computed once per text and shared by every fix."""

    def __init__(self, sites: Iterable[ImportSite]) -> None:
        self.bound: dict[str, str] = {}
        for site in sites:
            for name, target in site.bindings:
                self.bound.setdefault(name, target)
        self._checked: dict[str, str | None] = {}

    def problem_with(self, statement: str) -> str | None:
        """Why `statement` cannot be added (it would rebind a name), or None."""
        if statement not in self._checked:
            try:
                needed = bindings_of(_parse_import(statement))
                clashes = [name for name, target in needed if name in self.bound and self.bound[name] != target]
                self._checked[statement] = (
                    f"cannot add {statement!r}: {clashes[0]!r} is already imported as {self.bound[clashes[0]]}" if clashes else None
                )
            except FixError as error:
                self._checked[statement] = str(error)
        return self._checked[statement]


def _parse_import(statement: str) -> ast.Import | ast.ImportFrom:
    try:
        body = ast.parse(statement).body
    except SyntaxError:
        body = []
    if len(body) != 1 or not isinstance(body[0], (ast.Import, ast.ImportFrom)):
        raise FixError(f"{statement!r} is not one import statement")
    return body[0]


def _import_order(statement: str) -> tuple[int, str]:
    return (0 if statement.startswith("import ") else 1, statement)


def add_import_edits(
    outline: ModuleOutline,
    statements: Iterable[str],
    imports: ModuleImports | None = None,
    first_use: Mapping[str, int] | None = None,
) -> list[TextEdit]:
    """Edits that add each statement not yet satisfied by a module-level import, grouped by insertion point.

    `first_use` gives, per statement, the first line whose fixed code needs it: the import goes above it,
    so that module-level code (`torch.npu.set_device(0)` between two imports) finds it already run.
    """
    first_use = first_use or {}
    source, index = outline.source, outline.index
    imports = imports or ModuleImports(outline.module_sites)
    by_anchor: dict[tuple[int, int], list[str]] = {}
    for statement in dict.fromkeys(statement.strip() for statement in statements):
        problem = imports.problem_with(statement)
        if problem is not None:
            raise FixError(problem)
        node = _parse_import(statement)
        if all(imports.bound.get(name) == target for name, target in bindings_of(node)):
            continue
        module = node.names[0].name if isinstance(node, ast.Import) else node.module or ""
        point = _insertion_point(outline, family_of(module), first_use.get(statement, index.line_count + 1))
        by_anchor.setdefault(point, []).append(statement)
    newline = newline_of(source)
    edits = []
    for (line, column), group in by_anchor.items():
        lines = sorted(group, key=_import_order)
        if column == 1:
            text = "".join(statement + newline for statement in lines)
        else:  # after the last line of a text without a final line break
            text = "".join(newline + statement for statement in lines)
        edits.append(TextEdit(line, column, line, column, text))
    return edits


def _insertion_point(outline: ModuleOutline, family: str, before_line: int) -> tuple[int, int]:
    """Where an import of `family` goes: after the family's last top-level import, else after the leading
    imports, else after the docstring and `__future__` imports, else before the first statement (and its
    decorators); always above `before_line`."""
    before = bisect_right(outline.end_lines, before_line - 1)  # the statements that end above `before_line`
    anchor: int | None = None  # the statement to insert after
    for number, statement in outline.kinds.items():  # imports and a leading docstring, in order
        if number >= before:
            break
        if isinstance(statement, (ast.Import, ast.ImportFrom)) and family_of(_module_of(statement)) == family:
            anchor = number
    if anchor is None:
        number = 0
        while number < before and number in outline.kinds:  # a docstring is only ever statement 0
            anchor, number = number, number + 1
    if anchor is None:
        if len(outline):
            return outline.first_lines[0], 1
        return _after_line(outline.index, outline.index.line_count)
    return _after_line(outline.index, outline.end_lines[anchor])


def _after_line(index: LineIndex, line: int) -> tuple[int, int]:
    if line < index.line_count:
        return line + 1, 1
    # The last line: when it is empty the text ends with a line break and we insert there.
    end_column = index.line_end(line) - index.starts[line - 1] + 1
    return line, end_column


def _module_of(node: ast.Import | ast.ImportFrom) -> str:
    if isinstance(node, ast.Import):
        return node.names[0].name
    return "." * node.level + (node.module or "")


def used_names(tree: ast.Module) -> set[str]:
    """Every name the code reads or writes outside import statements, plus the strings in `__all__` and
    the names inside string annotations (`x: "torch.Tensor"`)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
        elif isinstance(node, ast.Assign) and any(isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets):
            names.update(item.value for item in ast.walk(node.value) if isinstance(item, ast.Constant) and isinstance(item.value, str))
        elif isinstance(node, (ast.arg, ast.AnnAssign, ast.FunctionDef, ast.AsyncFunctionDef)):
            annotation = node.returns if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else node.annotation
            if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                names.update(_names_in_annotation(annotation.value))
    return names


def _names_in_annotation(text: str) -> set[str]:
    try:
        expression = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return set()
    return {node.id for node in ast.walk(expression) if isinstance(node, ast.Name)}


def remove_import_edits(
    sites: Iterable[ImportSite],
    unused: set[str],
    index: LineIndex,
    protected_lines: frozenset[int] = frozenset(),
) -> list[TextEdit]:
    """Edits that remove the imports (`sites`: every import of the module, in functions too) binding the
    `unused` names, which the fixed code no longer uses. Imports on `protected_lines` (suppressed) stay."""
    edits: list[TextEdit] = []
    for site in sites:
        doomed = [name for name, _ in site.bindings if name in unused]
        if not doomed:
            continue
        node = site.node
        if any(line in protected_lines for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)):
            continue
        edits.extend(_removal(index, site, set(doomed)))
    return edits


def statement_span(index: LineIndex, node: ast.stmt) -> tuple[int, int, int, int]:
    """The statement's (line, column, end_line, end_column) in characters (ast counts UTF-8 bytes)."""
    end_line = node.end_lineno or node.lineno
    return node.lineno, _column(index, node.lineno, node.col_offset), end_line, _column(index, end_line, node.end_col_offset or 0)


def _column(index: LineIndex, line: int, byte_offset: int) -> int:
    return len(index.line_text(line).encode("utf-8")[:byte_offset].decode("utf-8", errors="replace")) + 1


def _removal(index: LineIndex, site: ImportSite, doomed: set[str]) -> list[TextEdit]:
    line, column, end_line, end_column = statement_span(index, site.node)
    if len(doomed) < len(site.bindings):
        old = index.slice(line, column, end_line, end_column)
        return rewrite_edits(*_without_names(old, doomed), old, line, column)
    before = index.line_text(line)[: column - 1]
    after = index.line_text(end_line)[end_column - 1:]
    alone_on_lines = not before.strip() and (not after.strip() or after.lstrip().startswith("#"))
    if site.alone_in_block or not alone_on_lines:
        return [TextEdit(line, column, end_line, end_column, "pass")]
    if end_line < index.line_count:
        return [TextEdit(line, 1, end_line + 1, 1, "")]
    return [TextEdit(line, 1, end_line, index.line_end(end_line) - index.starts[end_line - 1] + 1, "")]


def _without_names(statement: str, doomed: set[str]) -> tuple[libcst.CSTNode, libcst.CSTNode]:
    """The import statement's node, and the node without the aliases that bind `doomed` names, formatting kept."""
    work.expression_parsed(statement)
    try:
        line = libcst.parse_statement(statement)
    except libcst.ParserSyntaxError as error:
        raise FixError(f"cannot parse the import {statement!r}: {error.message}") from None
    assert isinstance(line, libcst.SimpleStatementLine)  # an import statement is always a simple one
    node = line.body[0]
    assert isinstance(node, (libcst.Import, libcst.ImportFrom))
    aliases = list(node.names) if not isinstance(node.names, libcst.ImportStar) else []
    kept = [alias for alias in aliases if _bound_name(alias, isinstance(node, libcst.Import)) not in doomed]
    if kept and kept[-1] is not aliases[-1]:
        kept[-1] = kept[-1].with_changes(comma=closing_comma(kept[-1].comma, aliases[-1].comma))
    return node, node.with_changes(names=kept)


def _bound_name(alias: libcst.ImportAlias, plain_import: bool) -> str:
    if alias.asname is not None:
        return node_text(alias.asname.name)
    full = node_text(alias.name)
    return full.split(".", 1)[0] if plain_import else full
