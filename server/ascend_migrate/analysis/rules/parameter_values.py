"""A layer parameter's value on the MindSpore route: reading `.data`, and filling it in place (MS246).

Reading `x.data` needs no change: mindspore.Tensor.data (and Parameter.data) is the tensor itself in mindspore
2.10.0. The entry's target (Parameter.set_data) is for an assignment, `p.data = v` → `p.set_data(v)`; renamed on
a read it wrote `outputs.set_data` (a bound method where a tensor was meant: `torch.max(outputs.data, 1)` broke,
issue 17, amp_cifar) and `p.set_data.uniform_(...)`. So a read keeps its `.data` and the finding says why.

`self.fc.weight.data.uniform_(-r, r)` (also without `.data`; normal_, zero_, fill_) as a statement, the usual
init_weights of text and language models (MS246): mindspore 2.10's CPU build has no kernel for the in-place fills
(InplaceUniform, InplaceNormal, InplaceFillScalar, and zero_'s), so the parameter gets a new value of its shape and
dtype, `p.set_data(initializer(Uniform(r), p.shape, p.dtype))`, as MS224 writes in a class-name branch. Only a
parameter of a torch.nn layer this era maps to a MindSpore layer or that the fix writes into the file (nn.EmbeddingBag,
MS237, whose parameter is `weight` too; a layer left as torch's keeps torch's fills), and only under a name both
have: an ops/nn-era layer that names it otherwise (an Embedding's weight is its embedding_table) keeps the finding
without a fix.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import CALL, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.rules.call_rewrite import source_text
from ascend_migrate.analysis.rules.class_name_dispatch import fill_initializer
from ascend_migrate.analysis.rules.embedding_bag import WRITTEN_LAYERS
from ascend_migrate.analysis.rules.structure_fixes import NotFixed
from ascend_migrate.kb.layer_parameter_names import NN_ERA_RENAMES
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

PATTERN = "parameter-inplace-fill"
_FILLS = frozenset({"uniform_", "normal_", "zero_", "fill_"})
_INITIALIZER = "mindspore.common.initializer."


def _data(context, entry, node: ast.Attribute, call, span) -> Fix | NotFixed | None:
    if type(node.ctx) is ast.Store:
        return NotFixed("an assignment to .data becomes p.set_data(value) on a Parameter")
    return NotFixed("reading x.data needs no change: mindspore.Tensor.data is the tensor itself "
                    "(torch's .data also detaches it: inside a differentiated function use mindspore.ops.stop_gradient(x))")


METHOD_BUILDERS = {(ROUTE_MINDSPORE, "torch.Tensor.data"): _data}
# `p.data.uniform_(-r, r)`, `w.data.clamp_(min=0)`, `p.data.copy_(v)`: `.data` only carries an in-place method past
# autograd, which MindSpore does not record outside mindspore.grad anyway; in mindspore 2.10.0 `p.data.copy_(v)` writes
# p (run on the CPU). What differs is the in-place method, reported under its own entry (MS246 for a layer's fills,
# `torch.Tensor.mul_`), so `.data` there is no finding; a plain read (`torch.max(outputs.data, 1)`) still is.
READ_THROUGH = frozenset({"torch.Tensor.data"})


def on_call(context: RuleContext, node: ast.Call) -> None:
    func = node.func
    if type(func) is not ast.Attribute or func.attr not in _FILLS:
        return
    parameter = func.value.value if type(func.value) is ast.Attribute and func.value.attr == "data" else func.value
    if type(parameter) is not ast.Attribute or parameter.attr not in ("weight", "bias"):
        return
    layer = context.infer(parameter.value)
    if layer is None or not layer.startswith("torch.nn.") or not context.types.is_module(layer):
        return
    entries, _ = context.view.name_entries(layer)
    targets = [entry.target for entry in entries or () if entry.target] or \
        ([WRITTEN_LAYERS[layer]] if layer in WRITTEN_LAYERS and context.route == ROUTE_MINDSPORE else [])
    if not targets:
        return  # a layer left as torch's keeps torch's in-place fills
    factory = context.factory
    span = factory.span(node)
    fix = _fill_fix(context, node, parameter, layer, targets[0])
    for entry in context.view.patterns.get(PATTERN, ()):
        finding = factory.finding(entry, span, "inferred", api=entry.api, fix=fix if isinstance(fix, Fix) and entry.fix != "none" else None)
        if finding is not None and isinstance(fix, str):
            finding = dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {fix}.")
        context.add(finding)


def _fill_fix(context: RuleContext, call: ast.Call, parameter: ast.Attribute, layer: str, target: str) -> Fix | str:
    factory = context.factory
    line, column, end_line, end_column = factory.span(call)
    text = factory.lines.text(line)
    if line != end_line or text.split("#")[0].strip() != text[column - 1:end_column - 1]:
        return "the fill's result is used as a value, not a statement of its own"
    initializer = fill_initializer(call)
    if initializer is None:
        return "only normal_(mean, std), uniform_(-r, r), fill_(v) and zero_() have a MindSpore initializer written for them"
    renamed = NN_ERA_RENAMES.get(layer.rsplit(".", 1)[-1], {}).get(parameter.attr)
    if renamed is not None and target.startswith("mindspore.nn."):
        return f"the ops/nn-era layer names this parameter {renamed}"
    weight = source_text(context, parameter)
    new = f"{weight}.set_data({_INITIALIZER}initializer({_INITIALIZER}{initializer}, {weight}.shape, {weight}.dtype))"
    return Fix(title=f"Replace with `{weight}.set_data(initializer({initializer}, ...))` (no CPU kernel for the in-place fill)",
               safe=False, edits=(TextEdit(line, column, end_line, end_column, new),), add_imports=("import mindspore",))


_FLAGS = (
    Example("mindspore", """
        from torch import nn


        class Classifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(32, 4)
                initrange = 0.5
                self.fc.weight.data.uniform_(-initrange, initrange)  # expect: MS246
                self.fc.bias.data.zero_()  # expect: MS246
        """, codes=("MS246",)),
)
_LEAVES_ALONE = (
    Example("mindspore", """
        import torch


        def noise(shape):
            values = torch.empty(shape)
            values.uniform_(-1, 1)  # a tensor of its own, not a layer's parameter
            return values
        """, codes=("MS246",)),
)

RULE = Rule(name="parameter_values", matchers={PATTERN: Matcher(CALL, on_call, called=_FILLS)}, flags=_FLAGS,
            leaves_alone=_LEAVES_ALONE)
