"""`x.is_cuda` / `x.is_xpu` on the MindSpore route (MS205): a MindSpore tensor carries no device flag (mindspore 2.10:
AttributeError); every tensor lives on the process's one device.

So "is this tensor on a CUDA device" is "does the process run on a GPU": `mindspore.get_context("device_target") ==
"GPU"` (in 2.4 and 2.10; checked on CPU in 2.10.0: "CPU"). MindSpore has no XPU target (Ascend, GPU, CPU), so
`x.is_xpu` is False. dcgan's `if (input.is_cuda or input.is_xpu) and self.ngpu > 1:` then takes the branch torch
takes on the same machine.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

_ON_GPU = '(mindspore.get_context("device_target") == "GPU")'
_ANSWERS = {"is_cuda": _ON_GPU, "is_xpu": "False"}


def _device_flag(context, entry, node: ast.Attribute, call, span) -> Fix | None:
    if call is not None or node.attr not in _ANSWERS or type(node.ctx) is not ast.Load:
        return None  # `x.is_cuda()` is not torch's flag; an assignment to it is not a test
    line, column, end_line, end_column = context.factory.span(node)
    answer = _ANSWERS[node.attr]
    return Fix(title=f"Replace `.{node.attr}` with `{answer}` (the process's device)", safe=False,
               edits=(TextEdit(line, column, end_line, end_column, answer),),
               add_imports=("import mindspore",) if "mindspore" in answer else ())


METHOD_BUILDERS = {(ROUTE_MINDSPORE, f"torch.Tensor.{name}"): _device_flag for name in _ANSWERS}
