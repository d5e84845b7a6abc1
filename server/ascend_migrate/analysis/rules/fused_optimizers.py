"""`torch.optim.AdamW(...)` → `torch_npu.optim.NpuFusedAdamW(...)` and the other fused optimizers (NPU301), npu
route: the call's arguments fitted to the fused optimizer's constructor.

torch_npu 2.14's fused optimizers take only the classic parameters (NpuFusedAdamW(params, lr, betas, eps,
weight_decay, amsgrad)); torch 2.x's take more by keyword (`fused`, `foreach`, `maximize`, `capturable`,
`differentiable`), and a rename that keeps one raises TypeError (a user's `AdamW(..., fused=torch.cuda.is_available())`
stopped there). `fused` and `foreach` choose how torch computes the step, not what it computes, and the NPU
optimizer is its own fused implementation: they are dropped. The others change the step when true: a literal False
(their default) is dropped, anything else keeps the finding without a fix, saying why; so does a positional
argument beyond the fused constructor's.

Once the optimizer is a fused one, `torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm[, norm_type])`
becomes `optimizer.clip_grad_norm_fused_(max_norm[, norm_type])` (the Ascend guide's affinity row: torch_npu's
NpuFusedOptimizerBase clips its combined gradients in one kernel and returns the total norm, as torch's does). Only
when the one optimizer of the function (else the module) is known to be a `torch_npu.optim.NpuFused*`: after
the rename above, `fix` analyses the file again and the clipping call is rewritten then; with a torch optimizer,
an optimizer of unknown type (a parameter) or two optimizers, the finding stays advice and says which of these
it is. The method clips every parameter the optimizer holds, so the fix is unsafe (reviewed): it is right when the
optimizer was built over the same `model.parameters()`.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.rules.structure_fixes import NotFixed
from ascend_migrate.analysis.symbols import OPTIMIZER
from ascend_migrate.fixes.families.call_arguments import CallArguments
from ascend_migrate.fixes.families.clip_grad_fused import FUSED_METHOD, ClipGradFused
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


_FUSED_PREFIX = "torch_npu.optim.NpuFused"
_CLIP_PARAMETERS = ("parameters", "max_norm", "norm_type")  # what the fused method keeps (max_norm, norm_type)


def _clip_grad_fused(context, entry, node, call: ast.Call | None, span, root) -> Fix | NotFixed | None:
    """clip_grad_norm_(model.parameters(), max_norm[, norm_type]) → optimizer.clip_grad_norm_fused_(max_norm[, norm_type])
    when the one optimizer in scope is a torch_npu fused optimizer; else why not."""
    if call is None:
        return None
    optimizers = context.names_of_type(OPTIMIZER)
    if len(optimizers) > 1:
        return NotFixed(f"{', '.join(f'`{name}`' for name in optimizers)} are optimizers here, and {FUSED_METHOD} "
                        "clips the parameters of the one it is called on: call it on the NpuFused* optimizer of these parameters")
    kind = context.infer(ast.Name(id=optimizers[0], ctx=ast.Load())) if optimizers else None
    if kind is None or not kind.startswith(_FUSED_PREFIX):
        what = f"`{optimizers[0]}` is a {kind}" if optimizers else "no optimizer of known type is in scope"
        return NotFixed(f"{what}, and {FUSED_METHOD} is a method of torch_npu.optim.NpuFused* optimizers only (rename "
                        "the optimizer first: NPU301; then `fix` rewrites this call)")
    if any(type(argument) is ast.Starred for argument in call.args) or len(call.args) > len(_CLIP_PARAMETERS) or any(
            keyword.arg not in _CLIP_PARAMETERS for keyword in call.keywords):
        return NotFixed(f"{FUSED_METHOD} takes only max_norm and norm_type (torch_npu 2.14), and this call passes more "
                        "or unpacks its arguments")
    parameters = call.args[0] if call.args else next((keyword.value for keyword in call.keywords if keyword.arg == "parameters"), None)
    if not (type(parameters) is ast.Call and type(parameters.func) is ast.Attribute and parameters.func.attr == "parameters"
            and not parameters.args and not parameters.keywords):
        return NotFixed(f"{FUSED_METHOD} clips every parameter of `{optimizers[0]}`, and this call clips "
                        f"`{ast.unparse(parameters) if parameters is not None else '?'}`, not a model's parameters()")
    return Fix(
        title=f"Replace with `{optimizers[0]}.{FUSED_METHOD}(...)` (the fused optimizer clips the gradients of the parameters "
              "it holds: those of the model it was built over)",
        safe=False,
        rewrite=ClipGradFused(context.factory.span(call), optimizers[0]),
        remove_imports=(root,) if root else (),
    )


BUILDERS = {(ROUTE_NPU, api): _fused_optimizer for api in FUSED_PARAMETERS}
BUILDERS[(ROUTE_NPU, "torch.nn.utils.clip_grad_norm_")] = _clip_grad_fused
