"""Engine values to LSP values: findings to diagnostics, engine edits to LSP text edits, in the negotiated encoding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from ascend_migrate.analysis.findings import Finding, TextEdit
from ascend_migrate.config import Settings
from ascend_migrate.lsp.documents import line_content
from ascend_migrate.lsp.positions import units_before

SOURCE = "ascend-migrate"

SEVERITIES = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


def position(lines: Sequence[str], line: int, column: int, encoding: str) -> types.Position:
    """An engine position (1-based line, 1-based character column) as an LSP position, clamped into `lines`."""
    line_index = min(max(line - 1, 0), len(lines) - 1)
    if line - 1 > line_index:  # past the end: the end of the document
        content = line_content(lines[line_index])
        return types.Position(line_index, units_before(content, len(content), encoding))
    content = line_content(lines[line_index])
    character = min(max(column - 1, 0), len(content))
    return types.Position(line_index, units_before(content, character, encoding))


def text_edit(edit: TextEdit, lines: Sequence[str], encoding: str) -> types.TextEdit:
    return types.TextEdit(
        range=types.Range(
            start=position(lines, edit.line, edit.column, encoding),
            end=position(lines, edit.end_line, edit.end_column, encoding),
        ),
        new_text=edit.new_text,
    )


def diagnostic(finding: Finding, lines: Sequence[str], encoding: str, settings: Settings) -> types.Diagnostic:
    """The diagnostic of a finding; its `data` carries everything a code action or hover needs."""
    message = finding.message
    if finding.suggestion and finding.suggestion not in message:
        message = f"{message}\n{finding.suggestion}"
    severity = settings.severity_for(finding.category, finding.severity)
    data: dict[str, Any] = {
        "code": finding.code,
        "api": finding.api,
        "category": finding.category,
        "confidence": finding.confidence,
        "entry_key": finding.entry_key,
        "fix": finding.fix.to_json() if finding.fix is not None else None,
    }
    return types.Diagnostic(
        range=types.Range(
            start=position(lines, finding.line, finding.column, encoding),
            end=position(lines, finding.end_line, finding.end_column, encoding),
        ),
        message=message,
        severity=SEVERITIES.get(severity, types.DiagnosticSeverity.Warning),
        code=finding.code,
        code_description=types.CodeDescription(href=finding.doc_url) if finding.doc_url else None,
        source=SOURCE,
        data=data,
    )
