"""`x.fill_(v)` as a statement on the MindSpore route: `x = mindspore.ops.full_like(x, v)`.

mindspore.Tensor.fill_ exists in 2.10, but its kernel (InplaceFillScalar) has no CPU build, so a program that
fills a tensor in place stops there on CPU (dcgan's `label.fill_(fake_label)`), and an in-place change inside a
function value_and_grad differentiates is what MindSpore's functional autodiff handles least. full_like makes a
tensor of x's shape and dtype holding v (mindspore 2.10 on CPU: the same values as torch's fill_). The one
difference: another name bound to the same tensor keeps the old values; hence unsafe.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.taxonomy import ROUTE_MINDSPORE


def _fill(context, entry, node: ast.Attribute, call, span) -> Fix | None:
    if call is None or call.func is not node or len(call.args) != 1 or call.keywords or type(node.value) is not ast.Name:
        return None
    factory = context.factory
    line, column, end_line, end_column = factory.span(call)
    text = factory.lines.text(line)
    if line != end_line or text.split("#")[0].strip() != text[column - 1:end_column - 1]:
        return None  # the fill's result is used as a value: only a statement can rebind the name
    value_line, value_column, value_end_line, value_end_column = factory.span(call.args[0])
    if value_line != value_end_line:
        return None
    name, value = node.value.id, text[value_column - 1:value_end_column - 1]
    return Fix(title=f"Replace with `{name} = mindspore.ops.full_like({name}, {value})` (a new tensor: fill_ has no CPU kernel)",
               safe=False, edits=(TextEdit(line, column, end_line, end_column, f"{name} = mindspore.ops.full_like({name}, {value})"),),
               add_imports=("import mindspore",))


METHOD_BUILDERS = {(ROUTE_MINDSPORE, "torch.Tensor.fill_"): _fill}
