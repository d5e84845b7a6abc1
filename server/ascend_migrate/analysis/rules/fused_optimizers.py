"""`torch.optim.AdamW(...)` → `torch_npu.optim.NpuFusedAdamW(...)` and the other fused optimizers (NPU301), npu
route: the call's arguments fitted to the fused optimizer's constructor.

torch_npu 2.14's fused optimizers take only the classic parameters (NpuFusedAdamW(params, lr, betas, eps,
weight_decay, amsgrad)); torch 2.x's take more by keyword (`fused`, `foreach`, `maximize`, `capturable`,
`differentiable`), and a rename that keeps one raises TypeError (a user's `AdamW(..., fused=torch.cuda.is_available())`
stopped there). `fused` and `foreach` choose how torch computes the step, not what it computes, and the NPU
optimizer is its own fused implementation: they are dropped. The others change the step when true: a literal False
(their default) is dropped, anything else keeps the finding without a fix, saying why; so does a positional
argument beyond the fused constructor's.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.structure_fixes import NotFixed
from ascend_migrate.fixes.families.call_arguments import CallArguments
from ascend_migrate.taxonomy import ROUTE_NPU

# The parameters after `params` of each fused optimizer's __init__, read in the torch_npu 2.14.0 wheel
# (torch_npu/optim/npu_fused_*.py); runtime/affine.py emulates the same (tests/runtime checks they agree).
FUSED_PARAMETERS = {
    "torch.optim.SGD": ("lr", "momentum", "dampening", "weight_decay", "nesterov"),
    "torch.optim.Adam": ("lr", "betas", "eps", "weight_decay", "amsgrad"),
    "torch.optim.AdamW": ("lr", "betas", "eps", "weight_decay", "amsgrad"),
    "torch.optim.Adadelta": ("lr", "rho", "eps", "weight_decay"),
    "torch.optim.RMSprop": ("lr", "alpha", "eps", "weight_decay", "momentum", "centered"),
}
_IMPLEMENTATION_SWITCHES = frozenset(("fused", "foreach"))
_OFF_BY_DEFAULT = frozenset(("maximize", "capturable", "differentiable"))


def _fused_optimizer(context, entry, node, call: ast.Call | None, span, root) -> Fix | NotFixed | None:
    fix = context.factory.rename_fix(entry, span, root)
    if fix is None or call is None:
        return fix
    accepted = FUSED_PARAMETERS[entry.api]
    if any(type(argument) is ast.Starred for argument in call.args) or any(keyword.arg is None for keyword in call.keywords):
        return NotFixed(f"its arguments are unpacked (*args/**kwargs), and {entry.target} takes only params, "
                        f"{', '.join(accepted)}")
    if len(call.args) > 1 + len(accepted):
        return NotFixed(f"it passes {len(call.args)} arguments by position, and {entry.target} takes params and "
                        f"{', '.join(accepted)}")
    drops = []
    for keyword in call.keywords:
        name = str(keyword.arg)
        if name in accepted or name == "params":
            continue
        switched_off = name in _OFF_BY_DEFAULT and type(keyword.value) is ast.Constant and keyword.value.value is False
        if name in _IMPLEMENTATION_SWITCHES or switched_off:
            drops.append(name)
            continue
        return NotFixed(f"{entry.target} has no {name} (torch_npu 2.14 takes params, {', '.join(accepted)}); "
                        f"{name}={ast.unparse(keyword.value)} would raise TypeError there")
    if not drops:
        return fix
    return Fix(title=fix.title + f" without {', '.join(f'{name}=' for name in drops)} (the fused optimizer has none)",
               safe=fix.safe, edits=fix.edits, rewrite=CallArguments(context.factory.span(call), drop_keywords=tuple(drops)),
               add_imports=fix.add_imports, remove_imports=fix.remove_imports)


BUILDERS = {(ROUTE_NPU, api): _fused_optimizer for api in FUSED_PARAMETERS}
