"""Keras weights → MindSpore names and layouts: legacy HDF5 files (.h5, `model_weights/` or at the root, with
`layer_names` and `weight_names`) and Keras 3 archives (.keras: `config.json` and `model.weights.h5`).

Keras keeps no parameter names a MindSpore model shares, so the weighted layers are matched in order with the
MindSpore cells that hold parameters (the `--target-model` is required), and each weight by its role.
Layouts (Keras's own documentation of the layers' kernels; mindspore.nn 2.10.0 parameters read as in
renames.py): Dense kernel (in, out) → Dense weight (out, in); Conv2D kernel (h, w, in, out) → Conv2d weight
(out, in, h, w); Conv1D kernel (k, in, out) → Conv1d weight (out, in, 1, k).
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ascend_migrate.weights.errors import WeightsError
from ascend_migrate.weights.naming import Mapped, ParameterMap
from ascend_migrate.weights.packages import require
from ascend_migrate.weights.sources import Weights

SUFFIXES = (".h5", ".keras")
# Keras role → the mindspore.nn parameter that holds it.
ROLE_NAMES = {"kernel": "weight", "bias": "bias", "gamma": "gamma", "beta": "beta", "moving_mean": "moving_mean",
              "moving_variance": "moving_variance", "embeddings": "embedding_table"}
# The order of a Keras 3 layer's variables (`vars/0`, `vars/1`, ...) by class, when its config keeps them all.
_ROLES_BY_CLASS = {
    "Dense": ("kernel", "bias"), "Conv1D": ("kernel", "bias"), "Conv2D": ("kernel", "bias"),
    "BatchNormalization": ("gamma", "beta", "moving_mean", "moving_variance"),
    "LayerNormalization": ("gamma", "beta"), "Embedding": ("embeddings",),
}


@dataclass
class KerasLayer:
    name: str
    class_name: str  # "" when the file does not say (a legacy weights-only file)
    weights: list[tuple[str, Any]]  # (role, array) in the layer's order


def read_keras(path: Path) -> list[KerasLayer]:
    """The weighted layers of a Keras file, in the model's order."""
    h5py = require("h5py", "reading Keras weights")
    if not path.is_file():
        raise WeightsError(f"{path}: no such file")
    try:
        if path.suffix.lower() == ".keras":
            with zipfile.ZipFile(path) as archive:
                config = json.loads(archive.read("config.json"))
                data = archive.read("model.weights.h5")
            with h5py.File(io.BytesIO(data), "r") as file:
                return _keras3_layers(config, file, path)
        with h5py.File(path, "r") as file:
            return _legacy_layers(file, path)
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
        raise WeightsError(f"{path}: not a readable Keras weights file: {error}") from None


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _legacy_layers(file: Any, path: Path) -> list[KerasLayer]:
    root = file["model_weights"] if "model_weights" in file else file
    if "layer_names" not in root.attrs:
        raise WeightsError(f"{path}: no `layer_names` (neither a Keras HDF5 model nor a weights file)")
    classes = {}
    if "model_config" in file.attrs:  # model.save(".h5") keeps the architecture: the class of each layer
        config = json.loads(_text(file.attrs["model_config"]))
        classes = {layer["config"]["name"]: layer["class_name"] for layer in config.get("config", {}).get("layers", [])}
    layers = []
    for name in map(_text, root.attrs["layer_names"]):
        group = root[name]
        weights = [(_text(weight).rsplit("/", 1)[-1].split(":")[0], group[_text(weight)][()])
                   for weight in group.attrs.get("weight_names", [])]
        if weights:
            layers.append(KerasLayer(name, classes.get(name, ""), weights))
    return layers


def _keras3_layers(config: dict[str, Any], file: Any, path: Path) -> list[KerasLayer]:
    by_name = {}
    for group in file.get("layers", {}).values():
        variables = group.get("vars")
        if variables is not None and len(variables):
            by_name[_text(variables.attrs.get("name", ""))] = [variables[str(index)][()] for index in range(len(variables))]
    layers = []
    for layer in config.get("config", {}).get("layers", []):
        class_name, settings = layer.get("class_name", ""), layer.get("config", {})
        arrays = by_name.get(settings.get("name"))
        if not arrays:
            continue
        roles = list(_ROLES_BY_CLASS.get(class_name, ()))
        if class_name in ("Dense", "Conv1D", "Conv2D") and not settings.get("use_bias", True):
            roles.remove("bias")
        if class_name in ("BatchNormalization", "LayerNormalization"):
            roles = [role for role in roles if not (role == "gamma" and not settings.get("scale", True))
                     and not (role == "beta" and not settings.get("center", True))]
        if len(roles) != len(arrays):
            roles = [f"variable {index}" for index in range(len(arrays))]  # unknown class: reported as unmapped
        layers.append(KerasLayer(settings["name"], class_name, list(zip(roles, arrays, strict=True))))
    if not layers and by_name:
        raise WeightsError(f"{path}: the archive's config names none of the layers its weights belong to")
    return layers


def _to_mindspore_layout(role: str, array: Any, class_name: str) -> tuple[Any, str]:
    """The array in mindspore.nn's layout, and what was done (empty: nothing)."""
    numpy = require("numpy", "converting Keras weights")
    if role != "kernel":
        return array, ""
    if array.ndim == 2 and class_name in ("Dense", ""):
        return numpy.ascontiguousarray(array.T), "Dense kernel (in, out) transposed to (out, in)"
    if array.ndim == 4 and class_name in ("Conv2D", ""):
        return numpy.ascontiguousarray(array.transpose(3, 2, 0, 1)), "Conv2D kernel (h, w, in, out) to (out, in, h, w)"
    if array.ndim == 3 and class_name in ("Conv1D", ""):
        return numpy.ascontiguousarray(array.transpose(2, 1, 0))[:, :, None, :], "Conv1D kernel (k, in, out) to (out, in, 1, k)"
    return array, "no layout rule"


def map_keras(layers: list[KerasLayer], target_cell: Any) -> tuple[Weights, ParameterMap]:
    """Match the weighted Keras layers in order with the MindSpore cells that own parameters, weight by role."""
    cells = [(name, [parameter for parameter in cell.get_parameters(expand=False)])
             for name, cell in target_cell.cells_and_names() if list(cell.get_parameters(expand=False))]
    targets = {parameter.name: (tuple(parameter.shape), str(parameter.dtype).lower()) for _, parameter in target_cell.parameters_and_names()}
    arrays: dict[str, Any] = {}
    result = ParameterMap()
    taken: set[str] = set()
    for index, layer in enumerate(layers):
        cell_name = cells[index][0] if index < len(cells) else None
        for role, array in layer.weights:
            source = f"{layer.name}/{role}"
            arrays[source] = array
            if cell_name is None:
                result.unmapped.append((source, f"the MindSpore model has {len(cells)} cells with parameters; Keras layer {index + 1} has none to go to"))
                continue
            leaf = ROLE_NAMES.get(role)
            converted, how = _to_mindspore_layout(role, array, layer.class_name)
            target = f"{cell_name}.{leaf}" if cell_name else str(leaf)
            if leaf is None or how == "no layout rule":
                result.unmapped.append((source, f"no rule for the {role!r} of a Keras {layer.class_name or 'layer'} (use a MindSpore layer of these kinds: {', '.join(_ROLES_BY_CLASS)})"))
                continue
            if target not in targets:
                result.unmapped.append((source, f"the MindSpore cell {cell_name} (layer {index + 1} with parameters) has no {leaf}"))
                continue
            target_shape, target_dtype = targets[target]
            if tuple(converted.shape) != target_shape:
                result.shape_mismatches.append((source, target, tuple(converted.shape), target_shape))
                continue
            arrays[source] = converted
            taken.add(target)
            result.mapped.append(Mapped(source, target, how or "Keras role " + role, layer.name, cell_name, tuple(array.shape),
                                        target_shape, str(array.dtype), target_dtype))
    result.missing = [name for name in targets if name not in taken]
    return Weights(arrays, {name: str(array.dtype) for name, array in arrays.items()}), result
