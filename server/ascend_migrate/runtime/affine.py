"""The NPU-affine torch_npu names the npu fixes write (torch_npu.optim, torch_npu.contrib, fast_gelu), on the CPU.

Each behaves as the CPU torch operation it replaces (child side, imports torch): the fused optimizers are torch's
optimizers with torch_npu's `clip_grad_norm_fused_`, the Fast* norms are torch's BatchNorm, DropoutWithByteMask is
dropout (refusing inplace as torch_npu 2.14's npu_functional.py does). Numerics of the fused NPU kernels are not
reproduced. Every name here is defined by the torch_npu 2.14.0 wheel (tests/runtime/test_surface.py reads it).
"""

from __future__ import annotations

import types

import torch
from torch.optim.optimizer import required


class _Fused:
    """torch_npu's NpuFusedOptimizerBase.clip_grad_norm_fused_: clip the gradients of every group by their total norm."""

    param_groups: list[dict]  # the optimizer's (the class is mixed into torch's optimizers)

    def clip_grad_norm_fused_(self, max_norm, norm_type=2):
        parameters = [parameter for group in self.param_groups for parameter in group["params"] if parameter.grad is not None]
        return torch.nn.utils.clip_grad_norm_(parameters, max_norm, norm_type)


class NpuFusedSGD(_Fused, torch.optim.SGD):
    # the parameter lists are torch_npu 2.14's (no `fused`, `foreach`, `maximize`): code that inspects them sees the NPU's
    def __init__(self, params, lr=required, momentum=0, dampening=0, weight_decay=0, nesterov=False):
        super().__init__(params, lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay, nesterov=nesterov)


class NpuFusedAdam(_Fused, torch.optim.Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False):
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad)


class NpuFusedAdamW(_Fused, torch.optim.AdamW):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False):
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad)


class NpuFusedAdadelta(_Fused, torch.optim.Adadelta):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0):
        super().__init__(params, lr=lr, rho=rho, eps=eps, weight_decay=weight_decay)


class NpuFusedRMSprop(_Fused, torch.optim.RMSprop):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False):
        super().__init__(params, lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum, centered=centered)


# The fused optimizers with a torch counterpart; NpuFusedLamb/AdamP/BertAdam/RMSpropTF have none in torch and are
# not emulated (a program that uses one fails with AttributeError, reported as its failure).
FUSED_OPTIMIZERS = (NpuFusedSGD, NpuFusedAdam, NpuFusedAdamW, NpuFusedAdadelta, NpuFusedRMSprop)


def dropout_with_byte_mask(input1, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if inplace:  # torch_npu 2.14 npu_functional.py refuses it the same way
        raise ValueError("dropout probability has no-inplace computing.")
    return torch.nn.functional.dropout(input1, p, training)


class DropoutWithByteMask(torch.nn.Module):
    def __init__(self, p=0.5, inplace=False, max_seed=2**10 - 1) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input1):
        return dropout_with_byte_mask(input1, self.p, self.training, self.inplace)


class SiLU(torch.nn.SiLU):
    def __init__(self) -> None:
        super().__init__()


def fast_gelu(input1):
    """torch_npu.fast_gelu: a GELU approximation; the CPU computes torch's tanh approximation (numerics differ)."""
    return torch.nn.functional.gelu(input1, approximate="tanh")


def roll(input1, shifts, dims):
    return torch.roll(input1, shifts, dims)


def modules() -> dict[str, types.ModuleType]:
    """torch_npu.optim, torch_npu.contrib.module and torch_npu.contrib.function of the emulation, by dotted name."""
    optim = types.ModuleType("torch_npu.optim", "torch_npu.optim of the emulation: torch's optimizers on the CPU.")
    for optimizer in FUSED_OPTIMIZERS:
        setattr(optim, optimizer.__name__, optimizer)
    module = types.ModuleType("torch_npu.contrib.module")
    module.__dict__.update(FastBatchNorm1d=torch.nn.BatchNorm1d, FastBatchNorm2d=torch.nn.BatchNorm2d,
                           FastBatchNorm3d=torch.nn.BatchNorm3d, FastSyncBatchNorm=torch.nn.SyncBatchNorm,
                           DropoutWithByteMask=DropoutWithByteMask, SiLU=SiLU)
    function = types.ModuleType("torch_npu.contrib.function")
    function.__dict__.update(dropout_with_byte_mask=dropout_with_byte_mask, roll=roll)
    return {"torch_npu.optim": optim, "torch_npu.contrib.module": module, "torch_npu.contrib.function": function}


def install(torch_npu: types.ModuleType) -> None:
    """torch_npu.optim and torch_npu.contrib.{module,function} as `import torch_npu` makes them available (its start-up
    imports torch_npu.optim, and torch_npu.contrib through its monkey patches)."""
    import importlib
    import sys

    made = modules()
    sys.modules.update(made)
    contrib = importlib.import_module("torch_npu.contrib")  # the emulated package directory
    module, function = made["torch_npu.contrib.module"], made["torch_npu.contrib.function"]
    public = {name: value for name, value in {**vars(module), **vars(function)}.items() if not name.startswith("_")}
    contrib.__dict__.update(module=module, function=function, **public)  # torch_npu.contrib re-exports both
    torch_npu.__dict__.update(optim=made["torch_npu.optim"], contrib=contrib, fast_gelu=fast_gelu, npu_fast_gelu=fast_gelu)
