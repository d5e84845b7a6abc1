"""The qualified names a module refers to through its imports (`import torch.nn as nn; nn.Linear` is
`torch.nn.Linear`), for the libraries asked about: what unknown_api.csv and the third-party lists look up."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator


def parse_quietly(source: str) -> ast.Module | None:
    """The module's tree, or None when it does not parse (the migration reports that file elsewhere)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def imported_names(tree: ast.Module, roots: set[str]) -> dict[str, str]:
    """Local name → the module or name of one of the `roots` libraries it is bound to, from every import."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".", 1)[0]
                if top in roots:
                    bound[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module and node.module.split(".", 1)[0] in roots:
            for alias in node.names:
                if alias.name != "*":
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def references(tree: ast.Module, roots: set[str]) -> Iterator[tuple[ast.expr, str]]:
    """(node, qualified name) of each outermost attribute chain or name rooted in an import of `roots`."""
    imported = imported_names(tree, roots)
    inner: set[int] = set()  # ids of the values of attribute chains: only the outermost chain is one reference
    for node in ast.walk(tree):  # breadth first: an outer attribute comes before the chain inside it
        if not isinstance(node, ast.Attribute | ast.Name) or id(node) in inner:
            continue
        parts: list[str] = []
        current: ast.expr = node
        while isinstance(current, ast.Attribute):
            parts.append(current.attr)
            inner.add(id(current.value))
            current = current.value
        if isinstance(current, ast.Name) and current.id in imported:
            yield node, ".".join([imported[current.id], *reversed(parts)])
