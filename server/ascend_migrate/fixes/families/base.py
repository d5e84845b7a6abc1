"""What every fix family is: a small frozen value, built by the engine, that rewrites one piece of code.

A family value knows its spans (and moves them when lines above change), whether and how it merges with
another value on the same code, how it travels in a diagnostic's `data` JSON, and its edits against a text.
The engine builds these values on every analysis, so a family module imports nothing heavy when loaded:
libcst and the fixes room's helpers are imported inside `edits`, which only fixing calls.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Callable, Hashable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from ascend_migrate.fixes.text import LineIndex, TextEdit

# [line, column, end_line, end_column] in the engine's convention (1-based lines and character columns).
Span = tuple[int, int, int, int]

FAMILIES: dict[str, type[Rewrite]] = {}  # family name → its class; filled as the family modules load


class Rewrite:
    """The base of every fix family. A subclass is a frozen, slotted dataclass that sets:

    - `NAME`: the family's name in the `data` JSON (`"rewrite": NAME`);
    - `SPAN_FIELDS`: the fields that hold a `Span` (shifted after an edit above them);
    - `edits(source, index)`: the minimal edits against `source` ([] when the code no longer matches).

    and, when two fixes of the family on the same code must apply as one, `merge_key` and `merged`.
    Every other field is JSON-able: a string, an int, None, a tuple of strings, or a tuple of
    (name, value) pairs (a list of [name, value] lists in JSON; an object is accepted when decoding).
    """

    __slots__ = ()
    NAME: ClassVar[str]
    SPAN_FIELDS: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("NAME")
        if name is not None:
            if name in FAMILIES and FAMILIES[name].__qualname__ != cls.__qualname__:
                raise TypeError(f"two fix families are named {name!r}: {FAMILIES[name].__qualname__} and {cls.__qualname__}")
            FAMILIES[name] = cls

    def spans(self) -> tuple[Span, ...]:
        return tuple(getattr(self, name) for name in self.SPAN_FIELDS)

    def shifted(self, line_delta: int) -> Rewrite:
        """The same rewrite with its spans moved down by `line_delta` lines."""
        if line_delta == 0:
            return self
        # Built by position, not with dataclasses.replace: the server shifts every finding below an edit.
        values = list(_field_values(type(self))(self))
        for position in _span_positions(type(self)):
            line, column, end_line, end_column = values[position]
            values[position] = (line + line_delta, column, end_line + line_delta, end_column)
        return type(self)(*values)

    def merge_key(self) -> Hashable | None:
        """Fixes whose rewrites share a key (not None) are applied as one fix (`merged`)."""
        return None

    def merged(self, other: Rewrite) -> Rewrite:
        raise TypeError(f"{self.NAME} fixes do not merge")

    def edits(self, source: str, index: LineIndex) -> list[TextEdit]:
        raise NotImplementedError

    def listed(self, edit: TextEdit) -> str | None:
        """A one-line text the change list shows instead of one of this rewrite's edits (a whole definition written
        into the file: its lines would fill the listing), or None to show the edit's lines as they are."""
        return None

    def to_json(self) -> dict[str, Any]:
        """The family's arguments as a JSON object, empty fields left out. Tuples stay tuples (JSON lists):
        a tuple of (name, value) pairs travels as a list of [name, value] lists, the shape servers have
        always sent, and no conversion is paid for each of the thousands of diagnostics a file may have."""
        return {
            name: value
            for name, value in zip(_field_names(type(self)), _field_values(type(self))(self), strict=True)
            if value is not None and value != () and value != ""
        }

    @classmethod
    def from_json(cls, arguments: Mapping[str, Any]) -> Rewrite:
        """The value from `to_json`'s object (after a trip through JSON); a JSON object where pairs are
        expected (`{"input": "x"}`, as docs/fixes.md writes them) is accepted too. Raises ValueError naming
        what does not fit."""
        known = {field.name: field for field in dataclasses.fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(arguments) - set(known))
        if unknown:
            raise ValueError(f"{cls.NAME}: unknown argument {', '.join(map(repr, unknown))} (known: {', '.join(known)})")
        values = {}
        for name, value in arguments.items():
            values[name] = _span(cls.NAME, name, value) if name in cls.SPAN_FIELDS else _frozen(value)
        try:
            return cls(**values)
        except TypeError as error:
            raise ValueError(f"{cls.NAME}: {error}") from None


# One answer per family class, kept by functools.cache. The cached functions are declared as taking `type`:
# mypy checks a class object passed to the cache against Hashable with its instances' `__hash__` and refuses it.
def _compute_field_names(family: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(family))


def _compute_field_values(family: type) -> Callable[[Any], tuple[Any, ...]]:
    names = _field_names(family)
    getter = operator.attrgetter(*names)
    return getter if len(names) > 1 else lambda value: (getter(value),)


def _compute_span_positions(family: type[Rewrite]) -> tuple[int, ...]:
    return tuple(_field_names(family).index(name) for name in family.SPAN_FIELDS)


_field_names: Callable[[type], tuple[str, ...]] = functools.cache(_compute_field_names)
_field_values: Callable[[type], Callable[[Any], tuple[Any, ...]]] = functools.cache(_compute_field_values)
_span_positions: Callable[[type], tuple[int, ...]] = functools.cache(_compute_span_positions)


def rewrite_from_json(name: Any, arguments: Any) -> Rewrite:
    """The family value named `name` with its JSON `arguments`; ValueError for an unknown name or bad data."""
    family = FAMILIES.get(name) if isinstance(name, str) else None
    if family is None:
        raise ValueError(f"unknown fix family {name!r} (known: {', '.join(sorted(FAMILIES))})")
    if not isinstance(arguments, Mapping):
        raise ValueError(f"{name}: the arguments must be an object, got {arguments!r}")
    return family.from_json(arguments)


def _span(family: str, name: str, value: Any) -> Span:
    if not isinstance(value, (list, tuple)) or len(value) != 4 or not all(type(item) is int for item in value):
        raise ValueError(f"{family}: {name!r} must be a span [line, column, end_line, end_column], got {value!r}")
    return value[0], value[1], value[2], value[3]


def _frozen(value: Any) -> Any:
    """A JSON value with lists as tuples and objects as tuples of (key, value) pairs."""
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return tuple((key, _frozen(item)) for key, item in value.items())
    return value
