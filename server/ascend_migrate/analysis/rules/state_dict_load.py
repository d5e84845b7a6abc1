"""`model.load_state_dict(torch.load(path))` with a computed path, MindSpore route (MS206): the parameters loaded from a
MindSpore checkpoint, `mindspore.load_param_into_net(model, mindspore.load_checkpoint(path))`.

A literal path keeps the `load-checkpoint` fix (its name becomes the .ckpt `weights convert` writes). A computed path
(`opt.netG`, a command-line argument) names a file only known when the program runs. In a MindSpore program the only
file such a load can read is a MindSpore checkpoint: the ones this program's own saves write once `torch.save` became
`mindspore.save_checkpoint` (dcgan resumes from them), or a torch .pth converted first with `ascend-migrate weights
convert` (docs/weights.md); the finding says so. `load_state_dict` of a Cell is `load_param_into_net` in every era
(mindspore 2.10 also has Cell.load_state_dict; the function serves both). Only the plain shape is rewritten: the
load's `map_location`/`weights_only` are dropped (no counterpart), a `strict=` or anything else leaves the finding
without a fix. The fix rides on the `torch.load` finding the names rule made (its import goes once unused).
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import CALL, Example, Rule, RuleContext
from ascend_migrate.analysis.rules.cudnn_switches import imports_left_unused
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

_DROPPED = frozenset({"map_location", "weights_only"})  # torch.load keywords with no counterpart in load_checkpoint


def on_call(context: RuleContext, node: ast.Call) -> None:
    if context.route != ROUTE_MINDSPORE:
        return
    func = node.func
    if type(func) is not ast.Attribute or func.attr != "load_state_dict" or len(node.args) != 1 or node.keywords:
        return
    load = node.args[0]
    if type(load) is not ast.Call or context.qualified_name(load.func) != "torch.load":
        return
    if len(load.args) != 1 or type(load.args[0]) is ast.Starred or any(keyword.arg not in _DROPPED for keyword in load.keywords):
        return
    path = load.args[0]
    if type(path) is ast.Constant:
        return  # a literal path: the load-checkpoint fix names the converted checkpoint
    if not context.types.is_module(context.infer(func.value)):
        return  # not known to be a model: its load_state_dict may be an optimizer's or anything's
    factory = context.factory
    callee = factory.span(load.func)
    index = next((position for position, finding in enumerate(context.findings)
                  if finding.api == "torch.load" and (finding.line, finding.column, finding.end_line, finding.end_column) == callee), None)
    if index is None:
        return
    model = ast.unparse(func.value)
    new = f"mindspore.load_param_into_net({model}, mindspore.load_checkpoint({ast.unparse(path)}))"
    line, column, end_line, end_column = factory.span(node)
    fix = Fix(title=f"Replace with `{new}` (the path must name a MindSpore checkpoint: a .pth from torch is converted "
                    "first with `ascend-migrate weights convert`)",
              safe=False, edits=(TextEdit(line, column, end_line, end_column, new),), add_imports=("import mindspore",),
              remove_imports=imports_left_unused(context, load.func))
    finding = context.findings[index]
    message = (f"{finding.message} The path is computed: the fix loads it as a MindSpore checkpoint (the .ckpt this "
               "program's fixed saves write); a .pth saved by torch must be converted first with `ascend-migrate weights "
               "convert` (docs/weights.md). load_param_into_net returns the names it did not load instead of raising.")
    context.findings[index] = dataclasses.replace(finding, fix=fix, message=message)


_FLAGS = (
    Example("mindspore", """
        import torch
        from torch import nn


        class Net(nn.Module):  # expect: MS201
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)


        def resume(path):
            net = Net()
            net.load_state_dict(torch.load(path, map_location="cpu"))  # expect: MS206
            return net
        """, codes=("MS206",)),
)

RULE = Rule(name="state_dict_load", routes=frozenset({ROUTE_MINDSPORE}), hooks={CALL: on_call}, flags=_FLAGS)
