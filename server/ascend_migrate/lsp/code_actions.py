"""Code actions: a quick fix per fixable diagnostic, "ignore on this line", fix-all, and (npu target)
enabling torch_npu's automatic migration. Built from the diagnostics' `data` and the cached analysis;
nothing here analyses the document again."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import attrs
from lsprotocol import types

from ascend_migrate.analysis.findings import Finding, Fix, TextEdit
from ascend_migrate.config import Settings
from ascend_migrate.lsp import convert, edits

logger = logging.getLogger("ascend_migrate.lsp")
FIX_ALL_KIND = "source.fixAll.ascend-migrate"
CODE_ACTION_KINDS = [types.CodeActionKind.QuickFix, FIX_ALL_KIND]
AUTOMATIC_MIGRATION_IMPORTS = ("import torch_npu", "from torch_npu.contrib import transfer_to_npu")


@dataclass(frozen=True)
class DocumentSnapshot:
    """One version of a document, with the findings of exactly that version (or None if not analysed yet)."""

    uri: str
    version: int
    text: str
    lines: Sequence[str]
    findings: Sequence[Finding] | None
    settings: Settings


def _wanted(kind: str, only: Sequence[str] | None) -> bool:
    return not only or any(kind == requested or kind.startswith(requested + ".") for requested in only)


def workspace_edit(snapshot: DocumentSnapshot, engine_edits: Sequence[TextEdit], encoding: str, versioned: bool) -> types.WorkspaceEdit:
    """A workspace edit for one document; versioned (so a client refuses it for a newer text) when supported."""
    lsp_edits = [convert.text_edit(edit, snapshot.lines, encoding) for edit in engine_edits]
    if versioned:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=snapshot.uri, version=snapshot.version),
                    edits=lsp_edits,
                )
            ]
        )
    return types.WorkspaceEdit(changes={snapshot.uri: lsp_edits})


def fix_all_action(snapshot: DocumentSnapshot, encoding: str, versioned: bool) -> types.CodeAction | None:
    if not snapshot.findings:
        return None
    try:
        engine_edits = edits.fix_all_edits(snapshot.text, snapshot.findings)
    except Exception:
        logger.exception("fixing all of %s failed", snapshot.uri)
        return None
    if not engine_edits:
        return None
    return types.CodeAction(
        title="Fix all safe ascend-migrate issues",
        kind=FIX_ALL_KIND,
        edit=workspace_edit(snapshot, engine_edits, encoding, versioned),
    )


def code_actions(
    snapshot: DocumentSnapshot, params: types.CodeActionParams, encoding: str, versioned: bool
) -> list[types.CodeAction]:
    only = params.context.only
    ours = _our_diagnostics(snapshot, params.context.diagnostics, encoding)
    actions: list[types.CodeAction] = []
    # Fix edits carry positions of the analysed text: offer them only while that text is the current one.
    current = snapshot.findings is not None
    if _wanted(types.CodeActionKind.QuickFix, only):
        if current:
            actions.extend(_quick_fixes(snapshot, ours, encoding, versioned))
        actions.extend(_ignore_actions(snapshot, ours, encoding, versioned))
        migration = _automatic_migration(snapshot, ours, encoding, versioned)
        if migration is not None:
            actions.append(migration)
    if current and _wanted(FIX_ALL_KIND, only):
        action = fix_all_action(snapshot, encoding, versioned)
        if action is not None:
            actions.append(action)
    return actions


def _our_diagnostics(snapshot: DocumentSnapshot, diagnostics: Sequence[types.Diagnostic], encoding: str) -> list[types.Diagnostic]:
    """The request's diagnostics that are ours, each with its `data`.

    Some clients (Vim's ALE) send diagnostics back without `source` and `data`; those are matched to the
    findings of the current version by range and code, so they get their quick fixes too.
    """
    ours = []
    by_range: dict[tuple, list[Finding]] | None = None
    for diagnostic in diagnostics:
        if isinstance(diagnostic.data, dict) and diagnostic.source == convert.SOURCE:
            ours.append(diagnostic)
            continue
        if diagnostic.source not in (None, convert.SOURCE) or snapshot.findings is None:
            continue
        if by_range is None:
            by_range = {}
            for finding in snapshot.findings:
                start = convert.position(snapshot.lines, finding.line, finding.column, encoding)
                end = convert.position(snapshot.lines, finding.end_line, finding.end_column, encoding)
                by_range.setdefault((start.line, start.character, end.line, end.character), []).append(finding)
        key = (diagnostic.range.start.line, diagnostic.range.start.character, diagnostic.range.end.line, diagnostic.range.end.character)
        for finding in by_range.get(key, []):
            if diagnostic.code in (None, "", finding.code):
                ours.append(attrs.evolve(diagnostic, source=convert.SOURCE, data=convert.diagnostic_data(finding)))
                break
    return ours


def _quick_fixes(snapshot: DocumentSnapshot, diagnostics: Sequence[types.Diagnostic], encoding: str, versioned: bool) -> list[types.CodeAction]:
    actions = []
    for diagnostic in diagnostics:
        fix_data: Any = diagnostic.data.get("fix")
        if not isinstance(fix_data, dict):
            continue
        try:
            fix = Fix.from_json(fix_data)
        except (KeyError, TypeError, ValueError):
            continue  # data from another server version: no fix rather than a wrong one
        try:
            engine_edits = edits.fix_edits(fix, snapshot.text)
        except Exception:  # one failing fix must not take the other actions (ignore, fix all) with it
            logger.exception("the fix %r of %s failed", fix.title, diagnostic.code)
            continue
        if not engine_edits:
            continue
        title = fix.title if fix.safe else f"{fix.title} (unsafe: review the result)"
        actions.append(
            types.CodeAction(
                title=title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=fix.safe,
                edit=workspace_edit(snapshot, engine_edits, encoding, versioned),
            )
        )
    return actions


def _ignore_actions(snapshot: DocumentSnapshot, diagnostics: Sequence[types.Diagnostic], encoding: str, versioned: bool) -> list[types.CodeAction]:
    actions = []
    seen: set[tuple[int, str]] = set()
    for diagnostic in diagnostics:
        code = str(diagnostic.data.get("code") or diagnostic.code or "")
        line = diagnostic.range.start.line + 1
        if not code or (line, code) in seen or line > len(snapshot.lines):
            continue
        seen.add((line, code))
        edit = edits.suppression_edit(snapshot.lines, line, code)
        if edit is None:
            continue
        actions.append(
            types.CodeAction(
                title=f"Ignore {code} on this line",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                edit=workspace_edit(snapshot, [edit], encoding, versioned),
            )
        )
    return actions


def _automatic_migration(snapshot: DocumentSnapshot, diagnostics: Sequence[types.Diagnostic], encoding: str, versioned: bool) -> types.CodeAction | None:
    if snapshot.settings.target != "npu":
        return None
    npu_diagnostics = [diagnostic for diagnostic in diagnostics if str(diagnostic.data.get("category", "")).startswith("npu-")]
    if not npu_diagnostics:
        return None
    edit = edits.add_imports_edit(snapshot.text, AUTOMATIC_MIGRATION_IMPORTS)
    if edit is None:
        return None
    return types.CodeAction(
        title="Enable automatic migration (import torch_npu and transfer_to_npu at the top of the file)",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=npu_diagnostics,
        edit=workspace_edit(snapshot, [edit], encoding, versioned),
    )
