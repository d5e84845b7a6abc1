"""`x.detach()` on the MindSpore route: `mindspore.ops.stop_gradient(x)` (mindspore.Tensor has no detach in 2.10).

stop_gradient returns x's value with no gradient flowing back through it, which is what detach() means inside
a function value_and_grad differentiates; outside one it returns x unchanged, as detach() changes no value.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.taxonomy import ROUTE_MINDSPORE


def _stop_gradient(context, entry, node: ast.Attribute, call, span) -> Fix | None:
    if call is None or call.func is not node or call.args or call.keywords:
        return None
    line, column, end_line, end_column = context.factory.span(call)
    receiver_line, receiver_column, receiver_end_line, receiver_end_column = context.factory.span(node.value)
    if receiver_line != receiver_end_line:
        return None
    receiver = context.factory.lines.text(receiver_line)[receiver_column - 1:receiver_end_column - 1]
    return Fix(title=f"Replace with `mindspore.ops.stop_gradient({receiver})`", safe=False,
               edits=(TextEdit(line, column, end_line, end_column, f"mindspore.ops.stop_gradient({receiver})"),),
               add_imports=("import mindspore",))


METHOD_BUILDERS = {(ROUTE_MINDSPORE, "torch.Tensor.detach"): _stop_gradient}
