"""torch's tensor constructors on the MindSpore route: `torch.Tensor(a, b)`, `torch.FloatTensor(data)`, `torch.tensor(deque)`,
`torch.randint(..., dtype=torch.uint8)`.

Both forms of the call differ from `mindspore.Tensor`, which the tables name: given sizes, torch makes an
uninitialised tensor of that shape, where `mindspore.Tensor(a, b)` takes `b` for a dtype and raises; given data,
torch casts it to the constructor's dtype (float32 for `torch.Tensor` and `torch.FloatTensor`), where
`mindspore.Tensor(data)` keeps the data's dtype (an int32 array stays int32 and a later matmul with a float32
weight raises; the gcn corpus program). So sizes become `mindspore.ops.zeros((a, b), dtype)` (torch leaves the values
undefined: zeros are one of them) and data `mindspore.Tensor(data, dtype=...)`. A typed constructor given one name
(`torch.LongTensor(labels)`) is taken for data: a size is written as a literal or with torch.Tensor. torch.Tensor given
one name or attribute may be either (`torch.Tensor(output_dim)` is a size in a parameter's initialisation,
`torch.Tensor(rows)` data): no fix, and the finding says why, except as the first argument of a Parameter, where it
is the size of an uninitialised weight (`nn.Parameter(torch.Tensor(output_dim))`, gcn's bias).

`torch.tensor(data)` takes any sequence; `mindspore.tensor` refuses a collections.deque (TypeError in 2.10.0: the
REINFORCE example builds its discounted returns in one), so a deque is given as `list(...)`.

mindspore.ops.randint (the ops/nn era's target) raises ValueError for dtype=mindspore.uint8 ("must be an int type";
int8/16/32/64 work, 2.10.0), so random uint8 images (`torch.randint(0, 256, size, dtype=torch.uint8)`) are drawn as
int32 and cast: `mindspore.ops.randint(..., dtype=mindspore.int32).astype(mindspore.uint8)`.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.call_rewrite import replaced_call, source_text
from ascend_migrate.analysis.rules.structure_fixes import NotFixed
from ascend_migrate.analysis.symbols import DEQUE
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

# The constructor's dtype (torch.Tensor's is the default dtype, float32).
DTYPES = {"torch.Tensor": "float32", "torch.FloatTensor": "float32", "torch.DoubleTensor": "float64",
          "torch.LongTensor": "int64", "torch.IntTensor": "int32", "torch.BoolTensor": "bool_"}
_DATA_TYPES = ("torch.Tensor", "numpy.ndarray", "list", "tuple", "local:")  # an argument inferred as one of these is data


def _is_size(node: ast.expr) -> bool:
    return type(node) is ast.Constant and type(node.value) is int


def _is_data(context, node: ast.expr) -> bool:
    if type(node) in (ast.List, ast.Tuple, ast.ListComp, ast.Call, ast.Subscript, ast.BinOp):
        return True  # a literal, or computed: a call or an expression of ints would be written as a size by nobody
    inferred = context.infer(node)
    return inferred is not None and inferred.startswith(_DATA_TYPES)


def _parameter_argument(context, call: ast.Call) -> bool:
    """Whether the call is written as the first argument of a Parameter (`nn.Parameter(torch.Tensor(output_dim))`):
    there one name is a size (the idiom of a layer's uninitialised weight; data would be given to Parameter itself)."""
    line, column, _, _ = context.factory.span(call)
    return context.factory.lines.text(line)[:column - 1].rstrip().endswith("Parameter(")


def _typed_constructor(context, entry, node, call: ast.Call | None, span, root) -> Fix | NotFixed | object:
    if call is None or context.compared_only or entry.target != "mindspore.Tensor":
        return NotImplemented  # a type (isinstance, annotation, a reference): the rename is right
    dtype = f"mindspore.{DTYPES[entry.api]}"
    arguments = call.args
    if call.keywords or any(type(argument) is ast.Starred for argument in arguments) or not arguments:
        return NotFixed(f"write mindspore.ops.zeros(shape, {dtype}) for sizes or mindspore.Tensor(data, dtype={dtype}) "
                        "for data (this form of the call is not rewritten)")
    if len(arguments) > 1 or _is_size(arguments[0]) or _parameter_argument(context, call):
        sizes = ", ".join(source_text(context, argument) for argument in arguments)
        shape = f"({sizes},)" if len(arguments) == 1 else f"({sizes})"
        new = f"mindspore.ops.zeros({shape}, {dtype})"
        return replaced_call(context, call, new, f"Replace with `{new}` ({entry.api} given sizes makes a tensor of that shape)", root)
    if _is_data(context, arguments[0]) or entry.api != "torch.Tensor":
        new = f"mindspore.Tensor({source_text(context, arguments[0])}, dtype={dtype})"
        return replaced_call(context, call, new, f"Replace with `{new}` ({entry.api} casts its data to {DTYPES[entry.api]})", root)
    return NotFixed(f"`{source_text(context, arguments[0])}` may be a size or data: write mindspore.ops.zeros(({source_text(context, arguments[0])},), "
                    f"{dtype}) for a size or mindspore.Tensor(data, dtype={dtype}) for data")


def _sequence_data(context, entry, node, call: ast.Call | None, span, root) -> Fix | NotFixed | object:
    if call is None or not call.args or context.infer(call.args[0]) != DEQUE:
        return NotImplemented  # the table's rename and its argument adaptation
    if len(call.args) > 1 or call.keywords:
        return NotFixed("mindspore.tensor takes no collections.deque: give it list(...) of the deque")
    rename = context.factory.rename_fix(entry, span, root)
    if rename is None:
        return NotImplemented
    data = call.args[0]
    line, column, end_line, end_column = context.factory.span(data)
    return Fix(title=f"{rename.title} and give it `list({source_text(context, data)})` (mindspore.tensor takes no deque)",
               safe=False, edits=(*rename.edits, TextEdit(line, column, end_line, end_column, f"list({source_text(context, data)})")),
               add_imports=rename.add_imports, remove_imports=rename.remove_imports)


def _randint_uint8(context, entry, node, call: ast.Call | None, span, root) -> Fix | object:
    dtype = next((keyword.value for keyword in call.keywords if keyword.arg == "dtype"), None) if call is not None else None
    if dtype is None or entry.target != "mindspore.ops.randint" or context.qualified_name(dtype) not in ("torch.uint8", "mindspore.uint8"):
        return NotImplemented
    rename = context.factory.rename_fix(entry, span, root)
    if rename is None or len(call.args) != 3 or any(type(argument) is ast.Starred for argument in call.args) or len(call.keywords) > 1:  # type: ignore[union-attr]
        return NotImplemented
    line, column, end_line, end_column = context.factory.span(dtype)
    _, _, call_end_line, call_end_column = context.factory.span(call)
    return Fix(title=f"{rename.title}, drawn as int32 and cast to uint8 (mindspore.ops.randint refuses uint8)", safe=False,
               edits=(*rename.edits, TextEdit(line, column, end_line, end_column, "mindspore.int32"),
                      TextEdit(call_end_line, call_end_column, call_end_line, call_end_column, ".astype(mindspore.uint8)")),
               add_imports=("import mindspore", *rename.add_imports), remove_imports=rename.remove_imports)


BUILDERS = {(ROUTE_MINDSPORE, "torch.randint"): _randint_uint8, **{(ROUTE_MINDSPORE, api): _typed_constructor for api in DTYPES}, (ROUTE_MINDSPORE, "torch.tensor"): _sequence_data}
