"""The keys a dict variable may hold, read from what built it (`{...}`, `dict(...)`, updates), and the record of it.

`DictionaryTracker` is the walker's record: per scope, what built each dict variable so far, and the module-level
dicts followed across top-level statements. A reader gets `built(name)`: what built the dict `name` holds, in order. Besides syntax nodes an entry may be a
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
# What `remember` keeps (with `dict(...)` calls): `{...}` and `{...} if c else {...}`.
_DICTIONARY_SHAPES = frozenset({ast.Dict, ast.IfExp})


class DictionaryTracker:
    """What built each dict variable, per scope (parallel to the walker's scopes): `{...}` and `dict(...)` literals
    assigned to it, then its `.update(...)`/`.setdefault(...)` calls, `d[key] = ...` and `d |= ...` statements, so a
    rule can tell which keys `**d` may pass (DataLoader options).

    Module-level dicts are followed across top-level statements too: a chunk ends by writing the keys each dict it
    changed may hold as `name**` → ("keys", frozenset or None) into the module scope (replayed like any module-level
    write), and the next chunks start from that. `watched`: the module-level dicts whose keys are known, so that a
    use the tracker does not understand (`f(kwargs)`, an alias, a write in a function) makes them unknown;
    `permitted`: the ids of the name nodes of the uses it understands (`**kwargs`, `kwargs.get(...)`), which the
    walker adds as it meets them. `watched` and `permitted` stay the same set objects for the walker's life, so the
    walker's hot paths may hold them directly.
    """

    def __init__(self, lookup: Callable[[str], Any]) -> None:
        self.lookup = lookup  # the walker's: a module-level name read through it makes a change there walk the chunk again
        self.scopes: list[dict[str, list[Any]]] = [{}]
        self.watched: set[str] = set()
        self.permitted: set[int] = set()
        self.touched: set[str] = set()

    def start_chunk(self, module_scope: dict[str, Any]) -> None:
        self.scopes = [{}]
        self.watched.clear()
        watched = module_scope.get(WATCHED_MARK)
        if watched is not None:
            self.watched.update(watched[1])
        self.permitted.clear()
        self.touched = set()

    def finish_chunk(self, module_scope: dict[str, Any], module_writes: list[tuple]) -> None:
        """Write the keys each module-level dict this chunk changed may hold (None: unknown), for the next chunks."""
        if not self.touched:
            return
        table = self.scopes[0]
        watched = module_scope.get(WATCHED_MARK)
        known_names = set(watched[1]) if watched is not None else set()
        for name in sorted(self.touched):
            keys = dictionary_keys(self.built, name) if name in table else None
            known = frozenset(keys) if keys is not None else None
            module_scope[name + KEYS_MARK] = ("keys", known)
            module_writes.append((name + KEYS_MARK, "keys", known))
            if known is None:
                known_names.discard(name)
            else:
                known_names.add(name)
        module_scope[WATCHED_MARK] = ("watched", frozenset(known_names))

    def enter_scope(self) -> None:
        self.scopes.append({})

    def leave_scope(self) -> None:
        self.scopes.pop()

    def may_remember(self, value: ast.expr) -> bool:
        """Whether assigning `value` is something to keep or to forget (most assignments are neither)."""
        return bool(self.scopes[-1]) or type(value) in _DICTIONARY_SHAPES or calls_dict(value)

    def rebound(self, name: str) -> None:
        """The watched module-level `name` was bound again: a dict assigned now adds its keys again (`remember`)."""
        self.touched.add(name)

    def remember(self, name: str, value: ast.expr) -> None:
        """Keep `name = {...}` / `name = dict(...)` / `name = {...} if c else {...}` (every branch's); any other value
        forgets the name (an IfExp that is no dict choice is answered as unknown by the reader)."""
        table = self.scopes[-1]
        module_level = len(self.scopes) == 1
        if type(value) in _DICTIONARY_SHAPES or calls_dict(value):
            entries = table.get(name) if not module_level else self.module_dictionary(name)
            if entries is None:
                entries = table[name] = []
            entries.append(value)  # at module level after what earlier statements built: any branch may have run
            if module_level:
                self.watched.add(name)
                self.touched.add(name)
        elif name in table:
            del table[name]

    def module_dictionary(self, name: str) -> list[Any] | None:
        """What built the module-level dict `name` so far: this chunk's record, which starts from the keys the
        statements above left (`name**`, read through `lookup` so that a change there walks this chunk again)."""
        table = self.scopes[0]
        entries = table.get(name)
        if entries is None:
            marker = self.lookup(name + KEYS_MARK)
            if marker is not None and marker[0] == "keys":
                entries = table[name] = [marker[1]]
        return entries

    def record_write(self, name: str, node: ast.AST) -> None:
        """`d.update(...)`, `d[key] = ...`, `d |= ...` on a dict this scope follows (at module level: one the statements
        above built too)."""
        if len(self.scopes) > 1:
            entries = self.scopes[-1].get(name)
        else:
            entries = self.module_dictionary(name)
            if entries is not None:
                self.touched.add(name)
        if entries is not None:
            entries.append(node)

    def forget_keys(self, name: str) -> None:
        """A use of the module-level dict `name` the tracker does not understand: its keys are unknown from here on."""
        entries = self.module_dictionary(name)
        if entries is not None:
            entries.append(None)
        self.watched.discard(name)
        self.touched.add(name)

    def built(self, name: str) -> list[Any]:
        """What built the dict `name` holds in the innermost scope so far (empty when not a dict built here)."""
        entries = self.scopes[-1].get(name)
        if entries is None and len(self.scopes) == 1:
            entries = self.module_dictionary(name)
        return entries or []


def calls_dict(value: ast.expr) -> bool:
    return type(value) is ast.Call and type(value.func) is ast.Name and value.func.id == "dict"


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
