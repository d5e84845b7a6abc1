"""The keys a dict variable may hold, read from what built it (the walker's record of `{...}`, `dict(...)`, updates).

A reader gets `built(name)`: what built the dict `name` holds, in order. Besides syntax nodes an entry may be a
frozenset (the keys an earlier top-level statement left in a module-level dict) or None (a use the walker does
not understand: the keys are unknown from there on). Every answer is a may-hold set (any branch may have run),
or None as soon as one part is not spelled out.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from typing import Any

Built = Callable[[str], list[Any]]

# Module-scope entries of the walker (never identifiers, so never a name in code): `name**` holds the keys a
# module-level dict may hold after the statements so far ("keys", frozenset or None); `**` the names whose keys
# are known ("watched", frozenset).
KEYS_MARK = "**"
WATCHED_MARK = "**watched"


def dictionary_keys(built: Built, name: str, seen: tuple[str, ...] = ()) -> set[str] | None:
    """Every key the dict `name` may hold here; None when one of the things that built it is not spelled out."""
    entries = built(name)
    if not entries or name in seen:
        return None
    return _union(_keys_built_by(built, entry, (*seen, name)) for entry in entries)


def _union(parts: Iterable[set[str] | None]) -> set[str] | None:
    """All the keys of `parts`, or None as soon as one part's keys are not known."""
    keys: set[str] = set()
    for found in parts:
        if found is None:
            return None
        keys |= found
    return keys


def _keys_built_by(built: Built, node: Any, seen: tuple[str, ...]) -> set[str] | None:
    """The keys a `{...}`, `dict(...)`, `d.update(...)`, `d.setdefault(key, ...)`, `d[key] = ...` or `d |= ...` adds."""
    if node is None or type(node) is frozenset:
        return None if node is None else set(node)
    if type(node) is ast.Subscript:
        key = node.slice
        return {key.value} if type(key) is ast.Constant and type(key.value) is str else None
    if type(node) is ast.AugAssign:
        return _keys_of_value(built, node.value, seen) if type(node.op) is ast.BitOr else None
    if type(node) is ast.Dict or type(node) is ast.IfExp:
        return _keys_of_value(built, node, seen)
    if type(node) is not ast.Call:
        return None
    method = node.func.attr if type(node.func) is ast.Attribute else ""
    if method == "setdefault":
        first = node.args[0] if node.args else None
        return {first.value} if type(first) is ast.Constant and type(first.value) is str and not node.keywords else None
    if len(node.args) > 1:
        return None
    return _union([*(_keys_of_value(built, argument, seen) for argument in node.args),
                   *({keyword.arg} if keyword.arg is not None else _keys_of_value(built, keyword.value, seen)
                     for keyword in node.keywords)])


def _keys_of_value(built: Built, value: ast.expr, seen: tuple[str, ...]) -> set[str] | None:
    if type(value) is ast.Name:
        return dictionary_keys(built, value.id, seen)
    if type(value) is ast.IfExp:  # {...} if accel else {}: either may run
        body, orelse = _keys_of_value(built, value.body, seen), _keys_of_value(built, value.orelse, seen)
        return None if body is None or orelse is None else body | orelse
    if type(value) is ast.Call and type(value.func) is ast.Name and value.func.id == "dict":
        return _keys_built_by(built, value, seen)
    if type(value) is not ast.Dict:
        return None
    keys: set[str] = set()
    for key, item in zip(value.keys, value.values, strict=True):
        if key is None:
            found = _keys_of_value(built, item, seen)  # {**other, ...}
            if found is None:
                return None
            keys |= found
        elif type(key) is ast.Constant and type(key.value) is str:
            keys.add(key.value)
        else:
            return None
    return keys
