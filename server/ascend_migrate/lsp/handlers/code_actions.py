"""textDocument/codeAction and codeAction/resolve (the actions themselves are built in `lsp/code_actions.py`)."""

from __future__ import annotations

from lsprotocol import types

from ascend_migrate.lsp import code_actions, weights_hint
from ascend_migrate.lsp.handlers.documents import snapshot
from ascend_migrate.lsp.server import AscendMigrateServer


def register(server: AscendMigrateServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=code_actions.CODE_ACTION_KINDS, resolve_provider=True),
    )
    def on_code_action(ls: AscendMigrateServer, params: types.CodeActionParams) -> list[types.CodeAction | types.Command] | None:
        current = snapshot(ls, params.text_document.uri)
        if current is None:
            return None
        actions: list[types.CodeAction | types.Command] = []
        actions += code_actions.code_actions(current, params, ls.encoding, ls.versioned_edits, ls.fix_all_edits,
                                            resolve_later=ls.resolves_code_action_edits)
        if params.context.only is None or types.CodeActionKind.QuickFix in params.context.only:
            actions += weights_hint.code_actions(current.findings or (), params.context.diagnostics, current.lines, current.settings.target)
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    def on_code_action_resolve(ls: AscendMigrateServer, action: types.CodeAction) -> types.CodeAction:
        """Fill in fix-all's edit, against the document as it is now (its current findings); any other action
        is complete already."""
        data = action.data if isinstance(action.data, dict) else {}
        if action.kind != code_actions.FIX_ALL_KIND or action.edit is not None or not isinstance(data.get("uri"), str):
            return action
        current = snapshot(ls, data["uri"])
        if current is None or current.findings is None:
            return action  # closed, or edited and not analysed yet: nothing that would be right to apply
        resolved = code_actions.resolve_fix_all(action, current, ls.encoding, ls.versioned_edits, ls.fix_all_edits)
        return resolved if resolved is not None else action
