"""Third-party lists in the layout of the Ascend tool's `framework_unsupported_op.csv` (columns `Torch API`,
`Affected 3rd-party API`: a torch API, and the library APIs that reach it, one per line of the cell).

`read_list` reads such a file (the tool's or ours); `find_uses` reports a project's uses of the listed library
APIs as TP102 findings, also through a package that re-exports them (`mmcv.ops.nms` for `mmcv.ops.nms.nms`);
`library_report` writes the list for a library folder: the library's own functions and methods that reach,
directly or through the library's own calls, an API the target does not support (framework_unsupported_op.csv)
or a CUDA-only call (migration_needed_op.csv), as msfmktransplt's third_party mode does (Ascend-mstt@ef8e0386
msfmktransplt/src/ms_fmk_transplt/analysis/third_party_analysis/third_party_analyzer.py).
"""

from __future__ import annotations

import ast
import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ascend_migrate.analysis.findings import Finding
from ascend_migrate.config import Settings
from ascend_migrate.projects.references import parse_quietly, references
from ascend_migrate.taxonomy import DEFAULT_SEVERITY

CODE = "TP102"
CATEGORY = "third-party"
COLUMNS = ("Torch API", "Affected 3rd-party API")
UNSUPPORTED_FILE = "framework_unsupported_op.csv"
CUDA_FILE = "migration_needed_op.csv"
UNSUPPORTED_CATEGORIES = frozenset({"npu-unsupported", "ms-unsupported"})
CUDA_CODES = frozenset({"NPU101", "NPU105"})  # torch.cuda APIs and .cuda()-style methods: CUDA-only calls
CELL_LIMIT = 100  # names per cell: the tool splits longer lists over several rows


class ListError(Exception):
    """The list cannot be read; the message names the file and the line."""


@dataclass(frozen=True)
class ListedApi:
    library_api: str  # a library's function, class or method
    torch_apis: tuple[str, ...]  # the torch APIs it reaches


def read_list(path: Path) -> dict[str, ListedApi]:
    """Library API → what it reaches, from a file in the layout of framework_unsupported_op.csv."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise ListError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") from None
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or tuple(cell.strip() for cell in rows[0][:2]) != COLUMNS:
        found = ", ".join(rows[0]) if rows else "an empty file"
        raise ListError(f"{path}:1: expected the header `{', '.join(COLUMNS)}` (the Ascend tool's framework_unsupported_op.csv), found {found}")
    reached: dict[str, list[str]] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < 2:
            raise ListError(f"{path}:{number}: expected two columns ({', '.join(COLUMNS)}), found {len(row)}")
        torch_api = row[0].strip()
        for library_api in (name.strip() for name in row[1].splitlines()):
            if library_api:
                reached.setdefault(library_api, []).append(torch_api)
    return {name: ListedApi(name, tuple(dict.fromkeys(apis))) for name, apis in reached.items()}


def _matches(used: str, listed: str) -> bool:
    """Whether a reference to `used` reaches the listed library API: the same name, a class whose method is
    listed, or a name a package re-exports (`pkg.ops.nms` for `pkg.ops.nms.nms` or `pkg.ops._impl.nms`)."""
    if listed == used or listed.startswith(used + "."):
        return True
    package, _, name = used.rpartition(".")
    if not package or not listed.startswith(package + "."):
        return False
    rest = listed[len(package) + 1:].split(".")
    return name in rest[1:]  # defined in a module below the package that re-exports it


def find_uses(source: str, path: str, listed: dict[str, ListedApi]) -> list[Finding]:
    """TP102 findings for each reference in `source` to a listed library API."""
    roots = {name.split(".", 1)[0] for name in listed}
    tree = parse_quietly(source)
    if tree is None:
        return []
    lines = source.splitlines()
    findings: list[Finding] = []
    for node, used in references(tree, roots):
        hits = [entry for name, entry in listed.items() if _matches(used, name)]
        if hits:
            findings.append(_finding(path, lines, node, used, hits))
    for statement in ast.walk(tree):  # `from pkg.ops import nms`: the import itself is a use too
        if isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
            for alias in statement.names:
                imported = f"{statement.module}.{alias.name}"
                hits = [entry for name, entry in listed.items() if _matches(imported, name)]
                if hits and alias.name != "*":
                    findings.append(_finding(path, lines, statement, imported, hits))
    return sorted(findings, key=lambda finding: (finding.line, finding.column))


def _finding(path: str, lines: Sequence[str], node: ast.AST, used: str, hits: Sequence[ListedApi]) -> Finding:
    line = node.lineno  # type: ignore[attr-defined]
    end_line = node.end_lineno or line  # type: ignore[attr-defined]
    text = lines[line - 1] if line <= len(lines) else ""
    column = len(text.encode("utf-8")[:node.col_offset].decode("utf-8", errors="replace")) + 1  # type: ignore[attr-defined]
    end_text = lines[end_line - 1] if end_line <= len(lines) else ""
    end_column = len(end_text.encode("utf-8")[:node.end_col_offset or 0].decode("utf-8", errors="replace")) + 1  # type: ignore[attr-defined]
    torch_apis = sorted({api for hit in hits for api in hit.torch_apis})
    listed = ", ".join(sorted(hit.library_api for hit in hits)[:3])
    return Finding(
        path=path, line=line, column=column, end_line=end_line, end_column=end_column, code=CODE, category=CATEGORY,
        severity=DEFAULT_SEVERITY[CATEGORY], api=used,
        message=f"`{used}` reaches {', '.join(f'`{api}`' for api in torch_apis[:5])}"
                f"{' and more' if len(torch_apis) > 5 else ''}, which the target does not support (third-party list: {listed})",
        suggestion="use an Ascend-adapted release of the library or avoid this API", confidence="heuristic",
    )


# --- the list for a library ------------------------------------------------------------------------------

@dataclass
class _Function:
    name: str  # qualified: package.module.function or package.module.Class.method
    start: int
    end: int
    calls: set[str]  # qualified names of the library's functions it calls
    reaches: dict[str, set[str]]  # "unsupported"/"cuda" → torch APIs


def library_report(library: Path, settings: Settings) -> tuple[dict[str, str], int]:
    """File name → CSV text for framework_unsupported_op.csv and migration_needed_op.csv of the library folder
    `library`, and the number of library functions that reach something."""
    from ascend_migrate.reports.csv_report import _csv_text
    from ascend_migrate.workspace import analyze_path, discover

    package_root = library.parent if (library / "__init__.py").is_file() else library
    functions: dict[str, _Function] = {}
    aliases: dict[str, set[str]] = {}  # a function's name → the names packages re-export it under
    for path in discover([library], settings).files:
        relative = path.resolve().relative_to(package_root.resolve())
        module = ".".join(relative.with_suffix("").parts)
        module = module[: -len(".__init__")] if module.endswith(".__init__") else module
        result, _ = analyze_path(path, str(path), settings)
        tree = parse_quietly(path.read_text(encoding="utf-8", errors="replace"))
        if tree is None:
            continue
        is_package = path.name == "__init__.py"
        for function in _functions(tree, module, is_package):
            functions[function.name] = function
            for finding in result.findings:
                if function.start <= finding.line <= function.end:
                    kind = "unsupported" if finding.category in UNSUPPORTED_CATEGORIES else "cuda" if finding.code in CUDA_CODES else None
                    if kind is not None:
                        function.reaches.setdefault(kind, set()).add(finding.api)
        for exported, target in _reexports(tree, module, is_package).items():
            aliases.setdefault(target, set()).add(exported)
    _propagate(functions)
    files = {}
    reaching = 0
    for kind, file_name in (("unsupported", UNSUPPORTED_FILE), ("cuda", CUDA_FILE)):
        affected: dict[str, set[str]] = {}
        for function in functions.values():
            for api in function.reaches.get(kind, ()):
                affected.setdefault(api, set()).update({function.name, *aliases.get(function.name, ())})
        rows: list[tuple[str, str]] = []
        for api in sorted(affected):
            names = sorted(affected[api], key=lambda name: (len(name), name))
            rows.extend((api, "\n".join(names[start:start + CELL_LIMIT])) for start in range(0, len(names), CELL_LIMIT))
        files[file_name] = _csv_text(COLUMNS, rows)
    reaching = sum(1 for function in functions.values() if function.reaches)
    return files, reaching


def _functions(tree: ast.Module, module: str, is_package: bool) -> Iterable[_Function]:
    local = {statement.name for statement in tree.body if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}
    imported = _library_imports(tree, module, is_package)
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            yield _function(f"{module}.{statement.name}", statement, module, None, local, imported)
        elif isinstance(statement, ast.ClassDef):
            for member in statement.body:
                if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield _function(f"{module}.{statement.name}.{member.name}", member, module, statement.name, local, imported)


def _function(name: str, node: ast.FunctionDef | ast.AsyncFunctionDef, module: str, class_name: str | None,
              local: set[str], imported: dict[str, str]) -> _Function:
    calls: set[str] = set()
    for inner in ast.walk(node):
        if not isinstance(inner, ast.Call):
            continue
        function = inner.func
        if isinstance(function, ast.Name):
            if function.id in local:
                calls.add(f"{module}.{function.id}")
                calls.add(f"{module}.{function.id}.__init__")
                calls.add(f"{module}.{function.id}.forward")  # calling a module's instance runs forward
            elif function.id in imported:
                calls.update({imported[function.id], f"{imported[function.id]}.__init__", f"{imported[function.id]}.forward"})
        elif isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name):
            if function.value.id == "self" and class_name is not None:
                calls.add(f"{module}.{class_name}.{function.attr}")
            elif function.value.id in imported:
                calls.add(f"{imported[function.value.id]}.{function.attr}")
    return _Function(name, node.lineno, node.end_lineno or node.lineno, calls, {})


def _library_imports(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """Local name → qualified name, for relative imports and imports of the library's own top package."""
    top = module.split(".", 1)[0]
    package = module if is_package else module.rpartition(".")[0]
    bound = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: max(0, len(package.split(".")) - node.level + 1)]
                base = ".".join([*anchor, base] if base else anchor)
            if base.split(".", 1)[0] != top:
                continue
            for alias in node.names:
                if alias.name != "*":
                    bound[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".", 1)[0] == top and alias.asname:
                    bound[alias.asname] = alias.name
    return bound


def _reexports(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """In a package's __init__.py, `from .nms import nms`: the name the package exports → the defining name."""
    if not is_package:
        return {}
    exported = {}
    for local, target in _library_imports(tree, module, is_package).items():
        exported[f"{module}.{local}"] = target
    return exported


def _propagate(functions: dict[str, _Function]) -> None:
    """What a function reaches includes what the library functions it calls reach (until nothing changes)."""
    changed = True
    while changed:
        changed = False
        for function in functions.values():
            for callee_name in function.calls:
                callee = functions.get(callee_name)
                if callee is None or callee is function:
                    continue
                for kind, apis in callee.reaches.items():
                    mine = function.reaches.setdefault(kind, set())
                    if not apis <= mine:
                        mine.update(apis)
                        changed = True


def uses_in_files(files: Iterable[tuple[Path, str]], listed: dict[str, ListedApi]) -> list[Finding]:
    """`scan --third-party-api`: the TP102 findings of each (path, path as reported) of a scan."""
    from ascend_migrate.files import read_source

    findings = []
    for path, display in files:
        try:
            findings.extend(find_uses(read_source(path), display, listed))
        except (OSError, ValueError):
            continue  # the scan itself reports a file it cannot read
    return findings


def report_uses(listed: dict[str, ListedApi], outcomes, source: Path, summary) -> None:
    """`migrate --third-party-api`: the uses of the listed APIs in the project, added to the files' findings
    (so they are in findings.csv, full_unsupported_results.csv and the summary's counts)."""
    uses = 0
    for outcome in outcomes:
        if not outcome.analysed:
            continue
        text = (source / outcome.relative).read_text(encoding="utf-8", errors="replace")
        found = find_uses(text, outcome.relative, listed)
        outcome.findings.extend(found)
        if outcome.left is not outcome.findings:
            outcome.left.extend(found)  # an API of a library is not fixed: its uses stay
        uses += len(found)
    summary.extra["third_party_uses"] = uses
