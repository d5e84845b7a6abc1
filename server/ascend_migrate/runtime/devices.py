"""Which device each tensor would be on (child side, imports torch): every tensor of the emulation is on the CPU, so
the watch tags the tensors the program puts on the NPU and the ones it makes on the CPU, carries the tags through
each torch call, and names a user's call that mixes them, which fails on Ascend."""

from __future__ import annotations

import torch

NPU, CPU = "npu", "cpu"
TAG = "_ascend_migrate_device"  # a tensor's device as the program meant it; absent: not known (never reported)

# Calls that take tensors of two devices on real hardware too: copies and moves, indexing with CPU indices, shapes.
_MIXING_ALLOWED = frozenset((
    "torch.Tensor.to", "torch.Tensor.copy_", "torch.Tensor.type_as", "torch.Tensor.__getitem__",
    "torch.Tensor.__setitem__", "torch.Tensor.index_put_", "torch.Tensor.data.__set__", "torch.Tensor.grad.__set__",
    "torch.Tensor.set_", "torch.Tensor.view_as", "torch.Tensor.expand_as", "torch.Tensor.reshape_as",
    "torch.Tensor.new_tensor", "torch.Tensor.new_zeros", "torch.Tensor.new_ones", "torch.Tensor.new_empty",
    "torch.Tensor.new_full", "torch.Tensor.__format__", "torch.Tensor.__repr__", "torch.utils.swap_tensors",
))
# Comparisons: with a 0-d CPU tensor against an NPU tensor, torch_npu crashes (unsupported_or_caveats.csv row 11).
_COMPARISONS = frozenset(f"torch.{owner}{name}" for owner in ("", "Tensor.") for name in (
    "eq", "ne", "lt", "le", "gt", "ge", "equal", "greater", "greater_equal", "less", "less_equal", "not_equal")) | frozenset(
    f"torch.Tensor.__{name}__" for name in ("eq", "ne", "lt", "le", "gt", "ge"))


def device_of(value) -> str | None:
    return getattr(value, TAG, None) if isinstance(value, torch.Tensor) else None


def _tensors(args, kwargs):
    for value in (*args, *kwargs.values()):
        if isinstance(value, torch.Tensor):
            yield value
        elif isinstance(value, (tuple, list)) and value and isinstance(value[0], torch.Tensor):
            yield from (item for item in value if isinstance(item, torch.Tensor))


def requested(value, npu_types: tuple[str, ...]) -> str | None:
    """The device a device argument names: NPU, CPU, or None for anything else (a dtype, another tensor)."""
    if isinstance(value, torch.device):
        value = value.type
    if isinstance(value, str):
        kind = value.partition(":")[0]
        return NPU if kind in npu_types else CPU if kind == CPU else None
    return None


def placed(name: str, args, kwargs, result, device: str | None):
    """The call's result with its tensors tagged: on `device` when the call named one (a tensor already elsewhere
    comes back as a new object, as a move makes a copy on real hardware), else on the NPU when an input is, else on
    the CPU when an input is or the call took no tensor at all (a factory), else left unknown."""
    if name == "torch.Tensor.data.__set__" and len(args) > 1:  # Module.to(npu) moves parameters by their data
        _tag(args[0], device_of(args[1]))
        return result
    if device is None:
        inputs = list(_tensors(args, kwargs))
        devices = {getattr(tensor, TAG, None) for tensor in inputs}
        device = NPU if NPU in devices else CPU if CPU in devices or not inputs else None
        if device is None:
            return result
    elif isinstance(result, torch.Tensor) and args and result is args[0] and _moves(device_of(result), device):
        result = result.clone()  # `x.to("npu")` of a CPU tensor returns it unchanged on the CPU: a copy, as a move makes
    if isinstance(result, torch.Tensor):
        _tag(result, device)
    elif isinstance(result, (tuple, list)):
        for item in result:
            if isinstance(item, torch.Tensor):
                _tag(item, device)
    return result


def _moves(current: str | None, device: str) -> bool:
    """A move between the devices (a copy on real hardware), not a CPU tensor of unknown origin named on the CPU
    (torch's own `.to("cpu")` calls keep their tensor, which they may compare by identity)."""
    return current != device and (device == NPU or current == NPU)


def moved(tensor, device: str):
    """`tensor` on `device`: itself when it is there, else a copy tagged so (the emulated `Tensor.npu()`)."""
    if not _moves(device_of(tensor), device):
        _tag(tensor, device)
        return tensor
    copy = tensor.clone()
    _tag(copy, device)
    return copy


def channels_last(tensor) -> str | None:
    """`channels_last` (or `channels_last_3d`) when the tensor is laid out so and not also contiguous, else None."""
    if tensor.dim() == 4 and not tensor.is_contiguous() and tensor.is_contiguous(memory_format=torch.channels_last):
        return "channels_last"
    if tensor.dim() == 5 and not tensor.is_contiguous() and tensor.is_contiguous(memory_format=torch.channels_last_3d):
        return "channels_last_3d"
    return None


def _tag(tensor, device: str | None) -> None:
    if device is not None:
        try:
            setattr(tensor, TAG, device)
        except (AttributeError, TypeError):
            pass  # a tensor subclass with slots: its device stays unknown


def mixed(name: str, args, kwargs) -> tuple[str, str] | None:
    """(knowledge-base pattern, what was seen) when a user's call gets NPU and CPU tensors: a CPU tensor with
    dimensions fails on Ascend (as on any accelerator); a 0-d CPU tensor combines with NPU tensors, but a comparison
    with one crashes torch_npu. None when the call is fine."""
    if name in _MIXING_ALLOWED:
        return None
    npu = cpu = None
    for tensor in _tensors(args, kwargs):
        device = getattr(tensor, TAG, None)
        if device == NPU:
            npu = tensor if npu is None else npu
        elif device == CPU and (cpu is None or cpu.dim() == 0):
            cpu = tensor
    if npu is None or cpu is None:
        return None
    seen = f"an NPU tensor of shape {list(npu.shape)} with a CPU tensor of shape {list(cpu.shape)}"
    if cpu.dim() > 0:
        return "cpu-tensor-to-npu-op", seen
    if name in _COMPARISONS:
        return "cross-device-scalar-compare", seen
    return None


# Multiplications: an int64 tensor times a number is the Muls operator, which does not take int64 (the guide's FAQ,
# unsupported_or_caveats.csv row 10: "label_batch.npu() used in mul").
_MULTIPLICATIONS = frozenset(("torch.mul", "torch.multiply", "torch.Tensor.mul", "torch.Tensor.mul_",
                              "torch.Tensor.multiply", "torch.Tensor.multiply_", "torch.Tensor.__mul__",
                              "torch.Tensor.__rmul__", "torch.Tensor.__imul__"))


def int64_times_number(name: str, args) -> str | None:
    """What was seen when a user's call multiplies an int64 tensor on the NPU by a Python number, else None."""
    if name not in _MULTIPLICATIONS or len(args) != 2:
        return None
    tensor, number = (args[0], args[1]) if isinstance(args[0], torch.Tensor) else (args[1], args[0])
    if (isinstance(tensor, torch.Tensor) and tensor.dtype == torch.int64 and getattr(tensor, TAG, None) == NPU
            and type(number) in (int, float)):
        return f"an int64 NPU tensor of shape {list(tensor.shape)} times the number {number!r}"
    return None
