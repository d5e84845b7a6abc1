"""`migrate --auto` (npu): torch_npu's automatic migration from the command line.

Each entry point gets `import torch_npu` and `from torch_npu.contrib import transfer_to_npu` once at the top;
at run time transfer_to_npu then remaps torch.cuda names, 'cuda' devices, `.cuda()` and the 'nccl' backend of
init_process_group/new_group, so those findings are left to it and not rewritten. What it cannot do is fixed
or reported as usual (the list of torch_npu's automatic-migration guide, in mappings/cuda_npu.yaml and
npu_unsupported.yaml): 'nccl' compared or tested by the user's code, torch.jit.script (transfer_to_npu makes
it the identity), channels_last, torch.cuda.default_generators, get_device_capability/get_device_properties.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path

from ascend_migrate.analysis.findings import Finding
from ascend_migrate.config import _toml
from ascend_migrate.fixes.text import apply_edits
from ascend_migrate.fixes.top_imports import AUTOMATIC_MIGRATION_IMPORTS, add_imports_edit
from ascend_migrate.projects.one_file import INSERT, Operation, Step

# Codes of the renames transfer_to_npu makes at run time (analysis/emit.py demotes them the same way in a file
# that imports it), and NPU106 (the entry point imports torch_npu for every module).
REMAPPED_AT_RUN_TIME = frozenset({"NPU101", "NPU102", "NPU103", "NPU105", "NPU106"})
# torch.cuda names transfer_to_npu does not remap, or remaps to something that behaves differently.
NOT_REMAPPED = frozenset({
    "torch.cuda.default_generators",
    "torch.cuda.get_device_capability",
    "torch.cuda.get_device_properties",
})
# The calls whose backend argument transfer_to_npu rewrites from 'nccl' to 'hccl'.
BACKEND_CALLS = frozenset({"init_process_group", "new_group"})


def select_for_automatic_migration(findings: Sequence[Finding], text: str) -> list[Finding]:
    """The findings whose fixes `--auto` applies: all but those transfer_to_npu takes care of at run time."""
    backend_arguments: list[tuple[int, int, int, int]] | None = None
    kept = []
    for finding in findings:
        if finding.code not in REMAPPED_AT_RUN_TIME or finding.api in NOT_REMAPPED:
            kept.append(finding)
            continue
        if finding.code == "NPU103":
            if backend_arguments is None:
                backend_arguments = _backend_arguments(text)
            if not any((line, column) <= (finding.line, finding.column) and (finding.end_line, finding.end_column) <= (end_line, end_column)
                       for line, column, end_line, end_column in backend_arguments):
                kept.append(finding)  # 'nccl' in a comparison or a list of the user's: transfer_to_npu leaves it
    return kept


def _backend_arguments(text: str) -> list[tuple[int, int, int, int]]:
    """The spans (1-based lines and character columns) of the string literals inside init_process_group/new_group calls."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    lines = text.splitlines()

    def column(line: int, offset: int) -> int:
        content = lines[line - 1] if line <= len(lines) else ""
        return len(content.encode("utf-8")[:offset].decode("utf-8", errors="replace")) + 1

    spans = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _callee(node.func) in BACKEND_CALLS:
            for inner in ast.walk(node):
                if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                    end_line = inner.end_lineno or inner.lineno
                    spans.append((inner.lineno, column(inner.lineno, inner.col_offset), end_line, column(end_line, inner.end_col_offset or 0)))
    return spans


def _callee(function: ast.expr) -> str:
    return function.attr if isinstance(function, ast.Attribute) else function.id if isinstance(function, ast.Name) else ""


def automatic_imports_step() -> Step:
    return Step("--auto", _insert_imports, before_fixes=True)


def _insert_imports(text: str) -> tuple[str, list[Operation]]:
    edit = add_imports_edit(text, AUTOMATIC_MIGRATION_IMPORTS)
    if edit is None:
        return text, []
    added = edit.new_text.count("\n") or 1
    operation = Operation(edit.line, edit.line + added - 1, INSERT, "import torch_npu and transfer_to_npu (automatic migration)")
    return apply_edits(text, [edit]), [operation]


_MAIN_GUARD = re.compile(r"""^if\s+__name__\s*==\s*['"]__main__['"]\s*:""", re.MULTILINE)


def detect_entry_points(source: Path, relatives: Iterable[str]) -> dict[str, str]:
    """Relative path → why it is an entry point: a module-level `if __name__ == "__main__":`, or a console or GUI
    script of pyproject.toml ([project.scripts]) or setup.cfg/setup.py (entry_points)."""
    python = sorted(relative for relative in relatives if relative.endswith(".py"))
    found: dict[str, str] = {}
    trees: dict[str, ast.Module] = {}
    for relative in python:
        try:
            text = (source / relative).read_text(encoding="utf-8", errors="replace")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                trees[relative] = ast.parse(text)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        if _MAIN_GUARD.search(text):
            found[relative] = 'if __name__ == "__main__"'
    imported = _imported_modules(trees)
    for relative, module_tree in trees.items():
        if relative not in found and _runs_at_module_level(module_tree) and _module_name(relative) not in imported:
            found[relative] = "a script: runs code at module level and no file of the project imports it"
    for module, origin in _console_script_modules(source):
        script = _module_file(module, python)
        if script is not None:
            found.setdefault(script, origin)
    return found


def _module_name(relative: str) -> str:
    parts = relative[:-3].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(trees: dict[str, ast.Module]) -> set[str]:
    """Every module name the project's files import (with each package above it): `from models import *` counts
    for `models`, `from .resnet import *` in models/__init__.py for `models.resnet`."""
    names: set[str] = set()
    for relative, module_tree in trees.items():
        package = _module_name(relative) if relative.endswith("__init__.py") else _module_name(relative).rpartition(".")[0]
        for node in ast.walk(module_tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: max(0, len(package.split(".")) - node.level + 1)] if package else []
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [base, *(f"{base}.{alias.name}" if base else alias.name for alias in node.names)]
            else:
                continue
            for target in targets:
                while target:
                    names.add(target)
                    target = target.rpartition(".")[0]
    return names


def _runs_at_module_level(module_tree: ast.Module) -> bool:
    """Whether the module does work when run (a call, a loop, a `with` at module level), not only definitions."""
    return any(isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
               or isinstance(statement, ast.For | ast.While | ast.With | ast.AsyncFor | ast.AsyncWith)
               for statement in module_tree.body)


def _console_script_modules(source: Path) -> list[tuple[str, str]]:
    modules = []
    pyproject = source / "pyproject.toml"
    if pyproject.is_file():
        toml = _toml()
        try:
            project = toml.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        except (toml.TOMLDecodeError, OSError, UnicodeDecodeError, RecursionError):
            project = {}
        for table in ("scripts", "gui-scripts"):
            for name, target in (project.get(table) or {}).items():
                if isinstance(target, str):
                    modules.append((target.split(":", 1)[0].strip(), f"pyproject.toml [project.{table}] {name}"))
    for name in ("setup.cfg", "setup.py"):
        path = source / name
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            # `name = package.module:function` in console_scripts (setup.cfg) or in a string (setup.py)
            for match in re.finditer(r"""([\w.-]+)\s*=\s*([\w.]+)\s*:\s*[\w.]+""", text):
                modules.append((match.group(2), f"{name} entry point {match.group(1)}"))
    return modules


def _module_file(module: str, python: Sequence[str]) -> str | None:
    """The project file of a dotted module name (a module, or a package's __init__.py; a src/ layout too)."""
    stem = module.replace(".", "/")
    for candidate in (f"{stem}.py", f"{stem}/__init__.py", f"src/{stem}.py", f"src/{stem}/__init__.py"):
        if candidate in python:
            return candidate
    return None
