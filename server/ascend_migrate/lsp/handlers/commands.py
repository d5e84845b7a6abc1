"""workspace/executeCommand: export a report, look an API up, fix a file, switch target (the workspace scan
is in `workspace_scan.py`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcInvalidRequest

from ascend_migrate.lsp import code_actions
from ascend_migrate.lsp.handlers.arguments import named, string
from ascend_migrate.lsp.handlers.documents import reanalyze_all, snapshot
from ascend_migrate.lsp.handlers.workspace_scan import SCAN_WORKSPACE
from ascend_migrate.lsp.server import AscendMigrateServer

EXPORT_REPORT = "ascend-migrate.exportReport"
LOOKUP = "ascend-migrate.lookup"
FIX_ALL = "ascend-migrate.fixAll"
SET_TARGET = "ascend-migrate.setTarget"
LOOKUP_LIMIT = 200


def register(server: AscendMigrateServer) -> None:
    @server.command(EXPORT_REPORT)
    def export_report(ls: AscendMigrateServer, *arguments: Any) -> dict[str, Any]:
        return _export_report(ls, named(arguments, ("format", "path"), EXPORT_REPORT))

    @server.command(LOOKUP)
    def lookup(ls: AscendMigrateServer, *arguments: Any) -> list[dict[str, Any]]:
        from ascend_migrate.kb.index import KnowledgeBase
        from ascend_migrate.kb.lookup import lookup_json

        name = string(named(arguments, ("name",), LOOKUP), "name", LOOKUP)
        # A plain prefix, so that a search box can ask as the user types (`torch.nn.Li` finds torch.nn.Linear).
        return lookup_json(KnowledgeBase.load(), name, prefix=True, limit=LOOKUP_LIMIT)

    @server.command(FIX_ALL)
    async def fix_all(ls: AscendMigrateServer, *arguments: Any) -> dict[str, Any]:
        uri = string(named(arguments, ("uri",), FIX_ALL), "uri", FIX_ALL)
        return await _fix_all(ls, uri)

    @server.command(SET_TARGET)
    def set_target(ls: AscendMigrateServer, *arguments: Any) -> dict[str, Any]:
        target = string(named(arguments, ("target",), SET_TARGET), "target", SET_TARGET)
        try:
            ls.settings.set_target(target)
        except ValueError as error:
            raise JsonRpcInvalidParams(message=f"{SET_TARGET}: {error}") from None
        reanalyze_all(ls)
        return {"target": target}


def _export_report(server: AscendMigrateServer, values: dict[str, Any]) -> dict[str, Any]:
    from ascend_migrate.reports import FORMATS, ReportOptions, writer

    format_name = string(values, "format", EXPORT_REPORT)
    path = string(values, "path", EXPORT_REPORT)
    if format_name not in FORMATS:
        raise JsonRpcInvalidParams(message=f"{EXPORT_REPORT}: format must be one of {sorted(FORMATS)}, got {format_name!r}")
    if server.last_scan is None:
        raise JsonRpcInvalidRequest(message=f"{EXPORT_REPORT}: there is no scan to report yet; run {SCAN_WORKSPACE} first")
    try:
        write = writer(format_name)
    except ImportError:
        raise JsonRpcInvalidParams(message=f"{EXPORT_REPORT}: the {format_name} report is not available in this build") from None
    output = Path(path).expanduser()
    try:
        write(server.last_scan, output, ReportOptions())
    except OSError as error:
        raise JsonRpcInvalidRequest(message=f"{EXPORT_REPORT}: cannot write {output}: {error.strerror or error}") from None
    return {"format": format_name, "path": str(output), "findings": len(server.last_scan.findings)}


async def _fix_all(server: AscendMigrateServer, uri: str) -> dict[str, Any]:
    current = snapshot(server, uri)
    if current is None:
        raise JsonRpcInvalidParams(message=f"{FIX_ALL}: {uri} is not open")
    if current.findings is None:
        raise JsonRpcInvalidRequest(message=f"{FIX_ALL}: {uri} is being analysed; try again")
    action = code_actions.fix_all_action(current, server.encoding, server.versioned_edits, server.fix_all_edits)
    if action is None:
        return {"applied": False, "edits": 0}
    response = await server.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=action.edit, label="ascend-migrate: fix all safe issues")
    )
    edit_count = sum(len(change.edits) for change in action.edit.document_changes or []) or sum(len(edits) for edits in (action.edit.changes or {}).values())
    return {"applied": bool(response.applied), "edits": edit_count}
