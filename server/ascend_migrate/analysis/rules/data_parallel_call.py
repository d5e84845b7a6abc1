"""`nn.parallel.data_parallel(module, inputs, device_ids)` on the MindSpore route (MS208): the module called on the
inputs, `module(inputs)`.

torch's functional DataParallel replicates the module over `device_ids` for this one call, scatters the inputs along
`dim`, and gathers the outputs on `output_device`: on one device it is `module(*inputs)`. MindSpore has no per-call
data parallelism; it parallelises a whole program by context, one process per device (msrun,
`mindspore.communication.init()`, `mindspore.set_auto_parallel_context(parallel_mode=mindspore.ParallelMode.DATA_PARALLEL,
gradients_mean=True)`), and each process then calls the cell on its own shard of the batch, i.e. `module(inputs)`.
So the call is written that way, and the finding (structure.yaml) names the set-up that multi-device training needs.
dcgan calls it in `if (input.is_cuda or input.is_xpu) and self.ngpu > 1:`, whose test the device-flag fix turns into
"the process runs on a GPU": both branches then call the cell, as one process of a data-parallel program does.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.structure_fixes import NotFixed
from ascend_migrate.analysis.symbols import TENSOR
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

# torch.nn.parallel.data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None)
_PARAMETERS = ("module", "inputs", "device_ids", "output_device", "dim", "module_kwargs")


def _module_called(context, entry, node, call, span, root) -> Fix | NotFixed | None:
    if call is None or any(type(argument) is ast.Starred for argument in call.args) or len(call.args) > len(_PARAMETERS):
        return None
    passed = dict(zip(_PARAMETERS, call.args, strict=False))
    for keyword in call.keywords:
        if keyword.arg not in _PARAMETERS:
            return None  # **kwargs or an unknown keyword
        passed[keyword.arg] = keyword.value
    if "module" not in passed or "inputs" not in passed:
        return None
    if passed.get("module_kwargs") is not None and not _is_none(passed["module_kwargs"]):
        return NotFixed("the module's keyword arguments (module_kwargs) are passed by hand")
    module, inputs = passed["module"], passed["inputs"]
    if type(inputs) is ast.Tuple:
        arguments = ", ".join(ast.unparse(element) for element in inputs.elts)  # a tuple of inputs: one argument each
    elif context.infer(inputs) == TENSOR:
        arguments = ast.unparse(inputs)
    else:
        return NotFixed("its inputs may be a tuple (each one an argument of the module) or one tensor: "
                                 "which is not known here")
    new = f"{ast.unparse(module)}({arguments})"
    line, column, end_line, end_column = context.factory.span(call)
    return Fix(title=f"Replace with `{new}` (one device; several need MindSpore's data-parallel set-up, see the message)",
               safe=False, edits=(TextEdit(line, column, end_line, end_column, new),),
               remove_imports=(root,) if root else ())


def _is_none(node: ast.expr) -> bool:
    return type(node) is ast.Constant and node.value is None


BUILDERS = {(ROUTE_MINDSPORE, "torch.nn.parallel.data_parallel"): _module_called}
