"""workspace/executeCommand: export a report, look an API up, fix a file, switch target (the workspace scan
is in `workspace_scan.py`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcInvalidRequest

from ascend_migrate.lsp import code_actions, weights_hint
from ascend_migrate.lsp.handlers.arguments import named, string
from ascend_migrate.lsp.handlers.documents import reanalyze_all, snapshot
from ascend_migrate.lsp.handlers.workspace_scan import scan_is_stale, workspace_roots
from ascend_migrate.lsp.server import AscendMigrateServer

EXPORT_REPORT = "ascend-migrate.exportReport"
LOOKUP = "ascend-migrate.lookup"
FIX_ALL = "ascend-migrate.fixAll"
SET_TARGET = "ascend-migrate.setTarget"
LOOKUP_LIMIT = 200
# exportReport's refusals, in the error's `data.reason`
NO_SCAN = "no-scan"
STALE_SCAN = "stale-scan"


def register(server: AscendMigrateServer) -> None:
    @server.command(EXPORT_REPORT)
    def export_report(ls: AscendMigrateServer, *arguments: Any) -> dict[str, Any]:
        return _export_report(ls, named(arguments, ("format", "path", "overwrite"), EXPORT_REPORT))

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

    @server.command(weights_hint.WEIGHTS_COMMAND)
    def weights_command(ls: AscendMigrateServer, *arguments: Any) -> dict[str, str]:
        """The `weights convert` and `compare` command lines for a weights file (`source`: its path, or null)."""
        source = named(arguments, ("source",), weights_hint.WEIGHTS_COMMAND).get("source")
        if source is not None and (not isinstance(source, str) or not source):
            raise JsonRpcInvalidParams(message=f"{weights_hint.WEIGHTS_COMMAND}: `source` must be a path or null, got {source!r}")
        return weights_hint.commands(source)

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
    overwrite = values.get("overwrite", False)
    if not isinstance(overwrite, bool):
        raise JsonRpcInvalidParams(message=f"{EXPORT_REPORT}: `overwrite` must be true or false, got {overwrite!r}")
    if format_name not in FORMATS:
        raise JsonRpcInvalidParams(message=f"{EXPORT_REPORT}: format must be one of {sorted(FORMATS)}, got {format_name!r}")
    # Plain words (an editor shows them as they are); `data.reason` is for a client that acts on the refusal.
    if server.last_scan is None:
        raise JsonRpcInvalidRequest(message="no workspace scan yet; scan the workspace first", data={"reason": NO_SCAN})
    if scan_is_stale(server):
        raise JsonRpcInvalidRequest(
            message="the last workspace scan is out of date (the target or settings changed since); scan the workspace again",
            data={"reason": STALE_SCAN},
        )
    output = _export_destination(workspace_roots(server), path, format_name, overwrite)
    try:
        write = writer(format_name)
    except ImportError:
        raise JsonRpcInvalidParams(message=f"{EXPORT_REPORT}: the {format_name} report is not available in this build") from None
    try:
        if format_name == "csv" and not output.exists():
            output.mkdir()  # the csv report's own directory, in a directory that exists
        write(server.last_scan, output, ReportOptions())
    except OSError as error:
        raise JsonRpcInvalidRequest(message=f"{EXPORT_REPORT}: cannot write {output}: {error.strerror or error}") from None
    return {"format": format_name, "path": str(output), "findings": len(server.last_scan.findings)}


def _export_destination(roots: list[Path], path: str, format_name: str, overwrite: bool) -> Path:
    """Where to write the report: inside a workspace folder (a relative path is taken from the first), in a
    directory that exists, through no symbolic link, over no file that is not a report of ours unless
    `overwrite`. (A client that lets the user pick a path elsewhere writes the file itself.)"""
    from ascend_migrate.reports.recognise import csv_file_names, is_our_report

    def refuse(reason: str) -> JsonRpcInvalidParams:
        return JsonRpcInvalidParams(message=f"{EXPORT_REPORT}: {reason}")

    if not roots:
        raise refuse("the client opened no workspace folder to export into")
    if path.startswith("~"):
        raise refuse(f"{path!r}: paths are taken inside the workspace folder; `~` is not expanded")
    candidate = Path(os.path.normpath(roots[0] / path))  # lexically: `..` may not climb out through a link
    root = next((root for root in roots if candidate == root or root in candidate.parents), None)
    if root is None or candidate == root:
        raise refuse(f"{path!r}: the report must be inside the workspace folder ({', '.join(map(str, roots))})")
    step = root
    for part in candidate.relative_to(root).parts:
        step = step / part
        if step.is_symlink():
            raise refuse(f"{step} is a symbolic link; reports are never written through or over one")
    if not candidate.parent.is_dir():
        raise refuse(f"the directory {candidate.parent} does not exist (exportReport creates no directories)")
    if format_name == "csv":
        if candidate.exists() and not candidate.is_dir():
            raise refuse(f"{candidate} exists and is not a directory (the csv report is a directory of files)")
        targets = [candidate / name for name in csv_file_names()]
    else:
        targets = [candidate]
    for target in targets:
        if target.is_symlink():
            raise refuse(f"{target} is a symbolic link; reports are never written through or over one")
        if not target.exists():
            continue
        if not target.is_file():
            raise refuse(f"{target} exists and is not a regular file")
        if not overwrite and not is_our_report(format_name, target):
            raise refuse(f"{target} exists and is not an ascend-migrate {format_name} report; pass `overwrite: true` to replace it")
    return candidate


async def _fix_all(server: AscendMigrateServer, uri: str) -> dict[str, Any]:
    current = snapshot(server, uri)
    if current is None:
        raise JsonRpcInvalidParams(message=f"{FIX_ALL}: {uri} is not open")
    if current.findings is None:
        raise JsonRpcInvalidRequest(message=f"{FIX_ALL}: {uri} is being analysed; try again")
    action = code_actions.fix_all_action(current, server.encoding, server.versioned_edits, server.fix_all_edits)
    if action is None:
        return {"applied": False, "edits": 0}
    edit = action.edit
    if edit is None:  # fix_all_action always sets one; the protocol type allows none
        return {"applied": False, "edits": 0}
    response = await server.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label="ascend-migrate: fix all safe issues")
    )
    document_edit_count = sum(len(change.edits) for change in edit.document_changes or [] if isinstance(change, types.TextDocumentEdit))
    edit_count = document_edit_count or sum(len(edits) for edits in (edit.changes or {}).values())
    return {"applied": bool(response.applied), "edits": edit_count}
