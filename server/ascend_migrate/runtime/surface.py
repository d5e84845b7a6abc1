"""The names the real torch_npu defines for torch.npu, read from its wheel without importing it (parent side)."""

from __future__ import annotations

import ast
import zipfile
from pathlib import Path

_ALL_MODULES = {"": "torch_npu/npu/__init__.py", "amp.": "torch_npu/npu/amp/__init__.py"}


def wheel_npu_names(wheel: Path) -> set[str]:
    """torch_npu.npu.__all__ and torch_npu.npu.amp.__all__ (as `amp.X`) of the wheel: the surface the emulation follows."""
    names: set[str] = set()
    with zipfile.ZipFile(wheel) as archive:
        for prefix, member in _ALL_MODULES.items():
            tree = ast.parse(archive.read(member).decode("utf-8", errors="replace"))
            names.update(prefix + name for name in _all_names(tree))
    return names


def wheel_module_names(wheel: Path, member: str) -> set[str]:
    """The names a module of the wheel binds at its top level (imports, definitions, __all__), read, not imported."""
    with zipfile.ZipFile(wheel) as archive:
        tree = ast.parse(archive.read(member).decode("utf-8", errors="replace"))
    names = set(_all_names(tree))
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def _all_names(tree: ast.Module) -> list[str]:
    found: list[str] = []
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else getattr(node, "target", None)
        if isinstance(node, (ast.Assign, ast.AugAssign)) and isinstance(target, ast.Name) and target.id == "__all__":
            if isinstance(node.value, (ast.List, ast.Tuple)):
                found.extend(element.value for element in node.value.elts
                             if isinstance(element, ast.Constant) and isinstance(element.value, str))
    return found
