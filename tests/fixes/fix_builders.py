"""Hand-built findings for the fixes tests: locate a snippet in a source and attach a Fix to it."""

from __future__ import annotations

from ascend_migrate.analysis.findings import Finding, Fix, TextEdit
from ascend_migrate.fixes.families import rewrite_from_json


def span_of(source: str, text: str, occurrence: int = 1) -> tuple[int, int, int, int]:
    """The engine-convention span of the `occurrence`-th `text` in `source` (lines split at \\r\\n, \\r, \\n)."""
    start = -1
    for _ in range(occurrence):
        start = source.index(text, start + 1)
    return _position(source, start) + _position(source, start + len(text))


def _position(source: str, offset: int) -> tuple[int, int]:
    before = source[:offset].replace("\r\n", "\n").replace("\r", "\n")
    line = before.count("\n") + 1
    return line, offset - (max(source.rfind("\n", 0, offset), source.rfind("\r", 0, offset)) + 1) + 1


def rename(source: str, old: str, new: str, occurrence: int = 1, **fix_fields) -> Finding:
    """A finding whose fix replaces the `occurrence`-th `old` with `new` (the engine's plain rename edits)."""
    span = span_of(source, old, occurrence)
    fix = Fix(title=f"Replace `{old}` with `{new}`", safe=fix_fields.pop("safe", True), edits=(TextEdit(*span, new),), **fix_fields)
    return finding(span, fix, fix_fields.get("code", "NPU101"))


def rewrite(source: str, text: str, family: str, arguments: dict, occurrence: int = 1, key: str = "call", safe: bool = True, **fix_fields) -> Finding:
    """A finding whose fix is a rewrite family over the `occurrence`-th `text` (its span goes in `arguments[key]`),
    built from the family's JSON arguments as a diagnostic's `data` carries them."""
    span = span_of(source, text, occurrence)
    fix = Fix(title=f"{family} fix", safe=safe, rewrite=rewrite_from_json(family, {key: list(span), **arguments}), **fix_fields)
    return finding(span, fix)


def finding(span: tuple[int, int, int, int], fix: Fix | None, code: str = "NPU101") -> Finding:
    return Finding("example.py", *span, code, "npu-rename", "warning", "api", "message", "suggestion", "exact", fix=fix)
