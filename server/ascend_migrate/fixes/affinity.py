"""The `clip-grad-fused` fix family: `clip_grad_norm_(params, max_norm)` → `optimizer.clip_grad_norm_fused_(max_norm)`.

torch_npu's fused optimizers (`torch_npu.optim.NpuFused*`) clip their own flattened gradients in one kernel;
the fix is unsafe because it is only right when `optimizer` is such an optimizer over the same parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ascend_migrate.analysis.findings import TextEdit
from ascend_migrate.fixes.arguments import node_text, parse_call
from ascend_migrate.fixes.errors import FixError
from ascend_migrate.fixes.text import LineIndex, diff_edits

FUSED_METHOD = "clip_grad_norm_fused_"


def clip_grad_fused_edits(source: str, arguments: Mapping[str, Any], index: LineIndex | None = None) -> list[TextEdit]:
    index = index or LineIndex(source)
    optimizer = arguments.get("optimizer")
    if not isinstance(optimizer, str) or not optimizer.isidentifier():
        raise FixError(f"clip-grad-fused needs the optimizer's variable name, got {optimizer!r}")
    call, text, span = parse_call(index, arguments)
    if node_text(call.func).endswith(FUSED_METHOD):
        return []
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    keywords = {arg.keyword.value: arg for arg in call.args if arg.keyword is not None}
    if any(arg.star for arg in call.args):
        return []
    max_norm = keywords.get("max_norm") or (positional[1] if len(positional) > 1 else None)
    norm_type = keywords.get("norm_type") or (positional[2] if len(positional) > 2 else None)
    if max_norm is None:
        return []
    kept = [node_text(max_norm.value)]
    if norm_type is not None:
        kept.append(node_text(norm_type.value))
    new_text = f"{optimizer}.{FUSED_METHOD}({', '.join(kept)})"
    return diff_edits(text, new_text, span[0], span[1])
