"""`compare`: the PyTorch model and its MindSpore port on the same weights and inputs, output by output and layer
by layer (forward hooks on both sides), naming the first layer that diverges; also checkpoint against checkpoint
and saved array against saved array."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascend_migrate.weights.convert import load_into, plan_conversion
from ascend_migrate.weights.errors import WeightsError
from ascend_migrate.weights.models import build_model
from ascend_migrate.weights.naming import MapRule, ParameterMap, build_map
from ascend_migrate.weights.numbers import Difference, Tolerance, difference
from ascend_migrate.weights.packages import require
from ascend_migrate.weights.sources import read_weights

INPUT_SEED = 0  # inputs drawn from a shape are the same on every run


@dataclass
class Comparison:
    kind: str  # "models", "checkpoints" or "arrays"
    tolerance: Tolerance
    outputs: list[Difference] = field(default_factory=list)
    layers: list[Difference] = field(default_factory=list)  # forward order of the PyTorch model
    gradients: list[Difference] = field(default_factory=list)
    parameters: list[Difference] = field(default_factory=list)  # checkpoints
    not_compared: list[str] = field(default_factory=list)  # what had no counterpart, and why
    inputs: list[str] = field(default_factory=list)
    parameter_map: ParameterMap | None = None

    @property
    def first_diverging_layer(self) -> Difference | None:
        return next((layer for layer in self.layers if not layer.passed), None)

    @property
    def passed(self) -> bool:
        checked = self.outputs + self.gradients + self.parameters
        return bool(checked) and all(item.passed for item in checked) and (self.parameter_map is None or self.parameter_map.complete)


def parse_input(text: str) -> Any:
    """`8,3,32,32` → a float32 array drawn from N(0, 1) with a fixed seed; `FILE.npy` → that array."""
    numpy = require("numpy", "making inputs")
    if text.lower().endswith(".npy"):
        path = Path(text)
        if not path.is_file():
            raise WeightsError(f"--input {text}: no such file")
        try:
            return numpy.load(path, allow_pickle=False)
        except (ValueError, OSError) as error:
            raise WeightsError(f"--input {text}: not a readable .npy file: {error}") from None
    parts = text.split(",")
    if not all(part.strip().isdigit() and int(part) > 0 for part in parts):
        raise WeightsError(f"--input {text!r}: expected a shape such as 8,3,224,224 or a FILE.npy")
    generator = numpy.random.default_rng(INPUT_SEED)
    return generator.standard_normal([int(part) for part in parts]).astype(numpy.float32)


def compare_models(torch_reference: str, mindspore_reference: str, weights: Path | None, inputs: list[str],
                   tolerance: Tolerance, rules: list[MapRule], gradients: bool = False) -> Comparison:
    torch = require("torch", "compare")
    mindspore = require("mindspore", "compare")
    numpy = require("numpy", "compare")
    arrays = [parse_input(text) for text in inputs]
    if not arrays:
        raise WeightsError("compare needs --input SHAPE or --input FILE.npy (once per argument of forward)")
    torch_model = build_model(torch_reference)
    mindspore_model = build_model(mindspore_reference)
    conversion = plan_conversion(weights, torch_model, mindspore_model, "nn", rules)
    result = Comparison("models", tolerance, parameter_map=conversion.parameter_map,
                        inputs=[f"{text}: {list(array.shape)} {array.dtype}" for text, array in zip(inputs, arrays, strict=True)])
    if not conversion.parameter_map.complete:
        return result  # the map's problems are the result: running on half-loaded weights would mislead
    if weights is not None:
        state = {name: torch.from_numpy(numpy.ascontiguousarray(array)) for name, array in conversion.weights.arrays.items()}
        missing, unexpected = torch_model.load_state_dict(state, strict=False)
        if missing or unexpected:
            raise WeightsError(f"{weights} does not fit {torch_reference}: missing {', '.join(missing) or 'none'}; "
                               f"unexpected {', '.join(unexpected) or 'none'}")
    load_into(mindspore_model, conversion)
    torch_model.eval()
    mindspore_model.set_train(False)

    torch_seen = _record_torch(torch_model)
    mindspore_seen = _record_mindspore(mindspore_model)
    torch_inputs = [torch.from_numpy(numpy.ascontiguousarray(array)) for array in arrays]
    mindspore_inputs = [mindspore.Tensor(array) for array in arrays]
    with torch.no_grad():
        torch_output = _arrays(_running("the PyTorch model", torch_model, torch_inputs))
    mindspore_output = _arrays(_running("the MindSpore model", mindspore_model, mindspore_inputs))
    result.outputs = _differences("output", torch_output, mindspore_output, tolerance)
    result.layers, result.not_compared = _layer_differences(torch_seen, mindspore_seen, conversion.parameter_map, tolerance)
    if gradients:
        result.gradients = _gradient_differences(torch_model, mindspore_model, torch_inputs, mindspore_inputs,
                                                 conversion.parameter_map, tolerance, result.not_compared)
    return result


def _running(what: str, model: Any, inputs: list[Any]) -> Any:
    """The model's output, or WeightsError saying which model failed and how (a traceback helps no one here)."""
    try:
        return model(*inputs)
    except Exception as error:
        message = " ".join(str(error).split())[:400]
        hint = ""
        if what == "the MindSpore model" and ("kernel" in message.lower() or "not support" in message.lower()):
            hint = " (on CPU, mindspore 2.10's mint layers lack kernels for Conv2d, BatchNorm and cross_entropy: use mindspore.nn layers there)"
        raise WeightsError(f"{what} failed on the inputs given: {type(error).__name__}: {message}{hint}") from None


def _record_torch(model: Any) -> dict[str, list[list[Any]]]:
    seen: dict[str, list[list[Any]]] = {}
    for name, module in model.named_modules():
        if name:
            module.register_forward_hook(lambda module, inputs, output, name=name: seen.setdefault(name, []).append(_arrays(output)))
    return seen


def _record_mindspore(cell: Any) -> dict[str, list[list[Any]]]:
    seen: dict[str, list[list[Any]]] = {}
    for name, child in cell.cells_and_names():
        if name:
            child.register_forward_hook(lambda child, inputs, output, name=name: seen.setdefault(name, []).append(_arrays(output)))
    return seen


def _arrays(value: Any) -> list[Any]:
    """Every tensor in an output (a tensor, or tuples and lists of them), as float numpy arrays, in order."""
    if isinstance(value, (tuple, list)):
        return [array for item in value for array in _arrays(item)]
    if hasattr(value, "detach"):  # torch.Tensor
        value = value.detach()
        return [(value.float() if value.dtype.is_floating_point else value).cpu().numpy()]
    if hasattr(value, "asnumpy"):  # mindspore.Tensor
        mindspore = require("mindspore", "compare")
        return [(value.astype(mindspore.float32) if value.dtype == mindspore.bfloat16 else value).asnumpy()]
    return []


def _differences(name: str, torch_arrays: list[Any], mindspore_arrays: list[Any], tolerance: Tolerance) -> list[Difference]:
    if len(torch_arrays) != len(mindspore_arrays):
        note = f"PyTorch gives {len(torch_arrays)} tensors, MindSpore {len(mindspore_arrays)}"
        return [Difference(name, (), (), None, None, None, False, note)]
    if len(torch_arrays) == 1:
        return [difference(name, torch_arrays[0], mindspore_arrays[0], tolerance)]
    return [difference(f"{name}[{index}]", expected, actual, tolerance)
            for index, (expected, actual) in enumerate(zip(torch_arrays, mindspore_arrays, strict=True))]


def _layer_differences(torch_seen, mindspore_seen, parameter_map: ParameterMap, tolerance: Tolerance) -> tuple[list[Difference], list[str]]:
    """Each PyTorch module's outputs against the MindSpore cell of the same path, else the one the map gives its
    parameters, call by call, in the order the PyTorch modules finished (inner layers before their containers)."""
    pairs = parameter_map.layer_pairs()
    layers: list[Difference] = []
    not_compared: list[str] = []
    for name, calls in torch_seen.items():
        counterpart = name if name in mindspore_seen else pairs.get(name)
        if counterpart is None or counterpart not in mindspore_seen:
            not_compared.append(f"layer {name}: no MindSpore cell of that path ran")
            continue
        label = name if counterpart == name else f"{name} → {counterpart}"
        other_calls = mindspore_seen[counterpart]
        if len(other_calls) != len(calls):
            not_compared.append(f"layer {label}: called {len(calls)} times in PyTorch, {len(other_calls)} in MindSpore")
            continue
        for index, (expected, actual) in enumerate(zip(calls, other_calls, strict=True)):
            layers.extend(_differences(label if len(calls) == 1 else f"{label} (call {index + 1})", expected, actual, tolerance))
    return layers, not_compared


def _gradient_differences(torch_model, mindspore_model, torch_inputs, mindspore_inputs, parameter_map: ParameterMap,
                          tolerance: Tolerance, not_compared: list[str]) -> list[Difference]:
    """Gradients of the sum of the first output with respect to every parameter, matched through the map."""
    mindspore = require("mindspore", "compare --grad")
    torch_model.zero_grad()
    _first(_running("the PyTorch model", torch_model, torch_inputs)).float().sum().backward()
    torch_gradients = {name: parameter.grad for name, parameter in torch_model.named_parameters()}
    weights = mindspore_model.trainable_params()
    function = mindspore.value_and_grad(lambda *inputs: _first(mindspore_model(*inputs)).astype(mindspore.float32).sum(), None, weights)
    _, gradients = _running("the MindSpore model", function, mindspore_inputs)
    mindspore_gradients = {parameter.name: gradient for parameter, gradient in zip(weights, gradients, strict=True)}
    result = []
    for entry in parameter_map.mapped:
        if entry.source not in torch_gradients:
            continue  # a buffer (running_mean): no gradient on either side
        torch_gradient = torch_gradients[entry.source]
        if torch_gradient is None or entry.target not in mindspore_gradients:
            not_compared.append(f"gradient {entry.source}: {'no torch gradient' if torch_gradient is None else 'not trainable in MindSpore'}")
            continue
        label = entry.source if entry.source == entry.target else f"{entry.source} → {entry.target}"
        result.append(difference(label, torch_gradient.numpy(), mindspore_gradients[entry.target].asnumpy(), tolerance))
    return result


def _first(output: Any) -> Any:
    return output[0] if isinstance(output, (tuple, list)) else output


def compare_files(first: Path, second: Path, tolerance: Tolerance, rules: list[MapRule]) -> Comparison:
    """Two checkpoints (the first's names mapped onto the second's, as convert would with a target) or two .npy."""
    arrays = [path.suffix.lower() == ".npy" for path in (first, second)]
    if arrays[0] != arrays[1]:
        raise WeightsError(f"compare {first} {second}: a .npy array is compared with another .npy, a checkpoint with a checkpoint")
    one, other = read_weights(first), read_weights(second)
    if all(arrays):
        [expected], [actual] = one.arrays.values(), other.arrays.values()
        return Comparison("arrays", tolerance, outputs=[difference(f"{first.name} vs {second.name}", expected, actual, tolerance)])
    shapes = {name: tuple(array.shape) for name, array in one.arrays.items()}
    target = {name: (tuple(array.shape), other.dtypes[name]) for name, array in other.arrays.items()}
    parameter_map = build_map(shapes, one.dtypes, None, target, "nn", rules)
    result = Comparison("checkpoints", tolerance, parameter_map=parameter_map)
    for entry in parameter_map.mapped:
        label = entry.source if entry.source == entry.target else f"{entry.source} → {entry.target}"
        result.parameters.append(difference(label, one.arrays[entry.source], other.arrays[entry.target], tolerance))
    return result
