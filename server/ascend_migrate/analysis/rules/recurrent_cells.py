"""`nn.LSTMCell(...)`, `nn.GRUCell(...)`, `nn.RNNCell(...)` in a program that computes in float64, MindSpore route
(MS236): the call becomes a call of a cell the fix writes into the file (fixes/templates/recurrent_cells.py), since
mindspore 2.10's own cells refuse float64 input (time_sequence_prediction stopped at its first LSTMCell after
`seq.double()`).

Where a cell is built its dtype is not known (a model is cast after it is built, its input comes from elsewhere),
so the file says it: a `.double()` call, or `torch.float64`/`torch.double` named anywhere outside a comment. Such
a file gets the cell's `condition: float64-file` entry (mappings/structure.yaml) in place of the table's rename to
mindspore.nn's cell; the written cell computes float32 as torch does too, so a file that names float64 for
something else loses nothing but the library's cell. Reading the whole file makes the finding depend on later
lines: the chunk says so (RuleContext.read_later_lines), so an edit below it walks it again.
"""

from __future__ import annotations

import ast
import re

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.call_rewrite import written_class_name
from ascend_migrate.fixes.families.written_definition import WrittenDefinition
from ascend_migrate.kb.schema import Entry
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

FLOAT64_FILE = "float64-file"
TEMPLATE = "recurrent_cells"
CELLS = {"torch.nn.LSTMCell": "LSTMCell", "torch.nn.GRUCell": "GRUCell", "torch.nn.RNNCell": "RNNCell"}
_FLOAT64 = re.compile(r"\.double\(\s*\)|\btorch\.(?:float64|double)\b")


def computes_in_float64(lines: list[str]) -> bool:
    """Whether the file casts to or names torch's float64 on a line that is not a comment."""
    return any(("double" in line or "float64" in line) and not line.lstrip().startswith("#") and _FLOAT64.search(line)
               for line in lines)


def entries_for_cell(context, entries: list[Entry], call: ast.Call | None) -> list[Entry]:
    """The entries that speak for this reference of a cell class: the float64-file ones where the cell is built in
    a file that computes in float64, the others elsewhere."""
    if not any(entry.condition == FLOAT64_FILE for entry in entries):
        return entries  # the npu route, or an era without the written cell
    float64 = False
    if call is not None:
        context.read_later_lines()  # asked of the whole file, whatever the answer
        float64 = computes_in_float64(context.factory.lines.lines)
    return [entry for entry in entries if (entry.condition == FLOAT64_FILE) == float64]


def _written_cell(context, entry: Entry, node, call: ast.Call | None, span, root) -> Fix | None:
    if entry.condition != FLOAT64_FILE or call is None:
        return NotImplemented  # the table's rename to mindspore.nn's cell
    cell = CELLS[entry.api]
    name = written_class_name(context, cell)
    line, column, end_line, end_column = context.factory.span(call.func)
    return Fix(
        title=f"Replace with `{name}(...)`, a cell written into the file that computes float64 (mindspore.nn.{cell} "
              "takes float32 and float16 only)",
        safe=False,
        rewrite=WrittenDefinition((line, column, end_line, end_column), f"{TEMPLATE}:{cell}", name),
        add_imports=("import mindspore",),
        remove_imports=(root,) if root else (),
    )


BUILDERS = {(ROUTE_MINDSPORE, api): _written_cell for api in CELLS}
