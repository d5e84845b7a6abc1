"""Whether a class imported from the project's own module (`from model import Net`) is a torch module, read from that file.

A script run as `python main.py` imports `model` from its own directory (the first entry of sys.path), so
`model.Net` is looked up in `model.py` (or `model/__init__.py`) beside the importing file, and the class's
bases are resolved through that file's imports, its own classes and further project modules. Only what
the files say is used; anything else (a library class, a missing file, a base built at run time) is unknown.
The answer depends on the other file as it is on disk: an editor re-analyses the importing file when it
changes, not when the other file does.
"""

from __future__ import annotations

import ast
import os
from functools import lru_cache

from ascend_migrate.analysis.symbols import MODULE, TypeSystem, import_bindings, qualify

_MAXIMUM_DEPTH = 8  # bases followed through at most this many classes (a cycle of imports ends here)


def project_module_type(importer: str, qualified: str) -> str | None:
    """`torch.nn.Module` when `qualified` (`model.Net`) names a class of a module beside `importer` (a file path)
    that derives from a torch or MindSpore module; None when that is not known."""
    module, _, name = qualified.rpartition(".")
    if not module or not name[:1].isupper():
        return None
    directory = os.path.dirname(os.path.abspath(importer))
    return MODULE if _is_module_class(directory, module, name, 0) else None


def _is_module_class(directory: str, module: str, name: str, depth: int) -> bool:
    if depth > _MAXIMUM_DEPTH:
        return False
    found = _module_file(directory, module)
    if found is None:
        return False
    classes, bindings = _definitions(found, os.stat(found).st_mtime_ns)
    bases = classes.get(name)
    if bases is None:
        return False
    types = TypeSystem({})
    for base in bases:
        if type(base) is ast.Name and base.id in classes and _is_module_class(directory, module, base.id, depth + 1):
            return True
        parts: list[str] = []
        node: ast.expr = base
        while type(node) is ast.Attribute:
            parts.insert(0, node.attr)
            node = node.value
        if type(node) is not ast.Name:
            continue
        base_name = qualify(bindings.get(node.id), parts)
        if base_name is None:
            continue
        if types.is_module(base_name):
            return True
        base_module, _, base_class = base_name.rpartition(".")
        if base_module and _is_module_class(directory, base_module, base_class, depth + 1):
            return True
    return False


def _module_file(directory: str, module: str) -> str | None:
    """The file of `module` under `directory` (`a.b` → a/b.py or a/b/__init__.py), if there is one."""
    base = os.path.join(directory, *module.split("."))
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return None


@lru_cache(maxsize=256)
def _definitions(path: str, modified: int) -> tuple[dict[str, list[ast.expr]], dict]:
    """The module-level classes of the file at `path` (name → base expressions) and what its imports bind;
    cached per modification time (`modified`), so an edited file is read again."""
    try:
        with open(path, "rb") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return {}, {}
    classes: dict[str, list[ast.expr]] = {}
    bindings: dict = {}
    for statement in tree.body:
        if type(statement) is ast.ClassDef:
            classes[statement.name] = list(statement.bases)
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            bindings.update(import_bindings(statement))
    return classes, bindings
