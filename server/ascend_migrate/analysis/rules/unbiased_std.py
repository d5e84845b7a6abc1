"""`x.std()` on the MindSpore route: `x.std(ddof=1)`. torch's std with no arguments is the unbiased estimator,
mindspore.Tensor.std's the biased one (ddof=0; the knowledge base's correction, run side by side in torch 2.13.0 and
mindspore 2.10.0). REINFORCE normalises its returns with `(returns - returns.mean()) / (returns.std() + eps)`: left as
written, every step's scale differs from torch's by sqrt(n / (n - 1)). Other forms (`x.std(dim)`, `unbiased=`) keep
the table's argument adaptation.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.call_rewrite import source_text
from ascend_migrate.taxonomy import ROUTE_MINDSPORE


def _unbiased(context, entry, node: ast.Attribute, call: ast.Call | None, span) -> Fix | object:
    if call is None or call.func is not node or call.args or call.keywords or entry.target != "mindspore.Tensor.std":
        return NotImplemented
    new = f"{source_text(context, node.value)}.std(ddof=1)"
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(title=f"Replace with `{new}` (torch's std() is unbiased, mindspore's biased)", safe=False,
               edits=(TextEdit(line, column, end_line, end_column, new),))


METHOD_BUILDERS = {(ROUTE_MINDSPORE, "torch.Tensor.std"): _unbiased}
