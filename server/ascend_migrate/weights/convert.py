"""`weights convert`: torch weights → the parameter map → a MindSpore .ckpt written whole or not at all."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ascend_migrate.weights.errors import WeightsError
from ascend_migrate.weights.naming import MapRule, ParameterMap, build_map
from ascend_migrate.weights.packages import require
from ascend_migrate.weights.sources import Weights, model_weights, read_weights


@dataclass
class Conversion:
    weights: Weights
    parameter_map: ParameterMap


def torch_layers(model: Any) -> dict[str, str]:
    """torch module name → its class name (`features.1` → `BatchNorm2d`)."""
    return {name: type(module).__name__ for name, module in model.named_modules()}


def mindspore_parameters(cell: Any) -> dict[str, tuple[tuple[int, ...], str]]:
    """MindSpore parameter name → (shape, dtype name), as load_param_into_net matches them."""
    return {parameter.name: (tuple(parameter.shape), str(parameter.dtype).lower()) for _, parameter in cell.parameters_and_names()}


def plan_conversion(source: Path | None, torch_model: Any, target_cell: Any | None, era: str, rules: list[MapRule]) -> Conversion:
    """Read `source` (or take the torch model's own weights when None) and map it onto the target or the era."""
    weights = read_weights(source) if source is not None else model_weights(torch_model)
    shapes = {name: tuple(array.shape) for name, array in weights.arrays.items()}
    target = mindspore_parameters(target_cell) if target_cell is not None else None
    return Conversion(weights, build_map(shapes, weights.dtypes, torch_layers(torch_model), target, era, rules))


def converted_tensors(conversion: Conversion) -> dict[str, Any]:
    """MindSpore name → mindspore.Tensor in the target's shape and dtype."""
    mindspore = require("mindspore", "writing a MindSpore checkpoint")
    tensors = {}
    for entry in conversion.parameter_map.mapped:
        array = conversion.weights.arrays[entry.source].reshape(entry.target_shape)
        dtype = getattr(mindspore, entry.target_dtype, None)
        if dtype is None:
            raise WeightsError(f"{entry.source}: MindSpore has no dtype {entry.target_dtype!r}")
        tensors[entry.target] = mindspore.Tensor(array, dtype=dtype)
    return tensors


def load_into(cell: Any, conversion: Conversion) -> None:
    """Put the converted weights into a MindSpore model (every one of its parameters must be filled)."""
    mindspore = require("mindspore", "loading weights into a MindSpore model")
    parameters = {name: mindspore.Parameter(tensor, name=name) for name, tensor in converted_tensors(conversion).items()}
    not_loaded, _ = mindspore.load_param_into_net(cell, parameters, strict_load=True)
    if not_loaded:
        raise WeightsError(f"the MindSpore model kept its initial values for {', '.join(not_loaded)}")


def checkpoint_bytes(conversion: Conversion) -> bytes:
    """The .ckpt file's bytes (MindSpore writes only to a path: a private temporary directory, then read back)."""
    mindspore = require("mindspore", "writing a MindSpore checkpoint")
    save_list = [{"name": name, "data": tensor} for name, tensor in converted_tensors(conversion).items()]
    with tempfile.TemporaryDirectory(prefix="ascend-migrate-ckpt-") as directory:
        path = Path(directory) / "converted.ckpt"
        mindspore.save_checkpoint(save_list, str(path))
        return path.read_bytes()


def default_output(source: Path) -> Path:
    """Where `weights convert SRC` writes without -o, and the name the torch.load fix loads: SRC with .ckpt."""
    return source.with_suffix(".ckpt")
