"""`x.fill_(v)` as a statement on the MindSpore route: `x = mindspore.ops.full_like(x, v)`; `x.cauchy_(...)` and
`x.log_normal_(...)` as statements: `x = x.cauchy(...)`, `x = x.log_normal(...)`.

mindspore.Tensor.fill_ exists in 2.10, but its kernel (InplaceFillScalar) has no CPU build, so a program that
fills a tensor in place stops there on CPU (dcgan's `label.fill_(fake_label)`), and an in-place change inside a
function value_and_grad differentiates is what MindSpore's functional autodiff handles least. full_like makes a
tensor of x's shape and dtype holding v (mindspore 2.10 on CPU: the same values as torch's fill_). The one
difference: another name bound to the same tensor keeps the old values; hence unsafe.

mindspore.Tensor.cauchy and log_normal (the tables' targets for torch's in-place cauchy_ and log_normal_) return a new
tensor and leave the receiver unchanged (mindspore 2.10.0, CPU), so the plain rename of the statement `x.cauchy_()`
computed nothing; the result is assigned instead, with torch's arguments (the same names and defaults: cauchy(median,
sigma), log_normal(mean, std)) less `generator=`, which neither takes (MS239 says what that changes). A call whose
result is used as a value (torch returns the filled receiver) keeps the finding without a fix.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.call_rewrite import source_text
from ascend_migrate.taxonomy import ROUTE_MINDSPORE


def _fill(context, entry, node: ast.Attribute, call, span) -> Fix | None:
    where = _statement_call(context, node, call)  # only a statement can rebind the name
    if where is None or len(call.args) != 1 or call.keywords:
        return None
    value_line, _, value_end_line, _ = context.factory.span(call.args[0])
    if value_line != value_end_line:
        return None
    name, value = source_text(context, node.value), source_text(context, call.args[0])
    return Fix(title=f"Replace with `{name} = mindspore.ops.full_like({name}, {value})` (a new tensor: fill_ has no CPU kernel)",
               safe=False, edits=(TextEdit(*where, f"{name} = mindspore.ops.full_like({name}, {value})"),),
               add_imports=("import mindspore",))


def _statement_call(context, node: ast.Attribute, call) -> tuple[int, int, int, int] | None:
    """The span of `name.method(...)` when it is a whole statement on one line (else None: its value is used)."""
    if call is None or call.func is not node or type(node.value) is not ast.Name:
        return None
    line, column, end_line, end_column = context.factory.span(call)
    text = context.factory.lines.text(line)
    if line != end_line or text.split("#")[0].strip() != text[column - 1:end_column - 1]:
        return None
    return line, column, end_line, end_column


def _returned_fill(context, entry, node: ast.Attribute, call, span) -> Fix | None:
    where = _statement_call(context, node, call)
    if where is None or any(type(argument) is ast.Starred for argument in call.args) or any(
            keyword.arg is None for keyword in call.keywords):
        return None
    name, method = source_text(context, node.value), entry.target.rsplit(".", 1)[-1]
    arguments = [source_text(context, argument) for argument in call.args]
    arguments += [f"{keyword.arg}={source_text(context, keyword.value)}" for keyword in call.keywords if keyword.arg != "generator"]
    new = f"{name} = {name}.{method}({', '.join(arguments)})"
    return Fix(title=f"Replace with `{new}` ({method} returns a new tensor and leaves {name} unchanged)", safe=False,
               edits=(TextEdit(*where, new),))


METHOD_BUILDERS = {
    (ROUTE_MINDSPORE, "torch.Tensor.fill_"): _fill,
    # targets mindspore.Tensor.cauchy / log_normal in every era (mappings/pytorch_mindspore.yaml, corrections.py)
    (ROUTE_MINDSPORE, "torch.Tensor.cauchy_"): _returned_fill,
    (ROUTE_MINDSPORE, "torch.Tensor.log_normal_"): _returned_fill,
}
