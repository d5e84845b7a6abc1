"""`torch.full(size, 2.5)` → `mindspore.ops.full(size, 2.5, dtype=mindspore.float32)` on the ops/nn-era route.

mindspore 2.10.0's ops.full without dtype gives Int64 for any Python number and truncates a float fill
(`ops.full((2,), 2.5)` is [2, 2], run on the CPU), where torch.full gives float32 for a float fill, int64 for an int
and bool for a bool. Where the fill is a float or bool literal and no dtype is passed, the rename writes the dtype torch
gives (float32: torch's default dtype; a file that calls set_default_dtype keeps the plain rename, since its floats may
be float64). An int fill needs nothing (Int64 both); a fill held in a variable is not known and keeps the entry's note.
tests/execution/test_fill_dtype.py runs what this writes beside torch.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

TARGET = "mindspore.ops.full"


def _literal_dtype(fill: ast.expr) -> str | None:
    """The MindSpore dtype torch.full gives a literal fill: float32 for 2.5 or -1.0, bool_ for True; None otherwise."""
    if isinstance(fill, ast.UnaryOp) and isinstance(fill.op, (ast.USub, ast.UAdd)):
        fill = fill.operand
    if not isinstance(fill, ast.Constant):
        return None
    if type(fill.value) is float:
        return "mindspore.float32"
    return "mindspore.bool_" if type(fill.value) is bool else None


def _sets_default_dtype(lines: list[str]) -> bool:
    return any("set_default_dtype" in line and not line.lstrip().startswith("#") for line in lines)


def with_fill_dtype(context, entry, call: ast.Call | None, fix: Fix | None) -> Fix | None:
    """`fix` (the rename of torch.full to ops.full) with torch's dtype for a literal fill passed, when none is."""
    if fix is None or call is None or context.route != ROUTE_MINDSPORE or entry.target != TARGET:
        return fix
    keywords = {keyword.arg: keyword.value for keyword in call.keywords}
    if "dtype" in keywords or None in keywords or any(type(argument) is ast.Starred for argument in call.args):
        return fix  # a dtype given, or arguments unpacked: nothing known to add
    fill = call.args[1] if len(call.args) >= 2 else keywords.get("fill_value")
    dtype = _literal_dtype(fill) if fill is not None else None
    if dtype is None:
        return fix
    context.read_earlier_lines(1)  # whether the file sets the default dtype: asked of the whole file
    context.read_later_lines()
    if _sets_default_dtype(context.factory.lines.lines):
        return fix
    last = call.keywords[-1].value if call.keywords else call.args[-1]
    _, _, end_line, end_column = context.factory.span(last)
    added = TextEdit(end_line, end_column, end_line, end_column, f", dtype={dtype}")
    return dataclasses.replace(fix, title=f"{fix.title} with dtype={dtype} (torch's dtype for this fill)",
                               edits=fix.edits + (added,), add_imports=tuple(dict.fromkeys((*fix.add_imports, "import mindspore"))))
