"""The `call-arguments` fix family: rename, drop, set and complement the arguments (and the callee) of one call.

Several findings on one call (a renamed API and each argument without a counterpart) each carry one of
these; they merge into one rewrite of the call, as their edits would otherwise overlap.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ascend_migrate.fixes.families.base import Rewrite, Span
from ascend_migrate.pickling import pickled_by_position

if TYPE_CHECKING:
    import libcst

    from ascend_migrate.fixes.text import LineIndex, TextEdit

Pairs = tuple[tuple[str, str], ...]


@pickled_by_position
@dataclass(frozen=True, slots=True)
class CallArguments(Rewrite):
    """docs/fixes.md describes each field; every field but `call` may be empty."""

    NAME = "call-arguments"
    SPAN_FIELDS = ("call",)

    call: Span
    callee: str | None = None
    method: str | None = None
    rename_keywords: Pairs = ()
    drop_keywords: tuple[str, ...] = ()
    set_keywords: Pairs = ()
    default_keywords: Pairs = ()
    complement_keywords: Pairs = ()
    positions: tuple[tuple[str, int], ...] = ()
    add_positional: tuple[str, ...] = ()
    keep_positional: int | None = None

    def merge_key(self) -> tuple[str, Span]:
        return self.NAME, self.call

    def merged(self, other: Rewrite) -> CallArguments:
        """One rewrite doing what both do: objects and lists joined (the other's value wins for a name
        both set), a single value kept unless it is empty."""
        assert isinstance(other, CallArguments) and other.call == self.call
        return replace(
            self,
            callee=self.callee or other.callee,
            method=self.method or other.method,
            rename_keywords=_joined_pairs(self.rename_keywords, other.rename_keywords),
            drop_keywords=tuple(dict.fromkeys((*self.drop_keywords, *other.drop_keywords))),
            set_keywords=_joined_pairs(self.set_keywords, other.set_keywords),
            default_keywords=_joined_pairs(self.default_keywords, other.default_keywords),
            complement_keywords=_joined_pairs(self.complement_keywords, other.complement_keywords),
            positions=_joined_pairs(self.positions, other.positions),
            add_positional=tuple(dict.fromkeys((*self.add_positional, *other.add_positional))),
            keep_positional=self.keep_positional if self.keep_positional is not None else other.keep_positional,
        )

    def edits(self, source: str, index: LineIndex) -> list[TextEdit]:
        from ascend_migrate.fixes.arguments import node_text, parse_call  # libcst: loaded only to fix
        from ascend_migrate.fixes.node_diff import rewrite_edits

        call, text = parse_call(index, self.call)
        if self.callee and node_text(call.func) == self.callee:
            return []  # already rewritten: a second run must not complement or add anything again
        return rewrite_edits(call, self.rewritten(call), text, self.call[0], self.call[1])

    def rewritten(self, call: libcst.Call) -> libcst.Call:
        """The libcst `call` rewritten as this value says."""
        from ascend_migrate.fixes.arguments import mapping, rewrite_call
        from ascend_migrate.fixes.errors import FixError

        try:
            positions = {name: int(position) for name, position in mapping(self.positions, "positions").items()}
        except (TypeError, ValueError):
            raise FixError(f"'positions' must map names to numbers, got {self.positions!r}") from None
        return rewrite_call(
            call,
            rename=mapping(self.rename_keywords, "rename_keywords"),
            drop=set(self.drop_keywords),
            set_values=mapping(self.set_keywords, "set_keywords"),
            defaults=mapping(self.default_keywords, "default_keywords"),
            complement=mapping(self.complement_keywords, "complement_keywords"),
            positions=positions,
            keep=self.keep_positional,
            additions=self.add_positional,
            callee=self.callee,
            method=self.method,
        )


def _joined_pairs(first: tuple, second: tuple) -> tuple:
    return tuple((dict(first) | dict(second)).items())
