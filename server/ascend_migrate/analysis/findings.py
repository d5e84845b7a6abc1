"""The values the engine hands to every face of the product: findings and their fixes (the taxonomy they
name is `ascend_migrate.taxonomy`).

Positions follow one convention everywhere in the engine: lines are 1-based, columns are 1-based and count
characters (not bytes, not UTF-16 units); `end_column` is the column just past the last character. The LSP
layer converts to the negotiated encoding; the CLI and reports print these numbers as they are.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascend_migrate.config import Settings
from ascend_migrate.pickling import pickled_by_position


@pickled_by_position
@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace the text between two positions (engine convention) with `new_text`."""

    line: int
    column: int
    end_line: int
    end_column: int
    new_text: str


@pickled_by_position
@dataclass(frozen=True, slots=True)
class Fix:
    """How to fix one finding, carried with it so that no face has to analyse the document again.

    `edits` are ready to apply. `rewrite` names a fix family in `ascend_migrate.fixes` that needs the
    statement's text to finish the job (argument rewrites with libcst); `arguments` is its JSON-able input.
    `add_imports` lists import statements the fixed code needs (added once, beside the existing imports);
    `remove_imports` lists bound names whose import may go if nothing else uses them after the fix.
    """

    title: str
    safe: bool
    edits: tuple[TextEdit, ...] = ()
    rewrite: str | None = None
    arguments: tuple[tuple[str, Any], ...] = ()
    add_imports: tuple[str, ...] = ()
    remove_imports: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "safe": self.safe,
            "edits": [{"line": edit.line, "column": edit.column, "end_line": edit.end_line, "end_column": edit.end_column,
                       "new_text": edit.new_text} for edit in self.edits],  # asdict() deep-copies: 10x the cost
            "rewrite": self.rewrite,
            "arguments": {key: value for key, value in self.arguments},
            "add_imports": list(self.add_imports),
            "remove_imports": list(self.remove_imports),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fix:
        return cls(
            title=data["title"],
            safe=bool(data["safe"]),
            edits=tuple(TextEdit(**edit) for edit in data.get("edits", ())),
            rewrite=data.get("rewrite"),
            arguments=tuple((key, _freeze(value)) for key, value in (data.get("arguments") or {}).items()),
            add_imports=tuple(data.get("add_imports", ())),
            remove_imports=tuple(data.get("remove_imports", ())),
        )


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(item) for item in value)
    if isinstance(value, dict):
        return tuple((key, _freeze(item)) for key, item in value.items())
    return value


@pickled_by_position
@dataclass(frozen=True, slots=True)
class Finding:
    """One line the user must look at, for one route. See the module docstring for the position convention."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    category: str
    severity: str
    api: str
    message: str
    suggestion: str
    confidence: str
    doc_url: str = ""
    fix: Fix | None = None
    # The knowledge-base entry behind the finding (table name and index), so hover can show its details.
    entry_key: str = ""

    @property
    def fixable(self) -> bool:
        return self.fix is not None

    def shifted(self, line_delta: int) -> Finding:
        """The same finding moved down by `line_delta` lines (an edit above it added or removed lines)."""
        if line_delta == 0:
            return self
        fix = self.fix
        if fix is not None and (fix.edits or fix.arguments):
            fix = _shifted_fix(fix, line_delta)
        return Finding(
            self.path,
            self.line + line_delta,
            self.column,
            self.end_line + line_delta,
            self.end_column,
            self.code,
            self.category,
            self.severity,
            self.api,
            self.message,
            self.suggestion,
            self.confidence,
            self.doc_url,
            fix,
            self.entry_key,
        )

    def to_json(self) -> dict[str, Any]:
        """The finding as in `scan --format json` (the documented contract; keep it stable)."""
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "category": self.category,
            "severity": self.severity,
            "api": self.api,
            "message": self.message,
            "suggestion": self.suggestion,
            "confidence": self.confidence,
            "fixable": self.fixable,
            "doc_url": self.doc_url,
        }


# Rewrite arguments that hold a span [line, column, end_line, end_column] of the source (docs/fixes.md).
_SPAN_ARGUMENTS = ("call", "span")


def _shifted_fix(fix: Fix, line_delta: int) -> Fix:
    """`fix` with its edits and its rewrite's spans moved down by `line_delta` lines."""
    edits = tuple(TextEdit(e.line + line_delta, e.column, e.end_line + line_delta, e.end_column, e.new_text) for e in fix.edits)
    arguments = tuple(
        (key, (value[0] + line_delta, value[1], value[2] + line_delta, value[3]))
        if key in _SPAN_ARGUMENTS and isinstance(value, (list, tuple)) and len(value) == 4
        else (key, value)
        for key, value in fix.arguments
    )
    return Fix(fix.title, fix.safe, edits, fix.rewrite, arguments, fix.add_imports, fix.remove_imports)


@pickled_by_position
@dataclass(frozen=True, slots=True)
class FileError:
    """A file that could not be analysed, in whole or in part, and why."""

    path: str
    message: str
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "message": self.message} | ({"line": self.line} if self.line else {})


@pickled_by_position
@dataclass(slots=True)
class FileResult:
    """Everything the engine learned about one file."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)


FINDING_ORDER = operator.attrgetter("path", "line", "column", "code")  # the order of every report


@dataclass
class ScanResult:
    """What a scan of many files found; the input of every report."""

    root: Path
    settings: Settings
    files_scanned: int = 0
    findings: list[Finding] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    seconds: float = 0.0
    # path (as in findings) → the file's text, kept only when a report asks for source context
    sources: dict[str, str] = field(default_factory=dict)
    # the directory relative paths in findings start from (the working directory, or the workspace root)
    base: Path | None = None
