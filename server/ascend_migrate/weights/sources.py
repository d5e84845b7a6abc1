"""Read weights from a file into names → numpy arrays: .pth/.pt/.bin (torch, weights_only), .safetensors, .ckpt, .npy.

A checkpoint never executes code here: torch files load with `weights_only=True` (tensors and plain containers
only), numpy files with `allow_pickle=False`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascend_migrate.weights.errors import WeightsError
from ascend_migrate.weights.packages import require

TORCH_SUFFIXES = (".pth", ".pt", ".bin")
SUFFIXES = (*TORCH_SUFFIXES, ".safetensors", ".ckpt", ".npy")
# Where training scripts usually keep the state dict inside a checkpoint dict, tried in this order.
STATE_DICT_KEYS = ("state_dict", "model_state_dict", "model", "net", "network", "module", "weights")


@dataclass
class Weights:
    """Named arrays in file order, the dtype each had in the file (bfloat16 is held as float32), and notes."""

    arrays: dict[str, Any]
    dtypes: dict[str, str]
    notes: list[str] = field(default_factory=list)


def read_weights(path: Path) -> Weights:
    """The weights in `path`, or WeightsError saying what is wrong with the file."""
    if not path.is_file():
        raise WeightsError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix in TORCH_SUFFIXES:
        return _from_torch_file(path)
    if suffix == ".safetensors":
        return _from_safetensors(path)
    if suffix == ".ckpt":
        return _from_mindspore_checkpoint(path)
    if suffix == ".npy":
        numpy = require("numpy", "reading .npy files")
        try:
            array = numpy.load(path, allow_pickle=False)
        except (ValueError, OSError) as error:
            raise WeightsError(f"{path}: not a readable .npy file: {error}") from None
        return Weights({path.stem: array}, {path.stem: str(array.dtype)})
    raise WeightsError(f"{path}: unknown weights format {suffix or '(no suffix)'!r}; expected one of {', '.join(SUFFIXES)}")


def _from_torch_file(path: Path) -> Weights:
    torch = require("torch", f"reading {path.suffix} files")
    try:
        loaded = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # pickle errors, a refused global, a truncated file: all say the same thing here
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise WeightsError(f"{path}: cannot be read as PyTorch weights with weights_only=True: {first_line}") from None
    state, where = _find_state_dict(loaded, torch)
    if state is None:
        raise WeightsError(f"{path}: holds no state dict (a dict of tensors, or a checkpoint dict with one under "
                           f"{', '.join(repr(key) for key in STATE_DICT_KEYS)})")
    weights = _from_torch_tensors(state, torch)
    if where:
        weights.notes.append(f"the state dict is the checkpoint's {where!r} entry")
    return _strip_data_parallel_prefix(weights)


def _find_state_dict(loaded: Any, torch: Any) -> tuple[dict[str, Any] | None, str]:
    def is_state_dict(value: Any) -> bool:
        return isinstance(value, dict) and bool(value) and all(isinstance(key, str) and isinstance(item, torch.Tensor) for key, item in value.items())

    if is_state_dict(loaded):
        return loaded, ""
    if isinstance(loaded, dict):
        for key in STATE_DICT_KEYS:
            if is_state_dict(loaded.get(key)):
                return loaded[key], key
    return None, ""


def _from_safetensors(path: Path) -> Weights:
    torch = require("torch", "reading .safetensors files")
    safetensors_torch = require("safetensors.torch", "reading .safetensors files")
    try:
        state = safetensors_torch.load_file(str(path), device="cpu")
    except Exception as error:
        raise WeightsError(f"{path}: not a readable .safetensors file: {error}") from None
    return _strip_data_parallel_prefix(_from_torch_tensors(state, torch))


def _from_torch_tensors(state: dict[str, Any], torch: Any) -> Weights:
    arrays: dict[str, Any] = {}
    dtypes: dict[str, str] = {}
    for name, tensor in state.items():
        tensor = tensor.detach().cpu()
        dtypes[name] = str(tensor.dtype).removeprefix("torch.")
        if tensor.dtype == torch.bfloat16:  # numpy has no bfloat16: held as float32, written back as bfloat16
            tensor = tensor.float()
        arrays[name] = tensor.numpy().copy()
    return Weights(arrays, dtypes)


def _strip_data_parallel_prefix(weights: Weights) -> Weights:
    """`module.` on every name is what (Distributed)DataParallel adds; the model's own names do not have it."""
    if weights.arrays and all(name.startswith("module.") for name in weights.arrays):
        weights.arrays = {name.removeprefix("module."): array for name, array in weights.arrays.items()}
        weights.dtypes = {name.removeprefix("module."): dtype for name, dtype in weights.dtypes.items()}
        weights.notes.append("the `module.` prefix of (Distributed)DataParallel was removed from every name")
    return weights


def _from_mindspore_checkpoint(path: Path) -> Weights:
    mindspore = require("mindspore", "reading .ckpt files")
    try:
        loaded = mindspore.load_checkpoint(str(path))
    except Exception as error:
        raise WeightsError(f"{path}: not a readable MindSpore checkpoint: {error}") from None
    arrays = {name: parameter.asnumpy() for name, parameter in loaded.items()}
    return Weights(arrays, {name: _mindspore_dtype_name(parameter.dtype) for name, parameter in loaded.items()})


def _mindspore_dtype_name(dtype: Any) -> str:
    return str(dtype).lower()  # Float32 → float32, as torch names it


def model_weights(model: Any) -> Weights:
    """A torch module's own state dict (its initialised or loaded weights)."""
    torch = require("torch", "reading a PyTorch model's weights")
    return _from_torch_tensors(model.state_dict(), torch)
