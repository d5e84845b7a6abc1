"""The `save-checkpoint` fix family: `torch.save(model.state_dict(), path)` → `mindspore.save_checkpoint(model, path)`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascend_migrate.fixes.families.base import Rewrite, Span
from ascend_migrate.pickling import pickled_by_position

if TYPE_CHECKING:
    from ascend_migrate.fixes.text import LineIndex, TextEdit

DEFAULT_CALLEE = "mindspore.save_checkpoint"


@pickled_by_position
@dataclass(frozen=True, slots=True)
class SaveCheckpoint(Rewrite):
    """`call` is the `torch.save(...)` call; `callee` the function that replaces it."""

    NAME = "save-checkpoint"
    SPAN_FIELDS = ("call",)

    call: Span
    callee: str = DEFAULT_CALLEE

    def edits(self, source: str, index: LineIndex) -> list[TextEdit]:
        import libcst  # loaded only to fix

        from ascend_migrate.fixes.arguments import node_text, parse_call, parse_expression
        from ascend_migrate.fixes.errors import FixError
        from ascend_migrate.fixes.node_diff import rewrite_edits

        call, text = parse_call(index, self.call)
        callee = self.callee or DEFAULT_CALLEE
        if node_text(call.func) == callee:
            return []
        args = call.args
        if len(args) != 2 or any(arg.keyword is not None or arg.star for arg in args):
            return []  # pickle_module=..., or a saved object other than a state dict: a manual change
        state_dict = args[0].value
        if not (
            isinstance(state_dict, libcst.Call)
            and not state_dict.args
            and isinstance(state_dict.func, libcst.Attribute)
            and state_dict.func.attr.value == "state_dict"
        ):
            return []
        try:
            new_func = parse_expression(callee)
        except libcst.ParserSyntaxError:
            raise FixError(f"{callee!r} is not a Python expression") from None
        model = state_dict.func.value
        rewritten = call.with_changes(func=new_func, args=[args[0].with_changes(value=model), args[1]])
        return rewrite_edits(call, rewritten, text, self.call[0], self.call[1])
