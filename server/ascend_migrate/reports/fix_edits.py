"""The edits of each fix on its own, for reports that carry fixes one by one (SARIF).

`ascend_migrate.fixes.edits_for(fix, source)` reads the whole file for every call, which is slow for a file
with thousands of fixes. Plain fixes (ready edits plus imports to add) need the file's text only for their
imports, and those depend on nothing but the import statements and the file, so they are computed once per
file and set of imports. Statement rewrites still go through `edits_for` one by one.

A fix here only adds the imports its code needs; it never removes an import that may become unused (that
is harmless, and `ascend-migrate fix` tidies it): removal depends on every other fix in the file.
"""

from __future__ import annotations

from dataclasses import replace

from ascend_migrate.analysis.findings import Finding, Fix, TextEdit
from ascend_migrate.fixes import FixError, edits_for
from ascend_migrate.reports.sources import ScannedSources


class FixEdits:
    """`edits(finding)`: every edit its fix makes, imports included; () when the fix no longer fits the file."""

    def __init__(self, sources: ScannedSources) -> None:
        self._sources = sources
        self._imports: dict[tuple[str, tuple[str, ...]], tuple[TextEdit, ...] | None] = {}

    def edits(self, finding: Finding) -> tuple[TextEdit, ...]:
        fix = finding.fix
        source = self._sources.text(finding.path)
        if fix is None or source is None:
            return ()
        if fix.rewrite is not None:
            return self._rewrite(fix, source)
        changes = tuple(edit for edit in fix.edits if not self._changes_nothing(finding.path, edit))
        if not changes:
            return ()
        if not fix.add_imports:
            return changes
        imports = self._import_edits(finding.path, fix.add_imports, source)
        return () if imports is None else changes + imports

    def _rewrite(self, fix: Fix, source: str) -> tuple[TextEdit, ...]:
        try:
            return tuple(edits_for(replace(fix, remove_imports=()), source))
        except FixError:
            return ()

    def _import_edits(self, path: str, statements: tuple[str, ...], source: str) -> tuple[TextEdit, ...] | None:
        key = (path, statements)
        if key not in self._imports:
            only_imports = Fix("add imports", True, add_imports=statements)
            try:
                self._imports[key] = tuple(edits_for(only_imports, source))
            except FixError:
                self._imports[key] = None
        return self._imports[key]

    def _changes_nothing(self, path: str, edit: TextEdit) -> bool:
        return self._sources.span(path, edit.line, edit.column, edit.end_line, edit.end_column) == edit.new_text
