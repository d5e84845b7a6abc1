"""Engine values to LSP values: findings to diagnostics, engine edits to LSP text edits, in the negotiated encoding."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from ascend_migrate.analysis.findings import Finding, Fix, TextEdit
from ascend_migrate.lsp.documents import line_content
from ascend_migrate.lsp.positions import units_before

SOURCE = "ascend-migrate"

SEVERITIES = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def plain_text(markdown: str) -> str:
    """A message or title without Markdown code spans, for the places an editor shows as they are
    (diagnostics and code-action titles: Neovim, Emacs and Vim print backticks literally; only hovers render
    Markdown). A name or an already quoted literal stands alone (`torch.cuda.synchronize` → torch.cuda.synchronize,
    `'nccl'` → 'nccl'); a phrase with spaces is quoted to still read as code (`import torch_npu` → 'import torch_npu')."""
    if "`" not in markdown:
        return markdown
    return _CODE_SPAN.sub(_plain_span, markdown)


def _plain_span(match: re.Match) -> str:
    code = match.group(1)
    quoted = len(code) >= 2 and code[0] == code[-1] and code[0] in "'\""
    return code if quoted or not any(character.isspace() for character in code) else f"'{code}'"


def position(lines: Sequence[str], line: int, column: int, encoding: str) -> types.Position:
    """An engine position (1-based line, 1-based character column) as an LSP position, clamped into `lines`."""
    return types.Position(*_line_and_character(lines, line, column, encoding))


def _line_and_character(lines: Sequence[str], line: int, column: int, encoding: str) -> tuple[int, int]:
    line_index = min(max(line - 1, 0), len(lines) - 1)
    content = line_content(lines[line_index])
    if line - 1 > line_index:  # past the end: the end of the document
        return line_index, units_before(content, len(content), encoding)
    character = min(max(column - 1, 0), len(content))
    return line_index, units_before(content, character, encoding)


def text_edit(edit: TextEdit, lines: Sequence[str], encoding: str) -> types.TextEdit:
    return types.TextEdit(
        range=types.Range(
            start=position(lines, edit.line, edit.column, encoding),
            end=position(lines, edit.end_line, edit.end_column, encoding),
        ),
        new_text=edit.new_text,
    )


def _position_json(lines: Sequence[str], line: int, column: int, encoding: str) -> dict[str, int]:
    line_index, character = _line_and_character(lines, line, column, encoding)  # no Position: its validators cost
    return {"line": line_index, "character": character}


def _fix_json(fix: Fix) -> dict[str, Any]:
    """`Fix.to_json()` without its empty fields (a file with 2,000 findings publishes 2,000 of these)."""
    return {key: value for key, value in fix.to_json().items() if value not in (None, [], {}, "")}


def diagnostic_data(finding: Finding) -> dict[str, Any]:
    """What a diagnostic's `data` carries: enough for code actions and hover without analysing again."""
    return {
        "code": finding.code,
        "api": finding.api,
        "category": finding.category,
        "confidence": finding.confidence,
        "entry_key": finding.entry_key,
        "fix": _fix_json(finding.fix) if finding.fix is not None else None,
    }


def diagnostic_json(finding: Finding, lines: Sequence[str], encoding: str) -> str:
    """The diagnostic of a finding as JSON text; its `data` carries everything a code action or hover needs.

    Built as plain JSON rather than lsprotocol objects: converting thousands of diagnostics through cattrs
    on every keystroke would cost more than the analysis itself.
    """
    message = finding.message
    if finding.suggestion and finding.suggestion not in message:
        message = f"{message}\n{finding.suggestion}"
    diagnostic: dict[str, Any] = {
        "range": {
            "start": _position_json(lines, finding.line, finding.column, encoding),
            "end": _position_json(lines, finding.end_line, finding.end_column, encoding),
        },
        "severity": SEVERITIES.get(finding.severity, types.DiagnosticSeverity.Warning).value,  # decided by the engine
        "code": finding.code,
        "source": SOURCE,
        "message": plain_text(message),
        "data": diagnostic_data(finding),  # machine-readable: the engine's values as they are
    }
    if finding.doc_url:
        diagnostic["codeDescription"] = {"href": finding.doc_url}
    return _COMPACT_JSON(diagnostic)


# One encoder for every diagnostic: json.dumps with options builds a new one per call.
_COMPACT_JSON = json.JSONEncoder(separators=(",", ":")).encode


def publish_diagnostics_message(uri: str, diagnostics: Sequence[str], version: int | None) -> str:
    """A whole textDocument/publishDiagnostics notification as JSON text, from diagnostics as JSON text."""
    version_json = "" if version is None else f',"version":{int(version)}'
    return (
        '{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":'
        + json.dumps(uri) + version_json + ',"diagnostics":[' + ",".join(diagnostics) + "]}}"
    )
