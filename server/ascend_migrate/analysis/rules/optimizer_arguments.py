"""`torch.optim.SGD(params, momentum=0.9)` on the MindSpore route: torch's default learning rate written out.

mindspore.experimental.optim.SGD(params, lr, momentum=0, ...) takes lr with no default, where torch 2.13's SGD
defaults it to 0.001; the plain rename raised `SGD.__init__() missing 1 required positional argument: 'lr'`
(issue 17, finetune: the transfer-learning tutorial gives every parameter group its own lr and the optimizer none).
Of the optimizers both have (mindspore 2.10.0 experimental.optim and torch 2.13.0, signatures read), SGD is the one
whose lr defaults differ this way; the others keep torch's defaults.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.rules.call_rewrite import renamed_with_default
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

_TORCH_SGD_LR = "0.001"  # torch.optim.SGD.__init__(params, lr=0.001, ...) in torch 2.13.0


def _sgd_with_lr(context, entry, node, call, span, root):
    """A Fix, None (no fix), or NotImplemented (the plain rename: lr passed, or another target)."""
    if call is None or entry.target != "mindspore.experimental.optim.SGD":
        return NotImplemented  # another target: the plain rename
    if len(call.args) > 1 or any(keyword.arg in ("lr", None) for keyword in call.keywords) or any(
            type(argument) is ast.Starred for argument in call.args):
        return NotImplemented  # lr passed (or may be): the plain rename is right
    return renamed_with_default(context, entry, span, root, call, "lr", _TORCH_SGD_LR, "MindSpore's SGD has none")


BUILDERS = {(ROUTE_MINDSPORE, "torch.optim.SGD"): _sgd_with_lr}
