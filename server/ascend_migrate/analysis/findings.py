"""The values the engine hands to every face of the product: findings and their fixes (the taxonomy they
name is `ascend_migrate.taxonomy`).

Positions follow one convention everywhere in the engine: lines are 1-based, columns are 1-based and count
characters (not bytes, not UTF-16 units); `end_column` is the column just past the last character. The LSP
layer converts to the negotiated encoding; the CLI and reports print these numbers as they are.
"""

from __future__ import annotations

import operator
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascend_migrate.config import Settings
from ascend_migrate.fixes.families import Rewrite, rewrite_from_json
from ascend_migrate.fixes.text import TextEdit  # the engine's edit value, defined with the positions it uses
from ascend_migrate.pickling import pickled_by_position


@pickled_by_position
@dataclass(frozen=True, slots=True)
class Fix:
    """How to fix one finding, carried with it so that no face has to analyse the document again.

    `edits` are ready to apply. `rewrite` is a fix family's value (`ascend_migrate.fixes.families`) that
    needs the statement's text to finish the job (argument rewrites with libcst).
    `add_imports` lists import statements the fixed code needs (added once, beside the existing imports);
    `remove_imports` lists bound names whose import may go if nothing else uses them after the fix.
    """

    title: str
    safe: bool
    edits: tuple[TextEdit, ...] = ()
    rewrite: Rewrite | None = None
    add_imports: tuple[str, ...] = ()
    remove_imports: tuple[str, ...] = ()

    def shifted(self, line_delta: int) -> Fix:
        """The same fix with its edits and its rewrite's spans moved down by `line_delta` lines."""
        edits = tuple(TextEdit(e.line + line_delta, e.column, e.end_line + line_delta, e.end_column, e.new_text) for e in self.edits)
        rewrite = self.rewrite.shifted(line_delta) if self.rewrite is not None else None
        return Fix(self.title, self.safe, edits, rewrite, self.add_imports, self.remove_imports)

    def merge_key(self) -> Hashable | None:
        """Fixes with the same key (not None) apply as one: their rewrites work on the same code."""
        return self.rewrite.merge_key() if self.rewrite is not None else None

    def merged(self, other: Fix) -> Fix:
        """One fix doing what both do (for fixes with the same `merge_key`), titled as this one."""
        assert self.rewrite is not None and other.rewrite is not None
        return Fix(
            title=self.title,
            safe=self.safe and other.safe,
            edits=tuple(dict.fromkeys((*self.edits, *other.edits))),
            rewrite=self.rewrite.merged(other.rewrite),
            add_imports=tuple(dict.fromkeys((*self.add_imports, *other.add_imports))),
            remove_imports=tuple(dict.fromkeys((*self.remove_imports, *other.remove_imports))),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "safe": self.safe,
            "edits": [{"line": edit.line, "column": edit.column, "end_line": edit.end_line, "end_column": edit.end_column,
                       "new_text": edit.new_text} for edit in self.edits],  # asdict() deep-copies: 10x the cost
            "rewrite": self.rewrite.NAME if self.rewrite is not None else None,
            "arguments": self.rewrite.to_json() if self.rewrite is not None else {},
            "add_imports": list(self.add_imports),
            "remove_imports": list(self.remove_imports),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fix:
        """The fix of `to_json`; KeyError, TypeError or ValueError when `data` is not one (another version's)."""
        name = data.get("rewrite")
        return cls(
            title=data["title"],
            safe=bool(data["safe"]),
            edits=tuple(TextEdit(**edit) for edit in data.get("edits", ())),
            rewrite=rewrite_from_json(name, data.get("arguments") or {}) if name is not None else None,
            add_imports=tuple(data.get("add_imports", ())),
            remove_imports=tuple(data.get("remove_imports", ())),
        )


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
    # In a notebook: the 1-based number of the cell (every cell counts), and `line`/`end_line` are in that
    # cell. 0 in a plain file.
    cell: int = 0

    @property
    def fixable(self) -> bool:
        return self.fix is not None

    def shifted(self, line_delta: int) -> Finding:
        """The same finding moved down by `line_delta` lines (an edit above it added or removed lines)."""
        if line_delta == 0:
            return self
        fix = self.fix
        if fix is not None and (fix.edits or fix.rewrite is not None):
            fix = fix.shifted(line_delta)
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
            self.cell,
        )

    def to_json(self) -> dict[str, Any]:
        """The finding as in `scan --format json` (the documented contract; keep it stable). A notebook's
        finding also has "cell", right after "path"."""
        return {
            "path": self.path,
            **({"cell": self.cell} if self.cell else {}),
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
    # "tensorflow" when the module imports TensorFlow or Keras and not torch (the npu route is for PyTorch)
    framework: str = ""


FINDING_ORDER = operator.attrgetter("path", "cell", "line", "column", "code")  # the order of every report


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
    # directories left out because of what they are (a virtual environment, build output), with the reason
    skipped_directories: list[FileError] = field(default_factory=list)
    # files of a kind that holds code but is not read (a notebook, CUDA source), with what kind they are
    not_analysed: list[FileError] = field(default_factory=list)
    # files that use TensorFlow or Keras and not torch (FileResult.framework)
    tensorflow_files: list[str] = field(default_factory=list)
