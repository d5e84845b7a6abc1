"""`torch.optim.LBFGS(...)` on the MindSpore route (MS235): the call becomes a call of an L-BFGS the fix writes into
the program (fixes/templates/lbfgs.py, torch's algorithm without line search), since mindspore 2.10 has none for a
network's Parameters. Its `step(closure)` is rewritten by the training-step rule (analysis/rules/training_step.py).

A construction the written class does not cover keeps its finding, saying why: a line search
(`line_search_fn="strong_wolfe"`: torch's strong-Wolfe search with cubic interpolation is not written) or arguments
that cannot be read (`*args`, `**kwargs`).
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.structure_fixes import NotFixed
from ascend_migrate.fixes.families.written_definition import WrittenDefinition
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

TEMPLATE = "lbfgs"
# torch.optim.LBFGS's parameters (torch 2.13), which the written class takes with the same defaults.
_PARAMETERS = ("params", "lr", "max_iter", "max_eval", "tolerance_grad", "tolerance_change", "history_size", "line_search_fn")


def _written_lbfgs(context, entry, node, call: ast.Call | None, span, root) -> Fix | NotFixed | None:
    if call is None:
        return None  # the class named, not built (isinstance, a subclass): nothing to write
    if any(type(argument) is ast.Starred for argument in call.args) or any(keyword.arg is None for keyword in call.keywords):
        return NotFixed("its arguments are unpacked (*args/**kwargs), so whether it asks for a line search is not known")
    given = dict(zip(_PARAMETERS, call.args, strict=False))  # more positional arguments than torch takes: its TypeError
    given.update({str(keyword.arg): keyword.value for keyword in call.keywords})
    search = given.get("line_search_fn")
    if search is not None and not (type(search) is ast.Constant and search.value is None):
        return NotFixed(f"line_search_fn={ast.unparse(search)}: the L-BFGS this fix writes follows torch's without line "
                        "search, and torch's strong-Wolfe search (cubic interpolation, up to max_eval evaluations) is not "
                        "written; drop the line search to get it, or write that search")
    name = "LBFGS"
    while context.lookup(name) is not None:
        name = "Written" + name if not name.startswith("Written") else name + "_"
    line, column, end_line, end_column = context.factory.span(call.func)
    return Fix(
        title=f"Replace with `{name}(...)`, an L-BFGS written into the file (torch's algorithm without line search, for MindSpore tensors)",
        safe=False,
        rewrite=WrittenDefinition((line, column, end_line, end_column), TEMPLATE, name),
        add_imports=("import mindspore",),
        remove_imports=(root,) if root else (),
    )


BUILDERS = {(ROUTE_MINDSPORE, "torch.optim.LBFGS"): _written_lbfgs}
