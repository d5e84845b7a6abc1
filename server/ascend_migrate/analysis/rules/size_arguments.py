"""torch's `*size` creation calls on the MindSpore route: `torch.zeros(2, 3)` → `mindspore.ops.zeros((2, 3))`.

torch takes the sizes one by one or as a tuple; mindspore 2.10's ops.zeros/ones, mint.zeros/ones and
Tensor.new_zeros/new_ones/new_empty take one `size` argument and raise TypeError on `f(2, 3)` (checked with
mindspore 2.10.0 on CPU: `f((2, 3))` gives shape (2, 3), `f(2, 3)` a TypeError; ops.rand/randn and mint.rand/
randn/empty take `*size` as torch does and are left alone). Bracketing the sizes into one tuple passes the
same shape, so the fix is as safe as the rename it goes with.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

# The MindSpore targets (mindspore 2.10.0) whose first parameter is one size, not `*size`.
ONE_SIZE_TARGETS = frozenset({
    "mindspore.ops.zeros", "mindspore.ops.ones", "mindspore.mint.zeros", "mindspore.mint.ones",
    "mindspore.Tensor.new_zeros", "mindspore.Tensor.new_ones", "mindspore.Tensor.new_empty",
})


def _bracket_sizes(context, call: ast.Call | None) -> tuple[TextEdit, ...] | None:
    """The two edits putting `(` before the first size and `)` after the last, when the call passes two or
    more sizes one by one, or unpacks them (`torch.ones(*shape)` → `ops.ones((*shape,))`: the same sizes as one
    tuple whatever their number); None when it passes one (an int or a tuple already)."""
    if call is None or not call.args:
        return None
    starred = any(type(argument) is ast.Starred for argument in call.args)
    if len(call.args) < 2 and not starred:
        return None
    line, column, _, _ = context.factory.span(call.args[0])
    _, _, end_line, end_column = context.factory.span(call.args[-1])
    return (TextEdit(line, column, line, column, "("), TextEdit(end_line, end_column, end_line, end_column, ",)" if starred else ")"))


def with_sizes_bracketed(context, entry, call: ast.Call | None, fix: Fix | None) -> Fix | None:
    """`fix` (the rename of torch.zeros/ones) with the sizes bracketed, when its target takes one size."""
    if fix is None or context.route != ROUTE_MINDSPORE or entry.target not in ONE_SIZE_TARGETS:
        return fix
    sizes = _bracket_sizes(context, call)
    if sizes is None:
        return fix
    return dataclasses.replace(fix, title=fix.title + " with the sizes as one tuple", edits=fix.edits + sizes)


def _method(context, entry, node: ast.Attribute, call, span) -> Fix | None:
    """x.new_zeros(2, 3) → x.new_zeros((2, 3)) (the same method name in MindSpore)."""
    sizes = _bracket_sizes(context, call) if call is not None and call.func is node else None
    if sizes is None or entry.target not in ONE_SIZE_TARGETS or entry.target.rsplit(".", 1)[-1] != node.attr:
        return None
    return Fix(title=f"Pass the sizes of `.{node.attr}(...)` as one tuple", safe=entry.fix == "safe", edits=sizes)


METHOD_BUILDERS = {(ROUTE_MINDSPORE, f"torch.Tensor.{name}"): _method for name in ("new_zeros", "new_ones", "new_empty")}
