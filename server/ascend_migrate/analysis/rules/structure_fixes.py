"""Fixes that are more than a rename, for names whose replacement changes the call's shape.

Keyed by (route, api). Each builder returns a `Fix`, or None when this call's shape does not allow one
(the finding is still reported). The KB entry decides whether a fix is offered at all (`fix: none`) and
whether it is safe; these builders only say how.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import Fix
from ascend_migrate.analysis.symbols import OPTIMIZER
from ascend_migrate.fixes.families.clip_grad_fused import ClipGradFused
from ascend_migrate.fixes.families.load_checkpoint import LoadCheckpoint, converted_path
from ascend_migrate.fixes.families.save_checkpoint import SaveCheckpoint
from ascend_migrate.taxonomy import ROUTE_MINDSPORE, ROUTE_NPU


def _data_parallel(context, entry, node, call, span, root) -> Fix | None:
    """DataParallel gets no fix, whatever the entry says: DistributedDataParallel needs a process group, one process
    per NPU and a DistributedSampler, which `ascend-migrate migrate --distributed --main FILE --model VAR` writes
    (projects/distributed.py; issue 17: a bare rename to DistributedDataParallel did not run)."""
    return None


def _save_checkpoint(context, entry, node, call, span, root) -> Fix | None:
    """torch.save(model.state_dict(), path) → mindspore.save_checkpoint(model, path)."""
    if call is None or len(call.args) != 2 or call.keywords:
        return None
    first = call.args[0]
    if not (type(first) is ast.Call and type(first.func) is ast.Attribute and first.func.attr == "state_dict"
            and not first.args and not first.keywords):
        return None
    return Fix(
        title="Replace with `mindspore.save_checkpoint(model, path)`",
        safe=False,
        rewrite=SaveCheckpoint(context.factory.span(call), callee="mindspore.save_checkpoint"),
        add_imports=("import mindspore",),
        remove_imports=(root,) if root else (),
    )


def _load_checkpoint(context, entry, node, call, span, root) -> Fix | None:
    """torch.load("model.pth", ...) → mindspore.load_checkpoint("model.ckpt"): the file `weights convert` writes.
    A computed path gets no fix: load_checkpoint cannot read the .pth it may name."""
    if call is None:
        return None
    first = call.args[0] if call.args else next((keyword.value for keyword in call.keywords if keyword.arg == "f"), None)
    if not (type(first) is ast.Constant and isinstance(first.value, str)) or any(type(arg) is ast.Starred for arg in call.args):
        return None
    path = converted_path(first.value)
    if path is None:
        return None
    return Fix(
        title=f"Replace with `mindspore.load_checkpoint({path!r})` (convert first: ascend-migrate weights convert)",
        safe=False,
        rewrite=LoadCheckpoint(context.factory.span(call), path),
        add_imports=("import mindspore",),
        remove_imports=(root,) if root else (),
    )


def _clip_grad_fused(context, entry, node, call, span, root) -> Fix | None:
    """clip_grad_norm_(model.parameters(), max_norm) → optimizer.clip_grad_norm_fused_(max_norm)."""
    if call is None:
        return None
    optimizers = context.names_of_type(OPTIMIZER)
    if len(optimizers) != 1:
        return None  # which optimizer steps these parameters is not clear from this function
    return Fix(
        title=f"Replace with `{optimizers[0]}.clip_grad_norm_fused_(...)` (needs a torch_npu.optim.NpuFused* optimizer)",
        safe=False,
        rewrite=ClipGradFused(context.factory.span(call), optimizers[0]),
        remove_imports=(root,) if root else (),
    )


BUILDERS = {
    (ROUTE_NPU, "torch.nn.DataParallel"): _data_parallel,
    (ROUTE_MINDSPORE, "torch.save"): _save_checkpoint,
    (ROUTE_MINDSPORE, "torch.load"): _load_checkpoint,
    (ROUTE_NPU, "torch.nn.utils.clip_grad_norm_"): _clip_grad_fused,
}
