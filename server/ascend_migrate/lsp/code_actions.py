"""Code actions: a quick fix per fixable diagnostic, "ignore on this line", fix-all, and (npu target)
enabling torch_npu's automatic migration. Built from the diagnostics' `data` and the cached analysis;
nothing here analyses the document again."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import attrs
from lsprotocol import types

from ascend_migrate.analysis.findings import Finding, Fix, TextEdit
from ascend_migrate.config import Settings
from ascend_migrate.fixes.top_imports import AUTOMATIC_MIGRATION_IMPORTS
from ascend_migrate.lsp import convert, edits

logger = logging.getLogger("ascend_migrate.lsp")
FIX_ALL_KIND = "source.fixAll.ascend-migrate"
CODE_ACTION_KINDS = [types.CodeActionKind.QuickFix, FIX_ALL_KIND]


@dataclass(frozen=True)
class DocumentSnapshot:
    """One version of a document, with the findings of exactly that version (or None if not analysed yet)."""

    uri: str
    version: int | None  # None after an oversize message whose version the transport could not read
    text: str
    lines: Sequence[str]
    findings: Sequence[Finding] | None
    settings: Settings
    analysis: Any = None  # the engine's ModuleAnalysis that gave `findings` (None when not of this version)


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


FIX_ALL_TITLE = "Fix all safe ascend-migrate issues"


class FixAllEdits:
    """The edits of fix-all for each open document, worked out once per analysed version.

    Editors ask for code actions at every move of the cursor; applying every safe fix of a file is the one
    action whose cost grows with the file (a second or more for ten thousand fixes), so it is kept until the
    document or its findings change. Thread-safe: the worker thread and the event loop both ask.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_uri: dict[str, tuple[int | None, tuple[Finding, ...], list[TextEdit]]] = {}

    def get(self, snapshot: DocumentSnapshot) -> list[TextEdit]:
        findings = tuple(snapshot.findings or ())
        with self._lock:
            cached = self._by_uri.get(snapshot.uri)
        if cached is not None and cached[0] == snapshot.version and cached[1] == findings:
            return cached[2]
        computed = edits.fix_all_edits(snapshot.text, findings, snapshot.settings, snapshot.analysis) if findings else []
        with self._lock:
            self._by_uri[snapshot.uri] = (snapshot.version, findings, computed)
        return computed

    def forget(self, uri: str) -> None:
        with self._lock:
            self._by_uri.pop(uri, None)


def fix_all_action(snapshot: DocumentSnapshot, encoding: str, versioned: bool, cache: FixAllEdits,
                   resolve_later: bool = False) -> types.CodeAction | None:
    """Fix-all for the document, or None when there is nothing to fix. With `resolve_later` (the client
    resolves code actions' edits) the edit is left to `codeAction/resolve`: offered when a safe fix exists,
    worked out only if the user picks it."""
    if not snapshot.findings:
        return None
    if resolve_later:
        if not any(finding.fix is not None and finding.fix.safe for finding in snapshot.findings):
            return None
        return types.CodeAction(title=FIX_ALL_TITLE, kind=FIX_ALL_KIND, data={"uri": snapshot.uri, "version": snapshot.version})
    return resolve_fix_all(types.CodeAction(title=FIX_ALL_TITLE, kind=FIX_ALL_KIND), snapshot, encoding, versioned, cache)


def resolve_fix_all(action: types.CodeAction, snapshot: DocumentSnapshot, encoding: str, versioned: bool,
                    cache: FixAllEdits) -> types.CodeAction | None:
    """`action` with the edit that applies every safe fix of the snapshot (None when there is none)."""
    try:
        engine_edits = cache.get(snapshot)
    except Exception:
        logger.exception("fixing all of %s failed", snapshot.uri)
        return None
    if not engine_edits:
        return None
    return attrs.evolve(action, edit=workspace_edit(snapshot, engine_edits, encoding, versioned), data=None)


def code_actions(
    snapshot: DocumentSnapshot, params: types.CodeActionParams, encoding: str, versioned: bool,
    cache: FixAllEdits | None = None, resolve_later: bool = False,
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
        action = fix_all_action(snapshot, encoding, versioned, cache or FixAllEdits(), resolve_later)
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


def _data(diagnostic: types.Diagnostic) -> dict[str, Any]:
    """One of our diagnostics' `data` object (`_our_diagnostics` keeps only those whose data is an object)."""
    return diagnostic.data if isinstance(diagnostic.data, dict) else {}


def _quick_fixes(snapshot: DocumentSnapshot, diagnostics: Sequence[types.Diagnostic], encoding: str, versioned: bool) -> list[types.CodeAction]:
    actions = []
    for diagnostic in diagnostics:
        fix_data: Any = _data(diagnostic).get("fix")
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
        title = convert.plain_text(fix.title if fix.safe else f"{fix.title} (unsafe: review the result)")
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
        code = str(_data(diagnostic).get("code") or diagnostic.code or "")
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
    npu_diagnostics = [diagnostic for diagnostic in diagnostics if str(_data(diagnostic).get("category", "")).startswith("npu-")]
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
