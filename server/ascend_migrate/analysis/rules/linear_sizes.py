"""`fc.in_features` / `fc.out_features` of a torch.nn.Linear on the MindSpore route, ops/nn era (MS247).

mindspore.nn.Dense (what the ops/nn era makes of nn.Linear) keeps its sizes as `in_channels` and `out_channels`, and
reading `in_features` raises AttributeError (mindspore 2.10.0: `The 'Dense' object has no attribute 'in_features'`;
the transfer-learning tutorial's `num_ftrs = model.fc.in_features`, issue 17, finetune). mint.nn.Linear (the mint
era) keeps torch's names, so the entry is for MindSpore before 2.5 only. The layer is known when the receiver's type
is inferred (`fc.in_features` with fc = nn.Linear(...)) or it is an attribute a class of this file sets to one in
its methods (`model.fc.in_features` with model = Net()).
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.rules.api import ATTRIBUTE, Example, Matcher, Rule, RuleContext

PATTERN = "linear-size-attribute"
_RENAMED = {"in_features": "in_channels", "out_features": "out_channels"}
_LINEAR = "torch.nn.Linear"


def on_attribute(context: RuleContext, node: ast.Attribute, receiver_type: str | None, call: ast.Call | None,
                 intermediate: str = "") -> None:
    renamed = _RENAMED.get(node.attr)
    if renamed is None or call is not None or not _is_linear(context, node.value, receiver_type):
        return
    factory = context.factory
    span = factory.attribute_name_span(node)
    for entry in context.view.patterns.get(PATTERN, ()):
        fix = factory.text_fix(entry, span, renamed, f"Replace `.{node.attr}` with `.{renamed}` (mindspore.nn.Dense)")
        context.add(factory.finding(entry, span, "inferred", api=entry.api, fix=fix))


def _is_linear(context: RuleContext, receiver: ast.expr, receiver_type: str | None) -> bool:
    if receiver_type == _LINEAR:
        return True
    if type(receiver) is not ast.Attribute or type(receiver.value) is not ast.Name:
        return False
    owner = context.infer(receiver.value)
    if owner is None or not owner.startswith("local:"):
        return False
    info = context.types.classes.get(owner.removeprefix("local:"))
    return info is not None and info.attributes.get(receiver.attr) == _LINEAR


_SIZES = """
    from torch import nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 10)


    model = Net()
    features = model.fc.in_features{comment}
    """
_FLAGS = (Example("mindspore", _SIZES.format(comment="  # expect: MS247"), codes=("MS247",), mindspore_version="2.4"),)
_LEAVES_ALONE = (Example("mindspore", _SIZES.format(comment="  # mint.nn.Linear keeps the name"), codes=("MS247",)),)

RULE = Rule(name="linear_sizes", matchers={PATTERN: Matcher(ATTRIBUTE, on_attribute)}, flags=_FLAGS, leaves_alone=_LEAVES_ALONE)
