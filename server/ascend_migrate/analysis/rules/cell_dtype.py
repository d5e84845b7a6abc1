"""`model.double()` / `.float()` / `.half()` / `.bfloat16()` on a Cell (MS221): a Cell has none of them.

mindspore 2.10's `Cell.to(dtype)` casts every floating parameter of the cell and its sub-cells, as torch's
`Module.double()` does (checked on CPU: nn.Dense(3, 2).to(mindspore.float64) leaves float64 parameters). For
an older target (the ops/nn era) the fix casts each parameter with `Parameter.set_dtype`, which only a whole
statement can do: `model.double()` alone on its line; where the result is used, the finding says what to do.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

DTYPES = {"double": "mindspore.float64", "float": "mindspore.float32", "half": "mindspore.float16",
          "bfloat16": "mindspore.bfloat16"}


def _cast(context, entry, node: ast.Attribute, call, span) -> Fix | None:
    if call is None or call.func is not node or call.args or call.keywords or node.attr not in DTYPES:
        return None
    dtype = DTYPES[node.attr]
    line, column, end_line, end_column = context.factory.span(call)
    if line != end_line:
        return None
    receiver = context.factory.lines.text(line)[column - 1:context.factory.span(node.value)[3] - 1]
    if entry.target == "mindspore.nn.Cell.to":
        return Fix(title=f"Replace with `{receiver}.to({dtype})` (casts the cell's parameters)", safe=False,
                   edits=(TextEdit(line, column, end_line, end_column, f"{receiver}.to({dtype})"),),
                   add_imports=("import mindspore",))
    if context.factory.lines.text(line).strip() != context.factory.lines.text(line)[column - 1:end_column - 1]:
        return None  # the cast cell is used as a value: set_dtype needs a statement of its own
    return Fix(title=f"Cast each parameter of `{receiver}` to {dtype} with Parameter.set_dtype", safe=False,
               edits=(TextEdit(line, column, end_line, end_column,
                               f"for parameter in {receiver}.get_parameters(): parameter.set_dtype({dtype})"),),
               add_imports=("import mindspore",))


METHOD_BUILDERS = {(ROUTE_MINDSPORE, f"torch.nn.Module.{name}"): _cast for name in DTYPES}
