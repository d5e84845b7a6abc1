"""Which torch_npu names exist, read from the torch_npu wheel's Python sources without importing them (torch_npu
needs CANN to import): module-level definitions, imports and __all__ of every module, class attributes, and the
operators that torch_npu/_op_plugin_docs.py documents (they are bound at run time from the C extension)."""

from __future__ import annotations

import ast
import re
import zipfile
from pathlib import Path

_DOCUMENTED_OPERATOR = re.compile(r'_add_torch_npu_docstr\(\s*"(\w+)"')
_REGISTERED_OPERATOR = re.compile(r'@impl\(m, "(\w+)"\)')


class WheelNames:
    def __init__(self, wheel: Path) -> None:
        self.wheel = wheel
        self.modules: dict[str, set[str]] = {}
        self.classes: dict[str, set[str]] = {}
        self.imported: dict[str, dict[str, str]] = {}  # module → bound name → the qualified name it imports
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if member.startswith("torch_npu/") and member.endswith(".py"):
                    self._read(member, archive.read(member).decode("utf-8", errors="replace"))

    def _read(self, member: str, text: str) -> None:
        module = member[:-3].replace("/", ".")
        if module.endswith(".__init__"):
            module = module[: -len(".__init__")]
        names = self.modules.setdefault(module, set())
        if module == "torch_npu._op_plugin_docs":
            self.modules.setdefault("torch_npu", set()).update(_DOCUMENTED_OPERATOR.findall(text))
        if module == "torch_npu.op_plugin.meta._meta_registrations":
            self.modules.setdefault("torch_npu", set()).update(_REGISTERED_OPERATOR.findall(text))
        package = module if member.endswith("__init__.py") else module.rsplit(".", 1)[0]
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.ClassDef):
                names.add(node.name)
                self.classes[f"{module}.{node.name}"] = {
                    target.id for statement in node.body for target in _assigned(statement)
                } | {statement.name for statement in node.body if isinstance(statement, (ast.FunctionDef, ast.ClassDef))}
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((alias.asname or alias.name).split(".")[0] for alias in node.names if alias.name != "*")
                if isinstance(node, ast.ImportFrom):
                    source = _absolute(package, node.module, node.level)
                    for alias in node.names:
                        if alias.name != "*":
                            self.imported.setdefault(module, {})[alias.asname or alias.name] = f"{source}.{alias.name}"
            else:
                for target in _assigned(node):
                    names.add(target.id)
                if _is_all(node):
                    names.update(_string_items(node.value))

    def resolves(self, qualified: str, depth: int = 0) -> str | None:
        """The module (or class) that defines `qualified`, or None. torch.npu.X is torch_npu.npu.X; a name a
        module imports from another is followed there."""
        if depth > 8:
            return None
        if qualified.startswith("torch.npu."):
            qualified = "torch_npu.npu." + qualified[len("torch.npu."):]
        if qualified in self.modules:
            return qualified
        parts = qualified.split(".")
        for length in range(len(parts) - 1, 0, -1):
            owner, rest = ".".join(parts[:length]), parts[length:]
            if owner in self.modules and rest[0] in self.modules[owner]:
                source = self.imported.get(owner, {}).get(rest[0])
                if source is not None and len(rest) > 1:
                    return self.resolves(".".join([source, *rest[1:]]), depth + 1)
                if len(rest) == 1:
                    return owner
                cls = f"{owner}.{rest[0]}"
                if len(rest) == 2 and rest[1] in self.classes.get(cls, set()):
                    return cls
                return None
        return None


def _absolute(package: str, module: str | None, level: int) -> str:
    if level == 0:
        return module or ""
    base = package.split(".")
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([module] if module else []))


def _assigned(node: ast.stmt):
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Name):
                yield target
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        yield node.target


def _is_all(node: ast.stmt) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return isinstance(node, (ast.Assign, ast.AugAssign)) and any(
        isinstance(target, ast.Name) and target.id == "__all__" for target in targets)


def _string_items(value: ast.expr) -> set[str]:
    if isinstance(value, (ast.List, ast.Tuple)):
        return {item.value for item in value.elts if isinstance(item, ast.Constant) and isinstance(item.value, str)}
    return set()


WHEEL_LABEL = "torch_npu 2.14.0 wheel (sha256 7736f7d8…)"


def verify_drafts(drafts, names: WheelNames) -> list[str]:
    """Record on each draft whether its torch_npu names exist in the wheel; return the names that do not."""
    missing = []
    for draft in drafts:
        checked = [draft.fields.get(key) or "" for key in ("api", "target")]
        checked = [name for name in checked if name.startswith(("torch_npu.", "torch.npu."))]
        if not checked:
            continue
        found = [name for name in checked if names.resolves(name)]
        absent = [name for name in checked if name not in found]
        missing.extend(absent)
        parts = []
        if found:
            parts.append(f"{', '.join(found)} found in the {WHEEL_LABEL} Python sources (read, not imported)")
        if absent:
            parts.append(f"{', '.join(absent)} not found in the {WHEEL_LABEL} Python sources (a C-extension or "
                         f"inherited name, or missing)")
        draft.fields["verified"] = "; ".join(parts)
    return missing
