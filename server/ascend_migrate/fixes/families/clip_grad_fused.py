"""The `clip-grad-fused` fix family: `clip_grad_norm_(params, max_norm)` → `optimizer.clip_grad_norm_fused_(max_norm)`.

torch_npu's fused optimizers (`torch_npu.optim.NpuFused*`) clip their own flattened gradients in one kernel;
the fix is unsafe because it is only right when `optimizer` is such an optimizer over the same parameters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascend_migrate.fixes.families.base import Rewrite, Span
from ascend_migrate.pickling import pickled_by_position

if TYPE_CHECKING:
    from ascend_migrate.fixes.text import LineIndex, TextEdit

FUSED_METHOD = "clip_grad_norm_fused_"


@pickled_by_position
@dataclass(frozen=True, slots=True)
class ClipGradFused(Rewrite):
    """`call` is the `clip_grad_norm_(...)` call; `optimizer` the source text of the optimizer that steps."""

    NAME = "clip-grad-fused"
    SPAN_FIELDS = ("call",)

    call: Span
    optimizer: str

    def edits(self, source: str, index: LineIndex) -> list[TextEdit]:
        from ascend_migrate.fixes.arguments import node_text, parse_call  # libcst: loaded only to fix
        from ascend_migrate.fixes.errors import FixError
        from ascend_migrate.fixes.text import diff_edits

        if not isinstance(self.optimizer, str) or not self.optimizer.isidentifier():
            raise FixError(f"clip-grad-fused needs the optimizer's variable name, got {self.optimizer!r}")
        call, text = parse_call(index, self.call)
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
        new_text = f"{self.optimizer}.{FUSED_METHOD}({', '.join(kept)})"
        return diff_edits(text, new_text, self.call[0], self.call[1])
