"""Version ranges as the knowledge base writes them: `>=2.5`, `<2.5`, `>=2.1,<2.8`, `==2.8`, or `*` for all."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ascend_migrate.pickling import pickled_by_position

_CLAUSE = re.compile(r"^(>=|<=|==|!=|>|<)\s*(\d+(?:\.\d+)*)$")
_OPERATORS = {
    ">=": lambda version, bound: version >= bound,
    "<=": lambda version, bound: version <= bound,
    "==": lambda version, bound: version == bound,
    "!=": lambda version, bound: version != bound,
    ">": lambda version, bound: version > bound,
    "<": lambda version, bound: version < bound,
}


# ASCII digits only (str.isdigit also takes '²', which int() refuses), and no number too long for int().
_VERSION_PART = re.compile(r"[0-9]{1,18}")


class VersionRangeError(ValueError):
    pass


def parse_version(text: str) -> tuple[int, ...]:
    """`2.10` → (2, 10). Trailing zeros do not count (2.1 == 2.1.0); pre-release tags are not accepted."""
    parts = str(text).strip().split(".")
    if not all(_VERSION_PART.fullmatch(part) for part in parts):
        shown = str(text) if len(str(text)) <= 40 else str(text)[:40] + "..."
        raise VersionRangeError(f"{shown!r} is not a version like 2.8 or 2.10.0")
    numbers = [int(part) for part in parts]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


@pickled_by_position
@dataclass(frozen=True, slots=True)
class VersionRange:
    text: str
    clauses: tuple[tuple[str, tuple[int, ...]], ...]

    def contains(self, version: tuple[int, ...]) -> bool:
        return all(_OPERATORS[operator](version, bound) for operator, bound in self.clauses)

    def __str__(self) -> str:
        return self.text


ANY_VERSION = VersionRange("*", ())


def parse_range(text: str) -> VersionRange:
    text = str(text).strip()
    if text in ("", "*"):
        return ANY_VERSION
    clauses = []
    for raw_clause in text.split(","):
        match = _CLAUSE.match(raw_clause.strip())
        if match is None:
            raise VersionRangeError(
                f"{raw_clause.strip()!r} in {text!r} is not a version clause like '>=2.5' or '<2.8'"
            )
        clauses.append((match.group(1), parse_version(match.group(2))))
    return VersionRange(text, tuple(clauses))
