"""The `save-checkpoint` fix family: `torch.save(model.state_dict(), path)` → `mindspore.save_checkpoint(model, path)`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import libcst

from ascend_migrate.analysis.findings import TextEdit
from ascend_migrate.fixes.arguments import node_text, parse_call, parse_expression
from ascend_migrate.fixes.errors import FixError
from ascend_migrate.fixes.node_diff import rewrite_edits
from ascend_migrate.fixes.text import LineIndex

DEFAULT_CALLEE = "mindspore.save_checkpoint"


def save_checkpoint_edits(source: str, arguments: Mapping[str, Any], index: LineIndex | None = None) -> list[TextEdit]:
    index = index or LineIndex(source)
    call, text, span = parse_call(index, arguments)
    callee = arguments.get("callee") or DEFAULT_CALLEE
    if node_text(call.func) == callee:
        return []
    args = call.args
    if len(args) != 2 or any(arg.keyword is not None or arg.star for arg in args):
        return []  # pickle_module=..., or a saved object other than a state dict: a manual change
    state_dict = args[0].value
    is_state_dict_call = (
        isinstance(state_dict, libcst.Call)
        and not state_dict.args
        and isinstance(state_dict.func, libcst.Attribute)
        and state_dict.func.attr.value == "state_dict"
    )
    if not is_state_dict_call:
        return []
    try:
        new_func = parse_expression(callee)
    except libcst.ParserSyntaxError:
        raise FixError(f"{callee!r} is not a Python expression") from None
    model = state_dict.func.value
    rewritten = call.with_changes(func=new_func, args=[args[0].with_changes(value=model), args[1]])
    return rewrite_edits(call, rewritten, text, span[0], span[1])
